//! The international-board variants' own rules: perft 1-3 of the random
//! positions in `tests/data/draughts_variants_positions.txt` (Scan 3.1's
//! generator, chosen where each rule changes the count), and one test per
//! rule: the killer halt, the breakthrough win, the Frisian capture value
//! (and the largest capture counted by value), king limit and draw counts.

use crown::draughts::position::MoveList;
use crown::draughts::{notation, Breakthrough, Frisian, Frysk, Killer};
use crown::game::{Game, Outcome, Variant};
use crown::perft::perft;

fn counts<G: Game>(variant: Variant, fen: &str) -> Vec<u64> {
    let pos = G::from_fen(fen, variant).expect("fen");
    (1..=3).map(|d| perft(&pos, d)).collect()
}

#[test]
fn random_positions_of_every_variant() {
    let path = format!("{}/tests/data/draughts_variants_positions.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("positions file");
    let mut seen = std::collections::BTreeMap::<String, usize>::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let (name, fen) = (fields[0], fields[1]);
        let want: Vec<u64> =
            fields[2].split_whitespace().map(|n| n.parse().expect("count")).collect();
        let variant = Variant::parse(name).expect("variant");
        let got = match variant {
            Variant::Killer => counts::<Killer>(variant, fen),
            Variant::Breakthrough => counts::<Breakthrough>(variant, fen),
            Variant::Frisian => counts::<Frisian>(variant, fen),
            other => panic!("unexpected variant {other}"),
        };
        assert_eq!(got, want, "{name} {fen}");
        *seen.entry(name.to_string()).or_default() += 1;
    }
    assert_eq!(seen.values().sum::<usize>(), 75, "{seen:?}");
}

fn hub_moves<R: crown::draughts::rules::Rules>(pos: &crown::draughts::Position<R>) -> Vec<String> {
    let mut list = MoveList::default();
    pos.generate(&mut list);
    let mut out: Vec<String> = list.iter().map(|&m| notation::hub_text::<R>(m)).collect();
    out.sort();
    out
}

#[test]
fn killer_king_stops_behind_a_captured_king() {
    // White's king on 46 takes the black king on 37 along the long
    // diagonal: in international it may land on any of the seven squares
    // behind; the killer rule keeps it on 32, right behind the king. Taking
    // a man there leaves every landing square.
    let pos = Killer::from_fen("W:WK46:BK37,1", Variant::Killer).expect("fen");
    assert_eq!(hub_moves(&pos), ["46x32x37"]);
    let intl = crown::draughts::International::from_fen("W:WK46:BK37,1", Variant::International)
        .expect("fen");
    // 32, 28, 23, 19, 14, 10 and 5.
    assert_eq!(hub_moves(&intl).len(), 7);
    let pos = Killer::from_fen("W:WK46:B37,1", Variant::Killer).expect("fen");
    assert_eq!(hub_moves(&pos).len(), 7);
}

#[test]
fn breakthrough_first_king_wins() {
    // White's man on 6 crowns on 1: black then has no move and has lost.
    let pos = Breakthrough::from_fen("W:W6,50:B20,30", Variant::Breakthrough).expect("fen");
    let mv = pos.parse_move("6-1").expect("legal");
    let mut after = pos;
    after.play(mv);
    assert_eq!(hub_moves(&after), Vec::<String>::new());
    assert_eq!(after.outcome(&[]), Some(Outcome::Win(crown::game::Side::White)));
    // A position whose side to move owns a king is already over: refused.
    assert!(Breakthrough::from_fen("W:WK1,50:B20", Variant::Breakthrough).is_err());
}

#[test]
fn frisian_captures_by_value() {
    // A man jumps orthogonally: white 33 takes 31 (two cells left) or 23
    // (two rows up); the capture of the king on 23 is worth more.
    let pos = Frisian::from_fen("W:W33:B31,K23", Variant::Frisian).expect("fen");
    assert_eq!(hub_moves(&pos), ["33x13x23"]);
    // One king is worth more than one man, less than two: a king's capture
    // of one man beats a man's capture of one man, loses to two men.
    let pos = Frisian::from_fen("W:W33,K50:B28,44", Variant::Frisian).expect("fen");
    assert_eq!(hub_moves(&pos), ["50x39x44"]);
}

#[test]
fn frisian_three_kings_beat_five_men() {
    // The case where the references differ. The man on 45 can take three
    // kings (45x3: 35, 15 and 4, up, up, left), the man on 46 five men
    // (46x26: 36, 16, 7, 18, 27 round the left side). The rulebook (a king
    // is worth less than two men and n kings more than 2n - 1 men), Scan
    // 3.1 (64 a man, 126 a king) and dctl (2 a king minus one per king at
    // equal count) take the kings; pydraughts 0.6.7, valuing a king at 1.5
    // men, lists only 46x26 (4.5 < 5). Measured with
    // `Board(variant="frisian", fen=...).legal_moves()`: two routes of
    // 46x26 capturing 7, 16, 18, 27, 36.
    let pos =
        Frisian::from_fen("W:W45,46:B7,16,18,27,36,K4,K15,K35", Variant::Frisian).expect("fen");
    assert_eq!(hub_moves(&pos), ["45x3x4x15x35"]);
    // Without the kings the five men are the only capture.
    let pos = Frisian::from_fen("W:W45,46:B7,16,18,27,36", Variant::Frisian).expect("fen");
    assert_eq!(hub_moves(&pos), ["46x26x7x16x18x27x36"]);
}

