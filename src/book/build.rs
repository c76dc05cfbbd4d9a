//! Building a book by Crown's own analysis (`crown book build`).
//!
//! 1. Breadth first from the start position, one ply at a time: every legal
//!    move of every position at the ply is searched on its own (the position
//!    after it, `nodes` nodes, a fresh table), in parallel over the moves of
//!    the whole ply. A move that ends the game is scored by its result.
//! 2. The positions after the moves go on to the next ply: all of them for
//!    the first `full` plies (so any opening a match draws from that many
//!    random plies starts in the book), then only those of moves within
//!    `margin` of the position's best (the lines either side may play). A
//!    position met before (a transposition) is not searched again.
//! 3. Up to `depth` plies. Then the scores are backed up, deepest
//!    positions first: a move whose resulting position is in the book takes
//!    the negated best score of that position, so the book's choice at the
//!    root sees the analysis below it, not only its own search. (A position
//!    met again by a cycle, chess only, keeps the value it had then.)
//!
//! The result depends only on the configuration and the engine (fixed
//! nodes, one thread a search): the same command builds the same book.

use super::{key, Book, Entry};
use crate::eval::Playable;
use crate::game::{Game, Outcome, Variant};
use crate::score::{Score, MATE};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Signals, Silent, Worker};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// What to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Plies from the start position (the deepest book positions are at
    /// `depth - 1`: their moves are scored, the positions after them are not
    /// in the book).
    pub depth: u32,
    /// Plies over which every move is followed.
    pub full: u32,
    /// Nodes of each move's search.
    pub nodes: u64,
    /// After `full` plies, moves within this much of the best are followed.
    pub margin: Score,
    /// Searches run at once.
    pub threads: usize,
    /// Hash table of each search, MiB.
    pub hash_mb: usize,
}

/// One book position being built.
struct Node<G: Game> {
    pos: G,
    history: Vec<u64>,
    key: u64,
}

/// A searched move: its position's index, the move, its score, and the
/// position after it with its key and history.
struct Scored<G: Game> {
    from: usize,
    mv: G::Move,
    score: Score,
    child: Node<G>,
}

/// Searches the position after `mv` (the move of position `from`, `node`)
/// and scores `mv` for the side playing it.
fn score_move<G: Playable>(
    from: usize,
    node: &Node<G>,
    mv: G::Move,
    config: &Config,
) -> Result<Scored<G>, String> {
    let mut child = node.pos.clone();
    child.play(mv);
    let mut history = node.history.clone();
    history.push(node.pos.hash());
    let score = match child.outcome(&history) {
        Some(Outcome::Win(side)) if side == node.pos.side_to_move() => MATE - 1,
        Some(Outcome::Win(_)) => -(MATE - 1),
        Some(Outcome::Draw(_)) => 0,
        None => {
            let tt = Arc::new(TranspositionTable::new(config.hash_mb).map_err(|e| e.to_string())?);
            let signals = Arc::new(Signals::default());
            signals.stop.store(false, Ordering::Relaxed);
            signals.nodes.store(0, Ordering::Relaxed);
            let mut worker = Worker::<G>::new(0, tt, signals);
            let limits = Limits { nodes: Some(config.nodes), ..Limits::default() };
            -worker.think(&child, &history, &limits, &Silent, Instant::now()).score
        }
    };
    Ok(Scored { from, mv, score, child: Node { key: key(&child), pos: child, history } })
}

fn stored(score: Score) -> i16 {
    score.clamp(-Score::from(i16::MAX), Score::from(i16::MAX)) as i16
}

