//! The draughts position, its moves and the move list; playing a move by XOR.
//!
//! `Position<R>` holds three bitboards (white pieces, black pieces, kings, all
//! in the layout of `R::Board`), the side to move, a Zobrist key kept up to
//! date incrementally, and the counters of the draw rules. It is `Copy`-cheap
//! (40 bytes): the search copies it and plays the move on the copy.
//!
//! A [`Move`] is the bitset of captured squares plus the from and to squares
//! and a promotion flag; playing it is `own ^= from ^ to`, `opp ^= captured`,
//! `kings ^= captured & kings`. Two capture routes with the same from, to and
//! captured set are the same `Move` (the windmill counts once).

use super::geometry::{Bitboard, Square};
use super::rules::{EndgameRule, Rules};
use crate::game::Side;
use crate::rng::mix64;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// A draughts move: from, to (bit indices of the layout), the captured
/// squares and whether the moving man is crowned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    /// The captured squares (empty for a quiet move).
    pub captured: Bitboard,
    /// The start square.
    pub from: Square,
    /// The destination (equal to `from` for a capture that returns).
    pub to: Square,
    /// The moving man becomes a king.
    pub promotes: bool,
}

impl Move {
    /// Whether the move captures.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.captured != 0
    }
}

/// Moves kept inline before the list spills onto the heap.
const INLINE: usize = 32;

/// The move list: 32 moves inline (no allocation in ordinary positions) and a
/// heap spill beyond that, so there is no capacity limit at all: 20 flying
/// kings, or a capture tree with hundreds of distinct captured sets, always fit.
/// Filling starts inline; the first push past 32 moves copies the list to the
/// heap, which then holds all of it.
#[derive(Clone, Debug)]
pub struct MoveList {
    inline: [Move; INLINE],
    len: usize,
    spill: Vec<Move>,
}

impl Default for MoveList {
    #[inline]
    fn default() -> Self {
        MoveList { inline: [Move::default(); INLINE], len: 0, spill: Vec::new() }
    }
}

impl MoveList {
    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        if self.spill.is_empty() {
            if let Some(slot) = self.inline.get_mut(self.len) {
                *slot = mv;
                self.len += 1;
                return;
            }
            self.spill.extend_from_slice(&self.inline);
        }
        self.spill.push(mv);
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
        self.spill.clear();
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline]
    fn deref(&self) -> &[Move] {
        if self.spill.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.spill
        }
    }
}

impl DerefMut for MoveList {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Move] {
        if self.spill.is_empty() {
            &mut self.inline[..self.len]
        } else {
            &mut self.spill
        }
    }
}

