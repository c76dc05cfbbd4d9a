//! The `crown match` command line, in the style of cutechess-cli and
//! fastchess: options take `key=value` groups, `--engine` repeats, `--each`
//! applies to every engine (engine's own settings win). One or two leading
//! dashes are accepted.
//!
//! Invariant: parsing never starts a process or touches a file; it only
//! builds a [`MatchConfig`] or returns a readable error.

use super::adjudication::{Adjudication, DrawRule, ResignRule};
use super::clock::{Limits, TimeControl};
use super::engine::{apply_setting, EngineConfig, Protocol};
use super::runner::{MatchConfig, OpeningSource};
use super::sprt::Sprt;
use crate::game::Variant;
use std::time::Duration;

/// The help text of `crown match`.
pub const USAGE: &str = "\
crown match: engine-versus-engine matches (chess over UCI, draughts over Hub
or DamExchange)

  --engine name=N cmd=PATH [arg=A]... [dir=D] [proto=uci|hub|dxp] [option.X=V]...
           [tc=..] [st=..] [nodes=..] [depth=..]     (repeat for each engine)
           proto=dxp (international only): the runner listens on a free port
           and replaces {port} in the args, e.g. arg=dxp arg=--connect
           arg=127.0.0.1:{port}
  --each   settings for every engine (an engine's own settings win)
  --variant chess|chess960|international|brazilian|russian|english|italian|
            turkish|antidraughts|killer|breakthrough|frisian|frysk (default chess)
  --tc 10+0.1 | 40/60+0.5   --movetime S   --nodes N   --depth N
  --games N (per pairing and round, default 1; 2 with --repeat)  --rounds R
  --repeat             each opening twice, colours swapped (pentanomial pairs)
  --concurrency N      games at once (default 1)
  --gauntlet           first engine against each other (default round robin)
  --openings file=F format=epd|fen|pgn|pdn order=random|sequential plies=N start=K
  --random-plies N     random openings when no file (default 8 chess, 4 draughts)
  --seed N             seed for random openings and order=random
  --draw movenumber=M movecount=N score=S     --resign movecount=N score=S
  --maxmoves N         --timemargin MS (default 0)   --hangtimeout S (default 60)
  --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]
  --pgnout FILE        --log FILE (protocol traffic and engines' stderr)
  --ratinginterval N   (default 10)   --event NAME
";

fn is_option(token: &str) -> bool {
    let t = token.trim_start_matches('-');
    token.starts_with('-')
        && t.len() + 2 >= token.len()
        && t.starts_with(|c: char| c.is_ascii_alphabetic())
}

fn single<'a>(name: &str, values: &'a [String]) -> Result<&'a str, String> {
    match values {
        [one] => Ok(one),
        _ => Err(format!("--{name} takes one value")),
    }
}

fn number<T: std::str::FromStr>(name: &str, values: &[String]) -> Result<T, String> {
    let v = single(name, values)?;
    v.parse().map_err(|_| format!("--{name}: bad number '{v}'"))
}

/// Parses the arguments after `crown match`. `Ok(None)` means help was asked.
pub fn parse(args: &[String]) -> Result<Option<MatchConfig>, String> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for arg in args {
        if is_option(arg) {
            groups.push((arg.trim_start_matches('-').to_string(), Vec::new()));
        } else if let Some((_, values)) = groups.last_mut() {
            values.push(arg.clone());
        } else {
            return Err(format!("unexpected argument '{arg}'"));
        }
    }
    let mut engines: Vec<Vec<String>> = Vec::new();
    let mut each: Vec<String> = Vec::new();
    let mut limits = Limits::default();
    let mut variant = Variant::Chess;
    let mut games = None;
    let mut rounds = 1;
    let mut repeat = false;
    let mut concurrency = 1;
    let mut gauntlet = false;
    let mut openings = None;
    let mut random_plies = None;
    let mut seed = 0x00C0_FFEE;
    let mut adjudication = Adjudication::default();
    let mut time_margin = Duration::ZERO;
    let mut hang_timeout = Duration::from_secs(60);
    let mut sprt = None;
    let mut pgn_out = None;
    let mut log = None;
    let mut rating_interval = 10;
    let mut event = "crown match".to_string();
    for (name, values) in &groups {
        let v = values.as_slice();
        match name.as_str() {
            "help" | "h" => return Ok(None),
            "engine" => engines.push(values.clone()),
            "each" => each.extend(values.iter().cloned()),
            "variant" => {
                let text = single(name, v)?;
                variant =
                    Variant::parse(text).ok_or_else(|| format!("unknown variant '{text}'"))?;
            }
            "tc" => limits.tc = Some(TimeControl::parse(single(name, v)?)?),
            "movetime" | "st" => {
                let secs: f64 = number(name, v)?;
                if !(secs.is_finite() && secs > 0.0) {
                    return Err("--movetime must be positive".into());
                }
                limits.movetime = Some(Duration::from_secs_f64(secs));
            }
            "nodes" => limits.nodes = Some(number(name, v)?),
            "depth" => limits.depth = Some(number(name, v)?),
            "games" => games = Some(number::<u32>(name, v)?.max(1)),
            "rounds" => rounds = number::<u32>(name, v)?.max(1),
            "repeat" => repeat = true,
            "concurrency" => concurrency = number::<usize>(name, v)?.clamp(1, 256),
            "gauntlet" => gauntlet = true,
            "openings" => openings = Some(parse_openings(v)?),
            "random-plies" => random_plies = Some(number(name, v)?),
            "seed" => seed = number(name, v)?,
            "draw" => adjudication.draw = Some(DrawRule::parse(v)?),
            "resign" => adjudication.resign = Some(ResignRule::parse(v)?),
            "maxmoves" => adjudication.max_moves = Some(number::<u32>(name, v)?.max(1)),
            "timemargin" => time_margin = Duration::from_millis(number(name, v)?),
            "hangtimeout" => {
                hang_timeout = Duration::from_secs_f64(number::<f64>(name, v)?.max(0.1))
            }
            "sprt" => sprt = Some(Sprt::parse(v)?),
            "pgnout" => pgn_out = Some(single(name, v)?.trim_start_matches("file=").to_string()),
            "log" => log = Some(single(name, v)?.trim_start_matches("file=").to_string()),
            "ratinginterval" => rating_interval = number(name, v)?,
            "event" => event = v.join(" "),
            other => return Err(format!("unknown option --{other} (see crown match --help)")),
        }
    }
    let mut configs = Vec::new();
    for (i, tokens) in engines.iter().enumerate() {
        let mut config = EngineConfig { limits, ..EngineConfig::default() };
        for token in each.iter().chain(tokens) {
            apply_setting(&mut config, token).map_err(|e| format!("engine {}: {e}", i + 1))?;
        }
        if config.launch.cmd.is_empty() {
            return Err(format!("engine {}: cmd= is missing", i + 1));
        }
        if config.name.is_empty() {
            config.name = config.launch.cmd.rsplit('/').next().unwrap_or("engine").to_string();
        }
        if config.protocol == Protocol::Dxp && variant != Variant::International {
            return Err(format!(
                "engine {}: proto=dxp plays international draughts only, not {variant}",
                i + 1
            ));
        }
        if configs.iter().any(|c: &EngineConfig| c.name == config.name) {
            config.name = format!("{}-{}", config.name, i + 1);
        }
        configs.push(config);
    }
    let games = games.unwrap_or(if repeat { 2 } else { 1 });
    Ok(Some(MatchConfig {
        engines: configs,
        variant,
        games,
        rounds,
        repeat,
        concurrency,
        gauntlet,
        openings,
        random_plies: random_plies.unwrap_or(if variant.is_chess() { 8 } else { 4 }),
        seed,
        adjudication,
        time_margin,
        hang_timeout,
        sprt,
        pgn_out,
        log,
        rating_interval,
        event,
    }))
}

