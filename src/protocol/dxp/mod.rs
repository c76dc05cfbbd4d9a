//! DamExchange (DXP): international draughts over TCP (`crown dxp`).
//!
//! * [`message`]: the typed messages and their fixed-width codec.
//! * [`framing`]: NUL-terminated frames over a byte stream, at most 127 bytes.
//! * [`game`]: one game without a socket: positions, turn, clock, move matching.
//! * [`session`]: one connection's game flow for the initiator and the follower.
//! * [`log`]: the `--log FILE` traffic log.
//! * [`flags`]: the engine options as flags (`--hash`, `--elo`, ...), made
//!   from the option table.
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

pub mod connection;
pub mod flags;
pub mod framing;
pub mod game_state;
pub mod log;
pub mod message;

#[cfg(test)]
mod codec_tests;

use crate::draughts::International;
use crate::engine::options::{self as opt, Change, Value};
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
    /// Our name in GAMEREQ / GAMEACC (at most 32 printable ASCII
    /// characters; a longer or other name is refused).
    #[arg(long, default_value = concat!("Crown ", env!("CARGO_PKG_VERSION")))]
    pub name: String,
    /// The engine options (`--threads`, `--hash`, `--elo`, `--level`,
    /// `--seed`, `--eval-file`, `--book`: those of the option table with a
    /// DXP flag).
    #[command(flatten)]
    pub engine: flags::Flags,
    /// Log every message sent and received, with timestamps, to this file.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Seconds the peer may stay silent when a message is due before the
    /// connection is dropped (at least 1).
    #[arg(long, default_value_t = 900)]
    pub timeout: u64,
    /// Think a fixed time per move (milliseconds) instead of using the clock
    /// (tests and quick matches).
    #[arg(long)]
    pub movetime: Option<u64>,
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
        let colour = connection::parse_colour(&o.colour)
            .ok_or_else(|| format!("bad colour '{}' (white or black)", o.colour))?;
        let start = match &o.fen {
            Some(fen) => International::from_fen(fen, Variant::International)
                .map_err(|e| format!("bad --fen: {e}"))?,
            None => International::start_position(),
        };
        if o.minutes > 999 || o.moves > 999 {
            return Err("--minutes and --moves must be at most 999".into());
        }
        // A name the messages cannot carry as given is refused, never cut
        // or rewritten unseen.
        let printable = o.name.chars().all(|c| (' '..='~').contains(&c));
        if o.name.chars().count() > message::NAME_LEN || !printable {
            return Err(format!(
                "--name '{}': at most {} printable ASCII characters",
                crate::text::cut(&o.name, 40),
                message::NAME_LEN
            ));
        }
        if o.timeout == 0 {
            return Err("--timeout 0: the peer must be given at least 1 second".into());
        }
        if o.fen.is_some() {
            // The GAMEREQ must be able to carry it.
            game_state::setup_position(&game_state::setup_of(&start)).map_err(|e| e.to_string())?;
        }
        Ok(Settings {
            name: o.name.clone(),
            initiator: o.initiator,
            colour,
            minutes: o.minutes,
            moves: o.moves,
            start,
            movetime: o.movetime.map(Duration::from_millis),
            timeout: Duration::from_secs(o.timeout),
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
    session.apply(Change::set(&opt::MOVE_OVERHEAD, Value::Int(overhead as i64)))?;
    let tables = tables.map(|root| (&opt::TABLES_PATH, root.to_string_lossy().into_owned()));
    options.engine.apply(&mut session, tables, &mut |note| {
        log.note(note);
        eprintln!("{note}");
    })?;
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
        AssertUnwindSafe(|| connection::Connection::run(settings, engine, log, stream, games_left));
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