/// Zobrist keys: `[white man, black man, white king, black king][bit]`,
/// SplitMix64 ([`mix64`]) of a fixed function of the index.
const PIECE_KEYS: [[u64; 64]; 4] = {
    let mut t = [[0u64; 64]; 4];
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < 64 {
            t[k][b] = mix64(((k * 64 + b) as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
            b += 1;
        }
        k += 1;
    }
    t
};

impl<R: Rules> Position<R> {
    /// Frisian king limit after `mv` (already played on the bitboards):
    /// the mover's count goes on when the same king moves quietly again
    /// and restarts at 1 for another king; a capture, a man move or having
    /// no men left clears it. The opponent's state survives while its king
    /// and men do. Returns the change of the key.
    fn update_wolves(&mut self, mv: Move, is_king: bool, white: bool) -> u64 {
        let (atk, def) = if white { (0, 1) } else { (1, 0) };
        let (own, opp) = if white { (self.white, self.black) } else { (self.black, self.white) };
        let old = self.wolf;
        let def_king = 1u64 << (old[def] & 63);
        if old[def] >> 6 != 0 && (opp & self.kings & def_king == 0 || opp & !self.kings == 0) {
            self.wolf[def] = 0;
        }
        self.wolf[atk] = if is_king && mv.captured == 0 && own & !self.kings != 0 {
            let same = old[atk] >> 6 != 0 && old[atk] & 63 == mv.from;
            let count = if same { (old[atk] >> 6) + 1 } else { 1 };
            (count.min(3) << 6) | mv.to
        } else {
            0
        };
        wolf_key(0, old[0])
            ^ wolf_key(1, old[1])
            ^ wolf_key(0, self.wolf[0])
            ^ wolf_key(1, self.wolf[1])
    }
}

/// Zobrist key of "black to move".
const BLACK_KEY: u64 = mix64(0xdead_beef_cafe);

/// A draughts position under the rules `R`.
#[derive(Clone, Copy, Debug)]
pub struct Position<R: Rules> {
    pub(crate) white: Bitboard,
    pub(crate) black: Bitboard,
    pub(crate) kings: Bitboard,
    pub(crate) side: Side,
    key: u64,
    /// Plies since the last capture or man move (Frisian: since the last
    /// one after which neither side's king-limit count runs).
    reversible: u16,
    /// Plies spent in the current endgame class (FMJD 16- and 5-move rules).
    endgame_plies: u16,
    /// 0: no counting endgame, 1: the 16-move class (Frisian: 2 kings v 1),
    /// 2: the 5-move class (Frisian: 1 king v 1).
    endgame_class: u8,
    /// Frisian king limit, per side: the number of quiet moves in a row by
    /// the same king (bits 6-7, 0 when none) and that king's bit (bits 0-5).
    wolf: [u8; 2],
    rules: PhantomData<R>,
}

/// Zobrist keys of the Frisian king-limit state: `[side][count][bit]`.
const WOLF_KEYS: [[[u64; 64]; 4]; 2] = {
    let mut t = [[[0u64; 64]; 4]; 2];
    let mut s = 0;
    while s < 2 {
        let mut c = 1;
        while c < 4 {
            let mut b = 0;
            while b < 64 {
                t[s][c][b] = mix64(((s * 256 + c * 64 + b) as u64) ^ 0x5bd1_e995_0f0f_1234);
                b += 1;
            }
            c += 1;
        }
        s += 1;
    }
    t
};

/// The key of one side's king-limit state byte.
#[inline(always)]
fn wolf_key(side: usize, state: u8) -> u64 {
    WOLF_KEYS[side][(state >> 6) as usize][(state & 63) as usize]
}

impl<R: Rules> Position<R> {
    /// The start position of the variant.
    pub fn start_position() -> Self {
        Self::from_parts(R::START_WHITE, R::START_BLACK, 0, R::FIRST)
    }

    /// A position from its bitboards (kings must be a subset of the pieces;
    /// the caller validates). Counters start at zero.
    pub(crate) fn from_parts(
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        side: Side,
    ) -> Self {
        let mut pos = Position {
            white,
            black,
            kings,
            side,
            key: 0,
            reversible: 0,
            endgame_plies: 0,
            endgame_class: 0,
            wolf: [0; 2],
            rules: PhantomData,
        };
        pos.key = pos.compute_key();
        pos.endgame_class = pos.compute_endgame_class();
        pos
    }

    /// White's pieces.
    pub fn white(&self) -> Bitboard {
        self.white
    }

    /// Black's pieces.
    pub fn black(&self) -> Bitboard {
        self.black
    }

    /// The kings of both sides.
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// The side to move.
    pub fn side(&self) -> Side {
        self.side
    }

    /// The Zobrist key (kept incrementally).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Plies since the last capture or man move.
    pub fn reversible(&self) -> u32 {
        u32::from(self.reversible)
    }

    /// Frisian: the king of `side` that may not make another quiet move
    /// (it has made [`Rules::KING_MOVE_LIMIT`] in a row), as a bitboard.
    #[inline(always)]
    pub fn blocked_king(&self, side: Side) -> Bitboard {
        let state = self.wolf[side.index()];
        if R::KING_MOVE_LIMIT != 0 && state >> 6 >= R::KING_MOVE_LIMIT {
            1u64 << (state & 63)
        } else {
            0
        }
    }

    /// Frisian: quiet moves in a row by the king of `side` that moved last
    /// (0 when its last move was not a quiet king move).
    pub fn king_moves_in_a_row(&self, side: Side) -> u32 {
        u32::from(self.wolf[side.index()] >> 6)
    }

    /// The Zobrist key computed from scratch.
    pub fn compute_key(&self) -> u64 {
        let mut key = if self.side == Side::Black { BLACK_KEY } else { 0 };
        if R::KING_MOVE_LIMIT != 0 {
            key ^= wolf_key(0, self.wolf[0]) ^ wolf_key(1, self.wolf[1]);
        }
        for (kind, set) in [
            self.white & !self.kings,
            self.black & !self.kings,
            self.white & self.kings,
            self.black & self.kings,
        ]
        .into_iter()
        .enumerate()
        {
            let mut b = set;
            while b != 0 {
                key ^= PIECE_KEYS[kind][b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        key
    }

    fn compute_endgame_class(&self) -> u8 {
        if R::ENDGAME == EndgameRule::None {
            return 0;
        }
        if R::ENDGAME == EndgameRule::Frisian {
            let (w, b) = (self.white.count_ones(), self.black.count_ones());
            let kings_only = (self.white | self.black) & !self.kings == 0;
            return match (kings_only, w.min(b), w.max(b)) {
                (true, 1, 2) => 1,
                (true, 1, 1) => 2,
                _ => 0,
            };
        }
        let class = |strong: Bitboard, weak: Bitboard| -> u8 {
            let lone_king = weak.count_ones() == 1 && weak & self.kings != 0;
            if !lone_king || strong & self.kings == 0 {
                0
            } else if strong.count_ones() == 3 {
                1
            } else if strong.count_ones() <= 2 {
                2
            } else {
                0
            }
        };
        class(self.white, self.black).max(class(self.black, self.white))
    }

    /// Whether a counting draw rule has ended the game.
    pub fn counting_draw(&self) -> bool {
        if R::KING_MOVE_DRAW_PLIES != 0 && u32::from(self.reversible) >= R::KING_MOVE_DRAW_PLIES {
            return true;
        }
        let (long, short) = if R::ENDGAME == EndgameRule::Frisian { (14, 4) } else { (32, 10) };
        match self.endgame_class {
            1 => self.endgame_plies >= long,
            2 => self.endgame_plies >= short,
            _ => false,
        }
    }

    /// The key after `mv`: pieces moved, captured and crowned, and the
    /// side to move; exact but for the Frisian king-move counts, which
    /// [`Position::play_move`] adds. The search prefetches with it.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let is_king = self.kings & (1u64 << mv.from) != 0;
        let (own_man, own_king, opp_man, opp_king) =
            if self.side == Side::White { (0, 2, 1, 3) } else { (1, 3, 0, 2) };
        let from_kind = if is_king { own_king } else { own_man };
        let to_kind = if is_king || mv.promotes { own_king } else { own_man };
        let mut key = self.key ^ BLACK_KEY ^ PIECE_KEYS[from_kind][mv.from as usize & 63];
        key ^= PIECE_KEYS[to_kind][mv.to as usize & 63];
        let mut b = mv.captured;
        while b != 0 {
            let bit = b.trailing_zeros() as usize;
            let kind = if self.kings & (1 << bit) != 0 { opp_king } else { opp_man };
            key ^= PIECE_KEYS[kind][bit];
            b &= b - 1;
        }
        key
    }

    /// Plays a legal move.
    #[inline]
    pub fn play_move(&mut self, mv: Move) {
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let is_king = self.kings & from != 0;
        let white = self.side == Side::White;
        let mut key = self.key_after(mv);
        if white {
            self.white ^= from ^ to;
            self.black ^= mv.captured;
        } else {
            self.black ^= from ^ to;
            self.white ^= mv.captured;
        }
        self.kings &= !mv.captured;
        if is_king {
            self.kings ^= from ^ to;
        } else if mv.promotes {
            self.kings |= to;
        }
        if R::KING_MOVE_LIMIT != 0 {
            key ^= self.update_wolves(mv, is_king, white);
        }
        self.key = key;
        self.side = self.side.flip();
        // Frisian: while a king-limit count runs, the position is not a
        // fresh start (a FEN or Hub string cannot carry the count), so the
        // count of reversible plies goes on until both counts are clear.
        let fresh = R::KING_MOVE_LIMIT == 0 || self.wolf == [0, 0];
        self.reversible = if (mv.captured != 0 || !is_king) && fresh {
            0
        } else {
            self.reversible.saturating_add(1)
        };
        if R::ENDGAME != EndgameRule::None {
            let class = if mv.captured != 0 || mv.promotes {
                self.compute_endgame_class()
            } else {
                self.endgame_class
            };
            if class != self.endgame_class {
                self.endgame_class = class;
                self.endgame_plies = 0;
            } else {
                self.endgame_plies = self.endgame_plies.saturating_add(1);
            }
        }
    }
}