#[test]
fn frisian_most_captured_follows_value() {
    // The man on 48 takes three men (42, 32, 22), found first; the man on
    // 50 then takes two kings (44, 34), worth more: the list keeps only the
    // kings' capture, and the count without a list must forget the three.
    let pos = Frisian::from_fen("W:W48,50:B22,32,42,K34,K44", Variant::Frisian).expect("fen");
    assert_eq!(hub_moves(&pos), ["50x30x34x44"]);
    assert_eq!(pos.most_captured(), 2);
    let pos =
        Frisian::from_fen("W:W45,46:B7,16,18,27,36,K4,K15,K35", Variant::Frisian).expect("fen");
    assert_eq!(pos.most_captured(), 3);
}

#[test]
fn frisian_king_limit() {
    // White has a man, so one king may move at most three times in a row
    // without capturing; then it must wait for another piece to move.
    let mut pos = Frisian::from_fen("W:WK50,36:BK1", Variant::Frisian).expect("fen");
    let king = |pos: &Frisian| {
        let mut list = MoveList::default();
        pos.generate(&mut list);
        list.iter().filter(|m| pos.kings() & (1u64 << m.from) != 0).count()
    };
    let plies = [("50-44", "1-7"), ("44-50", "7-1"), ("50-44", "1-7")];
    for (w, b) in plies {
        assert!(king(&pos) > 0);
        let mv = pos.parse_move(w).expect(w);
        pos.play(mv);
        let mv = pos.parse_move(b).expect(b);
        pos.play(mv);
    }
    assert_eq!(king(&pos), 0, "the king has moved three times");
    assert!(pos.parse_move("44-50").is_err());
    let mv = pos.parse_move("36-31").expect("man move");
    pos.play(mv);
    // Black has no man: its king is never limited (a fourth move in a row).
    let mv = pos.parse_move("7-1").expect("black king");
    pos.play(mv);
    assert!(king(&pos) > 0, "a man move frees the king");
    assert!(pos.parse_move("44-50").is_ok());
}

/// The ply at which a counting rule first draws along some line of quiet
/// moves (found by depth-first search), or `None` within `limit` plies.
fn quiet_draw_ply(pos: &Frisian, ply: u32, limit: u32) -> Option<u32> {
    if pos.rule_draw() {
        return Some(ply);
    }
    if ply == limit {
        return None;
    }
    let mut list = MoveList::default();
    pos.generate(&mut list);
    list.iter().filter(|m| !m.is_capture()).find_map(|&m| {
        let mut child = *pos;
        child.play(m);
        if child.has_capture() {
            return None;
        }
        quiet_draw_ply(&child, ply + 1, limit)
    })
}

#[test]
fn frisian_draw_counts() {
    // 2 kings v 1 king: 7 moves each; 1 king v 1 king: 2 moves each. (The
    // search finds the first line of quiet moves; every line of quiet moves
    // draws at the same ply. With flying kings capturing in eight
    // directions most such lines end in a capture: these placements leave
    // the lone king safe.)
    let draw = |fen: &str, limit| {
        let pos = Frisian::from_fen(fen, Variant::Frisian).expect("fen");
        quiet_draw_ply(&pos, 0, limit)
    };
    assert_eq!(draw("W:WK1,K2:BK5", 20), Some(14));
    assert_eq!(draw("W:WK1:BK5", 20), Some(4));
    // Frysk! is Frisian from its own start.
    let frysk = Frysk::start(Variant::Frysk);
    assert_eq!(frysk.to_fen(), "W:W46,47,48,49,50:B1,2,3,4,5");
}

#[test]
fn frisian_tail_keeps_the_king_count() {
    // A runner sends the position after the last irreversible move and the
    // moves since. While a king-limit count runs that position would lose
    // it, so Frisian counts the plies on: a man move with a count running
    // does not start a new tail (international: it does).
    let mut pos = Frisian::from_fen("W:WK50,36:B5,K1", Variant::Frisian).expect("fen");
    for text in ["50-44", "5-10"] {
        let mv = pos.parse_move(text).expect(text);
        pos.play(mv);
    }
    assert_eq!(pos.king_moves_in_a_row(crown::game::Side::White), 1);
    assert_eq!(pos.reversible_plies(), 2);
    let mv = pos.parse_move("36-31").expect("man move");
    pos.play(mv);
    assert_eq!(pos.reversible_plies(), 0, "both counts clear: a fresh start");
}
