//! Draughts evaluation, generic over the variant's rules, tapered between a
//! middlegame and an endgame weight set by the share of men on the board.
//!
//! A variant with embedded learned region patterns (international, and
//! each other variant whose patterns beat its hand-set terms) evaluates
//! with them by default ([`patterns`], chosen by `EvalFile`); they include
//! the terms below with their own learned weights. Frisian positions with
//! at most five pieces a side read Frysk!'s patterns (Frysk! arrives as
//! `frisian` from lidraughts). Every other variant,
//! and any with `EvalFile <none>`, uses the hand-set terms described here. The
//! [`Tunable`] view (the Texel tuner's) is that of the hand-set terms
//! ([`DraughtsEvaluator::hand_set`]).
//!
//! Terms (defined in `terms.rs`, weights in `draughts_params.rs`, one set
//! per family: 10x10, 8x8 diagonal, antidraughts, Turkish): material (the
//! first, second and further kings are separate features, so a king's worth
//! falls as kings multiply and rises when the opponent has none), advancement
//! by row (tempo and development, per phase), centre, edges, back-row guard,
//! left/right balance, support, outposts and hanging men, locked men,
//! runaway men by rows to go, mobility of men, king mobility, kings on the
//! long diagonal, and the side to move. Antidraughts uses negative material
//! and mobility weights (fewer pieces and moves are good) and skips the
//! terms that only matter when crowning is the goal.
//!
//! Endgame knowledge of the draw rules: when one side has a lone king and
//! the other too few pieces to force a win under the variant's rules (flying
//! kings: three on 10x10, two on 8x8 or three against a king holding the
//! long diagonal), the endgame half is scaled down to 1/8.
//!
//! The score for White is `(mg * p * 64 + eg * scale * (MAX - p)) / (64 *
//! MAX)`, one integer division, where `p` is the number of men on the board
//! and `MAX` that number in the start position; the search gets it from the
//! side to move's view, in hundredths of a man.

pub mod features;
pub mod patterns;
pub mod terms;
pub mod windows;

use crate::draughts::geometry::Geometry;
use crate::draughts::position::{Move, MoveList, Position};
use crate::draughts::rules::Rules;
use crate::eval::{Coefficients, Evaluator, Features, Playable, Tunable};
use crate::game::{Side, Variant};
use crate::score::Score;
use features::flatten;
use patterns::Patterns;
use std::sync::Arc;
use terms::{terms, Sum, Tables};

/// Pieces a side up to which a Frisian position reads Frysk!'s patterns:
/// Frysk!'s start (`W:W46-50:B1-5`).
pub const FRYSK_PIECES: u32 = 5;

/// The draughts evaluator: the learned patterns of the game's variant when
/// there are some, else the hand-set terms.
#[derive(Clone)]
pub struct DraughtsEvaluator {
    patterns: patterns::PatternSet,
}

impl Default for DraughtsEvaluator {
    fn default() -> Self {
        DraughtsEvaluator { patterns: patterns::PatternSet::starting() }
    }
}

impl DraughtsEvaluator {
    /// The hand-set evaluation alone, whatever the default.
    pub fn hand_set() -> Self {
        DraughtsEvaluator { patterns: patterns::PatternSet::default() }
    }

    /// The patterns that evaluate `pos`: its variant's, except that a
    /// Frisian position with at most [`FRYSK_PIECES`] pieces a side reads
    /// Frysk!'s when there are some. Frysk! is Frisian from five men a side,
    /// and lidraughts (so pydraughts and the match runner) sends it as
    /// `frisian`: by material its whole game lands in Frysk!'s patterns,
    /// whichever name it came under; so do Frisian endgames.
    #[inline]
    fn patterns_for<R: Rules>(&self, pos: &Position<R>) -> Option<&Arc<Patterns>> {
        if R::VARIANT == Variant::Frisian
            && pos.white().count_ones() <= FRYSK_PIECES
            && pos.black().count_ones() <= FRYSK_PIECES
        {
            if let Some(p) = self.patterns.get(Variant::Frysk) {
                return Some(p);
            }
        }
        self.patterns.get(R::VARIANT)
    }

    /// The middlegame and endgame sums of `pos` (White's view), from the
    /// patterns when they serve this game, else from the hand-set terms.
    #[inline]
    fn sums<R: Rules>(&self, pos: &Position<R>) -> (i32, i32) {
        match self.patterns_for(pos) {
            Some(p) => p.sums(pos),
            None => {
                let mut sum = Sum::<R>::default();
                terms(pos, &mut sum);
                (sum.mg(), sum.eg())
            }
        }
    }
}

/// The phase: the number of men on the board (at most
/// [`Tables::MAX_PHASE`]).
#[inline]
pub fn phase<R: Rules>(pos: &Position<R>) -> i32 {
    ((pos.white() | pos.black()) & !pos.kings()).count_ones() as i32
}

