//! Shared helpers of the DXP integration tests: start `crown dxp` on a free
//! loopback port, speak to it as a scripted peer, and replay a traffic log
//! against the crown rules library.
//!
//! Every wait is bounded (socket read timeouts, process deadlines), and a
//! started process is killed when its guard drops, so a test never hangs.

#![allow(dead_code)]

use crown::draughts::International;
use crown::game::Game;
use crown::protocol::dxp::framing::{write_frame, FrameReader};
use crown::protocol::dxp::game_state::{find_move, setup_position};
use crown::protocol::dxp::message::Message;
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// A free loopback port (bound, then released).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A fresh scratch directory for logs.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crown-dxp-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A `crown` process, killed on drop.
pub struct Crown(pub Child);

impl Crown {
    /// Starts `crown dxp` with `args`.
    pub fn dxp(args: &[&str]) -> Crown {
        let child = Command::new(env!("CARGO_BIN_EXE_crown"))
            .arg("dxp")
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("crown starts");
        Crown(child)
    }

    /// Waits for the process to exit, at most `limit`.
    pub fn wait(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.0.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.0.try_wait(), Ok(None))
    }
}

impl Drop for Crown {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A scripted DXP peer.
pub struct Peer {
    pub stream: TcpStream,
    frames: FrameReader<TcpStream>,
}

impl Peer {
    /// Connects to a crown listening on `port`, retrying while it starts.
    pub fn connect(port: u16) -> Peer {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            match TcpStream::connect(("127.0.0.1", port)) {
                Ok(stream) => {
                    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
                    let frames = FrameReader::new(stream.try_clone().unwrap());
                    return Peer { stream, frames };
                }
                Err(e) if Instant::now() > deadline => panic!("cannot connect: {e}"),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        }
    }

    /// Sends one message with its terminator.
    pub fn send(&mut self, text: &str) {
        write_frame(&mut self.stream, text).unwrap();
    }

    /// Sends raw bytes.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let _ = self.stream.write_all(bytes);
    }

    /// The next message, or None when the connection ends or times out.
    pub fn recv(&mut self) -> Option<String> {
        self.frames.read_frame().ok().map(|f| String::from_utf8_lossy(&f).into_owned())
    }

    /// Skips messages until one starting with `kind`.
    pub fn recv_kind(&mut self, kind: char) -> Option<String> {
        for _ in 0..1000 {
            let m = self.recv()?;
            if m.starts_with(kind) {
                return Some(m);
            }
        }
        None
    }
}

/// A GAMEREQ from the start position (`A`) or a given one (`B` + 51 chars).
pub fn gamereq(follower: char, setup: &str) -> String {
    format!("R01{:<32}{follower}001075{setup}", "Scripted peer")
}

/// One game seen in a log.
pub struct Track {
    pos: International,
    history: Vec<u64>,
    /// Moves played.
    pub moves: usize,
    /// At the first GAMEEND: whether the game was over by the rules.
    pub over_by_rule: Option<bool>,
}

/// Replays the GAMEREQ and MOVE messages of one side's `--log` file and
/// checks that every move is legal under the crown rules (and that no move
/// follows a GAMEEND). Returns the games seen.
pub fn replay_log(text: &str) -> Vec<Track> {
    let mut games: Vec<Track> = Vec::new();
    for line in text.lines() {
        let mut parts = line.splitn(3, ' ');
        let (_, direction, body) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
        if direction != Some("send") && direction != Some("recv") {
            continue;
        }
        match Message::decode(body.as_bytes()) {
            Ok(Message::GameReq(r)) => {
                let pos = setup_position(&r.setup).expect("possible start position");
                games.push(Track { pos, history: Vec::new(), moves: 0, over_by_rule: None });
            }
            Ok(Message::Move(m)) => {
                let game = games.last_mut().expect("a move inside a game");
                assert!(game.over_by_rule.is_none(), "move after GAMEEND: {line}");
                let mv = find_move(&game.pos, &m).unwrap_or_else(|e| panic!("{e}: {line}"));
                game.history.push(game.pos.hash());
                game.pos.play(mv);
                game.moves += 1;
            }
            Ok(Message::GameEnd(_)) => {
                if let Some(game) = games.last_mut() {
                    if game.over_by_rule.is_none() {
                        game.over_by_rule = Some(game.pos.outcome(&game.history).is_some());
                    }
                }
            }
            _ => {}
        }
    }
    games
}
