//! Shared by the issue-18 stress and regression tests: a seeded generator,
//! a line-protocol process (UCI or Hub) whose output lines arrive stamped
//! with their arrival time, and the environment switches.
//!
//! * [`Rng`]: SplitMix64, so a seed replays a whole run. [`seed`] takes
//!   `CROWN_SEED` when set, else the clock; every failure message names it.
//! * [`Proc`]: the built `crown` binary on pipes; the reader thread stamps
//!   each line with `Instant::now()` as it arrives, so a check of "answered
//!   within 2 s" measures the engine, not the test's own pace. A `Proc` is
//!   killed and reaped when dropped, so no test leaves a process behind.
//! * [`soak`]: `CROWN_SOAK=1` turns the default runs (at most 2 minutes
//!   each) into long soaks.
//! * [`Owed`]: what a process still owes (answers to searches, with the
//!   moves an answer may be, and liveness replies) and [`Owed::settle`],
//!   which collects it or fails.
//! * [`malformed`] and [`hostile_cases`]: lines no GUI should send (random
//!   bytes, some not UTF-8; commands cut short; numbers too large for any
//!   field; white space alone; the cases of `tests/data/uci_hostile.txt`).
//!
//! Every wait is bounded: a hang becomes a failure with the transcript.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an answer that is due may take before the test calls it a hang.
pub const DUE: Duration = Duration::from_secs(2);

/// The seeded generator of the match runner (splitmix64), so a failing
/// sequence replays from its printed seed.
pub use crown::rng::Rng;

/// The run's seed: `CROWN_SEED` when set, else from the clock. Printed, so
/// a failing run can be replayed.
pub fn seed() -> u64 {
    let seed = match std::env::var("CROWN_SEED") {
        Ok(text) => text.parse().expect("CROWN_SEED must be a number"),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64),
    };
    eprintln!("seed {seed} (replay with CROWN_SEED={seed})");
    seed
}

/// Whether the long soak was asked for (`CROWN_SOAK=1`).
pub fn soak() -> bool {
    std::env::var("CROWN_SOAK").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// A short random pause between commands: mostly none, sometimes a few
/// milliseconds, rarely a few tens.
pub fn pause(rng: &mut Rng) {
    let ms = match rng.range(0, 9) {
        0..=4 => 0,
        5..=8 => rng.range(1, 4),
        _ => rng.range(10, 30),
    };
    if ms > 0 {
        std::thread::sleep(Duration::from_millis(ms));
    }
}

/// One output line and when it arrived.
#[derive(Clone, Debug)]
pub struct Line {
    /// The text, without the newline.
    pub text: String,
    /// When the reader thread read it.
    pub at: Instant,
}

/// A running `crown` speaking a line protocol on its stdin/stdout.
pub struct Proc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    /// The last lines sent and read, for failure messages.
    pub recent: Vec<String>,
}

impl Proc {
    /// Starts the binary with `args` (none: UCI; `["hub"]`: Hub).
    pub fn start(args: &[&str]) -> Proc {
        Proc::start_program(env!("CARGO_BIN_EXE_crown"), args)
    }

    /// Starts another program on the same pipes (the tests of the checks
    /// use stand-ins that misbehave).
    pub fn start_program(program: &str, args: &[&str]) -> Proc {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("start {program}: {e}"));
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let at = Instant::now();
                        let text = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(Line { text, at }).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Proc { child, stdin, lines, recent: Vec::new() }
    }

    fn remember(&mut self, text: String) {
        if self.recent.len() >= 60 {
            self.recent.remove(0);
        }
        self.recent.push(text);
    }

    /// Sends one line; `false` when the pipe is closed.
    pub fn send(&mut self, line: &str) -> bool {
        self.send_bytes(line.as_bytes())
    }

    /// Sends one line of raw bytes (need not be UTF-8); `false` when the
    /// pipe is closed.
    pub fn send_bytes(&mut self, line: &[u8]) -> bool {
        let shown: String = String::from_utf8_lossy(line).chars().take(120).collect();
        self.remember(format!("> {shown:?}"));
        let Some(stdin) = self.stdin.as_mut() else { return false };
        stdin.write_all(line).is_ok() && stdin.write_all(b"\n").is_ok() && stdin.flush().is_ok()
    }

    /// How the process ended, if it has.
    pub fn exit_status(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// The next line, or `None` after `wait` (or when the output closed).
    pub fn next(&mut self, wait: Duration) -> Option<Line> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.remember(format!("< {}", line.text.chars().take(160).collect::<String>()));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first that `done` accepts, or `Err`
    /// with the lines read when `wait` passes first.
    pub fn until(
        &mut self,
        wait: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<Vec<Line>, Vec<Line>> {
        let deadline = Instant::now() + wait;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next(left) else { return Err(got) };
            let stop = done(&line.text);
            got.push(line);
            if stop {
                return Ok(got);
            }
        }
    }

    /// Closes stdin (end of input counts as `quit`).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits up to `limit` for the process to exit.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The last lines sent (`>`) and read (`<`).
    pub fn dump(&self) -> String {
        self.recent.join("\n")
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The word after `key` in a whitespace-separated line (`nodes 123`).
pub fn field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    while let Some(w) = words.next() {
        if w == key {
            return words.next();
        }
    }
    None
}

/// The value of `key=value` in a Hub line.
pub fn hub_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace().find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
}

