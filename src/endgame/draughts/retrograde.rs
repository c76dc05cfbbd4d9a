//! Building by retrograde analysis, one signature at a time, smallest first.
//!
//! For a signature (both sides to move):
//! 1. Every position is looked at once, in parallel: its legal moves are
//!    generated; a move that captures or promotes leaves the signature and
//!    its result is read from a table built before (or, when it takes the
//!    last piece, from the game's own no-move rule). A move to a loss for the
//!    opponent makes a win; no move at all gives the game's no-move result.
//!    Otherwise the position keeps a counter of its quiet moves (those that
//!    stay in the signature) and a flag for "some exit draws".
//! 2. Decided positions are walked backwards: every predecessor by a quiet
//!    un-move of an undecided position is a win when it reaches a loss, and
//!    has its counter lowered when it reaches a win; at zero it is a loss, or
//!    a draw when an exit draws.
//! 3. What is still undecided is a draw (neither side can force a result).
//!
//! Invariant: an undecided position always has a positive counter and no
//! capture available (a position with a capture has no quiet move, so step 1
//! decides it), so step 2 never needs to test for captures.
//! The results ignore the move-count draw rules (see `probe.rs`).

use super::index::{Indexer, Placement, Signature};
use super::probe::{no_piece_result, Tablebase};
use super::storage::{Table, DRAW, LOSS, NONE, WIN};
use super::unmove::predecessors;
use super::Wdl;
use crate::draughts::position::MoveList;
use crate::draughts::rules::Rules;
use crate::game::Game;
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Working state: not yet decided.
const UNKNOWN: u8 = 4;
/// Counter flag: some move leaving the signature draws.
const DRAW_EXIT: u8 = 0x80;
/// Most pieces a table may have (the quiet-move counters are 7 bits).
pub const MAX_PIECES: usize = 6;
/// Positions handled per parallel task.
const CHUNK: usize = 1 << 14;

