//! `crown-tune pgn-to-data` against real games: 20 fastchess self-play
//! games cut from `../shared/data/selfplay/crown-selfplay-5k.pgn.xz` (also
//! kept compressed, `fastchess-20.pgn.xz`, for the xz reader) and 4
//! games written by `crown match` (2 chess, 2 Chess960 with `{book}` moves and
//! a closing reason comment), in `tests/data/`.
//!
//! The expected counts and labels come from an independent reading of the
//! same files with python-chess 1.11.2 (positions before a move with a
//! score comment, not in check, the move neither capture nor promotion, the
//! score not a mate; score negated for Black to move; `tests/data/pgn_oracle.py`): fastchess-20.pgn
//! gives 1412 positions (230 in check, 430 captures or promotions, 30 mate
//! scores), crown-match-4.pgn 272 (14, 106, 20, and 16 book moves).

use crown::chess::Position;
use crown::game::GameResult;
use crown::game::{Game, Variant};
use crown_tuning::record::{read_file, ChessRecord};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crown-pgn2data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run(inputs: &[&Path], out: &Path) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_crown-tune"));
    cmd.arg("pgn-to-data");
    for input in inputs {
        cmd.arg("--in").arg(input);
    }
    cmd.arg("--out").arg(out).output().unwrap()
}

fn label(fen: &str, score: i32, result: GameResult) -> ChessRecord {
    ChessRecord::from_position(&Position::from_fen(fen, Variant::Chess).unwrap(), score, result)
}

#[test]
fn fastchess_games() {
    let out = scratch("fastchess.crb");
    let output = run(&[&data("fastchess-20.pgn")], &out);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("wrote 1412 positions from 20 of 20 games"), "{stdout}");
    assert!(stdout.contains("230 in check, 430 capture or promotion, 30 mate score"), "{stdout}");
    let records = read_file(&out).unwrap();
    assert_eq!(records.len(), 1412);
    // Game 1 (0-1) from its FEN tag: 4. Nf3 {+0.30} d5 {-0.18} 5. Nc2 {+0.20}
    // e6 {+0.04} 6. g3 {+0.10} c5 {+0.02}.
    let black = GameResult::BlackWins;
    let expected = [
        label("rnbqkb1r/1p1ppppp/p1p2n2/8/2P5/N2P4/PP2PPPP/R1BQKBNR w - - 0 4", 30, black),
        label("rnbqkb1r/1p1ppppp/p1p2n2/8/2P5/N2P1N2/PP2PPPP/R1BQKB1R b - - 1 4", 18, black),
        label("rnbqkb1r/1p2pppp/p1p2n2/3p4/2P5/N2P1N2/PP2PPPP/R1BQKB1R w - - 0 5", 20, black),
        label("rnbqkb1r/1p2pppp/p1p2n2/3p4/2P5/3P1N2/PPN1PPPP/R1BQKB1R b - - 1 5", -4, black),
        label("rnbqkb1r/1p3ppp/p1p1pn2/3p4/2P5/3P1N2/PPN1PPPP/R1BQKB1R w - - 0 6", 10, black),
        label("rnbqkb1r/1p3ppp/p1p1pn2/3p4/2P5/3P1NP1/PPN1PP1P/R1BQKB1R b - - 0 6", -2, black),
    ];
    assert_eq!(&records[..6], &expected);
    // Results: every game's records carry its result tag (10 0-1, 6 1-0, 4 draws).
    let draws = records.iter().filter(|r| r.result == GameResult::Draw).count();
    let white = records.iter().filter(|r| r.result == GameResult::WhiteWins).count();
    assert!(draws > 0 && white > 0 && draws + white < records.len());
    for r in &records {
        assert!(!r.to_position().unwrap().in_check());
        assert!(!r.chess960);
    }

    // The same games compressed with xz (`tests/data/fastchess-20.pgn.xz`,
    // made by `xz -9`) give the same bytes, read in-process.
    let out_xz = scratch("fastchess-xz.crb");
    let output = run(&[&data("fastchess-20.pgn.xz")], &out_xz);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(std::fs::read(&out_xz).unwrap(), std::fs::read(&out).unwrap());
    // Concatenated xz streams are read to the end, as `xz -dc` does.
    let twice = scratch("twice.pgn.xz");
    std::fs::write(&twice, std::fs::read(data("fastchess-20.pgn.xz")).unwrap().repeat(2)).unwrap();
    let out_twice = scratch("twice.crb");
    assert!(run(&[&twice], &out_twice).status.success());
    assert_eq!(std::fs::read(&out_twice).unwrap(), std::fs::read(&out).unwrap().repeat(2));
}

#[test]
fn crown_match_games_and_bad_input() {
    // crown match's PGN, plus an unfinished game (`*`) that must be skipped.
    let mut text = std::fs::read_to_string(data("crown-match-4.pgn")).unwrap();
    text.push_str(
        "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 {+0.20/5 0.01s} e5 {-0.10/5 0.01s} *\n\n",
    );
    let input = scratch("crown.pgn");
    std::fs::write(&input, text).unwrap();
    let out = scratch("crown.crb");
    let output = run(&[&input], &out);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("wrote 272 positions from 4 of 5 games"), "{stdout}");
    assert!(stdout.contains("1 without result, 0 broken"), "{stdout}");
    assert!(stdout.contains("14 in check, 106 capture or promotion, 20 mate score, 16 without"));
    let records = read_file(&out).unwrap();
    assert_eq!(records.len(), 272);
    let chess960 = records.iter().filter(|r| r.chess960).count();
    assert!(chess960 > 0 && chess960 < records.len());
    assert_eq!(
        records[0],
        label(
            "rnbqkb1r/2pppppp/p4n2/1p6/1P6/5N1P/P1PPPPP1/RNBQKB1R w - - 0 4",
            30,
            GameResult::BlackWins
        )
    );

    // Bad input changes nothing: a missing file, a corrupt archive.
    let missing = run(&[&data("no-such-file.pgn")], &scratch("missing.crb"));
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read"));
    assert!(!scratch("missing.crb").exists() && !scratch("missing.crb.tmp").exists());
    let corrupt = scratch("corrupt.pgn.xz");
    std::fs::write(&corrupt, b"\xfd7zXZ\0 this is not xz data").unwrap();
    let before = std::fs::read(&out).unwrap();
    let failed = run(&[&input, &corrupt], &out);
    assert!(!failed.status.success());
    assert!(String::from_utf8_lossy(&failed.stderr).contains(": xz: "), "{failed:?}");
    assert_eq!(std::fs::read(&out).unwrap(), before, "a failed run must not touch the output");
    // A truncated archive fails the same way, with nothing written.
    let cut = scratch("cut.pgn.xz");
    let whole = std::fs::read(data("fastchess-20.pgn.xz")).unwrap();
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();
    let failed = run(&[&cut], &out);
    assert!(!failed.status.success());
    assert!(String::from_utf8_lossy(&failed.stderr).contains(": xz: "), "{failed:?}");
    assert_eq!(std::fs::read(&out).unwrap(), before, "a failed run must not touch the output");
}