/// The words a protocol answers with: a search's answer and the liveness
/// reply.
#[derive(Clone, Copy)]
pub struct Words {
    /// First word of a search's answer (`bestmove`, `done`).
    pub answer: &'static str,
    /// The liveness reply (`readyok`, `pong`).
    pub ready: &'static str,
}

/// UCI's words.
pub const UCI: Words = Words { answer: "bestmove", ready: "readyok" };
/// Hub's words.
pub const HUB: Words = Words { answer: "done", ready: "pong" };

/// What a process owes: searches not yet answered, liveness requests not
/// yet answered (with when they were sent).
pub struct Owed {
    /// The protocol's words.
    pub words: Words,
    /// Searches started.
    pub gos: u64,
    /// Searches answered.
    pub answers: u64,
    /// For each search not answered yet, in order: the moves its answer
    /// must be one of (`None`: any).
    pub allowed: VecDeque<Option<Vec<String>>>,
    /// Liveness requests not answered yet.
    pub ready: VecDeque<Instant>,
    /// Whether an endless search may be running.
    pub infinite: bool,
}

impl Owed {
    /// Nothing owed yet.
    pub fn new(words: Words) -> Owed {
        Owed {
            words,
            gos: 0,
            answers: 0,
            allowed: VecDeque::new(),
            ready: VecDeque::new(),
            infinite: false,
        }
    }

    /// Counts a search started; its answer must be one of `allowed` when
    /// given. Every search of a run is counted here, so the answers match
    /// their searches in order.
    pub fn go(&mut self, allowed: Option<Vec<String>>) {
        self.gos += 1;
        self.allowed.push_back(allowed);
    }

    /// Counts one line of output against what is owed.
    pub fn take(&mut self, line: &Line, p: &Proc, ctx: &str) {
        let first = line.text.split_whitespace().next().unwrap_or("");
        if first == self.words.answer {
            self.answers += 1;
            assert!(
                self.answers <= self.gos,
                "{ctx}: more {} ({}) than go ({})\n{}",
                self.words.answer,
                self.answers,
                self.gos,
                p.dump()
            );
            if let Some(Some(allowed)) = self.allowed.pop_front() {
                let played = hub_field(&line.text, "move")
                    .or_else(|| field(&line.text, self.words.answer))
                    .unwrap_or("");
                assert!(
                    allowed.iter().any(|m| m == played),
                    "{ctx}: answer {played:?} is not one of {allowed:?}\n{}",
                    p.dump()
                );
            }
        } else if line.text == self.words.ready {
            let sent = self.ready.pop_front().unwrap_or_else(|| {
                panic!("{ctx}: {} without a request\n{}", self.words.ready, p.dump());
            });
            let took = line.at.duration_since(sent);
            assert!(took <= DUE, "{ctx}: {} after {took:?}\n{}", self.words.ready, p.dump());
        }
    }

    /// Reads what is there without waiting.
    pub fn drain(&mut self, p: &mut Proc, ctx: &str) {
        while let Some(line) = p.next(Duration::ZERO) {
            self.take(&line, p, ctx);
        }
    }

    /// Sends `stop` as often as needed (every 50 ms while a search is owed:
    /// each ends the running search, and the next one kept behind it
    /// starts) and reads until everything owed has come. Fails when nothing
    /// owed (an answer, a liveness reply) arrives for [`DUE`] while
    /// something is: other lines (`info`, errors) are no progress, so an
    /// engine that talks forever without answering fails too. Fails at once,
    /// with its exit status, when the process has died.
    pub fn settle(&mut self, p: &mut Proc, ctx: &str) {
        let mut progress = Instant::now();
        let mut stopped = Instant::now() - DUE;
        while self.answers < self.gos || !self.ready.is_empty() {
            if let Some(front) = self.ready.front() {
                assert!(
                    front.elapsed() <= DUE + DUE,
                    "{ctx}: liveness request unanswered\n{}",
                    p.dump()
                );
            }
            if self.answers < self.gos && stopped.elapsed() > Duration::from_millis(50) {
                p.send("stop");
                stopped = Instant::now();
            }
            if let Some(line) = p.next(Duration::from_millis(50)) {
                let before = (self.answers, self.ready.len());
                self.take(&line, p, ctx);
                if (self.answers, self.ready.len()) != before {
                    progress = Instant::now();
                }
            } else if let Some(status) = p.exit_status() {
                panic!(
                    "{ctx}: crown exited ({status}) with {} of {} answered, {} liveness owed\n{}",
                    self.answers,
                    self.gos,
                    self.ready.len(),
                    p.dump()
                );
            }
            if progress.elapsed() > DUE {
                let status = p.exit_status();
                panic!(
                    "{ctx}: hang: {} of {} answered, {} liveness owed, exit status {status:?}\n{}",
                    self.answers,
                    self.gos,
                    self.ready.len(),
                    p.dump()
                );
            }
        }
        self.infinite = false;
    }

