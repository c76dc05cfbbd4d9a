//! The engine: one game's position, its search pool, its level and its
//! tables ([`Engine<G>`], generic, monomorphised per game), and the
//! [`Session`] that wraps the engine of whichever game is played and owns
//! everything a protocol needs (table, signals, settings, parameters).
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

use crate::eval::Learned;
use crate::eval::Playable;
use crate::search::level::{self, Level, LevelPlay};
use crate::search::params::Params;
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Reporter, Signals};
use crossbeam_channel::Sender;
use pool::{Job, Pool};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// One game's engine state.
pub struct Engine<G: Playable> {
    position: G,
    /// Keys of the game's positions before `position`, oldest first.
    history: Vec<u64>,
    pool: Pool<G>,
    /// Raised by `go`, lowered by the search just before its best move.
    searching: Arc<AtomicBool>,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    /// Playing level (none: full strength) and its seed (0: from the clock).
    level: Option<Level>,
    seed: u64,
    /// The tunables and the endgame tables every worker has.
    params: Params,
    tables: Option<Arc<G::Tables>>,
    /// The learned evaluations every worker has (none: hand-set).
    learned: Learned,
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
            level: None,
            seed: 0,
            params: Params::default(),
            tables: None,
            learned: Learned::starting(),
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

    /// Plays at `level` from the next search on (`None`: full strength).
    /// With a non-zero `seed` the level's choices depend only on the seed and
    /// the position, so one thread and the same seed replay the same game.
    pub fn set_level(&mut self, level: Option<Level>, seed: u64) {
        self.level = level;
        self.seed = seed;
    }

    /// Restarts the pool with `threads` threads: fresh workers, given the
    /// engine's tunables and tables.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), String> {
        let (pool, status) = Pool::new(threads, &self.tt, &self.signals);
        self.pool = pool;
        self.set_params(self.params);
        self.set_tables(self.tables.clone());
        self.set_learned(self.learned.clone());
        status
    }

    /// Switches every worker to another table (after a resize).
    pub fn set_table(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt.clone();
        self.pool.edit(Arc::new(move |w| w.set_table(tt.clone())));
    }

    /// Hands the search tunables to every worker.
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.pool.edit(Arc::new(move |w| w.set_params(params)));
    }

    /// Hands the endgame tables to every worker (`None`: no probes).
    pub fn set_tables(&mut self, tables: Option<Arc<G::Tables>>) {
        self.tables.clone_from(&tables);
        self.pool.edit(Arc::new(move |w| w.set_tables(tables.clone())));
    }

    /// Hands the learned evaluations to every worker.
    pub fn set_learned(&mut self, learned: Learned) {
        self.learned = learned.clone();
        self.pool.edit(Arc::new(move |w| w.set_learned(&learned)));
    }

    /// The endgame tables the workers probe.
    pub fn tables(&self) -> Option<&Arc<G::Tables>> {
        self.tables.as_ref()
    }

    /// Applies the user's probe settings to the tables, if any are loaded.
    pub fn configure_tables(&self, config: crate::tablebase::ProbeConfig) {
        if let Some(tables) = &self.tables {
            <G::Tables as crate::tablebase::Probe<G>>::configure(tables, config);
        }
    }

    /// Forgets what was learnt in the previous game (histories).
    pub fn new_game(&mut self) {
        self.pool.edit(Arc::new(|w| w.clear()));
    }

    /// Starts a search and returns at once; `reporter` hears the result and
    /// `done` is told once the best move has been reported. Called only
    /// when no search runs.
    pub fn go(
        &mut self,
        mut limits: Limits<G::Move>,
        reporter: Box<dyn Reporter<G>>,
        done: Sender<()>,
    ) {
        self.signals.stop.store(false, Ordering::Relaxed);
        self.signals.pondering.store(limits.ponder, Ordering::Relaxed);
        self.signals.nodes.store(0, Ordering::Relaxed);
        self.signals.tbhits.store(0, Ordering::Relaxed);
        self.tt.new_search();
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
        if let Some(level) = self.level {
            let key = self.position.hash() ^ (self.history.len() as u64).rotate_left(32);
            let seed = if self.seed != 0 {
                self.seed
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
            limits.level = Some(LevelPlay { level, random: level::mix(seed ^ level::mix(key)) });
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
            start,
            reporter,
            searching: self.searching.clone(),
            done,
        };
        self.pool.start(job, active);
    }

    /// A static evaluation breakdown of the root (the `eval` command).
    pub fn trace(&self) -> String {
        use crate::eval::Evaluator;
        let mut evaluator = G::Evaluator::default();
        evaluator.set_learned(&self.learned);
        evaluator.trace(&self.position)
    }
}
