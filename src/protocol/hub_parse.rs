//! Hub v2 text: a tiny `key=value` scanner with double quotes, the parse of
//! one GUI line into a protocol-neutral [`Command`], and the quoting of
//! values on output.
//!
//! Grammar: `command arg arg ...`, each argument `key`, `key=value` or
//! `key="value with spaces"` (no escapes inside quotes). Unknown commands
//! and unknown arguments are ignored (`Ok(None)`, or the argument skipped);
//! a known command that is malformed (an unterminated quote, a missing or
//! bad value) is an `Err` with a readable message and changes nothing.
//! `stop`, `quit`, `ping` and `ponder-hit` never look at their arguments, so
//! junk after them cannot keep them from working.
//!
//! Invariant: no input line can panic the parser. Integers are read wide and
//! saturated or refused; seconds are reals, refused when not finite, clamped
//! to `0..=MAX_SECONDS`.

use crate::protocol::uci::MAX_DEPTH;
use crate::protocol::{Command, Go, Parsed, Preset, Setup};
use crate::text::cut;
use std::time::Duration;

/// Longest time accepted in a `level` line, in seconds (about 31 years);
/// larger values are clamped.
pub const MAX_SECONDS: f64 = 1e9;

/// One scanned argument: the key and, unless it is a flag, its value.
pub type Arg<'a> = (&'a str, Option<&'a str>);

/// Splits the arguments after the command word into `key[=value]` pairs.
/// Values may be double-quoted; an unterminated quote is an error.
pub fn scan(text: &str) -> Result<Vec<Arg<'_>>, String> {
    let mut args = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() && bytes[i] != b'=' {
            i += 1;
        }
        let key = &text[start..i];
        if i >= bytes.len() || bytes[i] != b'=' {
            args.push((key, None));
            continue;
        }
        i += 1; // '='
        if i < bytes.len() && bytes[i] == b'"' {
            let open = i + 1;
            let Some(len) = text[open..].find('"') else {
                return Err(format!("unterminated quote in the value of '{}'", cut(key, 30)));
            };
            args.push((key, Some(&text[open..open + len])));
            i = open + len + 1;
        } else {
            let open = i;
            while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            args.push((key, Some(&text[open..i])));
        }
    }
    Ok(args)
}

/// A value as Hub writes it: double-quoted when empty or when it holds
/// white space, `=` or a quote (quotes inside become `'`).
pub fn quote(value: &str) -> String {
    let clean = value.replace('"', "'");
    if clean.is_empty() || clean.contains(|c: char| c.is_whitespace() || c == '=') {
        format!("\"{clean}\"")
    } else {
        clean
    }
}

/// Parses one Hub line.
pub fn parse(line: &str) -> Parsed {
    let line = line.trim();
    let (head, rest) = match line.find(|c: char| c.is_ascii_whitespace()) {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, ""),
    };
    let simple = match head {
        "" => return Ok(None),
        "stop" => Some(Command::Stop),
        "quit" => Some(Command::Quit),
        "ping" => Some(Command::Ping),
        "ponder-hit" => Some(Command::PonderHit),
        "hub" => Some(Command::Hello),
        "init" => Some(Command::Init),
        "new-game" => Some(Command::NewGame),
        "set-param" | "pos" | "level" | "go" => None,
        _ => return Ok(None),
    };
    if simple.is_some() {
        return Ok(simple);
    }
    let args = scan(rest).map_err(|e| format!("{head}: {e}"))?;
    let get = |key: &str| args.iter().rev().find(|(k, _)| *k == key).map(|&(_, v)| v);
    match head {
        "set-param" => {
            let name = match get("name") {
                Some(Some(name)) if !name.trim().is_empty() => name.trim().to_string(),
                _ => return Err("set-param needs name=<parameter>".into()),
            };
            let value = get("value").flatten().map(|v| v.trim().to_string());
            Ok(Some(Command::SetOption { name, value }))
        }
        "pos" => parse_pos(&get),
        "level" => parse_level(&args).map(|l| Some(Command::Level(l))),
        _ => {
            // go think | ponder | analyze; `go` alone thinks.
            let mut go = Go::default();
            for &(key, _) in &args {
                match key {
                    "think" => (go.ponder, go.infinite) = (false, false),
                    "ponder" => (go.ponder, go.infinite) = (true, false),
                    "analyze" | "analyse" => (go.ponder, go.infinite) = (false, true),
                    _ => {}
                }
            }
            Ok(Some(Command::Go(go)))
        }
    }
}

