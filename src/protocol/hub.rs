//! Hub v2 (the protocol of Scan and the Hub GUI; pydraughts' `HubEngine`):
//! the engine loop over a draughts [`Session`], its handshake and its
//! search output. Line parsing and value quoting live in `hub_parse.rs`.
//!
//! * `hub` → `id ...`, one `param` line per Hub option with the value in
//!   force (the variant and the numbering, then every option of the table
//!   of `engine/options/` with a Hub name), `wait`. `set-param` validates
//!   through the option table; `variant` replaces the session and clears
//!   the table. `init` → `ready`. `ping` → `pong`.
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

use crate::draughts::layout::Layout;
use crate::engine::options::{self, Change, Kind, Settings, Value, OPTIONS};
use crate::engine::session::{Listener, Notation, PositionError, Report, Session};
use crate::game::Variant;
use crate::protocol::hub_parse::{parse, quote};
use crate::protocol::{serve, spawn_reader, Command, Front, Go, Preset, Printer, Setup};
use crate::score::{is_mate, Score, MATE};
use crate::search::level::Scale;
use crate::search::params;
use crate::text::cut;
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long `go think` searches before any `level` line.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// The names the `variant` parameter accepts, as it lists them: Scan's
/// `normal` (and the aliases `standard`, `international`) for international
/// draughts, pydraughts' and lidraughts' names, `losing` for antidraughts,
/// Scan's `killer`, `bt` (and `breakthrough`) and `frisian`, and `frysk`
/// (lidraughts sends frysk! as `frisian` with its start in `pos=`, which
/// plays the same: the rules are Frisian's).
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
    "killer",
    "bt",
    "breakthrough",
    "frisian",
    "frysk",
];

/// The values of the `numbering` parameter: which square numbers the Hub
/// position string, the moves and the answers use on the boards where
/// lidraughts' layout is not the variant's own numbering (Russian,
/// Brazilian, English, Turkish; see `draughts/layout.rs`).
pub const NUMBERING_VALUES: &[&str] = &["auto", "auto-variant", "variant"];

/// The `numbering` parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbering {
    /// `pos=` in lidraughts' layout (both pydraughts generations send it);
    /// `moves=` read in that layout if they are all legal so, else in the
    /// variant's numbering; answers in the numbering the moves were in, and
    /// in lidraughts' layout when that cannot be told (no moves): what
    /// lidraughts-bot (pydraughts 0.5.7) sends and expects.
    #[default]
    Auto,
    /// As `Auto`, but the variant's numbering first and when it cannot be
    /// told: what pydraughts 0.6 expects.
    AutoVariant,
    /// Everything in the variant's own numbering (Crown's match runner,
    /// clients that write the variant's PDN numbers).
    Variant,
}

impl Numbering {
    fn parse(text: &str) -> Option<Numbering> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(Numbering::Auto),
            "auto-variant" => Some(Numbering::AutoVariant),
            "variant" => Some(Numbering::Variant),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        NUMBERING_VALUES[self as usize]
    }
}

/// The lidraughts layout of the session's variant, if it differs.
fn layout_of(variant: Variant) -> Option<Layout> {
    crate::for_variant!(variant, chess => None, R => Layout::of::<R>())
}

/// The Hub name of a draughts variant (`normal` for international).
pub fn variant_name(variant: Variant) -> &'static str {
    match variant {
        Variant::International => "normal",
        other => other.name(),
    }
}

