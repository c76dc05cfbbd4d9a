//! The learned evaluation of draughts: region patterns.
//!
//! The board is read as overlapping windows of 8 squares (`windows.rs`:
//! 16 4x4 blocks on 10x10, the scanning Fabien Letouzey's Scan made known;
//! 9 on the 8x8 diagonal board; 14 blocks of 2x4 on the Turkish board), or
//! on 10x10 as 8 tall windows of 12 squares ([`WindowSet::Tall`]; a file's
//! feature count says which).
//! Every configuration of a window (each square empty, White or Black, a
//! king read as a piece of its colour: 3^8 = 6561, or 3^12) has a learned weight,
//! a window and its 180-degree rotation sharing one table with the colours
//! swapped. Beside the patterns, the hand-set evaluation's terms
//! (`terms.rs`: material with the first, second and further kings apart,
//! advancement by row, i.e. tempo, king mobility and the long diagonal,
//! runaway men, the side to move, ...) are features with their own learned
//! weights, so what windows cannot see (material, whole-board tempo, kings)
//! keeps its own terms and the patterns learn what the terms miss. Every
//! weight is a (middlegame, endgame) pair, tapered by the number of men
//! exactly as the hand-set evaluation is (`super::white_score`), whose draw
//! knowledge (the endgame scale) it shares.
//!
//! A pattern file belongs to one variant (its rules decide what a pattern
//! is worth); a [`PatternSet`] holds at most one per variant, and the
//! evaluation of a variant without one is the hand-set terms.
//!
//! File format (`.cdp`, little-endian), trained and written by
//! `crown-tune patterns` (tuning/README.md, section 7, "Draughts
//! patterns"):
//!
//! | bytes          | field |
//! |----------------|-------|
//! | 0..8           | magic `CRWNPAT\0` |
//! | 8..12          | version: u32 = 2 |
//! | 12..16         | features: u32 (the variant's [`feature_count`] of either window set) |
//! | 16..32         | the variant's name (`Variant::name`), ASCII, zero-padded |
//! | 32..32+4F      | per feature: middlegame i16, endgame i16 |
//! | last 4         | FNV-1a (32-bit) of everything before it |
//!
//! Version 1 (international only) had no name: bytes 16.. were the
//! weights. It is still read, as international.
//!
//! Invariant: [`Patterns::from_bytes`] accepts exactly what
//! [`Patterns::to_bytes`] writes (and version 1 files) and refuses anything
//! else with a [`PatternError`], never panicking.

use super::features::feature;
use super::terms::{terms, ManSink};
use super::windows::{windows, Layout, Windows, TALL};
use crate::draughts::geometry::Geometry;
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::eval::nnue::network::fnv1a;
use crate::eval::{Coefficients, Sink};
use crate::for_variant;
use crate::game::Variant;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Scalar features before the pattern tables: the hand-set terms.
pub const SCALARS: usize = feature::COUNT;

/// The windows a pattern file reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowSet {
    /// The board's blocks of 8 squares (every board).
    Blocks,
    /// The 10x10 board's tall windows of 12 squares.
    Tall,
}

impl WindowSet {
    /// Both sets.
    pub const ALL: [WindowSet; 2] = [WindowSet::Blocks, WindowSet::Tall];

    /// The layout of this set on rules `R`'s board (`None`: not on it).
    pub fn layout<R: Rules>(self) -> Option<&'static Layout> {
        match self {
            WindowSet::Blocks => Some(<R::Board as Windows>::LAYOUT),
            WindowSet::Tall => (<R::Board as Geometry>::SQUARES == 50).then_some(&TALL),
        }
    }
}

/// The features read with `layout`: the scalars, then table `t`'s
/// configuration `c` at `SCALARS + t * layout.configs + c`.
pub const fn features_of(layout: &Layout) -> usize {
    SCALARS + layout.tables * layout.configs
}

