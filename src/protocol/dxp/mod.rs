//! DamExchange (DXP): international draughts over TCP (`crown dxp`).
//!
//! * [`message`]: the typed messages and their fixed-width codec.
//! * [`framing`]: NUL-terminated frames over a byte stream, at most 127 bytes.
//! * [`game`]: one game without a socket: positions, turn, clock, move matching.
//! * [`session`]: one connection's game flow for the initiator and the follower.
//! * [`log`]: the `--log FILE` traffic log.
//!
//! Roles are independent: the process either listens (`--listen`) or connects
//! (`--connect`), and either initiates games (`--initiator`, sends GAMEREQ) or
//! follows (answers GAMEREQ). A listener serves one connection at a time and
//! goes back to listening when a connection ends, until `--games` games have
//! been played (forever by default). Nothing a peer sends can stop the
//! process: faults end the game or the connection with a logged reason, and a
//! panic inside a connection is caught and logged.
//!
//! `--colour` is *our* colour when we initiate (the GAMEREQ names the
//! follower's colour, which is the other one); a follower plays the colour the
//! GAMEREQ gives it.

pub mod framing;
pub mod game;
pub mod log;
pub mod message;
pub mod session;

#[cfg(test)]
mod codec_tests;

use crate::draughts::International;
use crate::engine::options::Change;
use crate::engine::Session;
use crate::game::{Game, Side, Variant};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The default DXP port.
pub const DEFAULT_PORT: u16 = 27531;

/// `crown dxp` command-line options.
#[derive(clap::Args, Clone, Debug)]
pub struct Options {
    /// Listen on [ADDR:]PORT (the default, on 127.0.0.1:27531).
    #[arg(long, value_name = "[ADDR:]PORT", conflicts_with = "connect")]
    pub listen: Option<String>,
    /// Connect to HOST:PORT instead of listening.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Send GAMEREQ (initiator) instead of answering it (follower).
    #[arg(long)]
    pub initiator: bool,
    /// Initiator only: the colour Crown plays (white or black); the follower
    /// is asked to play the other one.
    #[arg(long, default_value = "white")]
    pub colour: String,
    /// Initiator only: thinking time per player in minutes (0..=999).
    #[arg(long, default_value_t = 1)]
    pub minutes: u32,
    /// Initiator only: moves to be played in that time (0: whole game).
    #[arg(long, default_value_t = 75)]
    pub moves: u32,
    /// Initiator only: start from this PDN FEN instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Games to play in all, then exit (default: no limit when listening,
    /// one when connecting as initiator).
    #[arg(long)]
    pub games: Option<u32>,
    /// Our name in GAMEREQ / GAMEACC (at most 32 characters).
    #[arg(long, default_value = concat!("Crown ", env!("CARGO_PKG_VERSION")))]
    pub name: String,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = crate::engine::options::threads_arg)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64, value_parser = crate::engine::options::hash_arg)]
    pub hash: usize,
    /// Log every message sent and received, with timestamps, to this file.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Seconds the peer may stay silent when a message is due before the
    /// connection is dropped.
    #[arg(long, default_value_t = 900)]
    pub timeout: u64,
    /// Think a fixed time per move (milliseconds) instead of using the clock
    /// (tests and quick matches).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Play at this nominal Elo (1000..=2800; see README "Playing levels").
    #[arg(long, conflicts_with = "level", value_parser = clap::value_parser!(i64).range(
        crate::search::level::MIN_ELO..=crate::search::level::DRAUGHTS_MAX_ELO))]
    pub elo: Option<i64>,
    /// Play at this skill level (0..=20; 20 is full strength).
    #[arg(long, value_parser = clap::value_parser!(i64).range(0..=crate::search::level::MAX_SKILL))]
    pub level: Option<i64>,
    /// Seed of the level's random choices (0: from the clock).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The evaluation: `<embedded>` (the learned patterns in the binary),
    /// `<none>` (the hand-set evaluation) or a pattern file of
    /// `crown-tune patterns` (it replaces the patterns of its own variant).
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<String>,
    /// Play the moves of this opening book (`crown book build`) while the
    /// game is in it; a damaged or foreign file is refused with a message
    /// and the engine plays without a book.
    #[arg(long, value_name = "FILE")]
    pub book: Option<String>,
}

/// The validated settings a connection works with.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Our name.
    pub name: String,
    /// Whether we send GAMEREQ.
    pub initiator: bool,
    /// Our colour when we initiate.
    pub colour: Side,
    /// Minutes per player when we initiate.
    pub minutes: u32,
    /// Moves for that time when we initiate.
    pub moves: u32,
    /// The start position when we initiate.
    pub start: International,
    /// Fixed time per move instead of the clock.
    pub movetime: Option<Duration>,
    /// How long the peer may stay silent.
    pub timeout: Duration,
}

