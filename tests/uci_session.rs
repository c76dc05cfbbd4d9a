//! UCI sessions with the real `crown` binary over pipes: the handshake,
//! every command and option, searches of every kind, pondering, MultiPV,
//! Chess960 castling, the Stockfish extensions (`go perft`, `bench`, `d`,
//! `eval`), no-legal-move roots, and the answers issue 84 corrected
//! (`UCI_Chess960` switched under a position, bounded `go mate`, empty
//! text options, `crown bench` depth, one `Final evaluation`).
//!
//! Every session ends with [`Engine::quit`], which checks the exit status
//! and that every printed line was well formed; every `bestmove` is checked
//! legal with the crown library. Timeouts only catch hangs.

mod uci_support;

use crown::game::{Game, Variant};
use std::time::Duration;
use uci_support::{after, best_move, field, no_moves, pv_lines, Engine, START};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";

fn has_error(lines: &[String], needle: &str) -> bool {
    lines.iter().any(|l| l.starts_with("info string") && l.contains(needle))
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name Crown"), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    let option = |name: &str| {
        let prefix = format!("option name {name} type ");
        let found: Vec<_> = lines.iter().filter(|l| l.starts_with(&prefix)).collect();
        assert_eq!(found.len(), 1, "{name}: {lines:?}");
        found[0].clone()
    };
    let max = |line: &str| field(line, "max").and_then(|m| m.parse::<i64>().ok()).unwrap();
    let hash = option("Hash");
    assert!(hash.contains("type spin default 16 min 1"), "{hash}");
    assert!(max(&hash) >= 65536, "{hash}");
    let threads = option("Threads");
    assert!(threads.contains("type spin default 1 min 1"), "{threads}");
    assert!(max(&threads) >= 256, "{threads}");
    assert!(option("MultiPV").contains("type spin default 1 min 1"));
    assert_eq!(option("Ponder"), "option name Ponder type check default false");
    assert_eq!(option("UCI_Chess960"), "option name UCI_Chess960 type check default false");
    assert_eq!(option("UCI_ShowWDL"), "option name UCI_ShowWDL type check default false");
    assert!(option("Move Overhead").contains("type spin default"));
    assert_eq!(option("Clear Hash"), "option name Clear Hash type button");
    assert_eq!(e.sync(), Vec::<String>::new());
    e.quit();
}

#[test]
fn isready_is_answered_during_infinite_search() {
    let mut e = Engine::ready();
    e.send("position startpos moves e2e4");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    for _ in 0..3 {
        let before = e.sync();
        assert!(!before.iter().any(|l| l.starts_with("bestmove")), "{before:?}");
    }
    let lines = e.search("stop");
    best_move(&lines, &after(START, Variant::Chess, &["e2e4"])).expect("a move");
    e.quit();
}

#[test]
fn infinite_search_waits_for_stop_even_when_finished() {
    // A drawn ending and a mate in one finish every depth at once; the
    // search must still wait for `stop` before it answers.
    for fen in ["8/8/8/4k3/8/8/8/4K3 w - - 0 1", MATE_IN_ONE] {
        let mut e = Engine::ready();
        e.send(&format!("position fen {fen}"));
        e.send("go infinite");
        let early = e.drain(Duration::from_millis(1500));
        assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{fen}: {early:?}");
        let lines = e.search("stop");
        best_move(&lines, &after(fen, Variant::Chess, &[])).expect("a move");
        e.quit();
    }
}

#[test]
fn setoption_accepts_every_option() {
    let mut e = Engine::ready();
    for line in [
        "setoption name Hash value 32",
        "setoption name Threads value 2",
        "setoption name MultiPV value 2",
        "setoption name Ponder value true",
        "setoption name UCI_Chess960 value false",
        "setoption name UCI_ShowWDL value true",
        "setoption name Move Overhead value 30",
        "setoption name Clear Hash",
        "setoption name hash value 16",
    ] {
        e.send(line);
        assert_eq!(e.sync(), Vec::<String>::new(), "{line}");
    }
    let lines = e.search("go depth 4");
    let pvs = pv_lines(&lines);
    assert!(pvs.iter().any(|l| field(l, "multipv") == Some("2")), "{lines:?}");
    assert!(pvs.iter().all(|l| l.contains(" wdl ")), "{lines:?}");
    best_move(&lines, &after(START, Variant::Chess, &[]));
    e.quit();
}

