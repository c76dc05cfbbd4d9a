//! The match: openings, worker threads, live output, SPRT stop, summary.
//!
//! The games come from `schedule.rs`; their openings from the book (or
//! random openings seeded by `--seed` and the game's opening index), the
//! same on every run, so `--resume` (`resume.rs`) can check them.
//!
//! Concurrency: `concurrency` worker threads (`std::thread::scope`) take the
//! next game from a shared counter; each worker owns its engine processes and
//! keeps them between games (restarting one only after it failed). Results go
//! over a channel to the calling thread, the only one that prints, writes the
//! PGN and decides the SPRT, so output is never interleaved.
//!
//! Invariant: an engine failure ends one game, never the match; the one
//! exception is an engine whose command cannot be executed at all, which
//! would forfeit every game: that game is not scored, the games in progress
//! finish, and the match returns an error (`--resume` goes on once the
//! command is fixed), as cutechess-cli and fastchess stop.

use super::client::Client;
use super::clock::tc_text;
use super::config::MatchConfig;
use super::dxp_client::dxp_limits;
use super::engine_config::Protocol;
use super::hub_text::HubText;
use super::openings::{self, Opening, OpeningText};
use super::pgn_writer::write_game;
use super::play::{play_game, GameSettings, Played};
use super::process::TrafficLog;
use super::progress_bar::Progress;
use super::report::Report;
use super::resume::{self, Resumed};
use super::schedule::{schedule, Job};
use super::sprt::Decision;
use crate::game::Game;
use crate::rng::{Rng, GOLDEN_GAMMA};
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The process's own CPU time (user + system, all threads; engines are
/// separate processes and not included), from `/proc/self/stat`.
pub fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    // Fields 14 and 15 of stat(5); `after` starts at field 3.
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    // USER_HZ is 100 on every Linux ABI Rust supports.
    Some(Duration::from_millis((utime + stime) * 10))
}

fn context(config: &MatchConfig) -> String {
    let l = &config.engines[0].limits;
    let mut parts = Vec::new();
    if let Some(tc) = l.tc {
        parts.push(tc_text(&tc));
    }
    if let Some(mt) = l.movetime {
        parts.push(format!("st={}", mt.as_secs_f64()));
    }
    if let Some(n) = l.nodes {
        parts.push(format!("nodes={n}"));
    }
    if let Some(d) = l.depth {
        parts.push(format!("depth={d}"));
    }
    parts.push(config.variant.name().to_string());
    parts.join(", ")
}

/// Loads and checks the openings (or says that random ones will be made).
fn load_openings<G: Game>(config: &MatchConfig) -> Result<Vec<Opening<G>>, String> {
    let Some(source) = &config.openings else { return Ok(Vec::new()) };
    let text = std::fs::read_to_string(&source.file)
        .map_err(|e| format!("cannot read openings '{}': {e}", source.file))?;
    let mut list: Vec<OpeningText> = openings::load(&text, &source.format)?;
    if source.random {
        Rng::new(config.seed).shuffle(&mut list);
    }
    let skip = source.start.saturating_sub(1).min(list.len());
    list.rotate_left(skip);
    let mut book = Vec::with_capacity(list.len());
    for (i, entry) in list.iter().enumerate() {
        match openings::realise::<G>(entry, config.variant, source.plies) {
            Ok(o) => book.push(o),
            Err(e) => eprintln!("warning: opening {} skipped: {e}", i + 1),
        }
    }
    if book.is_empty() {
        return Err(format!("no usable opening in '{}'", source.file));
    }
    Ok(book)
}

fn opening_for<G: HubText>(
    config: &MatchConfig,
    book: &[Opening<G>],
    index: usize,
) -> Result<Opening<G>, String> {
    if book.is_empty() {
        let mut rng = Rng::new(config.seed ^ (index as u64).wrapping_mul(GOLDEN_GAMMA));
        openings::random_opening::<G>(config.variant, config.random_plies, &mut rng)
    } else {
        Ok(book[index % book.len()].clone())
    }
}

