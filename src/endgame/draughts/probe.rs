//! Probing: a variant's set of tables and the result of a position.
//!
//! A [`Tablebase`] holds the tables of one variant, keyed by signature, and
//! answers win/draw/loss for the side to move of any position whose
//! signature it has (capture positions included). Results are
//! game-theoretic: they ignore the move-count draw rules (FMJD 25-, 16- and
//! 5-move rules and the national equivalents), which the search applies
//! itself.

use super::index::{Indexer, Placement, Signature};
use super::storage::{StorageError, Table};
use super::Wdl;
use crate::draughts::rules::Rules;
use crate::draughts::Position;
use crate::game::{NoMoveResult, Variant};
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::Path;

/// The tables of one variant.
#[derive(Clone, Debug, Default)]
pub struct Tablebase {
    variant: Option<Variant>,
    tables: HashMap<Signature, Table>,
    max_pieces: usize,
}

/// The result when `side` (to move) has no piece left: it has no move.
pub(crate) fn no_piece_result(result: NoMoveResult) -> Wdl {
    match result {
        NoMoveResult::Loss => Wdl::Loss,
        NoMoveResult::Win => Wdl::Win,
        NoMoveResult::Draw => Wdl::Draw,
    }
}

impl Tablebase {
    /// An empty tablebase for `variant`.
    pub fn new(variant: Variant) -> Self {
        Tablebase { variant: Some(variant), tables: HashMap::new(), max_pieces: 0 }
    }

    /// The variant.
    pub fn variant(&self) -> Option<Variant> {
        self.variant
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Table) {
        self.max_pieces = self.max_pieces.max(table.signature().pieces());
        self.tables.insert(table.signature(), table);
    }

    /// The table of `signature`.
    pub fn table(&self, signature: Signature) -> Option<&Table> {
        self.tables.get(&signature)
    }

    /// Every table, in build order.
    pub fn tables(&self) -> Vec<&Table> {
        let mut all: Vec<&Table> = self.tables.values().collect();
        all.sort_by_key(|t| (t.signature().pieces(), t.signature().men(), t.signature()));
        all
    }

    /// Most pieces of any table (0 when empty).
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Total bytes of packed data.
    pub fn bytes(&self) -> usize {
        self.tables.values().map(Table::bytes).sum()
    }

    /// The result for the side to move, if a table covers the position (a
    /// side without pieces has lost, or won in antidraughts).
    pub fn probe<R: Rules>(&self, pos: &Position<R>) -> Option<Wdl> {
        let sig = Signature::of(pos);
        if sig.side_pieces(pos.side()) == 0 {
            return Some(no_piece_result(crate::game::Game::no_move_result(pos)));
        }
        let table = self.tables.get(&sig)?;
        table.wdl(Indexer::<R>::new(sig).encode(&Placement::of(pos)))
    }

    /// Loads every `*.wdl` file of `dir` for `variant`. Files that fail
    /// their checks are left out and reported, one message each; a missing
    /// directory is one message.
    pub fn load_dir(dir: &Path, variant: Variant) -> (Tablebase, Vec<String>) {
        let mut tb = Tablebase::new(variant);
        let mut problems = Vec::new();
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                problems.push(format!("{}: {e}", dir.display()));
                return (tb, problems);
            }
        };
        let mut names: Vec<String> =
            entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect();
        names.sort();
        // Decompressing is most of the loading time: one table a thread.
        let loaded: Vec<(String, Result<Table, String>)> = names
            .into_par_iter()
            .filter_map(|name| {
                let stem = name.strip_suffix(".wdl")?;
                let path = dir.join(&name).display().to_string();
                let Some(sig) = Signature::parse(stem) else {
                    return Some((name, Err(format!("{path}: not a table name"))));
                };
                let table = match Table::load(dir, variant, sig) {
                    Ok(t) if t.positions() == expected_size(variant, sig) => Ok(t),
                    Ok(_) => Err(format!("{path}: {}", StorageError::Length)),
                    Err(e) => Err(format!("{path}: {e}")),
                };
                Some((name, table))
            })
            .collect();
        for (_, table) in loaded {
            match table {
                Ok(t) => tb.insert(t),
                Err(problem) => problems.push(problem),
            }
        }
        (tb, problems)
    }

    /// Writes every table into `dir` (created if missing).
    pub fn save_dir(&self, dir: &Path) -> Result<(), StorageError> {
        let variant = self.variant.unwrap_or(Variant::International);
        std::fs::create_dir_all(dir)?;
        // Compressing is most of the saving time: one table a thread.
        self.tables().into_par_iter().try_for_each(|table| table.save(dir, variant))
    }
}

/// Number of indices of `sig` under `variant`'s rules (0 for chess).
fn expected_size(variant: Variant, sig: Signature) -> u64 {
    crate::for_variant!(variant, chess => 0, R => Indexer::<R>::new(sig).size())
}

/// The search's view: a table probe, cheap when the position has more
/// pieces than the largest table or belongs to another variant.
impl<R: Rules> crate::endgame::Probe<Position<R>> for Tablebase {
    #[inline]
    fn probe(&self, pos: &Position<R>) -> Option<Wdl> {
        let pieces = (pos.white() | pos.black()).count_ones() as usize;
        if pieces > self.max_pieces || self.variant != Some(R::VARIANT) {
            return None;
        }
        Tablebase::probe(self, pos)
    }

    fn load(path: &Path, variant: Variant) -> (Option<Self>, Vec<String>) {
        super::load_for(path, variant)
    }
}
