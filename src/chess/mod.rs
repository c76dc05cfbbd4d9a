//! Chess and Chess960 rules: types, bitboards, attack tables, the position
//! with Zobrist keys, strictly legal move generation, FEN, UCI move text and
//! static exchange evaluation, SAN (`san`) and the Chess960 start positions
//! (`chess960`), behind the [`Game`] trait.
//!
//! One position type serves both variants: castling is stored as king and
//! rook squares, and a runtime [`CastlingMode`] only changes how FEN and move
//! text are written. `Variant::Chess960` selects Chess960 mode.

pub mod attacks;
pub mod bitboard;
pub mod chess960;
pub mod fen;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod position;
pub mod san;
pub mod see;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, IllegalPosition, PositionError, START_FEN};
pub use moves::Move;
pub use notation::MoveError;
pub use position::{CastlingMode, Position};
pub use types::{Color, File, Piece, PieceKind, Rank, Square};

use crate::game::{DrawReason, Game, NoMoveResult, Outcome, Side, Variant};

/// The chess move list: 256 slots, more than the 218 moves any legal
/// position has (the FEN reader refuses material that could exceed it).
pub type MoveList = crate::game::MoveList<Move, 256>;

impl Game for Position {
    type Move = Move;
    type MoveList = MoveList;
    type PositionError = PositionError;
    type MoveError = MoveError;

    const NULL_MOVE: bool = true;
    const HISTORY_SIZE: usize = 12 * 64;
    const CONTINUATION_KEYS: usize = 12 * 64;

    fn start(variant: Variant) -> Self {
        let mode = mode_of(variant);
        match Position::from_fen_mode(START_FEN, mode) {
            Ok(pos) => pos,
            Err(_) => unreachable!("the start position is valid"),
        }
    }

    fn from_fen(text: &str, variant: Variant) -> Result<Self, PositionError> {
        Position::from_fen_mode(text, mode_of(variant))
    }

    fn to_fen(&self) -> String {
        self.fen()
    }

    fn variant(&self) -> Variant {
        match self.mode {
            CastlingMode::Standard => Variant::Chess,
            CastlingMode::Chess960 => Variant::Chess960,
        }
    }

    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.key
    }

    #[inline]
    fn hash_after(&self, mv: Move) -> u64 {
        self.key_after(mv)
    }

    #[inline]
    fn generate(&self, list: &mut MoveList) {
        self.legal_moves(list);
    }

    #[inline]
    fn generate_tactical(&self, list: &mut MoveList) {
        self.tactical_moves(list);
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        Position::play(self, mv);
    }

    #[inline]
    fn play_null(&mut self) {
        Position::play_null(self);
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.checkers.any()
    }

    #[inline]
    fn is_tactical(&self, mv: Move) -> bool {
        mv.promotion_kind().is_some() || self.is_capture(mv)
    }

    #[inline]
    fn reversible_plies(&self) -> u32 {
        self.halfmove
    }

    fn rule_draw(&self) -> bool {
        self.halfmove >= 100 || self.insufficient_material()
    }

    fn no_move_result(&self) -> NoMoveResult {
        if self.in_check() {
            NoMoveResult::Loss
        } else {
            NoMoveResult::Draw
        }
    }

    #[inline]
    fn move_key(mv: Move) -> u16 {
        mv.bits()
    }

    #[inline]
    fn history_index(&self, mv: Move) -> usize {
        let piece = self.board[mv.from().index()] as usize % 12;
        piece * 64 + mv.to().index()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Position::parse_move(self, text)
    }

    fn move_text(&self, mv: Move) -> String {
        Position::move_text(self, mv)
    }

    #[inline]
    fn count_legal(&self) -> u64 {
        self.count_moves()
    }

    /// As the trait's default, but a material draw is reported as
    /// [`DrawReason::InsufficientMaterial`] rather than as a move rule.
    fn outcome(&self, history: &[u64]) -> Option<Outcome> {
        if self.count_moves() == 0 {
            return Some(if self.in_check() {
                Outcome::Win(self.side.flip())
            } else {
                Outcome::Draw(DrawReason::Stalemate)
            });
        }
        if self.halfmove >= 100 {
            return Some(Outcome::Draw(DrawReason::MoveRule));
        }
        if self.insufficient_material() {
            return Some(Outcome::Draw(DrawReason::InsufficientMaterial));
        }
        let window = (self.halfmove as usize).min(history.len());
        let seen = history[history.len() - window..].iter().filter(|&&k| k == self.key).count();
        (seen >= 2).then_some(Outcome::Draw(DrawReason::Repetition))
    }
}

fn mode_of(variant: Variant) -> CastlingMode {
    match variant {
        Variant::Chess960 => CastlingMode::Chess960,
        _ => CastlingMode::Standard,
    }
}
