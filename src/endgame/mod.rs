//! Endgame tables, every game's in one place, and how the search sees them:
//! a game-theoretic result for the side to move, from whatever tables the
//! engine was given.
//!
//! * [`syzygy`]: chess and Chess960, Syzygy files read through
//!   `shakmaty-syzygy` (WDL in the search, DTZ at the root).
//! * [`draughts`]: Crown's own draughts databases, built by retrograde
//!   analysis (`crown egtb build`) for every draughts variant.
//! * [`NoTables`]: a game without tables.
//!
//! The search holds an `Option<Arc<T>>` of its game's table type
//! ([`crate::eval::Playable::Tables`]) that the engine's session hands it;
//! there is no process-wide registry.
//!
//! Invariant: [`Probe::probe`] is cheap when the position has more pieces
//! than any loaded table (it must answer `None` without touching memory that
//! depends on the position), so the search may call it at every node.
//!
//! Chess adds two refinements with defaults here: [`Probe::search_probe`]
//! lets the tables decide at which remaining depth and under which
//! conditions a probe is worth it (the fifty-move counter, the piece limit),
//! and [`Probe::root_moves`] keeps, at the root, only the moves that
//! preserve the table result (distance-to-zero tables).

pub mod draughts;
pub mod syzygy;

use crate::game::{Game, Variant};
use std::fmt;
use std::path::Path;

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

/// Loaded endgame tables of game `G`, shared read-only by the search threads.
pub trait Probe<G: Game>: Send + Sync + Sized + 'static {
    /// The result of `pos` for its side to move, when a table covers it.
    fn probe(&self, pos: &G) -> Option<Wdl>;

    /// Loads the tables of `variant` found at `path`, with one message per
    /// table set loaded or file refused (a damaged file is left out, never
    /// read out of bounds). `None` when there is nothing to probe.
    fn load(path: &Path, variant: Variant) -> (Option<Self>, Vec<String>);

    /// The result the search may use at a node with `depth` plies left:
    /// by default every covered position, whatever the depth.
    #[inline]
    fn search_probe(&self, pos: &G, _depth: i32) -> Option<Wdl> {
        self.probe(pos)
    }

    /// At the root: the legal moves that keep the best table result and
    /// make progress towards it (`None`: the root is not covered, or the
    /// tables hold no distances).
    fn root_moves(&self, _pos: &G) -> Option<RootFilter<G::Move>> {
        None
    }

    /// Applies the user's probe settings (takes effect at once); tables
    /// without such settings ignore them.
    fn configure(&self, _config: ProbeConfig) {}
}

/// The search-side settings of endgame tables (UCI `SyzygyProbeDepth`,
/// `SyzygyProbeLimit`, `Syzygy50MoveRule`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProbeConfig {
    /// Smallest remaining depth at which a position with as many pieces as
    /// the limit is probed (fewer pieces: any depth).
    pub depth: i32,
    /// Positions with more pieces are never probed.
    pub limit: u32,
    /// Cursed wins and blessed losses count as draws (the fifty-move rule).
    pub rule50: bool,
}

impl Default for ProbeConfig {
    fn default() -> Self {
        ProbeConfig { depth: 1, limit: 7, rule50: true }
    }
}

/// The root moves a distance table allows, and the result they keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootFilter<M> {
    /// The result for the side to move with best play.
    pub wdl: Wdl,
    /// The moves that keep it (never empty).
    pub moves: Vec<M>,
    /// Table probes spent (counted as table hits).
    pub probes: u64,
}

/// The table type of a game without endgame tables: never covers anything.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoTables;

impl<G: Game> Probe<G> for NoTables {
    #[inline]
    fn probe(&self, _pos: &G) -> Option<Wdl> {
        None
    }

    fn load(_path: &Path, variant: Variant) -> (Option<Self>, Vec<String>) {
        (None, vec![format!("no endgame tables for {variant} in this build")])
    }
}
