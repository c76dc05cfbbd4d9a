//! The quantised network: its file format, loading (with every check that
//! keeps a bad file out) and the output layer.
//!
//! # Architecture
//! A perspective network `(768 -> H) x 2 -> 1`, with `B` output buckets: the
//! output layer has one set of weights per bucket, and the number of pieces
//! on the board chooses it ([`bucket`]). Each side sees the board
//! from its own point of view: feature `f = them * 384 + kind * 64 + square`
//! where `them` is 1 for the other side's pieces and `square` is flipped
//! vertically (`^ 56`) for Black ([`feature`]). Both perspectives share the
//! feature weights; the side to move's accumulator meets the first half of
//! the output weights, the other side's the second half.
//!
//! # File format (all little-endian)
//! | bytes | field |
//! |---|---|
//! | 0..8 | magic `CRWNNUE\0` |
//! | 8..10 | version: u16 = 1 (one output bucket) or 2 |
//! | 10 | activation: u8 (0 clipped ReLU, 1 squared clipped ReLU) |
//! | 11 | output buckets B: u8, 1 to 16 (version 1: 0, meaning 1) |
//! | 12..14 | inputs: u16 = 768 |
//! | 14..16 | hidden size H: u16, a multiple of 16, at most 4096 |
//! | 16..18 | QA: u16, the accumulator's unit (a float 1.0 is QA) |
//! | 18..20 | QB: u16, the output weights' unit |
//! | 20..22 | SCALE: u16, centipawns per unit of the float output |
//! | 22..24 | reserved: u16 = 0 |
//! | 24.. | feature weights `[768][H]` i16, feature bias `[H]` i16, output weights `[B][2][H]` i16, output biases `[B]` i32 (unit QA * QB) |
//! | last 4 | FNV-1a (32-bit) of every byte before it |
//!
//! # Invariants checked on load
//! Besides shape, size and checksum, loading proves that integer arithmetic
//! cannot overflow on any legal board (at most 32 active features): every
//! accumulator lane stays within `i16`, each perspective's output dot
//! product within `i32` (the two are added in `i64`), and for the squared
//! activation `QA * QA` within `i16` (the kernel squares in `i16`).
//! A file that fails any check is refused with a [`NetError`] and nothing
//! else changes.
//!
//! # Output
//! With `w` and `bias` those of the board's bucket: clipped ReLU:
//! `v = clamp(acc, 0, QA)`, `out = (sum(v * w) + bias) * SCALE / (QA * QB)`.
//! Squared clipped ReLU: `out = (sum(v * v * w) / QA + bias) *
//! SCALE / (QA * QB)`, the same as the trainer's float `sum(clamp(x,0,1)^2 *
//! w) + b` up to quantisation.

use crate::chess::{Color, PieceKind, Square};
use crate::eval::nnue::simd::Kernel;
use crate::game::Side;
use std::fmt;

/// Number of input features per perspective.
pub const INPUTS: usize = 768;
/// Size of the header in bytes.
pub const HEADER: usize = 24;
/// The magic bytes a net file starts with.
pub const MAGIC: [u8; 8] = *b"CRWNNUE\0";
/// The newest format version this code reads and writes (a net with one
/// output bucket is written as version 1, which older builds read).
pub const VERSION: u16 = 2;
/// Most output buckets.
pub const MAX_BUCKETS: usize = 16;
/// Largest hidden size accepted.
pub const MAX_HIDDEN: usize = 4096;
/// Most features active at once (32 pieces on a legal board).
pub const MAX_ACTIVE: i64 = 32;

/// The output bucket of a board with `pieces` pieces (kings included, 2 to
/// 32) in a net of `buckets` buckets: the range 2..=32 cut into equal
/// parts, so 8 buckets take 2-5, 6-9, ..., 30-32 pieces.
#[inline]
pub fn bucket(pieces: u32, buckets: usize) -> usize {
    (pieces.saturating_sub(2) as usize * buckets / 31).min(buckets - 1)
}

/// The hidden layer's activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)`.
    Clipped,
    /// `clamp(x, 0, 1)^2`.
    SquaredClipped,
}

impl Activation {
    /// The code stored in the header.
    pub fn code(self) -> u8 {
        match self {
            Activation::Clipped => 0,
            Activation::SquaredClipped => 1,
        }
    }

    /// The activation with header code `code`.
    pub fn from_code(code: u8) -> Option<Activation> {
        match code {
            0 => Some(Activation::Clipped),
            1 => Some(Activation::SquaredClipped),
            _ => None,
        }
    }
}

