//! Rules beyond move counts: incremental keys against keys from scratch,
//! tactical generation, move keys, null moves, and game-end detection
//! (checkmate, stalemate, fifty-move rule, threefold repetition,
//! insufficient material).

mod chess_support;

use crown::chess::{attacks, MoveList, PieceKind, Position};
use crown::game::{DrawReason, Game, Outcome, Side, Variant};

/// xorshift64 ([`crown::rng::xorshift64`]): deterministic games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        (crown::rng::xorshift64(&mut self.0) % n.max(1) as u64) as usize
    }
}

/// Everything that must hold in every position reached by legal moves.
fn check_invariants(pos: &Position) {
    assert_eq!(pos.hash(), pos.compute_key(), "{}", pos.to_fen());
    let us = pos.side_to_move();
    let king = pos.king_square(us);
    let attackers = pos.attackers_to(king, pos.occupancy()) & pos.color(us.flip());
    assert_eq!(pos.checkers(), attackers, "{}", pos.to_fen());
    let mut all = MoveList::default();
    pos.generate(&mut all);
    assert_eq!(pos.count_legal(), all.len() as u64, "{}", pos.to_fen());
    let mut tactical = MoveList::default();
    pos.generate_tactical(&mut tactical);
    let expected: Vec<_> = if pos.in_check() {
        all.to_vec()
    } else {
        all.iter().copied().filter(|&mv| pos.is_tactical(mv)).collect()
    };
    let mut got = tactical.to_vec();
    let mut want = expected;
    got.sort_by_key(|m| m.bits());
    want.sort_by_key(|m| m.bits());
    assert_eq!(got, want, "{}", pos.to_fen());
    for &mv in all.iter() {
        assert!(Position::history_index(pos, mv) < Position::HISTORY_SIZE);
        assert_eq!(pos.find_move(Position::move_key(mv)), Some(mv));
        // Legality: after the move our king is not attacked.
        let mut child = pos.clone();
        child.play(mv);
        let our_king = child.king_square(us);
        assert!(
            !child.is_attacked(our_king, us.flip(), child.occupancy()),
            "{mv:?} {}",
            pos.to_fen()
        );
        let captured = pos.captured(mv);
        assert_eq!(captured.is_some(), pos.is_capture(mv));
        if let Some(kind) = captured {
            assert_ne!(kind, PieceKind::King);
            assert_eq!(child.color(us.flip()).count() + 1, pos.color(us.flip()).count(), "{mv:?}");
        }
    }
}

