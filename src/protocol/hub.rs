//! Hub v2 (the protocol of Scan and the Hub GUI; pydraughts' `HubEngine`):
//! the engine loop over a draughts [`Session`], its handshake and its
//! search output. Line parsing and value quoting live in `hub_parse.rs`.
//!
//! * `hub` → `id ...`, one `param` line per Hub option (the variant enum,
//!   then every option of `engine/options.rs` with a Hub name), `wait`.
//!   `set-param` validates through the option table; `variant` replaces the
//!   session and clears the table. `init` → `ready`. `ping` → `pong`.
//! * Positions: `pos pos=<side><squares> [moves="..."]` (or `pos start`).
//!   The string has one character per square in the variant's PDN number
//!   order: 51 characters on 10x10 (international, antidraughts), 33 on the
//!   8x8 diagonal boards (brazilian, russian, english, italian), 65 for
//!   Turkish (all 64 squares). Hub is specified for 10x10 only; the 8x8 and
//!   Turkish forms are the same grammar with that length, numbered as Crown's
//!   PDN numbers them (`draughts/rules.rs`, pydraughts' variant numbers).
//!   A PDN FEN (with `:`) is accepted too. `moves` may be the whole game; each
//!   move is validated, an illegal one is an `error` and the position stays
//!   as it was; the keys of the positions before the root are kept for
//!   repetition detection.
//! * `level` replaces the previous limits whole; until the first `level`,
//!   `go think` searches for [`DEFAULT_MOVE_TIME`]. `time` is the clock
//!   before this move's increment, which is added first (as Scan does and as
//!   pydraughts assumes).
//! * Output: `info depth= score= nodes= time= nps= pv=` per iteration (score
//!   in men, two decimals; a win in n plies is `±(100 - n/100)`, the form
//!   pydraughts decodes), and always `done move=M [ponder=P]`, also after
//!   `stop`; a position without legal moves gets a bare `done`.
//!
//! Concurrency: `go` returns at once. While a search runs, `ping`, `stop`,
//! `ponder-hit` and `quit` act at once; every other command is kept, in
//! order, and run when the search has ended, so `ping` is answered at any
//! time and nothing waits on a search that only `stop` can end.

use crate::draughts::fen;
use crate::draughts::notation::{hub_text, parse_move_text};
use crate::draughts::position::{Move, Position};
use crate::draughts::rules::Rules;
use crate::engine::options::{self, Change, Kind, Settings, OPTIONS};
use crate::engine::session::Session;
use crate::engine::Engine;
use crate::game::{Game, Variant};
use crate::protocol::hub_parse::{cut, parse, quote};
use crate::protocol::{spawn_reader, Command, Go, Level, Printer, Setup, IDLE_POLL};
use crate::score::{is_mate, Score, MATE};
use crate::search::level::Scale;
use crate::search::params::{self, Params};
use crate::search::tt::{self, TranspositionTable};
use crate::search::{Info, Limits, Reporter, Signals};
use crate::time::Clock;
use crate::with_session;
use crossbeam_channel::RecvTimeoutError;
use std::collections::VecDeque;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// How long `go think` searches before any `level` line.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// Most commands kept while a search runs; more are refused with an error.
pub const MAX_PENDING: usize = 1024;

/// The names the `variant` parameter accepts, as it lists them: Scan's
/// `normal` (and the aliases `standard`, `international`) for international
/// draughts, pydraughts' and lidraughts' names, and `losing` for
/// antidraughts.
pub const VARIANT_VALUES: &[&str] = &[
    "normal",
    "standard",
    "international",
    "brazilian",
    "russian",
    "english",
    "italian",
    "turkish",
    "antidraughts",
    "losing",
];

/// The Hub name of a draughts variant (`normal` for international).
pub fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::International => "normal",
        other => other.name(),
    }
}

