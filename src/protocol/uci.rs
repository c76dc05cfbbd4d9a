//! UCI: parsing of GUI lines into [`Command`]s, the UCI front end over a
//! [`Session`] and its search output.
//!
//! Parsing is a pre-pass of our own for the commands that vampirc-uci 0.11
//! gets wrong (see the project notes: it panics on `go depth 300`, drops
//! `ponder`, loses moves after a double space or `0000`, rejects Shredder-FEN
//! and four-field FENs, mangles option names, accepts `isreadyfoo`), with
//! vampirc-uci kept for the simple one-word commands and for serialising the
//! `id`, `option`, `uciok` and `readyok` lines, which it gets right. The info
//! line is written here because vampirc-uci misspells `currmovenumber`.
//!
//! Invariant: no input line can panic the parser; every number is parsed
//! wide and saturated or refused with a message.

use crate::endgame::Wdl;
use crate::engine::options::{self, Kind, Spec, OPTIONS};
use crate::engine::session::{bench_depth, Listener, Notation, Report, Session, MAX_PERFT_DEPTH};
use crate::game::Variant;
use crate::protocol::{serve, spawn_reader, Command, Front, Go, Parsed, Printer, Setup};
use crate::score::mate_in_moves;
use crate::search::level::Scale;
use crate::search::ScoreBound;
use crate::text::cut;
use std::io::BufRead;
use std::sync::Arc;
use vampirc_uci::{Serializable, UciMessage, UciOptionConfig};

/// Deepest `go depth` accepted (deeper requests are clamped).
pub const MAX_DEPTH: u32 = 120;

fn at_most(what: &str, depth: u32, max: u32) -> Result<u32, String> {
    if depth > max {
        Err(format!("{what}: depth {depth} is too deep (at most {max})"))
    } else {
        Ok(depth)
    }
}

/// Parses one UCI line.
pub fn parse(line: &str) -> Parsed {
    let mut tokens = line.split_whitespace();
    let Some(head) = tokens.next() else { return Ok(None) };
    let rest: Vec<&str> = tokens.collect();
    let no_args = |cmd: Command| {
        if rest.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(format!("unexpected '{}' after {head}", rest.join(" ")))
        }
    };
    match head {
        // The one-word commands go through vampirc-uci, on the exact word
        // only (it would also take "isreadyfoo").
        "uci" | "isready" | "ucinewgame" | "stop" | "ponderhit" | "quit" => {
            let cmd = match vampirc_uci::parse_one(head) {
                UciMessage::Uci => Command::Hello,
                UciMessage::IsReady => Command::IsReady,
                UciMessage::UciNewGame => Command::NewGame,
                UciMessage::Stop => Command::Stop,
                UciMessage::PonderHit => Command::PonderHit,
                UciMessage::Quit => Command::Quit,
                _ => return Err(format!("cannot parse '{head}'")),
            };
            // `stop` and `quit` must work even with junk after them.
            if matches!(cmd, Command::Stop | Command::Quit) {
                Ok(Some(cmd))
            } else {
                no_args(cmd)
            }
        }
        "debug" => match rest.as_slice() {
            ["on"] => Ok(Some(Command::Debug(true))),
            ["off"] => Ok(Some(Command::Debug(false))),
            _ => Err("debug takes 'on' or 'off'".into()),
        },
        "register" => Ok(Some(Command::Register)),
        "setoption" => parse_setoption(&rest).map(Some),
        "position" => parse_position(&rest).map(Some),
        "go" => parse_go(&rest).map(Some),
        "bench" => match rest.as_slice() {
            [] => Ok(Some(Command::Bench(None))),
            [depth, ..] => bench_depth(depth).map(|d| Some(Command::Bench(Some(d)))),
        },
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        _ => Err(format!("unknown command '{}'", cut(head, 40))),
    }
}

