//! Syzygy tables: Crown's prober against python-chess's, on the real 3- and
//! 4-piece tables, plus loading, refusal and root-filter behaviour.
//!
//! The reference (`tests/data/syzygy-reference.txt`) holds 2,100 random legal
//! positions (every 3-4-piece table and KvK, both colours, both sides to
//! move, 100 with an en-passant capture available), each with python-chess
//! 1.11.2's `probe_wdl` and `probe_dtz`; `scripts/syzygy-reference.py` made
//! it. DTZ convention (python-chess's, kept as is): plies to the next zeroing
//! move (capture, pawn move, or the mate that ends the game) with best play,
//! positive when the side to move wins, negative when it loses, 0 for a
//! draw; a table may give one ply more than the truth where that cannot
//! change the result under the fifty-move rule, and both probers return
//! the stored value.

use crown::chess::Position;
use crown::endgame::syzygy::{ProbeConfig, Syzygy, TableWdl};
use crown::endgame::{Probe, Wdl};
use crown::game::{Game, Variant};
use std::path::{Path, PathBuf};

fn tables_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy")
}

fn tables() -> Syzygy {
    let (tables, messages) = Syzygy::load(tables_dir().to_str().unwrap());
    let tables = tables.unwrap_or_else(|| panic!("no tables: {messages:?}"));
    assert_eq!(tables.max_pieces(), 4);
    tables
}

fn chess(fen: &str) -> Position {
    Position::from_fen(fen, Variant::Chess).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crown-syzygy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn wdl_and_dtz_equal_python_chess() {
    let tables = tables();
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy-reference.txt"),
    )
    .unwrap();
    let mut checked = 0;
    let mut en_passant = 0;
    let mut seen = [0; 5];
    for line in text.lines() {
        let fields: Vec<&str> = line.split(';').collect();
        let (fen, wdl, dtz): (&str, i32, i32) =
            (fields[0], fields[1].parse().unwrap(), fields[2].parse().unwrap());
        let pos = chess(fen);
        en_passant += usize::from(pos.en_passant().is_some());
        let got = tables.wdl(&pos).unwrap_or_else(|| panic!("no WDL for {fen}"));
        assert_eq!(got.value(), wdl, "WDL of {fen}");
        assert_eq!(tables.dtz(&pos), Some(dtz), "DTZ of {fen}");
        seen[(wdl + 2) as usize] += 1;
        checked += 1;
    }
    assert!(checked >= 2000, "{checked} positions");
    assert!(en_passant >= 100, "{en_passant} en-passant positions");
    assert!(seen[0] > 300 && seen[2] > 300 && seen[4] > 300, "{seen:?}");
    assert_eq!(tables.failures(), 0);
}

#[test]
fn the_readme_examples_probe_as_documented() {
    let tables = tables();
    for (fen, wdl, dtz) in [
        ("8/2K5/4B3/3N4/8/8/4k3/8 b - - 0 1", -2, -53),
        ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", 2, 15),
        ("8/8/8/8/8/4k3/4P3/4K3 w - - 0 1", 0, 0),
        ("8/8/8/4k3/8/8/8/R3K2r w - - 0 1", -2, -1),
        ("8/8/2k5/1r6/8/8/8/2KQ4 b - - 0 1", -2, -62),
    ] {
        let pos = chess(fen);
        assert_eq!(tables.wdl(&pos).map(TableWdl::value), Some(wdl), "{fen}");
        assert_eq!(tables.dtz(&pos), Some(dtz), "{fen}");
    }
}