#[test]
fn bad_setoption_is_refused_and_changes_nothing() {
    let mut e = Engine::ready();
    e.send("setoption name MultiPV value 2");
    e.send("setoption name UCI_ShowWDL value false");
    assert!(e.sync().is_empty());
    for (line, needle) in [
        ("setoption name Hash value 0", "Hash"),
        ("setoption name Hash value -5", "Hash"),
        ("setoption name Hash value 99999999999999999999999", "Hash"),
        ("setoption name Hash value lots", "Hash"),
        ("setoption name Threads value 0", "Threads"),
        ("setoption name Threads value 100000", "Threads"),
        ("setoption name MultiPV value 0", "MultiPV"),
        ("setoption name MultiPV value 1000", "MultiPV"),
        ("setoption name MultiPV value 1.5", "MultiPV"),
        ("setoption name Ponder value yes", "Ponder"),
        ("setoption name UCI_Chess960 value 1", "UCI_Chess960"),
        ("setoption name UCI_ShowWDL value maybe", "UCI_ShowWDL"),
        ("setoption name Move Overhead value -1", "Move Overhead"),
        ("setoption name Move Overhead value 1e3", "Move Overhead"),
        ("setoption name Style value aggressive", "Style"),
        ("setoption name Hash", "Hash"),
        ("setoption name Hash value", "Hash"),
        ("setoption name", "setoption"),
        ("setoption Hash 5", "setoption"),
        ("setoption", "setoption"),
    ] {
        e.send(line);
        let lines = e.sync();
        assert_eq!(lines.len(), 1, "{line}: {lines:?}");
        assert!(has_error(&lines, needle), "{line}: {lines:?}");
    }
    let lines = e.search("go depth 4");
    let pvs = pv_lines(&lines);
    assert!(pvs.iter().any(|l| field(l, "multipv") == Some("2")), "{lines:?}");
    assert!(!pvs.iter().any(|l| field(l, "multipv") == Some("3")), "{lines:?}");
    assert!(!pvs.iter().any(|l| l.contains(" wdl ")), "{lines:?}");
    // UCI_Chess960 stayed off: castling is printed king-two-squares.
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let perft = e.search_perft(1);
    assert!(perft.contains(&"e1g1: 1".to_string()), "{perft:?}");
    e.quit();
}

trait Perft {
    fn search_perft(&mut self, depth: u32) -> Vec<String>;
}

impl Perft for Engine {
    fn search_perft(&mut self, depth: u32) -> Vec<String> {
        self.send(&format!("go perft {depth}"));
        self.until(|l| l.starts_with("Nodes searched:"))
    }
}

#[test]
fn ucinewgame_and_positions() {
    let mut e = Engine::ready();
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3");
    assert_eq!(e.fen(), after(START, Variant::Chess, &["e2e4", "e7e5", "g1f3"]).to_fen());
    e.send("position fen 8/8/8/4k3/8/8/3P4/4K3 w - - 0 1 moves d2d4 e5d6");
    let want = after("8/8/8/4k3/8/8/3P4/4K3 w - - 0 1", Variant::Chess, &["d2d4", "e5d6"]);
    assert_eq!(e.fen(), want.to_fen());
    // Four-field FEN and extra whitespace.
    e.send("position  fen  8/8/8/4k3/8/8/3P4/4K3  b  -  -  moves  e5d5");
    assert_eq!(
        e.fen(),
        after("8/8/8/4k3/8/8/3P4/4K3 b - - 0 1", Variant::Chess, &["e5d5"]).to_fen()
    );
    e.send("ucinewgame");
    e.send("position startpos");
    assert_eq!(e.fen(), START);
    let lines = e.search("go depth 3");
    best_move(&lines, &after(START, Variant::Chess, &[])).expect("a move");
    e.quit();
}

