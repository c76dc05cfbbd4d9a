//! The learned evaluation of international draughts: region patterns.
//!
//! The 10x10 board is read as 16 overlapping 4x4 windows (rows and columns
//! starting at 0, 2, 4 and 6; each window holds 8 playable squares), the
//! scanning Fabien Letouzey's Scan made known. Every configuration of a
//! window (each square empty, White or Black, a king read as a piece of its
//! colour: 3^8 = 6561) has a learned weight. Beside the patterns, the hand-set evaluation's terms
//! (`terms.rs`: material with the first, second and further kings apart,
//! advancement by row, i.e. tempo, king mobility and the long diagonal,
//! runaway men, the side to move, ...) are features with their own learned
//! weights, so what windows cannot see (material, whole-board tempo, kings)
//! keeps its own terms and the patterns learn what the terms miss. Every
//! weight is a (middlegame, endgame) pair, tapered by the number of men
//! exactly as the hand-set evaluation is (`super::white_score`), whose draw
//! knowledge (the endgame scale) it shares.
//!
//! Colour symmetry: a window and its 180-degree rotation share one table.
//! Window `w` (of the 8 with rows starting at 0 or 2) reads its squares in
//! reading order with White = 1, Black = 2; its partner `15 - w` reads the
//! rotated squares with the colours swapped and counts negatively, so the
//! evaluation of a position is minus that of its colour-flipped mirror,
//! exactly (a test checks it).
//!
//! File format (`.cdp`, little-endian), trained and written by
//! `crown-tune patterns` (tuning/README.md, section 7, "International
//! draughts patterns"):
//!
//! | bytes          | field |
//! |----------------|-------|
//! | 0..8           | magic `CRWNPAT\0` |
//! | 8..12          | version: u32 = 1 |
//! | 12..16         | features: u32 = [`FEATURES`] |
//! | 16..16+4F      | per feature: middlegame i16, endgame i16 |
//! | last 4         | FNV-1a (32-bit) of everything before it |
//!
//! Invariant: [`Patterns::from_bytes`] accepts exactly what
//! [`Patterns::to_bytes`] writes and refuses anything else with a
//! [`PatternError`], never panicking.

use super::features::feature;
use super::terms::{terms, ManSink};
use crate::draughts::geometry::{Bitboard, Geometry, Ten};
use crate::draughts::position::Position;
use crate::draughts::rules::{InternationalRules, Rules};
use crate::eval::nnue::network::fnv1a;
use crate::eval::{Coefficients, Sink};
use crate::game::Variant;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Windows with their own table (the other 8 are their rotations).
pub const WINDOWS: usize = 8;
/// Configurations of one window: 3 states on 8 squares.
pub const CONFIGS: usize = 6561;
/// Scalar features before the pattern tables: the hand-set terms.
pub const SCALARS: usize = feature::COUNT;
/// All features: the scalars, then window `w`'s configuration `c` at
/// `SCALARS + w * CONFIGS + c`.
pub const FEATURES: usize = SCALARS + WINDOWS * CONFIGS;

const MAGIC: [u8; 8] = *b"CRWNPAT\0";
const VERSION: u32 = 1;
const HEADER: usize = 16;
/// Size of a pattern file in bytes.
pub const FILE_SIZE: usize = HEADER + 4 * FEATURES + 4;

/// Window `w`'s squares as bits of the [`Ten`] layout, in reading order;
/// windows `8..16` list the 180-degree rotations of windows `0..8` square by
/// square, so square `k` of window `15 - w` is square `k` of `w` rotated.
const WINDOW_BITS: [[u8; 8]; 16] = window_bits();

const fn window_bits() -> [[u8; 8]; 16] {
    let mut out = [[0u8; 8]; 16];
    let mut w = 0;
    while w < 16 {
        let (row0, col0) = (2 * (w / 4), 2 * (w % 4));
        let mut k = 0;
        let mut r = 0;
        while r < 4 {
            let mut c = 0;
            while c < 4 {
                let (row, col) = (row0 + r, col0 + c);
                // Playable squares have an odd row + column (b10 is the
                // first square of row 0).
                if (row + col) % 2 == 1 {
                    out[w][k] = bit(row, col);
                    k += 1;
                }
                c += 1;
            }
            r += 1;
        }
        w += 1;
    }
    // The rotated windows, re-listed so that their k-th square is the
    // rotation of their partner's k-th.
    let mut w = 0;
    while w < WINDOWS {
        let mut k = 0;
        while k < 8 {
            out[15 - w][k] = rotated(out[w][k]);
            k += 1;
        }
        w += 1;
    }
    out
}

/// The [`Ten`] bit of a playable cell.
const fn bit(row: usize, col: usize) -> u8 {
    let index = row * 5 + col / 2;
    (index + index / 10) as u8
}

