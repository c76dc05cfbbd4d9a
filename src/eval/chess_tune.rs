//! The chess evaluation as the tuner sees it: [`Tunable`] for
//! [`Position`], and the renderer that writes `chess_params.rs`.
//!
//! Features come from [`chess::terms`], the very function the evaluator
//! sums, fed into a [`Coefficients`] sink instead of a score: the tuner's
//! view and the engine's evaluation cannot drift apart (a test checks the
//! coefficients times the weights against the evaluator on thousands of
//! positions). The endgame scale (drawish material) is not linear; the
//! features carry it as a factor computed with the current weights.
//!
//! [`LAYOUT`] lists every `pub const` of `chess_params.rs` in feature order
//! with its doc comment; [`render`] turns a flat weight vector back into the
//! file, byte for byte the file when given the current weights (tested), in
//! a layout `rustfmt` leaves alone whatever the numbers.

use crate::chess::Position;
use crate::eval::chess::{self, feature, MAX_PHASE};
use crate::eval::{Coefficients, Features, Tunable};
use std::fmt::Write;

/// One `pub const` of `chess_params.rs`.
struct Item {
    /// Constant name.
    name: &'static str,
    /// Doc comment lines (without `/// `).
    doc: &'static [&'static str],
    /// Array length; `None` for a single pair.
    len: Option<usize>,
    /// Whether a blank line precedes it (a new group).
    group: bool,
}

