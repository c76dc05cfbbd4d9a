//! The draughts evaluation terms: one code path, generic over the rules and
//! over where the terms go (a [`Sink`]: a packed score for the search, or
//! the tuner's coefficients), so score and features can never drift apart.
//!
//! Every term is `count * weight[feature]` for White minus Black. The
//! geometry comes from compile-time tables of [`Tables`] built from the
//! variant's board layout (rows, columns, forward cones), so the per-node
//! work is bit operations, one pass over the men and, when there are kings,
//! one sliding fill per direction. Nothing allocates.
//!
//! Definitions (rows counted from the side's own back row; "advanced" means
//! on the opponent's half; a man's forward steps are its variant's: the two
//! forward diagonals, or forward and sideways on the Turkish board):
//! * support: own pieces on the squares a forward step away from behind an
//!   advanced man; outpost: supported from every such square; hanging: from
//!   none. On the Turkish board "behind" includes the squares beside.
//! * locked: a man with no empty forward step and an enemy piece on one of
//!   them.
//! * runaway: a man whose forward cone (every square it could reach, up to
//!   the crown row, widening by one column per row) holds no enemy piece.
//! * imbalance: |men on the left half - men on the right half|.

use super::features::{feature, pack};
use crate::draughts::geometry::{opposite, step, Bitboard, Geometry};
use crate::draughts::position::Position;
use crate::draughts::rules::Rules;
use crate::eval::draughts_params::{
    Weights, ANTI, BREAKTHROUGH, EIGHT, FRISIAN, KILLER, TEN, TURKISH,
};
use crate::eval::{Coefficients, Sink};
use crate::game::{Side, Variant};
use std::marker::PhantomData;

/// Row and column (as [`Geometry::cell`]) of internal index `s` of `G`.
const fn cell_of<G: Geometry>(s: usize) -> (usize, usize) {
    let per_row = G::SQUARES / G::SIDE;
    let row = s / per_row;
    if G::SQUARES == G::SIDE * G::SIDE {
        (row, s % per_row)
    } else {
        (row, 2 * (s % per_row) + if row % 2 == 0 { 1 } else { 0 })
    }
}

/// Regions of the board for [`Tables::squares`].
const IN_CENTRE: u8 = 0;
const ON_EDGE: u8 = 1;
const ON_LEFT: u8 = 2;
const ON_DIAGONAL: u8 = 3;

/// The weights and geometry tables of variant `R`, built at compile time.
pub struct Tables<R>(PhantomData<R>);

impl<R: Rules> Tables<R> {
    /// The weight set of the variant's family, with its name in
    /// `draughts_params.rs`: the 10x10 variants whose play differs have
    /// their own (Frisian and Frysk! share one), the others one per board.
    const SET: (&'static Weights, &'static str) = match R::VARIANT {
        Variant::Frisian | Variant::Frysk => (&FRISIAN, "FRISIAN"),
        Variant::Killer => (&KILLER, "KILLER"),
        Variant::Breakthrough => (&BREAKTHROUGH, "BREAKTHROUGH"),
        _ if R::LOSING => (&ANTI, "ANTI"),
        _ if <R::Board as Geometry>::SQUARES == 64 => (&TURKISH, "TURKISH"),
        _ if <R::Board as Geometry>::SIDE == 10 => (&TEN, "TEN"),
        _ => (&EIGHT, "EIGHT"),
    };
    /// The weight set of the variant.
    pub const WEIGHTS: &'static Weights = Self::SET.0;
    /// The name of that set in `draughts_params.rs`.
    pub const SET_NAME: &'static str = Self::SET.1;
    /// The weights packed for [`Sum`].
    pub const PACKED: &'static [i64; feature::COUNT] = &pack(Self::WEIGHTS);
    /// Men in the start position: the phase of a full board.
    pub const MAX_PHASE: i32 = (<R::Board as Geometry>::START_WHITE
        | <R::Board as Geometry>::START_BLACK)
        .count_ones() as i32;
    /// By side and bit: the row from the side's own back row.
    const ROW: [[u8; 64]; 2] = Self::rows();
    /// By side and bit: the packed weights of a man there (material,
    /// advancement, centre or edge), what [`ManSink::man`] adds at once.
    const MAN_SQUARE: [[i64; 64]; 2] = Self::man_squares();
    /// By side and bit: the squares of the man's forward cone.
    const CONE: [[Bitboard; 64]; 2] = Self::cones();
    /// Central squares.
    const CENTRE: Bitboard = Self::squares(IN_CENTRE);
    /// The left and right edge columns.
    const EDGE: Bitboard = Self::squares(ON_EDGE);
    /// The left half of the board.
    const LEFT: Bitboard = Self::squares(ON_LEFT);
    /// The long diagonal from a1 (empty on the orthogonal board).
    const LONG_DIAGONAL: Bitboard = Self::squares(ON_DIAGONAL);
    /// By side: the own back row.
    const BACK_ROW: [Bitboard; 2] = Self::rows_from(0, 0);
    /// By side: the opponent's half.
    const ADVANCED: [Bitboard; 2] =
        Self::rows_from(<R::Board as Geometry>::SIDE / 2, <R::Board as Geometry>::SIDE - 1);

