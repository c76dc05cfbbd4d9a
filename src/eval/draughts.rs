//! Draughts evaluation, generic over the variant's rules: material (a king's
//! worth falls as kings multiply), advancement, centre, back-row guard,
//! edges, runaway men and mobility, from the weights of the variant's board
//! family in `draughts_params.rs`. Antidraughts inverts the material and
//! mobility terms (fewer pieces and fewer moves are good there).
//!
//! The score is for the side to move, in hundredths of a man.

use crate::draughts::geometry::{opposite, step, Bitboard, Geometry};
use crate::draughts::position::{Move, Position};
use crate::draughts::rules::Rules;
use crate::eval::draughts_params::{Weights, EIGHT, TEN};
use crate::eval::{Evaluate, Evaluator};
use crate::game::{Game, Side};
use crate::search::score::Score;
use std::marker::PhantomData;

/// The draughts evaluator (stateless).
#[derive(Clone, Default)]
pub struct DraughtsEvaluator;

fn weights<R: Rules>() -> &'static Weights {
    Tables::<R>::WEIGHTS
}

/// Row and column (as [`Geometry::cell`]) of internal index `s` of `G`:
/// rows are runs of `SQUARES / SIDE` indices; a diagonal board's even rows
/// start on the second cell.
const fn cell_of<G: Geometry>(s: usize) -> (usize, usize) {
    let per_row = G::SQUARES / G::SIDE;
    let row = s / per_row;
    if G::SQUARES == G::SIDE * G::SIDE {
        (row, s % per_row)
    } else {
        (row, 2 * (s % per_row) + if row % 2 == 0 { 1 } else { 0 })
    }
}

/// The per-square man terms of variant `R`, built at compile time.
struct Tables<R>(PhantomData<R>);

impl<R: Rules> Tables<R> {
    const WEIGHTS: &'static Weights =
        if <R::Board as Geometry>::SIDE == 10 { &TEN } else { &EIGHT };
    /// By side (White, Black) and bit: advancement plus edge or centre.
    const MAN: [[i32; 64]; 2] = Self::man_table();
    /// By side: the own back row.
    const BACK_ROW: [Bitboard; 2] = Self::row_from_back(0);
    /// By side: the row before the crown row (where runaways stand).
    const BEFORE_CROWN: [Bitboard; 2] = Self::row_from_back(<R::Board as Geometry>::SIDE - 2);

    const fn man_table() -> [[i32; 64]; 2] {
        let w = Self::WEIGHTS;
        let side_len = <R::Board as Geometry>::SIDE;
        let last = side_len - 1;
        let mut t = [[0; 64]; 2];
        let mut s = 0;
        while s < <R::Board as Geometry>::SQUARES {
            let bit = <R::Board as Geometry>::BIT[s] as usize;
            let (cell_row, col) = cell_of::<R::Board>(s);
            let mut side = 0;
            while side < 2 {
                let row = if side == 0 { last - cell_row } else { cell_row };
                let mut v = w.advance[if row < 9 { row } else { 9 }];
                if col == 0 || col == last {
                    v += w.edge;
                } else if col + 2 >= side_len / 2
                    && col <= side_len / 2 + 1
                    && row >= 3
                    && row < side_len - 3
                {
                    v += w.centre;
                }
                t[side][bit] = v;
                side += 1;
            }
            s += 1;
        }
        t
    }

