//! Scripted Hub v2 sessions against the built binary (`crown hub`): the
//! handshake, every parameter (good and bad values), every variant, every
//! `level` form, `ping` and `stop` during searches, pondering, and a hostile
//! transcript after which the engine still answers and searches; and the
//! Hub items of issue 84 (a `stop` at once, error texts, empty values).
//!
//! Every `done move=` is checked with the library's own codecs: the move must
//! parse as a legal move of the position sent and be written back in exactly
//! the Hub text the engine printed. Timeouts are generous and nothing is
//! timed: a slow machine makes these tests slower, never red.

use crown::draughts::fen::{parse_hub, write_hub};
use crown::draughts::notation::{hub_text, parse_move_text};
use crown::draughts::position::{MoveList, Position};
use crown::draughts::rules::{
    AntidraughtsRules, BrazilianRules, BreakthroughRules, EnglishRules, FrisianRules, FryskRules,
    InternationalRules, ItalianRules, KillerRules, Rules, RussianRules, TurkishRules,
};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const PATIENCE: Duration = Duration::from_secs(120);

/// A running `crown hub` with its output lines arriving on a channel.
struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read so far (for failure messages).
    log: Vec<String>,
}

impl Hub {
    fn start() -> Hub {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crown"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start crown hub");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Hub { child, stdin, lines, log: Vec::new() }
    }

    fn send(&mut self, line: &str) {
        self.stdin.write_all(line.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => {
                self.log.push(line.clone());
                line
            }
            Err(e) => panic!("no line from crown ({e:?}); so far:\n{}", self.log.join("\n")),
        }
    }

    /// Reads lines until one starts with `prefix`; returns it and the lines
    /// before it.
    fn until(&mut self, prefix: &str) -> (String, Vec<String>) {
        let mut before = Vec::new();
        loop {
            let line = self.next();
            if line == prefix || line.starts_with(&format!("{prefix} ")) {
                return (line, before);
            }
            before.push(line);
        }
    }

    /// Sends `ping` and returns the lines printed before `pong`.
    fn sync(&mut self) -> Vec<String> {
        self.send("ping");
        self.until("pong").1
    }

    /// Sends `line` and says whether it drew an `error` line.
    fn errs(&mut self, line: &str) -> bool {
        self.send(line);
        self.sync().iter().any(|l| l.starts_with("error "))
    }

    /// Waits for `done` and returns its move text (None for a bare `done`).
    fn done(&mut self) -> (Option<String>, Vec<String>) {
        let (line, before) = self.until("done");
        let mv = line.split_whitespace().find_map(|t| t.strip_prefix("move=")).map(String::from);
        if let Some(ponder) = line.split_whitespace().find_map(|t| t.strip_prefix("ponder=")) {
            assert!(mv.is_some() && !ponder.is_empty(), "{line}");
        }
        (mv, before)
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status:?}");
    }
}

/// Asserts that `text` is a legal move of the Hub position `pos` after
/// `moves`, printed in canonical Hub text.
fn check_move<R: Rules>(pos: &str, moves: &[String], text: &str) {
    let mut p = parse_hub::<R>(pos).expect("position");
    for m in moves {
        let mv = parse_move_text(&p, m).expect("moves");
        p.play_move(mv);
    }
    let mv = parse_move_text(&p, text).unwrap_or_else(|e| panic!("{text} in {pos}: {e}"));
    assert_eq!(hub_text::<R>(mv), text);
}

/// The first `n` moves of a game where each side plays its first legal move.
fn first_moves<R: Rules>(n: usize) -> Vec<String> {
    let mut p = Position::<R>::start_position();
    let mut out = Vec::new();
    for _ in 0..n {
        let mut list = MoveList::default();
        p.generate_moves(&mut list);
        let Some(&mv) = list.first() else { break };
        out.push(hub_text::<R>(mv));
        p.play_move(mv);
    }
    out
}

fn start_hub<R: Rules>() -> String {
    write_hub(&Position::<R>::start_position())
}

fn pos_line(pos: &str, moves: &[String]) -> String {
    if moves.is_empty() {
        format!("pos pos={pos}")
    } else {
        format!("pos pos={pos} moves=\"{}\"", moves.join(" "))
    }
}