    /// The reference search after a sequence was owed and answered; the
    /// rest starts afresh.
    pub fn after_reference(&self) -> Owed {
        Owed { gos: self.gos + 1, answers: self.answers + 1, ..Owed::new(self.words) }
    }
}

/// A protocol's side of a stress run: how to start the engine, one random
/// sequence of commands, and the reference search compared with a fresh
/// process after each sequence.
pub struct Protocol<'a> {
    /// The protocol's words.
    pub words: Words,
    /// The search that never ends by itself (`go infinite`, `go analyze`).
    pub endless: &'a str,
    /// Starts a new engine process.
    pub fresh: &'a dyn Fn() -> Proc,
    /// Sends one random sequence, counting what it owes.
    pub sequence: &'a dyn Fn(&mut Rng, &mut Proc, &mut Owed, &str),
    /// The reference search's best move and node count.
    pub reference: &'a dyn Fn(&mut Proc, &str) -> (String, u64),
}

/// Runs 1,000 random sequences (20,000 with `CROWN_SOAK`) against one
/// process, replaced after a random `quit` (sometimes mid-search): every
/// sequence must keep the contract and leave the engine searching exactly
/// as a fresh process does.
pub fn run_sequences(protocol: &Protocol<'_>, seed: u64, rng: &mut Rng) {
    let total = if soak() { 20_000 } else { 1_000 };
    let started = Instant::now();
    let want = {
        let mut p = (protocol.fresh)();
        (protocol.reference)(&mut p, &format!("seed {seed}: fresh process"))
    };
    let mut p = (protocol.fresh)();
    let mut owed = Owed::new(protocol.words);
    let mut done = 0;
    while done < total {
        let ctx = format!("seed {seed}, sequence {done}");
        (protocol.sequence)(rng, &mut p, &mut owed, &ctx);
        let got = (protocol.reference)(&mut p, &ctx);
        assert_eq!(got, want, "{ctx}: depth 8 after the sequence differs from a fresh process");
        owed = owed.after_reference();
        if rng.chance(3) {
            // Quit, sometimes in the middle of a search: the process must go.
            if rng.chance(50) {
                p.send(protocol.endless);
            }
            p.send("quit");
            assert!(p.wait_exit(DUE).is_some(), "{ctx}: still running 2 s after quit");
            p = (protocol.fresh)();
            owed = Owed::new(protocol.words);
        }
        done += 1;
    }
    p.send("quit");
    assert!(p.wait_exit(DUE).is_some(), "seed {seed}: still running 2 s after quit");
    eprintln!("{done} sequences in {:.1} s", started.elapsed().as_secs_f64());
}

/// Numbers no field takes whole: past `u32`, `u64` and `i128`, negative,
/// or written in a form a count never has.
const ODD_NUMBERS: &[&str] = &[
    "-1",
    "-0",
    "4294967296",
    "18446744073709551616",
    "-9223372036854775809",
    "170141183460469231731687303715884105728",
    "1e9",
    "0x10",
    "1.5",
    "NaN",
    "inf",
    "１２",
];

/// Characters that are valid UTF-8 but no command word: accents, other
/// scripts, emoji, NUL, DEL, a byte-order mark, zero-width and escape
/// sequences.
const ODD_TEXT: &[&str] =
    &["é", "日本語", "🐴", "\u{0}", "\u{7f}", "\u{feff}", "\u{200b}", "ｇｏ", "\u{1b}[2J", "\\"];

