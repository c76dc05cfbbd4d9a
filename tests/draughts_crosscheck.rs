//! Cross-check against a file of positions and legal move sets written by
//! another implementation (pydraughts): one line per position,
//! `FEN<TAB>moves`, the moves in Hub form (`from-to`, `fromxtoxcaptured...`,
//! captured ascending). Not part of the default run: it needs the file, which
//! a throwaway Python venv writes (`pip install pydraughts`), e.g. with random
//! games:
//!
//! ```text
//! from draughts import Board; import random, sys
//! v, games, out = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], 'w')
//! def key(m): s = m.steps_move; return (s[0], s[-1], tuple(sorted(m.captures or [])))
//! def fmt(k): return 'x'.join(map(str, [k[0], k[1], *k[2]])) if k[2] else f'{k[0]}-{k[1]}'
//! for g in range(games):
//!     b = Board(variant=v)
//!     for ply in range(150):
//!         ms = b.legal_moves()
//!         out.write(b.fen + '\t' + ' '.join(sorted({fmt(key(m)) for m in ms})) + '\n')
//!         if not ms or b.is_over(): break
//!         b.push(random.choice(ms))
//! ```
//!
//! then `CROWN_CROSSCHECK=russian:/tmp/russian.txt cargo test --profile ci
//! --test draughts_crosscheck -- --ignored`. Without the variable the test
//! only says so.

use crown::draughts::{
    notation, Antidraughts, Brazilian, Breakthrough, English, Frisian, Frysk, International,
    Italian, Killer, Russian, Turkish,
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
    let Ok(spec) = std::env::var("CROWN_CROSSCHECK") else {
        eprintln!("CROWN_CROSSCHECK=variant:path not set; nothing to compare");
        return;
    };
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
        Variant::Killer => run!(Killer),
        Variant::Breakthrough => run!(Breakthrough),
        Variant::Frisian => run!(Frisian),
        Variant::Frysk => run!(Frysk),
        _ => panic!("not a draughts variant"),
    }
}

trait HasRules {
    type R: crown::draughts::rules::Rules;
}
impl<R: crown::draughts::rules::Rules> HasRules for crown::draughts::Position<R> {
    type R = R;
}
