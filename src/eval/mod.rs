//! Evaluation: how good a position is for the side to move, kept apart from
//! the rules so that rules stay rules.
//!
//! [`Playable`] extends a [`Game`] with what the search needs to know beyond
//! the rules: a static evaluator (with its own per-thread state, such as a pawn
//! hash table) and cheap tactical knowledge for move ordering and pruning.
//! Scores are from the side to move's point of view and stay within
//! `±EVAL_LIMIT`, so they are never mistaken for mate scores.

pub mod chess;
pub mod chess_params;
pub mod chess_tune;
pub mod draughts;
pub mod draughts_params;
pub mod nnue;

use crate::game::Game;
use crate::score::Score;

/// A static evaluator with per-thread state.
pub trait Evaluator<G: Game>: Default + Clone + Send {
    /// The score of `pos` for its side to move.
    fn evaluate(&mut self, pos: &G) -> Score;
    /// A human-readable breakdown (the UCI `eval` command).
    fn trace(&mut self, pos: &G) -> String {
        format!("evaluation: {} (side to move)", self.evaluate(pos))
    }

    /// Evaluates with these learned evaluations from now on; each
    /// evaluator takes the one of its game (chess: the network; draughts:
    /// the patterns) and a `None` there selects its hand-set evaluation.
    fn set_learned(&mut self, _learned: &Learned) {}
}

/// The learned evaluations an engine hands its evaluators (the `EvalFile`
/// option): the chess network and the draughts patterns of each variant
/// that has some. `None` (an empty set) selects the hand-set evaluation.
#[derive(Clone, Default)]
pub struct Learned {
    /// The chess network.
    pub network: Option<std::sync::Arc<nnue::Network>>,
    /// The draughts patterns, at most one file per variant.
    pub patterns: draughts::patterns::PatternSet,
}

impl Learned {
    /// What evaluators, engines and sessions start with: each embedded
    /// evaluation that is its game's default. The one place that decides.
    pub fn starting() -> Learned {
        Learned {
            network: nnue::starting_network(),
            patterns: draughts::patterns::PatternSet::starting(),
        }
    }

    /// The embedded learned evaluations, default or not.
    pub fn embedded() -> Learned {
        Learned {
            network: nnue::default_network(),
            patterns: draughts::patterns::PatternSet::embedded(),
        }
    }
}

/// A game the search can play: rules plus evaluation knowledge.
pub trait Playable: Game {
    /// The evaluator each search thread owns.
    type Evaluator: Evaluator<Self>;
    /// The endgame tables the search may be given for this game
    /// ([`crate::endgame::NoTables`] when the game has none).
    type Tables: crate::endgame::Probe<Self>;

    /// Ordering value of a tactical move (captures, promotions): larger is
    /// searched first (most valuable victim, least valuable attacker).
    fn tactical_value(&self, mv: Self::Move) -> Score;

    /// Whether [`Playable::see_ge`] does real work (chess): move ordering
    /// then defers it until a move is about to be tried. `false` for the
    /// trivial default (draughts), which ordering may call at once.
    const EXCHANGE: bool = false;

    /// Static exchange: whether `mv` wins at least `threshold` material when
    /// both sides recapture on its square with their cheapest pieces. Games
    /// without a meaningful exchange (draughts) answer `true`.
    fn see_ge(&self, _mv: Self::Move, _threshold: Score) -> bool {
        true
    }

    /// Whether the quiet move `mv` is a shot: it hands the opponent a
    /// compulsory capture, and whichever capture the opponent makes, the
    /// side that played `mv` then captures more pieces than it gave (the
    /// sacrifice and the multiple capture of draughts combinations). Its
    /// gain lies two plies beyond the static evaluation. `false` in games
    /// without compulsory captures (chess).
    fn shot(&self, _mv: Self::Move) -> bool {
        false
    }

    /// The quiet moves quiescence also follows at a quiet node (no capture
    /// for the side to move), written to `list` (cleared first): in
    /// draughts without kings, the promotions and the exchanges, man moves
    /// that hand the opponent a compulsory capture which every reply lets
    /// the mover answer with a capture of at least as many pieces (shots
    /// included). Their outcome lies two or three plies beyond the static
    /// evaluation, which cannot see a trade or a combination coming. None
    /// in chess (the default).
    fn generate_exchanges(&self, list: &mut Self::MoveList) {
        *list = Self::MoveList::default();
    }

    /// Whether passing the turn is safe from zugzwang here (chess: the side
    /// to move has a piece other than pawns and king). Only asked when
    /// [`Game::NULL_MOVE`] is true.
    fn null_move_safe(&self) -> bool {
        false
    }

    /// Whether the side to move is short enough of material that zugzwang
    /// is likely, so that a null move's fail high is verified by a real
    /// search (chess: at most one piece besides pawns and king). Only asked
    /// when [`Game::NULL_MOVE`] is true.
    fn zugzwang_likely(&self) -> bool {
        false
    }
}

/// Where evaluation terms go: summed into a score, or listed for the tuner.
pub trait Sink {
    /// Adds `count` occurrences of `feature` for White (negative for Black).
    fn add(&mut self, feature: usize, count: i32);
}

/// The tuner's view: per-feature coefficients (White minus Black).
#[derive(Clone, Debug, Default)]
pub struct Coefficients {
    /// Sparse (feature, count) pairs; a feature may appear more than once.
    pub terms: Vec<(u32, i16)>,
}

impl Sink for Coefficients {
    fn add(&mut self, feature: usize, count: i32) {
        if count != 0 {
            self.terms.push((feature as u32, count.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
        }
    }
}

/// One position's features as the tuner sees them (White's point of view).
///
/// The evaluation for White is, before rounding,
/// `(mg * phase + eg * (1 - phase) * eg_scale)` where `mg` and `eg` are the
/// coefficients times the middlegame and endgame halves of the weights.
/// Evaluations without game phases use `phase = 1` and weight pairs with
/// equal halves.
#[derive(Clone, Debug, Default)]
pub struct Features {
    /// Sparse feature coefficients, White minus Black.
    pub coefficients: Coefficients,
    /// Share of the middlegame half, 0.0 (bare ending) to 1.0.
    pub phase: f32,
    /// Factor on the endgame half (endgame scaling; 1.0 when none).
    pub eg_scale: f32,
}

/// An evaluation the tuner (`tuning/`) can fit: its features per position,
/// its current weights, and the source file those weights live in.
///
/// Invariant (tested per implementation): for every position, the weights
/// applied to [`Tunable::features`] as [`Features`] describes give
/// [`Evaluator::evaluate`] from White's point of view, up to rounding.
pub trait Tunable: Playable {
    /// The weights file, relative to the crate root (e.g.
    /// `src/eval/chess_params.rs`).
    const PARAMS_FILE: &'static str;

    /// The current weights, one (middlegame, endgame) pair per feature.
    fn weights() -> Vec<(i32, i32)>;

    /// A short name per feature, for reports (same length as the weights).
    fn feature_names() -> Vec<String>;

    /// The features of this position.
    fn features(&self) -> Features;

    /// The whole text of [`Tunable::PARAMS_FILE`] with `weights` (of the
    /// same length as [`Tunable::weights`]) in place of the current ones;
    /// rendering the current weights reproduces the file exactly.
    fn render_params(weights: &[(i32, i32)]) -> String;
}
