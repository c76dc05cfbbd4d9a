//! An engine child process: line I/O with deadlines, kill and restart, stderr
//! capture and a protocol traffic log.
//!
//! Invariants:
//! * stdout is read by one named reader thread that sends whole lines (or the
//!   end of output) over a channel; the match thread never blocks on a pipe
//!   without a deadline, so a hung engine can never hang the runner.
//! * stderr is drained by a second thread into the traffic log (or dropped),
//!   so a chatty engine cannot fill the pipe and stall.
//! * A line that is not valid UTF-8 is delivered as [`Line::Malformed`].
//! * Lines starting with `info` (UCI and Hub alike) are not forwarded: the
//!   reader keeps the last one with a score for [`EngineProcess::take_info`],
//!   so the match thread wakes once per move rather than once per line.
//! * Every line is written to the traffic log by the thread that reads it.
//! * Dropping an [`EngineProcess`] kills the child and reaps it.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Where protocol traffic and engines' stderr go: one shared file, whole lines.
#[derive(Clone, Debug, Default)]
pub struct TrafficLog {
    file: Option<Arc<Mutex<File>>>,
    start: Option<Instant>,
}

impl TrafficLog {
    /// A log that writes to `path` (created or truncated).
    pub fn to_file(path: &str) -> std::io::Result<TrafficLog> {
        let file = File::create(path)?;
        Ok(TrafficLog { file: Some(Arc::new(Mutex::new(file))), start: Some(Instant::now()) })
    }

    /// Whether anything is written.
    pub fn enabled(&self) -> bool {
        self.file.is_some()
    }

    /// Writes one line: milliseconds since the start, engine name, direction
    /// (`>` to the engine, `<` from it, `!` stderr, `#` a runner note), text.
    pub fn write(&self, who: &str, dir: char, text: &str) {
        if let (Some(file), Some(start)) = (&self.file, self.start) {
            let ms = start.elapsed().as_millis();
            if let Ok(mut f) = file.lock() {
                let _ = writeln!(f, "[{ms:>9}] {who} {dir} {text}");
            }
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Launch {
    /// Program path.
    pub cmd: String,
    /// Arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<String>,
}

/// What the reader thread delivers.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line of output, without the line break.
    Text(String),
    /// A line that was not valid UTF-8 (lossily decoded for the log).
    Malformed(String),
}

/// Why no line came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (exited or crashed).
    Closed,
}

/// A running engine process.
pub struct EngineProcess {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    last_info: Arc<Mutex<Option<String>>>,
    log: TrafficLog,
}

impl EngineProcess {
    /// Starts the engine. `name` labels the log lines.
    pub fn spawn(name: &str, launch: &Launch, log: &TrafficLog) -> Result<EngineProcess, String> {
        let mut command = Command::new(&launch.cmd);
        command.args(&launch.args).stdin(Stdio::piped()).stdout(Stdio::piped());
        command.stderr(if log.enabled() { Stdio::piped() } else { Stdio::null() });
        if let Some(dir) = &launch.dir {
            command.current_dir(PathBuf::from(dir));
        }
        let mut child =
            command.spawn().map_err(|e| format!("cannot start '{}': {e}", launch.cmd))?;
        log.write(name, '#', &format!("started {} (pid {})", launch.cmd, child.id()));
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, rx) = mpsc::channel();
        let last_info = Arc::new(Mutex::new(None));
        let (info_slot, reader_log, who) = (Arc::clone(&last_info), log.clone(), name.to_string());
        thread::Builder::new()
            .name(format!("{name}-stdout"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            while matches!(buf.last(), Some(b'\n' | b'\r')) {
                                buf.pop();
                            }
                            let line = match String::from_utf8(std::mem::take(&mut buf)) {
                                Ok(text) => {
                                    reader_log.write(&who, '<', &text);
                                    if text.starts_with("info") {
                                        // Kept here, not forwarded: one wake-up
                                        // of the match thread per move, not per line.
                                        if text.contains("score") {
                                            if let Ok(mut slot) = info_slot.lock() {
                                                *slot = Some(text);
                                            }
                                        }
                                        continue;
                                    }
                                    Line::Text(text)
                                }
                                Err(e) => {
                                    let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                                    reader_log.write(&who, '<', &format!("(not UTF-8) {text}"));
                                    Line::Malformed(text)
                                }
                            };
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|e| format!("cannot start reader thread: {e}"))?;
        if let Some(stderr) = child.stderr.take() {
            let log = log.clone();
            let who = name.to_string();
            thread::Builder::new()
                .name(format!("{name}-stderr"))
                .spawn(move || {
                    for line in BufReader::new(stderr).split(b'\n').map_while(Result::ok) {
                        log.write(&who, '!', String::from_utf8_lossy(&line).trim_end());
                    }
                })
                .map_err(|e| format!("cannot start stderr thread: {e}"))?;
        }
        let stdin = child.stdin.take();
        Ok(EngineProcess {
            name: name.to_string(),
            child,
            stdin,
            lines: rx,
            last_info,
            log: log.clone(),
        })
    }