#[test]
fn handshake() {
    let mut hub = Hub::start();
    hub.send("hub");
    let (_, lines) = hub.until("wait");
    assert!(lines[0].starts_with("id name=Crown version="), "{lines:?}");
    assert!(lines[0].contains("author=\"") && lines[0].contains("country="));
    let variant = lines.iter().find(|l| l.starts_with("param name=variant ")).unwrap();
    assert!(variant.contains("value=normal type=enum values=\"normal standard international"));
    for name in ["brazilian", "russian", "english", "italian", "turkish", "antidraughts", "losing"]
    {
        assert!(variant.contains(name), "{variant}");
    }
    for name in ["tt-size", "threads", "ponder", "egtb"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("param name={name} "))), "{name}");
    }
    assert!(lines.iter().all(|l| l.starts_with("id ") || l.starts_with("param ")));
    hub.send("init");
    hub.until("ready");
    assert!(hub.sync().is_empty());
    hub.send("new-game");
    assert!(hub.sync().is_empty());
    hub.quit();
}

#[test]
fn every_parameter_good_and_bad() {
    let mut hub = Hub::start();
    for v in [
        "normal",
        "standard",
        "international",
        "brazilian",
        "russian",
        "english",
        "italian",
        "turkish",
        "antidraughts",
        "losing",
        "NORMAL",
        "killer",
        "bt",
        "frisian",
        "frysk",
    ] {
        assert!(!hub.errs(&format!("set-param name=variant value={v}")), "{v}");
    }
    for bad in ["chess", "frisia", "", "\"\"", "ünïcode"] {
        assert!(hub.errs(&format!("set-param name=variant value={bad}")), "{bad}");
    }
    for good in ["tt-size value=1", "tt-size value=32", "threads value=2", "threads value=1"] {
        assert!(!hub.errs(&format!("set-param name={good}")), "{good}");
    }
    for good in ["ponder value=true", "ponder value=false"] {
        assert!(!hub.errs(&format!("set-param name={good}")), "{good}");
    }
    for bad in [
        "tt-size value=0",
        "tt-size value=-5",
        "tt-size value=lots",
        "tt-size value=99999999999999999999999999",
        "threads value=0",
        "threads value=1.5",
        "ponder value=maybe",
        "ponder",
        "book value=true",
        "Hash value=16",
    ] {
        assert!(hub.errs(&format!("set-param name={bad}")), "{bad}");
    }
    assert!(hub.errs("set-param value=3"));
    // Still searching after all that.
    hub.send("set-param name=variant value=normal");
    hub.send(&pos_line(&start_hub::<InternationalRules>(), &[]));
    hub.send("level depth=3");
    hub.send("go think");
    let (mv, _) = hub.done();
    check_move::<InternationalRules>(&start_hub::<InternationalRules>(), &[], &mv.unwrap());
    hub.quit();
}

fn play_variant<R: Rules>(hub: &mut Hub, name: &str, length: usize) {
    assert!(!hub.errs(&format!("set-param name=variant value={name}")), "{name}");
    // Positions and moves below are in the variant's own numbering.
    assert!(!hub.errs("set-param name=numbering value=variant"));
    let start = start_hub::<R>();
    assert_eq!(start.len(), length, "{name}");
    for plies in [0, 3] {
        let moves = first_moves::<R>(plies);
        assert!(!hub.errs(&pos_line(&start, &moves)), "{name} {moves:?}");
        hub.send("level depth=4");
        hub.send("go think");
        let (mv, before) = hub.done();
        assert!(before.iter().any(|l| l.starts_with("info depth=")), "{name}: {before:?}");
        check_move::<R>(&start, &moves, &mv.unwrap());
    }
    // The position string of another board size is refused.
    let wrong =
        if length == 51 { start_hub::<EnglishRules>() } else { start_hub::<InternationalRules>() };
    assert!(hub.errs(&pos_line(&wrong, &[])), "{name}");
}

