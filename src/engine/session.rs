//! The session: everything a protocol front end drives, for every game.
//!
//! A [`Session`] owns the transposition table, the signals, the settings,
//! the search parameters, the playing level, the endgame tables, the
//! opening book and the engine of the game being played (an enum over
//! [`Engine<G>`], matched once per command, never per node). UCI, Hub and
//! DXP are thin edges over it: they parse a line, call one method here, and
//! print what comes back.
//!
//! * [`Session::apply`] makes every option change: it runs the option's
//!   `apply` method, named by its entry in the option table (the methods
//!   under "Option effects" below: resizing the table, loading files), and
//!   records the value; a variant change builds a new engine.
//! * [`Session::set_position`] reads a setup and a move list, all or
//!   nothing, with one error type.
//! * [`Session::go`] starts a search and returns at once (in a position of
//!   the opening book it answers with the book's move instead); the
//!   [`Listener`] hears the progress and the best move as text, and
//!   [`Session::done`] is told when it has been reported. `perft` and `bench` run the same
//!   way, as tasks that `stop` ends. The search reads the options as one
//!   immutable [`Config`], taken at the first `go` after a change.
//!
//! Invariant: methods that change state are only called while
//! [`Session::is_busy`] is false (the protocol loop queues commands until
//! then); `stop`, `ponderhit` and the read-only methods may be called at
//! any time.

use super::listener::Text;
pub use super::listener::{Listener, Notation, Report};
use super::options::{self as opt, Change, Settings, Value, NO_BOOK};
use super::{Config, Engine};
use crate::book::Book;
use crate::endgame::{Probe, ProbeConfig};
use crate::eval::{Learned, Playable};
use crate::game::{Game, Side, Variant};
use crate::search::level::Scale;
use crate::search::params::ParamSets;
use crate::search::tt::{self, TranspositionTable};
use crate::search::{Limits, Reporter, Signals};
use crate::text::cut;
use crate::time::Clock;
use crossbeam_channel::{Receiver, Sender};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long a search runs whose limits do not bound the side to move (a
/// bare `go`, only the other side's clock, an increment or a move count
/// alone, Hub `level inc=` alone). Only `infinite` and `ponder` searches
/// wait for `stop`.
pub const DEFAULT_BUDGET: Duration = Duration::from_secs(1);

/// Deepest `go perft` accepted.
pub const MAX_PERFT_DEPTH: u32 = 15;
/// Deepest `bench` accepted.
pub const MAX_BENCH_DEPTH: u32 = 30;

/// A `bench` depth as text, the same for UCI `bench N` and `crown bench N`:
/// 0 reads as 1, a depth over [`MAX_BENCH_DEPTH`] is refused (at depth 99
/// the benchmark would not end).
pub fn bench_depth(text: &str) -> Result<u32, String> {
    let wide: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("bench depth: '{}' is not a number", cut(text, 20)))?;
    if wide < 0 {
        return Err(format!("bench depth: {wide} is negative"));
    }
    if wide > i128::from(MAX_BENCH_DEPTH) {
        return Err(format!("bench: depth {wide} is too deep (at most {MAX_BENCH_DEPTH})"));
    }
    Ok((wide as u32).max(1))
}

/// Where a position command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// The variant's start position.
    Start,
    /// Position text: FEN (chess), PDN FEN or a Hub position (draughts).
    Text(String),
}

/// A search request in protocol-neutral form (UCI `go`, Hub `level` and
/// `go`, DXP's clock).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's clock, milliseconds (negative values count as zero).
    pub wtime: Option<i64>,
    /// Black's clock, milliseconds.
    pub btime: Option<i64>,
    /// White's increment, milliseconds.
    pub winc: Option<i64>,
    /// Black's increment, milliseconds.
    pub binc: Option<i64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Fixed time for this move, milliseconds.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder on the opponent's time (until `ponderhit` or `stop`).
    pub ponder: bool,
    /// Restrict the root to these moves (move text).
    pub searchmoves: Vec<String>,
}

/// Why a position command was refused (the position is unchanged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The setup text is not a position of this game.
    Setup {
        /// The text, cut for the message.
        text: String,
        /// The reader's reason.
        reason: String,
    },
    /// A move of the list is malformed or illegal where it stands.
    Move {
        /// 1-based index in the list.
        index: usize,
        /// The move text, cut for the message.
        text: String,
        /// The reason.
        reason: String,
    },
}

