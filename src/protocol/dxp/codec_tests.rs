//! Codec tests: round trips of every message type (all captured-square counts
//! 0..=20), the real traffic of the protocol note, and malformed input.

use super::message::*;
use crate::game::Side;

fn round_trip(m: &Message) -> String {
    let text = m.encode().expect("encodes");
    assert!(!text.is_empty() && text.len() <= MAX_LEN, "{text}");
    assert_eq!(Message::decode(text.as_bytes()).as_ref(), Ok(m), "{text}");
    text
}

#[test]
fn every_type_round_trips() {
    let start = "zzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww".to_string();
    let messages = [
        Message::GameReq(GameReq {
            name: "Scan 3.1".into(),
            follower: Side::Black,
            minutes: 1,
            moves: 75,
            setup: StartPosition::Initial,
        }),
        Message::GameReq(GameReq {
            name: "A name of exactly thirty-two ch.".into(),
            follower: Side::White,
            minutes: 999,
            moves: 0,
            setup: StartPosition::Position { to_move: Side::Black, squares: start },
        }),
        Message::GameAcc(GameAcc { name: "Crown".into(), code: AccCode::Accept }),
        Message::GameAcc(GameAcc { name: String::new(), code: AccCode::WrongVersion }),
        Message::GameAcc(GameAcc { name: "x".into(), code: AccCode::RefuseGame }),
        Message::GameAcc(GameAcc { name: "y".into(), code: AccCode::RefuseAll }),
        Message::GameEnd(GameEnd { reason: EndReason::Unknown, stop: false }),
        Message::GameEnd(GameEnd { reason: EndReason::ILose, stop: true }),
        Message::GameEnd(GameEnd { reason: EndReason::Draw, stop: false }),
        Message::GameEnd(GameEnd { reason: EndReason::IWin, stop: true }),
        Message::Chat("Hello".into()),
        Message::Chat("c".repeat(126)),
        Message::BackReq(BackReq { move_number: 1, to_move: Side::Black }),
        Message::BackReq(BackReq { move_number: 999, to_move: Side::White }),
        Message::BackAcc(BackCode::Accepted),
        Message::BackAcc(BackCode::NotSupported),
        Message::BackAcc(BackCode::Refused),
    ];
    for m in &messages {
        round_trip(m);
    }
    for n in 0..=MAX_CAPTURED {
        let captured: Vec<u8> = (0..n as u8).map(|i| 50 - i).collect();
        let m = Message::Move(MoveMsg { seconds: 9999, from: 1, to: 50, captured });
        assert_eq!(round_trip(&m).len(), 11 + 2 * n);
    }
}

#[test]
fn real_traffic_decodes() {
    let m = Message::decode(b"R01Scan 3.1                        Z001075A").unwrap();
    assert_eq!(
        m,
        Message::GameReq(GameReq {
            name: "Scan 3.1".into(),
            follower: Side::Black,
            minutes: 1,
            moves: 75,
            setup: StartPosition::Initial
        })
    );
    let text = "R01DXP Client                      Z001075BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    let Ok(Message::GameReq(r)) = Message::decode(text.as_bytes()) else { panic!("{text}") };
    assert_eq!(
        (r.name.as_str(), r.follower, r.minutes, r.moves),
        ("DXP Client", Side::Black, 1, 75)
    );
    assert!(
        matches!(r.setup, StartPosition::Position { to_move: Side::White, ref squares } if squares.starts_with("zzzz"))
    );
    assert_eq!(Message::GameReq(r).encode().unwrap(), text);
    assert_eq!(
        Message::decode(b"AScan 3.1                        0").unwrap(),
        Message::GameAcc(GameAcc { name: "Scan 3.1".into(), code: AccCode::Accept })
    );
    assert_eq!(
        Message::decode(b"M0001312700").unwrap(),
        Message::Move(MoveMsg { seconds: 1, from: 31, to: 27, captured: vec![] })
    );
    assert_eq!(
        Message::decode(b"M00001739022233").unwrap(),
        Message::Move(MoveMsg { seconds: 0, from: 17, to: 39, captured: vec![22, 33] })
    );
    assert_eq!(Message::decode(b"CHello").unwrap(), Message::Chat("Hello".into()));
    assert_eq!(
        Message::decode(b"B001Z").unwrap(),
        Message::BackReq(BackReq { move_number: 1, to_move: Side::Black })
    );
    assert_eq!(Message::decode(b"K0").unwrap(), Message::BackAcc(BackCode::Accepted));
    assert_eq!(
        Message::decode(b"E00").unwrap(),
        Message::GameEnd(GameEnd { reason: EndReason::Unknown, stop: false })
    );
    assert_eq!(
        Message::decode(b"E01").unwrap(),
        Message::GameEnd(GameEnd { reason: EndReason::Unknown, stop: true })
    );
}

