//! [`Position`]: the chess board and everything the rules need, played by
//! copy-make (the search copies a position and calls `play` on the copy).
//!
//! Representation (about 180 bytes, cheap to copy):
//! * `kinds[k]`: squares of all pieces of kind `k` (both colours);
//!   `colors[c]`: squares of all pieces of colour `c`;
//!   `board[sq]`: the piece index (`color * 6 + kind`) on `sq`, 12 = empty.
//!   The three always agree.
//! * `castling`: the set of rook squares that may still castle. A right is
//!   the rook's square, the king is found on its square, so standard chess and
//!   Chess960 are the same code; a king-side right is a rook on a higher file
//!   than its king. Invariant: each right's rook and king stand on their
//!   back rank, at most one right per side of the king.
//! * `en_passant`: the square behind a pawn that just advanced two squares,
//!   kept only when an en-passant capture is legal (so the key and the FEN
//!   never carry an unusable en-passant square).
//! * `checkers`: the pieces giving check to the side to move, kept up to date
//!   by `play` (the move generator and `in_check` read it).
//! * `key`: the Zobrist key, updated incrementally (see `zobrist.rs`).
//! * `mode`: [`CastlingMode`], which only FEN output and move text look at.

use crate::chess::attacks;
use crate::chess::bitboard::Bitboard;
use crate::chess::moves::Move;
use crate::chess::types::{Color, File, Piece, PieceKind, Rank, Square};
use crate::chess::zobrist;
use std::fmt;

/// How castling is written: the only difference between standard chess and
/// Chess960 in this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: castling as `e1g1`, FEN rights as `KQkq`.
    Standard,
    /// Chess960: castling as king-takes-rook `e1h1`, FEN rights as
    /// Shredder-FEN file letters (`HAha`).
    Chess960,
}

pub(crate) const EMPTY: u8 = 12;

const PIECES: [Piece; 12] = {
    let mut all = [Piece::new(Color::White, PieceKind::Pawn); 12];
    let mut i = 0;
    while i < 12 {
        let color = if i < 6 { Color::White } else { Color::Black };
        all[i] = Piece::new(color, PieceKind::ALL[i % 6]);
        i += 1;
    }
    all
};

/// A chess position (standard or Chess960).
#[derive(Clone)]
pub struct Position {
    pub(crate) kinds: [Bitboard; 6],
    pub(crate) colors: [Bitboard; 2],
    pub(crate) castling: Bitboard,
    pub(crate) checkers: Bitboard,
    pub(crate) key: u64,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) side: Color,
    pub(crate) en_passant: Option<Square>,
    pub(crate) mode: CastlingMode,
    pub(crate) board: [u8; 64],
}

/// The squares a castling king and rook end on: `(king target, rook target)`
/// on `color`'s back rank, g/f files when the rook is on the king's higher
/// side, c/d otherwise.
#[inline]
pub fn castling_targets(color: Color, king: Square, rook: Square) -> (Square, Square) {
    let rank = Rank::back(color);
    let (k, r) = if rook > king { (File::G, File::F) } else { (File::C, File::D) };
    (Square::from_coords(k, rank), Square::from_coords(r, rank))
}

impl Position {
    /// An empty board (no pieces, white to move), for building positions.
    pub(crate) fn empty(mode: CastlingMode) -> Position {
        Position {
            kinds: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            castling: Bitboard::EMPTY,
            checkers: Bitboard::EMPTY,
            key: 0,
            halfmove: 0,
            fullmove: 1,
            side: Color::White,
            en_passant: None,
            mode,
            board: [EMPTY; 64],
        }
    }

    /// Puts the piece with index `index` (`color * 6 + kind`) on the empty
    /// square `sq` (key included).
    #[inline]
    pub(crate) fn put(&mut self, index: usize, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.kinds[index % 6] |= bb;
        self.colors[index / 6 % 2] |= bb;
        self.board[sq.index()] = index as u8;
        self.key ^= zobrist::piece_index(index, sq);
    }

    /// Removes the piece (index `index`) from `sq`.
    #[inline]
    fn remove(&mut self, index: usize, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.kinds[index % 6] ^= bb;
        self.colors[index / 6 % 2] ^= bb;
        self.board[sq.index()] = EMPTY;
        self.key ^= zobrist::piece_index(index, sq);
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_on(&self, sq: Square) -> Option<Piece> {
        PIECES.get(self.board[sq.index()] as usize).copied()
    }

    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.colors[color.index()] & self.kinds[kind.index()]
    }

    /// The squares of all pieces of `kind`, both colours.
    #[inline]
    pub fn kind(&self, kind: PieceKind) -> Bitboard {
        self.kinds[kind.index()]
    }

