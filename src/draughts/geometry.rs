//! Board geometry: the three bit layouts and the shifts between neighbours.
//!
//! Every layout stores the playable squares of one board in a `u64`
//! ([`Bitboard`]). Internal square indices run 0.. in reading order from the
//! top-left of the board as white sees it (row 0 is black's home row, the row
//! white men crown on); white men move up (negative shifts), black men down.
//!
//! * [`Ten`]: 10x10 diagonal board, Scan-style padding. Index `s` (0..50)
//!   lives at bit `s + s / 10`: after every pair of rows one ghost bit (10, 21,
//!   32, 43) stays empty, so the four diagonal neighbours are the fixed shifts
//!   -6 (up-left), -5 (up-right), +5 (down-left), +6 (down-right) and a step
//!   off the left or right edge lands on a ghost bit (or off the word), which
//!   the mask clears. Row 0 starts on the second file (b10 = index 0).
//! * [`Eight`]: 8x8 diagonal board with the same trick: bit `s + s / 8`,
//!   ghosts 8, 17, 26; shifts -5, -4, +4, +5. Row 0 starts on the second file
//!   (b8 = index 0), so a1 is a playable square.
//! * [`Orthogonal`]: 8x8 board, all 64 squares (Turkish), bit `8 * row + col`;
//!   shifts -8 (up), -1 (left), +1 (right), +8 (down). Left and right steps use
//!   a file mask instead of ghost squares, as chess bitboards do.
//!
//! Directions 0..4 are the layout's own steps (diagonal on the diagonal
//! boards, orthogonal on [`Orthogonal`]), numbered so that `3 - d` is the
//! opposite of `d`. Directions 4..8 are the orthogonal steps of a diagonal
//! board (Frisian captures): on [`Ten`] one square up (two rows, shift -11),
//! left (-1), right (+1) and down (+11), opposite `11 - d`; a layout without
//! them has shift 0 and an empty mask there, so a step vanishes.

/// A set of squares: one bit per playable square of a layout.
pub type Bitboard = u64;

/// A square as a bit index into a [`Bitboard`] of its layout.
pub type Square = u8;

/// The number of directions a step may take (diagonal and orthogonal).
pub const DIRECTIONS: usize = 8;

/// "No direction yet" (the start of a capture).
pub const NO_DIR: usize = DIRECTIONS;

/// The opposite of direction `d`.
#[inline(always)]
pub const fn opposite(d: usize) -> usize {
    if d < 4 {
        3 - d
    } else {
        11 - d
    }
}

/// One board layout: bit positions, neighbour shifts and start rows.
pub trait Geometry: 'static {
    /// Number of playable squares (50, 32 or 64).
    const SQUARES: usize;
    /// Width and height of the board in cells.
    const SIDE: usize;
    /// The playable bits.
    const MASK: Bitboard;
    /// Shift of each direction (negative: towards bit 0, i.e. up).
    const SHIFT: [i32; DIRECTIONS];
    /// Bits a step in each direction may land on (empty: no such step).
    const DIR_MASK: [Bitboard; DIRECTIONS];
    /// Directions a white man moves in (black men: the opposite ones).
    const WHITE_MAN_STEPS: &'static [usize];
    /// Directions a black man moves in.
    const BLACK_MAN_STEPS: &'static [usize];
    /// White's start squares.
    const START_WHITE: Bitboard;
    /// Black's start squares.
    const START_BLACK: Bitboard;
    /// Internal index (0..SQUARES) to bit.
    const BIT: [Square; 64];
    /// Bit to internal index, 255 for ghost bits.
    const INDEX: [u8; 64];

    /// Row (0 = top as white sees it) and column (0 = left) of a bit.
    fn cell(bit: Square) -> (usize, usize);

    /// White's crown row (row 0).
    const WHITE_CROWN: Bitboard = row_mask::<Self>(0);
    /// Black's crown row (the last row).
    const BLACK_CROWN: Bitboard = row_mask::<Self>(Self::SIDE - 1);
}

/// The squares of row `row` of layout `G`.
const fn row_mask<G: Geometry + ?Sized>(row: usize) -> Bitboard {
    let per_row = G::SQUARES / G::SIDE;
    let mut mask = 0;
    let mut i = 0;
    while i < per_row {
        mask |= 1u64 << G::BIT[row * per_row + i];
        i += 1;
    }
    mask
}

