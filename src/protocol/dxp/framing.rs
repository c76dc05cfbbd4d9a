//! NUL-terminated frames over a byte stream.
//!
//! A frame is at most [`MAX_LEN`] (127) bytes followed by one NUL. The reader
//! keeps what follows a terminator for the next frame, so several messages in
//! one TCP segment, or one message split over several, both work. A stream
//! that runs 128 bytes without a terminator is an error
//! ([`FrameError::Oversize`]): the reader cannot find the next message
//! boundary with confidence, so the caller drops the connection. Memory held
//! is bounded by the read chunk plus one frame.

use super::message::MAX_LEN;
use std::fmt;
use std::io::{self, Read, Write};

/// Bytes asked of the stream per read.
const CHUNK: usize = 512;

/// Why no frame could be read.
#[derive(Debug, PartialEq, Eq)]
pub enum FrameError {
    /// The peer closed the stream between frames.
    Closed,
    /// The peer closed the stream in the middle of a frame.
    Truncated,
    /// More than 127 bytes without a terminator.
    Oversize,
    /// A read failed (reset, timeout, ...).
    Io(io::ErrorKind),
}

impl fmt::Display for FrameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FrameError::Closed => write!(f, "connection closed by the peer"),
            FrameError::Truncated => write!(f, "connection closed in the middle of a message"),
            FrameError::Oversize => {
                write!(f, "message longer than {MAX_LEN} characters without terminator")
            }
            FrameError::Io(kind) => write!(f, "read error: {kind}"),
        }
    }
}

impl std::error::Error for FrameError {}

/// Splits a byte stream into frames.
pub struct FrameReader<R: Read> {
    inner: R,
    /// Bytes read but not yet returned (never a complete frame at rest
    /// beyond the first terminator).
    pending: Vec<u8>,
}

impl<R: Read> FrameReader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> Self {
        FrameReader { inner, pending: Vec::with_capacity(CHUNK + MAX_LEN) }
    }

    /// The next frame, without its terminator.
    pub fn read_frame(&mut self) -> Result<Vec<u8>, FrameError> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == 0) {
                if end > MAX_LEN {
                    return Err(FrameError::Oversize);
                }
                let frame = self.pending[..end].to_vec();
                self.pending.drain(..=end);
                return Ok(frame);
            }
            if self.pending.len() > MAX_LEN {
                return Err(FrameError::Oversize);
            }
            let mut chunk = [0u8; CHUNK];
            match self.inner.read(&mut chunk) {
                Ok(0) if self.pending.is_empty() => return Err(FrameError::Closed),
                Ok(0) => return Err(FrameError::Truncated),
                Ok(n) => self.pending.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(FrameError::Io(e.kind())),
            }
        }
    }
}

/// Writes one frame: the message and its terminator, in one write.
pub fn write_frame<W: Write>(out: &mut W, message: &str) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(message.len() + 1);
    bytes.extend_from_slice(message.as_bytes());
    bytes.push(0);
    out.write_all(&bytes)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stream that hands out its bytes a few at a time.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(self.0.len()).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn splits_and_joins_frames() {
        let data = b"CHello\0E00\0M0001312700\0";
        for step in [1, 2, 5, 100] {
            let mut r = FrameReader::new(Trickle(data, step));
            assert_eq!(r.read_frame().unwrap(), b"CHello");
            assert_eq!(r.read_frame().unwrap(), b"E00");
            assert_eq!(r.read_frame().unwrap(), b"M0001312700");
            assert_eq!(r.read_frame(), Err(FrameError::Closed));
        }
    }

    #[test]
    fn oversize_and_truncated() {
        let long = vec![b'C'; 200];
        let mut r = FrameReader::new(Trickle(&long, 7));
        assert_eq!(r.read_frame(), Err(FrameError::Oversize));
        let mut exact = vec![b'C'; MAX_LEN];
        exact.push(0);
        let mut r = FrameReader::new(Trickle(&exact, 64));
        assert_eq!(r.read_frame().unwrap().len(), MAX_LEN);
        let mut over = vec![b'C'; MAX_LEN + 1];
        over.push(0);
        let mut r = FrameReader::new(Trickle(&over, 1000));
        assert_eq!(r.read_frame(), Err(FrameError::Oversize));
        let mut r = FrameReader::new(Trickle(b"E0", 1));
        assert_eq!(r.read_frame(), Err(FrameError::Truncated));
    }

    #[test]
    fn writes_terminator() {
        let mut out = Vec::new();
        write_frame(&mut out, "K0").unwrap();
        assert_eq!(out, b"K0\0");
    }
}
