//! The windows the learned draughts evaluation reads: blocks of 8 squares
//! of each board layout whose configurations index the pattern tables
//! (`patterns.rs`).
//!
//! * [`Ten`] (10x10): 16 overlapping 4x4 blocks, rows and columns starting
//!   at 0, 2, 4 and 6 (the scanning Fabien Letouzey's Scan made known).
//! * [`Eight`] (8x8 diagonal): 9 overlapping 4x4 blocks, rows and columns
//!   starting at 0, 2 and 4.
//! * [`Orthogonal`] (Turkish, all 64 squares): 14 blocks of 2 rows by 4
//!   columns, rows starting at 0..=6 (so every pair of neighbouring rows
//!   is seen together: men move forward and sideways) and columns at 0
//!   and 4. More blocks would pass the 65,536 features a tuner entry can
//!   index.
//!
//! A block of a diagonal board holds its 8 playable squares, one of the
//! orthogonal board all 8 cells. Blocks are listed in reading order of
//! their top-left corner; the first half (with the centre block when the
//! count is odd) each have a table, and the block that is its 180-degree
//! rotation shares it with the colours swapped. So table `t` is read
//! twice: as block `t` with White = 1 and Black = 2 (counting +1), and as
//! the rotation of block `t`, square by square, with Black = 1 and White =
//! 2 (counting -1). The evaluation of a board is then minus that of its
//! colour-swapped rotation, exactly; a centre block (8x8 diagonal) is read
//! twice, once from each side.
//!
//! Invariant: read `t` and read `tables + t` list rotated squares in the
//! same order, and the two squares `2r`, `2r + 1` of every read are
//! neighbouring bits (what [`config`] relies on; tests check both).

use crate::draughts::geometry::{Bitboard, Geometry};
use crate::eval::Sink;

/// Configurations of one window: 3 states on 8 squares.
pub const CONFIGS: usize = 6561;

/// One read of a window: its 8 squares as bits, in reading order.
pub type Squares = [u8; 8];

/// A layout's windows.
#[derive(Debug)]
pub struct Layout {
    /// Tables: windows with their own weights.
    pub tables: usize,
    /// `2 * tables` reads: table `t`'s window, then at `tables + t` its
    /// rotation (square `k` of one is the rotation of square `k` of the other).
    pub reads: &'static [Squares],
    /// Per read, the lower bit of each pair of squares `2r`, `2r + 1`.
    pub pair_bits: &'static [[u8; 4]],
}

/// The windows of every board layout (a blanket implementation: each
/// [`Geometry`] has one, told apart by its number of squares).
pub trait Windows {
    /// This layout's windows.
    const LAYOUT: &'static Layout;
}

impl<G: Geometry> Windows for G {
    const LAYOUT: &'static Layout = match G::SQUARES {
        50 => &TEN_LAYOUT,
        32 => &EIGHT_LAYOUT,
        64 => &ORTHOGONAL_LAYOUT,
        _ => panic!("a board layout without windows"),
    };
}

/// How a layout is cut into windows.
struct Shape {
    side: usize,
    diagonal: bool,
    height: usize,
    width: usize,
    row_starts: &'static [usize],
    col_starts: &'static [usize],
}

/// The bit of cell (`row`, `col`): on a diagonal board the playable cell's
/// index `row * side / 2 + col / 2` plus one ghost bit per two rows
/// (`geometry.rs`), on the orthogonal board `8 * row + col`.
const fn cell_bit(shape: &Shape, row: usize, col: usize) -> u8 {
    if shape.diagonal {
        let index = row * (shape.side / 2) + col / 2;
        (index + index / shape.side) as u8
    } else {
        (row * shape.side + col) as u8
    }
}

/// The reads of a shape (`N` = twice its tables).
const fn reads<const N: usize>(shape: &Shape) -> [Squares; N] {
    let mut out = [[0u8; 8]; N];
    let origins = shape.row_starts.len() * shape.col_starts.len();
    assert!(N == 2 * origins.div_ceil(2), "N is twice the tables");
    let tables = N / 2;
    let mut t = 0;
    while t < tables {
        let row0 = shape.row_starts[t / shape.col_starts.len()];
        let col0 = shape.col_starts[t % shape.col_starts.len()];
        let mut k = 0;
        let mut r = 0;
        while r < shape.height {
            let mut c = 0;
            while c < shape.width {
                let (row, col) = (row0 + r, col0 + c);
                // Playable cells of a diagonal board have an odd row + column
                // (row 0 starts on the second file).
                if !shape.diagonal || (row + col) % 2 == 1 {
                    let last = shape.side - 1;
                    out[t][k] = cell_bit(shape, row, col);
                    out[tables + t][k] = cell_bit(shape, last - row, last - col);
                    k += 1;
                }
                c += 1;
            }
            r += 1;
        }
        assert!(k == 8, "a window holds 8 squares");
        t += 1;
    }
    out
}

