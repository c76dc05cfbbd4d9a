//! The engine: one game's position, its search pool and its endgame tables
//! ([`Engine<G>`], generic, monomorphised per game), and the [`Session`]
//! that wraps the engine of whichever game is played and owns everything a
//! protocol needs (table, signals, settings, parameters, evaluations). The
//! options reach a search as one immutable [`Config`] per `go`: the session
//! holds them, the engine only passes the snapshot on.
//!
//! `go` returns at once: the search runs on the pool's persistent threads,
//! and the protocol loop keeps answering `isready` and `stop`. A search
//! counts as over the moment its best move is reported (its `searching`
//! flag is lowered just before), not when its threads have gone idle: a GUI
//! may send the next `go` as soon as it reads `bestmove`, and the pool runs
//! tasks in order. Every state change is made only between searches (the
//! protocol loop queues commands until then; [`Engine`] methods that change
//! state are not called during a search).

pub mod learned;
pub mod listener;
pub mod options;
pub mod pool;
pub mod session;

pub use session::Session;

use crate::endgame::{Probe, ProbeConfig};
use crate::eval::Learned;
use crate::eval::Playable;
use crate::rng::mix64;
use crate::search::level::{self, Level, LevelPlay};
use crate::search::params::ParamSets;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Reporter, Signals};
use crossbeam_channel::Sender;
use pool::{Job, Pool};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a search reads of the options: one immutable snapshot, taken by
/// the session at `go` (a new one only after an option has changed) and
/// shared by every thread of the search. A worker adopts the tunables and
/// the learned evaluations of a snapshot it has not seen yet before it
/// searches (`pool.rs`).
#[derive(Clone)]
pub struct Config {
    /// The search tunables of both families (each search takes its game's).
    pub params: ParamSets,
    /// The learned evaluations (`EvalFile`); the same `Arc` while they are
    /// unchanged, so a worker switches its evaluator only when they change.
    pub learned: Arc<Learned>,
    /// The playing level (none: full strength), in the game's calibration.
    pub level: Option<Level>,
    /// Seed of the level's random choices (0: from the clock).
    pub seed: u64,
    /// Principal variations to report.
    pub multipv: usize,
    /// Time kept in reserve per move.
    pub overhead: Duration,
    /// The search-side settings of the endgame tables.
    pub probe: ProbeConfig,
}

impl Default for Config {
    /// The configuration of default options.
    fn default() -> Self {
        Config {
            params: ParamSets::default(),
            learned: Arc::new(Learned::starting()),
            level: None,
            seed: 0,
            multipv: 1,
            overhead: Duration::from_millis(10),
            probe: ProbeConfig::default(),
        }
    }
}

/// One game's engine state: the position, the search threads and the
/// endgame tables of the game.
pub struct Engine<G: Playable> {
    position: G,
    /// Keys of the game's positions before `position`, oldest first.
    history: Vec<u64>,
    pool: Pool<G>,
    /// Raised by `go`, lowered by the search just before its best move.
    searching: Arc<AtomicBool>,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    /// The endgame tables each search probes (none: no probes).
    tables: Option<Arc<G::Tables>>,
    /// The configuration of the next search (the session's snapshot).
    config: Arc<Config>,
}

impl<G: Playable> Engine<G> {
    /// An engine at `position` with a pool of `threads` search threads.
    /// The error says how many threads started when fewer did.
    pub fn new(
        position: G,
        tt: Arc<TranspositionTable>,
        signals: Arc<Signals>,
        threads: usize,
    ) -> (Self, Result<(), String>) {
        let (pool, status) = Pool::new(threads, &tt, &signals);
        let engine = Engine {
            position,
            history: Vec::new(),
            pool,
            searching: Arc::new(AtomicBool::new(false)),
            tt,
            signals,
            tables: None,
            config: Arc::new(Config::default()),
        };
        (engine, status)
    }

