//! Shared by the UCI session tests: a running `crown` process spoken to over
//! pipes, and checks on what it prints.
//!
//! [`Engine`] starts the real binary, reads its output on a thread into a
//! channel, and records every line it printed, so each test can finish by
//! checking that every line was well formed ([`Engine::quit`]) and that
//! every `bestmove` was legal in the position it answered.
//! Timeouts are generous (a shared 2-core machine): they only turn a hang
//! into a failure, they never measure speed.

#![allow(dead_code)]

use crown::chess::Position;
use crown::game::{Game, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Long enough for any search the tests start on a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// The standard start position.
pub const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A `crown` process in UCI mode.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line the engine printed so far.
    pub transcript: Vec<String>,
    /// Every line sent so far.
    pub sent: Vec<String>,
}

impl Engine {
    /// Starts the binary with no arguments (UCI on stdin/stdout).
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crown"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start crown");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let text = String::from_utf8(buf.clone())
                            .unwrap_or_else(|_| format!("<non-UTF-8 output {buf:?}>"));
                        let text = text.strip_suffix('\n').unwrap_or(&text).to_string();
                        if tx.send(text).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Engine { child, stdin, lines: rx, transcript: Vec::new(), sent: Vec::new() }
    }

    /// Starts the engine and completes the handshake.
    pub fn ready() -> Engine {
        let mut engine = Engine::start();
        engine.send("uci");
        engine.until(|l| l == "uciok");
        engine.sync();
        engine
    }

    /// Sends one line (a newline is added).
    pub fn send(&mut self, line: &str) {
        self.sent.push(line.chars().take(200).collect());
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line.as_bytes()).expect("write to crown");
        stdin.write_all(b"\n").expect("write to crown");
        stdin.flush().expect("flush to crown");
    }

    /// Sends raw bytes as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to crown");
        stdin.flush().expect("flush to crown");
    }

    /// The next line, or None after `wait`.
    pub fn next_line(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                panic!("crown closed its output; transcript:\n{}", self.dump())
            }
        }
    }

    /// Lines up to and including the first one that satisfies `done`.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                panic!("no expected line within {PATIENCE:?}; transcript:\n{}", self.dump())
            };
            let stop = done(&line);
            got.push(line);
            if stop {
                return got;
            }
        }
    }

    /// Every line printed within `wait` (for checking that nothing comes).
    pub fn drain(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            got.push(line);
        }
        got
    }

    /// Sends `isready` and returns the lines before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// Sends `command` (a `go`) and returns the lines up to and including
    /// `bestmove`.
    pub fn search(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.until(|l| l.starts_with("bestmove"))
    }

    /// The `Fen:` line of the `d` command.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.until(|l| l.starts_with("Checkers:"));
        let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: ")).expect("Fen line");
        fen.to_string()
    }

    /// Closes the engine's input without `quit` (end of input).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Sends `quit`, checks the exit status is 0 and every printed line
    /// is well formed; returns the whole transcript.
    pub fn quit(mut self) -> Vec<String> {
        if let Some(stdin) = self.stdin.as_mut() {
            let _ = stdin.write_all(b"quit\n");
            let _ = stdin.flush();
        }
        self.stdin = None;
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("wait for crown") {
                break status;
            }
            assert!(Instant::now() < deadline, "crown did not quit; transcript:\n{}", self.dump());
            std::thread::sleep(Duration::from_millis(10));
        };
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.transcript.push(line);
        }
        assert!(status.success(), "exit status {status:?}; transcript:\n{}", self.dump());
        for line in &self.transcript {
            assert!(
                well_formed(line),
                "malformed output line {line:?}; transcript:\n{}",
                self.dump()
            );
        }
        std::mem::take(&mut self.transcript)
    }

    /// The conversation so far, for failure messages.
    pub fn dump(&self) -> String {
        let mut text = format!("sent:\n  {}\nreceived:\n", self.sent.join("\n  "));
        for line in self.transcript.iter().rev().take(80).rev() {
            text += "  ";
            text += &line.chars().take(300).collect::<String>();
            text += "\n";
        }
        text
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failed test must not leave a searching process behind.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Whether `text` looks like a UCI move (`e2e4`, `a7a8q`).
pub fn is_move_text(text: &str) -> bool {
    let b = text.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || (b.len() == 5 && b"qrbn".contains(&b[4])))
        && square(b[0], b[1])
        && square(b[2], b[3])
}

