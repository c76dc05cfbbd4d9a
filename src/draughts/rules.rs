//! Rules as data: one type per variant, one associated constant per rule.
//!
//! The defaults are the FMJD rules of international draughts; each variant
//! overrides only what differs, and every line cites the article it follows.
//! FMJD = "Official FMJD rules of international draughts" (2020 edition);
//! where a national rulebook was unclear to us we followed what lidraughts and
//! pydraughts do, and the line says so. FMJD articles 4.1-4.5 were checked
//! against the text of the FMJD Annex 1; the other article numbers (FMJD
//! 4.13, 4.15, 6.x and the national rulebooks) are quoted from memory and
//! are to be checked against the rulebooks; the behaviour itself is pinned by
//! the perft tables and the pydraughts cross-check. The constants are read by generic code
//! (`Position<R>`), so every test on them is resolved at compile time.
//!
//! Square numbering (internal indices are described in `geometry.rs`):
//! * International, antidraughts: PDN 1..50, 1 = b10 (black's side, top-left
//!   as white sees it), 46 = a1; white starts on 31-50 and moves first.
//! * English: PDN 1..32, 1 = b8, 29 = a1; black starts on 1-12 and moves
//!   first (ACF rule 1.4), white on 21-32.
//! * Italian: PDN 1..32 on the turned board (a light square at each player's
//!   left corner): 1 = a8, 4 = g8, 32 = h1; white starts on 21-32, moves first.
//! * Russian, Brazilian: algebraic names (a1 playable, white at the bottom);
//!   numeric 1..32 as pydraughts prints them: 1 = a1, 2 = c1, ..., 32 = h8.
//! * Turkish: algebraic a1..h8 (all squares); numeric 1..64 as pydraughts
//!   prints them: 1 = a1, 8 = h1, 64 = h8. White starts on ranks 2-3.

use super::geometry::{Eight, Geometry, Orthogonal, Ten};
use crate::game::{Side, Variant};

/// Which capture the player must choose among the available ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precedence {
    /// Any capture (each sequence played to its end).
    Free,
    /// A capture of the largest number of pieces, kings and men alike.
    MaxCount,
    /// Italian: most pieces, then with a king, then most kings, then the
    /// capture that meets a king earliest.
    Italian,
}

/// How PDN numbers map to the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Numbering {
    /// Number 1 at the top-left playable square (as white sees the board),
    /// counting row by row downwards: international, English.
    TopLeft,
    /// The Italian turned board: like `TopLeft` but each row mirrored.
    Turned,
    /// pydraughts' numbers for Russian and Brazilian: 1 = a1, row by row up.
    BottomLeft,
    /// Turkish: all 64 squares, 1 = a1, row by row up.
    Orthogonal,
}

/// The draw rule that counts moves in a sparse endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndgameRule {
    /// No such rule.
    None,
    /// FMJD art. 6.3/6.4: three pieces with a king against a lone king draw
    /// after 16 moves each; two pieces or fewer (with a king) against a lone
    /// king after 5 moves each.
    Fmjd,
}

/// The rules of one draughts variant. Every per-node branch on these
/// constants is resolved at compile time.
pub trait Rules: Copy + Clone + Default + Send + Sync + std::fmt::Debug + 'static {
    /// The board layout.
    type Board: Geometry;
    /// The variant in Crown's variant switch.
    const VARIANT: Variant;
    /// Men capture backwards too (FMJD art. 4.1).
    const MEN_CAPTURE_BACKWARDS: bool = true;
    /// Kings move and capture over any distance (FMJD art. 3, 4.3).
    const FLYING_KINGS: bool = true;
    /// Which capture is compulsory (FMJD art. 4.13: the most pieces).
    const PRECEDENCE: Precedence = Precedence::MaxCount;
    /// A man that reaches the crown row during a capture is crowned at once
    /// and goes on capturing as a king (FMJD art. 4.15: no, it stays a man).
    const PROMOTE_MID_CAPTURE: bool = false;
    /// Men may capture kings (FMJD: yes).
    const MEN_CAPTURE_KINGS: bool = true;
    /// Captured pieces leave the board one by one as they are jumped, so
    /// their squares may be crossed again (FMJD art. 4.4, 4.5: no, they
    /// are lifted after the move). Kings then may not turn back by 180 degrees.
    const REMOVE_AT_ONCE: bool = false;
    /// The side that moves first (FMJD art. 5.1: white).
    const FIRST: Side = Side::White;
    /// Losing objective: no move (or no piece) wins.
    const LOSING: bool = false;
    /// Draw after this many plies of king moves without capture or man move;
    /// 0 for none (FMJD art. 6.2: 25 moves each).
    const KING_MOVE_DRAW_PLIES: u32 = 50;
    /// The sparse-endgame counting rule (FMJD art. 6.3, 6.4).
    const ENDGAME: EndgameRule = EndgameRule::Fmjd;
    /// How PDN numbers map to squares.
    const NUMBERING: Numbering = Numbering::TopLeft;
    /// FEN and move text use algebraic square names (lidraughts, pydraughts).
    const ALGEBRAIC: bool = false;
}

/// International draughts, FMJD rules: every default.
#[derive(Clone, Copy, Debug, Default)]
pub struct InternationalRules;

impl Rules for InternationalRules {
    type Board = Ten;
    const VARIANT: Variant = Variant::International;
}