/// The lower bit of each pair of a read's squares.
const fn pair_bits<const N: usize>(reads: &[Squares; N]) -> [[u8; 4]; N] {
    let mut out = [[0u8; 4]; N];
    let mut w = 0;
    while w < N {
        let mut r = 0;
        while r < 4 {
            let (a, b) = (reads[w][2 * r], reads[w][2 * r + 1]);
            out[w][r] = if a < b { a } else { b };
            r += 1;
        }
        w += 1;
    }
    out
}

const TEN: Shape = Shape {
    side: 10,
    diagonal: true,
    height: 4,
    width: 4,
    row_starts: &[0, 2, 4, 6],
    col_starts: &[0, 2, 4, 6],
};
const TEN_READS: [Squares; 16] = reads(&TEN);
const TEN_PAIRS: [[u8; 4]; 16] = pair_bits(&TEN_READS);

const TEN_LAYOUT: Layout = Layout { tables: 8, reads: &TEN_READS, pair_bits: &TEN_PAIRS };

const EIGHT: Shape = Shape {
    side: 8,
    diagonal: true,
    height: 4,
    width: 4,
    row_starts: &[0, 2, 4],
    col_starts: &[0, 2, 4],
};
const EIGHT_READS: [Squares; 10] = reads(&EIGHT);
const EIGHT_PAIRS: [[u8; 4]; 10] = pair_bits(&EIGHT_READS);

const EIGHT_LAYOUT: Layout = Layout { tables: 5, reads: &EIGHT_READS, pair_bits: &EIGHT_PAIRS };

const ORTHOGONAL: Shape = Shape {
    side: 8,
    diagonal: false,
    height: 2,
    width: 4,
    row_starts: &[0, 1, 2, 3, 4, 5, 6],
    col_starts: &[0, 4],
};
const ORTHOGONAL_READS: [Squares; 14] = reads(&ORTHOGONAL);
const ORTHOGONAL_PAIRS: [[u8; 4]; 14] = pair_bits(&ORTHOGONAL_READS);

const ORTHOGONAL_LAYOUT: Layout =
    Layout { tables: 7, reads: &ORTHOGONAL_READS, pair_bits: &ORTHOGONAL_PAIRS };

/// The base-3 value of a pair of squares from 4 bits (ones of the lower
/// and higher square, then twos of both): `PAIR[0]` when the lower square
/// is the pair's first (`3^0` place), `PAIR[1]` when it is the second.
const PAIR: [[u16; 16]; 2] = {
    let mut out = [[0u16; 16]; 2];
    let mut key = 0;
    while key < 16 {
        let low = (key & 1) + 2 * ((key >> 2) & 1);
        let high = ((key >> 1) & 1) + 2 * ((key >> 3) & 1);
        out[0][key] = (low + 3 * high) as u16;
        out[1][key] = (high + 3 * low) as u16;
        key += 1;
    }
    out
};

/// Read `w`'s configuration with `ones` read as 1 and `twos` as 2: the
/// definition is `sum of state(k) * 3^k` ([`config_by_square`]); this takes
/// two squares at a time, four pairs of 9 values. The first half of the
/// reads list each pair lower bit first, the rotations higher bit first.
#[inline(always)]
pub fn config<G: Geometry>(ones: Bitboard, twos: Bitboard, w: usize) -> usize {
    let pair = &PAIR[usize::from(w >= G::LAYOUT.tables)];
    let mut index = 0;
    for &b in G::LAYOUT.pair_bits[w].iter().rev() {
        let key = ((ones >> b) & 3) | (((twos >> b) & 3) << 2);
        index = index * 9 + pair[key as usize] as usize;
    }
    index
}

/// The configuration of `bits` by its definition (tests).
#[cfg(test)]
pub fn config_by_square(ones: Bitboard, twos: Bitboard, bits: &Squares) -> usize {
    let mut index = 0;
    for &b in bits.iter().rev() {
        index = index * 3 + ((ones >> b) & 1) as usize + 2 * ((twos >> b) & 1) as usize;
    }
    index
}