/// The number of features of `variant`'s patterns with `set` (`None` for
/// chess, or a set the variant's board does not have).
pub fn feature_count(variant: Variant, set: WindowSet) -> Option<usize> {
    for_variant!(variant, chess => None, R => set.layout::<R>().map(features_of))
}

/// The window set of a file of `count` features for `variant`.
fn set_of(variant: Variant, count: usize) -> Option<WindowSet> {
    WindowSet::ALL.into_iter().find(|&set| feature_count(variant, set) == Some(count))
}

const MAGIC: [u8; 8] = *b"CRWNPAT\0";
const VERSION: u32 = 2;
const NAME: usize = 16;
const HEADER: usize = 16 + NAME;
/// Version 1's header (international, no name).
const HEADER_V1: usize = 16;

/// Size of a pattern file of `features` features.
pub const fn file_size(features: usize) -> usize {
    HEADER + 4 * features + 4
}

/// Sends the features of a position (White's view) with the windows of
/// `layout` to `sink`: what both the evaluation and the trainer read.
#[inline(always)]
pub fn features<R: Rules, S: ManSink<R>>(pos: &Position<R>, layout: &Layout, sink: &mut S) {
    terms(pos, sink);
    windows(layout, pos.white(), pos.black(), SCALARS, sink);
}

/// A pattern file's weights, ready to evaluate positions of its variant.
#[derive(Clone, PartialEq, Eq)]
pub struct Patterns {
    /// The variant whose positions these weights evaluate.
    variant: Variant,
    /// The windows they read.
    set: WindowSet,
    /// (middlegame, endgame) per feature.
    weights: Box<[(i32, i32)]>,
    /// The weights a man of side `t` on `bit` adds through the terms
    /// (material, row, centre, edge), summed once: the terms visit every man.
    man: Box<[[(i32, i32); 64]; 2]>,
}

impl fmt::Debug for Patterns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Patterns({}, {} features)", self.variant, self.weights.len())
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

/// The summed term weights of a man on each square, for rules `R`.
fn man_weights<R: Rules>(weights: &[(i32, i32)]) -> Box<[[(i32, i32); 64]; 2]> {
    let mut man = Box::new([[(0, 0); 64]; 2]);
    for (t, side) in man.iter_mut().enumerate() {
        for (bit, sum) in side.iter_mut().enumerate() {
            if <R::Board as Geometry>::MASK >> bit & 1 == 0 {
                continue;
            }
            let mut c = Coefficients::default();
            ManSink::<R>::man(&mut c, t, bit, 1);
            for (f, n) in c.terms {
                let (mg, eg) = weights[f as usize];
                *sum = (sum.0 + mg * i32::from(n), sum.1 + eg * i32::from(n));
            }
        }
    }
    man
}

impl Patterns {
    /// Weights for every feature of `variant` (length [`feature_count`] of
    /// one of the window sets, which they then read).
    pub fn new(variant: Variant, weights: &[(i32, i32)]) -> Result<Patterns, PatternError> {
        let expected = feature_count(variant, WindowSet::Blocks)
            .ok_or(PatternError::Variant(variant.name().into()))?;
        let set = set_of(variant, weights.len()).ok_or(PatternError::Shape {
            variant,
            expected,
            found: weights.len(),
        })?;
        let man = for_variant!(variant, chess => unreachable!("chess has no patterns"),
            R => man_weights::<R>(weights));
        Ok(Patterns { variant, set, weights: weights.into(), man })
    }

    /// The windows these patterns read.
    pub fn window_set(&self) -> WindowSet {
        self.set
    }

    /// The variant these patterns evaluate.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The weights, one (middlegame, endgame) pair per feature.
    pub fn weights(&self) -> &[(i32, i32)] {
        &self.weights
    }

