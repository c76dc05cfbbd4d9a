//! Protocols: the text front ends (UCI, Hub) and the DXP socket front end.
//!
//! Each text protocol turns a line into a protocol-neutral [`Command`] (or a
//! parse error, which is reported and changes nothing) on a named reader
//! thread, and sends it over a crossbeam channel to the engine loop, which
//! owns all engine state. `stop`, `ponderhit` and `quit` also flip the shared
//! [`Signals`] at once, so they act even while the engine loop waits for a
//! search to end. End of input counts as `quit`.
//!
//! Output goes through [`Printer`]: whole lines, written and flushed under
//! one lock, so lines from the search threads never interleave.

pub mod dxp;
pub mod hub;
pub mod hub_parse;
pub mod uci;

#[cfg(test)]
mod option_tests;

use crate::engine::Session;
use crate::search::Signals;
use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Longest input line accepted (1 MiB: a `position ... moves` line of a
/// very long game fits). A longer line is read to its end and refused
/// whole, never cut and used, and costs no memory beyond this.
pub const MAX_LINE: usize = 1 << 20;

pub use crate::engine::session::{Go, Setup};

/// Search limits given ahead of `go` (Hub `level`): each `level` line
/// replaces the previous one whole.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Preset {
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    /// The engine's clock (before the increment of this move is added).
    pub time: Option<Duration>,
    /// Increment per move.
    pub inc: Option<Duration>,
    /// Moves to the next time control.
    pub moves: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
}

/// A protocol-neutral command for the engine loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Handshake (`uci`).
    Hello,
    /// Debug output on or off.
    Debug(bool),
    /// Synchronisation (`isready`).
    IsReady,
    /// Set an option; `value` is absent for buttons.
    SetOption {
        /// Option name.
        name: String,
        /// Option value.
        value: Option<String>,
    },
    /// Registration (accepted and ignored).
    Register,
    /// A new game starts.
    NewGame,
    /// Set up a position and play moves from it.
    Position {
        /// Start position or FEN.
        setup: Setup,
        /// Moves in protocol text, played in order.
        moves: Vec<String>,
    },
    /// Start searching.
    Go(Go),
    /// Stop searching and report.
    Stop,
    /// The opponent played the expected move.
    PonderHit,
    /// Leave.
    Quit,
    /// Count leaves of the move tree (`go perft N`).
    Perft(u32),
    /// Run the benchmark (`bench [depth]`).
    Bench(Option<u32>),
    /// Print the board (`d`).
    Display,
    /// Print the static evaluation (`eval`).
    Eval,
    /// Liveness check (Hub `ping`): answered at once, even mid-search.
    Ping,
    /// Load and get ready (Hub `init`).
    Init,
    /// Limits for the next searches (Hub `level`).
    Level(Preset),
}

/// Writes whole lines to the output, one lock per line.
#[derive(Clone)]
pub struct Printer {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Printer {
    /// A printer to standard output.
    pub fn stdout() -> Printer {
        Printer::new(Box::new(std::io::stdout()))
    }

    /// A printer to any writer (tests).
    pub fn new(out: Box<dyn Write + Send>) -> Printer {
        Printer { out: Arc::new(Mutex::new(out)) }
    }