/// The `hub` reply: id, one `param` line per option, `wait`.
pub fn handshake(settings: &Settings, variant: Variant) -> Vec<String> {
    let mut lines = vec![format!(
        "id name=Crown version={} author={} country=none",
        quote(env!("CARGO_PKG_VERSION")),
        quote("the Crown developers")
    )];
    lines.push(format!(
        "param name=variant value={} type=enum values={}",
        variant_name(variant),
        quote(&VARIANT_VALUES.join(" "))
    ));
    for spec in OPTIONS {
        let Some(name) = spec.hub else { continue };
        let line = match spec.kind {
            Kind::Spin { min, max, default } => {
                let value = match spec.name {
                    "Hash" => settings.hash_mb as i64,
                    "Threads" => settings.threads as i64,
                    "UCI_Elo" => settings.elo,
                    "Skill Level" => settings.skill,
                    "Seed" => settings.seed as i64,
                    _ => default,
                };
                format!("param name={name} value={value} type=int min={min} max={max}")
            }
            Kind::Check { default } => {
                let value = if spec.name == "Ponder" { settings.ponder } else { default };
                format!("param name={name} value={value} type=bool")
            }
            Kind::Button | Kind::String { .. } => continue,
        };
        lines.push(line);
    }
    lines.push("wait".into());
    lines
}

/// A score as Hub prints it: men with two decimals; mates as
/// `±(10000 - plies) / 100`.
pub fn score_text(score: Score) -> String {
    let hundredths = if is_mate(score) { 10_000 - (MATE - score.abs()) } else { score.abs() };
    let sign = if score < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", hundredths / 100, hundredths % 100)
}

/// Prints search output as Hub lines.
pub struct HubReporter {
    printer: Printer,
    /// Raised as `done` is printed: the search is over for the GUI even
    /// while its thread is still winding down.
    answered: Arc<AtomicBool>,
}

impl<R: Rules> Reporter<Position<R>> for HubReporter {
    fn info(&self, _root: &Position<R>, info: &Info<Move>) {
        let secs = info.time.as_secs_f64();
        let nps = (info.nodes as f64 / secs.max(1e-3)) as u64;
        // Hub text needs no position: captures list every captured square.
        let pv: Vec<String> = info.pv.iter().map(|&mv| hub_text::<R>(mv)).collect();
        self.printer.line(&format!(
            "info depth={} score={} nodes={} time={secs:.3} nps={nps} pv={}",
            info.depth,
            score_text(info.score),
            info.nodes,
            quote(&pv.join(" "))
        ));
    }

    fn best_move(&self, _root: &Position<R>, best: Option<Move>, ponder: Option<Move>) {
        // Raised before the line goes out, so that whatever the GUI sends
        // in answer to `done` is never kept waiting behind this search.
        self.answered.store(true, Ordering::Release);
        let Some(best) = best else {
            self.printer.line("done");
            return;
        };
        let mut line = format!("done move={}", hub_text::<R>(best));
        if let Some(reply) = ponder {
            line += &format!(" ponder={}", hub_text::<R>(reply));
        }
        self.printer.line(&line);
    }
}

/// Reads a Hub position (or a PDN FEN) and plays `moves` from it; returns
/// the root and the keys of the positions before it.
pub fn position_from<R: Rules>(
    setup: &Setup,
    moves: &[String],
) -> Result<(Position<R>, Vec<u64>), String> {
    let mut pos = match setup {
        Setup::Start => Position::<R>::start(R::VARIANT),
        Setup::Fen(text) if text.contains(':') => Position::<R>::from_fen(text, R::VARIANT)
            .map_err(|e| format!("bad position '{}': {e}", cut(text, 80)))?,
        Setup::Fen(text) => fen::parse_hub::<R>(text)
            .map_err(|e| format!("bad position '{}': {e}", cut(text, 80)))?,
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let mv = parse_move_text(&pos, text)
            .map_err(|e| format!("move {} '{}': {e}; position unchanged", i + 1, cut(text, 20)))?;
        history.push(pos.hash());
        pos.play(mv);
    }
    Ok((pos, history))
}