    /// The middlegame and endgame sums of a position, White's view.
    #[inline]
    pub fn sums<R: Rules>(&self, pos: &Position<R>) -> (i32, i32) {
        debug_assert!(
            self.variant == R::VARIANT
                || (self.variant == Variant::Frysk && R::VARIANT == Variant::Frisian),
            "patterns of another variant"
        );
        let mut sum = Sum { weights: &self.weights, man: &self.man, mg: 0, eg: 0 };
        // Each arm reads a constant layout, so its loops unroll.
        match self.set {
            WindowSet::Blocks => features(pos, <R::Board as Windows>::LAYOUT, &mut sum),
            WindowSet::Tall => features(pos, &TALL, &mut sum),
        }
        (sum.mg, sum.eg)
    }

    /// The file of these weights (see the module header).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(file_size(self.weights.len()));
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.weights.len() as u32).to_le_bytes());
        let mut name = [0u8; NAME];
        name[..self.variant.name().len()].copy_from_slice(self.variant.name().as_bytes());
        out.extend_from_slice(&name);
        for &(mg, eg) in self.weights.iter() {
            out.extend_from_slice(&(mg.clamp(-32768, 32767) as i16).to_le_bytes());
            out.extend_from_slice(&(eg.clamp(-32768, 32767) as i16).to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a pattern file, refusing anything [`Patterns::to_bytes`] could
    /// not have written (version 1 files are international's).
    pub fn from_bytes(bytes: &[u8]) -> Result<Patterns, PatternError> {
        if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
            return Err(PatternError::Foreign);
        }
        if bytes.len() < HEADER_V1 {
            return Err(PatternError::Size { expected: HEADER, found: bytes.len() });
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let (variant, header) = match word(8) {
            1 => (Variant::International, HEADER_V1),
            VERSION if bytes.len() >= HEADER => {
                let name = &bytes[16..HEADER];
                let len = name.iter().position(|&b| b == 0).unwrap_or(NAME);
                let text = String::from_utf8_lossy(&name[..len]).into_owned();
                let variant = Variant::ALL
                    .into_iter()
                    .find(|v| v.name() == text && !v.is_chess())
                    .ok_or(PatternError::Variant(text))?;
                (variant, HEADER)
            }
            VERSION => return Err(PatternError::Size { expected: HEADER, found: bytes.len() }),
            v => return Err(PatternError::Version(v)),
        };
        let found = word(12) as usize;
        let Some(set) = set_of(variant, found) else {
            let expected = feature_count(variant, WindowSet::Blocks).expect("a draughts variant");
            return Err(PatternError::Shape { variant, expected, found });
        };
        let expected = feature_count(variant, set).expect("the set of a count");
        let size = header + 4 * expected + 4;
        if bytes.len() != size {
            return Err(PatternError::Size { expected: size, found: bytes.len() });
        }
        if fnv1a(&bytes[..size - 4]) != word(size - 4) {
            return Err(PatternError::Checksum);
        }
        let half = |at: usize| i32::from(i16::from_le_bytes([bytes[at], bytes[at + 1]]));
        let weights: Vec<(i32, i32)> =
            (0..expected).map(|i| (half(header + 4 * i), half(header + 4 * i + 2))).collect();
        Patterns::new(variant, &weights)
    }
}

/// Why bytes are not a pattern file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PatternError {
    /// Not a Crown pattern file (wrong magic).
    Foreign,
    /// A version this build does not read.
    Version(u32),
    /// A variant name this build does not know (or a chess one).
    Variant(String),
    /// Another number of features than this build's for the variant.
    Shape {
        /// The file's variant.
        variant: Variant,
        /// This build's feature count for it.
        expected: usize,
        /// The file's.
        found: usize,
    },
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
            PatternError::Version(v) => {
                write!(f, "pattern file version {v} (this build reads 1 and {VERSION})")
            }
            PatternError::Variant(name) => {
                write!(f, "pattern file for an unknown draughts variant '{}'", name.escape_debug())
            }
            PatternError::Shape { variant, expected, found } => {
                write!(f, "{variant} pattern file has {found} features (this build has {expected})")
            }
            PatternError::Size { expected, found } => {
                write!(f, "pattern file is {found} bytes, expected {expected}")
            }
            PatternError::Checksum => write!(f, "pattern file is corrupted (checksum mismatch)"),
        }
    }
}