#[test]
fn every_variant_plays_legal_moves() {
    let mut hub = Hub::start();
    play_variant::<InternationalRules>(&mut hub, "normal", 51);
    play_variant::<BrazilianRules>(&mut hub, "brazilian", 33);
    play_variant::<RussianRules>(&mut hub, "russian", 33);
    play_variant::<EnglishRules>(&mut hub, "english", 33);
    play_variant::<ItalianRules>(&mut hub, "italian", 33);
    play_variant::<TurkishRules>(&mut hub, "turkish", 65);
    play_variant::<AntidraughtsRules>(&mut hub, "losing", 51);
    play_variant::<AntidraughtsRules>(&mut hub, "antidraughts", 51);
    play_variant::<InternationalRules>(&mut hub, "standard", 51);
    play_variant::<KillerRules>(&mut hub, "killer", 51);
    play_variant::<BreakthroughRules>(&mut hub, "bt", 51);
    play_variant::<BreakthroughRules>(&mut hub, "breakthrough", 51);
    play_variant::<FrisianRules>(&mut hub, "frisian", 51);
    play_variant::<FryskRules>(&mut hub, "frysk", 51);
    hub.quit();
}

#[test]
fn every_level_form() {
    let mut hub = Hub::start();
    let start = start_hub::<InternationalRules>();
    let moves = first_moves::<InternationalRules>(2);
    hub.send(&pos_line(&start, &moves));
    for level in [
        "level depth=3",
        "level nodes=5000",
        "level move-time=0.2",
        "level time=5 inc=0.1",
        "level time=3",
        "level moves=20 time=10",
        "level moves=1 time=0.5 inc=0.25",
        "level time=-0.5 inc=1",
        "level time=0",
        "level depth=999999999999999999999 move-time=0.1",
    ] {
        assert!(!hub.errs(level), "{level}");
        hub.send("go think");
        let (mv, _) = hub.done();
        check_move::<InternationalRules>(&start, &moves, &mv.unwrap());
    }
    // level infinite: thinks until stop, then still answers with a move.
    assert!(!hub.errs("level infinite"));
    hub.send("go think");
    std::thread::sleep(Duration::from_millis(200));
    assert!(hub.sync().iter().all(|l| !l.starts_with("done")));
    hub.send("stop");
    let (mv, _) = hub.done();
    check_move::<InternationalRules>(&start, &moves, &mv.unwrap());
    hub.quit();
}

#[test]
fn ping_and_stop_during_searches() {
    let mut hub = Hub::start();
    let start = start_hub::<InternationalRules>();
    hub.send(&pos_line(&start, &[]));
    // ping during a long think is answered before the search ends.
    hub.send("level move-time=600");
    hub.send("go think");
    let before = hub.sync();
    assert!(before.iter().all(|l| !l.starts_with("done")), "{before:?}");
    hub.send("stop");
    let (mv, _) = hub.done();
    check_move::<InternationalRules>(&start, &[], &mv.unwrap());
    // stop during analysis, after it has reported.
    hub.send("go analyze");
    hub.until("info");
    hub.send("stop");
    let (mv, _) = hub.done();
    check_move::<InternationalRules>(&start, &[], &mv.unwrap());
    // Commands sent during a search run after it, in order; ping does not wait.
    let moves = first_moves::<InternationalRules>(1);
    hub.send("go analyze");
    hub.send(&pos_line(&start, &moves));
    hub.send("level depth=2");
    hub.send("go think");
    let before = hub.sync();
    assert!(before.iter().all(|l| !l.starts_with("done")), "{before:?}");
    hub.send("stop");
    let (first, _) = hub.done();
    check_move::<InternationalRules>(&start, &[], &first.unwrap());
    let (second, _) = hub.done();
    check_move::<InternationalRules>(&start, &moves, &second.unwrap());
    hub.quit();
}

#[test]
fn ponder_then_ponder_hit() {
    let mut hub = Hub::start();
    let start = start_hub::<InternationalRules>();
    let moves = first_moves::<InternationalRules>(1);
    hub.send("set-param name=ponder value=true");
    hub.send(&pos_line(&start, &moves));
    hub.send("level move-time=0.3");
    hub.send("go ponder");
    std::thread::sleep(Duration::from_millis(800));
    // Pondering ignores the clock: no answer until ponder-hit.
    assert!(hub.sync().iter().all(|l| !l.starts_with("done")));
    hub.send("ponder-hit");
    let (mv, _) = hub.done();
    check_move::<InternationalRules>(&start, &moves, &mv.unwrap());
    // A ponder that misses is stopped and still answers.
    hub.send("go ponder");
    hub.send("stop");
    let (mv, _) = hub.done();
    check_move::<InternationalRules>(&start, &moves, &mv.unwrap());
    hub.quit();
}

