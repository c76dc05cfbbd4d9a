//! One DamExchange connection: the game flow for both roles over a socket.
//!
//! A reader thread turns the socket into [`PeerEvent`]s (frames, or why the
//! stream ended) on a channel; this loop owns the engine and the game and
//! waits on that channel and on the search's best-move channel together, so
//! a chat, a GAMEEND or a dropped peer is seen even while the engine thinks.
//!
//! Flow (initiator `R` → follower `A`; `M` strictly alternating; the side to
//! move sends `E` instead of `M` when the game is over and the other side
//! answers `E`):
//! * Initiator: sends GAMEREQ, plays the game if accepted, and sends the next
//!   GAMEREQ while games remain and neither side asked to stop.
//! * Follower: answers each GAMEREQ (0 accept, 1 wrong version, 2 impossible
//!   position or malformed request) and plays accepted games until the peer
//!   stops or leaves. Every GAMEREQ gets a GAMEACC, whenever it comes: one
//!   during a game is refused with code 2 and the game goes on.
//! * A protocol fault inside a game (malformed message, illegal, unmatchable
//!   or out-of-turn move) ends the game with `E` reason 0 and a logged note;
//!   the connection stays open for another game.
//! * A dropped connection, an oversize frame, a write error or a peer silent
//!   for longer than the timeout ends the connection (never the process).
//!
//! Invariant: every wait has a timeout, and a running search is stopped and
//! joined before the loop returns.

use super::framing::{write_frame, FrameError, FrameReader};
use super::game_state::{setup_of, setup_position, DxpGame, TimeControl};
use super::log::{escape, Log};
use super::message::{
    AccCode, BackCode, CodecError, EndReason, GameAcc, GameEnd, GameReq, Message,
};
use super::Settings;
use crate::draughts::position::MoveList;
use crate::engine::session::{Listener, Notation, Report};
use crate::engine::Session;
use crate::game::{Game, Side};
use crossbeam_channel::{select, Receiver, Sender};
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the reader thread reports.
pub enum PeerEvent {
    /// One frame, without its terminator.
    Frame(Vec<u8>),
    /// The stream ended; the thread has exited.
    Ended(FrameError),
}

/// A received message, or why its bytes are not one.
enum Incoming {
    Msg(Message),
    Bad(CodecError),
    /// A frame that starts as a GAMEREQ but is not a valid one: it still
    /// gets a GAMEACC (code 1 for a wrong version, else 2).
    BadRequest(CodecError),
}

/// How long we wait for the peer's GAMEEND answer to ours.
const END_ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Sends the search result to the connection loop, tagged with its search.
struct DxpListener {
    tx: Sender<(u64, Option<String>)>,
    token: u64,
}

impl Listener for DxpListener {
    fn info(&self, _report: &Report) {}
    /// DXP requests carry no search moves: nothing to warn about.
    fn warning(&self, _text: &str) {}
    fn best_move(&self, best: Option<&str>, _ponder: Option<&str>) {
        let _ = self.tx.send((self.token, best.map(String::from)));
    }
}

/// How a game ended, for the connection loop.
struct Ended {
    /// The peer asked for no further game.
    peer_stop: bool,
}

/// A connection-ending condition, with its reason for the log.
type Fatal = String;

/// One connection and its games.
pub struct Connection<'a> {
    settings: &'a Settings,
    engine: &'a mut Session,
    log: &'a Log,
    stream: TcpStream,
    events: Receiver<PeerEvent>,
    best_tx: Sender<(u64, Option<String>)>,
    best_rx: Receiver<(u64, Option<String>)>,
    token: u64,
    pending: Option<Message>,
    /// Games the process may still play (None: no limit).
    games_left: &'a mut Option<u32>,
}

