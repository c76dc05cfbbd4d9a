//! Basic chess types: [`Square`], [`File`], [`Rank`], [`PieceKind`], [`Piece`]
//! and [`Color`] (the game-wide [`Side`]).
//!
//! Layout: squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ...,
//! h8 = 63 (little-endian rank-file mapping), so `square = rank * 8 + file`
//! and bit `n` of a [`crate::chess::Bitboard`] is square `n`.
//!
//! Invariant: a `Square` always holds a value below 64, a `File` and a `Rank`
//! below 8. Constructors that take a raw number mask it or return `Option`,
//! so indexing a 64-entry table with [`Square::index`] never goes out of
//! bounds (and the compiler can see it).

use std::fmt;

/// The side to move or a piece's owner: chess reuses the game-wide [`Side`].
pub type Color = crate::game::Side;
pub use crate::game::Side;

/// A square of the board, a1 = 0 ... h8 = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Square(u8);

impl Square {
    /// a1, the first square.
    pub const A1: Square = Square(0);
    /// c1 (white's queenside castling king target).
    pub const C1: Square = Square(2);
    /// d1 (white's queenside castling rook target).
    pub const D1: Square = Square(3);
    /// e1 (white king's start square).
    pub const E1: Square = Square(4);
    /// f1 (white's kingside castling rook target).
    pub const F1: Square = Square(5);
    /// g1 (white's kingside castling king target).
    pub const G1: Square = Square(6);
    /// h1.
    pub const H1: Square = Square(7);
    /// a8.
    pub const A8: Square = Square(56);
    /// e8 (black king's start square).
    pub const E8: Square = Square(60);
    /// h8, the last square.
    pub const H8: Square = Square(63);

    /// The square with this index, or `None` when `index >= 64`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index & 63` (callers pass values below 64).
    #[inline]
    pub const fn from_index(index: u32) -> Square {
        Square((index & 63) as u8)
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square(rank.0 * 8 + file.0)
    }

    /// Index 0..64, for tables.
    #[inline]
    pub const fn index(self) -> usize {
        (self.0 & 63) as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 & 7)
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 >> 3)
    }

    /// The same square seen from black's side (a1 <-> a8) when `color` is
    /// black; unchanged for white.
    #[inline]
    pub const fn relative(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => Square(self.0 ^ 56),
        }
    }

    /// The square `delta` steps away in index (e.g. +8 is one rank up), or
    /// `None` off the board. No wrap check on files: use for ranks only.
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let target = self.0 as i16 + delta as i16;
        if target >= 0 && target < 64 {
            Some(Square(target as u8))
        } else {
            None
        }
    }

    /// Parses `e4`-style text (lowercase file letter, rank digit).
    pub fn parse(text: &str) -> Option<Square> {
        match text.as_bytes() {
            [f, r] => Some(Square::from_coords(
                File::from_char(*f as char)?,
                Rank::from_char(*r as char)?,
            )),
            _ => None,
        }
    }

    /// Every square, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

/// A file (column), a = 0 ... h = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// The a-file.
    pub const A: File = File(0);
    /// The c-file.
    pub const C: File = File(2);
    /// The d-file.
    pub const D: File = File(3);
    /// The f-file.
    pub const F: File = File(5);
    /// The g-file.
    pub const G: File = File(6);
    /// The h-file.
    pub const H: File = File(7);

    /// The file with this index, or `None` when `index >= 8`.
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File(index))
        } else {
            None
        }
    }

    /// Index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Reads a lowercase file letter `a`..`h`.
    #[inline]
    pub fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File(c as u8 - b'a')),
            _ => None,
        }
    }

    /// The lowercase file letter.
    #[inline]
    pub const fn to_char(self) -> char {
        (b'a' + self.0) as char
    }
}

/// A rank (row), rank 1 = 0 ... rank 8 = 7.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The first rank (white's back rank).
    pub const FIRST: Rank = Rank(0);
    /// The eighth rank (black's back rank).
    pub const EIGHTH: Rank = Rank(7);

    /// The rank with this index, or `None` when `index >= 8`.
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// Index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The back rank of `color` (rank 1 for white, rank 8 for black).
    #[inline]
    pub const fn back(color: Color) -> Rank {
        match color {
            Color::White => Rank(0),
            Color::Black => Rank(7),
        }
    }

    /// Reads a rank digit `1`..`8`.
    #[inline]
    pub fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank(c as u8 - b'1')),
            _ => None,
        }
    }

    /// The rank digit.
    #[inline]
    pub const fn to_char(self) -> char {
        (b'1' + self.0) as char
    }
}

/// The kind of a piece, without its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn.
    Pawn,
    /// Knight.
    Knight,
    /// Bishop.
    Bishop,
    /// Rook.
    Rook,
    /// Queen.
    Queen,
    /// King.
    King,
}

impl PieceKind {
    /// Every kind, pawn first.
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The kinds a pawn may promote to, queen first.
    pub const PROMOTIONS: [PieceKind; 4] =
        [PieceKind::Queen, PieceKind::Knight, PieceKind::Rook, PieceKind::Bishop];

    /// Index 0..6, for tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase letter (`p n b r q k`).
    pub const fn to_char(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// Reads a piece letter in either case.
    pub fn from_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_lowercase() {
            'p' => PieceKind::Pawn,
            'n' => PieceKind::Knight,
            'b' => PieceKind::Bishop,
            'r' => PieceKind::Rook,
            'q' => PieceKind::Queen,
            'k' => PieceKind::King,
            _ => return None,
        })
    }
}

/// A coloured piece. Index layout (for tables of 12): `color * 6 + kind`,
/// white pawn = 0 ... white king = 5, black pawn = 6 ... black king = 11.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..12, `color * 6 + kind`.
    #[inline]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }

    /// FEN letter: uppercase for white, lowercase for black.
    pub const fn to_char(self) -> char {
        let c = self.kind.to_char();
        match self.color {
            Color::White => c.to_ascii_uppercase(),
            Color::Black => c,
        }
    }

    /// Reads a FEN piece letter.
    pub fn from_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_char(c)?;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        Some(Piece::new(color, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_text_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("e4").map(Square::index), Some(28));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("e9"), None);
        assert_eq!(Square::parse("é"), None);
    }

    #[test]
    fn piece_letters_round_trip() {
        for color in Color::BOTH {
            for kind in PieceKind::ALL {
                let piece = Piece::new(color, kind);
                assert_eq!(Piece::from_char(piece.to_char()), Some(piece));
            }
        }
        assert_eq!(Piece::from_char('x'), None);
    }
}
