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

use super::geometry::{Bitboard, Eight, Geometry, Orthogonal, Ten};
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
    /// Frisian: the highest value, a king worth less than two men and more
    /// than one, n kings more than 2n - 1 men (so two kings beat three men,
    /// three kings five); at equal value a capture by a king. Scored as
    /// `64 * men + 126 * kings + 1 if by a king`, as Scan 3.1 and dctl do.
    Frisian,
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

/// How lidraughts and pydraughts number the squares in Hub traffic, against
/// the variant's own numbering ([`Numbering`]). pydraughts 0.5.7 (which
/// lidraughts-bot pins) uses this layout for the Hub position, the moves and
/// the answer; pydraughts 0.6 for the position only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HubLayout {
    /// The same as the variant's numbering.
    Same,
    /// 1 is the top-left playable square, counting row by row, white at the
    /// bottom moving towards 1 (lidraughts' Russian and Brazilian numbers;
    /// pydraughts' Turkish 1 = a8).
    TopLeft,
    /// The variant's numbering turned by 180 degrees with the colours
    /// swapped: English, whose first player (black, 1-12 in PDN) pydraughts
    /// calls white and puts at the bottom.
    Turned,
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
    /// Frisian: two kings against one king draw after 7 moves each; one
    /// king against one king after 2 moves each (the rulebook draws at once
    /// unless one side wins by force; lidraughts and pydraughts give the 2
    /// moves to find that win, and so does Crown).
    Frisian,
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
    /// The square layout of lidraughts' and pydraughts' Hub traffic.
    const HUB_LAYOUT: HubLayout = HubLayout::Same;
    /// Men and kings also capture along rows and files (Frisian): a man
    /// jumps an orthogonally adjacent piece (two cells away), a king any
    /// distance along the line.
    const ORTHOGONAL_CAPTURES: bool = false;
    /// Killer: a king whose last captured piece is a king must stop on the
    /// square right behind that piece.
    const HALT_BEHIND_KING: bool = false;
    /// Breakthrough: the first side to crown a king wins (the side to move
    /// has no move once the opponent owns a king).
    const KING_WINS: bool = false;
    /// Frisian: a player who also has men may move the same king at most
    /// this many times in a row without capturing; 0 for no limit.
    const KING_MOVE_LIMIT: u8 = 0;
    /// White's start squares.
    const START_WHITE: Bitboard = <Self::Board as Geometry>::START_WHITE;
    /// Black's start squares.
    const START_BLACK: Bitboard = <Self::Board as Geometry>::START_BLACK;
}

/// International draughts, FMJD rules: every default.
#[derive(Clone, Copy, Debug, Default)]
pub struct InternationalRules;

impl Rules for InternationalRules {
    type Board = Ten;
    const VARIANT: Variant = Variant::International;
}

/// Killer draughts: the international rules (FMJD) with one change, the
/// killer rule (mindsports.nl, "Killer draughts rules", 2013, as Scan 3.1's
/// `killer` variant and dctl's `is_halt_behind_king` implement it).
#[derive(Clone, Copy, Debug, Default)]
pub struct KillerRules;

impl Rules for KillerRules {
    type Board = Ten;
    const VARIANT: Variant = Variant::Killer;
    /// Killer rule: a king that captures a king as the last piece of its
    /// capture stops on the square directly behind it. (Kings thus cannot
    /// escape behind a captured king, so more endings are won: the FMJD
    /// counting rules and the 25-move rule stay as in international.)
    const HALT_BEHIND_KING: bool = true;
}

/// Breakthrough draughts (Scan's `bt`, lidraughts' "breakthrough"): the
/// international rules, and the first player to crown a king wins.
#[derive(Clone, Copy, Debug, Default)]
pub struct BreakthroughRules;

impl Rules for BreakthroughRules {
    type Board = Ten;
    const VARIANT: Variant = Variant::Breakthrough;
    /// lidraughts "Breakthrough": "the first player who makes a king wins".
    const KING_WINS: bool = true;
    /// No king ever moves: the king-move and endgame counts never apply.
    const KING_MOVE_DRAW_PLIES: u32 = 0;
    /// As above.
    const ENDGAME: EndgameRule = EndgameRule::None;
}

/// Frisian draughts, the rules of the Frisian draughts federation (Dambûn
/// Frysk Spul, "Spelregels Fries dammen", friesdammen.nl, the page dctl
/// cites; summarised in Walinga and Westra, "Frisian draughts, brief
/// manual", 2014). Article numbers are not quoted: we could not check them.
#[derive(Clone, Copy, Debug, Default)]
pub struct FrisianRules;

impl Rules for FrisianRules {
    type Board = Ten;
    const VARIANT: Variant = Variant::Frisian;
    /// Men and kings capture diagonally and orthogonally, forwards and
    /// backwards; kings move (without capturing) diagonally only.
    const ORTHOGONAL_CAPTURES: bool = true;
    /// The capture of the highest value (a king worth more than one man,
    /// less than two, n kings more than 2n - 1 men); at equal value, with a
    /// king. pydraughts values a king at 1.5 men, which differs only when
    /// one capture takes k more kings and the other m more men with
    /// 1.5k < m < 2k; the rulebook's "less than two men" each, and Scan and
    /// dctl, side with this scoring (see tests/draughts_variants.rs).
    const PRECEDENCE: Precedence = Precedence::Frisian;
    /// A player with men as well may not move the same king more than three
    /// times in a row except to capture.
    const KING_MOVE_LIMIT: u8 = 3;
    /// The Frisian rules have no 25-move rule (lidraughts and pydraughts
    /// neither); the king limit above keeps games moving while men remain.
    const KING_MOVE_DRAW_PLIES: u32 = 0;
    /// 2 kings v 1 king: 7 moves each; 1 king v 1 king: 2 moves each.
    const ENDGAME: EndgameRule = EndgameRule::Frisian;
}

/// Frysk!: the Frisian rules from a start of five men each on the back
/// rows (lidraughts' "Frysk!", `W:W46-50:B1-5`).
#[derive(Clone, Copy, Debug, Default)]
pub struct FryskRules;

impl Rules for FryskRules {
    type Board = Ten;
    const VARIANT: Variant = Variant::Frysk;
    /// As Frisian.
    const ORTHOGONAL_CAPTURES: bool = true;
    /// As Frisian.
    const PRECEDENCE: Precedence = Precedence::Frisian;
    /// As Frisian.
    const KING_MOVE_LIMIT: u8 = 3;
    /// As Frisian.
    const KING_MOVE_DRAW_PLIES: u32 = 0;
    /// As Frisian.
    const ENDGAME: EndgameRule = EndgameRule::Frisian;
    /// lidraughts Frysk!: white on 46-50.
    const START_WHITE: Bitboard = 0x1f << 49;
    /// lidraughts Frysk!: black on 1-5.
    const START_BLACK: Bitboard = 0x1f;
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
    /// lidraughts numbers 1 = b8 .. 32 = g1 (pydraughts' internal layout).
    const HUB_LAYOUT: HubLayout = HubLayout::TopLeft;
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
    /// lidraughts numbers 1 = b8 .. 32 = g1 (pydraughts' internal layout).
    const HUB_LAYOUT: HubLayout = HubLayout::TopLeft;
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
    /// pydraughts: the first player at the bottom as "white".
    const HUB_LAYOUT: HubLayout = HubLayout::Turned;
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
    /// pydraughts' internal numbers: 1 = a8 .. 64 = h1.
    const HUB_LAYOUT: HubLayout = HubLayout::TopLeft;
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
