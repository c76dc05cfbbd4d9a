//! [`Move`]: a chess move in 16 bits.
//!
//! Bit layout:
//!
//! | bits  | field                                                        |
//! |-------|--------------------------------------------------------------|
//! | 0-5   | from square                                                  |
//! | 6-11  | to square (castling: the castling rook's square)             |
//! | 12-15 | flag: 0 normal, 1 en passant, 2 castling, 4-7 promotion to   |
//! |       | knight, bishop, rook, queen                                  |
//!
//! Castling is stored king-takes-rook (`e1h1`), so standard chess and Chess960
//! share one encoding; only the move text (`notation.rs`) turns it into
//! `e1g1` in standard mode. The all-zero move (`a1a1`) is never legal and is
//! [`Move::NONE`], the `Default`.

use crate::chess::types::{PieceKind, Square};
use std::fmt;

/// A move: from, to and flags packed in 16 bits (see the module header).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const EN_PASSANT: u16 = 1;
const CASTLE: u16 = 2;
const PROMOTION: u16 = 4;

impl Move {
    /// The null move `a1a1`: never legal, the default value.
    pub const NONE: Move = Move(0);

    /// A normal move (a quiet move or a capture, not a promotion).
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6)
    }

    /// A pawn move to the last rank promoting to `kind` (knight..queen).
    #[inline]
    pub const fn promotion(from: Square, to: Square, kind: PieceKind) -> Move {
        let code = (kind.index() as u16).wrapping_sub(1) & 3;
        Move(Move::normal(from, to).0 | (PROMOTION | code) << 12)
    }

    /// An en-passant capture from `from` to the empty square `to`.
    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(Move::normal(from, to).0 | EN_PASSANT << 12)
    }

    /// Castling: the king on `king` with the rook on `rook`.
    #[inline]
    pub const fn castling(king: Square, rook: Square) -> Move {
        Move(Move::normal(king, rook).0 | CASTLE << 12)
    }

    /// The raw 16 bits.
    #[inline]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with these raw bits (any value is a well-formed move value;
    /// whether it is legal is for the position to say).
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The square the moving piece leaves.
    #[inline]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u32)
    }

    /// The target square; for castling the rook's square.
    #[inline]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as u32)
    }

    /// The 4-bit flag field.
    #[inline]
    const fn flag(self) -> u16 {
        self.0 >> 12
    }

    /// Whether this is castling.
    #[inline]
    pub const fn is_castling(self) -> bool {
        self.flag() == CASTLE
    }

    /// Whether this is an en-passant capture.
    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.flag() == EN_PASSANT
    }

    /// The piece a promotion promotes to, `None` for other moves.
    #[inline]
    pub const fn promotion_kind(self) -> Option<PieceKind> {
        if self.flag() & PROMOTION == 0 {
            return None;
        }
        Some(match self.flag() & 3 {
            0 => PieceKind::Knight,
            1 => PieceKind::Bishop,
            2 => PieceKind::Rook,
            _ => PieceKind::Queen,
        })
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(kind) = self.promotion_kind() {
            write!(f, "{}", kind.to_char())?;
        }
        if self.is_castling() {
            f.write_str("(castle)")?;
        }
        if self.is_en_passant() {
            f.write_str("(ep)")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        for from in Square::all() {
            for to in Square::all() {
                let m = Move::normal(from, to);
                assert_eq!((m.from(), m.to(), m.promotion_kind()), (from, to, None));
                for kind in PieceKind::PROMOTIONS {
                    let p = Move::promotion(from, to, kind);
                    assert_eq!((p.from(), p.to(), p.promotion_kind()), (from, to, Some(kind)));
                    assert!(!p.is_castling() && !p.is_en_passant());
                }
                assert!(Move::castling(from, to).is_castling());
                assert!(Move::en_passant(from, to).is_en_passant());
                assert_eq!(Move::from_bits(m.bits()), m);
            }
        }
    }
}