/// The game file (`--pgnout`), created, or with `--resume` opened for
/// appending after its complete games, which are returned to count again.
fn open_games_file<G: HubText>(
    config: &MatchConfig,
    jobs: &[Job],
    book: &[Opening<G>],
    names: &[String],
) -> Result<(Option<File>, Vec<Resumed>), String> {
    let Some(path) = &config.pgn_out else {
        if config.resume {
            return Err("--resume needs --pgnout FILE (the games to go on from)".into());
        }
        return Ok((None, Vec::new()));
    };
    let existing = match std::fs::read(path) {
        Ok(bytes) if config.resume => Some(bytes),
        Err(e) if config.resume && e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("cannot read '{path}': {e}"))
        }
        _ => None,
    };
    let Some(bytes) = existing else {
        let file = File::create(path).map_err(|e| format!("cannot create '{path}': {e}"))?;
        return Ok((Some(file), Vec::new()));
    };
    let text = String::from_utf8(bytes).map_err(|_| format!("'{path}' is not UTF-8 text"))?;
    let opening_of = |job: &Job| {
        let Ok(opening) = opening_for::<G>(config, book, job.opening) else {
            return (None, Vec::new());
        };
        let mut pos = opening.start.clone();
        let mut moves = Vec::new();
        for &mv in &opening.moves {
            moves.push(crate::chess::san::san(&pos, mv));
            pos.play(mv);
        }
        ((!opening.standard_start).then(|| opening.start.to_fen()), moves)
    };
    let found = resume::read(&text, jobs, names, opening_of)
        .map_err(|e| format!("cannot resume from '{path}': {e}"))?;
    // Drop a game the stop cut off, then append after the rest.
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| {
            f.set_len(found.keep as u64)?;
            std::io::Seek::seek(&mut f, std::io::SeekFrom::End(0))?;
            Ok(f)
        })
        .map_err(|e| format!("cannot append to '{path}': {e}"))?;
    Ok((Some(file), found.games))
}

/// What a match ended with.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    /// Games played.
    pub games: u64,
    /// The SPRT decision, if one ran.
    pub sprt: Option<Decision>,
    /// Engine moves played.
    pub engine_moves: u64,
    /// The runner's own CPU time over the match, when measurable.
    pub runner_cpu: Option<Duration>,
    /// Games by PGN termination tag.
    pub terminations: Vec<(String, u64)>,
}

