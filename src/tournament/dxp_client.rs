//! The DamExchange client: the runner's side of DXP (international draughts
//! only), as initiator and listener.
//!
//! Start-up: the runner binds a listener on 127.0.0.1 port 0 (an ephemeral
//! port), starts the engine with `cmd` and its args, the literal text
//! `{port}` in any arg replaced by that port number (e.g. `arg=dxp
//! arg=--connect arg=127.0.0.1:{port}`), and accepts its connection within
//! the handshake timeout. A restart is a new process with a new listener.
//!
//! The clock: GAMEREQ carries whole minutes for a number of moves (0: the
//! whole game) and nothing else: no increment, no time per move. Before the
//! match, [`dxp_limits`] turns a DXP engine's limits into the closest control
//! DXP can carry (at least 1 minute for the moves of the control, the
//! increments of an expected game of [`GAME_MOVES`] moves folded into the
//! base), the runner prints a note saying so, and that control is the one
//! its own clock charges: the engine is judged by the clock it was given.
//!
//! A game starts at the engine's first search: GAMEREQ (version 01, the
//! runner's name, the engine's colour as follower colour, the minutes and
//! moves of that control, and `A`
//! or `B` + the current position), answered by GAMEACC code 0 (anything else
//! loses the game as a refused game). The moves played since the engine last
//! moved are then sent as MOVE messages (the time field is the wall time
//! since the engine's last move, in seconds), and the engine's MOVE is
//! matched against the legal moves. The runner's own clock decides time
//! losses, as for every protocol. At the end of a game the runner sends
//! GAMEEND (its own point of view, stop code 0) and reads the engine's `E`
//! for a short while.
//!
//! An engine may end the game itself with GAMEEND where its move is due;
//! the runner answers GAMEEND and judges it ([`judge_end`]): "I lose" is a
//! resignation. Once the control's moves have been played since the
//! engine's GAMEREQ (DXP's match convention: Scan 2.0 stops every game
//! there, 75 moves at `--tc 75/60`, and scores an open result as a draw),
//! the claim is the game's adjudication: "I win" a win, a draw or no
//! result a draw. Before that the rules have not ended the game (the runner
//! checks them before every move), so any other claim forfeits it.
//!
//! Invariants: a dropped connection, a silence past the deadline, a message
//! that does not decode or is out of turn is a [`Fault`]; CHAT is ignored and
//! BACKREQ answered "not supported"; engine options (`option.X=`) are unused.

use super::client::{
    Client, EndVerdict, Fault, Reply, SearchRequest, HANDSHAKE_TIMEOUT, STARTUP_TIMEOUT,
};
use super::clock::{tc_text, Limits, TimeControl};
use super::engine_config::EngineConfig;
use super::process::{EngineProcess, Launch, ReadError, TrafficLog};
use crate::draughts::notation::{dxp_fields, parse_dxp_fields};
use crate::draughts::rules::InternationalRules;
use crate::draughts::{fen::write_dxp, International};
use crate::game::{Game, GameResult, Side, Variant};
use crate::protocol::dxp::framing::{write_frame, FrameError, FrameReader};
use crate::protocol::dxp::message::{
    AccCode, BackCode, EndReason, GameEnd, GameReq, Message, MoveMsg, StartPosition,
};
use std::io::ErrorKind;
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// How long the engine may take to answer GAMEEND.
const END_TIMEOUT: Duration = Duration::from_secs(2);

/// The runner's name in GAMEREQ.
const RUNNER_NAME: &str = "Crown match";

/// The game in progress on the connection.
struct InGame {
    /// The colour the engine plays.
    engine: Side,
    /// How many of the game's moves the engine knows.
    synced: usize,
    /// How many of the game's moves were played before its GAMEREQ.
    requested_at: usize,
    /// When the engine's last move arrived (or the game began).
    since: Instant,
}

/// A running DXP engine and its connection.
pub struct DxpClient {
    process: EngineProcess,
    stream: TcpStream,
    reader: FrameReader<TcpStream>,
    log: TrafficLog,
    label: String,
    minutes: u32,
    moves: u32,
    game: Option<InGame>,
}