/// The factor on the endgame half, out of 64: 8 when one side has a lone
/// king and the other cannot force a win by the variant's rules.
pub fn eg_scale<R: Rules>(pos: &Position<R>) -> i32 {
    if R::LOSING {
        return 64;
    }
    let lone_king = |set: u64| set.count_ones() == 1 && set & pos.kings() != 0;
    let (strong, weak) = if lone_king(pos.black()) {
        (pos.white(), pos.black())
    } else if lone_king(pos.white()) {
        (pos.black(), pos.white())
    } else {
        return 64;
    };
    let pieces = strong.count_ones();
    let limit = if <R::Board as Geometry>::SQUARES == 64 || !R::FLYING_KINGS {
        1
    } else if <R::Board as Geometry>::SIDE == 10 {
        3
    } else {
        2
    };
    let holds_diagonal = weak & terms::long_diagonal::<R>() != 0;
    let eight_flying = <R::Board as Geometry>::SIDE == 8 && R::FLYING_KINGS;
    if pieces <= limit || (eight_flying && pieces == 3 && holds_diagonal) {
        8
    } else {
        64
    }
}

/// Combines the sums of `pos` into the score for White.
#[inline]
fn white_score<R: Rules>(pos: &Position<R>, mg: i32, eg: i32) -> i32 {
    let max = Tables::<R>::MAX_PHASE as i64;
    let p = phase(pos) as i64;
    let scale = eg_scale(pos) as i64;
    ((mg as i64 * p * 64 + eg as i64 * scale * (max - p)) / (64 * max)) as i32
}

impl<R: Rules> Evaluator<Position<R>> for DraughtsEvaluator {
    #[inline]
    fn evaluate(&mut self, pos: &Position<R>) -> Score {
        let (mg, eg) = self.sums(pos);
        let white = white_score(pos, mg, eg);
        if pos.side() == Side::White {
            white
        } else {
            -white
        }
    }

    fn trace(&mut self, pos: &Position<R>) -> String {
        let (mg, eg) = self.sums(pos);
        let white = white_score(pos, mg, eg);
        let source = match self.patterns_for(pos) {
            Some(p) => format!("learned patterns ({})", p.variant()),
            None => "hand-set terms".to_string(),
        };
        format!(
            "{source}: middlegame {} endgame {} phase {}/{} endgame scale {}/64\n\
             Final evaluation: {:+} (white side)",
            mg,
            eg,
            phase(pos),
            Tables::<R>::MAX_PHASE,
            eg_scale(pos),
            white
        )
    }

    fn set_learned(&mut self, learned: &crate::eval::Learned) {
        self.patterns.clone_from(&learned.patterns);
    }
}

impl<R: Rules> Position<R> {
    /// Whether the quiet move `mv` hands the opponent a compulsory capture
    /// and, whichever capture the opponent makes, the mover then captures
    /// at least `extra` pieces more than that reply took: 1 is a shot (the
    /// combination wins material), 0 an exchange (a trade at least even).
    fn answered(&self, mv: Move, extra: u32) -> bool {
        let mut after = *self;
        after.play_move(mv);
        if !after.has_capture() {
            return false;
        }
        let mut replies = MoveList::default();
        after.generate_captures(&mut replies);
        replies.iter().all(|&reply| {
            let mut back = after;
            back.play_move(reply);
            // Most replies leave no capture at all: the bitboard test
            // answers those before any capture is built.
            back.has_capture() && back.most_captured() >= reply.captured.count_ones() + extra
        })
    }

    /// Whether the quiet move `mv` offers an exchange at least even.
    fn exchange(&self, mv: Move) -> bool {
        self.answered(mv, 0)
    }
}

impl<R: Rules> Playable for Position<R> {
    type Evaluator = DraughtsEvaluator;
    type Tables = crate::endgame::draughts::Tablebase;

    #[inline]
    fn tactical_value(&self, mv: Move) -> Score {
        mv.captured.count_ones() as Score * 100 + if mv.promotes { 200 } else { 0 }
    }

    fn shot(&self, mv: Move) -> bool {
        self.answered(mv, 1)
    }

    fn generate_exchanges(&self, list: &mut MoveList) {
        list.clear();
        // Kings make every line of captures long and the test below
        // expensive; Scan follows exchanges only without them too.
        if self.kings() != 0 {
            return;
        }
        let mut quiet = MoveList::default();
        self.generate_moves(&mut quiet);
        for &mv in quiet.iter() {
            if mv.promotes || self.exchange(mv) {
                list.push(mv);
            }
        }
    }
}

impl<R: Rules> Tunable for Position<R> {
    const PARAMS_FILE: &'static str = "src/eval/draughts_params.rs";

    fn weights() -> Vec<(i32, i32)> {
        flatten(Tables::<R>::WEIGHTS).to_vec()
    }

    fn feature_names() -> Vec<String> {
        features::names()
    }

    fn features(&self) -> Features {
        let mut coefficients = Coefficients::default();
        terms(self, &mut coefficients);
        Features {
            coefficients,
            phase: phase(self) as f32 / Tables::<R>::MAX_PHASE as f32,
            eg_scale: eg_scale(self) as f32 / 64.0,
        }
    }

    fn render_params(weights: &[(i32, i32)]) -> String {
        features::render(include_str!("../draughts_params.rs"), Tables::<R>::SET_NAME, weights)
    }
}

#[cfg(test)]
mod tests;
