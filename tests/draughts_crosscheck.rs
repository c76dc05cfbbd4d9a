//! Cross-check against a file of positions and legal move sets written by
//! another implementation (pydraughts): one line per position,
//! `FEN<TAB>moves`, the moves in Hub form (`from-to`, `fromxtoxcaptured...`,
//! captured ascending), sorted by text. Run by hand:
//! `CROWN_CROSSCHECK=russian:/tmp/russian.txt cargo test --profile ci --test
//! draughts_crosscheck -- --ignored`. Not part of the default run (needs the
//! file that a Python script writes); see scripts/perft-draughts for how it
//! was used.

use crown::draughts::{
    notation, Antidraughts, Brazilian, English, International, Italian, Russian, Turkish,
};
use crown::game::{Game, Variant};

fn check<G: Game<Move = crown::draughts::position::Move>>(
    variant: Variant,
    path: &str,
    hub: fn(&G, crown::draughts::position::Move) -> String,
) {
    let text = std::fs::read_to_string(path).expect("cross-check file");
    let mut bad = 0;
    for line in text.lines() {
        let Some((fen, moves)) = line.split_once('\t') else { continue };
        let pos = G::from_fen(fen, variant).expect("fen");
        let mut list = G::MoveList::default();
        pos.generate(&mut list);
        let mut ours: Vec<String> = list.iter().map(|&m| hub(&pos, m)).collect();
        ours.sort();
        let mut theirs: Vec<String> = moves.split_whitespace().map(str::to_string).collect();
        theirs.sort();
        if ours != theirs {
            bad += 1;
            if bad < 60 {
                let only_ours: Vec<_> = ours.iter().filter(|m| !theirs.contains(m)).collect();
                let only_theirs: Vec<_> = theirs.iter().filter(|m| !ours.contains(m)).collect();
                eprintln!("{fen}\n  only crown: {only_ours:?}\n  only other: {only_theirs:?}");
            }
        }
    }
    assert_eq!(bad, 0, "{bad} positions differ");
}

#[test]
#[ignore]
fn crosscheck_file() {
    let Ok(spec) = std::env::var("CROWN_CROSSCHECK") else { return };
    let (name, path) = spec.split_once(':').expect("variant:path");
    let variant = Variant::parse(name).expect("variant");
    macro_rules! run {
        ($t:ty) => {
            check::<$t>(variant, path, |_, m| notation::hub_text::<<$t as HasRules>::R>(m))
        };
    }
    match variant {
        Variant::International => run!(International),
        Variant::Brazilian => run!(Brazilian),
        Variant::Russian => run!(Russian),
        Variant::English => run!(English),
        Variant::Italian => run!(Italian),
        Variant::Turkish => run!(Turkish),
        Variant::Antidraughts => run!(Antidraughts),
        _ => panic!("not a draughts variant"),
    }
}

trait HasRules {
    type R: crown::draughts::rules::Rules;
}
impl<R: crown::draughts::rules::Rules> HasRules for crown::draughts::Position<R> {
    type R = R;
}
