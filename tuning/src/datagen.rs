//! Self-play data generation: games at a fixed node budget per move from
//! random or book openings, every quiet position labelled with the search
//! score and the game's result, appended to a file game by game.
//!
//! * Output: chess and Chess960 write 32-byte [`ChessRecord`]s (`.crb`, the
//!   network trainer's input); the draughts variants write the text lines
//!   of [`crate::data`], which the Texel tuner reads (it reads `.crb` too).
//!   The choice is the game's [`Encode`] impl, fixed per type.
//! * Search: one thread per game, a fresh table (4 MB) and worker per game
//!   with the build's starting evaluations or those of `eval_file` (a
//!   candidate net plays its own data before it is embedded),
//!   a soft node limit (no new iteration once `nodes` are spent: the
//!   [`SoftLimit`] reporter raises the stop flag after a finished iteration)
//!   and a hard one (`nodes * hard_factor`, the search's own node limit).
//! * Openings: `random_plies` random moves kept when a short search finds
//!   them balanced (`tournament::openings::Balance`), or a book line.
//! * Adjudication: a win once |score| >= `resign_score` for `resign_plies`
//!   plies in a row; a draw at `max_plies`, or once |score| <= `draw_score`
//!   for `draw_plies` plies in a row after ply `draw_after`.
//! * Kept positions ([`keep`]): not in check, the chosen move neither a
//!   capture nor a promotion, the score not a mate.
//!
//! Invariants: game `i` depends only on the arguments and `i` (its own
//! generator seeded by the seed and `i`; node limits, never a clock; one
//! search thread), and games are appended in index order whatever the
//! number of threads, so a file is the same for 1 or N threads and a
//! resumed run ([`crate::resume_point`]) equals an uninterrupted one.

use crate::data::Record;
use crate::record::ChessRecord;
use crate::resume_point::{self, ResumePoint};
use crown::checksum::{fnv1a64, FNV1A64_START};
use crown::engine::options::{EMBEDDED_NET, NO_NET};
use crown::eval::{Learned, Tunable};
use crown::game::{Game, GameResult, Outcome, Side, Variant};
use crown::rng::{Rng, GOLDEN_GAMMA};
use crown::score::{is_mate, Score};
use crown::search::tt::TranspositionTable;
use crown::search::{Info, Limits, Reporter, ScoreBound, Signals, Worker};
use crown::tournament::openings::{self, Balance, OpeningText};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game (chess, chess960, a draughts variant).
    pub variant: Variant,
    /// Games in the file when the run ends (0: no limit).
    pub games: u64,
    /// Stop once the file holds this many positions (0: no limit).
    pub positions: u64,
    /// Soft node limit per move: no new iteration after this many.
    pub nodes: u64,
    /// The hard limit is `nodes * hard_factor`.
    pub hard_factor: u64,
    /// Random plies of a random opening (when no book is given).
    pub random_plies: usize,
    /// Book openings to draw from instead of random ones.
    pub book: Vec<OpeningText>,
    /// Seed of every random choice.
    pub seed: u64,
    /// Games played at once (one search thread each).
    pub threads: usize,
    /// Plies after which a game is drawn.
    pub max_plies: usize,
    /// A win once |score| >= this (White's view) ...
    pub resign_score: Score,
    /// ... for this many plies in a row.
    pub resign_plies: usize,
    /// A draw once |score| <= this ...
    pub draw_score: Score,
    /// ... for this many plies in a row ...
    pub draw_plies: usize,
    /// ... from this ply on.
    pub draw_after: usize,
    /// The evaluations to play with instead of the build's starting ones.
    pub eval_file: Option<EvalFile>,
}

/// An `EvalFile` value (`crown::engine::learned`) the games are played with.
#[derive(Clone)]
pub struct EvalFile {
    /// The value as given: a path, `<none>` or `<embedded>`.
    pub name: String,
    /// FNV-1a of the file (`<embedded>`: of the files the build embeds;
    /// `<none>`: of the name): a resumed file goes on with the same
    /// evaluation only.
    pub hash: u64,
    /// What it loads.
    pub learned: Learned,
}