impl std::error::Error for PatternError {}

/// At most one pattern file per variant: what the evaluator reads. A
/// variant without one evaluates with the hand-set terms.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct PatternSet {
    by_variant: [Option<Arc<Patterns>>; Variant::ALL.len()],
}

impl fmt::Debug for PatternSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.variants()).finish()
    }
}

impl PatternSet {
    /// The patterns of `variant`, if any.
    #[inline(always)]
    pub fn get(&self, variant: Variant) -> Option<&Arc<Patterns>> {
        self.by_variant[variant as usize].as_ref()
    }

    /// This set with `patterns` in place of its variant's.
    pub fn with(mut self, patterns: Arc<Patterns>) -> PatternSet {
        let slot = patterns.variant() as usize;
        self.by_variant[slot] = Some(patterns);
        self
    }

    /// The variants that have patterns, in [`Variant::ALL`] order.
    pub fn variants(&self) -> Vec<Variant> {
        Variant::ALL.into_iter().filter(|&v| self.get(v).is_some()).collect()
    }

    /// Whether no variant has patterns.
    pub fn is_empty(&self) -> bool {
        self.by_variant.iter().all(Option::is_none)
    }

    /// The patterns a variant's evaluator starts with: the embedded set
    /// when [`PATTERNS_BY_DEFAULT`], else none.
    pub fn starting() -> PatternSet {
        if PATTERNS_BY_DEFAULT {
            PatternSet::embedded()
        } else {
            PatternSet::default()
        }
    }

    /// The embedded pattern files, read once. A file that did not load
    /// would be missing from the set (a test checks that each loads).
    pub fn embedded() -> PatternSet {
        static SET: OnceLock<PatternSet> = OnceLock::new();
        SET.get_or_init(|| {
            EMBEDDED
                .iter()
                .filter_map(|&(_, bytes)| Patterns::from_bytes(bytes).ok())
                .fold(PatternSet::default(), |set, p| set.with(Arc::new(p)))
        })
        .clone()
    }
}

/// The embedded pattern files: those that beat the hand-set evaluation of
/// their variant in self-play (tuning/README.md, section 7).
pub static EMBEDDED: &[(Variant, &[u8])] = &[
    (Variant::International, include_bytes!("international.cdp")),
    (Variant::Brazilian, include_bytes!("brazilian.cdp")),
    (Variant::Russian, include_bytes!("russian.cdp")),
    (Variant::English, include_bytes!("english.cdp")),
    (Variant::Italian, include_bytes!("italian.cdp")),
    (Variant::Turkish, include_bytes!("turkish.cdp")),
    (Variant::Antidraughts, include_bytes!("antidraughts.cdp")),
    (Variant::Frisian, include_bytes!("frisian.cdp")),
    (Variant::Killer, include_bytes!("killer.cdp")),
    (Variant::Breakthrough, include_bytes!("breakthrough.cdp")),
    (Variant::Frysk, include_bytes!("frysk.cdp")),
];

/// Whether draughts starts with the embedded patterns (`EvalFile <none>`
/// selects the hand-set evaluation).
pub const PATTERNS_BY_DEFAULT: bool = true;

#[cfg(test)]
mod tests {
    use super::*;