#[test]
fn bad_move_in_position_keeps_the_old_position() {
    let mut e = Engine::ready();
    e.send("position startpos moves e2e4");
    let kept = after(START, Variant::Chess, &["e2e4"]).to_fen();
    assert_eq!(e.fen(), kept);
    for (line, named) in [
        ("position startpos moves e2e4 e7e5 e1e3", "e1e3"),
        ("position startpos moves e2e4 e7e5 zz9", "zz9"),
        // After a null move it is White's turn again: e7e5 is illegal.
        ("position startpos moves e2e4 0000 e7e5", "e7e5"),
        ("position startpos moves e2e5", "e2e5"),
        ("position startpos moves e7e5", "e7e5"),
        (
            "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 f3g5 d7d5 g5f7 d8e7 f7h8 e7e2",
            "e7e2",
        ),
        ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "FEN"),
        ("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "FEN"),
        ("position fen", "FEN"),
        ("position", "position"),
        ("position e2e4", "position"),
    ] {
        e.send(line);
        let lines = e.sync();
        assert!(
            lines.iter().any(|l| l.starts_with("info string error: ") && l.contains(named)),
            "{line}: {lines:?}"
        );
        assert_eq!(e.fen(), kept, "{line}");
    }
    let lines = e.search("go depth 3");
    best_move(&lines, &after(START, Variant::Chess, &["e2e4"])).expect("a move");
    e.quit();
}

#[test]
fn go_with_every_limit() {
    let mut e = Engine::ready();
    e.send("position startpos moves d2d4 d7d5");
    let pos = after(START, Variant::Chess, &["d2d4", "d7d5"]);
    let lines = e.search("go depth 5");
    let depths: Vec<_> = pv_lines(&lines).iter().filter_map(|l| field(l, "depth")).collect();
    assert_eq!(depths.last(), Some(&"5"), "{lines:?}");
    best_move(&lines, &pos).expect("depth");
    best_move(&e.search("go nodes 20000"), &pos).expect("nodes");
    best_move(&e.search("go movetime 200"), &pos).expect("movetime");
    best_move(&e.search("go wtime 3000 btime 3000 winc 20 binc 20"), &pos).expect("clock");
    best_move(&e.search("go wtime 5000 btime 4000 movestogo 5"), &pos).expect("movestogo");
    best_move(&e.search("go btime 50 wtime 50"), &pos).expect("tiny clock");
    best_move(&e.search("go wtime 0 btime 0"), &pos).expect("empty clock");
    best_move(&e.search("go wtime -100 btime -100 winc 0 binc 0"), &pos).expect("negative");
    best_move(&e.search("go depth 1"), &pos).expect("depth 1");
    best_move(&e.search("go nodes 1"), &pos).expect("nodes 1");
    best_move(&e.search("go movetime 0"), &pos).expect("movetime 0");
    e.send("position fen 8/8/8/8/8/8/5k2/7K b - - 0 1");
    let lone = after("8/8/8/8/8/8/5k2/7K b - - 0 1", Variant::Chess, &[]);
    best_move(&e.search("go depth 2"), &lone).expect("kings");
    e.quit();
}

