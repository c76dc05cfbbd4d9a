//! FEN in and out, with X-FEN and Shredder-FEN castling rights, and the two
//! error kinds: [`FenError`] (the text cannot be read) and
//! [`IllegalPosition`] (it reads, but no legal game reaches it), joined in
//! [`PositionError`].
//!
//! Reading: up to six fields; only the board is required (missing fields
//! default to white to move, castling `-`, no en passant, clocks 0 and 1, so
//! EPD-style four-field positions read as they are). Castling rights may be `KQkq`
//! (the outermost rook on that side of the king), file letters `HAha`
//! (Shredder-FEN), or a mix (X-FEN). In standard mode the rights must name
//! rooks on the a/h files with the king on the e-file. An en-passant square
//! that is well-formed and consistent (a pawn just moved two squares past it)
//! but allows no legal capture is dropped, so equal positions get equal keys.
//!
//! Writing: in standard mode `KQkq`-style (X-FEN: a file letter only when the
//! right's rook is not the outermost one, which never happens in standard
//! chess); in Chess960 mode always Shredder-FEN file letters, kingside first
//! (`HAha`), as Stockfish writes them. The en-passant square is written only
//! when a legal en-passant capture exists.
//!
//! No input panics: only ASCII is examined byte by byte, numbers are parsed
//! with overflow checks.

use crate::chess::bitboard::Bitboard;
use crate::chess::position::{CastlingMode, Position};
use crate::chess::types::{Color, File, Piece, PieceKind, Rank, Square};
use std::fmt;

/// FEN text that cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenError {
    /// No text at all.
    Empty,
    /// The board field is malformed (a bad character, a rank too long or too
    /// short, not eight ranks).
    Board,
    /// The side-to-move field is neither `w` nor `b`.
    Side,
    /// The castling field holds a character other than `KQkqA-Ha-h`, or a
    /// repeated one.
    Castling,
    /// The en-passant field is neither `-` nor a square.
    EnPassant,
    /// The halfmove clock is not a number below 2^32.
    Halfmove,
    /// The fullmove number is not a number below 2^32.
    Fullmove,
    /// More than six fields.
    TooManyFields,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenError::Empty => "empty FEN",
            FenError::Board => "malformed board field in FEN",
            FenError::Side => "side to move in FEN must be 'w' or 'b'",
            FenError::Castling => "malformed castling field in FEN",
            FenError::EnPassant => "malformed en-passant field in FEN",
            FenError::Halfmove => "malformed halfmove clock in FEN",
            FenError::Fullmove => "malformed fullmove number in FEN",
            FenError::TooManyFields => "too many fields in FEN",
        })
    }
}

impl std::error::Error for FenError {}

/// A readable FEN that describes a position no legal game reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalPosition {
    /// A side has no king.
    MissingKing,
    /// A side has more than one king.
    TooManyKings,
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank,
    /// More pieces than promotions allow (over 16 pieces, over 8 pawns, or
    /// more promoted pieces than missing pawns).
    TooManyPieces,
    /// The side that is not to move is in check.
    OpponentInCheck,
    /// The side to move is checked by more than two pieces.
    TooManyCheckers,
    /// A castling right without its king and rook on the right squares.
    CastlingRights,
    /// An en-passant square where no pawn can just have moved two squares.
    EnPassant,
}

impl fmt::Display for IllegalPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalPosition::MissingKing => "illegal position: a side has no king",
            IllegalPosition::TooManyKings => "illegal position: a side has more than one king",
            IllegalPosition::PawnOnBackRank => "illegal position: pawn on the first or last rank",
            IllegalPosition::TooManyPieces => "illegal position: too many pieces",
            IllegalPosition::OpponentInCheck => {
                "illegal position: the side not to move is in check"
            }
            IllegalPosition::TooManyCheckers => "illegal position: more than two pieces give check",
            IllegalPosition::CastlingRights => {
                "illegal position: castling right without king and rook on their squares"
            }
            IllegalPosition::EnPassant => "illegal position: impossible en-passant square",
        })
    }
}

impl std::error::Error for IllegalPosition {}

