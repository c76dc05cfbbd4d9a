//! The search: iterative deepening over a principal-variation alpha-beta
//! search with quiescence, generic over any [`crate::eval::Playable`] game.
//!
//! * [`worker`]: one search thread's state and its iterative deepening loop.
//! * [`alphabeta`]: the numbered steps of the tree search itself.
//! * [`quiescence`]: the quiescence search at its leaves.
//! * [`ordering`]: move ordering (history, killers, counter moves).
//! * [`tt`]: the shared lock-free transposition table.
//! * [`params`]: every search tunable in one table.
//! * [`level`]: playing levels for people (node budget, sampled move).
//!
//! The search never prints: results leave through a [`Reporter`], so one
//! search serves UCI, Hub and DXP alike. Threads share only the table and the
//! [`Signals`].

pub mod alphabeta;
pub mod level;
pub mod ordering;
pub mod params;
pub mod quiescence;
pub mod tt;
pub mod worker;

use crate::endgame::Wdl;
use crate::game::Game;
use crate::score::{Score, DRAW, TABLE_PROGRESS, TABLE_WIN};
use crate::time::Clock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

pub use worker::Worker;

/// What limits a search. The default is an infinite analysis.
#[derive(Clone, Debug)]
pub struct Limits<M> {
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes (counted by the main thread).
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found, and after at most
    /// 2N - 1 plies and a few more (see `worker.rs`) when none is.
    pub mate: Option<i32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Search the opponent's expected reply time (until `ponderhit`/`stop`).
    pub ponder: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<M>,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Time kept in reserve for transport and GUI.
    pub overhead: Duration,
    /// Play at a level (node budget and a drawn move, see [`level`]).
    pub level: Option<level::LevelPlay>,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            clock: None,
            movetime: None,
            depth: None,
            nodes: None,
            mate: None,
            infinite: false,
            ponder: false,
            searchmoves: Vec::new(),
            multipv: 1,
            overhead: Duration::from_millis(10),
            level: None,
        }
    }
}

/// Flags the protocol reader flips while a search runs; shared by all threads.
#[derive(Debug, Default)]
pub struct Signals {
    /// Stop as soon as possible and report the best move.
    pub stop: AtomicBool,
    /// The search is pondering: no time limit until this turns false.
    pub pondering: AtomicBool,
    /// Nodes searched by all threads, published every few thousand nodes.
    pub nodes: AtomicU64,
    /// Endgame-table probes that gave a result, published with `nodes`.
    pub tbhits: AtomicU64,
}

impl Signals {
    /// Whether the search must stop.
    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// Kind of bound a reported score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The exact minimax score.
    Exact,
    /// The score is at least this (fail high).
    Lower,
    /// The score is at most this (fail low).
    Upper,
}

/// One line of search progress.
#[derive(Clone, Debug)]
pub struct Info<M> {
    /// Completed depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based index of this principal variation.
    pub multipv: usize,
    /// Score for the side to move.
    pub score: Score,
    /// Whether the score is a bound.
    pub bound: ScoreBound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Per-mille fill of the transposition table.
    pub hashfull: u32,
    /// Endgame-table probes that gave a result (all threads).
    pub tbhits: u64,
    /// The endgame-table result of the root, when the tables chose the
    /// root moves (the score then follows the search, the result this).
    pub table: Option<Wdl>,
    /// The principal variation from the root.
    pub pv: Vec<M>,
}

/// Where search results go. Implemented by each protocol.
pub trait Reporter<G: Game>: Send + Sync {
    /// A finished iteration (or an aspiration fail high/low) for one PV.
    fn info(&self, root: &G, info: &Info<G::Move>);
    /// The root move being searched (called only after the first second).
    fn current_move(&self, _root: &G, _mv: G::Move, _number: usize, _depth: i32) {}
    /// The final answer: the move to play (None when there is no legal move)
    /// and the expected reply.
    fn best_move(&self, root: &G, best: Option<G::Move>, ponder: Option<G::Move>);
}

