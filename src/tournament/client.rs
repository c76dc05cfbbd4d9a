//! The seam between the match runner and the engines it plays: the
//! protocol-neutral conversation ([`Client`]) and what flows over it.
//!
//! The game loop (`play.rs`) holds every engine as a `Box<dyn Client>` and
//! never knows its protocol; `uci_client.rs`, `hub_client.rs` and
//! `dxp_client.rs` implement the trait (`dyn` is fine here: one call per
//! move, never per node). A client returns either a [`Reply`] or a
//! [`Fault`]; a fault ends the game as a loss for that engine and the
//! runner restarts the process before its next game.
//!
//! Invariants: a client never waits past [`SearchRequest::deadline`] (or
//! its handshake timeouts), never panics on what an engine sends, and never
//! decides a move's legality: the referee (`play.rs`) matches the reply's
//! text against the rules' legal moves.

use super::clock::{GameClock, Limits, TimeControl};
use super::engine_config::EngineConfig;
use super::process::{ReadError, TrafficLog};
use crate::game::{GameResult, Variant};
use std::time::{Duration, Instant};

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
    /// Its command could not be executed at all (no such file, not
    /// executable): a setup error that would repeat in every game, so the
    /// runner stops the match instead of scoring forfeits.
    CannotRun(String),
    /// It started but did not finish its handshake.
    Start(String),
    /// It refused the game (DXP GAMEACC with a non-zero code).
    Refused(String),
    /// It ended the game itself where a move was due (DXP GAMEEND), judged
    /// by the runner: not a failure of the engine, which plays on.
    Ended(EndVerdict),
}

impl From<ReadError> for Fault {
    /// No line where one was due: the deadline passed, or the engine
    /// closed its output.
    fn from(e: ReadError) -> Fault {
        match e {
            ReadError::Timeout => Fault::Timeout,
            ReadError::Closed => Fault::Crash,
        }
    }
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

/// How long `isready`, new-game and game-request handshakes may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an engine may take to start: the protocol handshake with its
/// initialisation, which may load endgame tables or a network (Crown's
/// 6-piece English tables take 7 s to load on an idle 2-core machine and
/// over 10 s on a busy one).
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);

/// A running engine, whatever its protocol: start-up with its handshake,
/// a new game, one search per move (position and moves, then the limits:
/// [`SearchRequest`] carries both, since DXP sends them in one exchange),
/// the end of a game, and quit.
pub trait Client {
    /// Starts the engine for `variant` and completes the protocol
    /// handshake (options sent, engine ready). `label` names it in `log`.
    fn start(
        config: &EngineConfig,
        variant: Variant,
        log: &TrafficLog,
        label: &str,
    ) -> Result<Self, Fault>
    where
        Self: Sized;

    /// Prepares a new game and waits until the engine is ready.
    fn new_game(&mut self) -> Result<(), Fault>;

    /// Sends the game's position and moves and the side to move's limits,
    /// and waits (until `request.deadline`) for the engine's move.
    fn search(&mut self, request: &SearchRequest<'_>) -> Result<Reply, Fault>;

    /// Tells the engine the game is over with `result` (DXP GAMEEND). The
    /// default does nothing: UCI and Hub start each game with their own
    /// handshake instead.
    fn end_game(&mut self, result: GameResult) {
        let _ = result;
    }

    /// Writes a runner note into the traffic log.
    fn note(&self, text: &str);

    /// Asks the engine to quit and kills it after a short grace period.
    fn quit(self: Box<Self>);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_adjudicate_as_large_values() {
        assert_eq!(Score::Cp(-31).as_cp(), -31);
        assert_eq!(Score::Mate(3).as_cp(), 99_997);
        assert_eq!(Score::Mate(-2).as_cp(), -99_998);
    }
}