impl<'a> Connection<'a> {
    /// Runs the connection to its end; returns the reason it ended.
    pub fn run(
        settings: &'a Settings,
        engine: &'a mut Session,
        log: &'a Log,
        stream: TcpStream,
        games_left: &'a mut Option<u32>,
    ) -> String {
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(settings.timeout));
        let reader = match stream.try_clone() {
            Ok(s) => s,
            Err(e) => return format!("cannot clone the socket: {e}"),
        };
        let (tx, events) = crossbeam_channel::unbounded();
        let spawned =
            std::thread::Builder::new().name("crown-dxp-reader".into()).spawn(move || {
                let mut frames = FrameReader::new(reader);
                loop {
                    match frames.read_frame() {
                        Ok(frame) => {
                            if tx.send(PeerEvent::Frame(frame)).is_err() {
                                return;
                            }
                        }
                        Err(e) => {
                            let _ = tx.send(PeerEvent::Ended(e));
                            return;
                        }
                    }
                }
            });
        let handle = match spawned {
            Ok(h) => h,
            Err(e) => return format!("cannot start the reader thread: {e}"),
        };
        let (best_tx, best_rx) = crossbeam_channel::unbounded();
        let mut conn = Connection {
            settings,
            engine,
            log,
            stream,
            events,
            best_tx,
            best_rx,
            token: 0,
            pending: None,
            games_left,
        };
        let reason = match if settings.initiator { conn.initiate() } else { conn.follow() } {
            Ok(()) => "connection finished".to_string(),
            Err(reason) => reason,
        };
        conn.engine.shut_down();
        let _ = conn.stream.shutdown(Shutdown::Both);
        let _ = handle.join();
        reason
    }

    fn send(&mut self, message: &Message) -> Result<(), Fatal> {
        let text = message.encode().map_err(|e| format!("cannot encode {message:?}: {e}"))?;
        self.log.sent(&text);
        write_frame(&mut &self.stream, &text).map_err(|e| format!("write failed: {e}"))
    }

    /// The next message from the peer, waiting at most `timeout`.
    fn next(&mut self, timeout: Duration) -> Result<Incoming, Fatal> {
        if let Some(m) = self.pending.take() {
            return Ok(Incoming::Msg(m));
        }
        match self.events.recv_timeout(timeout) {
            Ok(event) => self.incoming(event),
            Err(_) => Err(format!("peer silent for {} s", timeout.as_secs())),
        }
    }

    fn incoming(&mut self, event: PeerEvent) -> Result<Incoming, Fatal> {
        match event {
            PeerEvent::Frame(bytes) => {
                self.log.received(&escape(&bytes));
                Ok(match Message::decode(&bytes) {
                    Ok(m) => Incoming::Msg(m),
                    Err(e) if bytes.first() == Some(&b'R') => Incoming::BadRequest(e),
                    Err(e) => Incoming::Bad(e),
                })
            }
            PeerEvent::Ended(e) => Err(e.to_string()),
        }
    }

    fn use_game(&mut self) {
        if let Some(n) = self.games_left.as_mut() {
            *n = n.saturating_sub(1);
        }
    }

    /// Whether we want no further game (sent as the GAMEEND stop code).
    fn want_stop(&self) -> bool {
        *self.games_left == Some(0)
    }

    /// The follower's loop: answer game requests, play accepted games.
    fn follow(&mut self) -> Result<(), Fatal> {
        while *self.games_left != Some(0) {
            match self.next(self.settings.timeout)? {
                Incoming::Msg(Message::GameReq(req)) => {
                    if self.requested(req)?.peer_stop {
                        return Ok(());
                    }
                }
                Incoming::BadRequest(e) => self.refuse(&e)?,
                Incoming::Bad(e) => self.log.note(&format!("malformed message ignored: {e}")),
                Incoming::Msg(Message::Chat(text)) => self.log.note(&format!("chat: {text}")),
                Incoming::Msg(Message::BackReq(_)) => {
                    self.log.note("BACKREQ outside a game refused");
                    self.send(&Message::BackAcc(BackCode::Refused))?;
                }
                Incoming::Msg(m) => self.log.note(&format!("ignored outside a game: {m:?}")),
            }
        }
        Ok(())
    }

    /// Answers a GAMEREQ that cannot be played: code 1 for another protocol
    /// version, 2 otherwise (malformed, or a game is running).
    fn refuse(&mut self, why: &CodecError) -> Result<(), Fatal> {
        let code = match why {
            CodecError::Version(_) => AccCode::WrongVersion,
            _ => AccCode::RefuseGame,
        };
        self.log.note(&format!("GAMEREQ refused ({code:?}): {why}"));
        self.accept(code)
    }

    /// Refuses a GAMEREQ that arrives during a game; the game goes on.
    fn refuse_during_game(&mut self) -> Result<(), Fatal> {
        self.log.note("GAMEREQ during a game refused (code 2); the game goes on");
        self.accept(AccCode::RefuseGame)
    }

    fn accept(&mut self, code: AccCode) -> Result<(), Fatal> {
        let name = self.settings.name.clone();
        self.send(&Message::GameAcc(GameAcc { name, code }))
    }

    /// Answers one GAMEREQ and plays the game if it is accepted.
    fn requested(&mut self, req: GameReq) -> Result<Ended, Fatal> {
        match setup_position(&req.setup) {
            Err(e) => {
                self.log.note(&format!("GAMEREQ refused (code 2): {e}"));
                self.accept(AccCode::RefuseGame)?;
                Ok(Ended { peer_stop: false })
            }
            Ok(start) => {
                self.accept(AccCode::Accept)?;
                self.log.note(&format!(
                    "game accepted from {}: we play {}, {} min / {} moves",
                    req.name, req.follower, req.minutes, req.moves
                ));
                self.use_game();
                let control = TimeControl { minutes: req.minutes, moves: req.moves };
                self.play(DxpGame::new(start, req.follower, control))
            }
        }
    }

    /// The initiator's loop: request games while games remain.
    fn initiate(&mut self) -> Result<(), Fatal> {
        while *self.games_left != Some(0) {
            let s = self.settings;
            let req = GameReq {
                name: s.name.clone(),
                follower: s.colour.flip(),
                minutes: s.minutes,
                moves: s.moves,
                setup: setup_of(&s.start),
            };
            self.send(&Message::GameReq(req))?;
            let deadline = Instant::now() + s.timeout;
            let code = loop {
                let left = deadline.saturating_duration_since(Instant::now());
                match self.next(left)? {
                    Incoming::Msg(Message::GameAcc(a)) => {
                        self.log.note(&format!("{} answered code {:?}", a.name, a.code));
                        break a.code;
                    }
                    Incoming::Msg(Message::Chat(text)) => self.log.note(&format!("chat: {text}")),
                    Incoming::Bad(e) => self.log.note(&format!("malformed message ignored: {e}")),
                    Incoming::BadRequest(e) => self.refuse(&e)?,
                    Incoming::Msg(Message::GameReq(_)) => self.refuse_during_game()?,
                    Incoming::Msg(m) => self.log.note(&format!("ignored before GAMEACC: {m:?}")),
                }
            };
            if code != AccCode::Accept {
                return Err(format!("game request refused ({code:?})"));
            }
            self.use_game();
            let control = TimeControl { minutes: s.minutes, moves: s.moves };
            if self.play(DxpGame::new(s.start, s.colour, control))?.peer_stop {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Plays one accepted game to its GAMEEND exchange.
    fn play(&mut self, mut game: DxpGame) -> Result<Ended, Fatal> {
        self.engine.new_game();
        loop {
            if game.our_turn() {
                if let Some(outcome) = game.outcome() {
                    self.log.note(&format!("game over: {outcome}"));
                    let end = GameEnd { reason: game.reason(outcome), stop: self.want_stop() };
                    self.send(&Message::GameEnd(end))?;
                    return self.await_answer();
                }
                if let Some(ended) = self.think(&mut game)? {
                    return Ok(ended);
                }
                continue;
            }
            match self.next(self.settings.timeout)? {
                Incoming::Msg(Message::Move(m)) => {
                    if let Err(e) = game.play_peer(&m) {
                        return self.fault(&game, &e.to_string());
                    }
                }
                Incoming::Msg(Message::GameEnd(e)) => return self.answer_end(&game, e),
                Incoming::Msg(Message::BackReq(req)) => {
                    let code =
                        if game.take_back(req) { BackCode::Accepted } else { BackCode::Refused };
                    self.log.note(&format!("BACKREQ {req:?}: {code:?}"));
                    self.send(&Message::BackAcc(code))?;
                }
                Incoming::Msg(Message::Chat(text)) => self.log.note(&format!("chat: {text}")),
                Incoming::Msg(Message::GameReq(_)) | Incoming::BadRequest(_) => {
                    self.refuse_during_game()?
                }
                Incoming::Msg(m) => self.log.note(&format!("ignored during a game: {m:?}")),
                Incoming::Bad(e) => return self.fault(&game, &format!("malformed message: {e}")),
            }
        }
    }

    /// Searches and sends our move; `Some` when the game ended meanwhile.
    fn think(&mut self, game: &mut DxpGame) -> Result<Option<Ended>, Fatal> {
        let started = Instant::now();
        let (setup, moves) = game.setup();
        let ready = self.engine.set_position(&setup, &moves);
        self.token += 1;
        let listener = Arc::new(DxpListener { tx: self.best_tx.clone(), token: self.token });
        let request = game.request(self.settings.movetime);
        let best = match ready {
            Ok(()) => {
                self.engine.go(&request, listener, Notation::Full);
                loop {
                    select! {
                        recv(self.best_rx) -> found => match found {
                            Ok((token, best)) if token == self.token => break best,
                            Ok(_) => {}
                            Err(_) => break None,
                        },
                        recv(self.events) -> event => {
                            let event = event.map_err(|_| "reader thread gone".to_string())?;
                            let result = match self.incoming(event) {
                                Ok(incoming) => self.while_thinking(game, incoming),
                                Err(fatal) => Err(fatal),
                            };
                            match result {
                                Ok(None) => {}
                                done => {
                                    self.engine.shut_down();
                                    return done;
                                }
                            }
                        }
                    }
                }
            }
            Err(e) => {
                self.log.note(&format!("search not started: {e}"));
                None
            }
        };
        self.engine.shut_down();
        let best = best.and_then(|text| game.position().parse_move(&text).ok());
        // Fall back on the first legal move should the search give none.
        let mv = best.or_else(|| {
            let mut legal = MoveList::default();
            game.position().generate(&mut legal);
            legal.first().copied()
        });
        let Some(mv) = mv else {
            return Err("no legal move to play".into());
        };
        let m = game.play_ours(mv, started.elapsed());
        self.send(&Message::Move(m))?;
        Ok(None)
    }

    /// A peer message that arrives while we think.
    fn while_thinking(
        &mut self,
        game: &DxpGame,
        incoming: Incoming,
    ) -> Result<Option<Ended>, Fatal> {
        match incoming {
            Incoming::Msg(Message::Chat(text)) => self.log.note(&format!("chat: {text}")),
            Incoming::Msg(Message::GameEnd(e)) => return self.answer_end(game, e).map(Some),
            Incoming::Msg(Message::BackReq(req)) => {
                self.log.note(&format!("BACKREQ {req:?} while thinking refused"));
                self.send(&Message::BackAcc(BackCode::Refused))?;
            }
            Incoming::Msg(Message::Move(_)) => {
                return self.fault(game, "move received out of turn").map(Some)
            }
            Incoming::Msg(Message::GameReq(_)) | Incoming::BadRequest(_) => {
                self.refuse_during_game()?
            }
            Incoming::Msg(m) => self.log.note(&format!("ignored during a game: {m:?}")),
            Incoming::Bad(e) => {
                return self.fault(game, &format!("malformed message: {e}")).map(Some)
            }
        }
        Ok(None)
    }

    /// Answers the peer's GAMEEND.
    fn answer_end(&mut self, game: &DxpGame, theirs: GameEnd) -> Result<Ended, Fatal> {
        let reason = match game.outcome() {
            Some(outcome) => game.reason(outcome),
            None => theirs.reason.mirror(),
        };
        self.log.note(&format!("peer ended the game ({:?}); we answer {reason:?}", theirs.reason));
        self.send(&Message::GameEnd(GameEnd { reason, stop: self.want_stop() || theirs.stop }))?;
        Ok(Ended { peer_stop: theirs.stop })
    }

    /// Ends the game after a protocol fault of the peer.
    fn fault(&mut self, game: &DxpGame, what: &str) -> Result<Ended, Fatal> {
        self.engine.shut_down();
        self.log.note(&format!("{what}: game ended"));
        let reason = game.outcome().map_or(EndReason::Unknown, |o| game.reason(o));
        self.send(&Message::GameEnd(GameEnd { reason, stop: self.want_stop() }))?;
        self.await_answer()
    }

    /// Waits for the peer's GAMEEND after ours (bounded).
    fn await_answer(&mut self) -> Result<Ended, Fatal> {
        let deadline = Instant::now() + END_ANSWER_WAIT.min(self.settings.timeout);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                self.log.note("no GAMEEND answer from the peer");
                return Ok(Ended { peer_stop: false });
            }
            let incoming = match self.next(left) {
                Ok(i) => i,
                Err(_) if Instant::now() >= deadline => continue,
                Err(e) => return Err(e),
            };
            match incoming {
                Incoming::Msg(Message::GameEnd(e)) => return Ok(Ended { peer_stop: e.stop }),
                Incoming::Msg(Message::Chat(text)) => self.log.note(&format!("chat: {text}")),
                Incoming::Msg(m @ Message::GameReq(_)) => {
                    self.log.note("GAMEREQ without GAMEEND answer");
                    self.pending = Some(m);
                    return Ok(Ended { peer_stop: false });
                }
                Incoming::Msg(m) => self.log.note(&format!("ignored after GAMEEND: {m:?}")),
                Incoming::Bad(e) => self.log.note(&format!("malformed message ignored: {e}")),
                Incoming::BadRequest(e) => self.refuse(&e)?,
            }
        }
    }
}

/// Our colour as the initiator, from `--colour`.
pub fn parse_colour(text: &str) -> Option<Side> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Some(Side::White),
        "black" | "b" | "z" | "zwart" => Some(Side::Black),
        _ => None,
    }
}
