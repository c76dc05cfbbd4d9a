//! Draughts evaluation, generic over the variant's rules: material (a king's
//! worth falls as kings multiply), advancement, centre, back-row guard,
//! edges, runaway men and mobility, from the weights of the variant's board
//! family in `draughts_params.rs`. Antidraughts inverts the material and
//! mobility terms (fewer pieces and fewer moves are good there).
//!
//! The score is for the side to move, in hundredths of a man.

use crate::draughts::geometry::{step, Bitboard, Geometry};
use crate::draughts::position::{Move, Position};
use crate::draughts::rules::Rules;
use crate::eval::draughts_params::{Weights, EIGHT, TEN};
use crate::eval::{Evaluate, Evaluator};
use crate::game::{Game, Side};
use crate::search::score::Score;

/// The draughts evaluator (stateless).
#[derive(Clone, Default)]
pub struct DraughtsEvaluator;

fn weights<R: Rules>() -> &'static Weights {
    if <R::Board as Geometry>::SIDE == 10 {
        &TEN
    } else {
        &EIGHT
    }
}

/// Row of `bit` counted from `side`'s own back row.
#[inline]
fn row_from_back<R: Rules>(side: Side, bit: u8) -> usize {
    let (row, _) = <R::Board as Geometry>::cell(bit);
    let last = <R::Board as Geometry>::SIDE - 1;
    match side {
        Side::White => last - row,
        Side::Black => row,
    }
}

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

/// One side's score (White's or Black's pieces), from that side's view.
fn side_score<R: Rules>(pos: &Position<R>, side: Side) -> i32 {
    let w = weights::<R>();
    let (own, enemy) = match side {
        Side::White => (pos.white(), pos.black()),
        Side::Black => (pos.black(), pos.white()),
    };
    let kings = own & pos.kings();
    let men = own & !pos.kings();
    let king_count = kings.count_ones() as i32;
    let material = men.count_ones() as i32 * w.man
        + if king_count > 0 { w.king + (king_count - 1) * w.extra_king } else { 0 };
    if R::LOSING {
        // Antidraughts: material is a burden, and so are moves.
        return -material - w.mobility * quiet_steps::<R>(pos, side, men);
    }
    let side_len = <R::Board as Geometry>::SIDE;
    let enemy_men = enemy & !pos.kings();
    let mut positional = 0;
    for bit in bits(men) {
        let row = row_from_back::<R>(side, bit);
        positional += w.advance[row.min(9)];
        let (_, col) = <R::Board as Geometry>::cell(bit);
        if col == 0 || col == side_len - 1 {
            positional += w.edge;
        } else if (side_len / 2 - 2..=side_len / 2 + 1).contains(&col)
            && (3..side_len - 3).contains(&row)
        {
            positional += w.centre;
        }
        if row == 0 && enemy_men != 0 {
            positional += w.back_row;
        }
    }
    positional += w.runaway * runaways::<R>(pos, side, men);
    positional += w.mobility * quiet_steps::<R>(pos, side, men);
    material + positional
}

/// Number of (man, direction) quiet steps onto empty squares.
fn quiet_steps<R: Rules>(pos: &Position<R>, side: Side, men: Bitboard) -> i32 {
    let empty = <R::Board as Geometry>::MASK & !(pos.white() | pos.black());
    let dirs = match side {
        Side::White => <R::Board as Geometry>::WHITE_MAN_STEPS,
        Side::Black => <R::Board as Geometry>::BLACK_MAN_STEPS,
    };
    dirs.iter().map(|&d| (step::<R::Board>(men, d) & empty).count_ones() as i32).sum()
}

/// Men two rows or less from crowning whose forward squares are all empty
/// and unguarded by enemy men: they crown before they can be caught
/// (a cheap, conservative test).
fn runaways<R: Rules>(pos: &Position<R>, side: Side, men: Bitboard) -> i32 {
    let empty = <R::Board as Geometry>::MASK & !(pos.white() | pos.black());
    let dirs = match side {
        Side::White => <R::Board as Geometry>::WHITE_MAN_STEPS,
        Side::Black => <R::Board as Geometry>::BLACK_MAN_STEPS,
    };
    let last = <R::Board as Geometry>::SIDE - 1;
    let mut count = 0;
    for bit in bits(men) {
        if row_from_back::<R>(side, bit) + 1 != last {
            continue;
        }
        let b = 1u64 << bit;
        if dirs.iter().any(|&d| step::<R::Board>(b, d) & empty != 0) {
            count += 1;
        }
    }
    count
}

impl<R: Rules> Evaluator<Position<R>> for DraughtsEvaluator {
    fn evaluate(&mut self, pos: &Position<R>) -> Score {
        let us = pos.side_to_move();
        let score = side_score(pos, us) - side_score(pos, us.flip());
        score + weights::<R>().tempo
    }

    fn trace(&mut self, pos: &Position<R>) -> String {
        let white = side_score(pos, Side::White);
        let black = side_score(pos, Side::Black);
        format!("white {white} black {black}\nFinal evaluation: {:+} (white side)", white - black)
    }
}

impl<R: Rules> Evaluate for Position<R> {
    type Evaluator = DraughtsEvaluator;

    #[inline]
    fn tactical_value(&self, mv: Move) -> Score {
        mv.captured.count_ones() as Score * 100 + if mv.promotes { 200 } else { 0 }
    }
}
