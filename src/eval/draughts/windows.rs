//! The windows the learned draughts evaluation reads: blocks of 8 squares
//! of each board layout whose configurations index the pattern tables
//! (`patterns.rs`).
//!
//! * [`Ten`] (10x10): 16 overlapping 4x4 blocks, rows and columns starting
//!   at 0, 2, 4 and 6 (the scanning Fabien Letouzey's Scan made known).
//! * [`TALL`] (10x10, chosen by a pattern file's size): 8 windows of 4
//!   columns by 6 rows, 12 squares each (3^12 = 531,441 configurations;
//!   the shape of Scan 2.0's own patterns), rows starting at 0 and 4 and
//!   columns at 0, 2, 4 and 6, so each sees two rows more than a block
//!   (a man's path to the centre, the tempo fight of both halves); each
//!   holds two blocks, the 8 of them all 16 once ([`tall_from_blocks`]).
//! * [`Eight`] (8x8 diagonal): 9 overlapping 4x4 blocks, rows and columns
//!   starting at 0, 2 and 4.
//! * [`Orthogonal`] (Turkish, all 64 squares): 14 blocks of 2 rows by 4
//!   columns, rows starting at 0..=6 (so every pair of neighbouring rows
//!   is seen together: men move forward and sideways) and columns at 0
//!   and 4.
//!
//! A window of a diagonal board holds its playable squares (8, or 12 for a
//! tall one), one of the orthogonal board all 8 cells. Blocks are listed in reading order of
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

/// The most squares a window holds.
pub const MAX_SQUARES: usize = 12;

/// One read of a window: its squares as bits, in reading order (the first
/// [`Layout::squares`] are used).
pub type Squares = [u8; MAX_SQUARES];

/// A layout's windows.
#[derive(Debug)]
pub struct Layout {
    /// Tables: windows with their own weights.
    pub tables: usize,
    /// Squares per window (an even number).
    pub squares: usize,
    /// Configurations of one window: `3^squares`.
    pub configs: usize,
    /// `2 * tables` reads: table `t`'s window, then at `tables + t` its
    /// rotation (square `k` of one is the rotation of square `k` of the other).
    pub reads: &'static [Squares],
    /// Per read, the lower bit of each pair of squares `2r`, `2r + 1`.
    pub pair_bits: &'static [[u8; MAX_SQUARES / 2]],
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
    squares: usize,
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
    let mut out = [[0u8; MAX_SQUARES]; N];
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
        assert!(k == shape.squares, "a window holds its shape's squares");
        t += 1;
    }
    out
}

/// The lower bit of each pair of a read's squares.
const fn pair_bits<const N: usize>(
    shape: &Shape,
    reads: &[Squares; N],
) -> [[u8; MAX_SQUARES / 2]; N] {
    let mut out = [[0u8; MAX_SQUARES / 2]; N];
    let mut w = 0;
    while w < N {
        let mut r = 0;
        while r < shape.squares / 2 {
            let (a, b) = (reads[w][2 * r], reads[w][2 * r + 1]);
            out[w][r] = if a < b { a } else { b };
            r += 1;
        }
        w += 1;
    }
    out
}

const TEN: Shape = Shape {
    squares: 8,
    side: 10,
    diagonal: true,
    height: 4,
    width: 4,
    row_starts: &[0, 2, 4, 6],
    col_starts: &[0, 2, 4, 6],
};
const TEN_READS: [Squares; 16] = reads(&TEN);
const TEN_PAIRS: [[u8; MAX_SQUARES / 2]; 16] = pair_bits(&TEN, &TEN_READS);

const TEN_LAYOUT: Layout =
    Layout { tables: 8, squares: 8, configs: 6561, reads: &TEN_READS, pair_bits: &TEN_PAIRS };

const TEN_TALL: Shape = Shape {
    squares: 12,
    side: 10,
    diagonal: true,
    height: 6,
    width: 4,
    row_starts: &[0, 4],
    col_starts: &[0, 2, 4, 6],
};
const TALL_READS: [Squares; 8] = reads(&TEN_TALL);
const TALL_PAIRS: [[u8; MAX_SQUARES / 2]; 8] = pair_bits(&TEN_TALL, &TALL_READS);

/// The tall windows of the 10x10 board (module header).
pub static TALL: Layout =
    Layout { tables: 4, squares: 12, configs: 531_441, reads: &TALL_READS, pair_bits: &TALL_PAIRS };

const EIGHT: Shape = Shape {
    squares: 8,
    side: 8,
    diagonal: true,
    height: 4,
    width: 4,
    row_starts: &[0, 2, 4],
    col_starts: &[0, 2, 4],
};
const EIGHT_READS: [Squares; 10] = reads(&EIGHT);
const EIGHT_PAIRS: [[u8; MAX_SQUARES / 2]; 10] = pair_bits(&EIGHT, &EIGHT_READS);