#[test]
fn malformed_input_is_a_typed_error() {
    use CodecError::*;
    let cases: &[(&[u8], CodecError)] = &[
        (b"", Empty),
        (&[b'C'; 128], TooLong(128)),
        (b"C\x01", NotPrintable(1)),
        (b"Xyz", UnknownType('X')),
        (b"E0", Length { kind: 'E', expected: 3, found: 2 }),
        (b"E4", Length { kind: 'E', expected: 3, found: 2 }),
        (b"E40", Code("reason")),
        (b"E02", Code("stop code")),
        (b"K3", Code("back-acceptance code")),
        (b"K", Length { kind: 'K', expected: 2, found: 1 }),
        (b"B01Z", Length { kind: 'B', expected: 5, found: 4 }),
        (b"B0a1Z", Number("move number")),
        (b"B001X", Colour("side to move")),
        (b"M000131270", Length { kind: 'M', expected: 11, found: 10 }),
        (b"M00a1312700", Number("time")),
        (b"M0001512700", Square(51)),
        (b"M0001002700", Square(0)),
        (b"M00013127", Length { kind: 'M', expected: 11, found: 9 }),
        (b"M00011739022", Length { kind: 'M', expected: 15, found: 12 }),
        (b"M0001173921", Captures(21)),
        (b"M00011739012x", Number("captured")),
        (b"M00011739015 ", Number("captured")),
        (b"R02Scan 3.1                        Z001075A", Version(2)),
        (b"Rx1", Number("version")),
        (b"R01Scan", Length { kind: 'R', expected: 43, found: 7 }),
        (b"R01Scan 3.1                        X001075A", Colour("follower colour")),
        (b"R01Scan 3.1                        Z0a1075A", Number("minutes")),
        (b"R01Scan 3.1                        Z001075C", Setup),
        (
            b"R01Scan 3.1                        Z001075B",
            Length { kind: 'R', expected: 94, found: 43 },
        ),
        (b"AScan 3.1                        7", Code("acceptance code")),
        (b"AScan", Length { kind: 'A', expected: 34, found: 5 }),
    ];
    for (bytes, error) in cases {
        let got = Message::decode(bytes);
        assert_eq!(got.as_ref(), Err(error), "{}", String::from_utf8_lossy(bytes));
    }
    let mut board = b"R01DXP Client                      Z001075BW".to_vec();
    board.extend_from_slice(&[b'e'; 49]);
    board.push(b'q');
    assert_eq!(Message::decode(&board), Err(Board(49)));
}

#[test]
fn never_panics_on_any_short_input() {
    // Every prefix and single-byte mutation of valid messages decodes or errs.
    let samples: [&[u8]; 4] = [
        b"R01DXP Client                      Z001075BWzzzzzzzzzzzzzzzzzzzzeeeeeeeeeewwwwwwwwwwwwwwwwwwww",
        b"M00001739022233",
        b"AScan 3.1                        0",
        b"B001Z",
    ];
    for s in samples {
        for len in 0..=s.len() {
            let _ = Message::decode(&s[..len]);
        }
        for i in 0..s.len() {
            for b in [0u8, b'0', b'9', b'A', b'Z', b' ', 0xff] {
                let mut v = s.to_vec();
                v[i] = b;
                let _ = Message::decode(&v);
            }
        }
    }
}

#[test]
fn encode_refuses_values_that_do_not_fit() {
    let m = Message::Move(MoveMsg { seconds: 10_000, from: 1, to: 2, captured: vec![] });
    assert_eq!(m.encode(), Err(CodecError::Number("time")));
    let m = Message::Move(MoveMsg { seconds: 0, from: 51, to: 2, captured: vec![] });
    assert_eq!(m.encode(), Err(CodecError::Square(51)));
    let m = Message::Move(MoveMsg { seconds: 0, from: 1, to: 2, captured: vec![3; 21] });
    assert_eq!(m.encode(), Err(CodecError::Captures(21)));
    assert!(Message::Chat("c".repeat(127)).encode().is_err());
    // Long names are cut to 32 characters and non-printable ones replaced.
    let long = Message::GameAcc(GameAcc { name: "n\u{e9}".repeat(40), code: AccCode::Accept });
    assert_eq!(long.encode().unwrap().len(), 34);
}