    /// Writes one line and flushes. Output errors (a closed pipe) are
    /// ignored: the reader will see end of input and quit.
    pub fn line(&self, text: &str) {
        let mut out = self.out.lock();
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// A parsed line: a command, nothing (blank or unknown-but-ignored), or an
/// error to report.
pub type Parsed = Result<Option<Command>, String>;

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line is in the buffer.
    Read,
    /// The line was longer than [`MAX_LINE`]: read to its end and dropped.
    TooLong,
    /// End of input.
    End,
}

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (lossy UTF-8).
/// A longer line is consumed to its end and reported as [`Line::TooLong`]
/// with `buf` empty.
pub fn read_line(input: &mut impl BufRead, buf: &mut String) -> Line {
    buf.clear();
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if chunk.is_empty() {
            break;
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if bytes.len() + take > MAX_LINE + 2 {
            too_long = true;
            bytes.clear();
        } else if !too_long {
            bytes.extend_from_slice(&chunk[..take]);
        }
        input.consume(take);
        if done {
            break;
        }
    }
    if too_long {
        return Line::TooLong;
    }
    if !any {
        return Line::End;
    }
    buf.push_str(&String::from_utf8_lossy(&bytes));
    Line::Read
}

/// Starts the named reader thread: each line of `input` goes through `parse`
/// and on to the engine loop; `stop`, `ponderhit` and `quit` flip the signals
/// at once as well. End of input sends `Quit`.
pub fn spawn_reader<I>(
    input: I,
    parse: fn(&str) -> Parsed,
    signals: Arc<Signals>,
) -> Receiver<Parsed>
where
    I: BufRead + Send + 'static,
{
    let (tx, rx): (Sender<Parsed>, Receiver<Parsed>) = crossbeam_channel::unbounded();
    let run = move || {
        let mut input = input;
        let mut line = String::new();
        loop {
            let parsed = match read_line(&mut input, &mut line) {
                Line::End => break,
                Line::TooLong => Err(format!("line longer than {MAX_LINE} bytes refused whole")),
                Line::Read => parse(&line),
            };
            match &parsed {
                Ok(Some(Command::Stop)) => signals.stop.store(true, Ordering::Relaxed),
                Ok(Some(Command::PonderHit)) => signals.pondering.store(false, Ordering::Relaxed),
                Ok(Some(Command::Quit)) => {
                    signals.stop.store(true, Ordering::Relaxed);
                    let _ = tx.send(parsed);
                    return;
                }
                _ => {}
            }
            if tx.send(parsed).is_err() {
                return;
            }
        }
        signals.stop.store(true, Ordering::Relaxed);
        let _ = tx.send(Ok(Some(Command::Quit)));
    };
    if std::thread::Builder::new().name("crown-stdin".into()).spawn(run).is_err() {
        // Without a reader there is no input: behave as at end of input.
        let (tx, rx) = crossbeam_channel::bounded(1);
        let _ = tx.send(Ok(Some(Command::Quit)));
        return rx;
    }
    rx
}

/// Most commands kept while the session is busy; more are refused with an
/// error (a client that floods a long search).
pub const MAX_PENDING: usize = 1 << 16;

/// A protocol's side of the engine loop.
pub trait Front {
    /// Whether `command` acts at once even while a search runs (`isready`,
    /// `ping`, `stop`, `ponderhit`, ...); every other command waits its
    /// turn.
    fn urgent(command: &Command) -> bool;
    /// Handles one command; false means quit.
    fn handle(&mut self, session: &mut Session, command: Command) -> bool;
    /// Reports an error line (a parse error, a refused command).
    fn error(&self, message: &str);
}

/// The engine loop shared by the text protocols. It never blocks on a
/// search: urgent commands act at once; a command that must wait for the
/// search (`position`, `setoption`, `ucinewgame`, `go`, ...) is kept, in
/// arrival order, and run when the search has answered, so none is dropped
/// or refused for timing and every `go` gets its answer. A `stop` or
/// `ponderhit` that arrives while a `go` is kept acts at once on the
/// running search and is also kept after that `go`, which it was meant for
/// as well: a burst of `go infinite` and `stop` never leaves a search
/// running that nothing will stop.
pub fn serve<F: Front>(front: &mut F, session: &mut Session, commands: Receiver<Parsed>) {
    let done = session.done();
    let mut pending: VecDeque<Command> = VecDeque::new();
    loop {
        while let Some(next) = pending.front() {
            let for_search = matches!(next, Command::Stop | Command::PonderHit);
            if session.is_busy() && !for_search {
                break;
            }
            let Some(command) = pending.pop_front() else { break };
            if !front.handle(session, command) {
                return;
            }
        }
        let parsed = crossbeam_channel::select! {
            recv(commands) -> message => match message {
                Ok(parsed) => parsed,
                Err(_) => return,
            },
            recv(done) -> _ => continue,
        };
        let command = match parsed {
            Ok(Some(command)) => command,
            Ok(None) => continue,
            Err(message) => {
                front.error(&message);
                continue;
            }
        };
        if matches!(command, Command::Quit) {
            return;
        }
        if F::urgent(&command) || (pending.is_empty() && !session.is_busy()) {
            let go_kept = pending.iter().any(|c| matches!(c, Command::Go(_)));
            if go_kept && matches!(command, Command::Stop | Command::PonderHit) {
                pending.push_back(command.clone());
            }
            if !front.handle(session, command) {
                return;
            }
        } else if pending.len() < MAX_PENDING {
            pending.push_back(command);
        } else {
            front.error("too many commands while busy; this one is dropped (send stop)");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_refused_whole() {
        let mut text = "x".repeat(MAX_LINE * 3);
        text.push_str("\nisready\n");
        let mut input = std::io::Cursor::new(text.into_bytes());
        let mut line = String::new();
        assert_eq!(read_line(&mut input, &mut line), Line::TooLong);
        assert!(line.is_empty());
        assert_eq!(read_line(&mut input, &mut line), Line::Read);
        assert_eq!(line, "isready\n");
        assert_eq!(read_line(&mut input, &mut line), Line::End);
    }

    #[test]
    fn lines_up_to_the_limit_are_read_whole() {
        let mut text = "y".repeat(MAX_LINE - 1);
        text.push('\n');
        let mut input = std::io::Cursor::new(text.into_bytes());
        let mut line = String::new();
        assert_eq!(read_line(&mut input, &mut line), Line::Read);
        assert_eq!(line.len(), MAX_LINE);
    }

    #[test]
    fn invalid_utf8_is_read_lossily() {
        let mut input = std::io::Cursor::new(vec![0xff, 0xfe, b'a', b'\n']);
        let mut line = String::new();
        assert_eq!(read_line(&mut input, &mut line), Line::Read);
        assert!(line.ends_with("a\n"));
    }
}