    /// The label used in logs.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line. Fails when the engine has closed its input.
    pub fn send(&mut self, line: &str) -> Result<(), ReadError> {
        self.log.write(&self.name, '>', line);
        let stdin = self.stdin.as_mut().ok_or(ReadError::Closed)?;
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        ok.map_err(|_| ReadError::Closed)
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv(&mut self, deadline: Instant) -> Result<Line, ReadError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
        }
    }

    /// Reads lines until one satisfies `want`, or the deadline passes.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        want: impl Fn(&str) -> bool,
    ) -> Result<String, ReadError> {
        loop {
            if let Line::Text(text) = self.recv(deadline)? {
                if want(&text) {
                    return Ok(text);
                }
            }
        }
    }

    /// Takes the last `info` line with a score seen since the previous call
    /// (the reader thread keeps `info` lines instead of forwarding them).
    pub fn take_info(&self) -> Option<String> {
        self.last_info.lock().ok().and_then(|mut slot| slot.take())
    }

    /// Writes a runner note into the traffic log.
    pub fn note(&self, text: &str) {
        self.log.write(&self.name, '#', text);
    }

    /// Asks the engine to quit with `quit_line`, waits up to `grace`, then
    /// kills it. Never blocks longer than `grace` plus the kill.
    pub fn shutdown(mut self, quit_line: &str, grace: Duration) {
        let _ = self.send(quit_line);
        self.stdin = None;
        let end = Instant::now() + grace;
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        // Drop kills.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            self.log.write(&self.name, '#', "killed");
        }
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Launch {
        Launch { cmd: "/bin/sh".into(), args: vec!["-c".into(), script.into()], dir: None }
    }

    #[test]
    fn echo_and_timeout_and_close() {
        let log = TrafficLog::default();
        let mut p = EngineProcess::spawn("cat", &sh("cat"), &log).unwrap();
        p.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(p.recv(deadline), Ok(Line::Text("hello".into())));
        let short = Instant::now() + Duration::from_millis(20);
        assert_eq!(p.recv(short), Err(ReadError::Timeout));
        p.shutdown("", Duration::from_secs(5));

        let mut p = EngineProcess::spawn("exit", &sh("printf 'a\\377b\\n'; exit 3"), &log).unwrap();
        assert!(matches!(p.recv(deadline), Ok(Line::Malformed(_))));
        assert_eq!(p.recv(deadline), Err(ReadError::Closed));
    }

    #[test]
    fn missing_program_is_an_error() {
        let launch = Launch { cmd: "/nonexistent/engine".into(), ..Launch::default() };
        assert!(EngineProcess::spawn("x", &launch, &TrafficLog::default()).is_err());
    }
}