impl std::fmt::Display for PositionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PositionError::Setup { text, reason } => {
                write!(f, "bad position (FEN) '{text}': {reason}")
            }
            PositionError::Move { index, text, reason } => {
                write!(f, "move {index} '{text}': {reason}; position unchanged")
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// Declares the engine enum and its dispatch from one list of games.
macro_rules! games {
    ($($arm:ident => $G:ty),* $(,)?) => {
        /// The engine of the game being played.
        enum AnyEngine {
            $(
                #[allow(missing_docs)]
                $arm(Engine<$G>),
            )*
        }

        $(
            impl From<Engine<$G>> for AnyEngine {
                fn from(engine: Engine<$G>) -> Self {
                    AnyEngine::$arm(engine)
                }
            }
        )*

        /// Runs `$body` with `$e` bound to the engine inside, whatever the game.
        macro_rules! with_engine {
            ($engine:expr, $e:ident => $body:expr) => {
                match $engine {
                    $(AnyEngine::$arm($e) => $body,)*
                }
            };
        }
    };
}

games! {
    Chess => crate::chess::Position,
    International => crate::draughts::International,
    Brazilian => crate::draughts::Brazilian,
    Russian => crate::draughts::Russian,
    English => crate::draughts::English,
    Italian => crate::draughts::Italian,
    Turkish => crate::draughts::Turkish,
    Antidraughts => crate::draughts::Antidraughts,
    Killer => crate::draughts::Killer,
    Breakthrough => crate::draughts::Breakthrough,
    Frisian => crate::draughts::Frisian,
    Frysk => crate::draughts::Frysk,
}

/// The engine state of one protocol connection, for every game.
pub struct Session {
    engine: AnyEngine,
    settings: Settings,
    /// What searches read of the options, taken at the first `go` after a
    /// change (none: to take).
    config: Option<Arc<Config>>,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    params: ParamSets,
    /// Where the draughts endgame tables are (`crown hub --egtb DIR`, Hub
    /// `egtb`).
    egtb_path: Option<PathBuf>,
    /// The learned evaluations (`EvalFile`; none: hand-set).
    learned: Arc<Learned>,
    /// Where the chess Syzygy tables are (`SyzygyPath`, `:`-separated).
    syzygy_path: Option<PathBuf>,
    /// The opening book (`BookFile`) and its file name.
    book: Option<(String, Arc<Book>)>,
    done_tx: Sender<()>,
    done_rx: Receiver<()>,
    /// A running `perft` or `bench` and its busy flag.
    task: Option<JoinHandle<()>>,
    task_busy: Arc<AtomicBool>,
}

impl Session {
    /// A session playing `variant` from its start position, with default
    /// settings. Fails only when the default table cannot be allocated.
    pub fn new(variant: Variant) -> Result<Session, String> {
        let mut settings = Settings::default();
        settings.set(&opt::CHESS960, Value::Bool(variant == Variant::Chess960));
        let hash = settings.int(&opt::HASH) as usize;
        let tt = Arc::new(TranspositionTable::new(hash).map_err(|e| e.to_string())?);
        let signals = Arc::new(Signals::default());
        let (engine, _) = build(variant, &tt, &signals, settings.int(&opt::THREADS) as usize);
        let (done_tx, done_rx) = crossbeam_channel::unbounded();
        Ok(Session {
            engine,
            settings,
            config: None,
            tt,
            signals,
            params: ParamSets::default(),
            egtb_path: None,
            syzygy_path: None,
            book: None,
            learned: Arc::new(Learned::starting()),
            done_tx,
            done_rx,
            task: None,
            task_busy: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The game being played.
    pub fn variant(&self) -> Variant {
        match &self.engine {
            // Chess or Chess960 is the option's alone (never the mode of the
            // position at hand, which may predate the option's last change):
            // it is how the next `position` command is read.
            AnyEngine::Chess(_) if self.settings.flag(&opt::CHESS960) => Variant::Chess960,
            AnyEngine::Chess(_) => Variant::Chess,
            engine => with_engine!(engine, e => e.position().variant()),
        }
    }

    /// The settings in force.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The flags a protocol reader flips at once (`stop`, `ponderhit`).
    pub fn signals(&self) -> Arc<Signals> {
        self.signals.clone()
    }

    /// Told once after each search has reported its best move, and after
    /// each `perft` or `bench` task.
    pub fn done(&self) -> Receiver<()> {
        self.done_rx.clone()
    }

    /// Whether a search, `perft` or `bench` runs that has not answered yet.
    pub fn is_busy(&self) -> bool {
        self.task_busy.load(Ordering::Acquire) || with_engine!(&self.engine, e => e.is_searching())
    }

    /// Asks the running search or task to stop (it still answers).
    pub fn stop(&self) {
        self.signals.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the expected move: the pondering search goes on
    /// under its clock.
    pub fn ponderhit(&self) {
        self.signals.pondering.store(false, Ordering::Relaxed);
    }

    /// Waits until no search or task runs (stopping them first); for the
    /// end of a session.
    pub fn shut_down(&mut self) {
        self.stop();
        while with_engine!(&self.engine, e => e.is_searching()) {
            let _ = self.done_rx.recv_timeout(Duration::from_millis(10));
        }
        if let Some(task) = self.task.take() {
            let _ = task.join();
        }
    }

    /// Applies an option change. Returns the notes to show the user (a
    /// clamped value, a table load); an error changes nothing.
    pub fn apply(&mut self, change: Change) -> Result<Vec<String>, String> {
        let change = change.in_game(self.scale());
        let mut notes: Vec<String> = change.note().into_iter().collect();
        match change {
            Change::Set { option, value, .. } => {
                if let Some(apply) = option.apply {
                    notes.extend(apply(self, &value)?);
                }
                self.settings.set(option, value);
            }
            Change::SearchParam { spec, value } => _ = self.params.set(spec, value),
            Change::SearchStep { step, on } => self.params.switch(step, on),
            Change::Variant(v) => {
                self.tt.clear();
                let (engine, status) = build(v, &self.tt, &self.signals, self.threads());
                self.engine = engine;
                self.settings.set(&opt::CHESS960, Value::Bool(v == Variant::Chess960));
                if let Err(e) = status {
                    notes.push(e);
                }
                notes.extend(self.reload_tables());
            }
        }
        self.config = None;
        Ok(notes)
    }

    // Option effects: the `apply` methods the option table names. Each
    // gets the validated value before it is recorded (so the settings
    // still hold the old one) and refuses it by returning an error.

    /// `Hash`: a new, empty table of that size; on failure the old one
    /// stays.
    pub(super) fn resize_table(&mut self, value: &Value) -> Result<Vec<String>, String> {
        tt::resize(&mut self.tt, value.int() as usize)
            .map_err(|e| format!("{e}; keeping {} MB", self.settings.int(&opt::HASH)))?;
        let tt = self.tt.clone();
        with_engine!(&mut self.engine, e => e.set_table(tt));
        Ok(Vec::new())
    }

    /// `Threads`: a new pool; threads the system refuses are said so.
    pub(super) fn restart_threads(&mut self, value: &Value) -> Result<Vec<String>, String> {
        let threads = value.int() as usize;
        let status = with_engine!(&mut self.engine, e => e.set_threads(threads));
        Ok(status.err().into_iter().collect())
    }

    /// `Clear Hash`: empties the table.
    pub(super) fn clear_table(&mut self, _: &Value) -> Result<Vec<String>, String> {
        self.tt.clear();
        Ok(Vec::new())
    }

    /// `EvalFile`: the learned evaluations it names; a file that cannot be
    /// used is refused and the evaluations in use kept.
    pub(super) fn load_learned(&mut self, value: &Value) -> Result<Vec<String>, String> {
        let (learned, note) = super::learned::load(value.text(), &self.learned)?;
        self.learned = Arc::new(learned);
        Ok(vec![note])
    }

    /// `BookFile`: loads the book ([`NO_BOOK`]: none); a file that cannot
    /// be read or is not a Crown book is refused and the book in use kept.
    pub(super) fn load_book(&mut self, value: &Value) -> Result<Vec<String>, String> {
        let name = value.text().trim();
        if name == NO_BOOK || name.is_empty() {
            self.book = None;
            return Ok(vec!["book: none".into()]);
        }
        match Book::load(Path::new(name)) {
            Ok(book) => {
                let note = format!(
                    "book {name}: {}, {} positions, {} moves, {} plies at {} nodes a move",
                    book.variant(),
                    book.len(),
                    book.entries(),
                    book.depth(),
                    book.nodes()
                );
                self.book = Some((name.to_string(), Arc::new(book)));
                Ok(vec![note])
            }
            Err(e) => {
                let keeping = match &self.book {
                    Some((old, _)) => format!("keeping {old}"),
                    None => "playing without a book".into(),
                };
                Err(format!("book {name}: {e}; {keeping}"))
            }
        }
    }

    /// `SyzygyPath` / `egtb`: loads the endgame tables of the game played
    /// from there ([`opt::NO_PATH`] or empty: none). A path that names no
    /// directory is refused: the tables in use stay (a typo must not
    /// unload them).
    pub(super) fn set_tables_path(&mut self, value: &Value) -> Result<Vec<String>, String> {
        let text = value.text().trim();
        let none = text.is_empty() || text == opt::NO_PATH;
        if !none && !names_a_directory(text, self.variant().is_chess()) {
            let keeping = match self.tables_path() {
                Some(old) => format!("keeping the tables of {}", old.display()),
                None => "playing without tables".into(),
            };
            return Err(format!("tables: {} is not a directory; {keeping}", cut(text, 100)));
        }
        *self.tables_path() = (!none).then(|| PathBuf::from(text));
        Ok(self.reload_tables())
    }

    /// Plays a book move, if the book has the position and `go` asks for a
    /// game move at full strength (not analysis: no depth, nodes, mate,
    /// search moves, infinite or ponder). The listener hears the move at
    /// once and [`Session::done`] is told, as after a search.
    fn book_move(&self, go: &Go, listener: &Arc<dyn Listener>, notation: Notation) -> bool {
        let Some((_, book)) = &self.book else { return false };
        let analysis = go.infinite
            || go.ponder
            || go.depth.is_some()
            || go.nodes.is_some()
            || go.mate.is_some()
            || !go.searchmoves.is_empty();
        if analysis || self.settings.level(self.scale()).is_some() {
            return false;
        }
        let text = Text { listener: listener.clone(), notation };
        let played = with_engine!(&self.engine, e => match book.probe(e.position()) {
            Some((mv, _)) => {
                Reporter::best_move(&text, e.position(), Some(mv), None);
                true
            }
            None => false,
        });
        if played {
            let _ = self.done_tx.send(());
        }
        played
    }

    fn scale(&self) -> Scale {
        if self.variant().is_chess() {
            Scale::Chess
        } else {
            Scale::Draughts
        }
    }

    /// The `Threads` in force.
    fn threads(&self) -> usize {
        self.settings.int(&opt::THREADS) as usize
    }

    /// The configuration searches read: the one taken at the last `go`
    /// while no option has changed since, else a new one.
    fn config(&mut self) -> Arc<Config> {
        if let Some(config) = &self.config {
            return config.clone();
        }
        let s = &self.settings;
        let config = Arc::new(Config {
            params: self.params,
            learned: self.learned.clone(),
            level: s.level(self.scale()),
            seed: s.int(&opt::SEED) as u64,
            multipv: s.int(&opt::MULTI_PV) as usize,
            overhead: Duration::from_millis(s.int(&opt::MOVE_OVERHEAD) as u64),
            probe: ProbeConfig {
                depth: s.int(&opt::PROBE_DEPTH) as i32,
                limit: s.int(&opt::PROBE_LIMIT) as u32,
                rule50: s.flag(&opt::PROBE_50_MOVE_RULE),
            },
        });
        self.config = Some(config.clone());
        config
    }

    /// Gives the engine (a new one, or after a path change) the endgame
    /// tables of its game; returns the table-loading messages.
    fn reload_tables(&mut self) -> Vec<String> {
        let path = self.tables_path().clone();
        with_engine!(&mut self.engine, e => {
            let (tables, notes) = load_tables(e, path.as_deref());
            e.set_tables(tables);
            notes
        })
    }

    /// Where the tables of the game played come from (Syzygy for chess,
    /// Crown's databases for draughts).
    fn tables_path(&mut self) -> &mut Option<PathBuf> {
        if self.variant().is_chess() {
            &mut self.syzygy_path
        } else {
            &mut self.egtb_path
        }
    }

    /// Forgets the previous game: clears the table and the histories.
    pub fn new_game(&mut self) {
        self.tt.clear();
        with_engine!(&mut self.engine, e => e.new_game());
    }

    /// Sets up `setup` and plays `moves` from it, all or nothing. In chess,
    /// `0000` passes the turn (as GUIs send it in analysis) unless the side
    /// to move is in check.
    pub fn set_position(&mut self, setup: &Setup, moves: &[String]) -> Result<(), PositionError> {
        let variant = self.variant();
        with_engine!(&mut self.engine, e => {
            let (pos, history) = read_position(variant, setup, moves)?;
            e.set_position(pos, history);
            Ok(())
        })
    }

    /// The board as text (`d`).
    pub fn board(&self) -> String {
        with_engine!(&self.engine, e => e.position().to_string())
    }

    /// The position as FEN / PDN FEN.
    pub fn fen(&self) -> String {
        with_engine!(&self.engine, e => e.position().to_fen())
    }

    /// The static evaluation breakdown (`eval`).
    pub fn eval_trace(&self) -> String {
        with_engine!(&self.engine, e => e.trace(&self.learned))
    }

    /// Starts a search and returns at once. Searchmoves that are not legal
    /// moves are left out, and the listener hears of each before the search
    /// starts (so before any line of the search).
    pub fn go(&mut self, go: &Go, listener: Arc<dyn Listener>, notation: Notation) {
        if self.book_move(go, &listener, notation) {
            return;
        }
        let config = self.config();
        let done = self.done_tx.clone();
        with_engine!(&mut self.engine, e => {
            let (limits, warnings) = limits_for(e.position(), go, &config);
            for warning in &warnings {
                listener.warning(warning);
            }
            e.configure(config);
            e.go(limits, Box::new(Text { listener, notation }), done);
        })
    }

    /// Counts the leaves of the move tree to `depth` on a task thread,
    /// printing Stockfish's divide lines; `stop` ends it early (then the
    /// count is marked incomplete).
    pub fn perft(&mut self, depth: u32, listener: Arc<dyn Listener>) {
        let threads = self.threads();
        let job =
            with_engine!(&self.engine, e => perft_task(e.position(), depth, threads, listener));
        self.run_task(job);
    }

    /// Runs the benchmark on a task thread; `stop` ends it after the
    /// position being searched.
    pub fn bench(&mut self, depth: Option<u32>, listener: Arc<dyn Listener>) {
        let job: Task = Box::new(move |stop: &AtomicBool| {
            crate::bench::run(depth.map(|d| d as i32), &Variant::ALL, stop, &|l| listener.line(l));
        });
        self.run_task(job);
    }

    fn run_task(&mut self, job: Task) {
        if let Some(task) = self.task.take() {
            let _ = task.join();
        }
        self.signals.stop.store(false, Ordering::Relaxed);
        self.task_busy.store(true, Ordering::Release);
        let (busy, done, signals) =
            (self.task_busy.clone(), self.done_tx.clone(), self.signals.clone());
        let spawned = std::thread::Builder::new()
            .name("crown-task".into())
            .stack_size(super::pool::STACK_SIZE)
            .spawn(move || {
                job(&signals.stop);
                busy.store(false, Ordering::Release);
                let _ = done.send(());
            });
        match spawned {
            Ok(handle) => self.task = Some(handle),
            Err(_) => {
                self.task_busy.store(false, Ordering::Release);
                let _ = self.done_tx.send(());
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// A fresh engine for `variant` at its start position.
fn build(
    variant: Variant,
    tt: &Arc<TranspositionTable>,
    signals: &Arc<Signals>,
    threads: usize,
) -> (AnyEngine, Result<(), String>) {
    crate::for_variant!(variant, G => {
        let (engine, status) = Engine::<G>::new(G::start(variant), tt.clone(), signals.clone(), threads);
        (AnyEngine::from(engine), status)
    })
}

/// Whether `path` names a directory: for Syzygy (`chess`), a list of
/// directories separated by `:` of which at least one exists; for draughts,
/// the root of the per-variant directories.
fn names_a_directory(path: &str, chess: bool) -> bool {
    if chess {
        path.split(':').map(str::trim).any(|dir| !dir.is_empty() && Path::new(dir).is_dir())
    } else {
        Path::new(path).is_dir()
    }
}

/// The endgame tables of the engine's game under `root`, with messages.
fn load_tables<G: Playable>(
    engine: &Engine<G>,
    root: Option<&Path>,
) -> (Option<Arc<G::Tables>>, Vec<String>) {
    let Some(root) = root else { return (None, Vec::new()) };
    let (tables, notes) = G::Tables::load(root, engine.position().variant());
    (tables.map(Arc::new), notes)
}

/// Reads a setup and plays `moves` from it; returns the root and the keys
/// of the positions before it.
pub fn read_position<G: Game>(
    variant: Variant,
    setup: &Setup,
    moves: &[String],
) -> Result<(G, Vec<u64>), PositionError> {
    let mut pos = match setup {
        Setup::Start => G::start(variant),
        Setup::Text(text) => G::from_fen(text, variant)
            .map_err(|e| PositionError::Setup { text: cut(text, 100), reason: e.to_string() })?,
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let refuse =
            |reason: String| PositionError::Move { index: i + 1, text: cut(text, 20), reason };
        if text == "0000" && G::NULL_MOVE {
            if pos.in_check() {
                return Err(refuse("a null move is not allowed in check".into()));
            }
            history.push(pos.hash());
            pos.play_null();
            continue;
        }
        let mv = pos.parse_move(text).map_err(|e| refuse(e.to_string()))?;
        history.push(pos.hash());
        pos.play(mv);
    }
    Ok((pos, history))
}

/// The search limits of a request for the side to move of `pos`.
fn limits_for<G: Game>(pos: &G, go: &Go, config: &Config) -> (Limits<G::Move>, Vec<String>) {
    let white = pos.side_to_move() == Side::White;
    let (time, inc) = if white { (go.wtime, go.winc) } else { (go.btime, go.binc) };
    let millis = |v: i64| Duration::from_millis(v.max(0) as u64);
    let mut warnings = Vec::new();
    let mut searchmoves = Vec::new();
    for text in &go.searchmoves {
        match pos.parse_move(text) {
            Ok(mv) => searchmoves.push(mv),
            Err(e) => warnings.push(format!("searchmoves '{}': {e}; ignored", cut(text, 20))),
        }
    }
    let bounded = time.is_some()
        || go.movetime.is_some()
        || go.depth.is_some()
        || go.nodes.is_some()
        || go.mate.is_some();
    let limits = Limits {
        clock: time.map(|t| Clock {
            remaining: millis(t),
            increment: millis(inc.unwrap_or(0)),
            moves_to_go: go.movestogo,
        }),
        movetime: match go.movetime {
            Some(ms) => Some(Duration::from_millis(ms)),
            None if !bounded && !go.infinite && !go.ponder => Some(DEFAULT_BUDGET),
            None => None,
        },
        depth: go.depth.map(|d| d as i32),
        nodes: go.nodes,
        mate: go.mate.map(|m| m as i32),
        infinite: go.infinite,
        ponder: go.ponder,
        searchmoves,
        multipv: config.multipv,
        overhead: config.overhead,
        level: None,
    };
    (limits, warnings)
}

/// A `perft` of a copy of `pos`, as a task.
fn perft_task<G: Game>(pos: &G, depth: u32, threads: usize, listener: Arc<dyn Listener>) -> Task {
    let pos = pos.clone();
    Box::new(move |stop: &AtomicBool| run_perft(&pos, depth, threads, stop, listener.as_ref()))
}

/// Work for the task thread; it watches the stop flag it is given.
type Task = Box<dyn FnOnce(&AtomicBool) + Send>;

fn run_perft<G: Game>(pos: &G, depth: u32, threads: usize, stop: &AtomicBool, out: &dyn Listener) {
    let start = Instant::now();
    // Depth 0 is the root alone: no move lines, one node.
    let counts = if depth == 0 {
        Some(Vec::new())
    } else {
        crate::perft::divide_until(pos, depth, threads, stop)
    };
    let Some(counts) = counts else {
        out.line("info string perft stopped; no count");
        return;
    };
    for (text, count) in &counts {
        out.line(&format!("{text}: {count}"));
    }
    let nodes: u64 = if depth == 0 { 1 } else { counts.iter().map(|(_, n)| n).sum() };
    let ms = start.elapsed().as_millis().max(1);
    out.line("");
    out.line(&format!("Nodes searched: {nodes}"));
    out.line(&format!("info string perft {nodes} nodes {ms} ms {} nps", nodes as u128 * 1000 / ms));
}