/// A non-negative count, saturated at the type's maximum.
fn parse_count<T: TryFrom<i128> + Copy>(what: &str, text: &str, max: T) -> Result<T, String> {
    let wide: i128 =
        text.parse().map_err(|_| format!("{what}: '{}' is not a number", cut(text, 20)))?;
    if wide < 0 {
        return Err(format!("{what}: {wide} is negative"));
    }
    Ok(T::try_from(wide).unwrap_or(max))
}

/// Milliseconds: negative values are kept (clocks can run negative in some
/// GUIs) and saturated to the i64 range.
fn parse_millis(what: &str, text: &str) -> Result<i64, String> {
    let wide: i128 =
        text.parse().map_err(|_| format!("{what}: '{}' is not a number", cut(text, 20)))?;
    Ok(wide.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    let ["name", tail @ ..] = rest else {
        return Err("setoption needs 'name <id> [value <x>]'".into());
    };
    let split = tail.iter().position(|&t| t == "value");
    let (name, value) = match split {
        Some(i) => (&tail[..i], Some(&tail[i + 1..])),
        None => (tail, None),
    };
    if name.is_empty() {
        return Err("setoption: missing option name".into());
    }
    // An empty value is a value: a text option's default (`SyzygyPath`
    // unloads the tables); the option table refuses it for the others.
    let value = value.map(|v| v.join(" "));
    Ok(Command::SetOption { name: name.join(" "), value })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let moves_at = rest.iter().position(|&t| t == "moves");
    let (head, moves) = match moves_at {
        Some(i) => (&rest[..i], &rest[i + 1..]),
        None => (rest, &[][..]),
    };
    let setup = match head {
        ["startpos"] => Setup::Start,
        ["fen", fields @ ..] if !fields.is_empty() => Setup::Text(fields.join(" ")),
        ["fen"] => return Err("position fen: missing FEN".into()),
        _ => {
            return Err(
                "position needs 'startpos' or 'fen <FEN>', then optionally 'moves ...'".into()
            )
        }
    };
    Ok(Command::Position { setup, moves: moves.iter().map(|m| m.to_string()).collect() })
}

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

fn parse_go(rest: &[&str]) -> Result<Command, String> {
    let mut go = Go::default();
    let mut i = 0;
    let value = |i: usize, key: &str| -> Result<&str, String> {
        rest.get(i + 1).copied().ok_or_else(|| format!("go {key}: missing value"))
    };
    while i < rest.len() {
        let key = rest[i];
        match key {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(&mv) = rest.get(i + 1) {
                    if GO_KEYWORDS.contains(&mv) {
                        break;
                    }
                    go.searchmoves.push(mv.to_string());
                    i += 1;
                }
                i += 1;
                continue;
            }
            "perft" => {
                let depth = parse_count::<u32>("go perft", value(i, key)?, u32::MAX)?;
                return at_most("go perft", depth, MAX_PERFT_DEPTH).map(Command::Perft);
            }
            "wtime" | "btime" | "winc" | "binc" => {
                let ms = parse_millis(key, value(i, key)?)?;
                *match key {
                    "wtime" => &mut go.wtime,
                    "btime" => &mut go.btime,
                    "winc" => &mut go.winc,
                    _ => &mut go.binc,
                } = Some(ms);
                i += 1;
            }
            "movestogo" => {
                let n = parse_count::<u32>(key, value(i, key)?, u32::MAX)?;
                go.movestogo = (n > 0).then_some(n);
                i += 1;
            }
            "depth" => {
                let d = parse_count::<u32>(key, value(i, key)?, u32::MAX)?;
                go.depth = Some(d.clamp(1, MAX_DEPTH));
                i += 1;
            }
            "nodes" => {
                go.nodes = Some(parse_count::<u64>(key, value(i, key)?, u64::MAX)?.max(1));
                i += 1;
            }
            "mate" => {
                go.mate = Some(parse_count::<u32>(key, value(i, key)?, u32::MAX)?.clamp(1, 200));
                i += 1;
            }
            "movetime" => {
                go.movetime = Some(parse_count::<u64>(key, value(i, key)?, u64::MAX)?);
                i += 1;
            }
            other => return Err(format!("go: unknown parameter '{}'", cut(other, 30))),
        }
        i += 1;
    }
    Ok(Command::Go(go))
}