/// Builds a book of `variant`, calling `progress` with a line after each
/// ply.
pub fn build<G: Playable>(
    variant: Variant,
    config: &Config,
    mut progress: impl FnMut(&str),
) -> Result<Book, String> {
    if config.depth == 0 || config.nodes == 0 || config.threads == 0 {
        return Err("depth, nodes and threads must be at least 1".into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let root = G::start(variant);
    let mut seen: HashSet<u64> = HashSet::from([key(&root)]);
    let mut frontier = vec![Node { history: Vec::new(), key: key(&root), pos: root }];
    // Every book position's moves (move text, child key, score), in the
    // order the positions were found.
    let mut order: Vec<u64> = Vec::new();
    let mut lines: HashMap<u64, Vec<(String, u64, Score)>> = HashMap::new();
    for ply in 0..config.depth {
        let tasks: Vec<(usize, G::Move)> = frontier
            .iter()
            .enumerate()
            .flat_map(|(i, node)| {
                let mut list = G::MoveList::default();
                node.pos.generate(&mut list);
                list.iter().map(|&mv| (i, mv)).collect::<Vec<_>>()
            })
            .collect();
        let results: Vec<Result<Scored<G>, String>> = pool.install(|| {
            tasks
                .par_iter()
                .map(|&(from, mv)| score_move(from, &frontier[from], mv, config))
                .collect()
        });
        let mut by_node: Vec<Vec<Scored<G>>> = (0..frontier.len()).map(|_| Vec::new()).collect();
        for r in results {
            let r = r?;
            by_node[r.from].push(r);
        }
        let mut next = Vec::new();
        for (node, moves) in frontier.iter().zip(by_node) {
            let Some(best) = moves.iter().map(|m| m.score).max() else { continue };
            order.push(node.key);
            let mut line = Vec::with_capacity(moves.len());
            for scored in moves {
                let child = scored.child;
                line.push((node.pos.full_move_text(scored.mv), child.key, scored.score));
                let follow = ply < config.full || scored.score >= best - config.margin;
                let live = child.pos.outcome(&child.history).is_none();
                if ply + 1 < config.depth && follow && live && seen.insert(child.key) {
                    next.push(child);
                }
            }
            lines.insert(node.key, line);
        }
        progress(&format!(
            "ply {ply}: {} positions, {} moves searched; {} positions in all, {:.0} s",
            frontier.len(),
            tasks.len(),
            order.len(),
            start.elapsed().as_secs_f64()
        ));
        frontier = next;
        if frontier.is_empty() {
            break;
        }
    }

    // Step 3: back up, deepest first.
    let mut best: HashMap<u64, Score> = HashMap::new();
    for k in order.iter().rev() {
        let line = lines.get_mut(k).expect("every ordered key has its line");
        for (_, child, score) in line.iter_mut() {
            if let Some(&b) = best.get(child) {
                *score = -b;
            }
        }
        let top = line.iter().map(|&(_, _, s)| s).max().unwrap_or(0);
        best.insert(*k, top);
    }
    let mut book = Book::new(variant, config.depth, config.nodes);
    for (k, line) in lines {
        book.insert(
            k,
            line.into_iter().map(|(text, _, score)| Entry { text, score: stored(score) }).collect(),
        );
    }
    Ok(book)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::International;

    #[test]
    fn a_small_book_is_whole_and_backed_up() {
        let config = Config { depth: 3, full: 1, nodes: 300, margin: 10, threads: 2, hash_mb: 1 };
        let book = build::<International>(Variant::International, &config, |_| {}).expect("build");
        let start = International::start(Variant::International);
        // The start and every position after one ply are in the book, each
        // with all its legal moves.
        let root = book.moves(key(&start)).expect("start in book");
        assert_eq!(root.len() as u64, start.count_legal());
        let mut list = <International as Game>::MoveList::default();
        start.generate(&mut list);
        for &mv in list.iter() {
            let mut after = start;
            after.play(mv);
            let moves = book.moves(key(&after)).expect("ply 1 in book");
            assert_eq!(moves.len() as u64, after.count_legal());
            // Backed up: the root's score of this move is minus the best
            // reply's.
            let entry = root.iter().find(|e| e.text == start.full_move_text(mv)).expect("entry");
            assert_eq!(entry.score, -moves[0].score);
        }
        // Fixed nodes, one thread a search: the same command, the same book.
        let again = build::<International>(Variant::International, &config, |_| {}).expect("b");
        assert_eq!(again, book);
        assert!(book.len() > 1 + list.len());
    }
}