/// The bit of the square rotated by 180 degrees (index `s` to `49 - s`).
const fn rotated(bit: u8) -> u8 {
    let index = Ten::INDEX[bit as usize] as usize;
    let r = 49 - index;
    (r + r / 10) as u8
}

/// The configuration of `bits` with `ones` read as 1 and `twos` as 2: the
/// definition, `sum of state(k) * 3^k`; [`config`] computes the same faster
/// (a test checks they agree).
#[cfg(test)]
fn config_by_square(ones: Bitboard, twos: Bitboard, bits: &[u8; 8]) -> usize {
    let mut index = 0;
    for &b in bits.iter().rev() {
        index = index * 3 + ((ones >> b) & 1) as usize + 2 * ((twos >> b) & 1) as usize;
    }
    index
}

/// Per window, the lower bit of the two squares it has in each of its four
/// rows (two squares of one row are neighbouring bits of the layout).
/// Squares `2r` and `2r + 1` of a window are row `r`'s: in a window of the
/// first 8 square `2r` is the lower bit; in a rotated one, `2r + 1`.
const ROW_BITS: [[u8; 4]; 16] = {
    let mut out = [[0u8; 4]; 16];
    let mut w = 0;
    while w < 16 {
        let mut r = 0;
        while r < 4 {
            let (a, b) = (WINDOW_BITS[w][2 * r], WINDOW_BITS[w][2 * r + 1]);
            out[w][r] = if a < b { a } else { b };
            r += 1;
        }
        w += 1;
    }
    out
};

/// The base-3 value of a row's two squares from 4 bits (ones of the lower
/// and higher square, then twos of both): `PAIR[0]` when the lower square
/// is the pair's first (`3^0` place), `PAIR[1]` when it is the second.
const PAIR: [[u16; 16]; 2] = {
    let mut out = [[0u16; 16]; 2];
    let mut key = 0;
    while key < 16 {
        let low = (key & 1) + 2 * ((key >> 2) & 1);
        let high = ((key >> 1) & 1) + 2 * ((key >> 3) & 1);
        out[0][key] = (low + 3 * high) as u16;
        out[1][key] = (high + 3 * low) as u16;
        key += 1;
    }
    out
};

/// Window `w`'s configuration with `ones` read as 1 and `twos` as 2 (see
/// [`config_by_square`]): two squares at a time, four rows of 9 values.
#[inline(always)]
fn config(ones: Bitboard, twos: Bitboard, w: usize) -> usize {
    let pair = &PAIR[usize::from(w >= WINDOWS)];
    let mut index = 0;
    for &b in ROW_BITS[w].iter().rev() {
        let key = ((ones >> b) & 3) | (((twos >> b) & 3) << 2);
        index = index * 9 + pair[key as usize] as usize;
    }
    index
}

/// Sends the features of a position (White's view) to `sink`: what both
/// the evaluation and the trainer read.
#[inline]
pub fn features<R: Rules, S: ManSink<R>>(pos: &Position<R>, sink: &mut S) {
    terms(pos, sink);
    windows(pos.white(), pos.black(), sink);
}

/// The pattern features of a board (White's view).
#[inline]
pub fn windows<S: Sink>(white: Bitboard, black: Bitboard, sink: &mut S) {
    for w in 0..WINDOWS {
        let base = SCALARS + w * CONFIGS;
        sink.add(base + config(white, black, w), 1);
        sink.add(base + config(black, white, 15 - w), -1);
    }
}

/// A pattern file's weights, ready to evaluate.
#[derive(Clone, PartialEq, Eq)]
pub struct Patterns {
    /// (middlegame, endgame) per feature.
    weights: Box<[(i32, i32)]>,
    /// The weights a man of side `t` on `bit` adds through the terms
    /// (material, row, centre, edge), summed once: the terms visit every man.
    man: Box<[[(i32, i32); 64]; 2]>,
}

impl fmt::Debug for Patterns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Patterns({} features)", self.weights.len())
    }
}

/// Sums weights as [`features`] sends them.
struct Sum<'a> {
    weights: &'a [(i32, i32)],
    man: &'a [[(i32, i32); 64]; 2],
    mg: i32,
    eg: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        let (mg, eg) = self.weights[feature];
        self.mg += mg * count;
        self.eg += eg * count;
    }
}

impl<R: Rules> ManSink<R> for Sum<'_> {
    #[inline(always)]
    fn man(&mut self, t: usize, bit: usize, s: i32) {
        let (mg, eg) = self.man[t][bit];
        self.mg += mg * s;
        self.eg += eg * s;
    }
}