/// Limits for one search from the current `level` and the `go` mode.
pub fn limits<M>(level: &Level, go: &Go, settings: &Settings) -> Limits<M> {
    let mut limits = Limits {
        ponder: go.ponder,
        overhead: Duration::from_millis(settings.move_overhead_ms),
        ..Limits::default()
    };
    if go.infinite {
        limits.infinite = true;
        return limits;
    }
    limits.depth = level.depth.map(|d| d as i32);
    limits.nodes = level.nodes;
    limits.movetime = level.movetime;
    limits.clock = level.time.map(|remaining| Clock {
        remaining,
        increment: level.inc.unwrap_or_default(),
        moves_to_go: level.moves,
    });
    limits.infinite = level.infinite;
    if *level == Level::default() {
        limits.movetime = Some(DEFAULT_MOVE_TIME);
    }
    limits
}

fn set_position<R: Rules>(
    engine: &mut Engine<Position<R>>,
    setup: &Setup,
    moves: &[String],
) -> Result<(), String> {
    let (pos, history) = position_from::<R>(setup, moves)?;
    engine.set_position(pos, history);
    Ok(())
}

fn start<R: Rules>(engine: &mut Engine<Position<R>>, limits: Limits<Move>, reporter: HubReporter) {
    let printer = reporter.printer.clone();
    if let Err(e) = engine.go(limits, reporter) {
        printer.line(&format!("error message={}", quote(e)));
    }
}

/// The Hub engine loop.
pub struct HubLoop {
    session: Session,
    settings: Settings,
    tt: Arc<TranspositionTable>,
    signals: Arc<Signals>,
    printer: Printer,
    level: Level,
    pending: VecDeque<Command>,
    /// Whether the last search has printed its `done`.
    answered: Arc<AtomicBool>,
    /// Search tunables set over Hub (tuning builds), kept across variants.
    params: Params,
}

impl HubLoop {
    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(input: impl BufRead + Send + 'static, printer: Printer) {
        let signals = Arc::new(Signals::default());
        let settings = Settings::default();
        let tt = match TranspositionTable::new(settings.hash_mb) {
            Ok(tt) => Arc::new(tt),
            Err(e) => {
                printer.line(&format!("error message={}", quote(&e.to_string())));
                return;
            }
        };
        let Some(session) =
            Session::new(Variant::International, tt.clone(), signals.clone(), settings.threads)
        else {
            return;
        };
        let mut state = HubLoop {
            session,
            settings,
            tt,
            signals: signals.clone(),
            printer,
            level: Level::default(),
            pending: VecDeque::new(),
            answered: Arc::new(AtomicBool::new(true)),
            params: Params::default(),
        };
        let commands = spawn_reader(input, parse, signals);
        'lines: loop {
            // Run the commands kept during the search once it is over; a
            // kept stop or ponder-hit is for the search a kept `go` started,
            // so it runs at once.
            while let Some(front) = state.pending.front() {
                if state.busy() && !matches!(front, Command::Stop | Command::PonderHit) {
                    break;
                }
                if let Some(command) = state.pending.pop_front() {
                    if !state.handle(command) {
                        break 'lines;
                    }
                }
            }
            let parsed = if state.pending.is_empty() {
                match commands.recv() {
                    Ok(parsed) => parsed,
                    Err(_) => break,
                }
            } else {
                match commands.recv_timeout(IDLE_POLL) {
                    Ok(parsed) => parsed,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            };
            let command = match parsed {
                Ok(Some(command)) => command,
                Ok(None) => continue,
                Err(message) => {
                    state.error(&message);
                    continue;
                }
            };
            let urgent = matches!(
                command,
                Command::Ping | Command::Stop | Command::PonderHit | Command::Quit
            );
            if urgent || (state.pending.is_empty() && !state.busy()) {
                // A stop or ponder-hit sent after a kept `go` is meant for
                // that search too: keep a copy in order.
                let for_kept = matches!(command, Command::Stop | Command::PonderHit)
                    && state.pending.iter().any(|c| matches!(c, Command::Go(_)));
                if for_kept {
                    state.pending.push_back(command.clone());
                }
                if !state.handle(command) {
                    break;
                }
            } else if state.pending.len() < MAX_PENDING {
                state.pending.push_back(command);
            } else {
                state.error("too many commands during a search; send stop");
            }
        }
        state.session.stop();
        state.session.wait();
    }

