//! Draughts: international 10x10 and the national variants, one generic
//! position type `Position<R>` over a rules type `R` (see `rules.rs`).
//!
//! Modules: `geometry` (bit layouts with ghost squares), `rules` (one type
//! per variant, one constant per rule), `position` (bitboards, XOR play,
//! Zobrist key, draw counters), `movegen` (capture trees, precedence, bulk
//! counts), `notation` (square names, PDN, Hub and DXP move codecs), `fen`
//! (PDN FEN, Hub and DXP position strings).
//!
//! This file implements [`Game`] for every `Position<R>` and names the
//! public variant types.

pub mod fen;
pub mod geometry;
pub mod layout;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod rules;

use crate::game::{Game, NoMoveResult, Side, Variant};
use geometry::Geometry;
use position::{Move, MoveList};
use rules::Rules;
use std::fmt;

pub use fen::PositionError;
pub use notation::MoveError;
pub use position::Position;

/// International draughts (FMJD), 10x10.
pub type International = Position<rules::InternationalRules>;
/// Brazilian draughts: international rules on 8x8.
pub type Brazilian = Position<rules::BrazilianRules>;
/// Russian draughts (shashki).
pub type Russian = Position<rules::RussianRules>;
/// English draughts / American checkers.
pub type English = Position<rules::EnglishRules>;
/// Italian draughts.
pub type Italian = Position<rules::ItalianRules>;
/// Turkish draughts (orthogonal).
pub type Turkish = Position<rules::TurkishRules>;
/// Antidraughts (losing draughts) with international move rules.
pub type Antidraughts = Position<rules::AntidraughtsRules>;
/// Killer draughts.
pub type Killer = Position<rules::KillerRules>;
/// Breakthrough draughts (the first king wins).
pub type Breakthrough = Position<rules::BreakthroughRules>;
/// Frisian draughts.
pub type Frisian = Position<rules::FrisianRules>;
/// Frysk!: Frisian rules, five men each.
pub type Frysk = Position<rules::FryskRules>;

impl<R: Rules> Game for Position<R> {
    type Move = Move;
    type MoveList = MoveList;
    type PositionError = PositionError;
    type MoveError = MoveError;

    const NULL_MOVE: bool = false;
    const FORCED_CAPTURES: bool = true;
    const HISTORY_SIZE: usize = 64 * 64;
    const CONTINUATION_KEYS: usize = 64;

    fn start(_variant: Variant) -> Self {
        Self::start_position()
    }

    /// PDN FEN (`W:W31-50:B1-20`), or a Hub position string (a side letter
    /// and one character per square, no `:`).
    fn from_fen(text: &str, _variant: Variant) -> Result<Self, PositionError> {
        if text.contains(':') {
            fen::parse_fen(text)
        } else {
            fen::parse_hub(text.trim())
        }
    }

    fn to_fen(&self) -> String {
        fen::write_fen(self)
    }

    fn variant(&self) -> Variant {
        R::VARIANT
    }

    fn side_to_move(&self) -> Side {
        self.side
    }

    fn hash(&self) -> u64 {
        self.key()
    }

    #[inline]
    fn hash_after(&self, mv: Move) -> u64 {
        self.key_after(mv)
    }

    #[inline]
    fn generate(&self, list: &mut MoveList) {
        self.generate_moves(list);
    }

    fn generate_tactical(&self, list: &mut MoveList) {
        self.generate_captures(list);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.play_move(mv);
    }

    fn is_tactical(&self, mv: Move) -> bool {
        mv.is_capture() || mv.promotes
    }

    fn reversible_plies(&self) -> u32 {
        self.reversible()
    }

    fn rule_draw(&self) -> bool {
        self.counting_draw()
    }

    fn no_move_result(&self) -> NoMoveResult {
        if R::LOSING {
            NoMoveResult::Win
        } else {
            NoMoveResult::Loss
        }
    }

    /// Bits 0-5 from, 6-11 to, 12-15 a fold of the captured set.
    fn move_key(mv: Move) -> u16 {
        let c = mv.captured.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 60;
        (mv.from as u16 & 63) | (mv.to as u16 & 63) << 6 | (c as u16) << 12
    }

    fn history_index(&self, mv: Move) -> usize {
        (mv.from as usize & 63) * 64 + (mv.to as usize & 63)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        notation::parse_move_text(self, text)
    }

    fn move_text(&self, mv: Move) -> String {
        let mut legal = MoveList::default();
        self.generate_moves(&mut legal);
        notation::pdn_text(self, mv, &legal)
    }