/// Win/draw/loss per mille from a score (a logistic model of engine games).
pub fn wdl(score: i32) -> (u32, u32, u32) {
    if let Some(moves) = mate_in_moves(score) {
        return if moves > 0 { (1000, 0, 0) } else { (0, 0, 1000) };
    }
    let p = |s: f64| 1.0 / (1.0 + (-(s - 200.0) / 60.0).exp());
    let win = (p(score as f64) * 1000.0).round() as u32;
    let loss = (p(-score as f64) * 1000.0).round() as u32;
    let (win, loss) = (win.min(1000), loss.min(1000 - win.min(1000)));
    (win, 1000 - win - loss, loss)
}

/// Prints search output as UCI lines.
pub struct UciListener {
    printer: Printer,
    show_wdl: bool,
}

impl Listener for UciListener {
    fn info(&self, report: &Report) {
        let info = &report.info;
        let score = match mate_in_moves(info.score) {
            Some(moves) => format!("score mate {moves}"),
            None => format!("score cp {}", info.score),
        };
        if report.pv.is_empty() {
            // A root without a legal move: Stockfish's line, then
            // `bestmove (none)`.
            return self.printer.line(&format!("info depth {} {score}", info.depth));
        }
        let mut line = format!("info depth {} seldepth {}", info.depth, info.seldepth);
        if info.multipv > 0 {
            line += &format!(" multipv {}", info.multipv);
        }
        line += " ";
        line += &score;
        match info.bound {
            ScoreBound::Lower => line += " lowerbound",
            ScoreBound::Upper => line += " upperbound",
            ScoreBound::Exact => {}
        }
        if self.show_wdl {
            // A root the tables decide shows their result.
            let (w, d, l) = match info.table {
                Some(Wdl::Win) => (1000, 0, 0),
                Some(Wdl::Draw) => (0, 1000, 0),
                Some(Wdl::Loss) => (0, 0, 1000),
                None => wdl(info.score),
            };
            line += &format!(" wdl {w} {d} {l}");
        }
        let ms = info.time.as_millis().max(1);
        let nps = info.nodes as u128 * 1000 / ms;
        line += &format!(
            " nodes {} nps {} hashfull {} tbhits {} time {}",
            info.nodes,
            nps,
            info.hashfull,
            info.tbhits,
            info.time.as_millis()
        );
        line += " pv ";
        line += &report.pv.join(" ");
        self.printer.line(&line);
    }

    fn warning(&self, text: &str) {
        self.printer.line(&format!("info string error: {}", cut(text, 200)));
    }

    fn current_move(&self, text: &str, number: usize, depth: i32) {
        self.printer.line(&format!("info depth {depth} currmove {text} currmovenumber {number}"));
    }

    fn best_move(&self, best: Option<&str>, ponder: Option<&str>) {
        let line = match (best, ponder) {
            (None, _) => "bestmove (none)".to_string(),
            (Some(best), None) => format!("bestmove {best}"),
            (Some(best), Some(reply)) => format!("bestmove {best} ponder {reply}"),
        };
        self.printer.line(&line);
    }

    fn line(&self, text: &str) {
        self.printer.line(text);
    }
}

/// The `uci` handshake reply: id, every option of chess in the table (and
/// in a tuning build every search tunable), uciok.
pub fn handshake() -> Vec<String> {
    let mut lines = vec![UciMessage::Id {
        name: Some(format!("Crown {}", env!("CARGO_PKG_VERSION"))),
        author: None,
    }
    .serialize()];
    lines.push(
        UciMessage::Id { name: None, author: Some("the Crown developers".into()) }.serialize(),
    );
    let table = OPTIONS.iter().map(|&&spec| spec).filter(|s| s.games.include(Scale::Chess));
    lines.extend(table.chain(options::search_param_options()).map(|spec| option_line(&spec)));
    lines.push(UciMessage::UciOk.serialize());
    lines
}