impl Settings {
    /// Checks the options.
    pub fn from_options(o: &Options) -> Result<Settings, String> {
        let colour = session::parse_colour(&o.colour)
            .ok_or_else(|| format!("bad colour '{}' (white or black)", o.colour))?;
        let start = match &o.fen {
            Some(fen) => International::from_fen(fen, Variant::International)
                .map_err(|e| format!("bad --fen: {e}"))?,
            None => International::start_position(),
        };
        if o.minutes > 999 || o.moves > 999 {
            return Err("--minutes and --moves must be at most 999".into());
        }
        if o.fen.is_some() {
            // The GAMEREQ must be able to carry it.
            game::setup_position(&game::setup_of(&start)).map_err(|e| e.to_string())?;
        }
        Ok(Settings {
            name: o.name.chars().take(message::NAME_LEN).collect(),
            initiator: o.initiator,
            colour,
            minutes: o.minutes,
            moves: o.moves,
            start,
            movetime: o.movetime.map(Duration::from_millis),
            timeout: Duration::from_secs(o.timeout.max(1)),
        })
    }
}

/// `[ADDR:]PORT` → an address to bind (127.0.0.1 when only a port is given).
pub fn listen_address(text: Option<&str>) -> String {
    match text {
        None => format!("127.0.0.1:{DEFAULT_PORT}"),
        Some(t) if t.chars().all(|c| c.is_ascii_digit()) => format!("127.0.0.1:{t}"),
        Some(t) => t.to_string(),
    }
}

/// Runs `crown dxp` until its games are played (or forever when listening).
/// `tables` is the root of the draughts endgame tables (`--egtb`).
pub fn run(options: &Options, tables: Option<PathBuf>) -> Result<(), String> {
    let settings = Settings::from_options(options)?;
    let log = log::Log::open(options.log.as_deref())
        .map_err(|e| format!("cannot open the log file: {e}"))?;
    let mut session = Session::new(Variant::International)?;
    // Time kept for the socket: 50 ms, less for very short fixed times.
    let overhead = settings.movetime.map_or(50, |t| (t.as_millis() as u64 / 10).min(50));
    let mut changes = vec![
        Change::Hash(options.hash),
        Change::Threads(options.threads),
        Change::MoveOverhead(overhead),
        Change::Seed(options.seed),
    ];
    match (options.elo, options.level) {
        (Some(elo), _) => {
            changes.extend([Change::Elo { elo, requested: None }, Change::LimitStrength(true)])
        }
        (None, Some(skill)) => changes.push(Change::Skill(skill)),
        (None, None) => {}
    }
    changes.extend(tables.map(|root| Change::TablesPath(root.to_string_lossy().into_owned())));
    changes.extend(options.eval_file.clone().map(Change::EvalFile));
    for change in changes {
        for note in session.apply(change)? {
            log.note(&note);
            eprintln!("{note}");
        }
    }
    // A book that is refused is said so, and the engine plays without it.
    if let Some(book) = &options.book {
        let notes = session.apply(Change::BookFile(book.clone())).unwrap_or_else(|e| vec![e]);
        for note in notes {
            log.note(&note);
            eprintln!("{note}");
        }
    }
    match &options.connect {
        Some(address) => {
            let mut games_left = options.games.or(settings.initiator.then_some(1));
            let stream = connect(address, settings.timeout)?;
            log.note(&format!("connected to {address}"));
            let reason = serve(&settings, &mut session, &log, stream, &mut games_left);
            log.note(&format!("connection ended: {reason}"));
            Ok(())
        }
        None => {
            let address = listen_address(options.listen.as_deref());
            let listener = TcpListener::bind(&address)
                .map_err(|e| format!("cannot listen on {address}: {e}"))?;
            log.note(&format!("listening on {address}"));
            let mut games_left = options.games;
            while games_left != Some(0) {
                let (stream, peer) = match listener.accept() {
                    Ok(pair) => pair,
                    Err(e) => {
                        log.note(&format!("accept failed: {e}"));
                        std::thread::sleep(Duration::from_millis(100));
                        continue;
                    }
                };
                log.note(&format!("connection from {peer}"));
                let reason = serve(&settings, &mut session, &log, stream, &mut games_left);
                log.note(&format!("connection from {peer} ended: {reason}"));
            }
            Ok(())
        }
    }
}

/// Runs one connection; a panic inside it is caught and becomes its reason.
fn serve(
    settings: &Settings,
    engine: &mut Session,
    log: &log::Log,
    stream: TcpStream,
    games_left: &mut Option<u32>,
) -> String {
    let run =
        AssertUnwindSafe(|| session::Connection::run(settings, engine, log, stream, games_left));
    std::panic::catch_unwind(run)
        .unwrap_or_else(|_| "internal error (panic) in the connection".into())
}

/// Connects to `address`, retrying for a few seconds while nobody listens.
fn connect(address: &str, timeout: Duration) -> Result<TcpStream, String> {
    let target = address
        .to_socket_addrs()
        .map_err(|e| format!("bad address {address}: {e}"))?
        .next()
        .ok_or_else(|| format!("bad address {address}"))?;
    let deadline = Instant::now() + Duration::from_secs(10).min(timeout);
    loop {
        match TcpStream::connect_timeout(&target, Duration::from_secs(5)) {
            Ok(stream) => return Ok(stream),
            Err(e) if Instant::now() >= deadline => {
                return Err(format!("cannot connect to {address}: {e}"))
            }
            Err(_) => std::thread::sleep(Duration::from_millis(100)),
        }
    }
}
