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

use crate::search::Signals;
use crossbeam_channel::{Receiver, Sender};
use parking_lot::Mutex;
use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Longest input line kept; the rest of a longer line is read and dropped,
/// so a hostile 100 MB line costs no memory.
pub const MAX_LINE: usize = 1 << 16;

/// A search request in protocol-neutral form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// White's clock, milliseconds (negative values are treated as zero).
    pub wtime: Option<i64>,
    /// Black's clock, milliseconds.
    pub btime: Option<i64>,
    /// White's increment, milliseconds.
    pub winc: Option<i64>,
    /// Black's increment, milliseconds.
    pub binc: Option<i64>,
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Depth limit in plies.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Fixed time for this move, milliseconds.
    pub movetime: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Ponder on the opponent's time.
    pub ponder: bool,
    /// Restrict the root to these moves (move text, checked by the engine).
    pub searchmoves: Vec<String>,
}

/// Where a `position` command starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// The variant's start position.
    Start,
    /// A FEN (chess) or PDN FEN / Hub position (draughts).
    Fen(String),
}

/// Search limits given ahead of `go` (Hub `level`): each `level` line
/// replaces the previous one whole.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
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
    Level(Level),
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

/// Reads one line of at most [`MAX_LINE`] bytes into `buf` (lossy UTF-8),
/// dropping the rest of a longer line. Returns false at end of input.
pub fn read_line(input: &mut impl BufRead, buf: &mut String) -> bool {
    buf.clear();
    let mut bytes = Vec::new();
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return !bytes.is_empty(),
        };
        if chunk.is_empty() {
            if bytes.is_empty() {
                return false;
            }
            break;
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        if done {
            break;
        }
    }
    buf.push_str(&String::from_utf8_lossy(&bytes));
    true
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
        while read_line(&mut input, &mut line) {
            let parsed = parse(&line);
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

/// How long the engine loop sleeps between looks at a finished search when
/// it has nothing else to do.
pub const IDLE_POLL: Duration = Duration::from_millis(5);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_cut_not_buffered() {
        let mut text = "x".repeat(MAX_LINE * 3);
        text.push_str("\nisready\n");
        let mut input = std::io::Cursor::new(text.into_bytes());
        let mut line = String::new();
        assert!(read_line(&mut input, &mut line));
        assert_eq!(line.len(), MAX_LINE);
        assert!(read_line(&mut input, &mut line));
        assert_eq!(line, "isready\n");
        assert!(!read_line(&mut input, &mut line));
    }

    #[test]
    fn invalid_utf8_is_read_lossily() {
        let mut input = std::io::Cursor::new(vec![0xff, 0xfe, b'a', b'\n']);
        let mut line = String::new();
        assert!(read_line(&mut input, &mut line));
        assert!(line.ends_with("a\n"));
    }
}