fn parse_openings(tokens: &[String]) -> Result<OpeningSource, String> {
    let mut source = OpeningSource {
        file: String::new(),
        format: String::new(),
        random: false,
        plies: None,
        start: 1,
    };
    for token in tokens {
        let (k, v) = token
            .split_once('=')
            .ok_or_else(|| format!("--openings: expected key=value, got '{token}'"))?;
        match k {
            "file" => source.file = v.to_string(),
            "format" => source.format = v.to_ascii_lowercase(),
            "order" => {
                source.random = match v {
                    "random" => true,
                    "sequential" => false,
                    _ => return Err(format!("--openings: unknown order '{v}'")),
                }
            }
            "plies" => {
                source.plies = Some(v.parse().map_err(|_| format!("--openings: bad plies '{v}'"))?)
            }
            "start" => {
                source.start = v.parse().map_err(|_| format!("--openings: bad start '{v}'"))?
            }
            _ => return Err(format!("--openings: unknown key '{k}'")),
        }
    }
    if source.file.is_empty() {
        return Err("--openings: file= is missing".into());
    }
    if source.format.is_empty() {
        source.format = source.file.rsplit('.').next().unwrap_or("epd").to_ascii_lowercase();
    }
    Ok(source)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn full_command_line() {
        let c = parse(&args(
            "--engine name=a cmd=/bin/a option.Hash=16 -engine cmd=/x/b tc=1+0.01 --each tc=10+0.1 option.Threads=1 \
             --games 2 --rounds 50 --repeat --concurrency 2 --openings file=o.epd order=random plies=4 \
             --draw movenumber=40 movecount=8 score=10 --resign movecount=3 score=600 --maxmoves 200 \
             --sprt elo0=0 elo1=5 --pgnout file=out.pgn --log t.log --timemargin 50 --variant chess960",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!(c.engines[0].name, "a");
        assert_eq!(c.engines[1].name, "b");
        assert_eq!(c.engines[0].options.len(), 2);
        assert_eq!(c.engines[0].limits.tc.unwrap().base, Duration::from_secs(10));
        assert_eq!(c.engines[1].limits.tc.unwrap().base, Duration::from_secs(1));
        assert_eq!((c.games, c.rounds, c.repeat, c.concurrency), (2, 50, true, 2));
        assert_eq!(c.variant, Variant::Chess960);
        assert_eq!(c.openings.as_ref().unwrap().format, "epd");
        assert_eq!(c.pgn_out.as_deref(), Some("out.pgn"));
        assert_eq!(c.time_margin, Duration::from_millis(50));
        assert!(
            c.sprt.is_some()
                && c.adjudication.draw.is_some()
                && c.adjudication.max_moves == Some(200)
        );
    }

    #[test]
    fn errors_and_help() {
        assert!(parse(&args("--help")).unwrap().is_none());
        assert!(parse(&args("stray")).is_err());
        assert!(parse(&args("--bogus 1")).is_err());
        assert!(parse(&args("--engine name=x")).is_err());
        assert!(parse(&args("--variant klingon")).is_err());
        assert!(parse(&args("--draw score=-5")).is_ok());
        let c = parse(&args("--engine cmd=/a/e --engine cmd=/b/e --nodes 100")).unwrap().unwrap();
        assert_eq!((c.engines[0].name.as_str(), c.engines[1].name.as_str()), ("e", "e-2"));
    }
}