/// Why a build failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BuildError {
    /// A move leads to a signature that has no table (a bug in the order).
    Missing(Signature),
    /// More pieces than the indexer supports.
    TooLarge(Signature),
    /// The variant's state is more than the pieces (Frisian: the king
    /// limit counts), or its endings have no tables to build
    /// (breakthrough: the first king ends the game).
    Unsupported(&'static str),
    /// A finished table could not be kept (saved).
    Keep(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Missing(s) => write!(f, "no table for {s} while building"),
            BuildError::TooLarge(s) => write!(f, "{s} has too many positions to index"),
            BuildError::Unsupported(why) => write!(f, "no endgame tables: {why}"),
            BuildError::Keep(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for BuildError {}

fn code(wdl: Wdl) -> u8 {
    match wdl {
        Wdl::Win => WIN,
        Wdl::Loss => LOSS,
        Wdl::Draw => DRAW,
    }
}

/// The result for the side to move of a position outside the signature
/// being built (0 = draw, 1 = win, 2 = loss), or the missing signature.
fn exit_value<R: Rules>(
    tb: &Tablebase,
    pos: &crate::draughts::Position<R>,
) -> Result<u8, Signature> {
    let sig = Signature::of(pos);
    if sig.side_pieces(pos.side()) == 0 {
        return Ok(code(no_piece_result(pos.no_move_result())));
    }
    match tb.table(sig) {
        Some(t) => Ok(t.code(Indexer::<R>::new(sig).encode(&Placement::of(pos)))),
        None => Err(sig),
    }
}

/// Step 1 for one position: its state and its counter.
fn first_look<R: Rules>(
    ix: &Indexer<R>,
    tb: &Tablebase,
    index: u64,
    list: &mut MoveList,
) -> Result<(u8, u8), Signature> {
    let Some(p) = ix.decode(index) else { return Ok((NONE, 0)) };
    let pos = p.position::<R>();
    pos.generate_moves(list);
    if list.is_empty() {
        return Ok((code(no_piece_result(pos.no_move_result())), 0));
    }
    let mut quiet = 0u8;
    let mut draw_exit = false;
    for &mv in list.iter() {
        if !mv.is_capture() && !mv.promotes {
            quiet += 1;
            continue;
        }
        let mut child = pos;
        child.play_move(mv);
        match exit_value(tb, &child)? {
            LOSS => return Ok((WIN, 0)),
            DRAW => draw_exit = true,
            _ => {}
        }
    }
    Ok(match (quiet, draw_exit) {
        (0, true) => (DRAW, 0),
        (0, false) => (LOSS, 0),
        (n, flag) => (UNKNOWN, n | if flag { DRAW_EXIT } else { 0 }),
    })
}

/// Builds the table of `sig`; every signature a move can lead to must be in
/// `tb` already.
pub fn build_signature<R: Rules>(tb: &Tablebase, sig: Signature) -> Result<Table, BuildError> {
    // The counters hold at most 127 quiet moves: 6 flying kings have 102.
    if sig.pieces() > MAX_PIECES {
        return Err(BuildError::TooLarge(sig));
    }
    let ix = Indexer::<R>::new(sig);
    let size = usize::try_from(ix.size()).map_err(|_| BuildError::TooLarge(sig))?;
    let mut state = vec![NONE; size];
    let mut counter = vec![0u8; size];

    // Step 1: every position once, in parallel.
    let missing = state
        .par_chunks_mut(CHUNK)
        .zip(counter.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(chunk, (states, counters))| {
            let mut list = MoveList::default();
            let base = (chunk * CHUNK) as u64;
            for (k, (s, c)) in states.iter_mut().zip(counters.iter_mut()).enumerate() {
                (*s, *c) = first_look(&ix, tb, base + k as u64, &mut list)?;
            }
            Ok(())
        })
        .find_any(|r: &Result<(), Signature>| r.is_err());
    if let Some(Err(s)) = missing {
        return Err(BuildError::Missing(s));
    }

    // Step 2: walk back from every decided position.
    let mut queue: Vec<u64> =
        (0..size as u64).filter(|&i| matches!(state[i as usize], WIN | LOSS)).collect();
    let mut head = 0;
    while let Some(&q) = queue.get(head) {
        head += 1;
        let lost = state[q as usize] == LOSS;
        let Some(placement) = ix.decode(q) else { continue };
        predecessors::<R>(&placement, |p| {
            let i = ix.encode(&p) as usize;
            if state[i] != UNKNOWN {
                return;
            }
            if lost {
                state[i] = WIN;
                queue.push(i as u64);
                return;
            }
            counter[i] -= 1;
            if counter[i] & !DRAW_EXIT == 0 {
                if counter[i] & DRAW_EXIT != 0 {
                    state[i] = DRAW;
                } else {
                    state[i] = LOSS;
                    queue.push(i as u64);
                }
            }
        });
    }

    // Step 3: the rest is drawn.
    for s in &mut state {
        if *s == UNKNOWN {
            *s = DRAW;
        }
    }
    Ok(Table::from_codes(sig, &state))
}

/// Builds every signature of 2..=`pieces` pieces for the rules `R`, calling
/// `done` after each table with the time it took.
pub fn build_all<R: Rules>(
    pieces: usize,
    mut done: impl FnMut(&Table, Duration),
) -> Result<Tablebase, BuildError> {
    build_missing::<R>(Tablebase::new(R::VARIANT), pieces, |t, took| {
        done(t, took);
        Ok(())
    })
}

/// Builds every signature of 2..=`pieces` pieces that `tb` does not hold
/// yet, smallest first, and returns `tb` with them: a build resumed from the
/// tables already on disk. `keep` gets each new table, with the time it
/// took, before the next one starts (to save it, so that an interrupted
/// build loses one table at most); its error stops the build.
pub fn build_missing<R: Rules>(
    mut tb: Tablebase,
    pieces: usize,
    mut keep: impl FnMut(&Table, Duration) -> Result<(), String>,
) -> Result<Tablebase, BuildError> {
    if R::KING_MOVE_LIMIT != 0 {
        return Err(BuildError::Unsupported(
            "a Frisian position is more than its pieces (the three-move king limit \
             of each side), which the tables do not index",
        ));
    }
    if R::KING_WINS {
        return Err(BuildError::Unsupported(
            "in breakthrough the first king wins, so no ending with kings is ever played",
        ));
    }
    if tb.variant() != Some(R::VARIANT) {
        return Err(BuildError::Unsupported("the tables given belong to another variant"));
    }
    for sig in Signature::all_up_to(pieces) {
        if tb.table(sig).is_some() {
            continue;
        }
        let start = Instant::now();
        let table = build_signature::<R>(&tb, sig)?;
        keep(&table, start.elapsed()).map_err(BuildError::Keep)?;
        tb.insert(table);
    }
    Ok(tb)
}
