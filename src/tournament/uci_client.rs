//! The UCI client: the runner's side of the Universal Chess Interface.
//!
//! Start-up is `uci` → `uciok`, the configured `setoption`s (plus
//! `UCI_Chess960` for Chess960), then `isready` → `readyok`. Each game starts
//! with `ucinewgame` and `isready`. A search sends the whole game
//! (`position startpos|fen ... moves ...`) and one `go` with the clocks in
//! milliseconds, then waits for `bestmove`; the last `info` line with a
//! score (kept by the reader thread) gives the move's score and depth.
//!
//! Invariants: unknown lines are ignored, as the protocol asks; a `bestmove`
//! line without a move, or a line that is not UTF-8, is a malformed answer;
//! the runner never waits past the request's deadline.

use super::client::{
    Client, Fault, Reply, Score, SearchRequest, HANDSHAKE_TIMEOUT, STARTUP_TIMEOUT,
};
use super::engine_config::EngineConfig;
use super::process::{EngineProcess, Line, ReadError, TrafficLog};
use crate::game::Variant;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// A running UCI engine.
pub struct UciClient {
    process: EngineProcess,
}

impl UciClient {
    fn ready(&mut self, deadline: Instant) -> Result<(), ReadError> {
        self.process.send("isready")?;
        self.process.wait_for(deadline, |l| l.trim() == "readyok").map(|_| ())
    }
}

impl Client for UciClient {
    /// `uci` → `uciok`, the options, `isready` → `readyok`.
    fn start(
        config: &EngineConfig,
        variant: Variant,
        log: &TrafficLog,
        label: &str,
    ) -> Result<UciClient, Fault> {
        let process = EngineProcess::spawn(label, &config.launch, log).map_err(Fault::CannotRun)?;
        let mut client = UciClient { process };
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let start_fault = |e: ReadError| Fault::Start(format!("no uciok ({})", describe(e)));
        client.process.send("uci").map_err(start_fault)?;
        client.process.wait_for(deadline, |l| l.trim() == "uciok").map_err(start_fault)?;
        if variant == Variant::Chess960 {
            client.process.send("setoption name UCI_Chess960 value true").map_err(start_fault)?;
        }
        for (name, value) in &config.options {
            client
                .process
                .send(&format!("setoption name {name} value {value}"))
                .map_err(start_fault)?;
        }
        client
            .ready(deadline)
            .map_err(|e| Fault::Start(format!("no readyok ({})", describe(e))))?;
        Ok(client)
    }

    /// `ucinewgame` and `isready`.
    fn new_game(&mut self) -> Result<(), Fault> {
        self.process.send("ucinewgame").map_err(Fault::from)?;
        self.ready(Instant::now() + HANDSHAKE_TIMEOUT).map_err(Fault::from)
    }

    /// `position ...`, `go ...`, then the `bestmove`.
    fn search(&mut self, request: &SearchRequest<'_>) -> Result<Reply, Fault> {
        let position = position_command(request);
        let go = go_command(request);
        let _ = self.process.take_info(); // drop anything left from before
        self.process.send(&position).map_err(Fault::from)?;
        self.process.send(&go).map_err(Fault::from)?;
        let start = Instant::now();
        loop {
            let line = match self.process.recv(request.deadline).map_err(Fault::from)? {
                Line::Text(text) => text,
                Line::Malformed(text) => return Err(Fault::Malformed(text)),
            };
            let mut words = line.split_whitespace();
            if words.next() == Some("bestmove") {
                let elapsed = start.elapsed();
                let (mut score, mut depth) = (None, None);
                if let Some(info) = self.process.take_info() {
                    parse_info(&info, &mut score, &mut depth);
                }
                return match words.next() {
                    Some(mv) => Ok(Reply { mv: mv.to_string(), score, depth, elapsed }),
                    None => Err(Fault::Malformed(line)),
                };
            }
        }
    }

    fn note(&self, text: &str) {
        self.process.note(text);
    }

    /// `quit`, then a kill after a short grace period.
    fn quit(self: Box<Self>) {
        self.process.shutdown("quit", Duration::from_millis(500));
    }
}

fn describe(e: ReadError) -> &'static str {
    match e {
        ReadError::Timeout => "timed out",
        ReadError::Closed => "engine exited",
    }
}

