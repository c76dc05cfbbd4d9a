//! A match participant: its configuration, and the protocol-neutral
//! conversation the runner has with it (start, new game, search, quit).
//!
//! The runner talks to every engine through [`Player`], an enum over the
//! protocol clients (matched once per command, never per node). A client
//! returns either a [`Reply`] or a [`Fault`]; a fault ends the game as a loss
//! for that engine and the runner restarts the process before its next game.

use super::clock::{seconds, GameClock, Limits, TimeControl};
use super::dxp::DxpClient;
use super::hub::HubClient;
use super::pgn::GameResult;
use super::process::{Launch, TrafficLog};
use super::uci::UciClient;
use crate::game::Variant;
use std::time::{Duration, Instant};

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Universal Chess Interface (chess, Chess960).
    Uci,
    /// Hub v2 (draughts).
    Hub,
    /// DamExchange over TCP (international draughts; see `dxp.rs`).
    Dxp,
}

/// One engine as configured on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineConfig {
    /// Display name (unique within a match).
    pub name: String,
    /// How to start it.
    pub launch: Launch,
    /// Its protocol.
    pub protocol: Protocol,
    /// Options sent at start-up (`setoption` / `set-param`), in order.
    pub options: Vec<(String, String)>,
    /// Search limits for this engine (the match's, unless overridden).
    pub limits: Limits,
}

/// A search score from the point of view of the side that searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (chess) or the engine's own unit (draughts).
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// A centipawn value for adjudication: mates become +/- 100000.
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }
}

/// What an engine answered to a search.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move text as the engine sent it.
    pub mv: String,
    /// The last score it reported.
    pub score: Option<Score>,
    /// The last depth it reported.
    pub depth: Option<u32>,
    /// Wall time from sending the search command to reading the move.
    pub elapsed: Duration,
}

/// How an engine failed to produce a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// No answer before the deadline (hang, or time far overrun).
    Timeout,
    /// The process exited or closed its pipes.
    Crash,
    /// It sent a line the protocol does not allow where a move was due.
    Malformed(String),
    /// It could not be started or did not finish its handshake.
    Start(String),
    /// It refused the game (DXP GAMEACC with a non-zero code).
    Refused(String),
    /// It ended the game itself where a move was due (DXP GAMEEND), judged
    /// by the runner: not a failure of the engine, which plays on.
    Ended(EndVerdict),
}

/// The runner's judgement of a game that an engine ended itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndVerdict {
    /// The result for the engine that ended the game: `Some(true)` a win,
    /// `Some(false)` a loss, `None` a draw.
    pub won: Option<bool>,
    /// Why, for the game record (the engine's side is prefixed).
    pub reason: String,
    /// The PGN `Termination` tag.
    pub termination: &'static str,
}

/// Everything one search needs to know.
#[derive(Clone, Debug)]
pub struct SearchRequest<'a> {
    /// The game's variant.
    pub variant: Variant,
    /// The FEN the game started from (the opening's position).
    pub game_fen: &'a str,
    /// Whether `game_fen` is the variant's standard start position.
    pub game_startpos: bool,
    /// Every move since `game_fen`, in protocol notation.
    pub game_moves: &'a [String],
    /// The Hub position after the last irreversible move (Hub sends only
    /// the moves that follow); empty when no Hub engine plays.
    pub recent_hub: &'a str,
    /// The moves since `recent_hub`, in Hub notation.
    pub recent_moves: &'a [String],
    /// Whether white is to move.
    pub white_to_move: bool,
    /// The clocks, white then black, when a clock control is used.
    pub clocks: Option<[GameClock; 2]>,
    /// The clock control (for the increment).
    pub tc: Option<TimeControl>,
    /// The searching engine's limits.
    pub limits: Limits,
    /// When the runner gives up waiting.
    pub deadline: Instant,
}

/// A running engine, whatever its protocol.
pub enum Player {
    /// A UCI engine.
    Uci(UciClient),
    /// A Hub engine.
    Hub(HubClient),
    /// A DXP engine.
    Dxp(DxpClient),
}

/// How long `isready`, new-game and game-request handshakes may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to start: the protocol handshake with its
/// initialisation, which may load endgame tables or a network (Crown's
/// 6-piece English tables take 7 s to load on an idle 2-core machine and
/// over 10 s on a busy one).
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);

impl Player {
    /// Starts the engine and completes the protocol handshake.
    pub fn start(
        config: &EngineConfig,
        variant: Variant,
        log: &TrafficLog,
        label: &str,
    ) -> Result<Player, Fault> {
        match config.protocol {
            Protocol::Uci => UciClient::start(config, variant, log, label).map(Player::Uci),
            Protocol::Hub => HubClient::start(config, variant, log, label).map(Player::Hub),
            Protocol::Dxp => DxpClient::start(config, variant, log, label).map(Player::Dxp),
        }
    }