/// Why a net file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Not a Crown net (wrong magic bytes).
    Foreign,
    /// A format version this build does not read.
    Version(u16),
    /// Shorter or longer than its header says.
    Size {
        /// Bytes the header calls for.
        expected: usize,
        /// Bytes present.
        found: usize,
    },
    /// Inputs, hidden size, activation or quantisation constants out of range.
    Shape(&'static str),
    /// The checksum does not match the content (a corrupted file).
    Checksum,
    /// Weights large enough to overflow the integer arithmetic.
    Range(&'static str),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Foreign => write!(f, "not a Crown network file (bad magic bytes)"),
            NetError::Version(v) => {
                write!(f, "network file version {v} is not supported (this build reads {VERSION})")
            }
            NetError::Size { expected, found } => {
                write!(f, "network file has {found} bytes, its header calls for {expected}")
            }
            NetError::Shape(what) => write!(f, "network file header is invalid: {what}"),
            NetError::Checksum => write!(f, "network file is corrupted (checksum mismatch)"),
            NetError::Range(what) => write!(f, "network weights out of range: {what}"),
        }
    }
}

impl std::error::Error for NetError {}

/// The feature index of `color`'s `kind` on `sq`, seen from `perspective`.
#[inline]
pub fn feature(perspective: Color, color: Color, kind: PieceKind, sq: Square) -> usize {
    let flip = if perspective == Side::White { 0 } else { 56 };
    usize::from(color != perspective) * 384 + kind.index() * 64 + (sq.index() ^ flip)
}

/// FNV-1a, 32-bit: the file's checksum.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for &b in bytes {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash
}

/// A network's quantised weights and constants, as the trainer exports
/// them; [`Network::new`] checks them.
#[derive(Clone, Debug, PartialEq)]
pub struct Parts {
    /// The hidden activation.
    pub activation: Activation,
    /// Hidden size H.
    pub hidden: usize,
    /// Output buckets B.
    pub buckets: usize,
    /// The accumulator's unit.
    pub qa: u16,
    /// The output weights' unit.
    pub qb: u16,
    /// Centipawns per unit of float output.
    pub scale: u16,
    /// `[768][H]`, row per feature.
    pub feature_weights: Vec<i16>,
    /// `[H]`.
    pub feature_bias: Vec<i16>,
    /// `[B][2][H]`: per bucket, side to move first.
    pub output_weights: Vec<i16>,
    /// `[B]`: output biases in units of QA * QB.
    pub output_bias: Vec<i32>,
}

/// A loaded, checked network.
#[derive(Clone, Debug)]
pub struct Network {
    parts: Parts,
    kernel: Kernel,
}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

impl Network {
    /// Checks `parts` (shape and overflow bounds) and picks the SIMD kernel
    /// for this CPU.
    pub fn new(parts: Parts) -> Result<Network, NetError> {
        let h = parts.hidden;
        if h == 0 || h % 16 != 0 || h > MAX_HIDDEN {
            return Err(NetError::Shape(
                "hidden size must be a positive multiple of 16, at most 4096",
            ));
        }
        let b = parts.buckets;
        if b == 0 || b > MAX_BUCKETS {
            return Err(NetError::Shape("output buckets must be 1 to 16"));
        }
        if parts.qa == 0 || parts.qb == 0 || parts.scale == 0 {
            return Err(NetError::Shape("QA, QB and SCALE must be positive"));
        }
        if parts.feature_weights.len() != INPUTS * h
            || parts.feature_bias.len() != h
            || parts.output_weights.len() != 2 * h * b
            || parts.output_bias.len() != b
        {
            return Err(NetError::Shape("weight arrays do not match the hidden size"));
        }
        // Every accumulator lane: |bias| + 32 * the largest |weight| feeding it.
        for i in 0..h {
            let largest = (0..INPUTS)
                .map(|f| i64::from(parts.feature_weights[f * h + i]).abs())
                .max()
                .unwrap_or(0);
            if i64::from(parts.feature_bias[i]).abs() + MAX_ACTIVE * largest > i64::from(i16::MAX) {
                return Err(NetError::Range("an accumulator could overflow i16"));
            }
        }
        // The output sum: every activation at most QA (squared: QA * QA).
        let qa = i64::from(parts.qa);
        let per_unit = match parts.activation {
            Activation::Clipped => qa,
            Activation::SquaredClipped => qa * qa,
        };
        // The squared kernel forms v * v in i16 before widening.
        if parts.activation == Activation::SquaredClipped && qa * qa > i64::from(i16::MAX) {
            return Err(NetError::Range(
                "QA * QA overflows i16 (the squared activation needs QA <= 181)",
            ));
        }
        // Each perspective's dot product is an i32 sum; the two and the
        // bias are added in i64.
        for weights in parts.output_weights.chunks(h) {
            let bound: i64 = weights.iter().map(|&w| i64::from(w).abs() * per_unit).sum();
            if bound > i64::from(i32::MAX) {
                return Err(NetError::Range("an output dot product could overflow i32"));
            }
        }
        Ok(Network { parts, kernel: Kernel::detect() })
    }