fn parse_pos<'a>(get: &dyn Fn(&str) -> Option<Option<&'a str>>) -> Parsed {
    let setup = match (get("pos"), get("start")) {
        (Some(Some(text)), _) if !text.trim().is_empty() => Setup::Text(text.trim().to_string()),
        (Some(_), _) => return Err("pos: empty pos=".into()),
        (None, Some(_)) => Setup::Start,
        (None, None) => return Err("pos needs pos=<position> (or start)".into()),
    };
    let moves = match get("moves") {
        Some(Some(list)) => list.split_whitespace().map(String::from).collect(),
        Some(None) => return Err("pos: moves needs a value".into()),
        None => Vec::new(),
    };
    Ok(Some(Command::Position { setup, moves }))
}

/// A non-negative integer, saturated at `max`.
fn count<T: TryFrom<i128> + Copy>(key: &str, text: &str, max: T) -> Result<T, String> {
    let wide: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("level {key}: '{}' is not a whole number", cut(text, 20)))?;
    if wide < 0 {
        return Err(format!("level {key}: {} is negative", cut(text, 20)));
    }
    Ok(T::try_from(wide).unwrap_or(max))
}

/// Seconds as a real; negative values are kept (a GUI may subtract the
/// increment from a nearly empty clock), non-finite ones refused.
fn seconds(key: &str, text: &str) -> Result<f64, String> {
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("level {key}: '{}' is not a number of seconds", cut(text, 20)))?;
    if !v.is_finite() {
        return Err(format!("level {key}: '{}' is not a finite number", cut(text, 20)));
    }
    Ok(v.clamp(-MAX_SECONDS, MAX_SECONDS))
}

fn duration(secs: f64) -> Duration {
    Duration::from_secs_f64(secs.clamp(0.0, MAX_SECONDS))
}