/// A reporter that drops everything (bench, self-play, tests).
pub struct Silent;

impl<G: Game> Reporter<G> for Silent {
    fn info(&self, _root: &G, _info: &Info<G::Move>) {}
    fn best_move(&self, _root: &G, _best: Option<G::Move>, _ponder: Option<G::Move>) {}
}

/// What one thread found (not to be confused with [`crate::game::Outcome`],
/// how a game ended).
#[derive(Clone, Debug)]
pub struct Finding<M> {
    /// Deepest fully completed iteration.
    pub depth: i32,
    /// Score of the best move at that depth.
    pub score: Score,
    /// The principal variation (empty when there is no legal move).
    pub pv: Vec<M>,
    /// Nodes this thread searched.
    pub nodes: u64,
    /// Deepest ply reached on the principal variation's iteration.
    pub seldepth: usize,
}

/// A one-thread search of `pos` under `limits`, from a fresh worker and a
/// table of `table_mb` MB, with nothing reported: the entry point for tools
/// that want a move or a score (opening balance, `genfens`). `None` when
/// the table cannot be allocated or there is no legal move.
pub fn search_once<G: crate::eval::Playable>(
    pos: &G,
    limits: &Limits<G::Move>,
    table_mb: usize,
) -> Option<Finding<G::Move>> {
    let tt = std::sync::Arc::new(tt::TranspositionTable::new(table_mb).ok()?);
    let mut worker = Worker::<G>::new(0, tt, std::sync::Arc::new(Signals::default()));
    let found = worker.think(pos, &[], limits, &Silent, std::time::Instant::now());
    (!found.pv.is_empty()).then_some(found)
}

/// The search score of an endgame-table result, given the static
/// evaluation of the position (both for the side to move): a win is
/// [`TABLE_WIN`] plus the clamped evaluation, so that among winning lines
/// the search prefers those that gain material or advance (tables without a
/// distance to the win give no other guide); a loss the mirror image; a
/// draw 0.
pub fn table_score(wdl: Wdl, eval: Score) -> Score {
    let progress = eval.clamp(-TABLE_PROGRESS, TABLE_PROGRESS);
    match wdl {
        Wdl::Win => TABLE_WIN + progress,
        Wdl::Draw => DRAW,
        Wdl::Loss => -TABLE_WIN + progress,
    }
}

/// The score shown for a root the endgame tables decide (`table`: their
/// result for the side to move), as Stockfish shows one: the search's own
/// score when it is a mate or already a table score of that result,
/// otherwise the tables' verdict ([`TABLE_WIN`] for a win, its negation for
/// a loss, [`DRAW`] for a draw) instead of the evaluation of a position the
/// search never probed (after the root's zeroing move the search probes
/// nothing until the next capture or pawn move, so a won K+R v K would show
/// +7). Without tables, the score itself.
pub fn shown_score(score: Score, table: Option<Wdl>) -> Score {
    let decided = TABLE_WIN - TABLE_PROGRESS;
    match table {
        None => score,
        Some(_) if crate::score::is_mate(score) => score,
        Some(Wdl::Win) if score >= decided => score,
        Some(Wdl::Win) => TABLE_WIN,
        Some(Wdl::Loss) if score <= -decided => score,
        Some(Wdl::Loss) => -TABLE_WIN,
        Some(Wdl::Draw) => DRAW,
    }
}

/// The move to play across all threads: deepest completed iteration first,
/// then the better score (Lazy SMP voting in its simplest sound form).
pub fn choose<M: Clone>(findings: &[Finding<M>]) -> Option<&Finding<M>> {
    findings
        .iter()
        .filter(|o| !o.pv.is_empty())
        .max_by(|a, b| a.depth.cmp(&b.depth).then(a.score.cmp(&b.score)))
}