/// `launch` with `{port}` in every argument replaced by `port`.
pub fn substitute_port(launch: &Launch, port: u16) -> Launch {
    let mut out = launch.clone();
    for arg in &mut out.args {
        *arg = arg.replace("{port}", &port.to_string());
    }
    out
}

/// The moves of an expected game (per side) over which increments and a
/// time per move are turned into a DXP budget.
pub const GAME_MOVES: u32 = 50;

/// The limits a DXP engine plays under: a clock control of whole minutes
/// (1 to 999) for the moves of the control (at most 999; none: the whole
/// game) and no increment, the closest to `limits` that GAMEREQ can carry.
/// A time per move or an increment is spread over [`GAME_MOVES`] moves (or
/// the moves of the control); without a clock or movetime the engine gets
/// the 1-minute minimum. Node and depth limits are kept (DXP cannot pass
/// them on). Returns the limits and a note for the user when they differ
/// from what was asked, `None` when DXP carries `limits` exactly.
pub fn dxp_limits(limits: &Limits) -> (Limits, Option<String>) {
    let moves = limits.tc.and_then(|tc| tc.moves).map(|m| m.min(999));
    let span = f64::from(moves.unwrap_or(GAME_MOVES));
    let (secs, asked) = match (limits.tc, limits.movetime) {
        (Some(tc), _) => (tc.base.as_secs_f64() + tc.increment.as_secs_f64() * span, tc_text(&tc)),
        (None, Some(mt)) => (mt.as_secs_f64() * span, format!("{} s per move", mt.as_secs_f64())),
        (None, None) => (0.0, "no clock".to_string()),
    };
    let minutes = ((secs / 60.0).round() as u32).clamp(1, 999);
    let tc = TimeControl {
        moves,
        base: Duration::from_secs(60 * u64::from(minutes)),
        increment: Duration::ZERO,
    };
    let exact = limits.movetime.is_none() && limits.tc == Some(tc);
    let out = Limits { tc: Some(tc), movetime: None, ..*limits };
    if exact {
        return (out, None);
    }
    let period = match moves {
        Some(m) => format!("{m} moves"),
        None => "the game".to_string(),
    };
    let note = format!(
        "{minutes} min for {period} (asked: {asked}): DXP's GAMEREQ carries whole minutes only; \
         the runner's clock for this engine is that budget"
    );
    (out, Some(note))
}

/// GAMEREQ minutes for an engine whose limits went through [`dxp_limits`]:
/// the base time in whole minutes rounded up, 1 to 999.
pub fn request_minutes(config: &EngineConfig) -> u32 {
    let secs = config.limits.tc.map_or(0.0, |tc| tc.base.as_secs_f64());
    ((secs / 60.0).ceil() as u32).clamp(1, 999)
}

fn frame_fault(e: FrameError) -> Fault {
    match e {
        FrameError::Io(ErrorKind::WouldBlock | ErrorKind::TimedOut) => Fault::Timeout,
        FrameError::Oversize => Fault::Malformed("oversized DXP frame".into()),
        _ => Fault::Crash,
    }
}

impl Client for DxpClient {
    /// Binds a listener, starts the engine and accepts its connection.
    fn start(
        config: &EngineConfig,
        variant: Variant,
        log: &TrafficLog,
        label: &str,
    ) -> Result<DxpClient, Fault> {
        if variant != Variant::International {
            return Err(Fault::Start("DXP is for international draughts only".into()));
        }
        let io = |e: std::io::Error| Fault::Start(format!("DXP listener: {e}"));
        let listener = TcpListener::bind("127.0.0.1:0").map_err(io)?;
        let port = listener.local_addr().map_err(io)?.port();
        listener.set_nonblocking(true).map_err(io)?;
        let launch = substitute_port(&config.launch, port);
        let mut process = EngineProcess::spawn(label, &launch, log).map_err(Fault::CannotRun)?;
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let stream = loop {
            match listener.accept() {
                Ok((stream, _)) => break stream,
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                Err(e) => return Err(io(e)),
            }
            if Instant::now() >= deadline {
                return Err(Fault::Start(format!("no DXP connection on port {port}")));
            }
            // Waits a little; stdout closing means the engine has exited.
            let wait = Instant::now() + Duration::from_millis(10);
            if let Err(ReadError::Closed) = process.recv(wait) {
                return Err(Fault::Start("engine exited before connecting".into()));
            }
        };
        stream.set_nonblocking(false).map_err(io)?;
        let _ = stream.set_nodelay(true);
        let reader = FrameReader::new(stream.try_clone().map_err(io)?);
        log.write(label, '#', &format!("DXP connection accepted on port {port}"));
        Ok(DxpClient {
            process,
            stream,
            reader,
            log: log.clone(),
            label: label.to_string(),
            minutes: request_minutes(config),
            moves: config.limits.tc.and_then(|tc| tc.moves).unwrap_or(0).min(999),
            game: None,
        })
    }