const fn item(name: &'static str, doc: &'static [&'static str], len: Option<usize>) -> Item {
    Item { name, doc, len, group: false }
}

const fn group(name: &'static str, doc: &'static [&'static str], len: Option<usize>) -> Item {
    Item { name, doc, len, group: true }
}

/// Text before the first table.
const HEADER: &str = "\
//! Chess evaluation weights: every term of `eval/chess.rs` as one table.
//!
//! Each weight is a pair `(middlegame, endgame)` in centipawns; the
//! evaluation tapers between them by the material phase. Tables indexed by
//! square are from White's point of view with a1 = 0, h8 = 63 (Black reads
//! them mirrored). The tuner (`tuning/`) rewrites this file as a whole
//! (`eval/chess_tune.rs` renders it), so keep it data only: one `pub const`
//! per term, in feature order.

/// A middlegame/endgame weight pair.
pub type S = (i32, i32);
";

/// Piece names of the piece-square tables, in [`PieceKind`] order.
const KINDS: [&str; 6] = ["Pawn", "Knight", "Bishop", "Rook", "Queen", "King"];

/// The tables after `PIECE_VALUE` and `PSQT`, in feature order.
const LAYOUT: &[Item] = &[
    group(
        "KNIGHT_MOBILITY",
        &["Knight mobility by number of safe target squares (0..=8)."],
        Some(9),
    ),
    item("BISHOP_MOBILITY", &["Bishop mobility (0..=13)."], Some(14)),
    item("ROOK_MOBILITY", &["Rook mobility (0..=14)."], Some(15)),
    item("QUEEN_MOBILITY", &["Queen mobility (0..=27)."], Some(28)),
    group("PASSED_PAWN", &["Passed pawn by relative rank (index 0 = rank 1)."], Some(8)),
    item("PASSED_FREE", &["Passed pawn whose stop square is free, by relative rank."], Some(8)),
    item("ISOLATED_PAWN", &["A pawn with no friendly pawn on the adjacent files."], None),
    item("DOUBLED_PAWN", &["A second (or further) pawn on a file."], None),
    item(
        "BACKWARD_PAWN",
        &["A pawn that cannot be supported and whose stop square is attacked by a pawn."],
        None,
    ),
    item(
        "CONNECTED_PAWN",
        &["A pawn defended by a pawn or beside one, by relative rank."],
        Some(8),
    ),
    group("BISHOP_PAIR", &["Both bishops."], None),
    item("ROOK_OPEN_FILE", &["A rook on a file without pawns."], None),
    item("ROOK_SEMI_OPEN_FILE", &["A rook on a file without own pawns."], None),
    item(
        "OUTPOST",
        &["A knight or bishop on a square no enemy pawn can attack, defended by a pawn."],
        Some(2),
    ),
    group(
        "KING_ATTACK",
        &[
            "King zone attacks by the attacking piece kind (knight, bishop, rook, queen),",
            "per attacked zone square.",
        ],
        Some(4),
    ),
    item(
        "SHELTER_MISSING",
        &["Own pawns missing in front of the king (shelter), per file of the three around it."],
        None,
    ),
    item(
        "PAWN_STORM",
        &[
            "Enemy pawns advanced towards the king (storm), per pawn on the three files",
            "within two ranks.",
        ],
        None,
    ),
    group(
        "THREAT_BY_PAWN",
        &["A piece attacked by an enemy pawn (knight, bishop, rook, queen)."],
        Some(4),
    ),
    item("THREAT_BY_MINOR", &["A rook or queen attacked by an enemy knight or bishop."], Some(2)),
    item("THREAT_BY_ROOK", &["A queen attacked by an enemy rook."], None),
    group("TEMPO", &["Bonus for the side to move."], None),
];

fn pair(w: (i32, i32)) -> String {
    format!("({}, {})", w.0, w.1)
}

/// Writes `pairs` as rows of eight, each row indented by `indent`.
fn rows(out: &mut String, pairs: &[(i32, i32)], indent: &str) {
    for row in pairs.chunks(8) {
        let cells: Vec<String> = row.iter().map(|&w| pair(w)).collect();
        let _ = writeln!(out, "{indent}{},", cells.join(", "));
    }
}

/// `chess_params.rs` with `weights` (one pair per feature, in feature order).
///
/// Panics if `weights` is not [`feature::COUNT`] long (a programming error
/// of the caller, which checks the length first).
pub fn render(weights: &[(i32, i32)]) -> String {
    assert_eq!(weights.len(), feature::COUNT, "one weight pair per chess feature");
    let mut out = String::from(HEADER);
    let mut at = 0;
    out.push_str("\n/// Material by piece kind: pawn, knight, bishop, rook, queen, king.\n");
    out.push_str("#[rustfmt::skip]\npub const PIECE_VALUE: [S; 6] = [\n");
    rows(&mut out, &weights[at..at + 6], "    ");
    out.push_str("];\n");
    at += 6;
    out.push_str("\n/// Piece-square tables by kind (pawn, knight, bishop, rook, queen, king),\n");
    out.push_str("/// a1..h8 from White's side.\n");
    out.push_str("#[rustfmt::skip]\npub const PSQT: [[S; 64]; 6] = [\n");
    for kind in KINDS {
        let _ = writeln!(out, "    // {kind}\n    [");
        rows(&mut out, &weights[at..at + 64], "        ");
        out.push_str("    ],\n");
        at += 64;
    }
    out.push_str("];\n");
    for item in LAYOUT {
        if item.group {
            out.push('\n');
        }
        for line in item.doc {
            let _ = writeln!(out, "/// {line}");
        }
        match item.len {
            None => {
                let _ = writeln!(out, "pub const {}: S = {};", item.name, pair(weights[at]));
                at += 1;
            }
            Some(len) => {
                let _ = writeln!(out, "#[rustfmt::skip]\npub const {}: [S; {len}] = [", item.name);
                rows(&mut out, &weights[at..at + len], "    ");
                out.push_str("];\n");
                at += len;
            }
        }
    }
    debug_assert_eq!(at, feature::COUNT);
    out
}

/// Feature names in feature order (`PSQT.Knight.e4`, `PASSED_PAWN[5]`).
fn names() -> Vec<String> {
    let mut names: Vec<String> = KINDS.iter().map(|k| format!("PIECE_VALUE.{k}")).collect();
    for kind in KINDS {
        for sq in 0..64u8 {
            let file = char::from(b'a' + sq % 8);
            names.push(format!("PSQT.{kind}.{file}{}", sq / 8 + 1));
        }
    }
    for item in LAYOUT {
        match item.len {
            None => names.push(item.name.to_string()),
            Some(len) => names.extend((0..len).map(|i| format!("{}[{i}]", item.name))),
        }
    }
    names
}

impl Tunable for Position {
    const PARAMS_FILE: &'static str = "src/eval/chess_params.rs";

    fn weights() -> Vec<(i32, i32)> {
        chess::weights().to_vec()
    }

    fn feature_names() -> Vec<String> {
        names()
    }

    fn features(&self) -> Features {
        let mut coefficients = Coefficients::default();
        chess::terms(self, &mut coefficients);
        let weights = chess::weights();
        let eg: i32 =
            coefficients.terms.iter().map(|&(f, c)| weights[f as usize].1 * i32::from(c)).sum();
        let phase = chess::phase(self);
        Features {
            coefficients,
            phase: phase as f32 / MAX_PHASE as f32,
            eg_scale: chess::endgame_scale(self, eg) as f32 / 64.0,
        }
    }

    fn render_params(weights: &[(i32, i32)]) -> String {
        render(weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluator;
    use crate::game::{Game, Side, Variant};

    #[test]
    fn rendering_the_current_weights_reproduces_the_file() {
        let file = include_str!("chess_params.rs");
        let text = <Position as Tunable>::render_params(&<Position as Tunable>::weights());
        if text != file {
            let line = text.lines().zip(file.lines()).position(|(a, b)| a != b);
            panic!("render differs from chess_params.rs at line {line:?}");
        }
    }

    #[test]
    fn one_name_per_feature() {
        assert_eq!(<Position as Tunable>::feature_names().len(), feature::COUNT);
        assert_eq!(names()[feature::TEMPO], "TEMPO");
        assert_eq!(names()[feature::PSQT + 64 + 28], "PSQT.Knight.e4");
    }

    /// The features' evaluation (White's view), as `Features` describes it.
    fn linear(features: &Features, weights: &[(i32, i32)]) -> f64 {
        let (mut mg, mut eg) = (0f64, 0f64);
        for &(f, c) in &features.coefficients.terms {
            mg += f64::from(weights[f as usize].0) * f64::from(c);
            eg += f64::from(weights[f as usize].1) * f64::from(c);
        }
        let phase = f64::from(features.phase);
        mg * phase + eg * (1.0 - phase) * f64::from(features.eg_scale)
    }

    #[test]
    fn coefficients_times_weights_equal_the_evaluation() {
        let weights = <Position as Tunable>::weights();
        let mut evaluator = crate::eval::chess::ChessEvaluator::default();
        let mut list = crate::chess::MoveList::default();
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        let mut checked = 0;
        for game in 0..60 {
            let variant = if game % 3 == 2 { Variant::Chess960 } else { Variant::Chess };
            let mut pos = if variant == Variant::Chess {
                Position::start(variant)
            } else {
                let fen = crate::chess::chess960::chess960_fen(game * 13);
                Position::from_fen(&fen, variant).unwrap()
            };
            for _ in 0..200 {
                let score = evaluator.evaluate(&pos);
                let white = if pos.side_to_move() == Side::White { score } else { -score };
                let expected = linear(&pos.features(), &weights);
                assert!(
                    (f64::from(white) - expected).abs() <= 2.0,
                    "{}: evaluation {white}, features {expected}",
                    pos.to_fen()
                );
                checked += 1;
                pos.legal_moves(&mut list);
                if list.is_empty() || pos.halfmove_clock() >= 100 {
                    break;
                }
                crate::rng::xorshift64(&mut state);
                pos.play(list[(state % list.len() as u64) as usize]);
            }
        }
        assert!(checked > 3000, "only {checked} positions");
    }
}
