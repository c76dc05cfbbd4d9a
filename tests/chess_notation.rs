//! UCI move text round trips for every legal move at the root and one ply
//! deep of every suite position, in standard and Chess960 text modes, plus
//! the typed errors of the move parser.

mod chess_support;

use crown::chess::{MoveError, MoveList, Position};
use crown::game::{Game, Variant};

/// Every legal move's text parses back to the move; castling also parses
/// from king-takes-rook text in standard mode.
fn check_all_moves(pos: &Position, name: &str) -> usize {
    let mut list = MoveList::default();
    pos.generate(&mut list);
    for &mv in list.iter() {
        let text = pos.move_text(mv);
        assert_eq!(pos.parse_move(&text), Ok(mv), "{name}: {text} in {}", pos.to_fen());
        assert_eq!(Position::find_move(pos, Position::move_key(mv)), Some(mv));
        if mv.is_castling() {
            let king_takes_rook = format!("{}{}", mv.from(), mv.to());
            assert_eq!(pos.parse_move(&king_takes_rook), Ok(mv), "{name}");
            if pos.variant() == Variant::Chess960 {
                assert_eq!(text, king_takes_rook);
            } else {
                assert_ne!(text, king_takes_rook);
            }
        }
    }
    list.len()
}

fn check_tree(pos: &Position, name: &str) -> usize {
    let mut list = MoveList::default();
    pos.generate(&mut list);
    let mut checked = check_all_moves(pos, name);
    for &mv in list.iter() {
        let mut child = pos.clone();
        child.play(mv);
        checked += check_all_moves(&child, name);
    }
    checked
}

#[test]
fn standard_positions_in_both_modes() {
    let mut checked = 0;
    for record in chess_support::standard() {
        let pos = Position::from_fen(&record.fen, Variant::Chess).expect("suite FEN");
        checked += check_tree(&pos, &record.name);
        let mut frc = pos.clone();
        frc.set_chess960(true);
        checked += check_tree(&frc, &record.name);
    }
    assert!(checked > 70_000, "{checked}");
}

#[test]
fn chess960_positions() {
    let mut checked = 0;
    for record in chess_support::fischer() {
        let pos = Position::from_fen(&record.fen, Variant::Chess960).expect("suite FEN");
        checked += check_tree(&pos, &record.name);
    }
    assert!(checked > 500_000, "{checked}");
}

#[test]
fn castling_text_by_mode() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let standard = Position::from_fen(fen, Variant::Chess).unwrap();
    let frc = Position::from_fen(fen, Variant::Chess960).unwrap();
    let short = standard.parse_move("e1g1").unwrap();
    assert!(short.is_castling());
    assert_eq!(standard.parse_move("e1h1"), Ok(short));
    assert_eq!(frc.parse_move("e1h1"), Ok(short));
    assert_eq!(frc.move_text(short), "e1h1");
    assert_eq!(standard.move_text(short), "e1g1");
    // In Chess960 mode e1g1 is not castling (and not legal).
    assert_eq!(frc.parse_move("e1g1"), Err(MoveError::Illegal));
    let long = standard.parse_move("e1c1").unwrap();
    assert_eq!(standard.parse_move("e1a1"), Ok(long));
    let mut after = standard.clone();
    after.play(long);
    assert_eq!(after.to_fen(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
    // Chess960: king on f1, rook on g1: castling puts them on g1 and f1.
    let swap = Position::from_fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", Variant::Chess960).unwrap();
    let mv = swap.parse_move("f1g1").unwrap();
    assert!(mv.is_castling());
    let mut after = swap.clone();
    after.play(mv);
    assert_eq!(after.to_fen(), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
}

#[test]
fn move_errors_are_typed() {
    let pos = Position::start(Variant::Chess);
    for bad in ["", "e2", "e2e", "e2e4qq", "i2i4", "e0e4", "e2e4x", "é2e4", "e2e4 junk", "💥💥"]
    {
        assert_eq!(pos.parse_move(bad), Err(MoveError::Syntax), "{bad:?}");
    }
    assert_eq!(pos.parse_move("e2e5"), Err(MoveError::Illegal));
    assert_eq!(pos.parse_move("e7e5"), Err(MoveError::Illegal));
    assert!(pos.parse_move(" e2e4 ").is_ok());
    let promo = Position::from_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", Variant::Chess).unwrap();
    assert_eq!(promo.parse_move("e7e8"), Err(MoveError::Promotion));
    assert_eq!(promo.parse_move("e7e8k"), Err(MoveError::Syntax));
    assert_eq!(promo.move_text(promo.parse_move("e7e8n").unwrap()), "e7e8n");
    assert_eq!(MoveError::Illegal.to_string(), "illegal move in this position");
}