    /// Reads and checks a net file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(NetError::Foreign);
        }
        if bytes.len() < HEADER {
            return Err(NetError::Size { expected: HEADER, found: bytes.len() });
        }
        let version = u16_at(bytes, 8);
        if version != 1 && version != VERSION {
            return Err(NetError::Version(version));
        }
        let b = match (version, bytes[11]) {
            (1, 0) => 1,
            (1, _) => return Err(NetError::Shape("reserved byte 11 must be 0 in version 1")),
            (_, b) if b == 0 || usize::from(b) > MAX_BUCKETS => {
                return Err(NetError::Shape("output buckets must be 1 to 16"))
            }
            (_, b) => usize::from(b),
        };
        let activation =
            Activation::from_code(bytes[10]).ok_or(NetError::Shape("unknown activation"))?;
        if usize::from(u16_at(bytes, 12)) != INPUTS {
            return Err(NetError::Shape("inputs must be 768"));
        }
        let h = usize::from(u16_at(bytes, 14));
        if h == 0 || h % 16 != 0 || h > MAX_HIDDEN {
            return Err(NetError::Shape(
                "hidden size must be a positive multiple of 16, at most 4096",
            ));
        }
        let expected = HEADER + 2 * (INPUTS * h + h + 2 * h * b) + 4 * b + 4;
        if bytes.len() != expected {
            return Err(NetError::Size { expected, found: bytes.len() });
        }
        let (body, sum) = bytes.split_at(expected - 4);
        if fnv1a(body) != u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]) {
            return Err(NetError::Checksum);
        }
        let mut at = HEADER;
        let mut take = |n: usize| -> Vec<i16> {
            let v = body[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let feature_weights = take(INPUTS * h);
        let feature_bias = take(h);
        let output_weights = take(2 * h * b);
        let output_bias = body[at..at + 4 * b]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Network::new(Parts {
            activation,
            hidden: h,
            buckets: b,
            qa: u16_at(bytes, 16),
            qb: u16_at(bytes, 18),
            scale: u16_at(bytes, 20),
            feature_weights,
            feature_bias,
            output_weights,
            output_bias,
        })
    }

    /// The net file of this network (what [`Network::from_bytes`] reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let p = &self.parts;
        let mut out = Vec::with_capacity(HEADER + 2 * (INPUTS + 1 + 2 * p.buckets) * p.hidden + 64);
        out.extend_from_slice(&MAGIC);
        let (version, buckets) =
            if p.buckets == 1 { (1u16, 0) } else { (VERSION, p.buckets as u8) };
        out.extend_from_slice(&version.to_le_bytes());
        out.push(p.activation.code());
        out.push(buckets);
        for v in [INPUTS as u16, p.hidden as u16, p.qa, p.qb, p.scale, 0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for w in p.feature_weights.iter().chain(&p.feature_bias).chain(&p.output_weights) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in &p.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// The weights and constants.
    pub fn parts(&self) -> &Parts {
        &self.parts
    }

    /// Hidden size H.
    #[inline]
    pub fn hidden(&self) -> usize {
        self.parts.hidden
    }

    /// The SIMD kernel chosen for this CPU.
    #[inline]
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The bias row (the accumulator of an empty board).
    #[inline]
    pub fn bias(&self) -> &[i16] {
        &self.parts.feature_bias
    }

    /// The weight row of feature `f` (`f < 768`).
    #[inline]
    pub fn row(&self, f: usize) -> &[i16] {
        let h = self.parts.hidden;
        &self.parts.feature_weights[f * h..(f + 1) * h]
    }

    /// Output buckets B.
    #[inline]
    pub fn buckets(&self) -> usize {
        self.parts.buckets
    }

    /// The output in centipawns for the side to move, whose accumulator is
    /// `us` (the other side's `them`), both of length H, on a board of
    /// `pieces` pieces.
    #[inline]
    pub fn output(&self, us: &[i16], them: &[i16], pieces: u32) -> i32 {
        let p = &self.parts;
        let h = p.hidden;
        let b = bucket(pieces, p.buckets);
        let (w_us, w_them) = p.output_weights[2 * h * b..2 * h * (b + 1)].split_at(h);
        let qa = p.qa as i16;
        let (qa64, qb) = (i64::from(p.qa), i64::from(p.qb));
        let sum = match p.activation {
            Activation::Clipped => {
                i64::from(self.kernel.clipped_dot(us, w_us, qa))
                    + i64::from(self.kernel.clipped_dot(them, w_them, qa))
            }
            Activation::SquaredClipped => {
                (i64::from(self.kernel.squared_dot(us, w_us, qa))
                    + i64::from(self.kernel.squared_dot(them, w_them, qa)))
                    / qa64
            }
        };
        ((sum + i64::from(p.output_bias[b])) * i64::from(p.scale) / (qa64 * qb)) as i32
    }
}