/// Sends the window features of a board (White's view) to `sink`: table
/// `t`'s configuration `c` is feature `base + t * CONFIGS + c`.
#[inline]
pub fn windows<G: Geometry, S: Sink>(white: Bitboard, black: Bitboard, base: usize, sink: &mut S) {
    let tables = G::LAYOUT.tables;
    for t in 0..tables {
        let at = base + t * CONFIGS;
        sink.add(at + config::<G>(white, black, t), 1);
        sink.add(at + config::<G>(black, white, tables + t), -1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::geometry::{Eight, Orthogonal, Ten};
    use crate::eval::Coefficients;

    /// The bit of the square rotated by 180 degrees.
    fn rotated<G: Geometry>(bit: u8) -> u8 {
        let index = G::INDEX[bit as usize] as usize;
        G::BIT[G::SQUARES - 1 - index]
    }

    fn random_board<G: Geometry>(state: &mut u64) -> (Bitboard, Bitboard) {
        let (mut white, mut black) = (0, 0);
        for b in 0..64 {
            crate::rng::xorshift64(state);
            if G::MASK >> b & 1 != 0 {
                match *state % 5 {
                    0 => white |= 1 << b,
                    1 => black |= 1 << b,
                    _ => {}
                }
            }
        }
        (white, black)
    }

    fn check_layout<G: Geometry>(windows: usize) {
        let (reads, tables) = (G::LAYOUT.reads, G::LAYOUT.tables);
        assert_eq!(reads.len(), 2 * tables);
        let mut seen = 0u64;
        let mut distinct_windows = std::collections::BTreeSet::new();
        for (w, bits) in reads.iter().enumerate() {
            for &b in bits {
                assert_ne!(G::INDEX[b as usize], 255, "read {w}: a ghost bit");
                seen |= 1 << b;
            }
            let set: std::collections::BTreeSet<u8> = bits.iter().copied().collect();
            assert_eq!(set.len(), 8, "read {w}");
            distinct_windows.insert(set.into_iter().collect::<Vec<_>>());
            for r in 0..4 {
                assert_eq!(bits[2 * r].abs_diff(bits[2 * r + 1]), 1, "read {w}: pair {r}");
                let ascending = bits[2 * r] < bits[2 * r + 1];
                assert_eq!(ascending, w < tables, "read {w}: pair order");
            }
        }
        assert_eq!(seen, G::MASK, "every square is in a window");
        assert_eq!(distinct_windows.len(), windows, "the blocks are all read");
        for t in 0..tables {
            for (k, &b) in reads[t].iter().enumerate() {
                assert_eq!(reads[tables + t][k], rotated::<G>(b), "table {t}");
            }
        }
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            let (white, black) = random_board::<G>(&mut state);
            for (w, bits) in reads.iter().enumerate() {
                assert_eq!(config::<G>(white, black, w), config_by_square(white, black, bits));
            }
        }
    }

    #[test]
    fn layouts_cover_their_boards_and_rotate() {
        check_layout::<Ten>(16);
        check_layout::<Eight>(9);
        check_layout::<Orthogonal>(14);
        // Ten's window 0 is squares 1, 2, 6, 7, 11, 12, 16, 17.
        let squares: Vec<u8> =
            Ten::LAYOUT.reads[0].iter().map(|&b| Ten::INDEX[b as usize] + 1).collect();
        assert_eq!(squares, [1, 2, 6, 7, 11, 12, 16, 17]);
        // Eight's window 0 is squares 1, 2, 5, 6, 9, 10, 13, 14.
        let squares: Vec<u8> =
            Eight::LAYOUT.reads[0].iter().map(|&b| Eight::INDEX[b as usize] + 1).collect();
        assert_eq!(squares, [1, 2, 5, 6, 9, 10, 13, 14]);
        assert_eq!(Orthogonal::LAYOUT.reads[1], [4, 5, 6, 7, 12, 13, 14, 15]);
    }

    /// A board and its colour-swapped rotation have opposite features.
    fn opposite<G: Geometry>() {
        let flip = |set: Bitboard| -> Bitboard {
            (0..64u8).filter(|b| set >> b & 1 != 0).fold(0, |o, b| o | 1 << rotated::<G>(b))
        };
        let sum = |c: &Coefficients| {
            let mut v = vec![0i32; G::LAYOUT.tables * CONFIGS];
            for &(f, n) in &c.terms {
                v[f as usize] += i32::from(n);
            }
            v
        };
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let (white, black) = random_board::<G>(&mut state);
            let mut a = Coefficients::default();
            windows::<G, _>(white, black, 0, &mut a);
            let mut b = Coefficients::default();
            windows::<G, _>(flip(black), flip(white), 0, &mut b);
            let negated: Vec<i32> = sum(&b).iter().map(|x| -x).collect();
            assert_eq!(sum(&a), negated);
        }
    }

    #[test]
    fn swapped_rotated_boards_have_opposite_windows() {
        opposite::<Ten>();
        opposite::<Eight>();
        opposite::<Orthogonal>();
    }
}
