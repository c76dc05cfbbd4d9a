//! The draughts evaluation as the tuner and the search see it, for every
//! variant: the weights applied to the features give the evaluation, the
//! weights file renders back byte for byte, and a few facts any player
//! knows hold (a king up is better; in antidraughts a man less is better).

use crown::draughts::rules::{
    AntidraughtsRules, BrazilianRules, EnglishRules, InternationalRules, ItalianRules, Rules,
    RussianRules, TurkishRules,
};
use crown::draughts::{Antidraughts, International, Position};
use crown::eval::draughts::DraughtsEvaluator;
use crown::eval::{Evaluator, Tunable};
use crown::game::{random_playout, Game, Side, Variant};

/// Positions from random playouts of `R` (deterministic), start included.
fn playouts<R: Rules>(games: usize) -> Vec<Position<R>> {
    (0..games as u64)
        .flat_map(|game| random_playout(Position::<R>::start(R::VARIANT), 199, 0x2545 + game))
        .collect()
}

/// The evaluation from White's point of view.
fn white_eval<R: Rules>(pos: &Position<R>) -> i32 {
    let score = DraughtsEvaluator::hand_set().evaluate(pos);
    if pos.side_to_move() == Side::White {
        score
    } else {
        -score
    }
}

fn features_give_the_evaluation<R: Rules>() {
    let weights = Position::<R>::weights();
    assert_eq!(weights.len(), Position::<R>::feature_names().len());
    let positions = playouts::<R>(60);
    assert!(positions.len() > 2000, "{} positions", positions.len());
    for pos in &positions {
        let f = pos.features();
        let (mut mg, mut eg) = (0f64, 0f64);
        for &(feature, count) in &f.coefficients.terms {
            mg += f64::from(weights[feature as usize].0) * f64::from(count);
            eg += f64::from(weights[feature as usize].1) * f64::from(count);
        }
        let phase = f64::from(f.phase);
        assert!((0.0..=1.0).contains(&phase), "phase {phase}");
        let value = mg * phase + eg * (1.0 - phase) * f64::from(f.eg_scale);
        let eval = white_eval(pos);
        assert!(
            (value - f64::from(eval)).abs() <= 1.0 + 1e-3,
            "{}: features {value} evaluation {eval} at {}",
            R::VARIANT,
            pos.to_fen()
        );
    }
}

#[test]
fn weights_times_features_equal_the_evaluation_in_every_variant() {
    features_give_the_evaluation::<InternationalRules>();
    features_give_the_evaluation::<BrazilianRules>();
    features_give_the_evaluation::<RussianRules>();
    features_give_the_evaluation::<EnglishRules>();
    features_give_the_evaluation::<ItalianRules>();
    features_give_the_evaluation::<TurkishRules>();
    features_give_the_evaluation::<AntidraughtsRules>();
}

fn renders_back<R: Rules>() {
    let path = format!("{}/{}", env!("CARGO_MANIFEST_DIR"), Position::<R>::PARAMS_FILE);
    let file = std::fs::read_to_string(path).expect("the weights file");
    let weights = Position::<R>::weights();
    assert_eq!(Position::<R>::render_params(&weights), file, "{}", R::VARIANT);
    // A changed weight changes one line of this variant's set, nothing else.
    let mut changed = weights.clone();
    changed[0] = (123, -456);
    let text = Position::<R>::render_params(&changed);
    let old_lines: Vec<&str> = file.lines().collect();
    let new_lines: Vec<&str> = text.lines().collect();
    assert_eq!(old_lines.len(), new_lines.len());
    let differing: Vec<usize> =
        (0..old_lines.len()).filter(|&i| old_lines[i] != new_lines[i]).collect();
    assert_eq!(differing.len(), 1, "{}: {differing:?}", R::VARIANT);
    assert_eq!(new_lines[differing[0]], "    man: (123, -456),");
    // The changed line lies in the set this variant reads.
    let set = old_lines[..differing[0]]
        .iter()
        .rev()
        .find(|line| line.starts_with("pub const "))
        .expect("a weight set");
    let name = match R::VARIANT {
        Variant::International => "TEN",
        Variant::Antidraughts => "ANTI",
        Variant::Turkish => "TURKISH",
        _ => "EIGHT",
    };
    assert_eq!(*set, format!("pub const {name}: Weights = Weights {{"));
}

#[test]
fn render_params_reproduces_the_weights_file_for_every_variant() {
    renders_back::<InternationalRules>();
    renders_back::<BrazilianRules>();
    renders_back::<RussianRules>();
    renders_back::<EnglishRules>();
    renders_back::<ItalianRules>();
    renders_back::<TurkishRules>();
    renders_back::<AntidraughtsRules>();
}

#[test]
fn a_king_up_is_better_and_antidraughts_wants_fewer_men() {
    let international = |fen: &str| {
        let pos = International::from_fen(fen, Variant::International).expect("fen");
        white_eval(&pos)
    };
    let even = international("W:W31,32,33,34,35:B16,17,18,19,20");
    let king_up = international("W:W31,32,33,34,35,K3:B16,17,18,19,20");
    assert!(even.abs() < 50, "{even}");
    assert!(king_up > even + 200, "{king_up} {even}");
    // The side to move sees its own advantage.
    let black =
        International::from_fen("B:W31,32,33,34,35,K3:B16,17,18,19,20", Variant::International)
            .expect("fen");
    assert!(DraughtsEvaluator::hand_set().evaluate(&black) < -200);

    let anti = |fen: &str| {
        let pos = Antidraughts::from_fen(fen, Variant::Antidraughts).expect("fen");
        white_eval(&pos)
    };
    let even = anti("W:W31,32,33,34,35:B16,17,18,19,20");
    let man_down = anti("W:W31,32,33,34:B16,17,18,19,20");
    assert!(man_down > even + 50, "{man_down} {even}");
}