    fn full_move_text(&self, mv: Move) -> String {
        notation::hub_text::<R>(mv)
    }

    #[inline]
    fn count_legal(&self) -> u64 {
        self.count_moves()
    }
}

impl<R: Rules> fmt::Display for Position<R> {
    /// The board as white sees it (pieces `w b W B`, `.` empty playable
    /// squares), each row followed by the numbers of its squares, then the FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = <R::Board as Geometry>::SIDE;
        let mut cells = vec![vec![(' ', 0u32); side]; side];
        for i in 0..<R::Board as Geometry>::SQUARES {
            let bit = <R::Board as Geometry>::BIT[i];
            let b = 1u64 << bit;
            let king = self.kings & b != 0;
            let c = match (self.white & b != 0, self.black & b != 0, king) {
                (true, _, false) => 'w',
                (true, _, true) => 'W',
                (_, true, false) => 'b',
                (_, true, true) => 'B',
                _ => '.',
            };
            let (row, col) = <R::Board as Geometry>::cell(bit);
            cells[row][col] = (c, notation::number_of_bit::<R>(bit));
        }
        for row in &cells {
            let board: String = row.iter().flat_map(|&(c, _)| [' ', c]).collect();
            let numbers: Vec<String> =
                row.iter().filter(|&&(c, _)| c != ' ').map(|&(_, n)| format!("{n:>2}")).collect();
            writeln!(f, "{board}   {}", numbers.join(" "))?;
        }
        write!(f, "{}", fen::write_fen(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays the first legal move `plies` times and reports when a counting
    /// rule first says draw.
    fn draw_after<R: Rules>(fen: &str, variant: Variant, plies: u32) -> Option<u32> {
        let mut pos = Position::<R>::from_fen(fen, variant).expect("fen");
        for ply in 0..plies {
            if pos.rule_draw() {
                return Some(ply);
            }
            let mut list = MoveList::default();
            pos.generate(&mut list);
            let safe = |&m: &Move| {
                let mut child = pos;
                child.play(m);
                !pos.is_tactical(m) && !child.has_capture()
            };
            let quiet = list.iter().copied().find(safe)?;
            pos.play(quiet);
        }
        pos.rule_draw().then_some(plies)
    }

    #[test]
    fn fmjd_counting_rules() {
        // 2 kings v 1 king: the 5-move rule (10 plies).
        assert_eq!(
            draw_after::<rules::InternationalRules>("W:WK1,K3:BK50", Variant::International, 40),
            Some(10)
        );
        // 3 kings v 1 king: the 16-move rule (32 plies).
        assert_eq!(
            draw_after::<rules::InternationalRules>("W:WK1,K3,K5:BK50", Variant::International, 60),
            Some(32)
        );
        // Many kings each: the 25-move rule (50 plies of king moves).
        assert_eq!(
            draw_after::<rules::InternationalRules>(
                "W:WK1,K3,K5,K7:BK46,K48",
                Variant::International,
                80
            ),
            Some(50)
        );
        // A man move resets the count; Turkish has no counting rule here.
        assert_eq!(draw_after::<rules::TurkishRules>("W:WKa1:BKh8", Variant::Turkish, 80), None);
    }

    #[test]
    fn many_kings_overflow_the_inline_list() {
        let pos =
            International::from_fen("W:WK21-30:BK1,K50", Variant::International).expect("fen");
        let mut list = MoveList::default();
        pos.generate(&mut list);
        assert!(list.len() > 32, "{}", list.len());
        assert_eq!(std::mem::size_of::<International>(), 40);
        assert_eq!(std::mem::size_of::<Move>(), 16);
        assert_eq!(pos.count_legal(), list.len() as u64);
        let mut seen = list.to_vec();
        seen.sort_by_key(|m| (m.from, m.to));
        seen.dedup();
        assert_eq!(seen.len(), list.len());
    }

    #[test]
    fn outcomes_and_display() {
        let blocked = International::from_fen("W:W46:B41,37", Variant::International).expect("fen");
        assert_eq!(blocked.outcome(&[]), Some(crate::game::Outcome::Win(Side::Black)));
        let anti = Antidraughts::from_fen("W:W46:B41,37", Variant::Antidraughts).expect("fen");
        assert_eq!(anti.outcome(&[]), Some(crate::game::Outcome::Win(Side::White)));
        let text = International::start(Variant::International).to_string();
        assert!(text.contains("W:W31,32"));
        assert!(text.contains("46 47 48 49 50"));
    }
}