    const fn row_from_back(row: usize) -> [Bitboard; 2] {
        let last = <R::Board as Geometry>::SIDE - 1;
        let mut rows = [0; 2];
        let mut s = 0;
        while s < <R::Board as Geometry>::SQUARES {
            let bit = 1u64 << <R::Board as Geometry>::BIT[s];
            let (cell_row, _) = cell_of::<R::Board>(s);
            if last - cell_row == row {
                rows[0] |= bit;
            }
            if cell_row == row {
                rows[1] |= bit;
            }
            s += 1;
        }
        rows
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
    let king_material = if king_count > 0 { w.king + (king_count - 1) * w.extra_king } else { 0 };
    if R::LOSING {
        // Antidraughts: material is a burden, and so are moves.
        let material = men.count_ones() as i32 * w.man + king_material;
        return -material - w.mobility * quiet_steps::<R>(pos, side, men);
    }
    let enemy_men = enemy & !pos.kings();
    let table = &Tables::<R>::MAN[side.index()];
    let mut positional = 0;
    let mut man_count = 0;
    for bit in bits(men) {
        positional += table[bit as usize & 63];
        man_count += 1;
    }
    let material = man_count * w.man + king_material;
    let guards = men & Tables::<R>::BACK_ROW[side.index()];
    if guards != 0 && enemy_men != 0 {
        positional += w.back_row * guards.count_ones() as i32;
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

/// Men on the row before the crown row with an empty square to step to:
/// they crown on their next move unless a capture intervenes (a cheap test).
fn runaways<R: Rules>(pos: &Position<R>, side: Side, men: Bitboard) -> i32 {
    let empty = <R::Board as Geometry>::MASK & !(pos.white() | pos.black());
    let dirs = match side {
        Side::White => <R::Board as Geometry>::WHITE_MAN_STEPS,
        Side::Black => <R::Board as Geometry>::BLACK_MAN_STEPS,
    };
    let candidates = men & Tables::<R>::BEFORE_CROWN[side.index()];
    if candidates == 0 {
        return 0;
    }
    // A man can step in direction `d` when the square a step in the
    // opposite direction from an empty square is his.
    let movable = dirs.iter().fold(0, |m, &d| m | step::<R::Board>(empty, opposite(d)));
    (candidates & movable).count_ones() as i32
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

    fn tablebase(&self) -> Option<crate::egtb::Wdl> {
        crate::egtb::registry::probe(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{
        AntidraughtsRules, BrazilianRules, EnglishRules, InternationalRules, ItalianRules,
        RussianRules, TurkishRules,
    };
    use crate::game::Variant;

    /// The straightforward per-man form of the positional and runaway
    /// terms, which the compile-time tables must reproduce exactly.
    fn reference<R: Rules>(pos: &Position<R>, side: Side) -> i32 {
        let w = weights::<R>();
        let (own, enemy) = match side {
            Side::White => (pos.white(), pos.black()),
            Side::Black => (pos.black(), pos.white()),
        };
        let men = own & !pos.kings();
        let side_len = <R::Board as Geometry>::SIDE;
        let last = side_len - 1;
        let row_from_back = |bit: u8| {
            let (row, _) = <R::Board as Geometry>::cell(bit);
            if side == Side::White {
                last - row
            } else {
                row
            }
        };
        let empty = <R::Board as Geometry>::MASK & !(pos.white() | pos.black());
        let dirs = match side {
            Side::White => <R::Board as Geometry>::WHITE_MAN_STEPS,
            Side::Black => <R::Board as Geometry>::BLACK_MAN_STEPS,
        };
        let mut total = 0;
        for bit in bits(men) {
            let row = row_from_back(bit);
            total += w.advance[row.min(9)];
            let (_, col) = <R::Board as Geometry>::cell(bit);
            if col == 0 || col == last {
                total += w.edge;
            } else if (side_len / 2 - 2..=side_len / 2 + 1).contains(&col)
                && (3..side_len - 3).contains(&row)
            {
                total += w.centre;
            }
            if row == 0 && enemy & !pos.kings() != 0 {
                total += w.back_row;
            }
            if row + 1 == last && dirs.iter().any(|&d| step::<R::Board>(1 << bit, d) & empty != 0) {
                total += w.runaway;
            }
        }
        total
    }

    fn check<R: Rules>(variant: Variant) {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for game in 0..20 {
            let mut pos = Position::<R>::start(variant);
            for _ in 0..(40 + game * 7) {
                for side in Side::BOTH {
                    let (own, _) = match side {
                        Side::White => (pos.white(), pos.black()),
                        Side::Black => (pos.black(), pos.white()),
                    };
                    let men = own & !pos.kings();
                    let kings = (own & pos.kings()).count_ones() as i32;
                    let w = weights::<R>();
                    let material = men.count_ones() as i32 * w.man
                        + if kings > 0 { w.king + (kings - 1) * w.extra_king } else { 0 };
                    let mobility = w.mobility * quiet_steps::<R>(&pos, side, men);
                    let expected = if R::LOSING {
                        -material - mobility
                    } else {
                        material + reference(&pos, side) + mobility
                    };
                    assert_eq!(side_score(&pos, side), expected, "{variant} {}", pos.to_fen());
                }
                let mut list = <Position<R> as Game>::MoveList::default();
                pos.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.play(list[(state % list.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn tables_reproduce_the_per_man_terms() {
        check::<InternationalRules>(Variant::International);
        check::<BrazilianRules>(Variant::Brazilian);
        check::<RussianRules>(Variant::Russian);
        check::<EnglishRules>(Variant::English);
        check::<ItalianRules>(Variant::Italian);
        check::<TurkishRules>(Variant::Turkish);
        check::<AntidraughtsRules>(Variant::Antidraughts);
    }
}