    /// The squares of all of `color`'s pieces.
    #[inline]
    pub fn color(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupancy(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceKind::King).lsb()
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    /// The pieces of both colours that attack `sq` when the board holds
    /// exactly `occupied` (pieces outside `occupied` are ignored as blockers
    /// but still count as attackers; mask with `occupied` when needed).
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let diagonal = self.kinds[2] | self.kinds[4];
        let straight = self.kinds[3] | self.kinds[4];
        (attacks::pawn(Color::White, sq) & self.pieces(Color::Black, PieceKind::Pawn))
            | (attacks::pawn(Color::Black, sq) & self.pieces(Color::White, PieceKind::Pawn))
            | (attacks::knight(sq) & self.kinds[1])
            | (attacks::king(sq) & self.kinds[5])
            | (attacks::bishop(sq, occupied) & diagonal)
            | (attacks::rook(sq, occupied) & straight)
    }

    /// Whether any piece of `by` attacks `sq` with `occupied` as blockers.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.colors[by.index()];
        (attacks::knight(sq) & self.kinds[1] & them).any()
            || (attacks::pawn(by.flip(), sq) & self.kinds[0] & them).any()
            || (attacks::king(sq) & self.kinds[5] & them).any()
            || (attacks::bishop(sq, occupied) & (self.kinds[2] | self.kinds[4]) & them).any()
            || (attacks::rook(sq, occupied) & (self.kinds[3] | self.kinds[4]) & them).any()
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// The rook squares that may still castle (both colours).
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The en-passant target square, present only when a legal en-passant
    /// capture exists.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move (the fifty-move counter).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The fullmove number (starts at 1, grows after each black move).
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// How castling is written in FEN and move text.
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// Switches the text mode (the UCI option `UCI_Chess960`): `true` for
    /// Chess960 king-takes-rook castling and Shredder-FEN rights. The rules
    /// do not change.
    pub fn set_chess960(&mut self, chess960: bool) {
        self.mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    }

    /// The piece that `mv` moves (the king for castling).
    #[inline]
    pub fn moved_piece(&self, mv: Move) -> Option<Piece> {
        self.piece_on(mv.from())
    }

    /// The kind of piece `mv` captures (a pawn for en passant, nothing for
    /// castling even though its target square holds the own rook).
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<PieceKind> {
        if mv.is_en_passant() {
            Some(PieceKind::Pawn)
        } else if mv.is_castling() {
            None
        } else {
            self.piece_on(mv.to()).map(|p| p.kind)
        }
    }