impl EvalFile {
    /// Loads `name` as the engine's `EvalFile` option would; the message
    /// says what is in use.
    pub fn load(name: &str) -> Result<(EvalFile, String), String> {
        let (learned, note) = crown::engine::learned::load(name, &Learned::starting())?;
        let bytes = match name.trim() {
            NO_NET => NO_NET.as_bytes().to_vec(),
            // What this build embeds: another build's is another player.
            EMBEDDED_NET => {
                let mut bytes = EMBEDDED_NET.as_bytes().to_vec();
                bytes.extend_from_slice(crown::eval::nnue::DEFAULT_NET);
                for (_, file) in crown::eval::draughts::patterns::EMBEDDED {
                    bytes.extend_from_slice(file);
                }
                bytes
            }
            path => std::fs::read(path).map_err(|e| format!("EvalFile {path}: {e}"))?,
        };
        let hash = fnv1a64(FNV1A64_START, &bytes);
        Ok((EvalFile { name: name.trim().to_string(), hash, learned }, note))
    }
}

impl std::fmt::Debug for EvalFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EvalFile({}, {:016x})", self.name, self.hash)
    }
}

impl Config {
    /// Every argument that changes the games, as one line (the resume
    /// check): not the limits on games or positions, not the threads. The
    /// build's own evaluation is not named (files made before
    /// `eval_file` existed resume), an `eval_file` is, by its hash.
    pub fn signature(&self) -> String {
        let mut book = FNV1A64_START; // over the book text
        for opening in &self.book {
            book = fnv1a64(book, format!("{:?} {:?};", opening.fen, opening.moves).as_bytes());
        }
        let eval = match &self.eval_file {
            Some(file) => format!(" eval={:016x}", file.hash),
            None => String::new(),
        };
        format!(
            "variant={} nodes={} hard={} random_plies={} book={}:{book:016x} seed={} \
             max_plies={} resign={}/{} draw={}/{}/{} format=1{eval}",
            self.variant.name(),
            self.nodes,
            self.nodes.saturating_mul(self.hard_factor),
            self.random_plies,
            self.book.len(),
            self.seed,
            self.max_plies,
            self.resign_score,
            self.resign_plies,
            self.draw_score,
            self.draw_plies,
            self.draw_after
        )
    }
}

/// How a game's positions are written: the one place the output format
/// depends on the game.
pub trait Encode: Tunable + Balance {
    /// Appends one labelled position (score from White's view).
    fn encode(&self, white_score: Score, result: GameResult, out: &mut Vec<u8>);
}

impl Encode for crown::chess::Position {
    fn encode(&self, white_score: Score, result: GameResult, out: &mut Vec<u8>) {
        out.extend_from_slice(&ChessRecord::from_position(self, white_score, result).to_bytes());
    }
}

impl<R: crown::draughts::rules::Rules> Encode for crown::draughts::Position<R> {
    fn encode(&self, white_score: Score, result: GameResult, out: &mut Vec<u8>) {
        let result = match result {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        };
        let line = Record { fen: self.to_fen(), score: white_score, result }.line();
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
    }
}

/// Raises the stop flag after the first finished iteration that has spent
/// the soft node budget: the search then ends at its next node with that
/// iteration's move and score.
pub struct SoftLimit {
    /// Nodes after which no new iteration starts.
    pub nodes: u64,
    /// The search's signals.
    pub signals: Arc<Signals>,
}

impl<G: Game> Reporter<G> for SoftLimit {
    fn info(&self, _root: &G, info: &Info<G::Move>) {
        if info.bound == ScoreBound::Exact && info.nodes >= self.nodes {
            self.signals.stop.store(true, Ordering::Relaxed);
        }
    }

    fn best_move(&self, _root: &G, _best: Option<G::Move>, _ponder: Option<G::Move>) {}
}

/// Whether a searched position is kept: not in check, the chosen move
/// quiet (no capture, no promotion), the score not a mate.
pub fn keep<G: Game>(pos: &G, best: G::Move, score: Score) -> bool {
    !pos.in_check() && !pos.is_tactical(best) && !is_mate(score)
}