#[test]
fn go_mate_reports_mate_scores() {
    let mut e = Engine::ready();
    e.send(&format!("position fen {MATE_IN_ONE}"));
    let pos = after(MATE_IN_ONE, Variant::Chess, &[]);
    for go in ["go depth 6", "go mate 1", "go movetime 300"] {
        let lines = e.search(go);
        assert_eq!(best_move(&lines, &pos).as_deref(), Some("d1d8"), "{go}: {lines:?}");
        let last = pv_lines(&lines).last().copied().expect("an info line").clone();
        assert_eq!(field(&last, "mate"), Some("1"), "{go}: {last}");
    }
    // Mate in two (a classic back-rank pattern) and the losing side.
    let fen = "6k1/5ppp/8/8/8/8/1q3PPP/R2R2K1 w - - 0 1";
    e.send(&format!("position fen {fen}"));
    let lines = e.search("go mate 2");
    best_move(&lines, &after(fen, Variant::Chess, &[])).expect("a move");
    let after_mate = after(MATE_IN_ONE, Variant::Chess, &["d1d8"]);
    e.send(&format!("position fen {MATE_IN_ONE} moves d1d8"));
    assert!(no_moves(&after_mate));
    let lines = e.search("go depth 4");
    assert_eq!(lines.last().unwrap(), "bestmove (none)", "{lines:?}");
    // The side to move is mated next move: a negative mate score.
    let losing = "k7/8/1K6/8/8/8/8/7R b - - 0 1";
    e.send(&format!("position fen {losing}"));
    let lines = e.search("go depth 6");
    let pos = after(losing, Variant::Chess, &[]);
    assert_eq!(best_move(&lines, &pos).as_deref(), Some("a8b8"));
    let last = pv_lines(&lines).last().copied().expect("an info line").clone();
    assert_eq!(field(&last, "mate"), Some("-1"), "{last}");
    e.quit();
}

#[test]
fn no_legal_move_gives_bestmove_none() {
    let mut e = Engine::ready();
    for fen in [
        // Fool's mate: White is checkmated.
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
        // Black is stalemated.
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        assert!(no_moves(&after(fen, Variant::Chess, &[])), "{fen}");
        e.send(&format!("position fen {fen}"));
        for go in ["go depth 5", "go wtime 1000 btime 1000", "go movetime 50", "go nodes 100"] {
            let lines = e.search(go);
            assert_eq!(lines.last().unwrap(), "bestmove (none)", "{fen} {go}: {lines:?}");
        }
        e.send("go infinite");
        assert!(e.drain(Duration::from_millis(300)).iter().all(|l| !l.starts_with("bestmove")));
        let lines = e.search("stop");
        assert_eq!(lines.last().unwrap(), "bestmove (none)", "{fen}: {lines:?}");
    }
    e.quit();
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::ready();
    e.send("position startpos");
    let pos = after(START, Variant::Chess, &[]);
    for (go, allowed) in [
        ("go searchmoves a2a3 h2h3 depth 5", &["a2a3", "h2h3"][..]),
        ("go depth 4 searchmoves b1a3", &["b1a3"][..]),
        ("go searchmoves g2g4 f2f3 movetime 200", &["g2g4", "f2f3"][..]),
    ] {
        let lines = e.search(go);
        let best = best_move(&lines, &pos).expect("a move");
        assert!(allowed.contains(&best.as_str()), "{go}: {best}");
        for l in pv_lines(&lines) {
            let first = field(l, "pv").unwrap();
            assert!(allowed.contains(&first), "{go}: {l}");
        }
    }
    e.send("go searchmoves a2a3 infinite");
    std::thread::sleep(Duration::from_millis(200));
    let lines = e.search("stop");
    assert_eq!(best_move(&lines, &pos).as_deref(), Some("a2a3"));
    e.quit();
}

#[test]
fn stop_during_infinite_search() {
    let mut e = Engine::ready();
    e.send("setoption name Threads value 2");
    e.send(&format!("position fen {KIWIPETE}"));
    let pos = after(KIWIPETE, Variant::Chess, &[]);
    for wait in [0, 10, 200] {
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(wait));
        let lines = e.search("stop");
        best_move(&lines, &pos).expect("a move");
        let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert_eq!(bestmoves, 1);
    }
    // A stop with nothing running is harmless and prints nothing.
    e.send("stop");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn ponder_then_ponderhit() {
    let mut e = Engine::ready();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    let pos = after(START, Variant::Chess, &["e2e4", "e7e5"]);
    e.send("go ponder wtime 2000 btime 2000 winc 10 binc 10");
    // While pondering nothing is decided, however long it takes.
    let early = e.drain(Duration::from_millis(1000));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    let lines = e.search("ponderhit");
    best_move(&lines, &pos).expect("a move");
    // A ponder search that is stopped answers too.
    e.send("go ponder wtime 60000 btime 60000");
    std::thread::sleep(Duration::from_millis(200));
    let lines = e.search("stop");
    best_move(&lines, &pos).expect("a move");
    // ponderhit with a fixed depth.
    e.send("go ponder depth 3");
    let early = e.drain(Duration::from_millis(500));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    best_move(&e.search("ponderhit"), &pos).expect("a move");
    e.quit();
}