    const fn is_centre(row: usize, col: usize) -> bool {
        let side = <R::Board as Geometry>::SIDE;
        col + 2 >= side / 2 && col <= side / 2 + 1 && row >= 3 && row + 3 < side
    }

    const fn is_edge(_row: usize, col: usize) -> bool {
        col == 0 || col + 1 == <R::Board as Geometry>::SIDE
    }

    const fn is_left(_row: usize, col: usize) -> bool {
        col < <R::Board as Geometry>::SIDE / 2
    }

    const fn is_long_diagonal(row: usize, col: usize) -> bool {
        <R::Board as Geometry>::SQUARES != 64 && row + col + 1 == <R::Board as Geometry>::SIDE
    }

    /// The squares of one region (`IN_CENTRE`, `ON_EDGE`, `ON_LEFT`, `ON_DIAGONAL`).
    const fn squares(region: u8) -> Bitboard {
        let mut set = 0;
        let mut s = 0;
        while s < <R::Board as Geometry>::SQUARES {
            let (row, col) = cell_of::<R::Board>(s);
            let inside = match region {
                IN_CENTRE => Self::is_centre(row, col),
                ON_EDGE => Self::is_edge(row, col),
                ON_LEFT => Self::is_left(row, col),
                _ => Self::is_long_diagonal(row, col),
            };
            if inside {
                set |= 1u64 << <R::Board as Geometry>::BIT[s];
            }
            s += 1;
        }
        set
    }

    /// By side: the rows `from..=to` counted from the side's back row.
    const fn rows_from(from: usize, to: usize) -> [Bitboard; 2] {
        let rows = Self::rows();
        let mut sets = [0; 2];
        let mut s = 0;
        while s < <R::Board as Geometry>::SQUARES {
            let bit = <R::Board as Geometry>::BIT[s] as usize;
            let mut side = 0;
            while side < 2 {
                let row = rows[side][bit] as usize;
                if row >= from && row <= to {
                    sets[side] |= 1u64 << bit;
                }
                side += 1;
            }
            s += 1;
        }
        sets
    }

    const fn man_squares() -> [[i64; 64]; 2] {
        let rows = Self::rows();
        let centre = Self::squares(IN_CENTRE);
        let edge = Self::squares(ON_EDGE);
        let packed = Self::PACKED;
        let mut t = [[0; 64]; 2];
        let mut s = 0;
        while s < <R::Board as Geometry>::SQUARES {
            let bit = <R::Board as Geometry>::BIT[s] as usize;
            let mut side = 0;
            while side < 2 {
                let mut v =
                    packed[feature::MAN] + packed[feature::ADVANCE + rows[side][bit] as usize];
                if centre & (1u64 << bit) != 0 {
                    v += packed[feature::CENTRE];
                }
                if edge & (1u64 << bit) != 0 {
                    v += packed[feature::EDGE];
                }
                t[side][bit] = v;
                side += 1;
            }
            s += 1;
        }
        t
    }