/// The `option` line of an option: its type, default and range in chess.
fn option_line(spec: &Spec) -> String {
    let name = spec.name.to_string();
    let config = match spec.kind_in(Scale::Chess) {
        Kind::Spin { default, min, max } => {
            UciOptionConfig::Spin { name, default: Some(default), min: Some(min), max: Some(max) }
        }
        Kind::Check { default } => UciOptionConfig::Check { name, default: Some(default) },
        Kind::Button => UciOptionConfig::Button { name },
        Kind::String { default } => UciOptionConfig::String { name, default: Some(default.into()) },
    };
    UciMessage::Option(config).serialize()
}

/// The UCI front end: each command becomes one [`Session`] call.
pub struct Uci {
    printer: Printer,
}

impl Uci {
    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(input: impl BufRead + Send + 'static, printer: Printer) {
        let mut session = match Session::new(Variant::Chess) {
            Ok(session) => session,
            Err(e) => return printer.line(&format!("info string error: {e}")),
        };
        let commands = spawn_reader(input, parse, session.signals());
        serve(&mut Uci { printer }, &mut session, commands);
        session.shut_down();
    }

    fn listener(&self, session: &Session) -> Arc<dyn Listener> {
        Arc::new(UciListener {
            printer: self.printer.clone(),
            show_wdl: session.settings().flag(&options::SHOW_WDL),
        })
    }
}

impl Front for Uci {
    fn urgent(command: &Command) -> bool {
        matches!(
            command,
            Command::Hello
                | Command::IsReady
                | Command::Debug(_)
                | Command::Register
                | Command::Stop
                | Command::PonderHit
                | Command::Quit
        )
    }

    fn error(&self, message: &str) {
        self.printer.line(&format!("info string error: {}", cut(message, 200)));
    }

    fn handle(&mut self, session: &mut Session, command: Command) -> bool {
        match command {
            Command::Hello => {
                for line in handshake() {
                    self.printer.line(&line);
                }
            }
            Command::IsReady => self.printer.line(&UciMessage::ReadyOk.serialize()),
            Command::Debug(_) | Command::Register => {}
            Command::SetOption { name, value } => {
                let applied = options::parse(&name, value.as_deref())
                    .map_err(|e| e.to_string())
                    .and_then(|change| session.apply(change));
                match applied {
                    Ok(notes) => {
                        for note in notes {
                            self.printer.line(&format!("info string {}", cut(&note, 200)));
                        }
                    }
                    Err(e) => self.error(&e),
                }
            }
            Command::NewGame => session.new_game(),
            Command::Position { setup, moves } => {
                if let Err(e) = session.set_position(&setup, &moves) {
                    self.error(&e.to_string());
                }
            }
            Command::Go(go) => {
                let listener = self.listener(session);
                session.go(&go, listener, Notation::Standard);
            }
            Command::Stop => session.stop(),
            Command::PonderHit => session.ponderhit(),
            Command::Quit => return false,
            Command::Perft(depth) => session.perft(depth, self.listener(session)),
            Command::Bench(depth) => session.bench(depth, self.listener(session)),
            Command::Display => {
                for line in session.board().lines() {
                    self.printer.line(line);
                }
            }
            Command::Eval => {
                for line in session.eval_trace().lines() {
                    self.printer.line(line);
                }
            }
            // Hub-only commands; the UCI parser never produces them.
            Command::Ping | Command::Init | Command::Level(_) => {}
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap_or_else(|e| panic!("{line}: {e}")).unwrap()
    }

    #[test]
    fn simple_commands_need_the_exact_word() {
        assert_eq!(ok("isready"), Command::IsReady);
        assert_eq!(ok("  isready \r\n"), Command::IsReady);
        assert!(parse("isreadyfoo").is_err());
        assert!(parse("ucinewgamex").is_err());
        assert_eq!(parse("   "), Ok(None));
        assert_eq!(ok("stop now"), Command::Stop);
    }

    #[test]
    fn messages_echo_no_control_characters() {
        let Err(message) = parse("\u{0}\u{1b}[31m junk") else { panic!() };
        assert_eq!(message.chars().filter(|c| c.is_control()).count(), 0, "{message:?}");
        assert!(message.contains("??[31m"), "{message:?}");
        assert_eq!(cut("ok é", 10), "ok é");
    }

    #[test]
    fn go_never_overflows() {
        let Command::Go(go) = ok("go depth 300 movestogo 300 wtime 1000") else { panic!() };
        assert_eq!(go.depth, Some(MAX_DEPTH));
        assert_eq!(go.movestogo, Some(300));
        let Command::Go(go) = ok("go ponder wtime 1000 btime 1000 winc 10 binc 10") else {
            panic!()
        };
        assert!(go.ponder);
        assert_eq!(go.binc, Some(10));
        let Command::Go(go) = ok("go wtime -500 nodes 999999999999999999999999999") else {
            panic!()
        };
        assert_eq!(go.wtime, Some(-500));
        assert_eq!(go.nodes, Some(u64::MAX));
        assert!(parse("go depth 5 garbage").is_err());
        assert!(parse("go depth").is_err());
        assert!(parse("go depth -3").is_err());
        assert!(parse("go depth ５").is_err());
        assert_eq!(ok("go perft 3"), Command::Perft(3));
        assert!(parse("go perft 300").is_err());
        assert!(parse("bench 300").is_err());
        assert_eq!(ok("bench 0"), Command::Bench(Some(1)));
        let Command::Go(go) = ok("go searchmoves e2e4 d2d4 depth 3") else { panic!() };
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.depth, Some(3));
    }