    /// Whether `mv` captures (en passant included).
    #[inline]
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.is_en_passant() || (!mv.is_castling() && self.board[mv.to().index()] != EMPTY)
    }

    /// The piece `mv` promotes to, if it is a promotion.
    #[inline]
    pub fn promotion(&self, mv: Move) -> Option<PieceKind> {
        mv.promotion_kind()
    }

    /// Whether the pawn of the side to move on `from` may capture en passant
    /// onto `target` without leaving its king in check.
    pub(crate) fn en_passant_legal(&self, from: Square, target: Square) -> bool {
        let us = self.side;
        let them = us.flip();
        let captured = Square::from_index(target.index() as u32 ^ 8);
        let occupied =
            (self.occupancy() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
                | Bitboard::from_square(target);
        let ksq = self.king_square(us);
        let their = self.colors[them.index()];
        let attackers = (attacks::knight(ksq) & self.kinds[1])
            | (attacks::pawn(us, ksq) & self.kinds[0] & !Bitboard::from_square(captured))
            | (attacks::bishop(ksq, occupied) & (self.kinds[2] | self.kinds[4]))
            | (attacks::rook(ksq, occupied) & (self.kinds[3] | self.kinds[4]));
        (attackers & their).is_empty()
    }

    /// Sets `en_passant` to `target` if the side to move has a legal
    /// en-passant capture there, else to `None`.
    pub(crate) fn update_en_passant(&mut self, target: Square) {
        let pawns =
            attacks::pawn(self.side.flip(), target) & self.pieces(self.side, PieceKind::Pawn);
        if pawns.into_iter().any(|from| self.en_passant_legal(from, target)) {
            self.en_passant = Some(target);
            self.key ^= zobrist::en_passant(target);
        }
    }

    /// Recomputes `checkers` for the side to move.
    #[inline]
    pub(crate) fn update_checkers(&mut self) {
        let us = self.side;
        let ksq = self.king_square(us);
        let occupied = self.occupancy();
        let theirs = self.colors[us.flip().index()];
        self.checkers = theirs
            & ((attacks::knight(ksq) & self.kinds[1])
                | (attacks::pawn(us, ksq) & self.kinds[0])
                | (attacks::bishop(ksq, occupied) & (self.kinds[2] | self.kinds[4]))
                | (attacks::rook(ksq, occupied) & (self.kinds[3] | self.kinds[4])));
    }

    /// The Zobrist key computed from scratch (tests compare it with the
    /// incrementally updated [`Position::key`]).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupancy() {
            key ^= zobrist::piece_index(self.board[sq.index()] as usize, sq);
        }
        for sq in self.castling {
            key ^= zobrist::castling(sq);
        }
        if let Some(sq) = self.en_passant {
            key ^= zobrist::en_passant(sq);
        }
        if self.side == Color::Black {
            key ^= zobrist::black_to_move();
        }
        key
    }

    /// The Zobrist key.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key after `mv`, exact for the ordinary moves (pieces moved and
    /// captured, side to move, an en-passant right that lapses) and a guess
    /// for the rest: castling, promotions, en-passant captures, rights lost
    /// and en-passant rights created are left out. For prefetching only.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let (from, to) = (mv.from(), mv.to());
        let moving = self.board[from.index()] as usize;
        let captured = self.board[to.index()] as usize;
        let mut key = self.key
            ^ zobrist::black_to_move()
            ^ zobrist::piece_index(moving, from)
            ^ zobrist::piece_index(moving, to);
        if captured != EMPTY as usize {
            key ^= zobrist::piece_index(captured, to);
        }
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep);
        }
        key
    }

    /// Plays a legal move (copy-make: callers copy first when they need the
    /// old position).
    pub fn play(&mut self, mv: Move) {
        let us = self.side;
        let (from, to) = (mv.from(), mv.to());
        let moving = self.board[from.index()] as usize;
        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep);
        }
        self.halfmove = self.halfmove.saturating_add(1);
        let mut double_push = None;
        let mut changed = self.castling & (Bitboard::from_square(from) | Bitboard::from_square(to));
        if mv.is_castling() {
            let rook = self.board[to.index()] as usize;
            let (king_to, rook_to) = castling_targets(us, from, to);
            self.remove(moving, from);
            self.remove(rook, to);
            self.put(moving, king_to);
            self.put(rook, rook_to);
            changed |= self.castling & Bitboard::rank(Rank::back(us));
        } else {
            if mv.is_en_passant() {
                let captured = Square::from_index(to.index() as u32 ^ 8);
                self.remove(self.board[captured.index()] as usize, captured);
            } else {
                let captured = self.board[to.index()] as usize;
                if captured != EMPTY as usize {
                    self.remove(captured, to);
                    self.halfmove = 0;
                }
            }
            self.remove(moving, from);
            match mv.promotion_kind() {
                Some(kind) => self.put(us.index() * 6 + kind.index(), to),
                None => self.put(moving, to),
            }
            match moving % 6 {
                0 => {
                    self.halfmove = 0;
                    if from.index() ^ to.index() == 16 {
                        double_push =
                            Some(Square::from_index((from.index() as u32 + to.index() as u32) / 2));
                    }
                }
                5 => changed |= self.castling & Bitboard::rank(Rank::back(us)),
                _ => {}
            }
        }
        for sq in changed {
            self.key ^= zobrist::castling(sq);
        }
        self.castling ^= changed;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = us.flip();
        self.key ^= zobrist::black_to_move();
        self.update_checkers();
        if let Some(target) = double_push {
            self.update_en_passant(target);
        }
    }

    /// Passes the turn (null move; the side to move must not be in check).
    pub fn play_null(&mut self) {
        if let Some(ep) = self.en_passant.take() {
            self.key ^= zobrist::en_passant(ep);
        }
        self.halfmove = self.halfmove.saturating_add(1);
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.key ^= zobrist::black_to_move();
        self.update_checkers();
    }

    /// Whether neither side can ever checkmate: K v K, K+minor v K, and
    /// positions whose only other pieces are bishops all on squares of one
    /// colour (K+B v K+B same colour included).
    pub fn insufficient_material(&self) -> bool {
        if (self.kinds[0] | self.kinds[3] | self.kinds[4]).any() {
            return false;
        }
        let minors = self.kinds[1] | self.kinds[2];
        if minors.count() <= 1 {
            return true;
        }
        self.kinds[1].is_empty()
            && ((self.kinds[2] & Bitboard::LIGHT).is_empty()
                || (self.kinds[2] & !Bitboard::LIGHT).is_empty())
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl PartialEq for Position {
    /// Same pieces, side, rights, en-passant square and counters (the text
    /// mode is ignored).
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.side == other.side
            && self.castling == other.castling
            && self.en_passant == other.en_passant
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
    }
}

impl Eq for Position {}

impl fmt::Display for Position {
    /// The board as Stockfish's `d` draws it, then the FEN, the key and the
    /// checkers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RULE: &str = " +---+---+---+---+---+---+---+---+";
        writeln!(f)?;
        writeln!(f, "{RULE}")?;
        for rank in (0..8u8).rev() {
            for file in 0..8u8 {
                let sq = Square::from_index(u32::from(rank * 8 + file));
                let c = self.piece_on(sq).map_or(' ', Piece::to_char);
                write!(f, " | {c}")?;
            }
            writeln!(f, " | {}", rank + 1)?;
            writeln!(f, "{RULE}")?;
        }
        writeln!(f, "   a   b   c   d   e   f   g   h")?;
        writeln!(f)?;
        writeln!(f, "Fen: {}", self.fen())?;
        writeln!(f, "Key: {:016X}", self.key)?;
        write!(f, "Checkers:")?;
        for sq in self.checkers {
            write!(f, " {sq}")?;
        }
        writeln!(f)
    }
}
