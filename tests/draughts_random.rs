//! Random games in every draughts variant, checking invariants after every
//! move: piece counts and the XOR identity of the move, the incremental key
//! against a recomputed one and against the one predicted before the move,
//! FEN / Hub / DXP position round trips, and the round trip of every legal
//! move through PDN text, Hub text, DXP fields and the TT move key, and the
//! largest capture counted without a list (`most_captured`) against the
//! list. Deterministic (fixed seeds); no panic anywhere.

use crown::draughts::fen::{parse_dxp, parse_hub, write_dxp, write_hub};
use crown::draughts::notation::{dxp_fields, hub_text, parse_dxp_fields};
use crown::draughts::position::{Move, MoveList};
use crown::draughts::rules::{self, Rules};
use crown::draughts::Position;
use crown::game::{Game, Variant};

/// xorshift64* ([`crown::rng::xorshift64_star`]): deterministic for tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        crown::rng::xorshift64_star(&mut self.0)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn same<R: Rules>(a: &Position<R>, b: &Position<R>) -> bool {
    a.white() == b.white()
        && a.black() == b.black()
        && a.kings() == b.kings()
        && a.side() == b.side()
}

fn check_position<R: Rules>(pos: &Position<R>, variant: Variant) {
    assert_eq!(pos.white() & pos.black(), 0);
    assert_eq!(pos.kings() & !(pos.white() | pos.black()), 0);
    assert_eq!(pos.key(), pos.compute_key(), "incremental key at {}", pos.to_fen());
    let fen = pos.to_fen();
    let back = Position::<R>::from_fen(&fen, variant).expect("own FEN reads back");
    assert!(same(&back, pos), "FEN round trip {fen}");
    // FEN holds no move history: the Frisian king-limit counts (part of
    // the key) start at zero when read back.
    let history = pos.king_moves_in_a_row(crown::game::Side::White)
        + pos.king_moves_in_a_row(crown::game::Side::Black);
    if history == 0 {
        assert_eq!(back.key(), pos.key());
    }
    let hub = write_hub(pos);
    assert!(same(&parse_hub::<R>(&hub).expect("own Hub reads back"), pos), "{hub}");
    let dxp = write_dxp(pos);
    assert!(same(&parse_dxp::<R>(&dxp).expect("own DXP reads back"), pos), "{dxp}");
}

fn check_moves<R: Rules>(pos: &Position<R>, list: &MoveList) {
    let count = pos.count_legal();
    assert_eq!(count, list.len() as u64, "count_legal at {}", pos.to_fen());
    let most = list.iter().map(|mv| mv.captured.count_ones()).max().unwrap_or(0);
    assert_eq!(pos.most_captured(), most, "most_captured at {}", pos.to_fen());
    for (i, &mv) in list.iter().enumerate() {
        assert!(!list[i + 1..].contains(&mv), "duplicate move at {}", pos.to_fen());
        let text = pos.move_text(mv);
        assert_eq!(pos.parse_move(&text), Ok(mv), "PDN {text} at {}", pos.to_fen());
        let hub = hub_text::<R>(mv);
        assert_eq!(pos.parse_move(&hub), Ok(mv), "Hub {hub} at {}", pos.to_fen());
        let (from, to, caps) = dxp_fields::<R>(mv);
        assert_eq!(parse_dxp_fields(pos, from, to, &caps), Ok(mv), "DXP at {}", pos.to_fen());
        let key = <Position<R> as Game>::move_key(mv);
        let found = pos.find_move(key).expect("key finds a move");
        assert_eq!(<Position<R> as Game>::move_key(found), key);
        assert!(pos.history_index(mv) < <Position<R> as Game>::HISTORY_SIZE);
    }
}

fn check_play<R: Rules>(before: &Position<R>, mv: Move, after: &Position<R>) {
    let (own0, opp0, own1, opp1) = if before.side() == crown::game::Side::White {
        (before.white(), before.black(), after.white(), after.black())
    } else {
        (before.black(), before.white(), after.black(), after.white())
    };
    let from_to = (1u64 << mv.from) ^ (1u64 << mv.to);
    assert_eq!(own0 ^ own1, from_to, "mover XOR");
    assert_eq!(opp0 ^ opp1, mv.captured, "captured XOR");
    assert_eq!(own1.count_ones(), own0.count_ones());
    assert_eq!(opp1.count_ones() + mv.captured.count_ones(), opp0.count_ones());
    assert_eq!(after.side(), before.side().flip());
    let was_king = before.kings() & (1u64 << mv.from) != 0;
    let is_king = after.kings() & (1u64 << mv.to) != 0;
    assert_eq!(is_king, was_king || mv.promotes);
    // The prefetch key is exact where no Frisian king-move count runs.
    let counts = |p: &Position<R>| {
        p.king_moves_in_a_row(crown::game::Side::White)
            + p.king_moves_in_a_row(crown::game::Side::Black)
    };
    if counts(before) + counts(after) == 0 {
        assert_eq!(before.key_after(mv), after.key(), "key_after at {}", before.to_fen());
    }
}

fn random_games<R: Rules>(games: usize, seed: u64) {
    let variant = R::VARIANT;
    let mut rng = Rng(seed);
    let mut plies = 0;
    for _ in 0..games {
        let mut pos = Position::<R>::start(variant);
        let mut history = Vec::new();
        for _ in 0..300 {
            check_position(&pos, variant);
            let mut list = MoveList::default();
            pos.generate(&mut list);
            check_moves(&pos, &list);
            if pos.outcome(&history).is_some() {
                break;
            }
            let mv = list[rng.below(list.len())];
            let before = pos;
            history.push(pos.hash());
            pos.play(mv);
            check_play(&before, mv, &pos);
            plies += 1;
        }
    }
    assert!(plies > games * 20, "games too short: {plies} plies");
}

const GAMES: usize = 1000;

#[test]
fn random_international() {
    random_games::<rules::InternationalRules>(GAMES, 1);
}

#[test]
fn random_brazilian() {
    random_games::<rules::BrazilianRules>(GAMES, 2);
}

#[test]
fn random_russian() {
    random_games::<rules::RussianRules>(GAMES, 3);
}

#[test]
fn random_english() {
    random_games::<rules::EnglishRules>(GAMES, 4);
}

#[test]
fn random_italian() {
    random_games::<rules::ItalianRules>(GAMES, 5);
}

#[test]
fn random_turkish() {
    random_games::<rules::TurkishRules>(GAMES, 6);
}

#[test]
fn random_antidraughts() {
    random_games::<rules::AntidraughtsRules>(GAMES, 7);
}

#[test]
fn random_killer() {
    random_games::<rules::KillerRules>(GAMES, 8);
}

#[test]
fn random_breakthrough() {
    random_games::<rules::BreakthroughRules>(GAMES, 9);
}

#[test]
fn random_frisian() {
    random_games::<rules::FrisianRules>(GAMES, 10);
}

#[test]
fn random_frysk() {
    random_games::<rules::FryskRules>(GAMES, 11);
}
