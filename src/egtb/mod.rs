//! Draughts endgame databases: win/draw/loss for every position with few
//! pieces, built by Crown itself by retrograde analysis (`crown egtb build`),
//! stored 2 bits a position, probed in search.
//!
//! * [`index`]: material signatures and the numbering of their positions.
//! * [`unmove`]: quiet moves played backwards.
//! * [`build`]: retrograde analysis, smallest signatures first.
//! * [`storage`]: packed tables and their files.
//! * [`probe`]: a variant's set of tables and the result of a position.
//! * [`registry`]: the tables the running engine's search probes.
//!
//! Everything is generic over the draughts `Rules`, so every variant can be
//! built; the game's own no-move rule decides who wins a blocked or
//! emptied position (antidraughts included). Results are game-theoretic:
//! the move-count draw rules are not part of them (the search applies
//! those itself), and there is no distance to the win.

pub mod build;
pub mod index;
pub mod probe;
pub mod registry;
pub mod storage;
pub mod unmove;

pub use build::{build_all, build_signature, BuildError};
pub use index::{Indexer, Signature};
pub use probe::Tablebase;
pub use storage::{StorageError, Table};

use crate::score::{Score, DRAW};
use std::fmt;

/// A game-theoretic result for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move wins with best play.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses with best play.
    Loss,
}

impl Wdl {
    /// The result for the other side.
    pub const fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }
}

/// The directory of `variant`'s tables under a tablebase root directory.
pub fn variant_dir(root: &std::path::Path, variant: crate::game::Variant) -> std::path::PathBuf {
    root.join(variant.name())
}

/// Score of a tablebase win before the progress term: far above any
/// ordinary evaluation, below the mate range.
pub const WIN_SCORE: Score = 20_000;
/// Largest progress term (the static evaluation, clamped) added to it.
pub const PROGRESS: Score = 2_000;

/// The search score of a tablebase result, given the static evaluation of
/// the position (both for the side to move): a win is [`WIN_SCORE`] plus the
/// clamped evaluation, so that among winning lines the search prefers those
/// that gain material or advance; a loss the mirror image; a draw 0.
pub fn search_score(wdl: Wdl, eval: Score) -> Score {
    let progress = eval.clamp(-PROGRESS, PROGRESS);
    match wdl {
        Wdl::Win => WIN_SCORE + progress,
        Wdl::Draw => DRAW,
        Wdl::Loss => -WIN_SCORE + progress,
    }
}