#[test]
fn bad_positions_and_moves_change_nothing() {
    let mut hub = Hub::start();
    let start = start_hub::<InternationalRules>();
    let moves = first_moves::<InternationalRules>(2);
    assert!(!hub.errs(&pos_line(&start, &moves)));
    for bad in [
        "pos".to_string(),
        "pos pos=".to_string(),
        "pos pos=W".to_string(),
        format!("pos pos={}", &start[..50]),
        format!("pos pos={start}e"),
        format!("pos pos=X{}", &start[1..]),
        format!("pos pos={}", start.replace('e', "x")),
        format!("pos pos=Ww{}", &start[2..]),
        format!("pos pos={start} moves=\"32-28 32-28\""),
        format!("pos pos={start} moves=\"99-98\""),
        format!("pos pos={start} moves=\"32-28 19x23\""),
        format!("pos pos={start} moves=\"32-28"),
        format!("pos pos={start} moves=\"ünï-cødé\""),
        "pos pos=W:W31-50:B1-20 moves=\"31-26 31-26\"".to_string(),
    ] {
        assert!(hub.errs(&bad), "{bad}");
    }
    hub.send("level depth=3");
    hub.send("go think");
    let (mv, _) = hub.done();
    check_move::<InternationalRules>(&start, &moves, &mv.unwrap());
    // A PDN FEN works too, and a lost position gets a bare done.
    assert!(!hub.errs("pos pos=W:W31-50:B1-20"));
    let lost = format!("W{}{}", "b", "e".repeat(49));
    assert!(!hub.errs(&pos_line(&lost, &[])));
    hub.send("go think");
    assert_eq!(hub.done().0, None);
    hub.quit();
}

#[test]
fn hostile_transcript() {
    let mut hub = Hub::start();
    let start = start_hub::<InternationalRules>();
    let huge = "9".repeat(400);
    let lines = [
        String::new(),
        "   ".to_string(),
        "\t\t".to_string(),
        "hubble".to_string(),
        "set-param".to_string(),
        "set-param name=\"threads value=2".to_string(),
        "set-param name= value=".to_string(),
        format!("set-param name=threads value={huge}"),
        format!("set-param name=tt-size value={huge}"),
        "level".to_string(),
        "level depth=".to_string(),
        format!("level depth={huge}"),
        format!("level nodes={huge}"),
        format!("level move-time={huge}"),
        format!("level time=1e{huge}"),
        "level time=NaN".to_string(),
        "level move-time=-1".to_string(),
        "pos pos=\"".to_string(),
        "pos moves=\"1-2\"".to_string(),
        format!("pos pos={}", "é".repeat(51)),
        format!("pos pos=W{}", "ü".repeat(50)),
        "go sideways".to_string(),
        "ponder-hit".to_string(),
        "stop".to_string(),
        "new-game extra=1 \"".to_string(),
        "=".to_string(),
        "==== = = =".to_string(),
        "\"\"\"".to_string(),
        "日本語 テキスト=値".to_string(),
        "\u{0}\u{1}\u{7f}".to_string(),
        format!("pos pos={start} moves=\"{}\"", "32-28 ".repeat(5000)),
        format!("frob {}", "x=y ".repeat(25_000)),
        "x".repeat(100_000),
        format!("set-param name=variant value={}", "a".repeat(100_000)),
    ];
    for line in &lines {
        hub.send(line);
    }
    // Still alive, still answering, still searching.
    hub.sync();
    hub.send(&pos_line(&start, &[]));
    hub.send("level depth=4");
    hub.send("go think");
    let (mv, _) = hub.done();
    check_move::<InternationalRules>(&start, &[], &mv.unwrap());
    hub.quit();
}

#[test]
fn end_of_input_quits_even_mid_search() {
    let mut hub = Hub::start();
    hub.send(&pos_line(&start_hub::<InternationalRules>(), &[]));
    hub.send("level infinite");
    hub.send("go think");
    hub.until("info");
    let Hub { mut child, stdin, lines, .. } = hub;
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
    // The search still answered before leaving.
    assert!(lines.iter().any(|l| l.starts_with("done move=")));
}

/// The answer to `pos` + `moves` at depth 2 under the current settings.
fn answer(hub: &mut Hub, pos: &str, moves: &[String]) -> String {
    assert!(!hub.errs(&pos_line(pos, moves)), "{pos} {moves:?}");
    hub.send("level depth=2");
    hub.send("go think");
    hub.done().0.expect("a move")
}