/// Runs a whole match with the rules of `G`, printing as it goes (plain
/// lines, no progress bar).
pub fn run<G: HubText>(config: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, String> {
    run_shown::<G>(config, out, false)
}

/// [`run`], with a progress bar on stdout when `bar` and stdout is a
/// terminal (`crown match` asks for it; see `progress_bar.rs`).
pub fn run_shown<G: HubText>(
    config: &MatchConfig,
    out: &mut dyn Write,
    bar: bool,
) -> Result<MatchSummary, String> {
    if config.engines.len() < 2 {
        return Err("a match needs at least two engines (--engine ... --engine ...)".to_string());
    }
    for e in &config.engines {
        if e.limits.is_empty() {
            return Err(format!(
                "engine {} has no limit: give --tc, --movetime, --nodes or --depth",
                e.name
            ));
        }
    }
    // DXP engines play the closest control GAMEREQ can carry, and the
    // runner's clock for them is that control (see `dxp_client.rs`).
    let mut adjusted = config.clone();
    for e in &mut adjusted.engines {
        if e.protocol == Protocol::Dxp {
            let (limits, note) = dxp_limits(&e.limits);
            e.limits = limits;
            if let Some(note) = note {
                let _ = writeln!(out, "Note: engine {} (DXP) plays {note}", e.name);
            }
        }
    }
    let config = &adjusted;
    let book = load_openings::<G>(config)?;
    let log = match &config.log {
        Some(path) => {
            TrafficLog::to_file(path).map_err(|e| format!("cannot create log '{path}': {e}"))?
        }
        None => TrafficLog::default(),
    };
    let jobs = schedule(config);
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let (mut pgn, resumed) = open_games_file::<G>(config, &jobs, &book, &names)?;
    let settings = GameSettings {
        variant: config.variant,
        adjudication: config.adjudication,
        time_margin: config.time_margin,
        hang_timeout: config.hang_timeout,
        log,
    };
    let mut report = Report::new(names.clone(), config.sprt);
    let mut done = vec![false; jobs.len()];
    for r in &resumed {
        let job = &jobs[r.job];
        report.add(job.white, job.black, r.result, r.termination, job.pair);
        done[r.job] = true;
    }
    let todo: Vec<Job> = jobs.iter().zip(&done).filter(|(_, &d)| !d).map(|(j, _)| *j).collect();
    let next = AtomicUsize::new(0);
    // The games of the file may already have decided the SPRT.
    let decided = matches!(report.sprt_decision(), Some(Decision::H0 | Decision::H1));
    let stop = AtomicBool::new(decided);
    // Lazily built rule tables (chess magics) are initialised here, before
    // the measurement starts: the figure reported is the per-move cost.
    let mut warm = G::MoveList::default();
    G::start(config.variant).generate(&mut warm);
    let cpu_start = process_cpu_time();
    let wall = Instant::now();
    let ctx = context(config);
    let mut engine_moves = 0u64;
    let mut halted: Option<String> = None;
    let (tx, rx) = mpsc::channel::<(Job, Result<Played, String>)>();
    let _ = writeln!(
        out,
        "Started match: {} games, {} engines, {ctx}, concurrency {}",
        jobs.len(),
        config.engines.len(),
        config.concurrency
    );
    if config.resume {
        let _ = writeln!(
            out,
            "Resumed: {} games from the file count again, {} to play{}",
            resumed.len(),
            todo.len(),
            if decided { "; the SPRT is already decided" } else { "" }
        );
        if !resumed.is_empty() {
            let _ = write!(out, "{}", report.all_blocks(&ctx));
        }
    }
    let progress = Progress::new(jobs.len() as u64, bar);
    std::thread::scope(|scope| {
        for worker in 0..config.concurrency.max(1).min(todo.len().max(1)) {
            let tx = tx.clone();
            let (jobs, next, stop, settings, book) = (&todo, &next, &stop, &settings, &book);
            let builder = std::thread::Builder::new().name(format!("match-worker-{worker}"));
            let spawned = builder.spawn_scoped(scope, move || {
                let mut players: Vec<Option<Box<dyn Client>>> =
                    config.engines.iter().map(|_| None).collect();
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&job) = jobs.get(i) else { break };
                    let played = opening_for::<G>(config, book, job.opening).map(|opening| {
                        let (w, b) = (job.white, job.black);
                        let (mut pw, mut pb) = (players[w].take(), players[b].take());
                        let played = play_game(
                            settings,
                            [&config.engines[w], &config.engines[b]],
                            [&mut pw, &mut pb],
                            &opening,
                            job.number,
                            job.round,
                        );
                        for (slot, idx, restart) in
                            [(pw, w, played.restart[0]), (pb, b, played.restart[1])]
                        {
                            if restart {
                                drop(slot); // kills the process; a fresh one starts next game
                            } else {
                                players[idx] = slot;
                            }
                        }
                        played
                    });
                    // Stop taking games at once: the engine cannot run in any.
                    if matches!(&played, Ok(p) if p.cannot_run.is_some()) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    if tx.send((job, played)).is_err() {
                        break;
                    }
                }
                for p in players.into_iter().flatten() {
                    p.quit();
                }
            });
            if let Err(e) = spawned {
                let _ = writeln!(out, "warning: cannot start worker thread: {e}");
            }
        }
        drop(tx);
        for (job, played) in rx {
            progress.suspend(|| {
                after_game(
                    config,
                    &mut report,
                    &stop,
                    &ctx,
                    &mut pgn,
                    &mut engine_moves,
                    &mut halted,
                    out,
                    job,
                    played,
                )
            });
            progress.update(report.finished, &names[0], &report.totals[0]);
        }
    });
    progress.finish();
    let runner_cpu = match (cpu_start, process_cpu_time()) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let last_block = config.rating_interval > 0 && report.finished % config.rating_interval == 0;
    if !last_block || report.finished == 0 {
        let _ = write!(out, "{}", report.all_blocks(&ctx));
    }
    if let Some(d) = report.sprt_decision() {
        let text = match d {
            Decision::H0 => "H0 accepted",
            Decision::H1 => "H1 accepted",
            Decision::Continue => "no decision (bounds not crossed)",
        };
        let _ = writeln!(out, "SPRT: {text}");
    }
    let _ = write!(out, "{}", report.table());
    let _ = write!(
        out,
        "Finished match: {} games in {:.1}s",
        report.finished,
        wall.elapsed().as_secs_f64()
    );
    if let Some(cpu) = runner_cpu.filter(|_| engine_moves > 0) {
        let per_move = cpu.as_secs_f64() * 1e6 / engine_moves.max(1) as f64;
        let _ = write!(
            out,
            "; runner CPU {:.0} ms for {engine_moves} engine moves ({per_move:.0} us/move)",
            cpu.as_secs_f64() * 1e3
        );
    }
    let _ = writeln!(out);
    let mut terminations: Vec<(String, u64)> =
        report.terminations.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    terminations.sort();
    if let Some(why) = halted {
        return Err(format!(
            "{why}; the match stopped after {} games (fix the command and go on with --resume)",
            report.finished
        ));
    }
    Ok(MatchSummary {
        games: report.finished,
        sprt: report.sprt_decision(),
        engine_moves,
        runner_cpu,
        terminations,
    })
}

