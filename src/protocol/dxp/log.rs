//! The DXP traffic log (`--log FILE`): every message sent and received, and
//! every notable event, one line each:
//!
//! ```text
//! 1718000000.123 send R01Crown                           Z001075A
//! 1718000000.125 recv ACrown                           0
//! 1718000001.200 note illegal move 31-22 from the peer: game ended
//! ```
//!
//! Timestamps are Unix seconds with milliseconds. Notes also go to stderr, so
//! a listener without a log file still says why a game or connection ended.
//! Writing never fails the caller: a log write error is ignored.

use parking_lot::Mutex;
use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Where DXP traffic is written.
#[derive(Default)]
pub struct Log {
    file: Option<Mutex<File>>,
}

impl Log {
    /// A log that appends to `path`, or only notes on stderr when `None`.
    pub fn open(path: Option<&Path>) -> io::Result<Log> {
        let file = match path {
            Some(p) => Some(Mutex::new(File::options().create(true).append(true).open(p)?)),
            None => None,
        };
        Ok(Log { file })
    }

    fn line(&self, direction: &str, text: &str) {
        if let Some(file) = &self.file {
            let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
            let line = format!("{}.{:03} {direction} {text}\n", now.as_secs(), now.subsec_millis());
            let _ = file.lock().write_all(line.as_bytes());
        }
    }

    /// A message we sent.
    pub fn sent(&self, message: &str) {
        self.line("send", message);
    }

    /// A message (or raw bytes, escaped) we received.
    pub fn received(&self, message: &str) {
        self.line("recv", message);
    }

    /// An event: a fault, a game result, a connection opened or closed.
    pub fn note(&self, text: &str) {
        eprintln!("crown dxp: {text}");
        self.line("note", text);
    }
}

/// Printable form of received bytes (non-printable bytes as `\xNN`).
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes.iter().take(200) {
        if (b' '..=b'~').contains(&b) && b != b'\\' {
            out.push(b as char);
        } else {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}