#[test]
fn multipv_three_distinct_lines_per_depth() {
    let mut e = Engine::ready();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let lines = e.search("go depth 6");
    best_move(&lines, &after(START, Variant::Chess, &[])).expect("a move");
    for depth in 1..=6 {
        let depth = depth.to_string();
        let at: Vec<_> = pv_lines(&lines)
            .into_iter()
            .filter(|l| field(l, "depth") == Some(depth.as_str()) && !l.contains("bound"))
            .collect();
        for k in ["1", "2", "3"] {
            assert!(at.iter().any(|l| field(l, "multipv") == Some(k)), "depth {depth} pv {k}");
        }
        let last: Vec<_> = ["1", "2", "3"]
            .iter()
            .map(|k| {
                let l = at.iter().rev().find(|l| field(l, "multipv") == Some(k)).unwrap();
                field(l, "pv").unwrap().to_string()
            })
            .collect();
        assert!(last[0] != last[1] && last[1] != last[2] && last[0] != last[2], "{last:?}");
    }
    // More lines than legal moves: as many as there are.
    e.send("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1");
    let lines = e.search("go depth 3");
    assert!(pv_lines(&lines).iter().all(|l| field(l, "multipv") != Some("4")));
    e.quit();
}

#[test]
fn chess960_castling_in_and_out() {
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut e = Engine::ready();
    // Standard notation first.
    e.send(&format!("position fen {castle} moves e1g1"));
    assert_eq!(e.fen(), after(castle, Variant::Chess, &["e1g1"]).to_fen());
    e.send(&format!("position fen {castle}"));
    let lines = e.search("go searchmoves e1c1 depth 2");
    assert_eq!(best_move(&lines, &after(castle, Variant::Chess, &[])).as_deref(), Some("e1c1"));
    // Chess960: king takes rook, in and out, and Shredder castling fields.
    e.send("setoption name UCI_Chess960 value true");
    let shredder = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1";
    e.send(&format!("position fen {shredder} moves e1h1 e8a8"));
    assert_eq!(e.fen(), after(shredder, Variant::Chess960, &["e1h1", "e8a8"]).to_fen());
    e.send(&format!("position fen {shredder}"));
    let perft = e.search_perft(1);
    assert!(perft.contains(&"e1h1: 1".to_string()), "{perft:?}");
    assert!(perft.contains(&"e1a1: 1".to_string()), "{perft:?}");
    assert!(!perft.iter().any(|l| l.starts_with("e1g1")), "{perft:?}");
    let pos = after(shredder, Variant::Chess960, &[]);
    let lines = e.search("go searchmoves e1h1 depth 3");
    assert_eq!(best_move(&lines, &pos).as_deref(), Some("e1h1"));
    // Rooks on b and g: castling short is the king taking the g1 rook
    // (`e1g1`, which in standard notation would be a king move of two).
    let inner = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1";
    e.send(&format!("position fen {inner}"));
    let perft = e.search_perft(1);
    assert!(perft.contains(&"e1g1: 1".to_string()), "{perft:?}");
    assert!(perft.contains(&"e1b1: 1".to_string()), "{perft:?}");
    e.send(&format!("position fen {inner} moves e1g1 e8b8"));
    let moved = after(inner, Variant::Chess960, &["e1g1", "e8b8"]);
    assert_eq!(e.fen(), moved.to_fen());
    assert!(moved.to_fen().starts_with("2kr2r1/") && moved.to_fen().contains("/1R3RK1 w"));
    for _ in 0..3 {
        best_move(&e.search("go depth 5"), &moved).expect("a move");
    }
    // Switching back reprints castling the standard way, also when the
    // position at hand keeps Chess960 castling rights that no standard FEN
    // can hold (here rooks on b and g): the mode is the option's alone.
    e.send(&format!("position fen {inner}"));
    e.send("setoption name UCI_Chess960 value false");
    e.send(&format!("position fen {castle}"));
    let perft = e.search_perft(1);
    assert!(perft.contains(&"e1g1: 1".to_string()), "{perft:?}");
    assert!(!perft.iter().any(|l| l.starts_with("e1h1")), "{perft:?}");
    e.quit();
}