/// One finished game: its encoded positions and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The encoded kept positions, in game order.
    pub bytes: Vec<u8>,
    /// Number of kept positions.
    pub positions: u64,
    /// The game's result.
    pub result: GameResult,
}

/// Plays game number `index`.
pub fn play_game<G: Encode>(config: &Config, index: u64) -> Result<Played, String> {
    let mut rng = Rng::new(config.seed ^ index.wrapping_mul(GOLDEN_GAMMA));
    let opening = if config.book.is_empty() {
        openings::random_opening::<G>(config.variant, config.random_plies, &mut rng)?
    } else {
        let text = &config.book[rng.below(config.book.len())];
        openings::realise::<G>(text, config.variant, None)?
    };
    let mut pos = opening.start;
    let mut history = Vec::new();
    for mv in opening.moves {
        history.push(pos.hash());
        pos.play(mv);
    }
    let tt = Arc::new(TranspositionTable::new(4).map_err(|e| e.to_string())?);
    let signals = Arc::new(Signals::default());
    let mut worker = Worker::<G>::new(0, tt, signals.clone());
    if let Some(file) = &config.eval_file {
        worker.set_learned(&file.learned);
    }
    let hard = config.nodes.saturating_mul(config.hard_factor.max(1));
    let limits = Limits { nodes: Some(hard), ..Limits::default() };
    let soft = SoftLimit { nodes: config.nodes, signals: signals.clone() };
    let mut kept: Vec<(G, Score)> = Vec::new();
    let mut win_streak = (0, 0usize); // (sign of the decisive score, plies)
    let mut draw_streak = 0usize;
    let result = loop {
        if let Some(outcome) = pos.outcome(&history) {
            break match outcome {
                Outcome::Win(Side::White) => GameResult::WhiteWins,
                Outcome::Win(Side::Black) => GameResult::BlackWins,
                Outcome::Draw(_) => GameResult::Draw,
            };
        }
        if history.len() >= config.max_plies {
            break GameResult::Draw;
        }
        signals.stop.store(false, Ordering::Relaxed);
        signals.nodes.store(0, Ordering::Relaxed);
        let found = worker.think(&pos, &history, &limits, &soft, Instant::now());
        let Some(&mv) = found.pv.first() else { break GameResult::Draw };
        let white = if pos.side_to_move() == Side::White { found.score } else { -found.score };
        if keep(&pos, mv, found.score) {
            kept.push((pos.clone(), white));
        }
        let sign =
            if is_mate(white) || white.abs() >= config.resign_score { white.signum() } else { 0 };
        win_streak =
            if sign != 0 && sign == win_streak.0 { (sign, win_streak.1 + 1) } else { (sign, 1) };
        if win_streak.0 != 0 && win_streak.1 >= config.resign_plies {
            break if win_streak.0 > 0 { GameResult::WhiteWins } else { GameResult::BlackWins };
        }
        draw_streak = if white.abs() <= config.draw_score { draw_streak + 1 } else { 0 };
        if history.len() >= config.draw_after && draw_streak >= config.draw_plies {
            break GameResult::Draw;
        }
        history.push(pos.hash());
        pos.play(mv);
    };
    let mut bytes = Vec::new();
    for (pos, score) in &kept {
        pos.encode(*score, result, &mut bytes);
    }
    Ok(Played { bytes, positions: kept.len() as u64, result })
}

/// Where a run stands, for the progress line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    /// The file's totals.
    pub progress: ResumePoint,
    /// Positions written by this run (not before a resume).
    pub new_positions: u64,
    /// Time since this run started.
    pub elapsed: Duration,
}

