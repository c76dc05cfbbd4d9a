//! Attack tables: which squares a piece on a square attacks.
//!
//! * Pawn, knight and king attacks are `const` tables built at compile time.
//! * Bishop and rook attacks use "fancy" magic bitboards: for each square the
//!   relevant blockers (the rays without their last square) are multiplied by
//!   a magic number and shifted so that the top bits index a per-square slice
//!   of one shared attack table. The magics were found by the seeded random
//!   search in this file; they are stored, verified when the tables are built
//!   at first use (in a [`LazyLock`]; no `transmute`), and searched anew
//!   should one ever fail.
//! * `between(a, b)`: the squares strictly between two aligned squares;
//!   `line(a, b)`: the whole line through them (used by pin masks). Both are
//!   empty for squares that share no rank, file or diagonal.
//!
//! Invariant: every magic maps every blocker subset of its square to a slot
//! holding exactly that subset's attack set (checked on construction).

use crate::chess::bitboard::Bitboard;
use crate::chess::types::{Color, Square};
use crate::rng::xorshift64_star;
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

/// The magic search's generator: xorshift64* ([`xorshift64_star`]), so the
/// search is deterministic on every run (the stored magics came from it).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        xorshift64_star(&mut self.0)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// Bishop magics that the search below found with its fixed seed, stored so
/// that start-up only verifies them (a failing one would be searched anew).
const BISHOP_MAGICS: [u64; 64] = [
    0x10102002004a1420,
    0x8020040400584008,
    0x10510800811201c8,
    0x5204042080000088,
    0x2204106880000002,
    0x1401042004000000,
    0x0400880410042004,
    0x0028208200a02020,
    0x1500241990010e00,
    0x8001200182020a40,
    0x40004101030b0000,
    0x8002041042000100,
    0x4010011041020038,
    0x0000010421044000,
    0x1500210808020a00,
    0x8000088400880520,
    0x0405004010040100,
    0x1005823210040108,
    0x2708008102040011,
    0x4048200404009100,
    0x0018104101400024,
    0x0003000601190101,
    0x8004803108491000,
    0x8014241200820800,
    0x0006e080100c3040,
    0x0501044a11041800,
    0x9020300008004045,
    0x0894080000220040,
    0x1001010083104000,
    0x5004030040900080,
    0x000400422c012400,
    0x0002128698404812,
    0x1010108404900440,
    0x0928021182084100,
    0x2006080409020024,
    0x1010202020180080,
    0xa010008200202200,
    0x2098015100019004,
    0x0002041440810811,
    0x802a02020000b098,
    0x0009015090004060,
    0x4000821082081001,
    0x0100210040420800,
    0x0800004010488a00,
    0x2000081104004040,
    0x4c8e029015000082,
    0x0420340322224842,
    0x1298260043400210,
    0x0000822802400008,
    0x00008a0101600000,
    0x3040003412080021,
    0x3040290220884800,
    0x4a1500401041004a,
    0x8010200282020781,
    0x0020203142209091,
    0x0070300600902110,
    0x0040808800b62048,
    0x0000810400c44420,
    0x00080400440c0441,
    0x8340080020840411,
    0x0000000104208200,
    0x0000800810d00080,
    0x0400530411080200,
    0x4040702400932244,
];

/// Rook magics, found and used like [`BISHOP_MAGICS`].
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];

/// Finds a magic for `sq` (trying `known` first) and appends its attack
/// slice to `attacks`.
fn find_magic(
    sq: usize,
    dirs: &[(i8, i8); 4],
    known: u64,
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
        let magic = if attempt == 0 { known } else { rng.sparse() };
        if attempt > 0 && (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
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
        *magic = find_magic(sq, &BISHOP_DIRS, BISHOP_MAGICS[sq], &mut rng, &mut attacks);
    }
    for (sq, magic) in rook.iter_mut().enumerate() {
        *magic = find_magic(sq, &ROOK_DIRS, ROOK_MAGICS[sq], &mut rng, &mut attacks);
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
    fn stored_magics_are_valid() {
        let mut attacks = Vec::new();
        let mut rng = Rng(1);
        for sq in 0..64 {
            let b = find_magic(sq, &BISHOP_DIRS, BISHOP_MAGICS[sq], &mut rng, &mut attacks);
            assert_eq!(b.magic, BISHOP_MAGICS[sq]);
            let r = find_magic(sq, &ROOK_DIRS, ROOK_MAGICS[sq], &mut rng, &mut attacks);
            assert_eq!(r.magic, ROOK_MAGICS[sq]);
        }
        assert_eq!(attacks.len(), 107_648);
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