    fn error(&self, message: &str) {
        self.printer.line(&format!("error message={}", quote(message)));
    }

    /// Whether a search runs that has not yet printed `done`. Once it has,
    /// the GUI may go on at once, and so do we (waiting the few moments its
    /// thread needs to wind down).
    fn busy(&self) -> bool {
        self.session.is_searching() && !self.answered.load(Ordering::Acquire)
    }

    /// Handles one command; false means quit.
    fn handle(&mut self, command: Command) -> bool {
        match command {
            Command::Hello => {
                for line in handshake(&self.settings, self.session.variant()) {
                    self.printer.line(&line);
                }
            }
            Command::Init => self.printer.line("ready"),
            Command::Ping => self.printer.line("pong"),
            Command::SetOption { name, value } => self.set_param(&name, value.as_deref()),
            Command::NewGame => {
                self.session.wait();
                self.tt.clear();
                self.session.new_game();
            }
            Command::Position { setup, moves } => {
                let result = with_session!(&mut self.session, e => set_position(e, &setup, &moves));
                if let Err(e) = result {
                    self.error(&e);
                }
            }
            Command::Level(level) => self.level = level,
            Command::Go(go) => {
                // Only reached when the last search has answered.
                self.session.wait();
                self.answered.store(false, Ordering::Release);
                let limits = limits(&self.level, &go, &self.settings);
                let reporter =
                    HubReporter { printer: self.printer.clone(), answered: self.answered.clone() };
                with_session!(&mut self.session, e => start(e, limits, reporter));
                if !self.session.is_searching() {
                    // Refused or already over: nothing will print `done` later.
                    self.answered.store(true, Ordering::Release);
                }
            }
            Command::Stop => self.session.stop(),
            Command::PonderHit => self.signals.pondering.store(false, Ordering::Relaxed),
            Command::Quit => return false,
            // UCI-only commands; the Hub parser never produces them.
            Command::Debug(_)
            | Command::IsReady
            | Command::Register
            | Command::Perft(_)
            | Command::Bench(_)
            | Command::Display
            | Command::Eval => {}
        }
        true
    }