/// The squares at position `k` (0..per_row) of every row of layout `G`.
const fn row_ends<G: Geometry + ?Sized>(k: usize) -> Bitboard {
    let per_row = G::SQUARES / G::SIDE;
    let mut mask = 0;
    let mut row = 0;
    while row < G::SIDE {
        mask |= 1u64 << G::BIT[row * per_row + k];
        row += 1;
    }
    mask
}

/// One step of every square of `b` in direction `d` (squares leaving the board
/// vanish).
#[inline(always)]
pub fn step<G: Geometry>(b: Bitboard, d: usize) -> Bitboard {
    let s = G::SHIFT[d];
    (if s > 0 { b << s } else { b >> -s }) & G::DIR_MASK[d]
}

const fn diagonal_bits(squares: usize, pair: usize) -> [Square; 64] {
    let mut t = [255u8; 64];
    let mut s = 0;
    while s < squares {
        t[s] = (s + s / pair) as u8;
        s += 1;
    }
    t
}

const fn inverse(bits: [Square; 64], squares: usize) -> [u8; 64] {
    let mut t = [255u8; 64];
    let mut s = 0;
    while s < squares {
        t[bits[s] as usize] = s as u8;
        s += 1;
    }
    t
}

const fn mask_of(bits: [Square; 64], from: usize, to: usize) -> Bitboard {
    let mut m = 0;
    let mut s = from;
    while s < to {
        m |= 1u64 << bits[s];
        s += 1;
    }
    m
}

/// Row and column of internal index `s` on a diagonal board with `per_row`
/// squares a row whose even rows start on the second file.
const fn diagonal_cell(s: usize, per_row: usize) -> (usize, usize) {
    let row = s / per_row;
    (row, 2 * (s % per_row) + if row % 2 == 0 { 1 } else { 0 })
}

/// The 10x10 diagonal board (international, antidraughts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ten;

impl Geometry for Ten {
    const SQUARES: usize = 50;
    const SIDE: usize = 10;
    const BIT: [Square; 64] = diagonal_bits(50, 10);
    const INDEX: [u8; 64] = inverse(Self::BIT, 50);
    const MASK: Bitboard = mask_of(Self::BIT, 0, 50);
    const SHIFT: [i32; DIRECTIONS] = [-6, -5, 5, 6, -11, -1, 1, 11];
    const DIR_MASK: [Bitboard; DIRECTIONS] = [
        Self::MASK,
        Self::MASK,
        Self::MASK,
        Self::MASK,
        Self::MASK,
        // A step left or right stays in its row of five squares.
        Self::MASK & !row_ends::<Self>(4),
        Self::MASK & !row_ends::<Self>(0),
        Self::MASK,
    ];
    const WHITE_MAN_STEPS: &'static [usize] = &[0, 1];
    const BLACK_MAN_STEPS: &'static [usize] = &[2, 3];
    const START_WHITE: Bitboard = mask_of(Self::BIT, 30, 50);
    const START_BLACK: Bitboard = mask_of(Self::BIT, 0, 20);
    fn cell(bit: Square) -> (usize, usize) {
        diagonal_cell(Self::INDEX[bit as usize & 63] as usize, 5)
    }
}

/// The 8x8 diagonal board (Brazilian, Russian, English, Italian).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Eight;

impl Geometry for Eight {
    const SQUARES: usize = 32;
    const SIDE: usize = 8;
    const BIT: [Square; 64] = diagonal_bits(32, 8);
    const INDEX: [u8; 64] = inverse(Self::BIT, 32);
    const MASK: Bitboard = mask_of(Self::BIT, 0, 32);
    const SHIFT: [i32; DIRECTIONS] = [-5, -4, 4, 5, 0, 0, 0, 0];
    const DIR_MASK: [Bitboard; DIRECTIONS] =
        [Self::MASK, Self::MASK, Self::MASK, Self::MASK, 0, 0, 0, 0];
    const WHITE_MAN_STEPS: &'static [usize] = &[0, 1];
    const BLACK_MAN_STEPS: &'static [usize] = &[2, 3];
    const START_WHITE: Bitboard = mask_of(Self::BIT, 20, 32);
    const START_BLACK: Bitboard = mask_of(Self::BIT, 0, 12);
    fn cell(bit: Square) -> (usize, usize) {
        diagonal_cell(Self::INDEX[bit as usize & 63] as usize, 4)
    }
}