    #[test]
    fn position_keeps_every_move() {
        let want =
            Command::Position { setup: Setup::Start, moves: vec!["e2e4".into(), "e7e5".into()] };
        assert_eq!(ok("position startpos moves  e2e4   e7e5"), want);
        let Command::Position { moves, .. } = ok("position startpos moves e2e4 0000 e7e5") else {
            panic!()
        };
        assert_eq!(moves.len(), 3);
        let Command::Position { setup, .. } =
            ok("position fen 4k3/8/8/8/8/8/8/4K2R w H - moves e1h1")
        else {
            panic!()
        };
        assert_eq!(setup, Setup::Text("4k3/8/8/8/8/8/8/4K2R w H -".into()));
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position somewhere").is_err());
    }

    #[test]
    fn setoption_names_and_values() {
        let set = |name: &str, value: Option<&str>| Command::SetOption {
            name: name.into(),
            value: value.map(String::from),
        };
        assert_eq!(ok("setoption name Clear Hash"), set("Clear Hash", None));
        assert_eq!(ok("setoption name ValueMg value 5"), set("ValueMg", Some("5")));
        assert_eq!(ok("setoption name Pawn ValueMg value 5"), set("Pawn ValueMg", Some("5")));
        assert_eq!(ok("setoption  name  Hash  value  64 "), set("Hash", Some("64")));
        assert_eq!(ok("setoption name Path value C:/my dir/x"), set("Path", Some("C:/my dir/x")));
        assert_eq!(ok("setoption name SyzygyPath value"), set("SyzygyPath", Some("")));
        assert_eq!(ok("setoption name Style value  "), set("Style", Some("")));
        assert!(parse("setoption Hash 5").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn wdl_sums_to_1000() {
        for s in [-32000, -2000, -300, -50, 0, 50, 300, 2000, 32000 - 5] {
            let (w, d, l) = wdl(s);
            assert_eq!(w + d + l, 1000, "{s}");
        }
        assert!(wdl(500).0 > wdl(100).0);
    }

    #[test]
    fn handshake_lists_every_option_once() {
        let lines = handshake();
        assert!(lines[0].starts_with("id name Crown"));
        assert_eq!(lines.last().unwrap(), "uciok");
        for spec in OPTIONS {
            let prefix = format!("option name {} type", spec.name);
            assert_eq!(lines.iter().filter(|l| l.starts_with(&prefix)).count(), 1, "{}", spec.name);
        }
    }
}