/// The `hub` reply: id, one `param` line per option with its value in
/// force, `wait`.
pub fn handshake(settings: &Settings, variant: Variant, numbering: Numbering) -> Vec<String> {
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
    lines.push(format!(
        "param name=numbering value={} type=enum values={}",
        numbering.name(),
        quote(&NUMBERING_VALUES.join(" "))
    ));
    for spec in OPTIONS.iter().filter(|s| s.games.include(Scale::Draughts)) {
        let Some(name) = spec.hub else { continue };
        let value = settings.get(spec);
        let line = match spec.kind_in(Scale::Draughts) {
            Kind::Spin { min, max, .. } => {
                format!("param name={name} value={value} type=int min={min} max={max}")
            }
            Kind::Check { .. } => format!("param name={name} value={value} type=bool"),
            Kind::String { .. } => {
                format!("param name={name} value={} type=string", quote(&value.to_string()))
            }
            Kind::Button => continue,
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

/// Prints search output as Hub lines, moves in the client's numbering.
pub struct HubListener {
    printer: Printer,
    /// Rewrites moves into lidraughts' layout when the client used it.
    layout: Option<Layout>,
}

impl HubListener {
    fn text(&self, mv: &str) -> String {
        match &self.layout {
            Some(layout) => layout.move_to_layout(mv),
            None => mv.to_string(),
        }
    }
}

impl Listener for HubListener {
    fn info(&self, report: &Report) {
        if report.pv.is_empty() {
            // A root without a legal move: Hub says it with a bare `done`.
            return;
        }
        let pv: Vec<String> = report.pv.iter().map(|m| self.text(m)).collect();
        let info = &report.info;
        let secs = info.time.as_secs_f64();
        let nps = (info.nodes as f64 / secs.max(1e-3)) as u64;
        self.printer.line(&format!(
            "info depth={} score={} nodes={} time={secs:.3} nps={nps} pv={}",
            info.depth,
            score_text(info.score),
            info.nodes,
            quote(&pv.join(" "))
        ));
    }

    fn warning(&self, text: &str) {
        self.printer.line(&format!("error message={}", quote(&cut(text, 200))));
    }

    fn best_move(&self, best: Option<&str>, ponder: Option<&str>) {
        let best = best.map(|m| self.text(m));
        let ponder = ponder.map(|m| self.text(m));
        let line = match (best.as_deref(), ponder.as_deref()) {
            (None, _) => "done".to_string(),
            (Some(best), None) => format!("done move={best}"),
            (Some(best), Some(reply)) => format!("done move={best} ponder={reply}"),
        };
        self.printer.line(&line);
    }
}

/// The request of one `go` from the current `level` and the `go` mode.
/// Hub's `time` is the engine's own clock, whichever side it plays.
pub fn request(level: &Preset, go: &Go) -> Go {
    let mut request = Go { ponder: go.ponder, ..Go::default() };
    if go.infinite {
        request.infinite = true;
        return request;
    }
    if *level == Preset::default() {
        request.movetime = Some(DEFAULT_MOVE_TIME.as_millis() as u64);
        return request;
    }
    let millis = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    request.depth = level.depth;
    request.nodes = level.nodes;
    request.movetime = level.movetime.map(|d| millis(d).max(0) as u64);
    request.wtime = level.time.map(millis);
    request.btime = request.wtime;
    request.winc = level.inc.map(millis);
    request.binc = request.winc;
    request.movestogo = level.moves;
    request.infinite = level.infinite;
    request
}

/// `error` with the client's own text in place of what was read (a
/// position string or a move rewritten into the other numbering): a
/// message quotes what the client sent.
fn as_sent(error: PositionError, setup: &Setup, moves: &[String]) -> PositionError {
    match error {
        PositionError::Setup { reason, .. } => {
            let text = match setup {
                Setup::Text(text) => cut(text, 100),
                Setup::Start => "start".into(),
            };
            PositionError::Setup { text, reason }
        }
        PositionError::Move { index, text, reason } => {
            let sent = index.checked_sub(1).and_then(|i| moves.get(i)).map_or(text, |m| cut(m, 20));
            PositionError::Move { index, text: sent, reason }
        }
    }
}

/// The Hub front end: each command becomes one [`Session`] call.
pub struct Hub {
    printer: Printer,
    level: Preset,
    numbering: Numbering,
    /// The last `pos` was in lidraughts' layout: answers go back in it.
    answer_in_layout: bool,
    /// The endgame tables of `crown hub --egtb`, loaded at `init` (or the
    /// first `go`, for a client that sends none) so that the `hub`
    /// handshake is answered at once: large tables take seconds to load.
    pending_tables: Option<PathBuf>,
}

impl Hub {
    /// Reads commands from `input` until `quit` or end of input; `tables`
    /// is the root of the draughts endgame tables (`crown hub --egtb`).
    pub fn run(input: impl BufRead + Send + 'static, printer: Printer, tables: Option<PathBuf>) {
        let mut session = match Session::new(Variant::International) {
            Ok(session) => session,
            Err(e) => return printer.line(&format!("error message={}", quote(&e))),
        };
        let commands = spawn_reader(input, parse, session.signals());
        let mut hub = Hub {
            printer,
            level: Preset::default(),
            numbering: Numbering::default(),
            answer_in_layout: false,
            pending_tables: tables,
        };
        serve(&mut hub, &mut session, commands);
        session.shut_down();
    }

    /// Loads the `--egtb` tables if they are still to load. Messages go to
    /// stderr: stdout belongs to the protocol.
    fn load_pending_tables(&mut self, session: &mut Session) {
        if let Some(root) = self.pending_tables.take() {
            let root = Value::Text(root.to_string_lossy().into_owned());
            match session.apply(Change::set(&options::TABLES_PATH, root)) {
                Ok(lines) => lines.iter().for_each(|line| eprintln!("{line}")),
                Err(e) => eprintln!("{e}"),
            }
        }
    }

    /// Applies `change`; false (with an `error` line) when it was refused.
    fn apply(&self, session: &mut Session, change: Change) -> bool {
        match session.apply(change) {
            // Hub has no informational line: a clamp is reported as an
            // error message although the clamped value is used.
            Ok(notes) => {
                notes.iter().for_each(|n| self.error(n));
                true
            }
            Err(e) => {
                self.error(&e);
                false
            }
        }
    }

    /// `pos`: the position string and the moves in the numbering the
    /// `numbering` parameter and the text itself say (see [`Numbering`]).
    fn set_position(&mut self, session: &mut Session, setup: &Setup, moves: &[String]) {
        let layout = layout_of(session.variant());
        let (Some(layout), false) = (layout, self.numbering == Numbering::Variant) else {
            self.answer_in_layout = false;
            if let Err(e) = session.set_position(setup, moves) {
                self.error(&e.to_string());
            }
            return;
        };
        let original = setup;
        let setup = match setup {
            Setup::Text(text) => Setup::Text(layout.position_to_variant(text)),
            Setup::Start => Setup::Start,
        };
        let in_layout: Vec<String> = moves.iter().map(|m| layout.move_to_variant(m)).collect();
        let readings = if self.numbering == Numbering::Auto {
            [(true, &in_layout), (false, &moves.to_vec())]
        } else {
            [(false, &moves.to_vec()), (true, &in_layout)]
        };
        // When both readings fail, the one that got further says what is
        // wrong (the first reading on a tie).
        let mut error: Option<PositionError> = None;
        let reached = |e: &PositionError| match e {
            PositionError::Move { index, .. } => *index,
            PositionError::Setup { .. } => 0,
        };
        for (layout_moves, list) in readings {
            match session.set_position(&setup, list) {
                Ok(()) => {
                    self.answer_in_layout = layout_moves;
                    return;
                }
                Err(e) if error.as_ref().is_some_and(|old| reached(old) >= reached(&e)) => {}
                Err(e) => error = Some(e),
            }
        }
        if let Some(e) = error {
            self.error(&as_sent(e, original, moves).to_string());
        }
    }

    fn set_param(&mut self, session: &mut Session, name: &str, value: Option<&str>) {
        if name.eq_ignore_ascii_case("numbering") {
            let text = value.unwrap_or("");
            return match Numbering::parse(text) {
                Some(n) => self.numbering = n,
                None => self.error(&format!("unknown numbering '{}'", cut(text, 30))),
            };
        }
        if name.eq_ignore_ascii_case("variant") {
            let text = value.unwrap_or("");
            return match Variant::parse(text) {
                Some(v) if !v.is_chess() => {
                    self.apply(session, Change::Variant(v));
                }
                _ => self.error(&format!("unknown variant '{}'", cut(text, 30))),
            };
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
        // In Hub the parameter set last decides: `elo` plays at that Elo,
        // `level` at that skill level (20: full strength); the table says
        // what each sets along ([`Change::also`]).
        // `egtb` replaces the tables of `--egtb`, loaded or not, unless
        // it is refused (a directory that does not exist).
        let tables = change.option() == Some(&options::TABLES_PATH);
        let also = change.also();
        if self.apply(session, change) && tables {
            self.pending_tables = None;
        }
        if let Some(also) = also {
            self.apply(session, also);
        }
    }
}

impl Front for Hub {
    fn urgent(command: &Command) -> bool {
        matches!(command, Command::Ping | Command::Stop | Command::PonderHit | Command::Quit)
    }

    fn error(&self, message: &str) {
        self.printer.line(&format!("error message={}", quote(&cut(message, 200))));
    }

    fn handle(&mut self, session: &mut Session, command: Command) -> bool {
        match command {
            Command::Hello => {
                for line in handshake(session.settings(), session.variant(), self.numbering) {
                    self.printer.line(&line);
                }
            }
            Command::Init => {
                self.load_pending_tables(session);
                self.printer.line("ready");
            }
            Command::Ping => self.printer.line("pong"),
            Command::SetOption { name, value } => self.set_param(session, &name, value.as_deref()),
            Command::NewGame => session.new_game(),
            Command::Position { setup, moves } => self.set_position(session, &setup, &moves),
            Command::Level(level) => self.level = level,
            Command::Go(go) => {
                self.load_pending_tables(session);
                let layout =
                    if self.answer_in_layout { layout_of(session.variant()) } else { None };
                let listener = Arc::new(HubListener { printer: self.printer.clone(), layout });
                session.go(&request(&self.level, &go), listener, Notation::Full);
            }
            Command::Stop => session.stop(),
            Command::PonderHit => session.ponderhit(),
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::{fen, English, International, Turkish};
    use crate::protocol::Setup;

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
        let lines = handshake(&Settings::default(), Variant::International, Numbering::Auto);
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
        use crate::engine::session::read_position;
        use crate::game::Game;
        let ten = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        let moves: Vec<String> = ["32-28", "19-23", "28x19"].map(String::from).to_vec();
        let (pos, history) = read_position::<International>(
            Variant::International,
            &Setup::Text(ten.clone()),
            &moves,
        )
        .unwrap();
        assert_eq!(history.len(), 3);
        let mut want = International::start_position();
        for m in &moves {
            let mv = want.parse_move(m).unwrap();
            want.play(mv);
        }
        assert_eq!(fen::write_hub(&pos), fen::write_hub(&want));
        let twice = ["32-28", "32-28"].map(String::from).to_vec();
        assert!(read_position::<International>(Variant::International, &Setup::Text(ten), &twice)
            .is_err());
        assert_eq!(fen::write_hub(&English::start_position()).len(), 33);
        assert_eq!(fen::write_hub(&Turkish::start_position()).len(), 65);
    }

    #[test]
    fn no_level_means_a_fixed_time() {
        let r = request(&Preset::default(), &Go::default());
        assert_eq!(r.movetime, Some(DEFAULT_MOVE_TIME.as_millis() as u64));
        let r = request(&Preset { depth: Some(3), ..Preset::default() }, &Go::default());
        assert_eq!((r.depth, r.movetime), (Some(3), None));
        let r = request(&Preset::default(), &Go { infinite: true, ..Go::default() });
        assert!(r.infinite);
    }
}