#[test]
fn hash_and_threads_change_between_games() {
    let mut e = Engine::ready();
    let pos = after(KIWIPETE, Variant::Chess, &[]);
    for (hash, threads) in [(64, 2), (1, 1), (256, 3), (16, 1), (2, 4)] {
        e.send(&format!("setoption name Hash value {hash}"));
        e.send(&format!("setoption name Threads value {threads}"));
        e.send("ucinewgame");
        assert!(e.sync().is_empty(), "Hash {hash} Threads {threads}");
        e.send(&format!("position fen {KIWIPETE}"));
        best_move(&e.search("go depth 5"), &pos).expect("a move");
        best_move(&e.search("go movetime 100"), &pos).expect("a move");
        e.send("setoption name Clear Hash");
    }
    e.quit();
}

#[test]
fn perft_in_stockfish_format() {
    let mut e = Engine::ready();
    e.send("position startpos");
    let lines = e.search_perft(3);
    let moves: Vec<_> =
        lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).collect();
    assert_eq!(moves.len(), 20, "{lines:?}");
    let sum: u64 =
        moves.iter().map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 8902);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 8902");
    e.send(&format!("position fen {KIWIPETE}"));
    assert_eq!(e.search_perft(2).last().unwrap(), "Nodes searched: 2039");
    let root: Vec<_> = e.search_perft(0).into_iter().filter(|l| !l.starts_with("info")).collect();
    assert_eq!(root, vec!["".to_string(), "Nodes searched: 1".to_string()]);
    e.quit();
}

#[test]
fn bench_d_and_eval() {
    let mut e = Engine::ready();
    let mut totals = Vec::new();
    for _ in 0..2 {
        e.send("bench 5");
        let lines = e.until(|l| {
            let t: Vec<&str> = l.split_whitespace().collect();
            t.len() == 4 && t[1] == "nodes" && t[3] == "nps"
        });
        totals.push(lines.last().unwrap().split_whitespace().next().unwrap().to_string());
    }
    assert_eq!(totals[0], totals[1], "bench node count must be deterministic");
    assert!(totals[0].parse::<u64>().unwrap() > 0);
    e.send("position startpos moves e2e4");
    e.send("d");
    let board = e.until(|l| l.starts_with("Checkers:"));
    assert!(board.iter().any(|l| l.contains("| 8")), "{board:?}");
    assert!(board.iter().any(|l| l.starts_with("Fen: ")), "{board:?}");
    e.send("eval");
    let eval = e.until(|l| l.starts_with("Final evaluation"));
    assert!(eval.last().unwrap().contains("(white side)"));
    // The engine still searches after all of it.
    best_move(&e.search("go depth 3"), &after(START, Variant::Chess, &["e2e4"])).expect("move");
    e.quit();
}

#[test]
fn a_game_of_short_searches_is_legal_throughout() {
    let mut e = Engine::ready();
    let mut moves: Vec<String> = Vec::new();
    let mut pos = after(START, Variant::Chess, &[]);
    for ply in 0..40 {
        let cmd = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        e.send(&cmd);
        let go =
            if ply % 2 == 0 { "go wtime 2000 btime 2000 winc 20 binc 20" } else { "go nodes 3000" };
        let Some(mv) = best_move(&e.search(go), &pos) else {
            assert!(no_moves(&pos));
            break;
        };
        let parsed = pos.parse_move(&mv).unwrap();
        pos.play(parsed);
        moves.push(mv);
        if pos.outcome(&[]).is_some() {
            break;
        }
    }
    e.quit();
}