const fn identity() -> [Square; 64] {
    let mut t = [0u8; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = s as u8;
        s += 1;
    }
    t
}

const FILE_A: Bitboard = 0x0101_0101_0101_0101;
const FILE_H: Bitboard = FILE_A << 7;

/// The 8x8 orthogonal board with all 64 squares (Turkish).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orthogonal;

impl Geometry for Orthogonal {
    const SQUARES: usize = 64;
    const SIDE: usize = 8;
    const BIT: [Square; 64] = identity();
    const INDEX: [u8; 64] = identity();
    const MASK: Bitboard = !0;
    const SHIFT: [i32; DIRECTIONS] = [-8, -1, 1, 8, 0, 0, 0, 0];
    const DIR_MASK: [Bitboard; DIRECTIONS] = [!0, !FILE_H, !FILE_A, !0, 0, 0, 0, 0];
    const WHITE_MAN_STEPS: &'static [usize] = &[0, 1, 2];
    const BLACK_MAN_STEPS: &'static [usize] = &[3, 1, 2];
    // Rows 1 and 2 (ranks 7 and 6) for black, rows 5 and 6 (ranks 3, 2) for white.
    const START_WHITE: Bitboard = 0xffff << 40;
    const START_BLACK: Bitboard = 0xffff << 8;
    fn cell(bit: Square) -> (usize, usize) {
        (bit as usize / 8 % 8, bit as usize % 8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_neighbours() {
        // Square 1 (index 0): down-left 6, down-right 7; square 6 has no
        // down-left neighbour; square 5 no down-right one.
        let b = |n: usize| 1u64 << Ten::BIT[n - 1];
        assert_eq!(step::<Ten>(b(1), 2), b(6));
        assert_eq!(step::<Ten>(b(1), 3), b(7));
        assert_eq!(step::<Ten>(b(6), 2), 0);
        assert_eq!(step::<Ten>(b(5), 3), 0);
        assert_eq!(step::<Ten>(b(46), 0), 0);
        assert_eq!(step::<Ten>(b(46), 1), b(41));
        assert_eq!(step::<Ten>(b(1), 0), 0);
        assert_eq!(Ten::MASK.count_ones(), 50);
        assert_eq!(Ten::WHITE_CROWN, (1..=5).map(b).fold(0, |a, x| a | x));
        // Orthogonal steps (Frisian): 28 is two rows below 18, beside 27 and 29.
        assert_eq!(step::<Ten>(b(28), 4), b(18));
        assert_eq!(step::<Ten>(b(28), 7), b(38));
        assert_eq!(step::<Ten>(b(28), 5), b(27));
        assert_eq!(step::<Ten>(b(28), 6), b(29));
        assert_eq!(step::<Ten>(b(26), 5), 0);
        assert_eq!(step::<Ten>(b(25), 6), 0);
        assert_eq!(step::<Ten>(b(30), 6), 0);
        assert_eq!(step::<Ten>(b(31), 5), 0);
        assert_eq!(step::<Ten>(b(3), 4), 0);
        assert_eq!(step::<Ten>(b(48), 7), 0);
        for d in 0..DIRECTIONS {
            assert_eq!(opposite(opposite(d)), d);
        }
        assert_eq!(step::<Eight>(1, 5), 0);
        assert_eq!(Ten::BLACK_CROWN, (46..=50).map(b).fold(0, |a, x| a | x));
    }

    #[test]
    fn eight_and_orthogonal_neighbours() {
        let b = |n: usize| 1u64 << Eight::BIT[n - 1];
        assert_eq!(step::<Eight>(b(12), 3), 0);
        assert_eq!(step::<Eight>(b(9), 2), b(13));
        assert_eq!(step::<Eight>(b(22), 0), b(17));
        assert_eq!(step::<Eight>(b(5), 2), 0);
        assert_eq!(step::<Orthogonal>(1 << 8, 1), 0);
        assert_eq!(step::<Orthogonal>(1 << 15, 2), 0);
        assert_eq!(step::<Orthogonal>(1 << 15, 1), 1 << 14);
        assert_eq!(Orthogonal::WHITE_CROWN, 0xff);
    }
}
