//! The engine: one game's position, its search threads and its table, driven
//! by commands from a protocol loop.
//!
//! [`Engine<G>`] is generic over the game (code that runs per node is
//! monomorphised); `Session` is the enum over every game that a protocol
//! loop matches once per command. `go` returns at once: the search runs on a
//! coordinator thread that owns the workers while it runs and hands them back
//! when it ends, so the protocol loop keeps answering `isready` and `stop`.
//!
//! A search counts as over the moment its best move is reported, not when
//! its thread has been joined: a GUI may send the next `go` as soon as it
//! reads `bestmove`, while the coordinator is still handing the workers back.

pub mod options;
pub mod pool;
pub mod session;

use crate::eval::Playable;
use crate::search::level::{self, Level, LevelPlay};
use crate::search::params::Params;
use crate::search::tt::TranspositionTable;
use crate::search::{Info, Limits, Reporter, Signals, Worker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// One game's engine state.
pub struct Engine<G: Playable> {
    position: G,
    /// Keys of the game's positions before `position`, oldest first.
    history: Vec<u64>,
    workers: Vec<Worker<G>>,
    thread_count: usize,
    running: Option<JoinHandle<Vec<Worker<G>>>>,
    /// Raised by the running search just before it reports its best move.
    reported: Arc<AtomicBool>,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    params: Params,
    /// Playing level (none: full strength) and its seed (0: from the clock).
    level: Option<Level>,
    seed: u64,
    /// Endgame tables every worker probes (none: no probes).
    tables: Option<Arc<G::Tables>>,
}

impl<G: Playable> Engine<G> {
    /// An engine at `position` with `threads` search threads.
    pub fn new(
        position: G,
        tt: Arc<TranspositionTable>,
        signals: Arc<Signals>,
        threads: usize,
    ) -> Self {
        let mut engine = Engine {
            position,
            history: Vec::new(),
            workers: Vec::new(),
            thread_count: threads.max(1),
            running: None,
            reported: Arc::new(AtomicBool::new(true)),
            tt,
            signals,
            params: Params::default(),
            level: None,
            seed: 0,
            tables: None,
        };
        engine.rebuild_workers();
        engine
    }

    fn rebuild_workers(&mut self) {
        self.workers = (0..self.thread_count)
            .map(|id| {
                let mut w = Worker::new(id, self.tt.clone(), self.signals.clone());
                w.set_params(self.params);
                w.set_tables(self.tables.clone());
                w
            })
            .collect();
    }

    /// The current root position.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// Keys of the positions before the root, oldest first.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// Whether a search is running and has not reported its best move yet.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|h| !h.is_finished())
            && !self.reported.load(Ordering::Acquire)
    }

    /// Waits for a running search to end and takes the workers back.
    pub fn wait(&mut self) {
        if let Some(handle) = self.running.take() {
            match handle.join() {
                Ok(workers) => self.workers = workers,
                // A search thread died: start again with fresh workers.
                Err(_) => self.rebuild_workers(),
            }
        }
    }

    /// Sets the root position and the keys of the game before it.
    pub fn set_position(&mut self, position: G, history: Vec<u64>) {
        self.wait();
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

    /// The playing level, if any.
    pub fn level(&self) -> Option<Level> {
        self.level
    }

    /// Starts a search and returns at once; the reporter hears the result.
    /// Refused while another search runs.
    pub fn go<R: Reporter<G> + 'static>(
        &mut self,
        mut limits: Limits<G::Move>,
        reporter: R,
    ) -> Result<(), &'static str> {
        if self.is_searching() {
            return Err("a search is already running");
        }
        self.wait();
        self.signals.stop.store(false, Ordering::Relaxed);
        self.signals.pondering.store(limits.ponder, Ordering::Relaxed);
        self.signals.nodes.store(0, Ordering::Relaxed);
        self.signals.tbhits.store(0, Ordering::Relaxed);
        self.tt.new_search();
        let start = Instant::now();
        self.reported = Arc::new(AtomicBool::new(false));
        let reporter = Finishing { inner: reporter, reported: self.reported.clone() };
        // A level searches on one thread (its budget counts one thread's
        // nodes) with enough lines to draw from.
        let mut active = self.workers.len();
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
            limits.multipv = limits.multipv.max(level::LINES);
            active = 1;
        }
        let mut workers = std::mem::take(&mut self.workers);
        let root = self.position.clone();
        let history = self.history.clone();
        let signals = self.signals.clone();
        let spawned = std::thread::Builder::new()
            .name("crown-search-0".into())
            .stack_size(pool::STACK_SIZE)
            .spawn(move || {
                let searching = &mut workers[..active];
                pool::search(searching, &root, &history, &limits, &reporter, &signals, start);
                workers
            });
        match spawned {
            Ok(handle) => {
                self.running = Some(handle);
                Ok(())
            }
            Err(_) => {
                self.rebuild_workers();
                Err("cannot start a search thread")
            }
        }
    }

    /// Asks a running search to stop (it reports its best move).
    pub fn stop(&self) {
        self.signals.stop.store(true, Ordering::Relaxed);
    }

    /// Uses `threads` search threads from the next search on.
    pub fn set_threads(&mut self, threads: usize) {
        self.wait();
        self.thread_count = threads.max(1);
        self.rebuild_workers();
    }

    /// Switches to another table (after a resize).
    pub fn set_table(&mut self, tt: Arc<TranspositionTable>) {
        self.wait();
        self.tt = tt;
        for w in &mut self.workers {
            w.set_table(self.tt.clone());
        }
    }

    /// Probes these endgame tables from the next search on (`None`: none).
    pub fn set_tables(&mut self, tables: Option<Arc<G::Tables>>) {
        self.wait();
        self.tables = tables;
        for w in &mut self.workers {
            w.set_tables(self.tables.clone());
        }
    }

    /// The endgame tables the workers probe.
    pub fn tables(&self) -> Option<&Arc<G::Tables>> {
        self.tables.as_ref()
    }

    /// The search tunables in use.
    pub fn params(&self) -> Params {
        self.params
    }

    /// Replaces the search tunables.
    pub fn set_params(&mut self, params: Params) {
        self.wait();
        self.params = params;
        for w in &mut self.workers {
            w.set_params(params);
        }
    }

    /// Forgets what was learnt in the previous game (histories).
    pub fn new_game(&mut self) {
        self.wait();
        for w in &mut self.workers {
            w.clear();
        }
    }

    /// A static evaluation breakdown of the root (the `eval` command).
    pub fn trace(&mut self) -> String {
        use crate::eval::Evaluator;
        let mut evaluator = G::Evaluator::default();
        evaluator.trace(&self.position)
    }
}

/// Passes everything on and raises `reported` before the best move leaves,
/// so that whoever reads `bestmove` finds the search over.
struct Finishing<R> {
    inner: R,
    reported: Arc<AtomicBool>,
}

impl<G: Playable, R: Reporter<G>> Reporter<G> for Finishing<R> {
    fn info(&self, root: &G, info: &Info<G::Move>) {
        self.inner.info(root, info);
    }

    fn current_move(&self, root: &G, mv: G::Move, number: usize, depth: i32) {
        self.inner.current_move(root, mv, number, depth);
    }

    fn best_move(&self, root: &G, best: Option<G::Move>, ponder: Option<G::Move>) {
        self.reported.store(true, Ordering::Release);
        self.inner.best_move(root, best, ponder);
    }
}

impl<G: Playable> Drop for Engine<G> {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
