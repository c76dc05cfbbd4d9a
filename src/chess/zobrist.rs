//! Zobrist keys: one random 64-bit number per (piece, square), per castling
//! rook square, per en-passant file, and one for black to move. A position's
//! key is the XOR of the numbers of everything in it, so `play` updates it
//! incrementally by XOR-ing out and in what changed.
//!
//! What a key covers: pieces, side to move, castling rights (as the set of
//! rook squares that may still castle) and the en-passant file, which is
//! stored in a position only while an en-passant capture is actually legal
//! (see `position.rs`), so two positions that differ only by an unusable
//! en-passant square get the same key. Move counters are never hashed.
//!
//! The numbers come from splitmix64 ([`crate::rng::splitmix64`]) with a
//! fixed seed, computed at compile time, so keys are the same in every
//! build and on every machine.

use crate::chess::types::{Piece, Square};
use crate::rng::splitmix64;

struct Keys {
    pieces: [[u64; 64]; 12],
    castling: [u64; 64],
    en_passant: [u64; 8],
    black: u64,
}

const fn build() -> Keys {
    let mut state = 0x00c0_ffee_d00d_5eed;
    let mut keys = Keys { pieces: [[0; 64]; 12], castling: [0; 64], en_passant: [0; 8], black: 0 };
    let mut p = 0;
    while p < 12 {
        let mut sq = 0;
        while sq < 64 {
            keys.pieces[p][sq] = splitmix64(&mut state);
            sq += 1;
        }
        p += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        keys.castling[sq] = splitmix64(&mut state);
        sq += 1;
    }
    let mut f = 0;
    while f < 8 {
        keys.en_passant[f] = splitmix64(&mut state);
        f += 1;
    }
    keys.black = splitmix64(&mut state);
    keys
}

static KEYS: Keys = build();

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS.pieces[piece.index()][sq.index()]
}

/// The key of `piece` (by table index 0..12) standing on `sq`.
#[inline]
pub(crate) fn piece_index(piece: usize, sq: Square) -> u64 {
    KEYS.pieces[piece % 12][sq.index()]
}

/// The key of a castling right with the rook on `sq`.
#[inline]
pub fn castling(sq: Square) -> u64 {
    KEYS.castling[sq.index()]
}

/// The key of an en-passant capture being possible on the file of `sq`.
#[inline]
pub fn en_passant(sq: Square) -> u64 {
    KEYS.en_passant[sq.file().index()]
}

/// The key of black being to move.
#[inline]
pub fn black_to_move() -> u64 {
    KEYS.black
}
