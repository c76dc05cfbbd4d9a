//! Lazy SMP over persistent threads: every worker searches the same root on
//! its own thread and they share only the transposition table and the stop
//! signal.
//!
//! The threads are started once, when the pool is built (the engine builds
//! it when `Threads` is set), and each owns its [`Worker`] for its whole
//! life: a `go` on a short clock pays no thread start-up, and no worker is
//! ever shared behind a lock. Work reaches a thread as a [`Task`] on its own
//! channel; tasks run in the order sent.
//!
//! Each search carries its configuration ([`Config`]: tunables, learned
//! evaluations, level) and tables; a worker adopts what changed before it
//! searches. Options reach a worker only this way: an [`Edit`] is for the
//! table after a resize and for a new game.
//!
//! Thread 0 is the main thread: it owns the clock and the reporter, raises
//! the stop signal when it is done, collects the helpers' outcomes, chooses
//! the move across all threads ([`choose`]), makes sure the last info line
//! describes that move, and reports it. Invariant: every search task sent to
//! thread 0 ends with exactly one `best_move` report, whatever happens.

use super::Config;
use crate::eval::Playable;
use crate::search::params::Family;
use crate::search::tt::TranspositionTable;
use crate::search::{choose, Finding, Info, Limits, Reporter, ScoreBound, Signals, Silent, Worker};
use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Stack for each search thread: a ply holds a position copy, a move list
/// and its ordering scores, for up to `MAX_PLY` plies.
pub const STACK_SIZE: usize = 64 << 20;

/// A change to every worker, made between searches.
pub type Edit<G> = Arc<dyn Fn(&mut Worker<G>) + Send + Sync>;

/// One search, shared by the threads that run it.
pub struct Job<G: Playable> {
    /// The root position.
    pub root: G,
    /// Keys of the game's positions before the root, oldest first.
    pub history: Vec<u64>,
    /// The limits.
    pub limits: Limits<G::Move>,
    /// The options, as the search reads them from start to end.
    pub config: Arc<Config>,
    /// The endgame tables to probe (none: no probes).
    pub tables: Option<Arc<G::Tables>>,
    /// When the search started (the clock's origin).
    pub start: Instant,
    /// Where the main thread reports.
    pub reporter: Box<dyn Reporter<G>>,
    /// Lowered just before the best move is reported.
    pub searching: Arc<AtomicBool>,
    /// Told once the best move has been reported.
    pub done: Sender<()>,
}

enum Task<G: Playable> {
    Search {
        job: Arc<Job<G>>,
        outcomes: Sender<Finding<G::Move>>,
        helpers: Receiver<Finding<G::Move>>,
        count: usize,
    },
    Edit(Edit<G>, Sender<()>),
}

struct Thread<G: Playable> {
    tasks: Sender<Task<G>>,
    handle: JoinHandle<()>,
}

/// The search threads of one engine.
pub struct Pool<G: Playable> {
    threads: Vec<Thread<G>>,
    signals: Arc<Signals>,
}

impl<G: Playable> Pool<G> {
    /// Starts `count` threads (at least one), each with a fresh worker on
    /// `tt`. Threads the system refuses are left out; the error says how
    /// many started when that leaves fewer than asked.
    pub fn new(
        count: usize,
        tt: &Arc<TranspositionTable>,
        signals: &Arc<Signals>,
    ) -> (Pool<G>, Result<(), String>) {
        let mut threads = Vec::with_capacity(count);
        for id in 0..count.max(1) {
            let (tasks, inbox) = crossbeam_channel::unbounded::<Task<G>>();
            let (tt, signals_for) = (tt.clone(), signals.clone());
            let spawned = std::thread::Builder::new()
                .name(format!("crown-search-{id}"))
                .stack_size(STACK_SIZE)
                .spawn(move || serve(Worker::new(id, tt, signals_for), inbox));
            match spawned {
                Ok(handle) => threads.push(Thread { tasks, handle }),
                Err(_) => break,
            }
        }
        let status = if threads.len() == count.max(1) {
            Ok(())
        } else {
            Err(format!("only {} of {count} search threads could be started", threads.len()))
        };
        (Pool { threads, signals: signals.clone() }, status)
    }

    /// How many threads run.
    pub fn len(&self) -> usize {
        self.threads.len()
    }

    /// Whether the pool has no thread (never true for a built pool unless
    /// the system refused every thread).
    pub fn is_empty(&self) -> bool {
        self.threads.is_empty()
    }

    /// Applies `edit` to every worker and waits until all have done so.
    /// Only called between searches.
    pub fn edit(&self, edit: Edit<G>) {
        let (ack, acks) = crossbeam_channel::bounded(self.threads.len());
        let sent = self
            .threads
            .iter()
            .filter(|t| t.tasks.send(Task::Edit(edit.clone(), ack.clone())).is_ok())
            .count();
        drop(ack);
        for _ in 0..sent {
            if acks.recv().is_err() {
                break;
            }
        }
    }

    /// Starts `job` on the first `active` threads (thread 0 reports) and
    /// returns at once. When there is no thread at all the best move is
    /// reported as none at once, so the search still gets its answer.
    pub fn start(&self, job: Job<G>, active: usize) {
        let active = active.clamp(1, self.threads.len().max(1));
        let job = Arc::new(job);
        let (outcomes, helpers) = crossbeam_channel::unbounded();
        let mut sent = 0;
        for thread in self.threads.iter().take(active) {
            let task = Task::Search {
                job: job.clone(),
                outcomes: outcomes.clone(),
                helpers: helpers.clone(),
                count: active,
            };
            if thread.tasks.send(task).is_ok() {
                sent += 1;
            }
        }
        if sent == 0 {
            job.searching.store(false, Ordering::Release);
            job.reporter.best_move(&job.root, None, None);
            let _ = job.done.send(());
        }
    }
}

