//! OpenBench's `genfens` request against the built binary: exactly N legal
//! FEN lines, deterministic for a seed, book lines used, extra tokens and a
//! `quit` argument ignored, bad requests refused with no output.

use crown::chess::Position;
use crown::game::{Game, Variant};
use std::process::{Command, Output};

fn crown(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crown")).args(args).output().unwrap()
}

fn fens(output: &Output) -> Vec<String> {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    text.lines().map(|l| l.strip_prefix("info string genfens ").expect(l).to_string()).collect()
}

fn parse(fen: &str) -> Position {
    Position::from_fen(fen, Variant::Chess)
        .or_else(|_| Position::from_fen(fen, Variant::Chess960))
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

#[test]
fn random_openings() {
    let first = fens(&crown(&["genfens 12 seed 4242 book None", "quit"]));
    assert_eq!(first.len(), 12);
    for fen in &first {
        let pos = parse(fen);
        assert!(pos.count_legal() > 0, "{fen}: the game goes on");
        assert_eq!(pos.fullmove_number(), 5, "{fen}: 8 random plies");
    }
    // Same seed, same list (extra tokens ignored); another seed, another list.
    assert_eq!(fens(&crown(&["genfens 12 seed 4242 book None dfrc", "quit"])), first);
    let other = fens(&crown(&["genfens 12 seed 4243 book None"]));
    assert_ne!(other, first);
}

#[test]
fn book_lines() {
    let dir = std::env::temp_dir().join(format!("crown-genfens-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    std::fs::write(
        &book,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"e4\";\n\
         # a comment\n\
         nqrkbbnr/pppppppp/8/8/8/8/PPPPPPPP/NQRKBBNR w HChc - 0 1\n",
    )
    .unwrap();
    let request = format!("genfens 10 seed 5 book {}", book.display());
    let list = fens(&crown(&[&request, "quit"]));
    assert_eq!(list.len(), 10);
    let mut chess960 = 0;
    for fen in &list {
        let pos = parse(fen);
        assert!(pos.count_legal() > 0, "{fen}");
        // 4 random plies after either book line end in move 3 (1... from
        // the e4 line: 1... 2. 2... 3.; from the array: 1. 1... 2. 2...).
        assert_eq!(pos.fullmove_number(), 3, "{fen}");
        if Position::from_fen(fen, Variant::Chess).is_err() {
            chess960 += 1;
        }
    }
    assert!(chess960 > 0 && chess960 < 10, "both book lines drawn: {chess960}");
    assert_eq!(fens(&crown(&[&request])), list);

    // An unreadable book, or one with no legal line: an error and no line.
    for path in [dir.join("missing.epd"), {
        let junk = dir.join("junk.epd");
        std::fs::write(&junk, "not a fen\n").unwrap();
        junk
    }] {
        let output = crown(&[&format!("genfens 3 seed 1 book {}", path.display())]);
        assert!(!output.status.success());
        assert!(output.stdout.is_empty());
        assert!(String::from_utf8_lossy(&output.stderr).contains("book"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_requests() {
    for bad in ["genfens", "genfens 3", "genfens x seed 1 book None", "genfens 3 seed z book None"]
    {
        let output = crown(&[bad, "quit"]);
        assert!(!output.status.success(), "{bad}");
        assert!(output.stdout.is_empty(), "{bad}");
        assert!(String::from_utf8_lossy(&output.stderr).contains("genfens"), "{bad}");
    }
    // Without such an argument the binary is still UCI.
    let mut child = Command::new(env!("CARGO_BIN_EXE_crown"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"uci\nquit\n").unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("uciok"));
}
