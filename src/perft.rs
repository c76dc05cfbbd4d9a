//! Perft: the number of leaf nodes of the legal move tree to a fixed depth,
//! the standard test of a move generator's exactness and speed.
//!
//! Generic over [`Game`], so chess, Chess960 and every draughts variant share
//! it. The last ply is counted in bulk with [`Game::count_legal`] (no moves
//! are played there), as Stockfish's `go perft` does. The root moves can be
//! split over a rayon pool; the counts do not depend on the thread count.

use crate::game::Game;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaf count of the legal move tree of `pos` to `depth` plies.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut list = G::MoveList::default();
            pos.generate(&mut list);
            list.iter()
                .map(|&mv| {
                    let mut child = pos.clone();
                    child.play(mv);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// Per-root-move leaf counts to `depth` (`depth` >= 1), in generation order,
/// each with the move's protocol text. `threads` > 1 splits the root moves
/// over a rayon pool of that size.
pub fn divide<G: Game>(pos: &G, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let mut list = G::MoveList::default();
    pos.generate(&mut list);
    let count = |mv: G::Move| {
        let mut child = pos.clone();
        child.play(mv);
        (pos.move_text(mv), perft(&child, depth.saturating_sub(1)))
    };
    let serial = || list.iter().map(|&mv| count(mv)).collect::<Vec<_>>();
    if threads <= 1 {
        return serial();
    }
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| list.par_iter().map(|&mv| count(mv)).collect()),
        Err(_) => serial(),
    }
}

/// As [`divide`], but gives up as soon as `stop` is raised (checked at
/// every node two or more plies above the leaves): `None` then.
pub fn divide_until<G: Game>(
    pos: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(String, u64)>> {
    let mut list = G::MoveList::default();
    pos.generate(&mut list);
    let count = |mv: G::Move| {
        let mut child = pos.clone();
        child.play(mv);
        perft_until(&child, depth.saturating_sub(1), stop).map(|n| (pos.move_text(mv), n))
    };
    let serial = || list.iter().map(|&mv| count(mv)).collect::<Option<Vec<_>>>();
    let counts = if threads <= 1 {
        serial()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| list.par_iter().map(|&mv| count(mv)).collect()),
            Err(_) => serial(),
        }
    };
    counts.filter(|_| !stop.load(Ordering::Relaxed))
}

fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = G::MoveList::default();
    pos.generate(&mut list);
    let mut total = 0;
    for &mv in list.iter() {
        let mut child = pos.clone();
        child.play(mv);
        total += perft_until(&child, depth - 1, stop)?;
    }
    Some(total)
}
