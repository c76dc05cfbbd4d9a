//! The `crown match` command line, in the style of cutechess-cli and
//! fastchess, and the [`MatchConfig`] it yields: options take `key=value`
//! groups, `--engine` repeats, `--each` applies to every engine (engine's
//! own settings win). One or two leading dashes are accepted. clap reads
//! the options (one `Vec` per `--engine` group); this file turns them into
//! a [`MatchConfig`] and range-checks them: counts of zero are refused,
//! time values must be finite and at most [`super::clock::MAX_SECONDS`].
//!
//! Invariant: parsing never starts a process or touches a file; it only
//! builds a [`MatchConfig`] or returns a readable error.

use super::adjudication::{Adjudication, DrawRule, ResignRule};
use super::clock::{checked_seconds, seconds, Limits, TimeControl};
use super::engine_config::{apply_setting, EngineConfig, Protocol};
use super::sprt::Sprt;
use crate::game::Variant;
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, CommandFactory, FromArgMatches, Parser};
use std::time::Duration;

/// Where openings come from.
#[derive(Clone, Debug, PartialEq)]
pub struct OpeningSource {
    /// The file.
    pub file: String,
    /// `epd`, `fen`, `pgn` or `pdn`.
    pub format: String,
    /// Shuffle the list (with the match seed) instead of file order.
    pub random: bool,
    /// Cut lines to this many plies.
    pub plies: Option<usize>,
    /// Start at this (1-based) entry.
    pub start: usize,
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (two or more).
    pub engines: Vec<EngineConfig>,
    /// The variant.
    pub variant: Variant,
    /// Games per pairing per round.
    pub games: u32,
    /// Rounds.
    pub rounds: u32,
    /// Play each opening twice with colours swapped.
    pub repeat: bool,
    /// Games at once.
    pub concurrency: usize,
    /// Engine 0 against every other engine instead of a round robin.
    pub gauntlet: bool,
    /// Opening file, or random openings when `None`.
    pub openings: Option<OpeningSource>,
    /// Plies of random openings.
    pub random_plies: usize,
    /// Seed for random openings and shuffling.
    pub seed: u64,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// Clock tolerance.
    pub time_margin: Duration,
    /// Wait for a move without clock or movetime.
    pub hang_timeout: Duration,
    /// SPRT on the first pairing.
    pub sprt: Option<Sprt>,
    /// PGN/PDN output file.
    pub pgn_out: Option<String>,
    /// Go on from the games already in `pgn_out` (see `resume.rs`).
    pub resume: bool,
    /// Protocol traffic and stderr log file.
    pub log: Option<String>,
    /// Print the detailed block every this many games (0: only at the end).
    pub rating_interval: u64,
    /// PGN event name.
    pub event: String,
}

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
         [prior=LL,LD,DD,WD,WW]  pair counts of earlier runs of the same test
                       (PGN lost): added to this run's for the LLR and the stop
  --pgnout FILE        --log FILE (protocol traffic and engines' stderr)
  --resume             go on with a stopped match: the games of --pgnout FILE
                       count again (statistics, SPRT) and the rest is played
                       and appended (same command otherwise)
  --ratinginterval N   (default 10)   --event NAME
";

/// `crown match`'s options as clap reads them. A group option (`--engine`,
/// `--each`, `--openings`, `--draw`, `--resign`, `--sprt`) takes one or more
/// `key=value` tokens; `--engine` repeats, one group per engine. A repeated
/// single-value option overrides the earlier one.
#[derive(Parser, Debug)]
#[command(
    name = "crown match",
    override_help = USAGE,
    args_override_self = true,
    disable_version_flag = true
)]
struct Args {
    // `--engine` groups are added to the command in `parse`: clap's derive
    // has no field type for a list of groups.
    #[arg(long, num_args = 1.., action = ArgAction::Append)]
    each: Vec<String>,
    #[arg(long)]
    variant: Option<String>,
    #[arg(long)]
    tc: Option<String>,
    #[arg(long, alias = "st")]
    movetime: Option<String>,
    #[arg(long)]
    nodes: Option<u64>,
    #[arg(long)]
    depth: Option<u32>,
    #[arg(long, value_parser = count)]
    games: Option<u32>,
    #[arg(long, value_parser = count)]
    rounds: Option<u32>,
    #[arg(long)]
    repeat: bool,
    #[arg(long, value_parser = concurrency)]
    concurrency: Option<usize>,
    #[arg(long)]
    gauntlet: bool,
    #[arg(long, num_args = 1..)]
    openings: Option<Vec<String>>,
    #[arg(long)]
    random_plies: Option<usize>,
    #[arg(long)]
    seed: Option<u64>,
    #[arg(long, num_args = 1..)]
    draw: Option<Vec<String>>,
    #[arg(long, num_args = 1..)]
    resign: Option<Vec<String>>,
    #[arg(long, value_parser = count)]
    maxmoves: Option<u32>,
    #[arg(long)]
    timemargin: Option<u64>,
    #[arg(long)]
    hangtimeout: Option<String>,
    #[arg(long, num_args = 1..)]
    sprt: Option<Vec<String>>,
    #[arg(long)]
    pgnout: Option<String>,
    #[arg(long)]
    resume: bool,
    #[arg(long)]
    log: Option<String>,
    #[arg(long)]
    ratinginterval: Option<u64>,
    #[arg(long, num_args = 1..)]
    event: Option<Vec<String>>,
}