/// The lidraughts layout as pydraughts sends it, by default: both
/// pydraughts generations send `pos=` in the layout; 0.5.7 the moves and
/// the answer in it too, 0.6.7 the moves in the variant's numbering (and
/// gets its answer so). Without moves the answer follows the `numbering`
/// parameter. Measured traffic: docs/hub.md, "Hub and lidraughts bots".
#[test]
fn lidraughts_layout_and_both_pydraughts_generations() {
    use crown::draughts::layout::Layout;
    fn check<R: Rules>(hub: &mut Hub, name: &str, layout_moves: &[&str], variant_moves: &[&str]) {
        let layout = Layout::of::<R>().expect("layout differs");
        assert!(!hub.errs(&format!("set-param name=variant value={name}")));
        let start = start_hub::<R>();
        let lidraughts_start = {
            // The start as lidraughts numbers it: the inverse permutation.
            let mut chars = vec!['e'; start.len()];
            let text: Vec<char> = start.chars().collect();
            chars[0] = 'W';
            for (n, slot) in chars.iter_mut().enumerate().skip(1) {
                let v: usize = layout.move_to_variant(&n.to_string()).parse().unwrap();
                *slot = text[v];
            }
            chars.into_iter().collect::<String>()
        };
        let swap = |c: char| match c {
            'w' => 'b',
            'b' => 'w',
            c => c,
        };
        let lidraughts_start: String = if name == "english" {
            lidraughts_start.chars().map(swap).collect()
        } else {
            lidraughts_start
        };
        let to_variant =
            |ms: &[&str]| ms.iter().map(|m| layout.move_to_variant(m)).collect::<Vec<_>>();
        let owned = |ms: &[&str]| ms.iter().map(|m| m.to_string()).collect::<Vec<_>>();
        for numbering in ["auto", "auto-variant"] {
            assert!(!hub.errs(&format!("set-param name=numbering value={numbering}")));
            // 0.5.7: moves and answer in the layout.
            let mv = answer(hub, &lidraughts_start, &owned(layout_moves));
            check_move::<R>(&start, &to_variant(layout_moves), &layout.move_to_variant(&mv));
            // 0.6.7: moves and answer in the variant's numbering.
            let mv = answer(hub, &lidraughts_start, &owned(variant_moves));
            check_move::<R>(&start, &owned(variant_moves), &mv);
            // No move: the parameter decides.
            let mv = answer(hub, &lidraughts_start, &[]);
            let mv = if numbering == "auto" { layout.move_to_variant(&mv) } else { mv };
            check_move::<R>(&start, &[], &mv);
        }
        assert!(!hub.errs("set-param name=numbering value=auto"));
    }
    let mut hub = Hub::start();
    check::<RussianRules>(&mut hub, "russian", &["21-17", "9-13"], &["9-13", "21-17"]);
    check::<BrazilianRules>(&mut hub, "brazilian", &["21-17", "9-13"], &["9-13", "21-17"]);
    check::<EnglishRules>(&mut hub, "english", &["21-17", "9-13"], &["12-16", "24-20"]);
    check::<TurkishRules>(&mut hub, "turkish", &["41-33", "17-25"], &["17-25", "41-33"]);
    assert!(hub.errs("set-param name=numbering value=sideways"));
    hub.quit();
}

/// The `info` score and nodes of a depth-`depth` search of the start position, from
/// an empty table (`new-game`), so that only the evaluation decides it.
fn start_score(hub: &mut Hub, depth: u32) -> String {
    hub.send("new-game");
    hub.send(&pos_line(&start_hub::<InternationalRules>(), &[]));
    hub.send(&format!("level depth={depth}"));
    hub.send("go think");
    let (mv, before) = hub.done();
    check_move::<InternationalRules>(&start_hub::<InternationalRules>(), &[], &mv.unwrap());
    let info = before.iter().rev().find(|l| l.starts_with("info ")).expect("an info line");
    // The score and the size of the tree: two evaluations can agree on the
    // score of one position (generation 6's file and the hand-set terms
    // both gave -0.11 here) but hardly on both.
    let field = |key: &str| {
        info.split_whitespace().find(|t| t.starts_with(key)).unwrap_or_else(|| panic!("{key}"))
    };
    format!("{} {}", field("score="), field("nodes="))
}

