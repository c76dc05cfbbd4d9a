//! The verified tricky international positions
//! (`tests/data/draughts_tricky_positions_verified.txt`): the exact set of
//! legal moves of each, in the file's Scan notation (quiet `31-27`, captures
//! `from x to x captured...` with the captured squares ascending), and the
//! promotion checks at the end of the file (position after the only move).

use crown::draughts::{notation, rules::InternationalRules, International};
use crown::game::{Game, Variant};

fn data() -> String {
    let path =
        format!("{}/tests/data/draughts_tricky_positions_verified.txt", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).expect("tricky positions file")
}

#[test]
fn tricky_positions_exact_move_sets() {
    let text = data();
    let mut fen: Option<String> = None;
    let mut checked = 0;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("FEN ") {
            fen = Some(rest.trim().to_string());
        } else if let Some(rest) = line.trim().strip_prefix("scan31 n=") {
            let fen = fen.take().expect("FEN before scan31 line");
            let (count, moves) = rest.split_once(':').expect("n=K: moves");
            let mut expected: Vec<String> = moves.split_whitespace().map(String::from).collect();
            assert_eq!(expected.len(), count.parse::<usize>().expect("count"));
            expected.sort();
            let pos = International::from_fen(&fen, Variant::International).expect("fen");
            let mut list = <International as Game>::MoveList::default();
            pos.generate(&mut list);
            let mut ours: Vec<String> =
                list.iter().map(|&m| notation::hub_text::<InternationalRules>(m)).collect();
            ours.sort();
            assert_eq!(ours, expected, "moves of {fen}");
            checked += 1;
        }
    }
    assert_eq!(checked, 14);
}

#[test]
fn tricky_promotion_checks() {
    let text = data();
    let mut checked = 0;
    for line in text.lines() {
        let parts: Vec<&str> = line.split("->").map(str::trim).collect();
        if parts.len() != 3 {
            continue;
        }
        let pos = International::from_fen(parts[0], Variant::International).expect("fen");
        let mv = pos.parse_move(parts[1]).expect("move in py-draughts path form");
        let mut after = pos;
        after.play(mv);
        let want = parts[2].trim_start_matches("[FEN \"").trim_end_matches("\"]");
        assert_eq!(after.to_fen(), want, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 2);
}