/// Why a FEN was refused: unreadable text or an impossible position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is not FEN.
    Fen(FenError),
    /// The FEN describes an impossible position.
    Illegal(IllegalPosition),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Fen(e) => e.fmt(f),
            PositionError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PositionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PositionError::Fen(e) => Some(e),
            PositionError::Illegal(e) => Some(e),
        }
    }
}

impl From<FenError> for PositionError {
    fn from(e: FenError) -> Self {
        PositionError::Fen(e)
    }
}

impl From<IllegalPosition> for PositionError {
    fn from(e: IllegalPosition) -> Self {
        PositionError::Illegal(e)
    }
}

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn parse_board(pos: &mut Position, field: &str) -> Result<(), FenError> {
    let mut rank = 7u8;
    let mut file = 0u8;
    for c in field.chars() {
        match c {
            '/' => {
                if file != 8 || rank == 0 {
                    return Err(FenError::Board);
                }
                rank -= 1;
                file = 0;
            }
            '1'..='8' => {
                file += c as u8 - b'0';
                if file > 8 {
                    return Err(FenError::Board);
                }
            }
            _ => {
                let piece = Piece::from_char(c).ok_or(FenError::Board)?;
                let sq =
                    Square::new(rank * 8 + file).filter(|_| file < 8).ok_or(FenError::Board)?;
                pos.put(piece.index(), sq);
                file += 1;
            }
        }
    }
    if rank != 0 || file != 8 {
        return Err(FenError::Board);
    }
    Ok(())
}

fn parse_number(field: Option<&str>, default: u32, err: FenError) -> Result<u32, FenError> {
    match field {
        None => Ok(default),
        Some(text) if text.bytes().all(|b| b.is_ascii_digit()) => text.parse().map_err(|_| err),
        Some(_) => Err(err),
    }
}

fn check_material(pos: &Position) -> Result<(), IllegalPosition> {
    for color in Color::BOTH {
        match pos.pieces(color, PieceKind::King).count() {
            0 => return Err(IllegalPosition::MissingKing),
            1 => {}
            _ => return Err(IllegalPosition::TooManyKings),
        }
        let count = |kind| pos.pieces(color, kind).count();
        let pawns = count(PieceKind::Pawn);
        let promoted = count(PieceKind::Knight).saturating_sub(2)
            + count(PieceKind::Bishop).saturating_sub(2)
            + count(PieceKind::Rook).saturating_sub(2)
            + count(PieceKind::Queen).saturating_sub(1);
        if pos.color(color).count() > 16 || pawns > 8 || promoted > 8 - pawns {
            return Err(IllegalPosition::TooManyPieces);
        }
    }
    if (pos.kind(PieceKind::Pawn) & (Bitboard::RANK_1 | Bitboard::RANK_8)).any() {
        return Err(IllegalPosition::PawnOnBackRank);
    }
    Ok(())
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), PositionError> {
    if field == "-" {
        return Ok(());
    }
    let mut seen = 0u64;
    for c in field.chars() {
        let bit = match c {
            'K' | 'Q' | 'k' | 'q' | 'A'..='H' | 'a'..='h' => 1u64 << (c as u32 - 'A' as u32),
            _ => return Err(FenError::Castling.into()),
        };
        if seen & bit != 0 {
            return Err(FenError::Castling.into());
        }
        seen |= bit;
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back = Bitboard::rank(Rank::back(color));
        let king = pos.king_square(color);
        if !back.has(king) {
            return Err(IllegalPosition::CastlingRights.into());
        }
        let rooks = pos.pieces(color, PieceKind::Rook) & back;
        let rook = match c.to_ascii_lowercase() {
            'k' => rooks.into_iter().filter(|&r| r > king).last(),
            'q' => rooks.into_iter().find(|&r| r < king),
            letter => File::from_char(letter)
                .map(|file| Square::from_coords(file, Rank::back(color)))
                .filter(|&sq| rooks.has(sq)),
        };
        let rook = rook.ok_or(IllegalPosition::CastlingRights)?;
        pos.castling |= Bitboard::from_square(rook);
    }
    for color in Color::BOTH {
        let king = pos.king_square(color);
        let rights = pos.castling & pos.color(color);
        let (high, low): (Vec<Square>, Vec<Square>) = rights.into_iter().partition(|&sq| sq > king);
        if high.len() > 1 || low.len() > 1 {
            return Err(IllegalPosition::CastlingRights.into());
        }
        if pos.mode == CastlingMode::Standard
            && rights.any()
            && (king.file().index() != 4
                || rights.into_iter().any(|sq| sq.file() != File::A && sq.file() != File::H))
        {
            return Err(IllegalPosition::CastlingRights.into());
        }
    }
    Ok(())
}

