//! FEN reading and writing: round trips over every suite position, the
//! illegal-position checks, and a fuzz run that must never panic.

mod chess_support;

use crown::chess::{CastlingMode, FenError, IllegalPosition, Position, PositionError};
use crown::game::{Game, Variant};

#[test]
fn round_trip_over_suites() {
    for record in chess_support::all() {
        let pos = Position::from_fen(&record.fen, record.variant)
            .unwrap_or_else(|e| panic!("{}: {e}", record.name));
        let text = pos.to_fen();
        let again = Position::from_fen(&text, record.variant)
            .unwrap_or_else(|e| panic!("{}: rewritten {text}: {e}", record.name));
        assert_eq!(pos, again, "{}: {text}", record.name);
        assert_eq!(pos.hash(), again.hash(), "{}", record.name);
        assert_eq!(pos.hash(), pos.compute_key(), "{}", record.name);
        assert_eq!(again.to_fen(), text);
        // The other text mode's output reads back to the same position in
        // Chess960 mode (which reads KQkq, X-FEN and Shredder-FEN alike).
        let mut other = pos.clone();
        other.set_chess960(record.variant == Variant::Chess);
        let other_text = other.to_fen();
        let reread = Position::from_fen_mode(&other_text, CastlingMode::Chess960)
            .unwrap_or_else(|e| panic!("{}: {other_text}: {e}", record.name));
        assert_eq!(reread, pos, "{}: {other_text}", record.name);
    }
}

#[test]
fn castling_notations() {
    let start = Position::start(Variant::Chess);
    assert_eq!(start.to_fen(), crown::chess::START_FEN);
    let shredder = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1";
    let mixed = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KAhq - 0 1";
    for text in [shredder, mixed] {
        let pos = Position::from_fen(text, Variant::Chess).expect("valid");
        assert_eq!(pos, start);
        assert_eq!(pos.hash(), start.hash());
    }
    let in960 = Position::start(Variant::Chess960);
    assert_eq!(in960.to_fen(), shredder);
    assert_eq!(in960.variant(), Variant::Chess960);
    // X-FEN: K names the outermost rook on the king's right.
    let xfen = "1r2k1rr/8/8/8/8/8/8/RR2K1R1 w KQkq - 0 1";
    let pos = Position::from_fen(xfen, Variant::Chess960).expect("valid");
    assert_eq!(pos.to_fen(), "1r2k1rr/8/8/8/8/8/8/RR2K1R1 w GAhb - 0 1");
    let mut standard_text = pos.clone();
    standard_text.set_chess960(false);
    assert_eq!(standard_text.to_fen(), xfen);
    let ge = Position::from_fen("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w GAgb - 0 1", Variant::Chess960)
        .expect("valid");
    assert_eq!(ge.to_fen(), "1r2k1rr/8/8/8/8/8/8/RR2K1R1 w GAgb - 0 1");
    assert_ne!(ge.hash(), pos.hash());
}

#[test]
fn en_passant_square_only_when_capturable() {
    // No black pawn can take on e3: the square is dropped.
    let pos = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1", Variant::Chess).unwrap();
    assert_eq!(pos.en_passant(), None);
    let plain = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1", Variant::Chess).unwrap();
    assert_eq!(pos.hash(), plain.hash());
    // A capture that exists is kept.
    let pos = Position::from_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", Variant::Chess).unwrap();
    assert_eq!(pos.to_fen(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    // Horizontal pin: taking en passant would expose the king on a4.
    let pinned = Position::from_fen("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1", Variant::Chess).unwrap();
    assert_eq!(pinned.en_passant(), None);
}

fn illegal(text: &str) -> Option<IllegalPosition> {
    match Position::from_fen(text, Variant::Chess) {
        Err(PositionError::Illegal(kind)) => Some(kind),
        _ => None,
    }
}

#[test]
fn impossible_positions_are_rejected() {
    use IllegalPosition::*;
    let cases = [
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", MissingKing),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", MissingKing),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", TooManyKings),
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", PawnOnBackRank),
        ("4k2p/8/8/8/8/8/8/4K3 w - - 0 1", PawnOnBackRank),
        ("4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1", TooManyPieces),
        ("4k3/8/8/8/8/8/PPPPPPPP/RRRRKRRR w - - 0 1", TooManyPieces),
        ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", TooManyPieces),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", OpponentInCheck),
        ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", CastlingRights),
        ("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", CastlingRights),
        ("4k3/8/8/8/8/8/4K3/7R w K - 0 1", CastlingRights),
        ("4k3/8/8/8/8/8/8/4K1R1 w K - 0 1", CastlingRights),
        ("4k3/8/8/8/8/8/8/4KR1R w KF - 0 1", CastlingRights),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", EnPassant),
        ("4k3/8/8/4p3/8/8/8/4K3 w - e3 0 1", EnPassant),
        ("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", EnPassant),
    ];
    for (text, expected) in cases {
        assert_eq!(illegal(text), Some(expected), "{text}");
    }
    // Three checkers.
    assert_eq!(illegal("3rk3/8/8/8/8/2n1n3/8/3K4 w - - 0 1"), Some(TooManyCheckers));
    // Two checkers are fine (a discovered double check).
    assert!(Position::from_fen("4k3/8/8/8/8/2n1n3/8/3K4 w - - 0 1", Variant::Chess).is_ok());
    // Castling rights in Chess960 need not be on a/h, but in standard chess they must.
    let frc = "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1";
    assert!(Position::from_fen(frc, Variant::Chess960).is_ok());
    assert_eq!(illegal(frc), Some(CastlingRights));
    // Messages are fixed and readable.
    assert_eq!(
        PositionError::Illegal(MissingKing).to_string(),
        "illegal position: a side has no king"
    );
}

