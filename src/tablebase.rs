//! Endgame tables as the search sees them: a game-theoretic result for the
//! side to move, from whatever tables the engine was given.
//!
//! The search holds an `Option<Arc<T>>` of its game's table type
//! ([`crate::eval::Playable::Tables`]) that the engine's session hands it;
//! there is no process-wide registry. Draughts uses Crown's own endgame
//! databases (`egtb/`); a game without tables uses [`NoTables`].
//!
//! Invariant: [`Probe::probe`] is cheap when the position has more pieces
//! than any loaded table (it must answer `None` without touching memory that
//! depends on the position), so the search may call it at every node.
//!
//! Chess (Syzygy, `chess/syzygy/`) adds two refinements with defaults here:
//! [`Probe::search_probe`] lets the tables decide at which remaining depth
//! and under which conditions a probe is worth it (the fifty-move counter,
//! the piece limit), and [`Probe::root_moves`] keeps, at the root, only the
//! moves that preserve the table result (distance-to-zero tables).

use crate::game::Game;
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

/// Loaded endgame tables of game `G`, shared read-only by the search threads.
pub trait Probe<G: Game>: Send + Sync + 'static {
    /// The result of `pos` for its side to move, when a table covers it.
    fn probe(&self, pos: &G) -> Option<Wdl>;

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
}
