//! One search thread: its private state (history, evaluator, stacks) and the
//! iterative deepening loop with aspiration windows and MultiPV.
//!
//! Lazy SMP: every thread runs this same loop on the same root and they meet
//! only in the shared transposition table. Thread 0 is the main thread: it
//! owns the clock, reports progress and decides when the search ends (by
//! raising the stop signal, which every thread polls at every node).

use crate::endgame::{Probe, Wdl};
use crate::eval::Playable;
use crate::score::{mate_in_moves, Score, INFINITE, MAX_PLY};
use crate::search::alphabeta::no_move_score;
use crate::search::ordering::History;
use crate::search::params::{Family, Params, Step};
use crate::search::tt::TranspositionTable;
use crate::search::{Finding, Info, Limits, Reporter, ScoreBound, Signals};
use crate::time::{self, Deadlines};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Nodes between two looks at the clock and publications of the node count.
const CHECK_INTERVAL: u64 = 1024;

/// Plies a `go mate N` search goes beyond the 2N - 1 a mate in N needs.
const MATE_SLACK: i32 = 5;

/// A root move with what the last iterations found for it.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Score of the current iteration (-INFINITE until searched fully).
    pub score: Score,
    /// Score of the previous iteration.
    pub previous: Score,
    /// Its principal variation, the move first.
    pub pv: Vec<M>,
    /// Deepest ply reached below it.
    pub seldepth: usize,
}

/// Per-ply search state.
#[derive(Clone, Copy)]
pub struct Frame<M> {
    /// Static evaluation at this ply (none when in check).
    pub eval: Option<Score>,
    /// History index of the move played from this ply (for counter moves).
    pub played: Option<usize>,
    /// Whether the move played from this ply was a null move.
    pub null: bool,
    /// Move excluded from the search here (singular extension test).
    pub excluded: Option<M>,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame { eval: None, played: None, null: false, excluded: None }
    }
}

/// The main thread's clock.
struct TimeKeeper {
    start: Instant,
    deadlines: Option<Deadlines>,
    /// Ponder time does not count: the clock restarts at `ponderhit`.
    was_pondering: bool,
    /// A fixed time per move (`go movetime`): used in full, not scaled by
    /// best-move stability.
    fixed: bool,
}

/// One search thread's state, kept between searches (histories survive
/// until a new game).
pub struct Worker<G: Playable> {
    /// Thread number; 0 is the main thread.
    pub id: usize,
    pub(crate) eval: G::Evaluator,
    pub(crate) history: History<G>,
    pub(crate) params: Params,
    pub(crate) lmr: Vec<[u8; 64]>,
    pub(crate) tt: Arc<TranspositionTable>,
    /// Endgame tables handed over by the engine (none: no probes).
    pub(crate) tables: Option<Arc<G::Tables>>,
    pub(crate) signals: Arc<Signals>,
    pub(crate) nodes: u64,
    published: u64,
    /// Table probes that gave a result, and how many were published.
    pub(crate) tbhits: u64,
    published_tbhits: u64,
    /// The table result of the root when the tables chose its moves.
    root_table: Option<Wdl>,
    pub(crate) seldepth: usize,
    pub(crate) keys: Vec<u64>,
    pub(crate) frames: Vec<Frame<G::Move>>,
    pub(crate) pv: Vec<Vec<G::Move>>,
    pub(crate) root_moves: Vec<RootMove<G::Move>>,
    pub(crate) pv_index: usize,
    pub(crate) root_depth: i32,
    /// Null moves are not tried below this ply while a null move's fail
    /// high is being verified (0: no verification running).
    pub(crate) nmp_min_ply: usize,
    pub(crate) stopped: bool,
    node_limit: Option<u64>,
    /// A playing level's hard node cap, applied once depth 1 is done.
    level_cap: Option<u64>,
    clock: Option<TimeKeeper>,
}

impl<G: Playable> Worker<G> {
    /// A fresh thread sharing `tt` and `signals`.
    pub fn new(id: usize, tt: Arc<TranspositionTable>, signals: Arc<Signals>) -> Self {
        let mut worker = Worker {
            id,
            eval: G::Evaluator::default(),
            history: History::default(),
            params: Params::new(Family::of::<G>()),
            lmr: vec![[0; 64]; 64],
            tt,
            tables: None,
            signals,
            nodes: 0,
            published: 0,
            tbhits: 0,
            published_tbhits: 0,
            root_table: None,
            seldepth: 0,
            keys: Vec::with_capacity(1024),
            frames: vec![Frame::default(); MAX_PLY + 4],
            pv: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            root_moves: Vec::new(),
            pv_index: 0,
            root_depth: 0,
            nmp_min_ply: 0,
            stopped: false,
            node_limit: None,
            level_cap: None,
            clock: None,
        };
        worker.set_params(Params::new(Family::of::<G>()));
        worker
    }