/// `level depth=N | nodes=N | move-time=S | [moves=N] time=S [inc=S] | infinite`.
/// The clock is stored with this move's increment added, as Hub engines do.
fn parse_level(args: &[Arg<'_>]) -> Result<Preset, String> {
    let mut level = Preset::default();
    let (mut time, mut inc) = (None, None);
    let mut known = false;
    for &(key, value) in args {
        let need = || value.ok_or_else(|| format!("level {key}: missing value"));
        match key {
            "infinite" => level.infinite = true,
            "depth" => {
                level.depth = Some(count::<u32>(key, need()?, u32::MAX)?.clamp(1, MAX_DEPTH))
            }
            "nodes" => level.nodes = Some(count::<u64>(key, need()?, u64::MAX)?.max(1)),
            "move-time" => level.movetime = Some(duration(seconds(key, need()?)?)),
            "time" => time = Some(seconds(key, need()?)?),
            "inc" => inc = Some(seconds(key, need()?)?),
            "moves" => level.moves = Some(count::<u32>(key, need()?, u32::MAX)?).filter(|&m| m > 0),
            _ => continue,
        }
        known = true;
    }
    if !known {
        return Err(
            "level needs depth=, nodes=, move-time=, [moves=] time= [inc=] or infinite".into()
        );
    }
    if level.moves.is_some() && time.is_none() {
        return Err("level moves= needs time=".into());
    }
    let inc = inc.unwrap_or(0.0).max(0.0);
    level.inc = Some(duration(inc)).filter(|_| inc > 0.0);
    level.time = time.map(|t| duration(t + inc));
    Ok(level)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap_or_else(|e| panic!("{line}: {e}")).unwrap()
    }

    #[test]
    fn scanner_reads_flags_values_and_quotes() {
        let args = scan(r#" a=1 flag b="x y=z"  c= d="" "#).unwrap();
        assert_eq!(
            args,
            vec![
                ("a", Some("1")),
                ("flag", None),
                ("b", Some("x y=z")),
                ("c", Some("")),
                ("d", Some("")),
            ]
        );
        assert!(scan(r#"moves="32-28 19-23"#).is_err());
        assert_eq!(scan("é=ü").unwrap(), vec![("é", Some("ü"))]);
    }

    #[test]
    fn quoting_round_trips() {
        assert_eq!(quote("32-28"), "32-28");
        assert_eq!(quote("32-28 19-23"), "\"32-28 19-23\"");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
        assert_eq!(quote("say \"hi\""), "\"say 'hi'\"");
        let line = format!("x v={}", quote("a b=c"));
        assert_eq!(scan(&line[2..]).unwrap(), vec![("v", Some("a b=c"))]);
    }

    #[test]
    fn commands_and_unknowns() {
        assert_eq!(ok("hub"), Command::Hello);
        assert_eq!(ok("ping"), Command::Ping);
        assert_eq!(ok("stop \"junk"), Command::Stop);
        assert_eq!(ok("quit now"), Command::Quit);
        assert_eq!(parse("frobnicate x=\"1"), Ok(None));
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("hubx"), Ok(None));
        assert_eq!(
            ok("set-param name=tt-size value=64 extra"),
            Command::SetOption { name: "tt-size".into(), value: Some("64".into()) }
        );
        assert!(parse("set-param value=3").is_err());
        assert!(parse("set-param name=\"threads").is_err());
    }

    #[test]
    fn positions_keep_every_move() {
        let start = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
        let line = format!("pos pos={start} moves=\"32-28  19-23\" colour=x");
        assert_eq!(
            ok(&line),
            Command::Position {
                setup: Setup::Text(start.clone()),
                moves: vec!["32-28".into(), "19-23".into()]
            }
        );
        assert_eq!(ok("pos start"), Command::Position { setup: Setup::Start, moves: vec![] });
        assert!(parse("pos").is_err());
        assert!(parse("pos pos=").is_err());
        assert!(parse("pos pos=W moves").is_err());
    }

    #[test]
    fn every_level_form() {
        let level = |line: &str| match ok(line) {
            Command::Level(l) => l,
            other => panic!("{other:?}"),
        };
        assert_eq!(level("level depth=7").depth, Some(7));
        assert_eq!(level("level depth=99999999999999999999").depth, Some(MAX_DEPTH));
        assert_eq!(level("level depth=0").depth, Some(1));
        assert_eq!(level("level nodes=99999999999999999999999").nodes, Some(u64::MAX));
        assert_eq!(level("level move-time=1.5").movetime, Some(Duration::from_millis(1500)));
        let clock = level("level moves=40 time=60 inc=0.5");
        assert_eq!(clock.moves, Some(40));
        assert_eq!(clock.time, Some(Duration::from_millis(60_500)));
        assert_eq!(clock.inc, Some(Duration::from_millis(500)));
        assert_eq!(level("level time=-0.5 inc=1").time, Some(Duration::from_millis(500)));
        assert_eq!(level("level time=1e300").time, Some(Duration::from_secs(MAX_SECONDS as u64)));
        assert!(level("level infinite").infinite);
        assert!(parse("level").is_err());
        assert!(parse("level depth=-1").is_err());
        assert!(parse("level depth=x").is_err());
        assert!(parse("level move-time=nan").is_err());
        assert!(parse("level time=inf").is_err());
        assert!(parse("level moves=40").is_err());
        assert!(parse("level depth").is_err());
    }

    #[test]
    fn go_modes() {
        assert_eq!(ok("go think"), Command::Go(Go::default()));
        assert_eq!(ok("go"), Command::Go(Go::default()));
        assert_eq!(ok("go ponder"), Command::Go(Go { ponder: true, ..Go::default() }));
        assert_eq!(ok("go analyze"), Command::Go(Go { infinite: true, ..Go::default() }));
    }
}