#[test]
fn syntax_errors_are_typed() {
    let fen = |t: &str| Position::from_fen(t, Variant::Chess);
    assert_eq!(fen("").unwrap_err(), PositionError::Fen(FenError::Empty));
    assert_eq!(fen("   ").unwrap_err(), PositionError::Fen(FenError::Empty));
    for bad in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
        "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
        "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1",
    ] {
        assert_eq!(fen(bad).unwrap_err(), PositionError::Fen(FenError::Board), "{bad}");
    }
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
    assert_eq!(fen(&format!("{start} x KQkq - 0 1")).unwrap_err(), FenError::Side.into());
    assert_eq!(fen(&format!("{start} w KQkx - 0 1")).unwrap_err(), FenError::Castling.into());
    assert_eq!(fen(&format!("{start} w KK - 0 1")).unwrap_err(), FenError::Castling.into());
    assert_eq!(fen(&format!("{start} w KQkq e9 0 1")).unwrap_err(), FenError::EnPassant.into());
    assert_eq!(fen(&format!("{start} w KQkq - -1 1")).unwrap_err(), FenError::Halfmove.into());
    assert_eq!(
        fen(&format!("{start} w KQkq - 0 99999999999999999999")).unwrap_err(),
        FenError::Fullmove.into()
    );
    assert_eq!(
        fen(&format!("{start} w KQkq - 0 1 extra")).unwrap_err(),
        FenError::TooManyFields.into()
    );
    // Huge but representable counters are fine and survive a move.
    let mut pos = fen(&format!("{start} b KQkq - 4294967295 4294967295")).unwrap();
    let mv = pos.parse_move("e7e5").unwrap();
    pos.play(mv);
    assert_eq!(pos.fullmove_number(), u32::MAX);
    assert_eq!(pos.halfmove_clock(), 0);
}

/// A small deterministic generator for the fuzz run (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        crown::rng::xorshift64(&mut self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const ALPHABET: &[&str] = &[
    "K",
    "Q",
    "R",
    "B",
    "N",
    "P",
    "k",
    "q",
    "r",
    "b",
    "n",
    "p",
    "1",
    "2",
    "7",
    "8",
    "9",
    "0",
    "/",
    " ",
    "-",
    "w",
    "b",
    "a",
    "h",
    "e3",
    "e6",
    "KQkq",
    "HAha",
    "é",
    "♔",
    "\u{0}",
    "\t",
    "99999999999999999999999",
    "-1",
    "+",
    "x",
    "\u{feff}",
    "中",
    "\n",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    match rng.below(6) {
        0 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars.truncate(at);
        }
        1 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars.remove(at);
        }
        2 => {
            let at = rng.below(chars.len() + 1);
            let insert = ALPHABET[rng.below(ALPHABET.len())];
            for (i, c) in insert.chars().enumerate() {
                chars.insert(at + i, c);
            }
        }
        3 if !chars.is_empty() => {
            let at = rng.below(chars.len());
            chars[at] = ALPHABET[rng.below(ALPHABET.len())].chars().next().unwrap_or('x');
        }
        4 => {
            // Replace one whole field.
            let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
            let at = rng.below(fields.len());
            fields[at] = ALPHABET[rng.below(ALPHABET.len())].to_string();
            return fields.join(" ");
        }
        _ => {
            let len = rng.below(40);
            return (0..len)
                .map(|_| char::from_u32(rng.below(0x3000) as u32).unwrap_or('?'))
                .collect();
        }
    }
    chars.into_iter().collect()
}

#[test]
fn fuzz_fen_and_move_parsers_never_panic() {
    let seeds: Vec<String> = chess_support::all().into_iter().map(|r| r.fen).step_by(7).collect();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut accepted = 0;
    let mut refused = 0;
    for i in 0..40_000 {
        let seed = &seeds[i % seeds.len()];
        let mut text = mutate(&mut rng, seed);
        if rng.below(3) == 0 {
            text = mutate(&mut rng, &text);
        }
        let variant = if i % 2 == 0 { Variant::Chess } else { Variant::Chess960 };
        match Position::from_fen(&text, variant) {
            Ok(pos) => {
                accepted += 1;
                // Whatever was accepted is a usable position.
                assert_eq!(pos.hash(), pos.compute_key(), "{text}");
                let again = Position::from_fen(&pos.to_fen(), variant).expect("own FEN reads back");
                assert_eq!(again, pos, "{text}");
                let mv_text = mutate(&mut rng, "e2e4q");
                let _ = pos.parse_move(&mv_text);
                let mut list = Default::default();
                pos.generate(&mut list);
                for &mv in list.iter() {
                    assert_eq!(pos.parse_move(&pos.move_text(mv)), Ok(mv));
                }
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    assert!(accepted > 1000 && refused > 1000, "accepted {accepted}, refused {refused}");
    // Raw bytes as (lossy) text into both parsers.
    let start = Position::start(Variant::Chess);
    for _ in 0..20_000 {
        let len = rng.below(12);
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        let text = String::from_utf8_lossy(&bytes);
        let _ = Position::from_fen(&text, Variant::Chess);
        assert!(start.parse_move(&text).is_err() || text.is_ascii());
    }
}