    const fn rows() -> [[u8; 64]; 2] {
        let last = <R::Board as Geometry>::SIDE - 1;
        let mut t = [[0; 64]; 2];
        let mut s = 0;
        while s < <R::Board as Geometry>::SQUARES {
            let bit = <R::Board as Geometry>::BIT[s] as usize;
            let (row, _) = cell_of::<R::Board>(s);
            t[0][bit] = (last - row) as u8;
            t[1][bit] = row as u8;
            s += 1;
        }
        t
    }

    const fn cones() -> [[Bitboard; 64]; 2] {
        let squares = <R::Board as Geometry>::SQUARES;
        let mut t = [[0; 64]; 2];
        let mut s = 0;
        while s < squares {
            let (row, col) = cell_of::<R::Board>(s);
            let bit = <R::Board as Geometry>::BIT[s] as usize;
            let mut o = 0;
            while o < squares {
                let (r, c) = cell_of::<R::Board>(o);
                let other = 1u64 << <R::Board as Geometry>::BIT[o];
                // White moves towards row 0, Black away from it.
                if r < row && c.abs_diff(col) <= row - r {
                    t[0][bit] |= other;
                }
                if r > row && c.abs_diff(col) <= r - row {
                    t[1][bit] |= other;
                }
                o += 1;
            }
            s += 1;
        }
        t
    }
}

/// Sums terms into middlegame and endgame scores (White's view), both in
/// one `i64` as `mg * 2^32 + eg`: a term is one multiply-add, and both
/// halves come back exactly while each sum stays within `i32`.
pub struct Sum<R> {
    packed: i64,
    rules: PhantomData<R>,
}

impl<R> Default for Sum<R> {
    fn default() -> Self {
        Sum { packed: 0, rules: PhantomData }
    }
}

impl<R> Sum<R> {
    /// The endgame sum (the low half, sign included).
    #[inline]
    pub fn eg(&self) -> i32 {
        self.packed as i32
    }

    /// The middlegame sum.
    #[inline]
    pub fn mg(&self) -> i32 {
        ((self.packed - i64::from(self.eg())) >> 32) as i32
    }
}

impl<R: Rules> Sink for Sum<R> {
    #[inline(always)]
    fn add(&mut self, feature: usize, count: i32) {
        self.packed += Tables::<R>::PACKED[feature] * i64::from(count);
    }
}

/// A [`Sink`] that may add the per-square terms of a man in one step.
pub trait ManSink<R: Rules>: Sink {
    /// A man of side `t` (0 White, 1 Black, sign `s`) on `bit`: material,
    /// advancement, centre and edge.
    #[inline(always)]
    fn man(&mut self, t: usize, bit: usize, s: i32) {
        self.add(feature::MAN, s);
        self.add(feature::ADVANCE + Tables::<R>::ROW[t][bit] as usize, s);
        if Tables::<R>::CENTRE & (1 << bit) != 0 {
            self.add(feature::CENTRE, s);
        }
        if Tables::<R>::EDGE & (1 << bit) != 0 {
            self.add(feature::EDGE, s);
        }
    }
}

impl<R: Rules> ManSink<R> for Coefficients {}

impl<R: Rules> ManSink<R> for Sum<R> {
    #[inline(always)]
    fn man(&mut self, t: usize, bit: usize, s: i32) {
        self.packed += Tables::<R>::MAN_SQUARE[t][bit] * i64::from(s);
    }
}

fn sign(side: Side) -> i32 {
    if side == Side::White {
        1
    } else {
        -1
    }
}

/// Evaluates every term of `pos` into `sink` (White's view).
#[inline]
pub fn terms<R: Rules, T: ManSink<R>>(pos: &Position<R>, sink: &mut T) {
    for side in Side::BOTH {
        side_terms(pos, side, sink);
    }
    sink.add(feature::TEMPO, sign(pos.side()));
}