const EIGHT_LAYOUT: Layout =
    Layout { tables: 5, squares: 8, configs: 6561, reads: &EIGHT_READS, pair_bits: &EIGHT_PAIRS };

const ORTHOGONAL: Shape = Shape {
    squares: 8,
    side: 8,
    diagonal: false,
    height: 2,
    width: 4,
    row_starts: &[0, 1, 2, 3, 4, 5, 6],
    col_starts: &[0, 4],
};
const ORTHOGONAL_READS: [Squares; 14] = reads(&ORTHOGONAL);
const ORTHOGONAL_PAIRS: [[u8; MAX_SQUARES / 2]; 14] = pair_bits(&ORTHOGONAL, &ORTHOGONAL_READS);

const ORTHOGONAL_LAYOUT: Layout = Layout {
    tables: 7,
    squares: 8,
    configs: 6561,
    reads: &ORTHOGONAL_READS,
    pair_bits: &ORTHOGONAL_PAIRS,
};

/// Tall tables that read every 10x10 board as the block tables `blocks`
/// do (`8 * 6561` weights, table-major), exactly: tall window `t` (rows
/// 0-5, columns `2t` to `2t + 3`) holds block `t` (its rows 0-3, its first
/// 8 squares in reading order) and block `4 + t` (its rows 2-5, its last
/// 8), and its rotation holds the rotations of both, so tall table `t` is
/// block table `t` plus block table `4 + t` on the digits each covers; the
/// 8 tall reads hold the 16 block reads once each. What a pattern file of
/// tall windows starts from when the blocks' file is the generation before.
pub fn tall_from_blocks<W: Copy + std::ops::Add<Output = W>>(blocks: &[W]) -> Vec<W> {
    const BLOCK: usize = TEN_LAYOUT.configs;
    // Two rows of a window are 4 digits: rows 2-5 start at digit 4.
    const TWO_ROWS: usize = 3usize.pow(4);
    assert_eq!(blocks.len(), TEN_LAYOUT.tables * BLOCK, "the blocks of the 10x10 board");
    let mut out = Vec::with_capacity(TALL.tables * TALL.configs);
    for t in 0..TALL.tables {
        for c in 0..TALL.configs {
            // Digits 0..8 are rows 0-3; digits 4..12 rows 2-5.
            out.push(blocks[t * BLOCK + c % BLOCK] + blocks[(4 + t) * BLOCK + c / TWO_ROWS]);
        }
    }
    out
}

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

/// Read `w`'s configuration of `layout` with `ones` read as 1 and `twos`
/// as 2: the definition is `sum of state(k) * 3^k` ([`config_by_square`]);
/// this takes two squares at a time, pairs of 9 values. The first half of
/// the reads list each pair lower bit first, the rotations higher bit first.
#[inline(always)]
pub fn config(layout: &Layout, ones: Bitboard, twos: Bitboard, w: usize) -> usize {
    let pair = &PAIR[usize::from(w >= layout.tables)];
    let mut index = 0;
    for &b in layout.pair_bits[w][..layout.squares / 2].iter().rev() {
        let key = ((ones >> b) & 3) | (((twos >> b) & 3) << 2);
        index = index * 9 + pair[key as usize] as usize;
    }
    index
}

/// The configuration of `bits` by its definition (tests).
#[cfg(test)]
pub fn config_by_square(ones: Bitboard, twos: Bitboard, bits: &[u8]) -> usize {
    let mut index = 0;
    for &b in bits.iter().rev() {
        index = index * 3 + ((ones >> b) & 1) as usize + 2 * ((twos >> b) & 1) as usize;
    }
    index
}