impl Patterns {
    /// Weights for every feature (length [`FEATURES`]).
    pub fn new(weights: &[(i32, i32)]) -> Result<Patterns, PatternError> {
        if weights.len() != FEATURES {
            return Err(PatternError::Shape(weights.len()));
        }
        let mut man = Box::new([[(0, 0); 64]; 2]);
        for (t, side) in man.iter_mut().enumerate() {
            for (bit, sum) in side.iter_mut().enumerate() {
                if Ten::MASK >> bit & 1 == 0 {
                    continue;
                }
                let mut c = Coefficients::default();
                ManSink::<InternationalRules>::man(&mut c, t, bit, 1);
                for (f, n) in c.terms {
                    let (mg, eg) = weights[f as usize];
                    *sum = (sum.0 + mg * i32::from(n), sum.1 + eg * i32::from(n));
                }
            }
        }
        Ok(Patterns { weights: weights.into(), man })
    }

    /// The weights, one (middlegame, endgame) pair per feature.
    pub fn weights(&self) -> &[(i32, i32)] {
        &self.weights
    }

    /// The middlegame and endgame sums of a position, White's view.
    #[inline]
    pub fn sums<R: Rules>(&self, pos: &Position<R>) -> (i32, i32) {
        debug_assert!(Self::serve::<R>(), "the patterns are international's");
        let mut sum = Sum { weights: &self.weights, man: &self.man, mg: 0, eg: 0 };
        features(pos, &mut sum);
        (sum.mg, sum.eg)
    }

    /// Whether these patterns evaluate games of `R` (international only).
    pub fn serve<R: Rules>() -> bool {
        R::VARIANT == Variant::International
    }

    /// The file of these weights (see the module header).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_SIZE);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
        for &(mg, eg) in self.weights.iter() {
            out.extend_from_slice(&(mg.clamp(-32768, 32767) as i16).to_le_bytes());
            out.extend_from_slice(&(eg.clamp(-32768, 32767) as i16).to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a pattern file, refusing anything [`Patterns::to_bytes`] could
    /// not have written.
    pub fn from_bytes(bytes: &[u8]) -> Result<Patterns, PatternError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(PatternError::Foreign);
        }
        if bytes.len() < HEADER {
            return Err(PatternError::Size { expected: FILE_SIZE, found: bytes.len() });
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        if word(8) != VERSION {
            return Err(PatternError::Version(word(8)));
        }
        if word(12) as usize != FEATURES {
            return Err(PatternError::Shape(word(12) as usize));
        }
        if bytes.len() != FILE_SIZE {
            return Err(PatternError::Size { expected: FILE_SIZE, found: bytes.len() });
        }
        let body = &bytes[..FILE_SIZE - 4];
        if fnv1a(body) != word(FILE_SIZE - 4) {
            return Err(PatternError::Checksum);
        }
        let half = |at: usize| i32::from(i16::from_le_bytes([bytes[at], bytes[at + 1]]));
        let weights: Vec<(i32, i32)> =
            (0..FEATURES).map(|i| (half(HEADER + 4 * i), half(HEADER + 4 * i + 2))).collect();
        Patterns::new(&weights)
    }
}

/// Why bytes are not a pattern file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// Not a Crown pattern file (wrong magic).
    Foreign,
    /// A version this build does not read.
    Version(u32),
    /// Another number of features than this build's.
    Shape(usize),
    /// Truncated or too long.
    Size {
        /// The size the header implies.
        expected: usize,
        /// The size found.
        found: usize,
    },
    /// The checksum does not match (a corrupted file).
    Checksum,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatternError::Foreign => write!(f, "not a Crown draughts pattern file"),
            PatternError::Version(v) => write!(f, "pattern file version {v} (this build reads 1)"),
            PatternError::Shape(n) => {
                write!(f, "pattern file has {n} features (this build has {FEATURES})")
            }
            PatternError::Size { expected, found } => {
                write!(f, "pattern file is {found} bytes, expected {expected}")
            }
            PatternError::Checksum => write!(f, "pattern file is corrupted (checksum mismatch)"),
        }
    }
}

impl std::error::Error for PatternError {}

/// The embedded pattern file (international draughts).
pub static DEFAULT_PATTERNS: &[u8] = include_bytes!("international.cdp");

/// Whether international draughts starts with the embedded patterns
/// (`EvalFile <none>` selects the hand-set evaluation).
pub const PATTERNS_BY_DEFAULT: bool = true;

/// The patterns an evaluator, an engine or a session starts with.
pub fn starting_patterns() -> Option<Arc<Patterns>> {
    if PATTERNS_BY_DEFAULT {
        default_patterns()
    } else {
        None
    }
}