/// The terms of one side's pieces, added with that side's sign.
#[inline(always)]
fn side_terms<R: Rules, T: ManSink<R>>(pos: &Position<R>, side: Side, sink: &mut T) {
    let s = sign(side);
    let t = side.index();
    let (own, enemy) = match side {
        Side::White => (pos.white(), pos.black()),
        Side::Black => (pos.black(), pos.white()),
    };
    let kings = own & pos.kings();
    let men = own & !kings;
    let enemy_men = enemy & !pos.kings();
    let empty = <R::Board as Geometry>::MASK & !(pos.white() | pos.black());
    let steps = match side {
        Side::White => <R::Board as Geometry>::WHITE_MAN_STEPS,
        Side::Black => <R::Board as Geometry>::BLACK_MAN_STEPS,
    };

    // Material: men, and kings by how many the side has.
    let king_count = kings.count_ones() as i32;
    if king_count > 0 {
        sink.add(feature::KING, s);
        if king_count > 1 {
            sink.add(feature::KING + 1, s);
        }
        if king_count > 2 {
            sink.add(feature::KING + 2, s * (king_count - 2));
        }
        if enemy & pos.kings() == 0 {
            sink.add(feature::KING_UNOPPOSED, s);
        }
        king_terms::<R, T>(kings, empty, s, sink);
    }

    // One pass over the men: per-square terms, runaways.
    let last = <R::Board as Geometry>::SIDE as i32 - 1;
    for bit in bits(men) {
        let b = bit as usize & 63;
        sink.man(t, b, s);
        if !R::LOSING && Tables::<R>::CONE[t][b] & enemy == 0 {
            let to_go = (last - Tables::<R>::ROW[t][b] as i32).clamp(1, 4) as usize;
            sink.add(feature::RUNAWAY + to_go - 1, s);
        }
    }

    // Quiet steps, and men that cannot step.
    let mut movable = 0;
    let mut mobility = 0;
    for &d in steps {
        mobility += (step::<R::Board>(men, d) & empty).count_ones() as i32;
        movable |= step::<R::Board>(empty, opposite(d));
    }
    sink.add(feature::MOBILITY, s * mobility);
    if R::LOSING {
        return;
    }
    // Left half against right half, by counting (not per man).
    let count = men.count_ones() as i32;
    let left = (men & Tables::<R>::LEFT).count_ones() as i32;
    sink.add(feature::IMBALANCE, s * (2 * left - count).abs());
    let guards = men & Tables::<R>::BACK_ROW[t];
    if guards != 0 && enemy_men != 0 {
        sink.add(feature::BACK_ROW, s * guards.count_ones() as i32);
    }
    let stuck = men & !movable;
    if stuck != 0 {
        let mut facing = 0;
        for &d in steps {
            facing |= step::<R::Board>(enemy, opposite(d));
        }
        sink.add(feature::LOCKED, s * (stuck & facing).count_ones() as i32);
    }

    // Formation of the advanced men.
    let advanced = men & Tables::<R>::ADVANCED[t];
    if advanced != 0 {
        let mut supported_all = advanced;
        let mut supported_any = 0;
        let mut support = 0;
        for &d in steps {
            let held = advanced & step::<R::Board>(own, d);
            support += held.count_ones() as i32;
            supported_all &= held;
            supported_any |= held;
        }
        sink.add(feature::SUPPORT, s * support);
        sink.add(feature::OUTPOST, s * supported_all.count_ones() as i32);
        sink.add(feature::HANGING, s * (advanced & !supported_any).count_ones() as i32);
    }
}

/// King mobility (squares reachable in one move, captures aside) and kings
/// on the long diagonal.
#[inline]
fn king_terms<R: Rules, T: Sink>(kings: Bitboard, empty: Bitboard, s: i32, sink: &mut T) {
    let mut moves = 0;
    for d in 0..4 {
        let mut ray = step::<R::Board>(kings, d) & empty;
        while ray != 0 {
            moves += ray.count_ones() as i32;
            if !R::FLYING_KINGS {
                break;
            }
            ray = step::<R::Board>(ray, d) & empty;
        }
    }
    sink.add(feature::KING_MOBILITY, s * moves);
    sink.add(feature::KING_DIAGONAL, s * (kings & Tables::<R>::LONG_DIAGONAL).count_ones() as i32);
}

/// The bits of `b`, lowest first.
#[inline]
fn bits(mut b: Bitboard) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            return None;
        }
        let bit = b.trailing_zeros() as u8;
        b &= b - 1;
        Some(bit)
    })
}

/// The long diagonal of `R`'s board (empty on the orthogonal board).
#[inline]
pub fn long_diagonal<R: Rules>() -> Bitboard {
    Tables::<R>::LONG_DIAGONAL
}