    fn set_param(&mut self, name: &str, value: Option<&str>) {
        if name.eq_ignore_ascii_case("variant") {
            let text = value.unwrap_or("");
            let variant = match Variant::parse(text) {
                Some(v) if !v.is_chess() => v,
                _ => return self.error(&format!("unknown variant '{}'", cut(text, 30))),
            };
            self.session.stop();
            self.session.wait();
            self.tt.clear();
            if let Some(session) =
                Session::new(variant, self.tt.clone(), self.signals.clone(), self.settings.threads)
            {
                self.session = session;
                self.session.set_level(self.settings.level(Scale::Draughts), self.settings.seed);
                self.session.set_params(self.params);
            }
            return;
        }
        // Only the Hub names (`Hash` is UCI's name for `tt-size`), and in
        // tuning builds the search tunables (for SPSA over Hub).
        let hub_name = options::find(name).and_then(|spec| spec.hub);
        let tunable =
            params::TUNING && (params::find(name).is_some() || params::find_step(name).is_some());
        if !tunable && !hub_name.is_some_and(|h| h.eq_ignore_ascii_case(name.trim())) {
            return self.error(&format!("unknown parameter '{}'", cut(name, 30)));
        }
        let change = match options::parse(name, value) {
            Ok(change) => change,
            Err(e) => return self.error(&e.to_string()),
        };
        match change {
            Change::Hash(mb) => {
                self.session.wait();
                if let Err(e) = tt::resize(&mut self.tt, mb) {
                    return self.error(&format!("{e}; keeping {} MB", self.settings.hash_mb));
                }
                self.session.set_table(self.tt.clone());
            }
            Change::Threads(n) => self.session.set_threads(n),
            Change::SearchParam { name, value } => {
                self.params.set(name, value);
                self.session.set_params(self.params);
            }
            Change::SearchStep { step, on } => {
                self.params.off = self.params.off.with(step, !on);
                self.session.set_params(self.params);
            }
            _ => {}
        }
        if let Some(note) = change.note() {
            // Hub has no informational line: the clamp is reported as an
            // error message although the clamped value is used.
            self.error(&note.replace("UCI_Elo", "elo"));
        }
        self.settings.record(&change);
        // In Hub the parameter set last decides: `elo` plays at that Elo,
        // `level` at that skill level (20: full strength).
        match change {
            Change::Elo { .. } => self.settings.limit_strength = true,
            Change::Skill(_) => self.settings.limit_strength = false,
            _ => {}
        }
        self.session.set_level(self.settings.level(Scale::Draughts), self.settings.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{English, International, Turkish};

    #[test]
    fn scores_in_men_and_mates_as_pydraughts_reads_them() {
        assert_eq!(score_text(0), "0.00");
        assert_eq!(score_text(5), "0.05");
        assert_eq!(score_text(-5), "-0.05");
        assert_eq!(score_text(123), "1.23");
        assert_eq!(score_text(MATE - 3), "99.97");
        assert_eq!(score_text(-(MATE - 4)), "-99.96");
    }

    #[test]
    fn handshake_lists_the_hub_options() {
        let lines = handshake(&Settings::default(), Variant::International);
        assert!(lines[0].starts_with("id name=Crown version="));
        assert!(lines[1].starts_with("param name=variant value=normal type=enum values=\"normal"));
        for name in ["tt-size", "threads", "ponder"] {
            let prefix = format!("param name={name} ");
            assert_eq!(lines.iter().filter(|l| l.starts_with(&prefix)).count(), 1, "{name}");
        }
        assert_eq!(lines.last().unwrap(), "wait");
        for v in VARIANT_VALUES {
            assert!(Variant::parse(v).is_some_and(|v| !v.is_chess()), "{v}");
        }
    }

    #[test]
    fn positions_per_board() {
        let ten = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        let (pos, history) = position_from::<crate::draughts::rules::InternationalRules>(
            &Setup::Fen(ten.clone()),
            &["32-28".into(), "19-23".into(), "28x19".into()],
        )
        .unwrap();
        assert_eq!(history.len(), 3);
        let mut want = International::start_position();
        for m in ["32-28", "19-23", "28x19"] {
            let mv = want.parse_move(m).unwrap();
            want.play(mv);
        }
        assert_eq!(fen::write_hub(&pos), fen::write_hub(&want));
        assert!(position_from::<crate::draughts::rules::InternationalRules>(
            &Setup::Fen(ten),
            &["32-28".into(), "32-28".into()],
        )
        .is_err());
        assert_eq!(fen::write_hub(&English::start_position()).len(), 33);
        assert_eq!(fen::write_hub(&Turkish::start_position()).len(), 65);
    }

    #[test]
    fn no_level_means_a_fixed_time() {
        let s = Settings::default();
        let l: Limits<Move> = limits(&Level::default(), &Go::default(), &s);
        assert_eq!(l.movetime, Some(DEFAULT_MOVE_TIME));
        let l: Limits<Move> =
            limits(&Level { depth: Some(3), ..Level::default() }, &Go::default(), &s);
        assert_eq!((l.depth, l.movetime), (Some(3), None));
        let l: Limits<Move> =
            limits(&Level::default(), &Go { infinite: true, ..Go::default() }, &s);
        assert!(l.infinite);
    }
}
