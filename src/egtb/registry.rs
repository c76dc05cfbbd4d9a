//! The tables the running engine probes: one process-wide set per variant,
//! installed when a Hub or DXP session starts with a tablebase directory
//! (`crown hub --egtb DIR`, `crown dxp --egtb DIR`).
//!
//! Concurrency: tables are installed before searching and only read during
//! a search (a `RwLock` read, taken only for positions with at most the
//! largest table's piece count, which an atomic per variant holds so that
//! the common case costs one relaxed load). Installing replaces the whole
//! set of a variant at once.

use super::probe::Tablebase;
use super::Wdl;
use crate::draughts::rules::Rules;
use crate::draughts::Position;
use crate::game::Variant;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, RwLock};

static TABLES: RwLock<Vec<Arc<Tablebase>>> = RwLock::new(Vec::new());

/// Largest piece count with tables, per variant (index of [`Variant::ALL`]).
static MAX_PIECES: [AtomicUsize; Variant::ALL.len()] =
    [const { AtomicUsize::new(0) }; Variant::ALL.len()];

fn slot(variant: Variant) -> usize {
    Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0)
}

/// Makes `tb` the tables of its variant (replacing any before).
pub fn install(tb: Tablebase) {
    let Some(variant) = tb.variant() else { return };
    let max = tb.max_pieces();
    let mut all = TABLES.write().unwrap_or_else(|e| e.into_inner());
    all.retain(|t| t.variant() != Some(variant));
    all.push(Arc::new(tb));
    MAX_PIECES[slot(variant)].store(max, Ordering::Relaxed);
}

/// Loads the tables of every draughts variant found under `root`
/// (`root/<variant>/*.wdl`) and installs them. Returns one line per variant
/// loaded and one per problem (a damaged file is left out, the rest used).
pub fn load_root(root: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    if !root.is_dir() {
        lines.push(format!("egtb: {} is not a directory; no tablebase", root.display()));
        return lines;
    }
    for variant in Variant::ALL.into_iter().filter(|v| !v.is_chess()) {
        let dir = super::variant_dir(root, variant);
        if !dir.is_dir() {
            continue;
        }
        let (tb, problems) = Tablebase::load_dir(&dir, variant);
        lines.extend(problems.into_iter().map(|p| format!("egtb: refused {p}")));
        lines.push(format!(
            "egtb: {variant}: {} tables up to {} pieces, {} bytes",
            tb.tables().len(),
            tb.max_pieces(),
            tb.bytes()
        ));
        install(tb);
    }
    lines
}

/// The result of `pos` for its side to move, when a table covers it.
#[inline]
pub fn probe<R: Rules>(pos: &Position<R>) -> Option<Wdl> {
    let pieces = (pos.white() | pos.black()).count_ones() as usize;
    if pieces > MAX_PIECES[slot(R::VARIANT)].load(Ordering::Relaxed) {
        return None;
    }
    let all = TABLES.read().ok()?;
    all.iter().find(|t| t.variant() == Some(R::VARIANT))?.probe(pos)
}
