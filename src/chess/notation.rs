//! UCI move text: `e2e4`, `e7e8q`, and castling as `e1g1` (king to its target
//! square) in standard mode or king-takes-rook `e1h1` in Chess960 mode.
//!
//! Parsing returns only legal moves: the text is matched against the legal
//! move list. In standard mode the king-takes-rook form (`e1h1`) is accepted
//! too, as some GUIs send it; it is never ambiguous because a king can never
//! otherwise move onto its own rook. In Chess960 mode only king-takes-rook is
//! castling (`f1g1` with the king on f1 is a plain king move).

use crate::chess::moves::Move;
use crate::chess::position::{castling_targets, CastlingMode, Position};
use crate::chess::types::{PieceKind, Square};
use std::fmt;

/// Why move text was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not UCI move text (`e2e4`, `e7e8q`).
    Syntax,
    /// A pawn reaching the last rank without (or with a wrong) promotion piece.
    Promotion,
    /// Well-formed, but not a legal move in this position.
    Illegal,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::Syntax => "malformed move text (expected e.g. e2e4 or e7e8q)",
            MoveError::Promotion => "a promotion needs one of the pieces q, r, b, n",
            MoveError::Illegal => "illegal move in this position",
        })
    }
}

impl std::error::Error for MoveError {}

impl Position {
    /// The UCI text of a legal move in this position's castling mode.
    pub fn move_text(&self, mv: Move) -> String {
        let mut text = String::with_capacity(5);
        text.push_str(&mv.from().to_string());
        let to = if mv.is_castling() && self.mode == CastlingMode::Standard {
            castling_targets(self.side, mv.from(), mv.to()).0
        } else {
            mv.to()
        };
        text.push_str(&to.to_string());
        if let Some(kind) = mv.promotion_kind() {
            text.push(kind.to_char());
        }
        text
    }

    /// Parses UCI move text and returns the legal move it names.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(MoveError::Syntax);
        }
        let from = Square::parse(&text[0..2]).ok_or(MoveError::Syntax)?;
        let to = Square::parse(&text[2..4]).ok_or(MoveError::Syntax)?;
        let promotion = match text.get(4..5) {
            None => None,
            Some(letter) => match letter.chars().next().and_then(PieceKind::from_char) {
                Some(
                    kind @ (PieceKind::Knight
                    | PieceKind::Bishop
                    | PieceKind::Rook
                    | PieceKind::Queen),
                ) => Some(kind),
                _ => return Err(MoveError::Syntax),
            },
        };
        let mut list = crate::chess::MoveList::default();
        self.legal_moves(&mut list);
        let mut promotion_mismatch = false;
        for &mv in list.iter() {
            if mv.from() != from {
                continue;
            }
            let lands = if mv.is_castling() {
                mv.to() == to
                    || (self.mode == CastlingMode::Standard
                        && castling_targets(self.side, from, mv.to()).0 == to)
            } else {
                mv.to() == to
            };
            if !lands {
                continue;
            }
            if mv.promotion_kind() == promotion {
                return Ok(mv);
            }
            promotion_mismatch = true;
        }
        Err(if promotion_mismatch { MoveError::Promotion } else { MoveError::Illegal })
    }
}