#[test]
fn eval_file_loads_a_network_and_refuses_a_foreign_file() {
    let dir = std::env::temp_dir().join(format!("crown-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let foreign = dir.join("foreign.nnue");
    std::fs::write(&foreign, b"not a network at all").unwrap();
    let mut e = Engine::ready();
    e.send("position startpos moves e2e4");
    // The default evaluation is the embedded network when the build says so.
    e.send("eval");
    let eval = e.until(|l| l.starts_with("Final evaluation"));
    assert_eq!(
        eval.iter().any(|l| l.starts_with("network (")),
        crown::eval::nnue::NETWORK_BY_DEFAULT,
        "{eval:?}"
    );
    e.send("setoption name EvalFile value <none>");
    let lines = e.sync();
    assert!(lines.iter().any(|l| l.contains("hand-set evaluation")), "{lines:?}");
    // A foreign file is refused with a message; the hand-set evaluation stays.
    e.send(&format!("setoption name EvalFile value {}", foreign.display()));
    let lines = e.sync();
    assert!(lines.iter().any(|l| l.starts_with("info string error: EvalFile")), "{lines:?}");
    e.send("eval");
    let eval = e.until(|l| l.starts_with("Final evaluation"));
    assert!(eval.iter().any(|l| l.contains("hand-set evaluation (in use)")), "{eval:?}");
    // The embedded network is taken and used.
    e.send("setoption name EvalFile value <embedded>");
    let lines = e.sync();
    assert!(lines.iter().any(|l| l.contains("hidden units")), "{lines:?}");
    e.send("eval");
    let eval = e.until(|l| l.starts_with("Final evaluation"));
    assert!(eval.iter().any(|l| l.starts_with("network (")), "{eval:?}");
    best_move(&e.search("go depth 3"), &after(START, Variant::Chess, &["e2e4"])).expect("move");
    e.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chess960_switched_off_keeps_the_position_at_hand() {
    // Issue 84, item 2: switched to standard notation, castling `b1c1` read
    // like the king's step and `d` printed a `KQkq` FEN Crown refuses. As
    // in Stockfish, the option applies from the next `position` command.
    let fen = "r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1";
    let mut e = Engine::ready();
    e.send("setoption name UCI_Chess960 value true");
    e.send(&format!("position fen {fen}"));
    e.send("setoption name UCI_Chess960 value false");
    let perft = e.search_perft(1);
    let mut moves: Vec<&str> = perft.iter().filter_map(|l| l.strip_suffix(": 1")).collect();
    assert!(moves.contains(&"b1a1") && moves.contains(&"b1h1"), "{perft:?}");
    moves.sort_unstable();
    moves.dedup();
    assert_eq!(moves.len(), 24, "a move text printed twice: {perft:?}");
    assert_eq!(e.fen(), fen);
    // The FEN printed is read back.
    e.send("setoption name UCI_Chess960 value true");
    let printed = e.fen();
    e.send(&format!("position fen {printed}"));
    assert!(e.sync().is_empty());
    // A new position is read in the option's notation.
    e.send("setoption name UCI_Chess960 value false");
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert!(e.search_perft(1).contains(&"e1g1: 1".to_string()));
    e.quit();
}

#[test]
fn go_mate_ends_without_stop() {
    // Issue 84, item 5: `go mate 0` and `go mate 1` ran until `stop`.
    let mut e = Engine::ready();
    e.send("position startpos");
    for go in ["go mate 0", "go mate 1"] {
        best_move(&e.search(go), &after(START, Variant::Chess, &[])).expect(go);
    }
    // The bound leaves room for a mate the pruning hides for a few plies
    // (the ladder, 1. Rb7 Kg8 2. Ra8#, shows at depth 6 or 7).
    let ladder = "7k/8/8/8/8/8/1R6/R5K1 w - - 0 1";
    e.send(&format!("position fen {ladder}"));
    let lines = e.search("go mate 2");
    best_move(&lines, &after(ladder, Variant::Chess, &[])).expect("a move");
    let last = pv_lines(&lines).last().copied().expect("an info line").clone();
    assert_eq!(field(&last, "mate"), Some("2"), "{lines:?}");
    e.quit();
}

#[test]
fn empty_text_options_are_their_defaults() {
    // Issue 84, item 6: an empty EvalFile chose the hand-set evaluation, an
    // empty SyzygyPath was refused.
    let tables = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/syzygy");
    let mut e = Engine::ready();
    e.send("position startpos moves e2e4");
    e.send("eval");
    let default = e.until(|l| l.starts_with("Final evaluation"));
    for empty in ["setoption name EvalFile", "setoption name EvalFile value "] {
        e.send("setoption name EvalFile value <none>");
        e.sync();
        e.send(empty);
        assert!(!has_error(&e.sync(), "error"), "{empty}");
        e.send("eval");
        assert_eq!(e.until(|l| l.starts_with("Final evaluation")), default, "{empty}");
    }
    e.send(&format!("setoption name SyzygyPath value {tables}"));
    assert!(e.sync().iter().any(|l| l.contains("up to 4 pieces")));
    for empty in ["setoption name SyzygyPath value", "setoption name BookFile value"] {
        e.send(empty);
        assert!(!has_error(&e.sync(), "error"), "{empty}");
    }
    // The tables are gone: a bad path now keeps none.
    e.send("setoption name SyzygyPath value /no/such/dir");
    assert!(has_error(&e.sync(), "playing without tables"));
    e.quit();
}

#[test]
fn bench_depth_is_bounded_on_the_command_line_too() {
    // Issue 84, item 7: `crown bench 99` ran without end; UCI refused it.
    let mut e = Engine::ready();
    e.send("bench 99");
    assert!(has_error(&e.sync(), "at most 30"));
    e.quit();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_crown"))
        .args(["bench", "99"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run crown bench");
    let deadline = std::time::Instant::now() + uci_support::PATIENCE;
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("crown bench 99 is still running");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("at most 30"), "{stderr}");
}

#[test]
fn no_legal_move_reports_its_score_first() {
    // Issue 84, item 8: as Stockfish, `info depth 0 score mate 0` for the
    // mated side, `score cp 0` for stalemate, then `bestmove (none)`.
    let mut e = Engine::ready();
    for (fen, score) in [
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "mate 0"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "cp 0"),
    ] {
        e.send(&format!("position fen {fen}"));
        let lines = e.search("go depth 3");
        assert_eq!(lines, [format!("info depth 0 score {score}"), "bestmove (none)".into()]);
    }
    e.quit();
}

#[test]
fn eval_prints_one_final_evaluation() {
    // Issue 84, item 8: the network's trace also printed the hand-set
    // evaluation's `Final evaluation` line, first.
    let mut e = Engine::ready();
    e.send("position startpos moves e2e4");
    for net in ["<embedded>", "<none>"] {
        e.send(&format!("setoption name EvalFile value {net}"));
        e.sync();
        e.send("eval");
        let lines = e.until(|l| l.starts_with("Final evaluation"));
        assert!(e.sync().is_empty(), "{net}: a second Final evaluation");
        // The final value is the one of the evaluation in use.
        let in_use = if net == "<none>" { "hand-set evaluation (in use)" } else { "network (" };
        assert!(lines.iter().any(|l| l.starts_with(in_use)), "{net}: {lines:?}");
        let value = |l: &str| l.split_whitespace().rev().nth(2).map(String::from);
        if net == "<embedded>" {
            assert_eq!(value(&lines[0]), value(lines.last().unwrap()), "{lines:?}");
        }
    }
    e.quit();
}