/// The embedded patterns, loaded once; `None` only if the embedded file
/// were bad (a test checks it is not).
pub fn default_patterns() -> Option<Arc<Patterns>> {
    static PATTERNS: OnceLock<Option<Arc<Patterns>>> = OnceLock::new();
    PATTERNS.get_or_init(|| Patterns::from_bytes(DEFAULT_PATTERNS).ok().map(Arc::new)).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_the_board_and_rotate() {
        let mut seen = 0u64;
        for (w, bits) in WINDOW_BITS.iter().enumerate() {
            for (k, &b) in bits.iter().enumerate() {
                assert_ne!(Ten::INDEX[b as usize], 255, "window {w} square {k} is a ghost");
                seen |= 1 << b;
            }
            let distinct: std::collections::BTreeSet<u8> = bits.iter().copied().collect();
            assert_eq!(distinct.len(), 8, "window {w}");
        }
        assert_eq!(seen, Ten::MASK, "every playable square is in a window");
        for (w, bits) in WINDOW_BITS.iter().enumerate() {
            for (k, &b) in bits.iter().enumerate() {
                assert_eq!(rotated(rotated(b)), b);
                assert_eq!(WINDOW_BITS[15 - w][k], rotated(b), "window {w} square {k}");
            }
        }
        // Window 0 is squares 1, 2, 6, 7, 11, 12, 16, 17 (bits of 0, 1, 5, 6, ...).
        let index: Vec<u8> = WINDOW_BITS[0].iter().map(|&b| Ten::INDEX[b as usize] + 1).collect();
        assert_eq!(index, [1, 2, 6, 7, 11, 12, 16, 17]);
    }

    #[test]
    fn configurations_two_squares_at_a_time_are_the_definition() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let white = state & Ten::MASK;
            let black = (state >> 1 | state << 3) & Ten::MASK & !white;
            for (w, bits) in WINDOW_BITS.iter().enumerate() {
                let by_square = config_by_square(white, black, bits);
                assert_eq!(config(white, black, w), by_square, "window {w}");
            }
        }
        for bits in WINDOW_BITS {
            for r in 0..4 {
                assert_eq!(
                    bits[2 * r].abs_diff(bits[2 * r + 1]),
                    1,
                    "a row's squares are neighbours"
                );
            }
        }
    }

    /// A board and its colour-flipped rotation have opposite pattern features.
    #[test]
    fn mirrored_boards_have_opposite_patterns() {
        let flip = |set: Bitboard| -> Bitboard {
            let mut out = 0;
            for b in 0..64u8 {
                if set >> b & 1 != 0 {
                    out |= 1 << rotated(b);
                }
            }
            out
        };
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let mut white = 0;
            let mut black = 0;
            for b in 0..64 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if Ten::MASK >> b & 1 != 0 {
                    match state % 5 {
                        0 => white |= 1 << b,
                        1 => black |= 1 << b,
                        _ => {}
                    }
                }
            }
            let mut a = Coefficients::default();
            windows(white, black, &mut a);
            let mut b = Coefficients::default();
            windows(flip(black), flip(white), &mut b);
            let sum = |c: &Coefficients| {
                let mut v = vec![0i32; FEATURES];
                for &(f, n) in &c.terms {
                    v[f as usize] += i32::from(n);
                }
                v
            };
            let negated: Vec<i32> = sum(&b).iter().map(|x| -x).collect();
            assert_eq!(sum(&a), negated);
        }
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        let weights: Vec<(i32, i32)> =
            (0..FEATURES).map(|i| ((i % 201) as i32 - 100, (i % 77) as i32 - 30)).collect();
        let p = Patterns::new(&weights).unwrap();
        let bytes = p.to_bytes();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(Patterns::from_bytes(&bytes).unwrap(), p);
        for cut in [0, 3, 8, HEADER, FILE_SIZE / 2, FILE_SIZE - 1] {
            assert!(Patterns::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(Patterns::from_bytes(&longer), Err(PatternError::Size { .. })));
        let mut corrupted = bytes.clone();
        corrupted[HEADER + 1000] ^= 4;
        assert_eq!(Patterns::from_bytes(&corrupted), Err(PatternError::Checksum));
        let mut version = bytes.clone();
        version[8] = 2;
        assert_eq!(Patterns::from_bytes(&version), Err(PatternError::Version(2)));
        let mut shape = bytes.clone();
        shape[12] ^= 1;
        assert!(matches!(Patterns::from_bytes(&shape), Err(PatternError::Shape(_))));
        assert_eq!(Patterns::from_bytes(b"CRWNNUE\0 a chess net"), Err(PatternError::Foreign));
        assert!(Patterns::new(&weights[1..]).is_err());
    }

    #[test]
    fn the_embedded_patterns_load() {
        let p = Patterns::from_bytes(DEFAULT_PATTERNS).expect("the embedded patterns are valid");
        assert_eq!(p.to_bytes(), DEFAULT_PATTERNS);
        assert!(default_patterns().is_some());
    }
}