/// `position startpos|fen F [moves ...]`.
pub fn position_command(request: &SearchRequest<'_>) -> String {
    let mut line = if request.game_startpos {
        String::from("position startpos")
    } else {
        format!("position fen {}", request.game_fen)
    };
    if !request.game_moves.is_empty() {
        line.push_str(" moves");
        for mv in request.game_moves {
            line.push(' ');
            line.push_str(mv);
        }
    }
    line
}

/// `go wtime .. btime .. winc .. binc .. [movestogo ..] [movetime ..] [nodes ..] [depth ..]`.
pub fn go_command(request: &SearchRequest<'_>) -> String {
    let mut line = String::from("go");
    if let (Some(clocks), Some(tc)) = (request.clocks, request.tc) {
        let inc = tc.increment.as_millis();
        let _ = write!(
            line,
            " wtime {} btime {} winc {inc} binc {inc}",
            clocks[0].remaining.as_millis(),
            clocks[1].remaining.as_millis()
        );
        let stm = if request.white_to_move { 0 } else { 1 };
        if let Some(mtg) = clocks[stm].moves_to_go {
            let _ = write!(line, " movestogo {mtg}");
        }
    }
    if let Some(mt) = request.limits.movetime {
        let _ = write!(line, " movetime {}", mt.as_millis());
    }
    if let Some(n) = request.limits.nodes {
        let _ = write!(line, " nodes {n}");
    }
    if let Some(d) = request.limits.depth {
        let _ = write!(line, " depth {d}");
    }
    line
}

/// Takes `score cp|mate N` and `depth N` from an `info` line, when present.
/// Bounds (`lowerbound`/`upperbound`) are kept too: cutechess does the same.
pub fn parse_info(line: &str, score: &mut Option<Score>, depth: &mut Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i + 1 < words.len() {
        match words[i] {
            "depth" => {
                if let Ok(d) = words[i + 1].parse() {
                    *depth = Some(d);
                }
                i += 2;
            }
            "score" if i + 2 < words.len() => {
                let value = words[i + 2].parse::<i32>();
                match (words[i + 1], value) {
                    ("cp", Ok(v)) => *score = Some(Score::Cp(v)),
                    ("mate", Ok(v)) => *score = Some(Score::Mate(v)),
                    _ => {}
                }
                i += 3;
            }
            // Everything after `pv` or `string` is free text.
            "pv" | "string" => break,
            _ => i += 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::clock::{GameClock, Limits, TimeControl};

    #[test]
    fn info_lines() {
        let (mut s, mut d) = (None, None);
        parse_info(
            "info depth 12 seldepth 18 score cp -31 nodes 100 pv e2e4 depth 99",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(Score::Cp(-31)), Some(12)));
        parse_info("info depth 20 score mate -3 lowerbound", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Mate(-3)), Some(20)));
        parse_info("info string depth 50 score cp 9", &mut s, &mut d);
        assert_eq!(d, Some(20));
        parse_info("info depth x score cp", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Mate(-3)), Some(20)));
    }

    #[test]
    fn commands() {
        let tc = TimeControl::parse("40/10+0.1").unwrap();
        let moves = vec!["e2e4".to_string(), "e7e5".to_string()];
        let request = SearchRequest {
            variant: Variant::Chess,
            game_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            game_startpos: true,
            game_moves: &moves,
            recent_hub: "",
            recent_moves: &[],
            white_to_move: true,
            clocks: Some([
                GameClock::new(&tc),
                GameClock { remaining: Duration::from_millis(9500), moves_to_go: Some(39) },
            ]),
            tc: Some(tc),
            limits: Limits { nodes: Some(1000), ..Limits::default() },
            deadline: Instant::now(),
        };
        assert_eq!(position_command(&request), "position startpos moves e2e4 e7e5");
        assert_eq!(
            go_command(&request),
            "go wtime 10000 btime 9500 winc 100 binc 100 movestogo 40 nodes 1000"
        );
        let request =
            SearchRequest { game_startpos: false, game_moves: &[], clocks: None, ..request };
        assert_eq!(
            position_command(&request),
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(go_command(&request), "go nodes 1000");
    }
}