/// Antidraughts: international move rules, losing objective (lidraughts
/// "antidraughts": the side without pieces or moves wins).
#[derive(Clone, Copy, Debug, Default)]
pub struct AntidraughtsRules;

impl Rules for AntidraughtsRules {
    type Board = Ten;
    const VARIANT: Variant = Variant::Antidraughts;
    /// lidraughts antidraughts: no move wins.
    const LOSING: bool = true;
    /// lidraughts applies no endgame counting to antidraughts; it keeps the
    /// 25-move king rule.
    const ENDGAME: EndgameRule = EndgameRule::None;
}

/// Brazilian draughts: the FMJD rules on 8x8 (CBD rules art. 1).
#[derive(Clone, Copy, Debug, Default)]
pub struct BrazilianRules;

impl Rules for BrazilianRules {
    type Board = Eight;
    const VARIANT: Variant = Variant::Brazilian;
    /// lidraughts/pydraughts: algebraic names, a1 at white's left.
    const NUMBERING: Numbering = Numbering::BottomLeft;
    /// lidraughts/pydraughts.
    const ALGEBRAIC: bool = true;
    /// CBD art. 6.2 (as lidraughts): 20 moves each of kings only.
    const KING_MOVE_DRAW_PLIES: u32 = 40;
}

/// Russian draughts (shashki), FSR rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct RussianRules;

impl Rules for RussianRules {
    type Board = Eight;
    const VARIANT: Variant = Variant::Russian;
    /// FSR art. 4.6: free choice among captures.
    const PRECEDENCE: Precedence = Precedence::Free;
    /// FSR art. 4.7: a man reaching the crown row while capturing is crowned
    /// and continues capturing as a king.
    const PROMOTE_MID_CAPTURE: bool = true;
    /// FSR art. 6.3: 15 moves each of kings only, without capture or man move.
    const KING_MOVE_DRAW_PLIES: u32 = 30;
    /// FSR art. 6.3 has its own endgame counts (3 kings v 1 king: 15 moves);
    /// not modelled, only the king-move count above.
    const ENDGAME: EndgameRule = EndgameRule::None;
    /// lidraughts/pydraughts.
    const NUMBERING: Numbering = Numbering::BottomLeft;
    /// lidraughts/pydraughts.
    const ALGEBRAIC: bool = true;
}

/// English draughts / American checkers, ACF / EDA rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct EnglishRules;

impl Rules for EnglishRules {
    type Board = Eight;
    const VARIANT: Variant = Variant::English;
    /// ACF rule 1.17: men jump forward only.
    const MEN_CAPTURE_BACKWARDS: bool = false;
    /// ACF rule 1.9: kings move one square.
    const FLYING_KINGS: bool = false;
    /// ACF rule 1.18: any capture may be chosen (played to its end).
    const PRECEDENCE: Precedence = Precedence::Free;
    /// ACF rule 1.4: black (the dark pieces) moves first.
    const FIRST: Side = Side::Black;
    /// ACF rule 1.32: 40 moves each without a man move or capture.
    const KING_MOVE_DRAW_PLIES: u32 = 80;
    /// Not in the ACF rules.
    const ENDGAME: EndgameRule = EndgameRule::None;
}

/// Italian draughts, FID rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct ItalianRules;

impl Rules for ItalianRules {
    type Board = Eight;
    const VARIANT: Variant = Variant::Italian;
    /// FID art. 5.2: men capture forward only.
    const MEN_CAPTURE_BACKWARDS: bool = false;
    /// FID art. 4.4: the king moves one square.
    const FLYING_KINGS: bool = false;
    /// FID art. 6.5-6.8: quantity, quality (king), kings, earliest king.
    const PRECEDENCE: Precedence = Precedence::Italian;
    /// FID art. 5.3: a man may not capture a king.
    const MEN_CAPTURE_KINGS: bool = false;
    /// FID art. 4.2 turned board; numbers as pydraughts prints them.
    const NUMBERING: Numbering = Numbering::Turned;
    /// FID art. 10 (as pydraughts/lidraughts do not model it we use the
    /// common 40-move count of kings-only play).
    const KING_MOVE_DRAW_PLIES: u32 = 80;
    /// Not in the FID rules.
    const ENDGAME: EndgameRule = EndgameRule::None;
}

/// Turkish draughts (dama), as pydraughts plays it.
#[derive(Clone, Copy, Debug, Default)]
pub struct TurkishRules;

impl Rules for TurkishRules {
    type Board = Orthogonal;
    const VARIANT: Variant = Variant::Turkish;
    /// Men capture forward and sideways, never back.
    const MEN_CAPTURE_BACKWARDS: bool = false;
    /// Captured pieces are removed as they are jumped ("Turkish strike" does
    /// not exist here); kings may not reverse direction (pydraughts).
    const REMOVE_AT_ONCE: bool = true;
    /// No counting rule in pydraughts.
    const KING_MOVE_DRAW_PLIES: u32 = 0;
    /// No counting rule in pydraughts.
    const ENDGAME: EndgameRule = EndgameRule::None;
    /// pydraughts numbers 1 = a1 .. 64 = h8.
    const NUMBERING: Numbering = Numbering::Orthogonal;
    /// lidraughts/pydraughts.
    const ALGEBRAIC: bool = true;
}
