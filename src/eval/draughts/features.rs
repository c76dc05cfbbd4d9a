//! The draughts feature vector: one index per weight of
//! `draughts_params.rs`, in the order of the fields of `Weights`, shared by
//! every board family (a family that has no use for a feature gives it a
//! zero weight). Also the two directions between a `Weights` set and the
//! flat vector the tuner sees: [`flatten`] and [`render`].
//!
//! Invariant: [`FIELDS`], [`flatten`] and the `Weights` struct list the same
//! fields in the same order, and [`render`] writes a set exactly as
//! `draughts_params.rs` spells it (a test renders every set back).

use crate::eval::draughts_params::{Weights, S};

/// Feature offsets into the flat weight vector.
pub mod feature {
    /// A man, 1.
    pub const MAN: usize = 0;
    /// First, second, further kings, 3.
    pub const KING: usize = MAN + 1;
    /// Kings against none, 1.
    pub const KING_UNOPPOSED: usize = KING + 3;
    /// Men by row from the own back row, 10.
    pub const ADVANCE: usize = KING_UNOPPOSED + 1;
    /// Men on central squares, 1.
    pub const CENTRE: usize = ADVANCE + 10;
    /// Men on the left or right edge, 1.
    pub const EDGE: usize = CENTRE + 1;
    /// Men on the back row while the opponent has men, 1.
    pub const BACK_ROW: usize = EDGE + 1;
    /// Left/right difference in men, 1.
    pub const IMBALANCE: usize = BACK_ROW + 1;
    /// Own pieces right behind advanced men, 1.
    pub const SUPPORT: usize = IMBALANCE + 1;
    /// Fully supported advanced men, 1.
    pub const OUTPOST: usize = SUPPORT + 1;
    /// Unsupported advanced men, 1.
    pub const HANGING: usize = OUTPOST + 1;
    /// Men blocked by enemy pieces, 1.
    pub const LOCKED: usize = HANGING + 1;
    /// Runaway men by rows to go (1, 2, 3, 4+), 4.
    pub const RUNAWAY: usize = LOCKED + 1;
    /// Quiet steps of men, 1.
    pub const MOBILITY: usize = RUNAWAY + 4;
    /// King moves, 1.
    pub const KING_MOBILITY: usize = MOBILITY + 1;
    /// Kings on the long diagonal, 1.
    pub const KING_DIAGONAL: usize = KING_MOBILITY + 1;
    /// Side to move, 1.
    pub const TEMPO: usize = KING_DIAGONAL + 1;
    /// Number of features.
    pub const COUNT: usize = TEMPO + 1;
}

/// The fields of `Weights` in order: name and number of pairs (0 for a
/// single pair written without brackets).
pub const FIELDS: [(&str, usize); 17] = [
    ("man", 0),
    ("king", 3),
    ("king_unopposed", 0),
    ("advance", 10),
    ("centre", 0),
    ("edge", 0),
    ("back_row", 0),
    ("imbalance", 0),
    ("support", 0),
    ("outpost", 0),
    ("hanging", 0),
    ("locked", 0),
    ("runaway", 4),
    ("mobility", 0),
    ("king_mobility", 0),
    ("king_diagonal", 0),
    ("tempo", 0),
];

/// Copies `src` into `w` from `at` on; returns the vector and the next offset.
const fn put(mut w: [S; feature::COUNT], at: usize, src: &[S]) -> ([S; feature::COUNT], usize) {
    let mut i = 0;
    while i < src.len() {
        w[at + i] = src[i];
        i += 1;
    }
    (w, at + src.len())
}

/// One weight set as the flat vector indexed by feature.
pub const fn flatten(s: &Weights) -> [S; feature::COUNT] {
    let w = [(0, 0); feature::COUNT];
    let (w, at) = put(w, 0, &[s.man]);
    let (w, at) = put(w, at, &s.king);
    let (w, at) = put(w, at, &[s.king_unopposed]);
    let (w, at) = put(w, at, &s.advance);
    let (w, at) = put(w, at, &[s.centre, s.edge, s.back_row, s.imbalance]);
    let (w, at) = put(w, at, &[s.support, s.outpost, s.hanging, s.locked]);
    let (w, at) = put(w, at, &s.runaway);
    let (w, at) = put(w, at, &[s.mobility, s.king_mobility, s.king_diagonal, s.tempo]);
    assert!(at == feature::COUNT, "draughts_params.rs and the feature list disagree");
    w
}

/// The weights packed as `mg * 2^32 + eg`, one multiply-add per term.
pub const fn pack(s: &Weights) -> [i64; feature::COUNT] {
    let w = flatten(s);
    let mut packed = [0; feature::COUNT];
    let mut i = 0;
    while i < feature::COUNT {
        packed[i] = ((w[i].0 as i64) << 32) + w[i].1 as i64;
        i += 1;
    }
    packed
}

/// A short name per feature (`advance[3]` for an array element).
pub fn names() -> Vec<String> {
    let mut names = Vec::with_capacity(feature::COUNT);
    for (name, len) in FIELDS {
        if len == 0 {
            names.push(name.to_string());
        } else {
            names.extend((0..len).map(|i| format!("{name}[{i}]")));
        }
    }
    names
}

/// The `pub const NAME: Weights = ...;` block of a set with the flat
/// `weights`, exactly as `draughts_params.rs` spells it.
fn render_set(name: &str, weights: &[S]) -> String {
    let mut out = format!("pub const {name}: Weights = Weights {{\n");
    let mut at = 0;
    for (field, len) in FIELDS {
        if len == 0 {
            let (mg, eg) = weights[at];
            out += &format!("    {field}: ({mg}, {eg}),\n");
            at += 1;
        } else {
            let pairs: Vec<String> =
                weights[at..at + len].iter().map(|(mg, eg)| format!("({mg}, {eg})")).collect();
            out += &format!("    {field}: [{}],\n", pairs.join(", "));
            at += len;
        }
    }
    out + "};\n"
}

/// `file` (the text of `draughts_params.rs`) with the set `name` replaced by
/// `weights`; the other sets and all comments stay as they are.
pub fn render(file: &str, name: &str, weights: &[S]) -> String {
    assert_eq!(weights.len(), feature::COUNT, "one weight pair per draughts feature");
    let head = format!("pub const {name}: Weights = Weights {{\n");
    let start = file.find(&head).expect("the weight set is in draughts_params.rs");
    let end = start + file[start..].find("\n};\n").expect("the weight set ends") + 4;
    format!("{}{}{}", &file[..start], render_set(name, weights), &file[end..])
}