/// Sends the window features of a board (White's view) to `sink`: table
/// `t`'s configuration `c` is feature `base + t * layout.configs + c`.
#[inline(always)]
pub fn windows<S: Sink>(
    layout: &Layout,
    white: Bitboard,
    black: Bitboard,
    base: usize,
    sink: &mut S,
) {
    let tables = layout.tables;
    for t in 0..tables {
        let at = base + t * layout.configs;
        sink.add(at + config(layout, white, black, t), 1);
        sink.add(at + config(layout, black, white, tables + t), -1);
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

    fn check_layout<G: Geometry>(layout: &Layout, windows: usize) {
        let (tables, squares) = (layout.tables, layout.squares);
        assert_eq!(layout.reads.len(), 2 * tables);
        assert_eq!(layout.configs, 3usize.pow(squares as u32));
        let reads: Vec<&[u8]> = layout.reads.iter().map(|r| &r[..squares]).collect();
        let mut seen = 0u64;
        let mut distinct_windows = std::collections::BTreeSet::new();
        for (w, &bits) in reads.iter().enumerate() {
            for &b in bits {
                assert_ne!(G::INDEX[b as usize], 255, "read {w}: a ghost bit");
                seen |= 1 << b;
            }
            let set: std::collections::BTreeSet<u8> = bits.iter().copied().collect();
            assert_eq!(set.len(), squares, "read {w}");
            distinct_windows.insert(set.into_iter().collect::<Vec<_>>());
            for r in 0..squares / 2 {
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
                assert_eq!(config(layout, white, black, w), config_by_square(white, black, bits));
            }
        }
    }

    #[test]
    fn layouts_cover_their_boards_and_rotate() {
        check_layout::<Ten>(Ten::LAYOUT, 16);
        check_layout::<Eight>(Eight::LAYOUT, 9);
        check_layout::<Orthogonal>(Orthogonal::LAYOUT, 14);
        check_layout::<Ten>(&TALL, 8);
        // Tall window 0 is squares 1, 2, 6, 7, 11, 12, 16, 17, 21, 22, 26, 27.
        let squares: Vec<u8> = TALL.reads[0].iter().map(|&b| Ten::INDEX[b as usize] + 1).collect();
        assert_eq!(squares, [1, 2, 6, 7, 11, 12, 16, 17, 21, 22, 26, 27]);
        // Ten's window 0 is squares 1, 2, 6, 7, 11, 12, 16, 17.
        let squares: Vec<u8> =
            Ten::LAYOUT.reads[0][..8].iter().map(|&b| Ten::INDEX[b as usize] + 1).collect();
        assert_eq!(squares, [1, 2, 6, 7, 11, 12, 16, 17]);
        // Eight's window 0 is squares 1, 2, 5, 6, 9, 10, 13, 14.
        let squares: Vec<u8> =
            Eight::LAYOUT.reads[0][..8].iter().map(|&b| Eight::INDEX[b as usize] + 1).collect();
        assert_eq!(squares, [1, 2, 5, 6, 9, 10, 13, 14]);
        assert_eq!(Orthogonal::LAYOUT.reads[1][..8], [4, 5, 6, 7, 12, 13, 14, 15]);
    }

    /// A board and its colour-swapped rotation have opposite features.
    fn opposite<G: Geometry>(layout: &Layout) {
        let flip = |set: Bitboard| -> Bitboard {
            (0..64u8).filter(|b| set >> b & 1 != 0).fold(0, |o, b| o | 1 << rotated::<G>(b))
        };
        let sum = |c: &Coefficients| {
            let mut v = vec![0i32; layout.tables * layout.configs];
            for &(f, n) in &c.terms {
                v[f as usize] += i32::from(n);
            }
            v
        };
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            let (white, black) = random_board::<G>(&mut state);
            let mut a = Coefficients::default();
            windows(layout, white, black, 0, &mut a);
            let mut b = Coefficients::default();
            windows(layout, flip(black), flip(white), 0, &mut b);
            let negated: Vec<i32> = sum(&b).iter().map(|x| -x).collect();
            assert_eq!(sum(&a), negated);
        }
    }

    /// Tall tables converted from block tables read every board as the
    /// blocks do.
    #[test]
    fn tall_tables_from_blocks_read_as_the_blocks() {
        let sum = |layout: &Layout, weights: &[i64], white, black| {
            let mut c = Coefficients::default();
            windows(layout, white, black, 0, &mut c);
            c.terms.iter().map(|&(f, n)| weights[f as usize] * i64::from(n)).sum::<i64>()
        };
        let mut state = 0x1234_5678_9abc_def1u64;
        let blocks: Vec<i64> = (0..Ten::LAYOUT.tables * 6561)
            .map(|_| {
                crate::rng::xorshift64(&mut state);
                (state % 2001) as i64 - 1000
            })
            .collect();
        let tall = tall_from_blocks(&blocks);
        assert_eq!(tall.len(), TALL.tables * TALL.configs);
        for _ in 0..500 {
            let (white, black) = random_board::<Ten>(&mut state);
            let expected = sum(Ten::LAYOUT, &blocks, white, black);
            assert_eq!(sum(&TALL, &tall, white, black), expected);
        }
    }

    #[test]
    fn swapped_rotated_boards_have_opposite_windows() {
        opposite::<Ten>(Ten::LAYOUT);
        opposite::<Eight>(Eight::LAYOUT);
        opposite::<Orthogonal>(Orthogonal::LAYOUT);
        opposite::<Ten>(&TALL);
    }
}
