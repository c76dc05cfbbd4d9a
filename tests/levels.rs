//! Playing levels through UCI (`UCI_LimitStrength`, `UCI_Elo`, `Skill
//! Level`, `Seed`) and Hub (`elo`, `level`, `seed`), with the real binary:
//! every move played at every level is legal, a fixed seed replays the same
//! game, and an out-of-range Elo is clamped with a message.
//!
//! Searches get a generous clock, so no level is cut short by time and
//! nothing here depends on the machine's speed.

mod uci_support;

use crown::game::{Game, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use uci_support::{after, best_move, no_moves, Engine, START};

/// A clock that gives each move the table's budget (below `SLOW_FROM`) and
/// far more time than the budget needs.
const CLOCK: &str = "go wtime 60000 btime 60000";

/// Self-play from `fen` for `plies` plies with the options `setup`; every
/// move is checked legal. Returns the moves played: all `plies` of them, or
/// fewer only when the game ended (weak levels can mate each other early).
fn self_play(setup: &[&str], fen: &str, variant: Variant, plies: usize) -> Vec<String> {
    let mut e = Engine::ready();
    for line in setup {
        e.send(line);
    }
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let pos = after(fen, variant, &refs);
        if no_moves(&pos) {
            break;
        }
        let position = if fen == START {
            format!("position startpos moves {}", moves.join(" "))
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        e.send(&position);
        let lines = e.search(CLOCK);
        moves.push(best_move(&lines, &pos).expect("a move in a position with moves"));
    }
    e.quit();
    moves
}

#[test]
fn every_level_plays_legal_moves() {
    for elo in [1000, 1300, 1700, 2100] {
        let elo = format!("setoption name UCI_Elo value {elo}");
        let setup = ["setoption name UCI_LimitStrength value true", elo.as_str()];
        // Every move is checked legal inside; a weak game may end early.
        assert!(!self_play(&setup, START, Variant::Chess, 24).is_empty());
    }
    for skill in [0, 7, 14, 19] {
        let skill = format!("setoption name Skill Level value {skill}");
        assert!(!self_play(&[skill.as_str()], START, Variant::Chess, 16).is_empty());
    }
    // Chess960, king-takes-rook castling included.
    let frc = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1";
    let setup = [
        "setoption name UCI_Chess960 value true",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1600",
    ];
    assert!(!self_play(&setup, frc, Variant::Chess960, 24).is_empty());
}

#[test]
fn the_strongest_level_plays_legal_moves() {
    let setup =
        ["setoption name UCI_LimitStrength value true", "setoption name UCI_Elo value 2800"];
    assert_eq!(self_play(&setup, START, Variant::Chess, 4).len(), 4);
}

#[test]
fn a_fixed_seed_replays_the_same_game() {
    let setup = [
        "setoption name Threads value 1",
        "setoption name Seed value 4242",
        "setoption name UCI_LimitStrength value true",
        "setoption name UCI_Elo value 1400",
    ];
    let first = self_play(&setup, START, Variant::Chess, 30);
    let second = self_play(&setup, START, Variant::Chess, 30);
    assert_eq!(first, second);
    // Threads above 1 do not change a level's play: it searches on one.
    let mut threaded = setup.to_vec();
    threaded[0] = "setoption name Threads value 3";
    assert_eq!(self_play(&threaded, START, Variant::Chess, 30), first);
}

#[test]
fn out_of_range_elo_is_clamped_with_a_message() {
    let mut e = Engine::ready();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 300");
    let lines = e.sync();
    assert!(
        lines.iter().any(|l| l.starts_with("info string") && l.contains("clamped to 1000")),
        "{lines:?}"
    );
    e.send("setoption name UCI_Elo value 99999");
    let lines = e.sync();
    assert!(lines.iter().any(|l| l.contains("clamped to 2400")), "{lines:?}");
    // Within draughts' range but above chess's strongest level.
    e.send("setoption name UCI_Elo value 2500");
    let lines = e.sync();
    assert!(lines.iter().any(|l| l.contains("2500 is out of range; clamped to 2400")), "{lines:?}");
    // A malformed value is refused and the level stays as it was.
    e.send("setoption name UCI_Elo value strong");
    let lines = e.sync();
    assert!(lines.iter().any(|l| l.starts_with("info string error")), "{lines:?}");
    e.send("position startpos");
    let lines = e.search("go wtime 10000 btime 10000");
    best_move(&lines, &after(START, Variant::Chess, &[])).expect("a move");
    e.quit();
}

#[test]
fn handshake_lists_the_level_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until(|l| l == "uciok");
    for expected in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 2400 min 1000 max 2400",
        "option name Skill Level type spin default 20 min 0 max 20",
        "option name Seed type spin default 0 min 0 max 2147483647",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    e.quit();
}