    fn file_round_trip(variant: Variant, set: WindowSet) {
        let count = feature_count(variant, set).unwrap();
        let weights: Vec<(i32, i32)> =
            (0..count).map(|i| ((i % 201) as i32 - 100, (i % 77) as i32 - 30)).collect();
        let p = Patterns::new(variant, &weights).unwrap();
        assert_eq!(p.window_set(), set);
        let bytes = p.to_bytes();
        let size = file_size(count);
        assert_eq!(bytes.len(), size);
        assert_eq!(Patterns::from_bytes(&bytes).unwrap(), p);
        for cut in [0, 3, 8, HEADER_V1, HEADER, size / 2, size - 1] {
            assert!(Patterns::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(matches!(Patterns::from_bytes(&longer), Err(PatternError::Size { .. })));
        let mut corrupted = bytes.clone();
        corrupted[HEADER + 1000] ^= 4;
        assert_eq!(Patterns::from_bytes(&corrupted), Err(PatternError::Checksum));
        let mut version = bytes.clone();
        version[8] = 3;
        assert_eq!(Patterns::from_bytes(&version), Err(PatternError::Version(3)));
        let mut shape = bytes.clone();
        shape[12] ^= 1;
        assert!(matches!(Patterns::from_bytes(&shape), Err(PatternError::Shape { .. })));
        let mut chess = bytes.clone();
        chess[16..32].copy_from_slice(b"chess\0\0\0\0\0\0\0\0\0\0\0");
        assert_eq!(Patterns::from_bytes(&chess), Err(PatternError::Variant("chess".into())));
        assert!(Patterns::new(variant, &weights[1..]).is_err());
    }

    #[test]
    fn files_round_trip_and_bad_ones_are_refused() {
        for variant in Variant::ALL.into_iter().filter(|v| !v.is_chess()) {
            file_round_trip(variant, WindowSet::Blocks);
            if feature_count(variant, WindowSet::Tall).is_some() {
                file_round_trip(variant, WindowSet::Tall);
            }
        }
        assert!(feature_count(Variant::International, WindowSet::Tall).is_some());
        assert!(feature_count(Variant::Frisian, WindowSet::Tall).is_some());
        assert!(feature_count(Variant::Russian, WindowSet::Tall).is_none());
        assert!(feature_count(Variant::Turkish, WindowSet::Tall).is_none());
        assert_eq!(Patterns::from_bytes(b"CRWNNUE\0 a chess net"), Err(PatternError::Foreign));
        assert!(Patterns::new(Variant::Chess, &[]).is_err());
        // A file of another variant with the same features is that variant's.
        let count = feature_count(Variant::Russian, WindowSet::Blocks).unwrap();
        let russian = Patterns::new(Variant::Russian, &vec![(1, 2); count]).unwrap();
        let mut bytes = russian.to_bytes();
        bytes[16..32].copy_from_slice(b"english\0\0\0\0\0\0\0\0\0");
        let n = bytes.len() - 4;
        let sum = fnv1a(&bytes[..n]);
        bytes[n..].copy_from_slice(&sum.to_le_bytes());
        assert_eq!(Patterns::from_bytes(&bytes).unwrap().variant(), Variant::English);
    }

    #[test]
    fn version_1_files_are_international() {
        let count = feature_count(Variant::International, WindowSet::Blocks).unwrap();
        let weights: Vec<(i32, i32)> = (0..count).map(|i| ((i % 7) as i32, -1)).collect();
        let mut v1 = MAGIC.to_vec();
        v1.extend_from_slice(&1u32.to_le_bytes());
        v1.extend_from_slice(&(count as u32).to_le_bytes());
        for &(mg, eg) in &weights {
            v1.extend_from_slice(&(mg as i16).to_le_bytes());
            v1.extend_from_slice(&(eg as i16).to_le_bytes());
        }
        let sum = fnv1a(&v1);
        v1.extend_from_slice(&sum.to_le_bytes());
        let p = Patterns::from_bytes(&v1).unwrap();
        assert_eq!((p.variant(), p.weights()), (Variant::International, &weights[..]));
    }

    #[test]
    fn the_embedded_patterns_load() {
        let set = PatternSet::embedded();
        for &(variant, bytes) in EMBEDDED {
            let p = Patterns::from_bytes(bytes).expect("the embedded patterns are valid");
            assert_eq!(p.variant(), variant);
            assert_eq!(p.to_bytes(), bytes);
            assert_eq!(set.get(variant).map(|p| p.variant()), Some(variant));
        }
        assert_eq!(set.variants().len(), EMBEDDED.len());
    }
}