impl<G: Playable> Drop for Pool<G> {
    fn drop(&mut self) {
        self.signals.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            drop(thread.tasks);
            let _ = thread.handle.join();
        }
    }
}

/// A search thread's life: run tasks until the pool is dropped.
fn serve<G: Playable>(mut worker: Worker<G>, inbox: Receiver<Task<G>>) {
    // The configuration the worker has taken: none yet for a fresh one.
    let mut adopted: Option<Arc<Config>> = None;
    for task in inbox {
        match task {
            Task::Edit(edit, ack) => {
                edit(&mut worker);
                let _ = ack.send(());
            }
            Task::Search { job, outcomes, helpers, count } => {
                adopt(&mut worker, &mut adopted, &job);
                if worker.id == 0 {
                    // Only the helpers hold senders now: should one die, the
                    // collection below ends instead of waiting for it.
                    drop(outcomes);
                    lead(&mut worker, &job, &helpers, count);
                } else {
                    let outcome =
                        worker.think(&job.root, &job.history, &job.limits, &Silent, job.start);
                    let _ = outcomes.send(outcome);
                }
            }
        }
    }
}

/// Gives the worker what the job's configuration changes (the tunables,
/// the learned evaluations) and the job's tables, before it searches.
fn adopt<G: Playable>(worker: &mut Worker<G>, adopted: &mut Option<Arc<Config>>, job: &Job<G>) {
    let config = &job.config;
    match adopted {
        Some(old) if Arc::ptr_eq(old, config) => {}
        old => {
            let family = Family::of::<G>();
            if old.as_ref().map(|c| c.params.get(family)) != Some(config.params.get(family)) {
                worker.set_params(config.params.get(family));
            }
            if !old.as_ref().is_some_and(|c| Arc::ptr_eq(&c.learned, &config.learned)) {
                worker.set_learned(&config.learned);
            }
            *old = Some(config.clone());
        }
    }
    worker.set_tables(job.tables.clone());
}

/// The first move, score and depth of a reported line.
type Last<M> = Option<(Option<M>, i32, i32)>;

/// The last info line the main thread reported, to tell whether the move
/// chosen at the end needs a line of its own.
struct Tracking<'a, G: Playable> {
    inner: &'a dyn Reporter<G>,
    last: Mutex<Last<G::Move>>,
}

impl<G: Playable> Reporter<G> for Tracking<'_, G> {
    fn info(&self, root: &G, info: &Info<G::Move>) {
        if info.multipv <= 1 {
            *self.last.lock() = Some((info.pv.first().copied(), info.score, info.depth));
        }
        self.inner.info(root, info);
    }

    fn current_move(&self, root: &G, mv: G::Move, number: usize, depth: i32) {
        self.inner.current_move(root, mv, number, depth);
    }

    fn best_move(&self, root: &G, best: Option<G::Move>, ponder: Option<G::Move>) {
        self.inner.best_move(root, best, ponder);
    }
}

/// The main thread's search: think, wait for `stop` where the search is
/// infinite or pondering, collect the helpers, choose, report.
fn lead<G: Playable>(
    worker: &mut Worker<G>,
    job: &Job<G>,
    helpers: &Receiver<Finding<G::Move>>,
    count: usize,
) {
    let signals = worker.signals.clone();
    let reporter = Tracking { inner: job.reporter.as_ref(), last: Mutex::new(None) };
    let first = worker.think(&job.root, &job.history, &job.limits, &reporter, job.start);
    // An infinite or pondering search reports only when told to, even when
    // the main thread has finished every depth (a mate, a dead draw).
    while (job.limits.infinite || signals.pondering.load(Ordering::Relaxed)) && !signals.stopped() {
        std::thread::sleep(Duration::from_micros(500));
    }
    signals.stop.store(true, Ordering::Relaxed);
    let mut outcomes = vec![first];
    outcomes.extend(helpers.iter().take(count - 1));
    let best = choose(&outcomes).cloned();
    let best_move = best.as_ref().and_then(|o| o.pv.first().copied());
    // The last info line must describe the move played: when the chosen
    // line is not the one last reported (a helper's deeper line, a stopped
    // iteration, a level's drawn move), report it now.
    if let Some(chosen) = &best {
        let last = *reporter.last.lock();
        if last != Some((best_move, chosen.score, chosen.depth.max(1))) {
            let info = Info {
                depth: chosen.depth.max(1),
                seldepth: chosen.seldepth.max(chosen.pv.len()),
                multipv: 1,
                score: chosen.score,
                bound: ScoreBound::Exact,
                nodes: signals.nodes.load(Ordering::Relaxed).max(first_nodes(&outcomes)),
                time: job.start.elapsed(),
                hashfull: worker.tt.hashfull(),
                tbhits: signals.tbhits.load(Ordering::Relaxed),
                table: worker.root_table(),
                pv: chosen.pv.clone(),
            };
            job.reporter.info(&job.root, &info);
        }
    }
    let ponder = best.as_ref().and_then(|o| o.pv.get(1).copied()).or_else(|| {
        // No reply in the PV (stopped early): ask the table.
        let mv = best_move?;
        let mut after = job.root.clone();
        after.play(mv);
        let key = worker.tt.probe(after.hash(), 1)?.mv;
        (key != 0).then(|| after.find_move(key)).flatten()
    });
    job.searching.store(false, Ordering::Release);
    job.reporter.best_move(&job.root, best_move, ponder);
    let _ = job.done.send(());
}

fn first_nodes<M>(outcomes: &[Finding<M>]) -> u64 {
    outcomes.iter().map(|o| o.nodes).sum()
}