    /// Replaces the tunables (and the reduction table built from them).
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.history.bonus_max = params.history_bonus_max;
        self.history.off = params.off;
        let base = params.lmr_base as f64 / 100.0;
        let divisor = params.lmr_divisor as f64 / 100.0;
        for (depth, row) in self.lmr.iter_mut().enumerate() {
            for (moves, r) in row.iter_mut().enumerate() {
                let value = if depth == 0 || moves == 0 {
                    0.0
                } else {
                    base + (depth as f64).ln() * (moves as f64).ln() / divisor
                };
                *r = value.clamp(0.0, 63.0) as u8;
            }
        }
    }

    /// Gives the evaluator the learned evaluations (it takes its game's).
    pub fn set_learned(&mut self, learned: &crate::eval::Learned) {
        use crate::eval::Evaluator;
        self.eval.set_learned(learned);
    }

    /// Points the worker at a new table (after a Hash resize).
    pub fn set_table(&mut self, tt: Arc<TranspositionTable>) {
        self.tt = tt;
    }

    /// The table result of the last root, when the tables chose its moves.
    pub fn root_table(&self) -> Option<Wdl> {
        self.root_table
    }

    /// Probes these endgame tables from the next search on (`None`: none).
    pub fn set_tables(&mut self, tables: Option<Arc<G::Tables>>) {
        self.tables = tables;
    }

    /// Forgets the game (a new game starts).
    pub fn clear(&mut self) {
        self.history.clear();
    }

    /// Counts a node; the main thread also watches the clock and node limit.
    #[inline]
    pub(crate) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.publish_nodes();
            if self.id == 0 {
                self.check_limits();
            }
        }
    }

    fn publish_nodes(&mut self) {
        self.signals.nodes.fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
        self.signals.tbhits.fetch_add(self.tbhits - self.published_tbhits, Ordering::Relaxed);
        self.published_tbhits = self.tbhits;
    }

    fn check_limits(&mut self) {
        if let Some(limit) = self.node_limit {
            if self.nodes >= limit {
                self.signals.stop.store(true, Ordering::Relaxed);
            }
        }
        if let Some(cap) = self.level_cap {
            if self.nodes >= cap && self.root_depth > 1 {
                self.signals.stop.store(true, Ordering::Relaxed);
            }
        }
        let pondering = self.signals.pondering.load(Ordering::Relaxed);
        if let Some(clock) = &mut self.clock {
            if pondering {
                return;
            }
            if clock.was_pondering {
                clock.was_pondering = false;
                clock.start = Instant::now();
            }
            if let Some(d) = clock.deadlines {
                if clock.start.elapsed() >= d.hard {
                    self.signals.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// Whether the search must unwind now. Depth 1 never does: it is cheap
    /// (every root move, then quiescence), and finishing it is what gives
    /// every answer a searched move and score, also after a `stop` (or the
    /// end of input) that follows `go` at once.
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if !self.stopped && self.root_depth > 1 && self.signals.stopped() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether the current node (last key) repeats an earlier position with
    /// the same side to move since the last irreversible move.
    pub(crate) fn is_repetition(&self, window: u32) -> bool {
        let n = self.keys.len();
        let Some(&key) = self.keys.last() else { return false };
        let reach = (window as usize).min(n - 1);
        (4..=reach).step_by(2).any(|back| self.keys[n - 1 - back] == key)
    }

    /// Runs iterative deepening on `root` until a limit or the stop signal.
    /// `history` holds the keys of the game's earlier positions, oldest first.
    /// Only the main thread (id 0) uses `reporter` and the clock.
    pub fn think<R: Reporter<G>>(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits<G::Move>,
        reporter: &R,
        start: Instant,
    ) -> Finding<G::Move> {
        self.prepare(root, history, limits, start);
        let main = self.id == 0;
        let mut outcome = Finding { depth: 0, score: 0, pv: Vec::new(), nodes: 0, seldepth: 0 };
        if self.root_moves.is_empty() {
            if main {
                self.report_game_over(root, reporter, start);
            }
            self.publish_nodes();
            return outcome;
        }
        let multipv = limits.multipv.clamp(1, self.root_moves.len());
        // `go mate N` is bounded: a mate in N moves takes 2N - 1 plies, and
        // the pruning steps can hide it for a few more (the ladder mate in
        // two shows at depth 6 or 7), hence the slack.
        let mate_depth = limits.mate.map(|n| 2 * n.clamp(1, MAX_PLY as i32) - 1 + MATE_SLACK);
        let max_depth = [limits.depth, mate_depth]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let mut stable_iterations = 0;
        let mut last_best = None;
        let mut last_score = 0;
        // A level draws its move from the lines of the last finished
        // iteration (move, score, principal variation).
        let mut finished: Vec<(G::Move, Score, Vec<G::Move>)> = Vec::new();

        for depth in 1..=max_depth {
            // Helpers skip some depths so the threads spread over the tree.
            if !main && depth > 2 && (depth as usize + self.id) % 3 == 0 {
                continue;
            }
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.previous = rm.score;
            }
            for pv_index in 0..multipv {
                self.pv_index = pv_index;
                self.seldepth = 0;
                self.aspiration(root, depth, main, reporter, start);
                if self.stopped {
                    break;
                }
            }
            if main && !self.stopped {
                for i in 0..multipv {
                    reporter.info(root, &self.info(i, depth, ScoreBound::Exact, start));
                }
            }
            // A stopped iteration (never depth 1, which always finishes)
            // still counts when its first move was searched fully: the
            // sorted root list holds sound results. The outcome keeps the
            // last finished iteration's depth.
            if self.stopped {
                if self.root_moves[0].score > -INFINITE {
                    outcome.pv.clone_from(&self.root_moves[0].pv);
                    outcome.score = self.root_moves[0].score;
                }
                break;
            }
            let best = &self.root_moves[0];
            outcome = Finding {
                depth,
                score: best.score,
                pv: best.pv.clone(),
                nodes: 0,
                seldepth: best.seldepth,
            };
            if let (true, Some(play)) = (main, limits.level) {
                finished.clear();
                let lines = &self.root_moves[..multipv];
                finished.extend(lines.iter().map(|rm| (rm.mv, rm.score, rm.pv.clone())));
                // No new iteration once half the budget is spent: the next
                // one would cost about as much as all before it.
                if self.nodes.saturating_mul(2) >= play.level.budget() {
                    break;
                }
            }

            if !main {
                continue;
            }
            // Iteration-level stops (main thread only).
            if let (Some(wanted), Some(found)) = (limits.mate, mate_in_moves(best.score)) {
                if found > 0 && found <= wanted {
                    break;
                }
            }
            if last_best == Some(best.mv) {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            let score_drop = last_score - best.score;
            last_best = Some(best.mv);
            last_score = best.score;
            if self.soft_deadline_passed(stable_iterations, score_drop) {
                break;
            }
        }
        // The main thread does not raise the stop signal here: an infinite
        // or pondering search that has run out of depth must keep waiting
        // for `stop` or `ponderhit`, and the pool raises it once it may
        // report (see `pool::search`).
        self.publish_nodes();
        if let Some(play) = limits.level.filter(|_| main) {
            let lines: Vec<_> = finished.iter().map(|(mv, score, _)| (*mv, *score)).collect();
            let chosen = play.level.choose(&lines, play.random);
            if let Some((_, score, pv)) = finished.iter().find(|(mv, ..)| Some(*mv) == chosen) {
                outcome.score = *score;
                outcome.pv.clone_from(pv);
            }
        }
        outcome.nodes = self.nodes;
        outcome
    }

    /// A root without a legal move: the game is over. The main thread
    /// reports its score (lost, drawn, or won in antidraughts) at depth 0
    /// with no line, as Stockfish does before `bestmove (none)`.
    fn report_game_over<R: Reporter<G>>(&self, root: &G, reporter: &R, start: Instant) {
        let mut list = G::MoveList::default();
        root.generate(&mut list);
        if !list.is_empty() {
            // The searchmoves left none of the legal moves: no verdict.
            return;
        }
        reporter.info(
            root,
            &Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score: no_move_score(root, 0),
                bound: ScoreBound::Exact,
                nodes: 0,
                time: start.elapsed(),
                hashfull: self.tt.hashfull(),
                tbhits: 0,
                table: None,
                pv: Vec::new(),
            },
        );
    }

    fn prepare(&mut self, root: &G, history: &[u64], limits: &Limits<G::Move>, start: Instant) {
        self.nodes = 0;
        self.published = 0;
        self.tbhits = 0;
        self.published_tbhits = 0;
        self.root_table = None;
        self.stopped = false;
        self.node_limit = if self.id == 0 { limits.nodes } else { None };
        self.level_cap =
            limits.level.filter(|_| self.id == 0).map(|p| p.level.budget().saturating_mul(2));
        self.root_depth = 0;
        self.nmp_min_ply = 0;
        self.keys.clear();
        let window = (root.reversible_plies() as usize).min(history.len());
        self.keys.extend_from_slice(&history[history.len() - window..]);
        self.keys.push(root.hash());
        for frame in &mut self.frames {
            *frame = Frame::default();
        }
        self.clock = (self.id == 0).then(|| TimeKeeper {
            start,
            deadlines: if limits.infinite {
                None
            } else if let Some(t) = limits.movetime {
                Some(time::fixed(t, limits.overhead))
            } else {
                limits.clock.map(|c| time::allocate(c, limits.overhead))
            },
            was_pondering: limits.ponder,
            fixed: limits.movetime.is_some(),
        });
        let mut list = G::MoveList::default();
        root.generate(&mut list);
        self.root_moves = list
            .iter()
            .filter(|mv| limits.searchmoves.is_empty() || limits.searchmoves.contains(mv))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        // Tables with distances keep only the root moves that preserve the
        // result and make progress (unless that leaves none of the moves
        // asked for).
        if let Some(filter) = self.tables.as_ref().and_then(|t| t.root_moves(root)) {
            self.tbhits += filter.probes;
            if self.root_moves.iter().any(|rm| filter.moves.contains(&rm.mv)) {
                self.root_moves.retain(|rm| filter.moves.contains(&rm.mv));
                self.root_table = Some(filter.wdl);
            }
        }
    }

    /// Searches the current PV index with a window around the last score,
    /// widening it on each fail.
    fn aspiration<R: Reporter<G>>(
        &mut self,
        root: &G,
        depth: i32,
        main: bool,
        reporter: &R,
        start: Instant,
    ) {
        let previous = self.root_moves[self.pv_index].previous;
        let mut delta = self.params.aspiration_window;
        let aspire = depth >= 4 && previous > -INFINITE && self.params.on(Step::Aspiration);
        let (mut alpha, mut beta) = if aspire {
            ((previous - delta).max(-INFINITE), (previous + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            // currmove lines only once the search is long enough to watch.
            let report = |mv: G::Move, number: usize| {
                if start.elapsed() >= Duration::from_secs(1) {
                    reporter.current_move(root, mv, number, depth);
                }
            };
            let current: Option<&dyn Fn(G::Move, usize)> = if main { Some(&report) } else { None };
            let score = self.search_root(root, depth, alpha, beta, current);
            let tail = &mut self.root_moves[self.pv_index..];
            tail.sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.stopped {
                return;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                ScoreBound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                ScoreBound::Lower
            } else {
                return;
            };
            if main && start.elapsed() > Duration::from_secs(3) {
                reporter.info(root, &self.info(self.pv_index, depth, bound, start));
            }
            delta += delta / 2;
        }
    }

    fn soft_deadline_passed(&mut self, stable: u32, score_drop: Score) -> bool {
        let Some(clock) = &self.clock else { return false };
        if self.signals.pondering.load(Ordering::Relaxed) {
            return false;
        }
        let Some(d) = clock.deadlines else { return false };
        if clock.fixed {
            // `go movetime x` means x: only the hard deadline ends it.
            return false;
        }
        let scale = time::soft_scale(stable, score_drop, self.root_moves.len() == 1);
        let soft = d.soft.mul_f64(scale).min(d.hard);
        let start = if clock.was_pondering { Instant::now() } else { clock.start };
        start.elapsed() >= soft
    }

    fn info(&self, index: usize, depth: i32, bound: ScoreBound, start: Instant) -> Info<G::Move> {
        let rm = &self.root_moves[index];
        let score = if rm.score > -INFINITE { rm.score } else { rm.previous };
        Info {
            depth,
            seldepth: rm.seldepth.max(1),
            multipv: index + 1,
            score: score.clamp(-INFINITE + 1, INFINITE - 1),
            bound,
            nodes: self.signals.nodes.load(Ordering::Relaxed).max(self.nodes),
            time: start.elapsed(),
            hashfull: self.tt.hashfull(),
            tbhits: self.signals.tbhits.load(Ordering::Relaxed)
                + (self.tbhits - self.published_tbhits),
            table: self.root_table,
            pv: rm.pv.clone(),
        }
    }
}