    /// Forgets any game left open; fails when the peer has closed the socket.
    fn new_game(&mut self) -> Result<(), Fault> {
        self.game = None;
        self.stream.set_nonblocking(true).map_err(|_| Fault::Crash)?;
        let closed = matches!(self.stream.peek(&mut [0u8; 1]), Ok(0));
        self.stream.set_nonblocking(false).map_err(|_| Fault::Crash)?;
        if closed {
            return Err(Fault::Crash);
        }
        Ok(())
    }

    /// Runs one search: the game request or the opponent's moves, then the
    /// engine's MOVE.
    fn search(&mut self, request: &SearchRequest<'_>) -> Result<Reply, Fault> {
        let bad = |what: String| Fault::Start(format!("DXP position: {what}"));
        let mut pos = International::from_fen(request.game_fen, Variant::International)
            .map_err(|e| bad(format!("{e:?}")))?;
        let mut fields = Vec::with_capacity(request.game_moves.len());
        for text in request.game_moves {
            let mv = pos.parse_move(text).map_err(|e| bad(format!("{text}: {e:?}")))?;
            fields.push(dxp_fields::<InternationalRules>(mv));
            pos.play(mv);
        }
        match &self.game {
            Some(game) if game.engine == pos.side_to_move() => {
                let (synced, since) = (game.synced, game.since);
                let seconds = since.elapsed().as_secs_f64().round().min(9999.0) as u32;
                for (from, to, captured) in &fields[synced.min(fields.len())..] {
                    let mv = MoveMsg {
                        seconds,
                        from: *from as u8,
                        to: *to as u8,
                        captured: captured.iter().map(|&c| c as u8).collect(),
                    };
                    self.send(&Message::Move(mv))?;
                }
            }
            _ => {
                let startpos = request.game_startpos && request.game_moves.is_empty();
                self.request_game(&pos, startpos, request.game_moves.len())?;
            }
        }
        let start = Instant::now();
        let mv = loop {
            match self.recv(request.deadline)? {
                Message::Move(mv) => break mv,
                Message::Chat(_) => {}
                Message::BackReq(_) => self.send(&Message::BackAcc(BackCode::NotSupported))?,
                Message::GameEnd(end) => {
                    return Err(self.ended(end.reason, request.game_moves.len()))
                }
                other => return Err(Fault::Malformed(format!("{other:?} instead of MOVE"))),
            }
        };
        let elapsed = start.elapsed();
        let captured: Vec<u32> = mv.captured.iter().map(|&c| u32::from(c)).collect();
        let text = match parse_dxp_fields(&pos, mv.from.into(), mv.to.into(), &captured) {
            Ok(legal) => pos.move_text(legal),
            // Never parses as a move, so the referee calls it illegal.
            Err(_) => format!("DXP:{}-{}x{captured:?}", mv.from, mv.to),
        };
        if let Some(game) = self.game.as_mut() {
            game.synced = request.game_moves.len() + 1;
            game.since = Instant::now();
        }
        Ok(Reply { mv: text, score: None, depth: None, elapsed })
    }