fn info_well_formed(tokens: &[&str]) -> bool {
    let number = |t: Option<&&str>| t.is_some_and(|t| t.parse::<i64>().is_ok());
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "string" => return true,
            "depth" | "seldepth" | "multipv" | "nodes" | "nps" | "hashfull" | "time"
            | "currmovenumber" | "tbhits" | "cpuload" => {
                if !number(tokens.get(i + 1)) {
                    return false;
                }
                i += 2;
            }
            "score" => {
                if !matches!(tokens.get(i + 1), Some(&"cp" | &"mate")) || !number(tokens.get(i + 2))
                {
                    return false;
                }
                i += 3;
            }
            "lowerbound" | "upperbound" => i += 1,
            "wdl" => {
                if !(1..=3).all(|k| number(tokens.get(i + k))) {
                    return false;
                }
                i += 4;
            }
            "currmove" => {
                if !tokens.get(i + 1).is_some_and(|m| is_move_text(m)) {
                    return false;
                }
                i += 2;
            }
            "pv" => return tokens[i + 1..].iter().all(|m| is_move_text(m)) && i + 1 < tokens.len(),
            _ => return false,
        }
    }
    true
}

/// Whether an output line is one Crown may print: a UCI line of a known
/// form, or a line of the `d`, `go perft`, `bench` or `eval` outputs.
pub fn well_formed(line: &str) -> bool {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if line != line.trim_end() || line.chars().any(char::is_control) {
        return false;
    }
    match tokens.as_slice() {
        ["id", "name" | "author", _, ..] => true,
        ["option", "name", ..] => line.contains(" type "),
        ["uciok"] | ["readyok"] => true,
        ["bestmove", "(none)"] => true,
        ["bestmove", m] => is_move_text(m),
        ["bestmove", m, "ponder", p] => is_move_text(m) && is_move_text(p),
        ["info", rest @ ..] => !rest.is_empty() && info_well_formed(rest),
        // d
        [] => true,
        ["+---+---+---+---+---+---+---+---+"] => true,
        ["|", ..] => line.matches('|').count() == 9,
        ["a", "b", "c", "d", "e", "f", "g", "h"] => true,
        ["Fen:", ..] | ["Key:", _] | ["Checkers:", ..] => true,
        // go perft
        [m, n] if m.ends_with(':') => is_move_text(&m[..m.len() - 1]) && n.parse::<u64>().is_ok(),
        ["Nodes", "searched:", n] => n.parse::<u64>().is_ok(),
        // bench
        [.., n, "nodes", r, "nps"] => n.parse::<u64>().is_ok() && r.parse::<u64>().is_ok(),
        // eval
        ["middlegame", ..] | ["Final", "evaluation:", ..] => true,
        ["embedded", "network", ..]
        | ["network", ..]
        | ["hand-set", "evaluation" | "evaluation,", ..] => true,
        _ => false,
    }
}

/// The position after `position <setup> moves ...`, from the crown library.
pub fn after(fen: &str, variant: Variant, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen, variant).expect("test FEN");
    for text in moves {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("test move {text}: {e}"));
        pos.play(mv);
    }
    pos
}

/// The move of a `bestmove` line, checked legal in `pos`; None for `(none)`.
pub fn best_move(lines: &[String], pos: &Position) -> Option<String> {
    let last = lines.last().expect("lines");
    let tokens: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(tokens.first(), Some(&"bestmove"), "{last}");
    let text = *tokens.get(1).expect("bestmove move");
    if text == "(none)" {
        return None;
    }
    let mv = pos
        .parse_move(text)
        .unwrap_or_else(|e| panic!("illegal bestmove {text} in {}: {e}", pos.to_fen()));
    if let Some(&reply) = tokens.get(3) {
        let mut next = pos.clone();
        next.play(mv);
        next.parse_move(reply)
            .unwrap_or_else(|e| panic!("illegal ponder move {reply} after {text}: {e}"));
    }
    Some(text.to_string())
}

/// Whether a position has no legal move.
pub fn no_moves(pos: &Position) -> bool {
    let mut list = <Position as Game>::MoveList::default();
    pos.generate(&mut list);
    list.is_empty()
}

/// The `info` lines with a score and a pv.
pub fn pv_lines(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info ") && l.contains(" pv ")).collect()
}

/// The value after `key` in an info line.
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    tokens.iter().position(|t| *t == key).and_then(|i| tokens.get(i + 1).copied())
}
