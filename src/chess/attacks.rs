//! Attack tables: which squares a piece on a square attacks.
//!
//! * Pawn, knight and king attacks are `const` tables built at compile time.
//! * Bishop and rook attacks use "fancy" magic bitboards: for each square the
//!   relevant blockers (the rays without their last square) are multiplied by
//!   a magic number and shifted so that the top bits index a per-square slice
//!   of one shared attack table. The magics are found at first use by a
//!   seeded random search (deterministic, a few milliseconds) and kept in a
//!   [`LazyLock`], so no hard-coded numbers and no `transmute`.
//! * `between(a, b)`: the squares strictly between two aligned squares;
//!   `line(a, b)`: the whole line through them (used by pin masks). Both are
//!   empty for squares that share no rank, file or diagonal.
//!
//! Invariant: every magic maps every blocker subset of its square to a slot
//! holding exactly that subset's attack set (checked on construction).

use crate::chess::bitboard::Bitboard;
use crate::chess::types::{Color, Square};
use std::sync::LazyLock;

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut bits = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let (f, r) = (file + deltas[i].0, rank + deltas[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                bits |= 1 << (r * 8 + f);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

static KNIGHT: [Bitboard; 64] =
    leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [Bitboard; 64] =
    leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static PAWN: [[Bitboard; 64]; 2] =
    [leaper_table(&[(1, 1), (-1, 1)]), leaper_table(&[(1, -1), (-1, -1)])];

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Attacks by walking rays until a blocker (inclusive): the slow reference.
fn slide(sq: usize, blockers: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if blockers & bit != 0 {
                break;
            }
        }
    }
    attacks
}

/// The blockers that matter for a slider on `sq`: its rays minus the edge.
fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&nf) || !(0..8).contains(&nr) {
                break;
            }
            // Only squares with a further square behind them can block.
            let (ff, fr) = (nf + df, nr + dr);
            if !(0..8).contains(&ff) || !(0..8).contains(&fr) {
                break;
            }
            mask |= 1u64 << (nr * 8 + nf);
            f = nf;
            r = nr;
        }
    }
    mask
}

/// One square's magic: `table[offset + ((occ & mask) * magic) >> shift]`.
#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

impl Magic {
    #[inline]
    fn index(&self, occupied: Bitboard) -> usize {
        self.offset + ((occupied.0 & self.mask).wrapping_mul(self.magic) >> self.shift) as usize
    }
}

/// The slider tables, built once.
struct Tables {
    bishop: [Magic; 64],
    rook: [Magic; 64],
    attacks: Vec<Bitboard>,
    between: Vec<Bitboard>,
    line: Vec<Bitboard>,
}

/// A xorshift generator: deterministic magics on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Finds a magic for `sq` and appends its attack slice to `attacks`.
fn find_magic(
    sq: usize,
    dirs: &[(i8, i8); 4],
    rng: &mut Rng,
    attacks: &mut Vec<Bitboard>,
) -> Magic {
    let mask = relevant_mask(sq, dirs);
    let bits = mask.count_ones();
    let size = 1usize << bits;
    let mut subsets = Vec::with_capacity(size);
    let mut reference = Vec::with_capacity(size);
    let mut subset = 0u64;
    loop {
        subsets.push(subset);
        reference.push(slide(sq, subset, dirs));
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            break;
        }
    }
    let offset = attacks.len();
    let shift = 64 - bits;
    let mut slots = vec![0u64; size];
    let mut epoch = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let ok = subsets.iter().zip(&reference).all(|(&occ, &att)| {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[idx] != attempt {
                epoch[idx] = attempt;
                slots[idx] = att;
                true
            } else {
                slots[idx] == att
            }
        });
        if ok {
            attacks.extend(slots.iter().map(|&a| Bitboard(a)));
            return Magic { mask, magic, shift, offset };
        }
    }
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut attacks = Vec::with_capacity(107_648);
    let mut bishop = [Magic::default(); 64];
    let mut rook = [Magic::default(); 64];
    for (sq, magic) in bishop.iter_mut().enumerate() {
        *magic = find_magic(sq, &BISHOP_DIRS, &mut rng, &mut attacks);
    }
    for (sq, magic) in rook.iter_mut().enumerate() {
        *magic = find_magic(sq, &ROOK_DIRS, &mut rng, &mut attacks);
    }
    let mut between = vec![Bitboard::EMPTY; 64 * 64];
    let mut line = vec![Bitboard::EMPTY; 64 * 64];
    for a in 0..64 {
        for b in 0..64 {
            if a == b {
                continue;
            }
            let bb = 1u64 << b;
            for dirs in [&ROOK_DIRS, &BISHOP_DIRS] {
                if slide(a, 0, dirs) & bb != 0 {
                    between[a * 64 + b] = Bitboard(slide(a, bb, dirs) & slide(b, 1 << a, dirs));
                    line[a * 64 + b] =
                        Bitboard((slide(a, 0, dirs) & slide(b, 0, dirs)) | (1 << a) | bb);
                }
            }
        }
    }
    Tables { bishop, rook, attacks, between, line }
});

/// Builds the slider tables now (otherwise built on first use).
pub fn init() {
    LazyLock::force(&TABLES);
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    PAWN[color.index()][sq.index()]
}

/// Squares a knight on `sq` attacks.
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    KNIGHT[sq.index()]
}

/// Squares a king on `sq` attacks.
#[inline]
pub fn king(sq: Square) -> Bitboard {
    KING[sq.index()]
}

/// Squares a bishop on `sq` attacks with `occupied` blocking.
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*TABLES;
    t.attacks[t.bishop[sq.index()].index(occupied)]
}

/// Squares a rook on `sq` attacks with `occupied` blocking.
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    let t = &*TABLES;
    t.attacks[t.rook[sq.index()].index(occupied)]
}

/// Squares a queen on `sq` attacks with `occupied` blocking.
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop(sq, occupied) | rook(sq, occupied)
}

/// Squares strictly between `a` and `b` when they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    TABLES.between[a.index() * 64 + b.index()]
}

/// The full line (edge to edge) through `a` and `b` when they share a rank,
/// file or diagonal, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    TABLES.line[a.index() * 64 + b.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magics_match_ray_walk() {
        let mut rng = Rng(12345);
        for sq in Square::all() {
            for _ in 0..200 {
                let occ = rng.next() & rng.next();
                assert_eq!(rook(sq, Bitboard(occ)).0, slide(sq.index(), occ, &ROOK_DIRS));
                assert_eq!(bishop(sq, Bitboard(occ)).0, slide(sq.index(), occ, &BISHOP_DIRS));
            }
        }
    }

    #[test]
    fn leapers_and_lines() {
        assert_eq!(knight(Square::A1).count(), 2);
        assert_eq!(king(Square::E1).count(), 5);
        assert_eq!(pawn(Color::White, Square::A1).count(), 1);
        let (a1, h8) = (Square::A1, Square::H8);
        assert_eq!(between(a1, h8).count(), 6);
        assert_eq!(line(a1, Square::E1), Bitboard::RANK_1);
        assert_eq!(between(a1, Square::from_index(10)), Bitboard::EMPTY);
    }
}