    /// Sends GAMEEND for an open game (the runner's point of view, stop 0)
    /// and reads the engine's `E` for a short while.
    fn end_game(&mut self, result: GameResult) {
        let Some(game) = self.game.take() else { return };
        let engine_won = match result {
            GameResult::WhiteWins => Some(game.engine == Side::White),
            GameResult::BlackWins => Some(game.engine == Side::Black),
            GameResult::Draw => None,
        };
        let reason = match engine_won {
            Some(true) => EndReason::ILose,
            Some(false) => EndReason::IWin,
            None => EndReason::Draw,
        };
        if self.send(&Message::GameEnd(GameEnd { reason, stop: false })).is_err() {
            return;
        }
        let deadline = Instant::now() + END_TIMEOUT;
        while let Ok(message) = self.recv(deadline) {
            if matches!(message, Message::GameEnd(_)) {
                break;
            }
        }
    }

    /// Writes a runner note into the traffic log.
    fn note(&self, text: &str) {
        self.process.note(text);
    }

    /// Closes the connection and stops the process after a short grace period.
    fn quit(self: Box<Self>) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
        self.process.shutdown("quit", Duration::from_millis(500));
    }
}

impl DxpClient {
    fn send(&mut self, message: &Message) -> Result<(), Fault> {
        let text = message.encode().map_err(|e| Fault::Malformed(format!("{e:?}")))?;
        self.log.write(&self.label, '>', &text);
        write_frame(&mut self.stream, &text).map_err(|_| Fault::Crash)
    }

    fn recv(&mut self, deadline: Instant) -> Result<Message, Fault> {
        let wait = deadline.saturating_duration_since(Instant::now()).max(Duration::from_millis(1));
        self.stream.set_read_timeout(Some(wait)).map_err(|_| Fault::Crash)?;
        let frame = self.reader.read_frame().map_err(frame_fault)?;
        let text = String::from_utf8_lossy(&frame).into_owned();
        self.log.write(&self.label, '<', &text);
        Message::decode(&frame).map_err(|_| Fault::Malformed(text))
    }

    /// Opens the game at the current position, the engine to move.
    fn request_game(
        &mut self,
        pos: &International,
        startpos: bool,
        requested_at: usize,
    ) -> Result<(), Fault> {
        let engine = pos.side_to_move();
        let setup = if startpos {
            StartPosition::Initial
        } else {
            let text = write_dxp::<InternationalRules>(pos);
            StartPosition::Position { to_move: engine, squares: text[1..].to_string() }
        };
        let request = GameReq {
            name: RUNNER_NAME.into(),
            follower: engine,
            minutes: self.minutes,
            moves: self.moves,
            setup,
        };
        self.send(&Message::GameReq(request))?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            match self.recv(deadline)? {
                Message::Chat(_) => {}
                Message::GameAcc(acc) if acc.code == AccCode::Accept => break,
                Message::GameAcc(acc) => {
                    return Err(Fault::Refused(format!("GAMEACC code {:?}", acc.code)))
                }
                other => return Err(Fault::Malformed(format!("{other:?} instead of GAMEACC"))),
            }
        }
        self.game = Some(InGame { engine, synced: 0, requested_at, since: Instant::now() });
        Ok(())
    }

    /// The engine sent GAMEEND where its move was due, `plies` into the
    /// game: judges it, answers GAMEEND (the runner's point of view) and
    /// closes the game.
    fn ended(&mut self, reason: EndReason, plies: usize) -> Fault {
        let requested_at = self.game.take().map_or(0, |g| g.requested_at);
        let verdict = judge_end(reason, self.moves, plies.saturating_sub(requested_at));
        let answer = match verdict.won {
            Some(true) => EndReason::ILose,
            Some(false) => EndReason::IWin,
            None => EndReason::Draw,
        };
        // The engine has closed the game; a lost answer changes nothing.
        let _ = self.send(&Message::GameEnd(GameEnd { reason: answer, stop: false }));
        Fault::Ended(verdict)
    }
}