/// A line no GUI should send, built from the protocol's `commands` (valid
/// lines to cut short), `numbered` (templates whose `{}` gets a number
/// too large or malformed) and `words` (its keywords, for word soup): random
/// bytes (some not UTF-8, never a newline), odd characters, a command cut at
/// a random character, a number no field takes, keywords in random order,
/// or white space alone.
pub fn malformed(rng: &mut Rng, commands: &[&str], numbered: &[&str], words: &[&str]) -> Vec<u8> {
    match rng.range(0, 5) {
        0 => (0..rng.range(1, 40))
            .map(|_| loop {
                let b = rng.next_u64() as u8;
                if b != b'\n' {
                    break b;
                }
            })
            .collect(),
        1 => {
            let mut text = String::new();
            for _ in 0..rng.range(1, 5) {
                let odd = *rng.pick(ODD_TEXT);
                text.push_str(odd);
                if rng.chance(50) {
                    let word = *rng.pick(words);
                    text.push_str(word);
                }
            }
            text.into_bytes()
        }
        2 => {
            let line = rng.pick(commands);
            let cuts: Vec<usize> = line.char_indices().map(|(i, _)| i).skip(1).collect();
            let at = if cuts.is_empty() { 0 } else { *rng.pick(&cuts) };
            line.as_bytes()[..at].to_vec()
        }
        3 => {
            let number = if rng.chance(50) {
                rng.pick(ODD_NUMBERS).to_string()
            } else {
                (0..rng.range(10, 60)).map(|_| char::from(b'0' + rng.range(0, 9) as u8)).collect()
            };
            rng.pick(numbered).replace("{}", &number).into_bytes()
        }
        4 => {
            let mut soup: Vec<&str> = (0..rng.range(1, 6)).map(|_| *rng.pick(words)).collect();
            rng.shuffle(&mut soup);
            soup.join(" ").into_bytes()
        }
        _ => rng.pick(&["", " ", "\t\t", "\r", "  \t \r"]).as_bytes().to_vec(),
    }
}

/// One case of `tests/data/uci_hostile.txt`: its line, its tag, the bytes
/// to send.
pub struct Case {
    /// The line of the data file.
    pub line: usize,
    /// What must happen (see the file's header).
    pub tag: char,
    /// The line to send, decoded.
    pub payload: Vec<u8>,
}

/// `\xHH` (a raw byte), `\\`, `\t` and `\r` decoded.
fn decode(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1)) {
            (b'\\', Some(b'\\')) => out.push(b'\\'),
            (b'\\', Some(b'x')) => {
                let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).expect("hex digits");
                out.push(u8::from_str_radix(hex, 16).expect("hex byte"));
                i += 2;
            }
            (b'\\', Some(b't')) => out.push(b'\t'),
            (b'\\', Some(b'r')) => out.push(b'\r'),
            (b, _) => {
                out.push(b);
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    out
}

/// The cases of the hostile UCI transcript (`tests/data/uci_hostile.txt`).
pub fn hostile_cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/uci_hostile.txt");
    let text = std::fs::read_to_string(path).expect("read the hostile transcript");
    let mut cases = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        if let Some(rest) = raw.strip_prefix("@long ") {
            let (count, unit) = rest.split_once(' ').expect("@long N TEXT");
            let count: usize = count.parse().expect("@long count");
            let unit = format!("{unit} ");
            let payload: String = unit.chars().cycle().take(count).collect();
            cases.push(Case { line: n + 1, tag: 'E', payload: payload.into_bytes() });
            continue;
        }
        let mut chars = raw.chars();
        let tag = chars.next().unwrap();
        assert!("EOPA".contains(tag), "line {}: unknown tag in {raw:?}", n + 1);
        let payload = match chars.as_str() {
            "" => "",
            rest => rest.strip_prefix(' ').expect("a space after the tag"),
        };
        cases.push(Case { line: n + 1, tag, payload: decode(payload) });
    }
    cases
}

/// What a line owes, as crown's own parser reads it (each stress test maps
/// its protocol's commands): the parser's tests pin what it accepts; a run
/// checks that what it accepted is answered.
#[derive(Debug, PartialEq)]
pub enum Owes {
    /// No answer of its own (an error line, an option's note, perft or
    /// bench output may come).
    Nothing,
    /// A `readyok` (UCI) or `pong` (Hub).
    Ready,
    /// One `bestmove` (UCI) or `done` (Hub).
    Answer,
    /// Not sent in a run: `quit`, a long perft or bench, a large table,
    /// many threads, an option or parameter that changes the reference
    /// search.
    Skip,
}

/// What setting an option owes in a run: nothing, or `Skip` when it would
/// allocate a large table (`table`: the protocol's name of the table
/// size), start many threads, or change the reference search (`kept`,
/// lower case).
pub fn option_owes(name: &str, value: Option<&str>, table: &str, kept: &[&str]) -> Owes {
    let name = name.to_ascii_lowercase();
    let number = value.and_then(|v| v.trim().parse::<u64>().ok());
    let large = if name == table {
        number.is_some_and(|n| n > 64)
    } else {
        name == "threads" && number.is_some_and(|n| n > 2)
    };
    if large || kept.contains(&name.as_str()) {
        Owes::Skip
    } else {
        Owes::Nothing
    }
}