#[test]
fn eval_file_switches_the_draughts_evaluation() {
    let dir = std::env::temp_dir().join(format!("crown-hub-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("patterns.cdp");
    use crown::eval::draughts::patterns::EMBEDDED;
    let (_, bytes) =
        *EMBEDDED.iter().find(|(v, _)| *v == crown::game::Variant::International).unwrap();
    std::fs::write(&good, bytes).unwrap();
    let mut damaged = bytes.to_vec();
    damaged[5000] ^= 1;
    let broken = dir.join("damaged.cdp");
    std::fs::write(&broken, &damaged).unwrap();
    let foreign = dir.join("foreign.cdp");
    std::fs::write(&foreign, b"neither a network nor patterns").unwrap();

    let mut hub = Hub::start();
    hub.send("hub");
    let (_, params) = hub.until("wait");
    assert!(params.iter().any(|l| l.starts_with("param name=eval-file ")), "{params:?}");
    hub.send("init");
    hub.until("ready");
    hub.send("set-param name=eval-file value=<none>");
    assert!(hub.sync().iter().any(|l| l.contains("hand-set")));
    let hand_set = start_score(&mut hub, 5);
    hub.send(&format!("set-param name=eval-file value={}", good.display()));
    assert!(hub.sync().iter().any(|l| l.contains("international draughts patterns")));
    let learned = start_score(&mut hub, 5);
    assert_ne!(hand_set, learned, "both evaluations give the same search");
    // A damaged or foreign file is refused and the patterns stay in use.
    for (file, reason) in [(&broken, "checksum"), (&foreign, "neither")] {
        hub.send(&format!("set-param name=eval-file value={}", file.display()));
        let lines = hub.sync();
        assert!(lines.iter().any(|l| l.contains(reason) && l.contains("keeping")), "{lines:?}");
        assert_eq!(start_score(&mut hub, 5), learned);
    }
    hub.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_moves_are_played_at_once_where_the_book_has_the_position() {
    use crown::book::{build, key, Book};
    use crown::game::{Game, Variant};
    let dir = std::env::temp_dir().join(format!("crown-hub-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let config =
        build::Config { depth: 2, full: 1, nodes: 500, margin: 10, threads: 1, hash_mb: 1 };
    let book =
        build::build::<crown::draughts::International>(Variant::International, &config, |_| {})
            .unwrap();
    let file = dir.join("international.crb");
    book.save(&file).unwrap();
    let damaged = dir.join("damaged.crb");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[60] ^= 1;
    std::fs::write(&damaged, &bytes).unwrap();
    let start = crown::draughts::International::start(Variant::International);
    let best = Book::load(&file).unwrap().moves(key(&start)).unwrap()[0].text.clone();
    let start_text = start_hub::<InternationalRules>();

    let mut hub = Hub::start();
    hub.send("hub");
    let (_, params) = hub.until("wait");
    assert!(params.iter().any(|l| l.starts_with("param name=book ")), "{params:?}");
    hub.send("init");
    hub.until("ready");
    // A game move (on the clock) in a position the book has, or not.
    let game_move = |hub: &mut Hub, moves: &[String]| {
        hub.send(&pos_line(&start_text, moves));
        hub.send("level move-time=0.2");
        hub.send("go think");
        let (mv, before) = hub.done();
        check_move::<InternationalRules>(&start_text, moves, mv.as_deref().unwrap());
        (mv.unwrap(), before.iter().any(|l| l.starts_with("info ")))
    };
    // A damaged book is refused; the engine plays on without one.
    hub.send(&format!("set-param name=book value={}", damaged.display()));
    let lines = hub.sync();
    assert!(
        lines.iter().any(|l| l.contains("checksum") && l.contains("without a book")),
        "{lines:?}"
    );
    assert!(game_move(&mut hub, &[]).1, "no book: a search");
    // The book: its best move at once, no search.
    hub.send(&format!("set-param name=book value={}", file.display()));
    assert!(hub.sync().iter().any(|l| l.contains("international, ")));
    assert_eq!(game_move(&mut hub, &[]), (best.clone(), false));
    // Out of the book (two plies in), and analysis: searches.
    let two = first_moves::<InternationalRules>(2);
    assert!(game_move(&mut hub, &two).1);
    hub.send(&pos_line(&start_text, &[]));
    hub.send("level depth=2");
    hub.send("go think");
    assert!(hub.done().1.iter().any(|l| l.starts_with("info ")), "analysis searches");
    // A foreign file is refused and the book in use kept.
    hub.send(&format!("set-param name=book value={}", damaged.with_extension("none").display()));
    let lines = hub.sync();
    assert!(lines.iter().any(|l| l.contains("keeping")), "{lines:?}");
    assert_eq!(game_move(&mut hub, &[]), (best, false));
    hub.send("set-param name=book value=<none>");
    hub.sync();
    assert!(game_move(&mut hub, &[]).1);
    hub.quit();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stop_at_once_still_plays_a_finished_depth_one() {
    // Issue 84, item 1: `go analyze` and `stop` at once answered the first
    // root move with `nodes=0`, unsearched.
    let mut hub = Hub::start();
    let start = start_hub::<InternationalRules>();
    hub.send(&pos_line(&start, &[]));
    for _ in 0..3 {
        hub.send("go analyze");
        hub.send("stop");
        let (mv, before) = hub.done();
        let mv = mv.expect("a move");
        check_move::<InternationalRules>(&start, &[], &mv);
        let info = before.iter().rev().find(|l| l.starts_with("info ")).expect("an info line");
        let value = |key: &str| {
            let at = info.find(&format!(" {key}=")).expect(key) + key.len() + 2;
            info[at..].trim_start_matches('"').split([' ', '"']).next().unwrap().to_string()
        };
        assert!(value("nodes").parse::<u64>().unwrap() > 0, "{info}");
        assert_eq!(value("pv"), mv, "{info}");
    }
    hub.quit();
}

#[test]
fn errors_name_the_moves_the_client_sent() {
    // Issue 84, item 4: with `numbering=auto`, Russian, the message named
    // the move as read in the other numbering ('10-14').
    let mut hub = Hub::start();
    assert!(!hub.errs("set-param name=variant value=russian"));
    for (line, named) in [
        ("pos start moves=\"22-18 22-18\"", "move 2 '22-18'"),
        ("pos start moves=\"22-18 11-15 22-18\"", "move 3 '22-18'"),
        // Legal up to move 4 in the variant's numbering, not even move 1 in
        // lidraughts' (where `9-13` read as '21-17'): the reading that got
        // further names the fault.
        ("pos start moves=\"9-13 21-17 13-18 17-13\"", "move 4 '17-13'"),
    ] {
        hub.send(line);
        let lines = hub.sync();
        assert!(lines.iter().any(|l| l.starts_with("error ") && l.contains(named)), "{lines:?}");
    }
    hub.quit();
}

#[test]
fn option_errors_name_the_parameter_and_value_the_client_sent() {
    // Issue 84, item 4 (found by the stress run): `tt-size` errors named
    // UCI's `Hash` and echoed a huge value as i64::MAX.
    let mut hub = Hub::start();
    for (line, named) in [
        ("set-param name=tt-size value=0", "value 0 for option tt-size"),
        (
            "set-param name=tt-size value=99999999999999999999",
            "value 99999999999999999999 for option tt-size",
        ),
        ("set-param name=threads value=many", "invalid value 'many' for option threads"),
    ] {
        hub.send(line);
        let lines = hub.sync();
        assert!(lines.iter().any(|l| l.starts_with("error ") && l.contains(named)), "{lines:?}");
        assert!(lines.iter().all(|l| !l.contains("Hash") && !l.contains("Threads")), "{lines:?}");
    }
    hub.quit();
}

#[test]
fn empty_values_are_the_defaults() {
    // Issue 84, item 6: an empty `eval-file` chose the hand-set evaluation
    // instead of the default.
    use crown::engine::options::DEFAULT_NET;
    let mut hub = Hub::start();
    let default = start_score(&mut hub, 5);
    for empty in ["value=", "value=\"\""] {
        assert!(hub.sync().is_empty());
        hub.send("set-param name=eval-file value=<none>");
        hub.sync();
        hub.send(&format!("set-param name=eval-file {empty}"));
        let lines = hub.sync();
        assert!(lines.iter().any(|l| l.contains(&format!("EvalFile {DEFAULT_NET}"))), "{lines:?}");
        assert_eq!(start_score(&mut hub, 5), default, "{empty}");
    }
    for empty in ["egtb value=", "book value=\"\""] {
        hub.send(&format!("set-param name={empty}"));
        let lines = hub.sync();
        assert!(lines.iter().all(|l| !l.contains("not a directory")), "{empty}: {lines:?}");
    }
    hub.quit();
}
