//! The runner on the draughts rules: random openings of every variant read
//! back through the PDN reader, and Hub matches between two instances of an
//! independent random mover built on pydraughts, run by the Python of the
//! repository's `.venv` (which `scripts/test` creates) or else `python3`;
//! the Hub tests fail with a note saying so when pydraughts is missing. A disagreement between Crown's rules and
//! pydraughts would show up as an illegal move, so every game must end by
//! the rules or adjudication.

use crown::chess::san::san;
use crown::game::Variant;
use crown::rng::Rng;
use crown::tournament::openings::{parse_games, random_opening, realise};
use std::process::Command;

const DRAUGHTS: [Variant; 7] = [
    Variant::International,
    Variant::Brazilian,
    Variant::Russian,
    Variant::English,
    Variant::Italian,
    Variant::Turkish,
    Variant::Antidraughts,
];

fn openings_round_trip<G: crown::tournament::openings::Balance>(variant: Variant) {
    let mut rng = Rng::new(11);
    for _ in 0..20 {
        let opening = random_opening::<G>(variant, 12, &mut rng).unwrap();
        let mut pos = opening.start.clone();
        let mut text = String::new();
        for &mv in &opening.moves {
            text.push_str(&san(&pos, mv));
            text.push(' ');
            pos.play(mv);
        }
        let parsed = parse_games(&format!("[GameType \"20\"]\n{text}*\n"));
        let back = realise::<G>(&parsed[0], variant, None)
            .unwrap_or_else(|e| panic!("{variant}: {e}: {text}"));
        assert_eq!(back.moves, opening.moves, "{variant}: {text}");
    }
}

#[test]
fn random_openings_of_every_variant_read_back() {
    for variant in DRAUGHTS {
        crown::for_variant!(variant, G => openings_round_trip::<G>(variant));
    }
}

/// The Python that has pydraughts: the repository's `.venv` first, then
/// `python3` on the PATH. Fails the test when neither has it: a match test
/// that cannot play its opponent must not pass as if it had.
fn pydraughts_python() -> String {
    let venv = format!("{}/.venv/bin/python", env!("CARGO_MANIFEST_DIR"));
    for python in [venv.as_str(), "python3"] {
        let ok = Command::new(python)
            .args(["-c", "import draughts"])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false);
        if ok {
            return python.to_string();
        }
    }
    panic!("pydraughts is missing: scripts/test creates .venv with it (pip install pydraughts)");
}

fn hub_match(variant: &str) {
    let python = format!("cmd={}", pydraughts_python());
    let script = format!("arg={}/tests/fixtures/hub_pydraughts.py", env!("CARGO_MANIFEST_DIR"));
    let pdn =
        std::env::temp_dir().join(format!("crown-match-{variant}-{}.pdn", std::process::id()));
    let pdn = pdn.to_string_lossy().into_owned();
    let out = Command::new(env!("CARGO_BIN_EXE_crown"))
        .args(["match", "--variant", variant, "--engine", "name=p1", &python, &script])
        .args(["proto=hub", "--engine", "name=p2", &python, &script, "proto=hub"])
        .args(["--each", "tc=20+0.2"])
        .args(["--games", "2", "--rounds", "2", "--repeat", "--maxmoves", "80", "--pgnout", &pdn])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("Finished match: 4 games"), "{text}");
    let line = text.lines().find(|l| l.starts_with("Games by termination")).unwrap();
    assert!(!line.contains("rules infraction") && !line.contains("abandoned"), "{text}");
    let pdn_text = std::fs::read_to_string(&pdn).unwrap();
    let games = parse_games(&pdn_text);
    assert_eq!(games.len(), 4);
    let v = Variant::parse(variant).unwrap();
    for game in &games {
        let replay: Result<usize, String> =
            crown::for_variant!(v, G => realise::<G>(game, v, None).map(|o| o.moves.len()));
        assert_eq!(replay.unwrap(), game.moves.len());
    }
}

#[test]
fn hub_match_international() {
    hub_match("international");
}

#[test]
fn hub_match_russian() {
    hub_match("russian");
}

#[test]
fn hub_match_brazilian() {
    hub_match("brazilian");
}