impl Position {
    /// Reads FEN / X-FEN / Shredder-FEN; `mode` fixes how castling is written
    /// later (and, in standard mode, that rights must be standard ones).
    pub fn from_fen_mode(text: &str, mode: CastlingMode) -> Result<Position, PositionError> {
        let mut pos = Position::empty(mode);
        let mut fields = text.split_ascii_whitespace();
        parse_board(&mut pos, fields.next().ok_or(FenError::Empty)?)?;
        pos.side = match fields.next() {
            Some("w") | None => Color::White,
            Some("b") => Color::Black,
            Some(_) => return Err(FenError::Side.into()),
        };
        let castling = fields.next().unwrap_or("-");
        let en_passant = match fields.next() {
            None | Some("-") => None,
            Some(text) => Some(Square::parse(text).ok_or(FenError::EnPassant)?),
        };
        pos.halfmove = parse_number(fields.next(), 0, FenError::Halfmove)?;
        pos.fullmove = parse_number(fields.next(), 1, FenError::Fullmove)?.max(1);
        if fields.next().is_some() {
            return Err(FenError::TooManyFields.into());
        }
        check_material(&pos)?;
        parse_castling(&mut pos, castling)?;
        let us = pos.side;
        if pos.is_attacked(pos.king_square(us.flip()), us, pos.occupancy()) {
            return Err(IllegalPosition::OpponentInCheck.into());
        }
        pos.update_checkers();
        if pos.checkers.count() > 2 {
            return Err(IllegalPosition::TooManyCheckers.into());
        }
        pos.key = pos.compute_key();
        if let Some(target) = en_passant {
            let them = us.flip();
            let pushed = target.offset(if us == Color::White { -8 } else { 8 });
            let origin = target.offset(if us == Color::White { 8 } else { -8 });
            let sixth = if us == Color::White { 5 } else { 2 };
            let ok = target.rank().index() == sixth
                && pushed.is_some_and(|sq| pos.pieces(them, PieceKind::Pawn).has(sq))
                && origin.is_some_and(|sq| pos.piece_on(sq).is_none())
                && pos.piece_on(target).is_none();
            if !ok {
                return Err(IllegalPosition::EnPassant.into());
            }
            pos.update_en_passant(target);
        }
        Ok(pos)
    }

    /// The position as FEN (castling letters per the castling mode, see the
    /// module header).
    pub fn fen(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                match self.piece_on(Square::from_index(u32::from(rank * 8 + file))) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(piece.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push_str(if self.side == Color::White { " w " } else { " b " });
        let before = out.len();
        for color in Color::BOTH {
            let king = self.king_square(color);
            let rooks = self.pieces(color, PieceKind::Rook) & Bitboard::rank(Rank::back(color));
            let mut rights: Vec<Square> = (self.castling & self.color(color)).into_iter().collect();
            rights.reverse();
            for rook in rights {
                let outermost = if rook > king {
                    !rooks.into_iter().any(|r| r > rook)
                } else {
                    !rooks.into_iter().any(|r| r < rook)
                };
                let c = if self.mode == CastlingMode::Standard && outermost {
                    if rook > king {
                        'k'
                    } else {
                        'q'
                    }
                } else {
                    rook.file().to_char()
                };
                out.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
            }
        }
        if out.len() == before {
            out.push('-');
        }
        match self.en_passant {
            Some(sq) => out.push_str(&format!(" {sq}")),
            None => out.push_str(" -"),
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }
}