#[test]
fn castling_rights_and_too_many_pieces_are_never_probed() {
    let tables = tables();
    // KRvK with a white castling right: the tables hold no castling.
    let castling = chess("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(tables.probe(&castling), None);
    assert_eq!(tables.root_moves(&castling), None);
    let plain = chess("4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(tables.probe(&plain), Some(Wdl::Win));
    // Chess960 with a castling right.
    let c960 = Position::from_fen("1k6/8/8/8/8/8/8/1K5R w H - 0 1", Variant::Chess960).unwrap();
    assert_eq!(tables.probe(&c960), None);
    // Five pieces: beyond the tables.
    let five = chess("4k3/8/8/8/8/8/3PP3/4K2R w - - 0 1");
    assert_eq!(tables.probe(&five), None);
    assert_eq!(tables.failures(), 0);
}

#[test]
fn search_probes_respect_the_limit_the_depth_and_the_clock() {
    let tables = tables();
    let krk = chess("4k3/8/8/8/8/8/8/4K2R b - - 0 1");
    assert_eq!(tables.search_probe(&krk, 1), Some(Wdl::Loss));
    let later = chess("4k3/8/8/8/8/8/8/4K2R b - - 5 1");
    assert_eq!(tables.search_probe(&later, 10), None, "only after a zeroing move");
    tables.configure(ProbeConfig { depth: 5, limit: 3, rule50: true });
    assert_eq!(tables.search_probe(&krk, 4), None, "at the limit, too shallow");
    assert_eq!(tables.search_probe(&krk, 5), Some(Wdl::Loss));
    let krkp = chess("4k3/4p3/8/8/8/8/8/4K2R w - - 0 1");
    assert_eq!(tables.search_probe(&krkp, 50), None, "above the limit");
    tables.configure(ProbeConfig { depth: 1, limit: 0, rule50: true });
    assert_eq!(tables.search_probe(&krk, 50), None, "limit 0: no probes");
}

#[test]
fn root_filter_keeps_the_result_and_makes_progress() {
    let tables = tables();
    // KQvKR, white to move and winning: every kept move wins, with the
    // smallest DTZ among the winning moves.
    let pos = chess("8/8/2k5/1r6/8/8/8/2KQ4 w - - 0 1");
    let filter = tables.root_moves(&pos).unwrap();
    assert_eq!(filter.wdl, Wdl::Win);
    assert!(!filter.moves.is_empty());
    let mut list = crown::chess::MoveList::default();
    pos.generate(&mut list);
    assert!(filter.moves.len() < list.len());
    for &mv in &filter.moves {
        let mut child = pos.clone();
        child.play(mv);
        assert_eq!(tables.probe(&child), Some(Wdl::Loss), "{}", pos.move_text(mv));
    }
    // The longest KQvKR win, defender to move: it loses, and keeps the moves
    // that resist longest.
    let lost = chess("8/8/2k5/1r6/8/8/8/2KQ4 b - - 0 1");
    let filter = tables.root_moves(&lost).unwrap();
    assert_eq!(filter.wdl, Wdl::Loss);
    for &mv in &filter.moves {
        let mut child = lost.clone();
        child.play(mv);
        assert_eq!(tables.dtz(&child), Some(61), "{}", lost.move_text(mv));
    }
    // KRvKR: only drawing moves (not the one that hangs the rook).
    let draw = chess("8/8/8/4k3/8/8/1r6/R3K3 w - - 0 1");
    let filter = tables.root_moves(&draw).unwrap();
    assert_eq!(filter.wdl, Wdl::Draw);
    for &mv in &filter.moves {
        let mut child = draw.clone();
        child.play(mv);
        assert_eq!(tables.probe(&child), Some(Wdl::Draw), "{}", draw.move_text(mv));
    }
    // A mate in one is kept (DTZ 1) and nothing slower.
    let mate = chess("6k1/8/6K1/8/8/8/8/R7 w - - 0 1");
    let filter = tables.root_moves(&mate).unwrap();
    let texts: Vec<String> = filter.moves.iter().map(|&m| mate.move_text(m)).collect();
    assert_eq!(texts, ["a1a8"]);
}

#[test]
fn the_fifty_move_rule_turns_late_wins_into_draws() {
    let tables = tables();
    // KBNvK, 53 plies to mate: with the clock at 60 the win cannot come
    // within the rule.
    let late = chess("8/2K5/4B3/3N4/8/8/4k3/8 w - - 60 80");
    let filter = tables.root_moves(&late).unwrap();
    assert_eq!(filter.wdl, Wdl::Draw);
    tables.configure(ProbeConfig { rule50: false, ..ProbeConfig::default() });
    assert_eq!(tables.root_moves(&late).unwrap().wdl, Wdl::Win);
}

#[test]
fn missing_and_empty_directories_are_reported() {
    let empty = temp_dir("empty");
    let missing = empty.join("nowhere");
    let (tables, messages) = Syzygy::load(&format!("{}:{}", missing.display(), empty.display()));
    assert!(tables.is_none());
    assert!(messages[0].contains("cannot read directory"), "{messages:?}");
    assert!(messages[1].contains("no tables in"), "{messages:?}");
    let (none, messages) = Syzygy::load("<empty>");
    assert!(none.is_none() && messages.is_empty());
    // A bad directory next to a good one: the good one loads.
    let path = format!("{}:{}", missing.display(), tables_dir().display());
    let (tables, messages) = Syzygy::load(&path);
    assert_eq!(tables.unwrap().max_pieces(), 4);
    assert!(messages.last().unwrap().contains("35 WDL and 35 DTZ"), "{messages:?}");
    let _ = std::fs::remove_dir_all(empty);
}

#[test]
fn truncated_tables_are_refused_never_read_out_of_bounds() {
    let dir = temp_dir("truncated");
    let source = tables_dir();
    for name in ["KRvK.rtbw", "KRvK.rtbz", "KQvK.rtbw", "KQvK.rtbz", "KQvKR.rtbw", "KQvKR.rtbz"] {
        std::fs::copy(source.join(name), dir.join(name)).unwrap();
    }
    // An odd size is refused at load.
    let bytes = std::fs::read(source.join("KNNvK.rtbw")).unwrap();
    std::fs::write(dir.join("KNNvK.rtbw"), &bytes[..bytes.len() - 7]).unwrap();
    // A size that passes the size check (16 mod 64) but lacks most data.
    let bytes = std::fs::read(source.join("KQvKR.rtbz")).unwrap();
    std::fs::write(dir.join("KQvKR.rtbz"), &bytes[..64 * 8 + 16]).unwrap();
    let (tables, messages) = Syzygy::load(dir.to_str().unwrap());
    let tables = tables.unwrap();
    assert!(messages.iter().any(|m| m.contains("KNNvK.rtbw refused")), "{messages:?}");
    // KNNvK is gone: its positions are not answered.
    assert_eq!(tables.probe(&chess("4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1")), None);
    // The truncated DTZ table answers nothing, over many positions; its
    // intact WDL table still answers.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syzygy-reference.txt"),
    )
    .unwrap();
    let mut probed = 0;
    for line in text.lines() {
        let fields: Vec<&str> = line.split(';').collect();
        let mut material: Vec<char> = fields[0].split(' ').next().unwrap().chars().collect();
        material.retain(|c| c.is_alphabetic());
        material.sort_unstable();
        let material: String = material.into_iter().collect();
        if material != "KQkr" && material != "KRkq" {
            continue;
        }
        probed += 1;
        let pos = chess(fields[0]);
        // Whatever answers is right: the intact WDL table always, the
        // truncated DTZ table only where its data was not needed.
        let wdl = tables.wdl(&pos).map(TableWdl::value);
        assert_eq!(wdl, Some(fields[1].parse().unwrap()), "{line}");
        if let Some(dtz) = tables.dtz(&pos) {
            assert_eq!(dtz, fields[2].parse::<i32>().unwrap(), "{line}");
        }
    }
    assert!(probed > 20, "{probed}");
    assert!(tables.failures() > 0);
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `script` (without the final `quit`) through `crown` and returns its
/// output up to the first `bestmove` line.
fn uci(script: &str) -> String {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_crown"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    let mut text = String::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        text += &line;
        text.push('\n');
        if line.starts_with("bestmove") {
            break;
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    child.wait().unwrap();
    text
}

#[test]
fn uci_loads_reports_and_uses_the_tables() {
    let text = uci(&format!(
        "uci\nsetoption name SyzygyPath value {}\n\
         setoption name SyzygyPath value /no/such/dir\nsetoption name UCI_ShowWDL value true\n\
         position fen 8/8/8/4k3/3r4/8/8/1R2K3 w - - 0 1\ngo depth 8\n",
        tables_dir().display()
    ));
    assert!(text.contains("option name SyzygyPath type string default <empty>"), "{text}");
    assert!(text.contains("35 WDL and 35 DTZ tables, up to 4 pieces"), "{text}");
    // A directory that does not exist is refused, and the tables stay.
    let refused = format!(
        "/no/such/dir is not a directory; keeping the tables of {}",
        tables_dir().display()
    );
    assert!(text.contains(&refused), "{text}");
    // KRvKR, white to move: a table draw, shown as such, with probes counted.
    let last = text.lines().rfind(|l| l.starts_with("info depth 8 ")).unwrap();
    assert!(last.contains(" score cp 0 wdl 0 1000 0 "), "{last}");
    let hits = last.split(" tbhits ").nth(1).unwrap().split(' ').next().unwrap();
    assert!(hits.parse::<u64>().unwrap() > 0, "{last}");
}

/// A root the tables decide shows their verdict in `score`, on every line
/// of every iteration, as Stockfish shows a tablebase win: K+R v K is
/// `cp 20000` for the winner and `cp -20000` for the loser, not the
/// evaluation (about +7 pawns) of positions the search never probes.
#[test]
fn a_root_the_tables_decide_shows_their_verdict_on_every_line() {
    for (fen, score, wdl) in [
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "cp 20000", "wdl 1000 0 0"),
        ("8/8/8/4k3/8/8/8/R3K3 b - - 0 1", "cp -20000", "wdl 0 0 1000"),
        ("8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "cp 20000", ""),
    ] {
        let wdl_option = if wdl.is_empty() { "false" } else { "true" };
        let text = uci(&format!(
            "setoption name SyzygyPath value {}\nsetoption name UCI_ShowWDL value {wdl_option}\n\
             setoption name MultiPV value 2\nposition fen {fen}\ngo depth 9\n",
            tables_dir().display()
        ));
        let lines: Vec<&str> = text.lines().filter(|l| l.contains(" pv ")).collect();
        assert!(lines.len() >= 18, "{text}");
        for line in lines {
            let shown = format!(" score {score} {wdl}");
            assert!(line.contains(shown.trim_end()), "{fen}: {line}");
            assert!(!line.contains("bound"), "{fen}: {line}");
        }
    }
    // Without tables the same root shows the evaluation.
    let text = uci("position fen 8/8/8/4k3/8/8/8/R3K3 w - - 0 1\ngo depth 9\n");
    let last = text.lines().rfind(|l| l.starts_with("info depth 9 ")).unwrap();
    let cp: i32 =
        last.split(" score cp ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!((300..2000).contains(&cp), "{last}");
}