/// Judges a GAMEEND an engine sent where its move was due, `plies` after
/// its GAMEREQ, in a control of `moves` moves (0: the whole game). See the
/// module header.
pub fn judge_end(reason: EndReason, moves: u32, plies: usize) -> EndVerdict {
    let claim = match reason {
        EndReason::ILose => {
            return EndVerdict {
                won: Some(false),
                reason: "resigns (DXP GAMEEND)".into(),
                termination: "normal",
            }
        }
        EndReason::IWin => "a win",
        EndReason::Draw => "a draw",
        EndReason::Unknown => "no result",
    };
    let limit = moves as usize * 2;
    if moves > 0 && plies >= limit {
        let won = (reason == EndReason::IWin).then_some(true);
        return EndVerdict {
            won,
            reason: format!(
                "ends the game at the move limit ({moves} moves since its game request, \
                 DXP convention) claiming {claim}"
            ),
            termination: "adjudication",
        };
    }
    EndVerdict {
        won: Some(false),
        reason: format!(
            "ends the game after {plies} plies claiming {claim}, which the rules do not give"
        ),
        termination: "rules infraction",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::clock::TimeControl;

    #[test]
    fn port_and_minutes() {
        let launch = Launch {
            cmd: "crown".into(),
            args: vec!["dxp".into(), "--connect".into(), "127.0.0.1:{port}".into()],
            dir: None,
        };
        assert_eq!(substitute_port(&launch, 4242).args[2], "127.0.0.1:4242");
        let mut config = EngineConfig::default();
        assert_eq!(request_minutes(&config), 1);
        config.limits.tc = Some(TimeControl::parse("5+0.05").unwrap());
        assert_eq!(request_minutes(&config), 1);
        config.limits.tc = Some(TimeControl::parse("121").unwrap());
        assert_eq!(request_minutes(&config), 3);
    }

    #[test]
    fn game_end_claims_are_judged() {
        let verdict = |reason, plies| {
            let v = judge_end(reason, 75, plies);
            (v.won, v.termination)
        };
        // A resignation stands at any time.
        assert_eq!(verdict(EndReason::ILose, 3), (Some(false), "normal"));
        // At the move limit the claim is the adjudication.
        assert_eq!(verdict(EndReason::IWin, 150), (Some(true), "adjudication"));
        assert_eq!(verdict(EndReason::Draw, 150), (None, "adjudication"));
        assert_eq!(verdict(EndReason::Unknown, 151), (None, "adjudication"));
        // Before it, the rules have not ended the game: the claim forfeits.
        for reason in [EndReason::IWin, EndReason::Draw, EndReason::Unknown] {
            assert_eq!(verdict(reason, 149), (Some(false), "rules infraction"));
        }
        // A control for the whole game has no move limit.
        assert_eq!(judge_end(EndReason::Draw, 0, 400).won, Some(false));
    }

    #[test]
    fn dxp_budgets_are_whole_minutes() {
        let tc = |t: &str| Limits { tc: Some(TimeControl::parse(t).unwrap()), ..Limits::default() };
        // 3 s + 50 x 0.03 s is closest to 0 minutes: the 1-minute minimum.
        let (l, note) = dxp_limits(&tc("3+0.03"));
        assert_eq!(l.tc.unwrap(), TimeControl::parse("60").unwrap());
        assert!(note.unwrap().contains("1 min for the game"));
        // 120 s + 50 x 1 s = 170 s: 3 minutes.
        assert_eq!(dxp_limits(&tc("120+1")).0.tc.unwrap().base, Duration::from_secs(180));
        // A move count is kept; a whole-minute control passes unchanged.
        let (l, note) = dxp_limits(&tc("40/120"));
        assert_eq!((l.tc.unwrap().moves, note), (Some(40), None));
        let mt = Limits { movetime: Some(Duration::from_secs(3)), ..Limits::default() };
        let (l, _) = dxp_limits(&mt);
        assert_eq!((l.tc.unwrap().base, l.movetime), (Duration::from_secs(180), None));
        let (l, _) = dxp_limits(&Limits { nodes: Some(9), ..Limits::default() });
        assert_eq!((l.tc.unwrap().base, l.nodes), (Duration::from_secs(60), Some(9)));
    }
}
