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
//!
//! Then the hostile timings of issue 84: a `stop` (or the end of input) at
//! once after `go` still plays the best move of a finished depth 1, and a
//! flood of refused `searchmoves` is reported before the search says
//! anything, never after its `bestmove`.

mod stress_support;
mod uci_support;

use crown::game::{Game, Variant};
use stress_support::hostile_cases;
use uci_support::{after, best_move, field, pv_lines, Engine, START};

const BASE: &str = "position startpos moves e2e4 e7e5 g1f3";

#[test]
fn hostile_transcript_changes_nothing_and_kills_nothing() {
    let cases = hostile_cases();
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

/// The answer ends a finished search: the last info line before `bestmove`
/// has searched nodes, a score a search produced, and the move played
/// first in its line.
fn searched_answer(lines: &[String], pos: &crown::chess::Position) -> (String, String) {
    let best = best_move(lines, pos).expect("a move");
    let last = pv_lines(lines).last().copied().expect("an info line").clone();
    let nodes: u64 = field(&last, "nodes").unwrap().parse().unwrap();
    assert!(nodes > 0, "no node searched: {lines:?}");
    assert_eq!(field(&last, "pv"), Some(best.as_str()), "{lines:?}");
    (best, last)
}

#[test]
fn stop_at_once_still_plays_a_finished_depth_one() {
    // Issue 84, item 1: Rd8 mates; `stop` right after `go` answered g1f1
    // with `score cp 0 nodes 0`.
    let fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    let pos = after(fen, Variant::Chess, &[]);
    let mut e = Engine::ready();
    e.send(&format!("position fen {fen}"));
    for _ in 0..3 {
        e.send("go infinite");
        let lines = e.search("stop");
        let (best, last) = searched_answer(&lines, &pos);
        assert_eq!(best, "d1d8", "{lines:?}");
        assert_eq!(field(&last, "mate"), Some("1"), "{last}");
    }
    // A `go` kept behind a running `go perft`, stopped by the same `stop`.
    e.send("position startpos");
    e.send("go perft 6");
    e.send("go depth 3");
    let lines = e.search("stop");
    searched_answer(&lines, &after(START, Variant::Chess, &[]));
    e.quit();
    // The end of input during the search.
    let mut e = Engine::ready();
    e.send(&format!("position fen {fen}"));
    e.send("go infinite");
    e.close_input();
    let lines = e.until(|l| l.starts_with("bestmove"));
    assert_eq!(searched_answer(&lines, &pos).0, "d1d8", "{lines:?}");
    e.quit();
}

#[test]
fn refused_searchmoves_are_reported_before_the_search() {
    // Issue 84, item 3: the error about e2e5 came after `bestmove`. A flood
    // of refused moves makes the old race certain: every error must come
    // before the first line of the search, and nothing after `bestmove`.
    let pos = after(START, Variant::Chess, &[]);
    let mut e = Engine::ready();
    for count in [1, 20_000] {
        let moves = vec!["e2e5"; count].join(" ");
        let lines = e.search(&format!("go searchmoves {moves} depth 3"));
        best_move(&lines, &pos).expect("a move");
        let errors: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with("info string error: searchmoves 'e2e5'"))
            .collect();
        assert_eq!(errors.len(), count, "{:?}", &lines[lines.len().saturating_sub(5)..]);
        assert_eq!(errors.last(), Some(&(count - 1)), "an error after the search began");
        assert!(e.sync().is_empty(), "lines after bestmove");
    }
    e.quit();
}
