//! Draughts endgame databases: win/draw/loss for every position with few
//! pieces, built by Crown itself by retrograde analysis (`crown egtb build`),
//! stored 2 bits a position, probed in search.
//!
//! * [`index`]: material signatures and the numbering of their positions.
//! * [`unmove`]: quiet moves played backwards.
//! * [`build`]: retrograde analysis, smallest signatures first.
//! * [`storage`]: packed tables and their files.
//! * [`probe`]: a variant's set of tables and the result of a position.
//!
//! Everything is generic over the draughts `Rules`, so every variant can be
//! built; the game's own no-move rule decides who wins a blocked or
//! emptied position (antidraughts included). Results are game-theoretic:
//! the move-count draw rules are not part of them (the search applies
//! those itself), and there is no distance to the win.

pub mod index;
pub mod probe;
pub mod retrograde;
pub mod storage;
pub mod unmove;

pub use index::{Indexer, Signature};
pub use probe::Tablebase;
pub use retrograde::{build_all, build_missing, build_signature, BuildError};
pub use storage::{StorageError, Table};

pub use crate::endgame::Wdl;

/// The directory of `variant`'s tables under a tablebase root directory.
pub fn variant_dir(root: &std::path::Path, variant: crate::game::Variant) -> std::path::PathBuf {
    root.join(variant.name())
}

/// Loads `variant`'s tables from a tablebase root (`root/<variant>/*.wdl`)
/// for the search. Returns the tables (`None` when the variant has none
/// there) and one message per variant loaded or file refused: a damaged
/// file is left out, the rest used; nothing here stops the engine.
pub fn load_for(
    root: &std::path::Path,
    variant: crate::game::Variant,
) -> (Option<Tablebase>, Vec<String>) {
    if !root.is_dir() {
        return (None, vec![format!("egtb: {} is not a directory; no tablebase", root.display())]);
    }
    let dir = variant_dir(root, variant);
    if variant.is_chess() || !dir.is_dir() {
        return (None, Vec::new());
    }
    let (tb, problems) = Tablebase::load_dir(&dir, variant);
    let mut lines: Vec<String> =
        problems.into_iter().map(|p| format!("egtb: refused {p}")).collect();
    lines.push(format!(
        "egtb: {variant}: {} tables up to {} pieces, {} bytes",
        tb.tables().len(),
        tb.max_pieces(),
        tb.bytes()
    ));
    (Some(tb), lines)
}
