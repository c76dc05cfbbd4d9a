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

impl<R: Rules> Game for Position<R> {
    type Move = Move;
    type MoveList = MoveList;
    type PositionError = PositionError;
    type MoveError = MoveError;

    const NULL_MOVE: bool = false;
    const FORCED_CAPTURES: bool = true;
    const HISTORY_SIZE: usize = 64 * 64;

    fn start(_variant: Variant) -> Self {
        Self::start_position()
    }

    fn from_fen(text: &str, _variant: Variant) -> Result<Self, PositionError> {
        fen::parse_fen(text)
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
