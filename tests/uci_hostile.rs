//! A hostile transcript: every case of `tests/data/uci_hostile.txt` (the
//! vampirc-uci failure list, huge and negative numbers, unicode, binary
//! junk, a 100 kB line, moves after mate, impossible FENs, empty and
//! misused commands) sent to one `crown` process.
//!
//! After each case the test sends `stop` and `d` and checks what the case's
//! tag asks (refused with `info string error`, or accepted silently) and
//! that the position is still the one set before. At the end `isready`
//! still gets `readyok`, a normal search returns a legal move, the process
//! exits with status 0 and every line it printed was well formed.

mod uci_support;

use crown::game::{Game, Variant};
use uci_support::{after, best_move, Engine, START};

const BASE: &str = "position startpos moves e2e4 e7e5 g1f3";

/// One case of the data file.
struct Case {
    line: usize,
    tag: char,
    payload: Vec<u8>,
}

fn decode(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'x') {
            let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).expect("hex digits");
            out.push(u8::from_str_radix(hex, 16).expect("hex byte"));
            i += 4;
        } else if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b't') {
            out.push(b'\t');
            i += 2;
        } else if bytes[i] == b'\\' && bytes.get(i + 1) == Some(&b'r') {
            out.push(b'\r');
            i += 2;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/uci_hostile.txt");
    let text = std::fs::read_to_string(path).expect("read the hostile transcript");
    let mut cases = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        if let Some(rest) = raw.strip_prefix("@long ") {
            let (count, unit) = rest.split_once(' ').expect("@long N TEXT");
            let count: usize = count.parse().expect("@long count");
            let unit = format!("{unit} ");
            let payload: String = unit.chars().cycle().take(count).collect();
            cases.push(Case { line: n + 1, tag: 'E', payload: payload.into_bytes() });
            continue;
        }
        let mut chars = raw.chars();
        let tag = chars.next().unwrap();
        assert!("EOPA".contains(tag), "line {}: unknown tag in {raw:?}", n + 1);
        let payload = match chars.as_str() {
            "" => "",
            rest => rest.strip_prefix(' ').expect("a space after the tag"),
        };
        cases.push(Case { line: n + 1, tag, payload: decode(payload) });
    }
    cases
}

#[test]
fn hostile_transcript_changes_nothing_and_kills_nothing() {
    let cases = cases();
    assert!(cases.len() >= 60, "only {} cases", cases.len());
    let base = after(START, Variant::Chess, &["e2e4", "e7e5", "g1f3"]);
    let mut e = Engine::ready();
    e.send(BASE);
    assert_eq!(e.fen(), base.to_fen());
    let mut failures = Vec::new();
    for case in &cases {
        let shown = String::from_utf8_lossy(&case.payload).chars().take(60).collect::<String>();
        e.sent.push(format!("[case line {}] {shown}", case.line));
        e.send_bytes(&case.payload);
        e.send_bytes(b"\n");
        e.send("stop");
        e.send("d");
        let lines = e.until(|l| l.starts_with("Checkers:"));
        let fen = lines.iter().find_map(|l| l.strip_prefix("Fen: ")).unwrap().to_string();
        let errors = lines.iter().filter(|l| l.starts_with("info string error: ")).count();
        // Every search it started answers with a legal move.
        for (i, l) in lines.iter().enumerate() {
            if l.starts_with("bestmove") {
                best_move(&lines[..=i], &base);
            }
        }
        let ok = match case.tag {
            'E' => errors >= 1 && fen == base.to_fen(),
            'O' => errors == 0 && fen == base.to_fen(),
            'P' => errors == 0,
            _ => fen == base.to_fen(),
        };
        if !ok {
            failures.push(format!("line {} [{}] {shown:?}: {lines:?}", case.line, case.tag));
        }
        if case.tag == 'P' {
            e.send(BASE);
        }
    }
    assert!(failures.is_empty(), "{} cases failed:\n{}", failures.len(), failures.join("\n"));
    assert!(e.sync().is_empty(), "isready after the transcript");
    assert_eq!(e.fen(), base.to_fen());
    let lines = e.search("go depth 5");
    best_move(&lines, &base).expect("a legal move");
    let mut pos = base.clone();
    let mv = pos.parse_move(lines.last().unwrap().split_whitespace().nth(1).unwrap()).unwrap();
    pos.play(mv);
    e.quit();
}