/// Records and prints one finished game (or why it was skipped), writes it
/// to the PGN/PDN file, and raises `stop` when the SPRT crossed a bound;
/// an engine that cannot be run is kept in `halted` (which and why).
#[allow(clippy::too_many_arguments)]
fn after_game(
    config: &MatchConfig,
    report: &mut Report,
    stop: &AtomicBool,
    ctx: &str,
    pgn: &mut Option<File>,
    engine_moves: &mut u64,
    halted: &mut Option<String>,
    out: &mut dyn Write,
    job: Job,
    played: Result<Played, String>,
) {
    let played = match played {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(out, "Game {} skipped: {e}", job.number);
            return;
        }
    };
    if let Some(why) = played.cannot_run {
        // The worker has already raised `stop`.
        let _ = writeln!(out, "Game {} not played: {why}; stopping the match", job.number);
        halted.get_or_insert(why);
        let _ = out.flush();
        return;
    }
    *engine_moves += played.engine_moves;
    let rec = &played.record;
    report.add(job.white, job.black, rec.result, rec.termination, job.pair);
    let result = if config.variant.is_chess() { rec.result.pgn() } else { rec.result.pdn() };
    let _ =
        write!(out, "{}", report.game_line(job.number, job.white, job.black, result, &rec.reason));
    if let Some(f) = pgn.as_mut() {
        let _ = f.write_all(write_game(rec, &config.event).as_bytes());
        let _ = f.flush();
    }
    if config.rating_interval > 0 && report.finished % config.rating_interval == 0 {
        let _ = write!(out, "{}", report.all_blocks(ctx));
    }
    if matches!(report.sprt_decision(), Some(Decision::H0 | Decision::H1))
        && !stop.swap(true, Ordering::Relaxed)
    {
        let _ = writeln!(out, "SPRT: a bound was crossed; finishing the games in progress");
    }
    let _ = out.flush();
}