impl Status {
    /// One progress line: games, positions, results, positions per second
    /// of this run, and the time left to reach the target.
    pub fn line(&self, config: &Config) -> String {
        let p = &self.progress;
        let secs = self.elapsed.as_secs_f64().max(1e-9);
        let rate = self.new_positions as f64 / secs;
        let left = if config.positions > 0 {
            config.positions.saturating_sub(p.positions) as f64 / rate.max(1e-9)
        } else if config.games > 0 && p.positions > 0 {
            let per_game = p.positions as f64 / p.games().max(1) as f64;
            config.games.saturating_sub(p.games()) as f64 * per_game / rate.max(1e-9)
        } else {
            f64::NAN
        };
        let eta = if left.is_finite() && self.new_positions > 0 {
            let s = left as u64;
            format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
        } else {
            "?".to_string()
        };
        format!(
            "games {} positions {} (+{} ={} -{}) {:.0} positions/s, ETA {eta}",
            p.games(),
            p.positions,
            p.results[0],
            p.results[1],
            p.results[2],
            rate
        )
    }
}

fn done(config: &Config, p: &ResumePoint) -> bool {
    (config.games > 0 && p.games() >= config.games)
        || (config.positions > 0 && p.positions >= config.positions)
}

/// Plays games on `config.threads` threads and appends them to `out` in
/// index order, resuming where its sidecar says (see [`crate::resume_point`]).
/// `report` gets the status every `every` and at the end; `warn` gets a
/// message when a torn tail is cut.
pub fn run<G: Encode>(
    config: &Config,
    out: &Path,
    every: Duration,
    mut report: impl FnMut(&Status),
    warn: impl FnMut(&str),
) -> Result<Status, String> {
    if config.games == 0 && config.positions == 0 {
        return Err("give --games or --positions (or both)".to_string());
    }
    let (mut file, mut progress) = resume_point::open(out, &config.signature(), warn)?;
    let start = Instant::now();
    let mut status =
        Status { progress: progress.clone(), new_positions: 0, elapsed: start.elapsed() };
    if done(config, &progress) {
        return Ok(status);
    }
    let next = Arc::new(AtomicU64::new(progress.next_game));
    let stop = Arc::new(AtomicBool::new(false));
    let last = if config.games > 0 {
        config.games - progress.games() + progress.next_game
    } else {
        u64::MAX
    };
    let (sender, receiver) = mpsc::channel::<(u64, Result<Played, String>)>();
    let mut handles = Vec::new();
    for _ in 0..config.threads.max(1) {
        let (next, stop, sender, config) =
            (next.clone(), stop.clone(), sender.clone(), config.clone());
        let handle = std::thread::Builder::new()
            .name("datagen".to_string())
            .stack_size(crown::engine::pool::STACK_SIZE)
            .spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= last {
                    break;
                }
                if sender.send((index, play_game::<G>(&config, index))).is_err() {
                    break;
                }
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        handles.push(handle);
    }
    drop(sender);
    let mut waiting = BTreeMap::new();
    let mut last_report = Instant::now();
    let mut outcome = Ok(());
    loop {
        match receiver.recv_timeout(every) {
            Ok((index, played)) => {
                waiting.insert(index, played);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        // Append every game that is next in line.
        while let Some(played) = waiting.remove(&progress.next_game) {
            if done(config, &progress) {
                break;
            }
            let played = match played {
                Ok(p) => p,
                Err(e) => {
                    outcome = Err(format!("game {}: {e}", progress.next_game));
                    break;
                }
            };
            let written = file
                .write_all(&played.bytes)
                .and_then(|()| file.flush())
                .map_err(|e| format!("cannot write {}: {e}", out.display()));
            if let Err(e) = written {
                outcome = Err(e);
                break;
            }
            progress.next_game += 1;
            progress.bytes += played.bytes.len() as u64;
            progress.positions += played.positions;
            status.new_positions += played.positions;
            progress.results[match played.result {
                GameResult::WhiteWins => 0,
                GameResult::Draw => 1,
                GameResult::BlackWins => 2,
            }] += 1;
            if let Err(e) = resume_point::save(out, &progress) {
                outcome = Err(e);
                break;
            }
        }
        status.progress = progress.clone();
        status.elapsed = start.elapsed();
        if outcome.is_err() || done(config, &progress) {
            break;
        }
        if last_report.elapsed() >= every {
            report(&status);
            last_report = Instant::now();
        }
    }
    stop.store(true, Ordering::Relaxed);
    drop(receiver);
    for handle in handles {
        let _ = handle.join();
    }
    outcome?;
    status.elapsed = start.elapsed();
    report(&status);
    Ok(status)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::parse_records;
    use crown::chess::Position;
    use std::path::PathBuf;

    fn config(variant: Variant) -> Config {
        Config {
            variant,
            games: 4,
            positions: 0,
            nodes: 400,
            hard_factor: 4,
            random_plies: 6,
            book: Vec::new(),
            seed: 7,
            threads: 2,
            max_plies: 60,
            resign_score: 1000,
            resign_plies: 6,
            draw_score: 10,
            draw_plies: 20,
            draw_after: 40,
            eval_file: None,
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("crown-datagen-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(resume_point::sidecar(&path));
        path
    }

    fn generate(config: &Config, name: &str) -> (Vec<u8>, Status) {
        let out = scratch(name);
        let status =
            run::<Position>(config, &out, Duration::from_secs(60), |_| {}, |w| panic!("{w}"))
                .unwrap();
        (std::fs::read(&out).unwrap(), status)
    }

    #[test]
    fn deterministic_and_filtered() {
        for variant in [Variant::Chess, Variant::Chess960] {
            let config = config(variant);
            let (two, status) = generate(&config, &format!("{}-2.crb", variant.name()));
            assert_eq!(status.progress.games(), 4);
            let records = parse_records(&two).unwrap();
            assert_eq!(records.len() as u64, status.progress.positions);
            assert!(records.len() > 20, "{variant:?}: only {} positions", records.len());
            for r in &records {
                assert!(!r.to_position().unwrap().in_check());
                assert!(!is_mate(i32::from(r.score)));
                assert_eq!(r.chess960, variant == Variant::Chess960);
            }
            let (one, _) =
                generate(&Config { threads: 1, ..config }, &format!("{}-1.crb", variant.name()));
            assert_eq!(one, two, "{variant:?}: one thread and two differ");
        }
    }

    #[test]
    fn resume_equals_one_run() {
        let config = config(Variant::Chess);
        let (whole, _) = generate(&Config { games: 5, ..config.clone() }, "whole.crb");
        // Two games, then a torn write, then the rest.
        let out = scratch("resumed.crb");
        let quiet = |_: &Status| {};
        run::<Position>(&Config { games: 2, ..config.clone() }, &out, Duration::MAX, quiet, |w| {
            panic!("{w}")
        })
        .unwrap();
        let mut file = std::fs::OpenOptions::new().append(true).open(&out).unwrap();
        file.write_all(&[1u8; 45]).unwrap();
        drop(file);
        let mut warnings = Vec::new();
        let status = run::<Position>(
            &Config { games: 5, threads: 1, ..config.clone() },
            &out,
            Duration::MAX,
            quiet,
            |w| warnings.push(w.to_string()),
        )
        .unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("ignoring 45 bytes"), "{}", warnings[0]);
        assert_eq!(status.progress.games(), 5);
        assert_eq!(std::fs::read(&out).unwrap(), whole);
        // Finished: the same command again changes nothing.
        let again = run::<Position>(
            &Config { games: 5, ..config.clone() },
            &out,
            Duration::MAX,
            quiet,
            |w| panic!("{w}"),
        )
        .unwrap();
        assert_eq!(again.new_positions, 0);
        assert_eq!(std::fs::read(&out).unwrap(), whole);
        // Other arguments are refused and change nothing.
        let other = Config { games: 6, nodes: 500, ..config.clone() };
        let err = run::<Position>(&other, &out, Duration::MAX, quiet, |_| {}).unwrap_err();
        assert!(err.contains("other arguments"), "{err}");
        assert_eq!(std::fs::read(&out).unwrap(), whole);
        // A position target stops after the game that reaches it: a prefix.
        let (part, status) =
            generate(&Config { games: 0, positions: 30, ..config }, "positions.crb");
        assert!(status.progress.positions >= 30 && status.progress.games() < 5);
        assert_eq!(&whole[..part.len()], &part[..]);
    }

    #[test]
    fn an_eval_file_plays_the_games_and_binds_the_file() {
        let config = Config { games: 2, ..config(Variant::Chess) };
        let with = |name: &str| {
            let (file, note) = EvalFile::load(name).unwrap();
            (Config { eval_file: Some(file), ..config.clone() }, note)
        };
        let net = concat!(env!("CARGO_MANIFEST_DIR"), "/../src/eval/nnue/default.nnue");
        let (from_file, note) = with(net);
        assert!(note.contains("network with"), "{note}");
        let (embedded, _) = with("<embedded>");
        let (hand_set, _) = with("<none>");
        let (a, _) = generate(&from_file, "eval-file.crb");
        let (b, _) = generate(&embedded, "eval-embedded.crb");
        assert_eq!(a, b, "the embedded net and its file play the same games");
        let out = scratch("eval-none.crb");
        run::<Position>(&hand_set, &out, Duration::MAX, |_| {}, |w| panic!("{w}")).unwrap();
        let c = std::fs::read(&out).unwrap();
        assert_ne!(a, c, "the hand-set evaluation plays other games");
        // A file goes on with its own evaluation only.
        let more = Config { games: 3, ..from_file };
        let err = run::<Position>(&more, &out, Duration::MAX, |_| {}, |_| {}).unwrap_err();
        assert!(err.contains("other arguments"), "{err}");
        assert_eq!(std::fs::read(&out).unwrap(), c);
        // What is no evaluation is refused.
        let err = EvalFile::load(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap_err();
        assert!(err.contains("neither a Crown chess network"), "{err}");
        assert!(EvalFile::load("/no/such/net.nnue").is_err());
    }

    #[test]
    fn the_filters() {
        let pos = |fen: &str| Position::from_fen(fen, Variant::Chess).unwrap();
        let mv = |p: &Position, text: &str| p.parse_move(text).unwrap();
        let quiet = pos("4k3/8/8/3p4/8/8/1P6/R3K3 w - - 0 1");
        assert!(keep(&quiet, mv(&quiet, "a1a7"), 35));
        assert!(!keep(&quiet, mv(&quiet, "a1a7"), crown::score::MATE - 5), "mate score");
        assert!(!keep(&quiet, mv(&quiet, "a1a7"), -crown::score::MATE + 8), "mated score");
        let capture = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        assert!(!keep(&capture, mv(&capture, "e4d5"), 0), "capture");
        assert!(keep(&capture, mv(&capture, "e4e5"), 0));
        let promotion = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
        assert!(!keep(&promotion, mv(&promotion, "b7b8q"), 0), "promotion");
        let check = pos("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        assert!(!keep(&check, mv(&check, "e1d1"), 0), "in check");
    }

    #[test]
    fn soft_limit_ends_after_an_iteration() {
        let pos = Position::start(Variant::Chess);
        let tt = Arc::new(TranspositionTable::new(4).unwrap());
        let signals = Arc::new(Signals::default());
        let mut worker = Worker::<Position>::new(0, tt, signals.clone());
        let limits = Limits { nodes: Some(10_000_000), ..Limits::default() };
        let soft = SoftLimit { nodes: 3000, signals: signals.clone() };
        let found = worker.think(&pos, &[], &limits, &soft, Instant::now());
        assert!(found.nodes >= 3000, "stopped before the soft limit: {}", found.nodes);
        assert!(found.nodes < 100_000, "soft limit ignored: {} nodes", found.nodes);
        assert!(found.depth >= 2 && !found.pv.is_empty());
    }

    #[test]
    fn draughts_write_text_lines() {
        let config = Config { games: 1, threads: 1, ..config(Variant::International) };
        let out = scratch("international.txt");
        let status = run::<crown::draughts::International>(
            &config,
            &out,
            Duration::MAX,
            |_| {},
            |w| panic!("{w}"),
        )
        .unwrap();
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(text.lines().count() as u64, status.progress.positions);
        assert!(status.progress.positions > 5);
        for line in text.lines() {
            let record = Record::parse(line).unwrap().unwrap();
            assert!(record.fen.starts_with('W') || record.fen.starts_with('B'), "{line}");
        }
    }
}