/// A count that must be at least 1 (`--games`, `--rounds`, `--maxmoves`).
fn count(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(0) => Err("must be at least 1 (0 would play nothing)".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// `--concurrency`: 1 to 256 games at once.
fn concurrency(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n @ 1..=256) => Ok(n),
        Ok(n) => Err(format!("{n} games at once: must be 1 to 256")),
        Err(_) => Err(format!("'{text}' is not a whole number")),
    }
}

/// cutechess-cli spells options with one dash (`-engine`); clap wants two.
/// A token of one dash and a name of two letters or more (`-engine`,
/// `-each`) becomes `--engine`; values (`score=-5`, `arg=-x`) and short
/// flags (`-h`) are left alone.
fn normalise(arg: &str) -> String {
    let name = arg.strip_prefix('-').unwrap_or("");
    let long = !name.starts_with('-')
        && name.len() >= 2
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if long {
        format!("-{arg}")
    } else {
        arg.to_string()
    }
}

/// Parses the arguments after `crown match`. `Ok(None)` means help was asked.
pub fn parse(args: &[String]) -> Result<Option<MatchConfig>, String> {
    let argv = std::iter::once("crown match".to_string()).chain(args.iter().map(|a| normalise(a)));
    let command = Args::command()
        .arg(Arg::new("engine").long("engine").num_args(1..).action(ArgAction::Append));
    let parsed =
        command.try_get_matches_from(argv).and_then(|m| Ok((Args::from_arg_matches(&m)?, m)));
    let (a, matches) = match parsed {
        Ok(a) => a,
        Err(e) if e.kind() == ErrorKind::DisplayHelp => return Ok(None),
        Err(e) => {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("bad command line");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            return Err(format!("{first} (see crown match --help)"));
        }
    };
    let mut limits = Limits::default();
    let variant = match &a.variant {
        Some(text) => text.parse::<Variant>().map_err(|e| e.to_string())?,
        None => Variant::Chess,
    };
    if let Some(text) = &a.tc {
        limits.tc = Some(TimeControl::parse(text)?);
    }
    if let Some(text) = &a.movetime {
        let time = seconds(text, "--movetime")?;
        if time.is_zero() {
            return Err("--movetime must be positive".into());
        }
        limits.movetime = Some(time);
    }
    limits.nodes = a.nodes;
    limits.depth = a.depth;
    let mut adjudication = Adjudication::default();
    if let Some(tokens) = &a.draw {
        adjudication.draw = Some(DrawRule::parse(tokens)?);
    }
    if let Some(tokens) = &a.resign {
        adjudication.resign = Some(ResignRule::parse(tokens)?);
    }
    adjudication.max_moves = a.maxmoves;
    let time_margin = match a.timemargin {
        Some(ms) => checked_seconds(ms as f64 / 1000.0, "--timemargin")?,
        None => Duration::ZERO,
    };
    let hang_timeout = match &a.hangtimeout {
        Some(text) => seconds(text, "--hangtimeout")?.max(Duration::from_millis(100)),
        None => Duration::from_secs(60),
    };
    let file_value = |v: &String| v.strip_prefix("file=").unwrap_or(v).to_string();
    let mut configs = Vec::new();
    let engines: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|groups| groups.map(|group| group.cloned().collect()).collect())
        .unwrap_or_default();
    for (i, tokens) in engines.iter().enumerate() {
        let mut config = EngineConfig { limits, ..EngineConfig::default() };
        for token in a.each.iter().chain(tokens) {
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
    Ok(Some(MatchConfig {
        engines: configs,
        variant,
        games: a.games.unwrap_or(if a.repeat { 2 } else { 1 }),
        rounds: a.rounds.unwrap_or(1),
        repeat: a.repeat,
        concurrency: a.concurrency.unwrap_or(1),
        gauntlet: a.gauntlet,
        openings: a.openings.as_deref().map(parse_openings).transpose()?,
        random_plies: a.random_plies.unwrap_or(if variant.is_chess() { 8 } else { 4 }),
        seed: a.seed.unwrap_or(0x00C0_FFEE),
        adjudication,
        time_margin,
        hang_timeout,
        sprt: a.sprt.as_deref().map(Sprt::parse).transpose()?,
        pgn_out: a.pgnout.as_ref().map(file_value),
        resume: a.resume,
        log: a.log.as_ref().map(file_value),
        rating_interval: a.ratinginterval.unwrap_or(10),
        event: a.event.map_or_else(|| "crown match".to_string(), |words| words.join(" ")),
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
             --sprt elo0=0 elo1=5 --pgnout file=out.pgn --resume --log t.log --timemargin 50 --variant chess960",
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
        assert!(c.resume);
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

    #[test]
    fn zero_counts_and_huge_times_are_refused() {
        let base = "--engine cmd=/a/e --engine cmd=/b/e --nodes 100";
        for extra in [
            "--rounds 0",
            "--games 0",
            "--concurrency 0",
            "--concurrency 257",
            "--maxmoves 0",
            "--tc 1e20+0",
            "--tc 10+1e20",
            "--movetime 1e20",
            "--movetime 0",
            "--st -1",
            "--hangtimeout 1e20",
            "--timemargin 18446744073709551615",
            "--each st=1e20",
            "--games -1",
        ] {
            let e = parse(&args(&format!("{base} {extra}"))).unwrap_err();
            assert!(!e.is_empty(), "{extra}");
        }
        let e = parse(&args(&format!("{base} --games 0"))).unwrap_err();
        assert!(e.contains("--games") && e.contains("at least 1"), "{e}");
        let e = parse(&args(&format!("{base} --tc 1e20+0"))).unwrap_err();
        assert!(e.contains("out of range"), "{e}");
    }

    #[test]
    fn groups_repeat_and_later_values_win() {
        let c = parse(&args(
            "-engine cmd=/a/e name=x -engine cmd=/b/e --each nodes=5 --each depth=3 \
             --games 3 --games 4 --event a b --draw movenumber=1 score=-5 --seed 7",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(c.engines.len(), 2);
        assert_eq!((c.engines[1].limits.nodes, c.engines[1].limits.depth), (Some(5), Some(3)));
        assert_eq!((c.games, c.event.as_str(), c.seed), (4, "a b", 7));
        assert_eq!(c.adjudication.draw.unwrap().score, 5);
    }
}
