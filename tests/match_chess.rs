//! `crown match` end to end on chess: the built binary runs real engines
//! (Stockfish from Debian's package, which `scripts/test` installs; a test
//! that needs it fails with a note saying so when it is missing) against each other and against the broken fixture engines, with the
//! core chess rules refereeing. PGN output is read back with the runner's own
//! PGN/SAN reader and replayed with the rules. Generous limits; no timing
//! assertions.

use crown::chess::Position;
use crown::game::{Game, Variant};
use crown::tournament::openings::{parse_games, realise};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

const STOCKFISH: &str = "/usr/games/stockfish";

/// Fails the test when Stockfish is missing: a match test that cannot play
/// its opponent must not pass as if it had.
fn require_stockfish() {
    assert!(
        Path::new(STOCKFISH).exists(),
        "{STOCKFISH} is not installed: scripts/test installs it (apt-get install stockfish)"
    );
}

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh path in this test binary's temp folder: unique per call, since
/// tests run in parallel threads of one process.
fn temp(name: &str) -> String {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("crown-match-chess-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{n}-{name}")).to_string_lossy().into_owned()
}

fn crown_match(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_crown")).arg("match").args(args).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "crown match failed: {text}");
    text
}

/// Replays every game of a PGN file with the rules: each SAN move must be
/// legal, and the game count must match.
fn replay_pgn(path: &str, variant: Variant, games: usize) {
    let text = std::fs::read_to_string(path).unwrap();
    let parsed = parse_games(&text);
    assert_eq!(parsed.len(), games, "{text}");
    for game in &parsed {
        let opening =
            realise::<Position>(game, variant, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(opening.moves.len(), game.moves.len());
    }
    assert_eq!(text.matches("[Result \"").count(), games);
}

#[test]
fn help_is_printed() {
    let text = crown_match(&["--help"]);
    assert!(text.contains("--engine name=N cmd=PATH"), "{text}");
}

#[test]
fn stockfish_self_play_with_pgn_and_adjudication() {
    require_stockfish();
    let pgn = temp("sf.pgn");
    let text = crown_match(&[
        "--engine",
        "name=sf1",
        &format!("cmd={STOCKFISH}"),
        "--engine",
        "name=sf2",
        &format!("cmd={STOCKFISH}"),
        "--each",
        "nodes=3000",
        "option.Hash=8",
        "option.Threads=1",
        "--games",
        "2",
        "--rounds",
        "2",
        "--repeat",
        "--concurrency",
        "2",
        "--maxmoves",
        "60",
        "--resign",
        "movecount=3",
        "score=800",
        "--pgnout",
        &pgn,
    ]);
    assert!(text.contains("Finished match: 4 games"), "{text}");
    assert!(text.contains("Ptnml(0-2):"), "{text}");
    replay_pgn(&pgn, Variant::Chess, 4);
}

#[test]
fn stockfish_chess960_from_random_arrays() {
    require_stockfish();
    let pgn = temp("sf960.pgn");
    let text = crown_match(&[
        "--variant",
        "chess960",
        "--engine",
        "name=a",
        &format!("cmd={STOCKFISH}"),
        "--engine",
        "name=b",
        &format!("cmd={STOCKFISH}"),
        "--each",
        "nodes=2000",
        "option.Hash=8",
        "--games",
        "2",
        "--repeat",
        "--maxmoves",
        "40",
        "--seed",
        "3",
        "--pgnout",
        &pgn,
    ]);
    assert!(text.contains("Finished match: 2 games"), "{text}");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert!(pgn_text.contains("[Variant \"Chess960\"]") && pgn_text.contains("[SetUp \"1\"]"));
    replay_pgn(&pgn, Variant::Chess960, 2);
}

#[test]
fn epd_openings_are_played_in_order() {
    require_stockfish();
    let book = temp("book.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
         rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - id \"d4\";\n",
    )
    .unwrap();
    let pgn = temp("book.pgn");
    let text = crown_match(&[
        "--engine",
        &format!("cmd={STOCKFISH}"),
        "--engine",
        &format!("cmd={STOCKFISH}"),
        "--each",
        "depth=3",
        "--openings",
        &format!("file={book}"),
        "format=epd",
        "order=sequential",
        "--games",
        "2",
        "--rounds",
        "2",
        "--repeat",
        "--maxmoves",
        "20",
        "--pgnout",
        &pgn,
    ]);
    assert!(text.contains("Finished match: 4 games"), "{text}");
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        pgn_text.matches("/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]").count(),
        2,
        "{pgn_text}"
    );
    assert_eq!(
        pgn_text.matches("/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1\"]").count(),
        2,
        "{pgn_text}"
    );
    assert!(pgn_text.contains("1... "), "{pgn_text}");
    replay_pgn(&pgn, Variant::Chess, 4);
}

fn broken(script: &str, limits: &[&str], reason: &str) {
    require_stockfish();
    let log = temp(&format!("{script}.log"));
    let mut args = vec![
        "--engine".to_string(),
        "name=sf".into(),
        format!("cmd={STOCKFISH}"),
        "nodes=1000".into(),
        "--engine".into(),
        "name=bad".into(),
        format!("cmd={}", fixture(script)),
    ];
    args.extend(limits.iter().map(|s| s.to_string()));
    args.extend(["--games", "2", "--rounds", "2", "--repeat", "--log", &log].map(String::from));
    if script == "uci_hang.sh" {
        args.extend(["--hangtimeout", "2"].map(String::from));
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let text = crown_match(&args);
    assert!(text.contains("Finished match: 4 games"), "{text}");
    assert_eq!(text.matches(reason).count(), 4, "{reason}: {text}");
    assert!(text.contains("Score of sf vs bad: 4 - 0 - 0"), "{text}");
    let log_text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(log_text.lines().filter(|l| l.contains("bad # started")).count(), 4);
}

#[test]
fn illegal_move_loses_against_stockfish() {
    broken("uci_illegal.sh", &["depth=1"], "makes an illegal move: a1a1");
}

#[test]
fn crash_loses_against_stockfish() {
    broken("uci_crash.sh", &["depth=1"], "disconnects");
}

#[test]
fn hang_loses_on_time_against_stockfish() {
    broken("uci_hang.sh", &["tc=0.5+0"], "loses on time");
}

#[test]
fn hang_without_clock_stalls_against_stockfish() {
    broken("uci_hang.sh", &["depth=1"], "connection stalls");
}

#[test]
fn time_liar_loses_on_time_against_stockfish() {
    broken("uci_slow.sh", &["tc=0.5+0"], "loses on time");
}

#[test]
fn malformed_line_loses_against_stockfish() {
    broken("uci_malformed.sh", &["depth=1"], "malformed line");
}

#[test]
fn crash_stderr_is_logged() {
    require_stockfish();
    let log = temp("stderr.log");
    crown_match(&[
        "--engine",
        &format!("cmd={STOCKFISH}"),
        "nodes=500",
        "--engine",
        "name=bad",
        &format!("cmd={}", fixture("uci_crash.sh")),
        "depth=1",
        "--log",
        &log,
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("bad ! segmentation fault (simulated)"), "{text}");
}

#[test]
fn chess_position_type_is_used() {
    // The runner plays chess with the core rules: a start position has 20 moves.
    let mut list = <Position as Game>::MoveList::default();
    Position::start(Variant::Chess).generate(&mut list);
    assert_eq!(list.len(), 20);
}