    /// Prepares a new game and waits until the engine is ready.
    pub fn new_game(&mut self) -> Result<(), Fault> {
        match self {
            Player::Uci(c) => c.new_game(),
            Player::Hub(c) => c.new_game(),
            Player::Dxp(c) => c.new_game(),
        }
    }

    /// Runs one search and returns the engine's move.
    pub fn search(&mut self, request: &SearchRequest<'_>) -> Result<Reply, Fault> {
        match self {
            Player::Uci(c) => c.search(request),
            Player::Hub(c) => c.search(request),
            Player::Dxp(c) => c.search(request),
        }
    }

    /// Asks the engine to quit and kills it after a short grace period.
    pub fn quit(self) {
        match self {
            Player::Uci(c) => c.quit(),
            Player::Hub(c) => c.quit(),
            Player::Dxp(c) => c.quit(),
        }
    }

    /// Tells the engine the game is over (DXP GAMEEND; nothing for the
    /// other protocols, whose next game starts with its own handshake).
    pub fn end_game(&mut self, result: GameResult) {
        if let Player::Dxp(c) = self {
            c.end_game(result);
        }
    }

    /// Writes a runner note into the traffic log.
    pub fn note(&self, text: &str) {
        match self {
            Player::Uci(c) => c.note(text),
            Player::Hub(c) => c.note(text),
            Player::Dxp(c) => c.note(text),
        }
    }
}

/// Reads `key=value` engine settings (`name=`, `cmd=`, `arg=`, `dir=`,
/// `proto=`, `option.X=`, and the per-engine limits `tc=`, `st=`, `nodes=`,
/// `depth=`) into `config`. Later tokens override earlier ones, so `--each`
/// tokens are applied first and an engine's own after.
pub fn apply_setting(config: &mut EngineConfig, token: &str) -> Result<(), String> {
    let (key, value) =
        token.split_once('=').ok_or_else(|| format!("expected key=value, got '{token}'"))?;
    let number = |what: &str| value.parse::<u64>().map_err(|_| format!("bad {what} '{value}'"));
    match key {
        "name" => config.name = value.to_string(),
        "cmd" => config.launch.cmd = value.to_string(),
        "arg" | "args" => config.launch.args.extend(value.split_whitespace().map(String::from)),
        "dir" => config.launch.dir = Some(value.to_string()),
        "proto" | "protocol" => {
            config.protocol = match value {
                "uci" => Protocol::Uci,
                "hub" => Protocol::Hub,
                "dxp" => Protocol::Dxp,
                _ => return Err(format!("unknown protocol '{value}'")),
            }
        }
        "tc" => config.limits.tc = Some(TimeControl::parse(value)?),
        "st" | "movetime" => {
            let time = seconds(value, "movetime")?;
            if time.is_zero() {
                return Err(format!("bad movetime '{value}' (must be positive)"));
            }
            config.limits.movetime = Some(time);
        }
        "nodes" => config.limits.nodes = Some(number("node count")?),
        "depth" => config.limits.depth = Some(number("depth")? as u32),
        _ => match key.strip_prefix("option.") {
            Some(name) if !name.is_empty() => {
                config.options.retain(|(n, _)| n != name);
                config.options.push((name.to_string(), value.to_string()));
            }
            _ => return Err(format!("unknown engine setting '{key}'")),
        },
    }
    Ok(())
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            name: String::new(),
            launch: Launch::default(),
            protocol: Protocol::Uci,
            options: Vec::new(),
            limits: Limits::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_apply_in_order() {
        let mut c = EngineConfig::default();
        for t in [
            "tc=10+0.1",
            "option.Hash=16",
            "name=sf",
            "cmd=/usr/games/stockfish",
            "option.Hash=32",
            "arg=-x",
        ] {
            apply_setting(&mut c, t).unwrap();
        }
        assert_eq!(c.name, "sf");
        assert_eq!(c.options, vec![("Hash".to_string(), "32".to_string())]);
        assert_eq!(c.launch.args, vec!["-x".to_string()]);
        assert!(c.limits.tc.is_some());
        assert!(apply_setting(&mut c, "proto=xboard").is_err());
        apply_setting(&mut c, "proto=dxp").unwrap();
        assert_eq!(c.protocol, Protocol::Dxp);
        assert!(apply_setting(&mut c, "bogus").is_err());
        assert!(apply_setting(&mut c, "st=0").is_err());
        assert!(apply_setting(&mut c, "st=1e20").is_err());
        assert!(apply_setting(&mut c, "tc=1e20+0").is_err());
        assert_eq!(Score::Mate(3).as_cp(), 99_997);
        assert_eq!(Score::Mate(-2).as_cp(), -99_998);
    }
}