#[test]
fn random_playouts_keep_keys_and_invariants() {
    let records = chess_support::all();
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    let (mut plies, mut exact) = (0, 0);
    for game in 0..3000 {
        let record = &records[rng.below(records.len())];
        let mut pos = if game % 10 == 0 {
            Position::start(record.variant)
        } else {
            Position::from_fen(&record.fen, record.variant).expect("suite FEN")
        };
        for _ in 0..60 {
            check_invariants(&pos);
            let mut list = MoveList::default();
            pos.generate(&mut list);
            if list.is_empty() {
                break;
            }
            if !pos.in_check() && rng.below(20) == 0 {
                pos.play_null();
                assert_eq!(pos.hash(), pos.compute_key());
            }
            let mut list = MoveList::default();
            pos.generate(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            let (guess, rights) = (pos.key_after(mv), pos.castling_rights());
            pos.play(mv);
            plies += 1;
            // The prefetch key is exact for every move but those its
            // comment leaves out.
            let ordinary = !mv.is_castling()
                && !mv.is_en_passant()
                && mv.promotion_kind().is_none()
                && pos.en_passant().is_none()
                && pos.castling_rights() == rights;
            if ordinary {
                assert_eq!(guess, pos.hash(), "{mv:?} into {}", pos.to_fen());
                exact += 1;
            }
        }
    }
    assert!(plies > 100_000, "{plies}");
    assert!(exact > plies * 3 / 4, "{exact} of {plies}");
}

fn play_text(pos: &mut Position, moves: &str) -> Vec<u64> {
    let mut history = Vec::new();
    for text in moves.split_whitespace() {
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        history.push(pos.hash());
        pos.play(mv);
    }
    history
}

fn fen(text: &str) -> Position {
    Position::from_fen(text, Variant::Chess).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn checkmate_and_stalemate() {
    let mut pos = Position::start(Variant::Chess);
    let history = play_text(&mut pos, "f2f3 e7e5 g2g4 d8h4");
    assert!(pos.in_check());
    assert_eq!(pos.outcome(&history), Some(Outcome::Win(Side::Black)));
    let stalemate = fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(stalemate.outcome(&[]), Some(Outcome::Draw(DrawReason::Stalemate)));
    assert_eq!(Position::start(Variant::Chess).outcome(&[]), None);
}

#[test]
fn fifty_move_rule() {
    let drawn = fen("4k3/8/8/8/8/8/8/R3K3 b - - 100 80");
    assert_eq!(drawn.outcome(&[]), Some(Outcome::Draw(DrawReason::MoveRule)));
    let not_yet = fen("4k3/8/8/8/8/8/8/R3K3 b - - 99 80");
    assert_eq!(not_yet.outcome(&[]), None);
    // Checkmate on the hundredth ply wins.
    let mut mate = fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80");
    play_text(&mut mate, "a1a8");
    assert_eq!(mate.halfmove_clock(), 100);
    assert_eq!(mate.outcome(&[]), Some(Outcome::Win(Side::White)));
}

#[test]
fn threefold_repetition() {
    let mut pos = Position::start(Variant::Chess);
    let mut history = play_text(&mut pos, "g1f3 g8f6 f3g1 f6g8");
    assert_eq!(pos.outcome(&history), None, "second occurrence");
    history.extend(play_text(&mut pos, "g1f3 g8f6 f3g1 f6g8"));
    assert_eq!(pos.outcome(&history), Some(Outcome::Draw(DrawReason::Repetition)));
    // A pawn move in between resets the window.
    let mut pos = Position::start(Variant::Chess);
    let mut history = play_text(&mut pos, "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5");
    history.extend(play_text(&mut pos, "g1f3 g8f6 f3g1 f6g8"));
    assert_eq!(pos.outcome(&history), None);
    // An en-passant right that cannot be used does not make positions differ.
    let a = fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    let b = fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    assert_eq!(a.hash(), b.hash());
}

#[test]
fn insufficient_material() {
    for drawn in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
        "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
    ] {
        let outcome = fen(drawn).outcome(&[]);
        assert_eq!(outcome, Some(Outcome::Draw(DrawReason::InsufficientMaterial)), "{drawn}");
        assert!(fen(drawn).rule_draw());
    }
    for alive in [
        "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
        "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
        "4kb2/8/8/8/8/8/8/3BK3 w - - 0 1",
        "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        "4kn2/8/8/8/8/8/8/4KB2 w - - 0 1",
    ] {
        assert_eq!(fen(alive).outcome(&[]), None, "{alive}");
        assert!(!fen(alive).rule_draw());
    }
}

#[test]
fn public_queries() {
    let pos = fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let e5 = crown::chess::Square::parse("e5").unwrap();
    assert_eq!(pos.piece_on(e5).map(|p| p.kind), Some(PieceKind::Knight));
    assert_eq!(pos.pieces(Side::White, PieceKind::Pawn).count(), 8);
    assert_eq!(pos.king_square(Side::Black).to_string(), "e8");
    assert_eq!(attacks::knight(e5).count(), 8);
    let capture = pos.parse_move("e5f7").unwrap();
    assert_eq!(pos.captured(capture), Some(PieceKind::Pawn));
    assert!(pos.is_tactical(capture));
    let quiet = pos.parse_move("a2a3").unwrap();
    assert_eq!(pos.captured(quiet), None);
    assert!(!pos.is_tactical(quiet));
    let castle = pos.parse_move("e1g1").unwrap();
    assert_eq!(pos.captured(castle), None);
    assert!(!pos.is_capture(castle));
    let ep = fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let mv = ep.parse_move("e5d6").unwrap();
    assert!(mv.is_en_passant());
    assert_eq!(ep.captured(mv), Some(PieceKind::Pawn));
    let board = format!("{pos}");
    assert!(board.contains("Fen: r3k2r/"), "{board}");
    assert!(board.contains("Key: "));
}