    /// The current root position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// Keys of the positions before the root, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Whether a search runs that has not reported its best move yet.
    pub fn is_searching(&self) -> bool {
        self.searching.load(Ordering::Acquire)
    }

    /// Sets the root position and the keys of the game before it.
    pub fn set_position(&mut self, position: G, history: Vec<u64>) {
        self.position = position;
        self.history = history;
    }

    /// Restarts the pool with `threads` threads: fresh workers, which take
    /// the configuration of the next search.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        let (pool, status) = Pool::new(threads, &self.tt, &self.signals);
        self.pool = pool;
        status
    }

    /// Switches every worker to another table (after a resize) at once, so
    /// that the old one is freed.
    pub fn set_table(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt.clone();
        self.pool.edit(Arc::new(move |w| w.set_table(tt.clone())));
    }

    /// Probes these endgame tables from the next search on (`None`: none).
    pub fn set_tables(&mut self, tables: Option<Arc<G::Tables>>) {
        self.tables = tables;
    }

    /// Searches under `config` from the next `go` on.
    pub fn configure(&mut self, config: Arc<Config>) {
        self.config = config;
    }

    /// Forgets what was learnt in the previous game (histories).
    pub fn new_game(&mut self) {
        self.pool.edit(Arc::new(|w| w.clear()));
    }

    /// Starts a search under the configuration last given and returns at
    /// once; `reporter` hears the result and `done` is told once the best
    /// move has been reported. Called only when no search runs.
    pub fn go(
        &mut self,
        mut limits: Limits<G::Move>,
        reporter: Box<dyn Reporter<G>>,
        done: Sender<()>,
    ) {
        let config = self.config.clone();
        self.signals.stop.store(false, Ordering::Relaxed);
        self.signals.pondering.store(limits.ponder, Ordering::Relaxed);
        self.signals.nodes.store(0, Ordering::Relaxed);
        self.signals.tbhits.store(0, Ordering::Relaxed);
        self.tt.new_search();
        if let Some(tables) = &self.tables {
            <G::Tables as Probe<G>>::configure(tables, config.probe);
        }
        let start = Instant::now();
        // No more searching threads than the machine runs at once: Lazy SMP
        // gains nothing from oversubscription, and the extra threads would
        // only take turns away from thread 0, which watches the clock
        // (`Threads 256` on two cores lost 300 ms clocks by 0.3-1 s).
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut active = self.pool.len().min(cores);
        // A level searches on one thread (its budget counts one thread's
        // nodes) with enough lines to draw from (one where it never plays a
        // worse move).
        if let Some(level) = config.level {
            let key = self.position.hash() ^ (self.history.len() as u64).rotate_left(32);
            let seed = if config.seed != 0 {
                config.seed
            } else {
                let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
                now.map_or(0, |d| d.as_nanos() as u64) | 1
            };
            // The time planned for this move (none: analysis, node or depth
            // limits) lets slow games play a little better.
            let planned = match (limits.movetime, limits.clock) {
                (Some(t), _) => Some(t),
                (None, Some(clock)) => Some(crate::time::allocate(clock, limits.overhead).soft),
                (None, None) => None,
            };
            let level = planned.map_or(level, |t| level.at_time(t));
            limits.level = Some(LevelPlay { level, random: mix64(seed ^ mix64(key)) });
            if level.samples() {
                limits.multipv = limits.multipv.max(level::LINES);
            }
            active = 1;
        }
        self.searching.store(true, Ordering::Release);
        let job = Job {
            root: self.position.clone(),
            history: self.history.clone(),
            limits,
            config,
            tables: self.tables.clone(),
            start,
            reporter,
            searching: self.searching.clone(),
            done,
        };
        self.pool.start(job, active);
    }

    /// A static evaluation breakdown of the root (the `eval` command) with
    /// the `learned` evaluations.
    pub fn trace(&self, learned: &Learned) -> String {
        use crate::eval::Evaluator;
        let mut evaluator = G::Evaluator::default();
        evaluator.set_learned(learned);
        evaluator.trace(&self.position)
    }
}