/// A Hub session fed `script` (then `quit`); returns every output line.
fn hub(script: &[String]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crown"))
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start crown hub");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut lines = Vec::new();
    for line in script {
        writeln!(stdin, "{line}").expect("write");
        if line.starts_with("go ") {
            // Wait for the answer before sending the next position.
            loop {
                let mut text = String::new();
                assert!(out.read_line(&mut text).expect("read") > 0, "hub ended: {lines:?}");
                let text = text.trim_end().to_string();
                let done = text.starts_with("done");
                lines.push(text);
                if done {
                    break;
                }
            }
        }
    }
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    for text in out.lines() {
        lines.push(text.expect("read"));
    }
    assert!(child.wait().expect("exit").success());
    lines
}

/// Self-play in international draughts over Hub with `params`; every move
/// is checked legal. Returns the moves and the whole transcript.
fn hub_self_play(params: &[&str], plies: usize) -> (Vec<String>, Vec<String>) {
    use crown::draughts::position::Position;
    use crown::draughts::rules::InternationalRules;
    let mut pos = Position::<InternationalRules>::start(Variant::International);
    let mut moves: Vec<String> = Vec::new();
    let mut transcript = Vec::new();
    for _ in 0..plies {
        if no_draughts_moves(&pos) {
            break;
        }
        let mut script = vec!["hub".to_string(), "init".to_string()];
        script.extend(params.iter().map(|p| p.to_string()));
        script.push("level time=60".into());
        script.push(format!("pos pos={} moves=\"{}\"", START_DRAUGHTS, moves.join(" ")));
        script.push("go think".into());
        let lines = hub(&script);
        let done = lines.iter().find(|l| l.starts_with("done")).expect("done").clone();
        let text = done.split_whitespace().find_map(|t| t.strip_prefix("move=")).expect("move");
        let mv = pos.parse_move(text).unwrap_or_else(|e| panic!("illegal {text}: {e}"));
        pos.play(mv);
        moves.push(text.to_string());
        transcript.extend(lines);
    }
    (moves, transcript)
}

const START_DRAUGHTS: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

fn no_draughts_moves<G: Game>(pos: &G) -> bool {
    let mut list = G::MoveList::default();
    pos.generate(&mut list);
    list.is_empty()
}

#[test]
fn draughts_levels_play_legal_moves_and_replay_with_a_seed() {
    let params = ["set-param name=seed value=77", "set-param name=elo value=1300"];
    let (first, transcript) = hub_self_play(&params, 12);
    assert_eq!(first.len(), 12);
    assert!(!transcript.iter().any(|l| l.starts_with("error")), "{transcript:?}");
    assert_eq!(hub_self_play(&params, 12).0, first);
    let (moves, _) = hub_self_play(&["set-param name=level value=3"], 8);
    assert_eq!(moves.len(), 8);
}

/// The lines of a Hub session that sets `elo` to `elo` and searches the
/// start position once.
fn hub_at_elo(elo: u32) -> Vec<String> {
    hub(&[
        "hub".to_string(),
        "init".into(),
        format!("set-param name=elo value={elo}"),
        "level time=600 inc=1".into(),
        format!("pos pos={START_DRAUGHTS}"),
        "go think".into(),
    ])
}

#[test]
fn hub_elo_out_of_range_is_clamped_with_a_message() {
    let lines = hub_at_elo(12);
    let clamped = |l: &String| l.starts_with("error") && l.contains("clamped to 1000");
    assert!(lines.iter().any(clamped), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("done move=")), "{lines:?}");
    // Draughts' scale reaches 2800 (chess's stops at 2400): no note.
    let lines = hub_at_elo(2800);
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("done move=")), "{lines:?}");
}

#[test]
fn dxp_refuses_levels_out_of_range() {
    for args in [&["--elo", "500"][..], &["--level", "21"], &["--elo", "1500", "--level", "3"]] {
        let out = Command::new(env!("CARGO_BIN_EXE_crown"))
            .arg("dxp")
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("run crown dxp");
        assert!(!out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(text.contains("--elo") || text.contains("--level"), "{args:?}: {text}");
    }
}

#[test]
fn a_level_answers_every_kind_of_go() {
    let mut e = Engine::ready();
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 2200");
    e.send("position startpos moves e2e4");
    let pos = after(START, Variant::Chess, &["e2e4"]);
    for go in ["go movetime 5", "go wtime 20 btime 20", "go nodes 10", "go depth 2"] {
        let lines = e.search(go);
        best_move(&lines, &pos).unwrap_or_else(|| panic!("{go}: {lines:?}"));
        assert!(lines.iter().any(|l| l.starts_with("info depth")), "{go}: {lines:?}");
    }
    // An infinite search waits for `stop`, even once the budget is spent.
    e.send("go infinite");
    let early = e.drain(std::time::Duration::from_millis(500));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "{early:?}");
    best_move(&e.search("stop"), &pos).expect("a move");
    e.quit();
}
