//! Endgame databases: the tables Crown builds are checked against a second,
//! independent computation and against positions whose result is known.
//!
//! The independent computation uses only the public rules (`Game`: FEN,
//! move generation, play, no-move result): it lists every position of a
//! signature by PDN numbers, follows every move to build the whole reachable
//! game graph, and solves it by plain repeated passes (a position is a win
//! if a move reaches a loss, a loss if every move reaches a win, a draw if
//! nothing changes any more). It shares no code with the builder's indexing,
//! un-move generation or retrograde queue. Tables are built here for 2 and
//! 3 pieces only, to keep the default run short.

use crown::draughts::rules::{
    AntidraughtsRules, BrazilianRules, EnglishRules, InternationalRules, ItalianRules, Rules,
    RussianRules, TurkishRules,
};
use crown::draughts::Position;
use crown::endgame::draughts::{build_all, build_missing, Signature, Tablebase, Wdl};
use crown::game::{Game, NoMoveResult, Side, Variant};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

mod cli_support;
use cli_support::crown;

type Key = (u64, u64, u64, bool);

fn key<R: Rules>(p: &Position<R>) -> Key {
    (p.white(), p.black(), p.kings(), p.side() == Side::White)
}

/// Every position of `sig` (both sides to move), written as PDN FEN over
/// the numbers 1..=`squares`; men on their crown row are refused by the FEN
/// reader and left out.
fn positions_of<R: Rules>(sig: Signature, squares: u32) -> Vec<Position<R>> {
    let kinds: Vec<&str> = [
        ("W", sig.white_men),
        ("WK", sig.white_kings),
        ("B", sig.black_men),
        ("BK", sig.black_kings),
    ]
    .iter()
    .flat_map(|&(k, n)| std::iter::repeat(k).take(n as usize))
    .collect();
    let mut out = Vec::new();
    let mut squares_of = vec![0u32; kinds.len()];
    fn place<R: Rules>(
        i: usize,
        kinds: &[&str],
        chosen: &mut Vec<u32>,
        squares: u32,
        out: &mut Vec<Position<R>>,
    ) {
        if i == kinds.len() {
            for side in ["W", "B"] {
                let list = |colour: &str| -> Vec<String> {
                    kinds
                        .iter()
                        .zip(chosen.iter())
                        .filter(|(k, _)| k.starts_with(colour))
                        .map(|(k, s)| if k.len() == 2 { format!("K{s}") } else { s.to_string() })
                        .collect()
                };
                let fen = format!("{side}:W{}:B{}", list("W").join(","), list("B").join(","));
                if let Ok(pos) = Position::<R>::from_fen(&fen, R::VARIANT) {
                    out.push(pos);
                }
            }
            return;
        }
        // Pieces of one kind in increasing order; no square twice.
        let start = if i > 0 && kinds[i - 1] == kinds[i] { chosen[i - 1] + 1 } else { 1 };
        for s in start..=squares {
            if chosen[..i].contains(&s) {
                continue;
            }
            chosen[i] = s;
            place(i + 1, kinds, chosen, squares, out);
        }
    }
    place(0, &kinds, &mut squares_of, squares, &mut out);
    out
}

/// Solves the game graph reachable from `roots` by repeated passes.
fn solve<R: Rules>(roots: &[Position<R>]) -> HashMap<Key, Wdl> {
    let mut ids: HashMap<Key, usize> = HashMap::new();
    let mut nodes: Vec<Position<R>> = Vec::new();
    for p in roots {
        if ids.insert(key(p), nodes.len()).is_none() {
            nodes.push(*p);
        }
    }
    let mut children: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    while next < nodes.len() {
        let pos = nodes[next];
        let mut list = <Position<R> as Game>::MoveList::default();
        pos.generate(&mut list);
        let mut kids = Vec::new();
        for &mv in list.iter() {
            let mut child = pos;
            child.play(mv);
            let id = *ids.entry(key(&child)).or_insert_with(|| {
                nodes.push(child);
                nodes.len() - 1
            });
            kids.push(id);
        }
        children.push(kids);
        next += 1;
    }
    let mut value: Vec<Option<Wdl>> = vec![None; nodes.len()];
    loop {
        let mut changed = false;
        for i in 0..nodes.len() {
            if value[i].is_some() {
                continue;
            }
            let kids = &children[i];
            let v = if kids.is_empty() {
                Some(match nodes[i].no_move_result() {
                    NoMoveResult::Loss => Wdl::Loss,
                    NoMoveResult::Win => Wdl::Win,
                    NoMoveResult::Draw => Wdl::Draw,
                })
            } else if kids.iter().any(|&c| value[c] == Some(Wdl::Loss)) {
                Some(Wdl::Win)
            } else if kids.iter().all(|&c| value[c] == Some(Wdl::Win)) {
                Some(Wdl::Loss)
            } else {
                None
            };
            if v.is_some() {
                value[i] = v;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    ids.into_iter().map(|(k, i)| (k, value[i].unwrap_or(Wdl::Draw))).collect()
}

/// Builds the tables up to 3 pieces and compares `sigs` position by
/// position and by W/L/D counts with the independent solution (one graph
/// for all of them).
fn check<R: Rules>(squares: u32, sigs: &[Signature]) {
    let tb = build_all::<R>(3, |_, _| {}).expect("build");
    let per_sig: Vec<Vec<Position<R>>> =
        sigs.iter().map(|&sig| positions_of::<R>(sig, squares)).collect();
    let solved = solve::<R>(&per_sig.concat());
    for (&sig, positions) in sigs.iter().zip(&per_sig) {
        let mut counts = [0u64; 3];
        for p in positions {
            let expected = solved[&key(p)];
            assert_eq!(tb.probe(p), Some(expected), "{:?} {sig} {}", R::VARIANT, p.to_fen());
            counts[match expected {
                Wdl::Win => 0,
                Wdl::Loss => 1,
                Wdl::Draw => 2,
            }] += 1;
        }
        let table = tb.table(sig).expect("table");
        assert_eq!(table.counts(), counts, "{:?} {sig}", R::VARIANT);
    }
}

fn sig(text: &str) -> Signature {
    Signature::parse(text).expect("signature")
}

#[test]
fn international_counts_match_an_independent_solution() {
    let sigs = ["0m1k-0m1k", "1m0k-1m0k", "1m0k-0m1k", "0m2k-0m1k", "2m0k-1m0k", "1m0k-1m1k"];
    check::<InternationalRules>(50, &sigs.map(sig));
}

#[test]
fn eight_by_eight_counts_match_an_independent_solution() {
    let all: Vec<Signature> = Signature::all_up_to(3);
    check::<EnglishRules>(32, &all);
    check::<RussianRules>(32, &all);
    check::<ItalianRules>(32, &all);
    check::<BrazilianRules>(32, &all);
}

#[test]
fn turkish_and_antidraughts_counts_match_an_independent_solution() {
    check::<TurkishRules>(64, &["0m1k-0m1k", "1m0k-1m0k", "1m1k-1m0k", "0m1k-2m0k"].map(sig));
    check::<AntidraughtsRules>(50, &["0m1k-0m1k", "1m0k-1m0k", "1m0k-0m2k"].map(sig));
}

fn probe<R: Rules>(tb: &Tablebase, fen: &str) -> Option<Wdl> {
    tb.probe(&Position::<R>::from_fen(fen, R::VARIANT).expect("fen"))
}

#[test]
fn known_results() {
    let tb = build_all::<InternationalRules>(3, |_, _| {}).expect("build");
    let p = |fen| probe::<InternationalRules>(&tb, fen);
    // A lone king against a lone king, not on one diagonal: a draw.
    assert_eq!(p("W:WK46:BK1"), Some(Wdl::Draw));
    assert_eq!(p("B:WK28:BK3"), Some(Wdl::Draw));
    // A king that may capture the other one wins at once.
    assert_eq!(p("W:WK46:BK28"), Some(Wdl::Win));
    // A man one step from the crown against a lone man far behind wins;
    // against a man also one step from his crown, it is a draw.
    assert_eq!(p("W:W8:B3"), Some(Wdl::Win));
    assert_eq!(p("W:W8:B45"), Some(Wdl::Draw));
    // Blocked: no move loses (international) ...
    assert_eq!(p("W:W46:B41,37"), Some(Wdl::Loss));
    // ... and wins in antidraughts, as does having no piece left.
    let anti = build_all::<AntidraughtsRules>(3, |_, _| {}).expect("build");
    assert_eq!(probe::<AntidraughtsRules>(&anti, "W:W46:B41,37"), Some(Wdl::Win));
    // Two kings against one win in English checkers (short kings).
    let english = build_all::<EnglishRules>(3, |_, _| {}).expect("build");
    assert_eq!(probe::<EnglishRules>(&english, "W:WK29,K30:BK4"), Some(Wdl::Win));
    // More pieces than the tables hold: no answer.
    assert_eq!(p("W:W31,32:B1,2"), None);
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("crown-egtb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_resumed_build_equals_a_whole_one() {
    let whole = build_all::<RussianRules>(3, |_, _| {}).expect("build");
    let mut part = Tablebase::new(Variant::Russian);
    for t in whole.tables().into_iter().filter(|t| t.signature().pieces() < 3).step_by(2) {
        part.insert(t.clone());
    }
    let kept = part.tables().len();
    let mut built = 0;
    let resumed = build_missing::<RussianRules>(part, 3, |_, _| {
        built += 1;
        Ok(())
    })
    .expect("resume");
    assert_eq!(built + kept, whole.tables().len());
    for t in whole.tables() {
        assert_eq!(resumed.table(t.signature()), Some(t), "{}", t.signature());
    }
    // A table that cannot be kept stops the build with its reason.
    let err = build_missing::<RussianRules>(Tablebase::new(Variant::Russian), 3, |_, _| {
        Err("disk full".to_string())
    })
    .expect_err("stops");
    assert_eq!(err.to_string(), "disk full");
}

#[test]
fn files_round_trip_and_damage_is_refused() {
    let dir = temp_dir("files");
    let tb = build_all::<BrazilianRules>(3, |_, _| {}).expect("build");
    tb.save_dir(&dir).expect("save");
    let (back, problems) = Tablebase::load_dir(&dir, Variant::Brazilian);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(back.tables().len(), tb.tables().len());
    for t in tb.tables() {
        assert_eq!(back.table(t.signature()), Some(t));
    }
    // One damaged byte: that table is refused with a message, the rest kept.
    let victim = dir.join("1m1k-1m0k.wdl");
    let mut bytes = std::fs::read(&victim).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&victim, &bytes).expect("write");
    // A truncated table and a stray file are refused too.
    let short = dir.join("0m1k-0m1k.wdl");
    let len = std::fs::metadata(&short).expect("meta").len();
    std::fs::write(&short, &std::fs::read(&short).expect("read")[..len as usize / 2])
        .expect("write");
    std::fs::write(dir.join("junk.wdl"), b"hello").expect("write");
    let (damaged, problems) = Tablebase::load_dir(&dir, Variant::Brazilian);
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert!(problems.iter().any(|p| p.contains("1m1k-1m0k.wdl") && p.contains("damaged")));
    assert!(problems.iter().any(|p| p.contains("0m1k-0m1k.wdl")));
    assert_eq!(damaged.tables().len(), tb.tables().len() - 2);
    assert!(damaged.table(sig("1m1k-1m0k")).is_none());
    // Tables of another variant are refused (the header names the variant).
    let (other, problems) = Tablebase::load_dir(&dir, Variant::Russian);
    assert_eq!(other.tables().len(), 0);
    assert!(!problems.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_build_and_probe() {
    let dir = temp_dir("cli");
    let root = dir.to_str().expect("utf-8 path");
    let (ok, out, err) =
        crown(&["egtb", "build", "--variant", "international", "--pieces", "3", "--dir", root]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("16 tables"), "{out}");
    assert!(dir.join("international").join("0m2k-0m1k.wdl").is_file());
    // A second build resumes: the valid tables are kept, a damaged one is
    // built again (and reads back).
    let victim = dir.join("international").join("1m0k-1m1k.wdl");
    let mut bytes = std::fs::read(&victim).expect("read");
    bytes.truncate(bytes.len() - 3);
    std::fs::write(&victim, &bytes).expect("write");
    let (ok, out, err) =
        crown(&["egtb", "build", "--variant", "international", "--pieces", "3", "--dir", root]);
    assert!(ok, "{out}{err}");
    assert!(err.contains("1m0k-1m1k.wdl") && err.contains("building it again"), "{err}");
    assert!(out.contains("15 tables already in"), "{out}");
    assert!(out.contains("1 tables built") && out.contains("16 tables up to 3 pieces"), "{out}");
    let (ok, out, err) =
        crown(&["egtb", "build", "--variant", "international", "--pieces", "3", "--dir", root]);
    assert!(ok && err.is_empty(), "{out}{err}");
    assert!(out.contains("0 tables built"), "{out}");
    let (ok, out, _) =
        crown(&["egtb", "probe", "--variant", "international", "--dir", root, "W:W8:B3"]);
    assert!(ok);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("win"));
    assert!(out.lines().any(|l| l == "8-2 win"), "{out}");
    // Bad input: a clear error, exit status 1.
    let (ok, _, err) = crown(&["egtb", "probe", "--variant", "chess", "--dir", root, "W:W8:B45"]);
    assert!(!ok && err.contains("draughts"), "{err}");
    let (ok, _, err) =
        crown(&["egtb", "probe", "--variant", "international", "--dir", root, "W:W8:B45:X"]);
    assert!(!ok && err.contains("bad position"), "{err}");
    let (ok, _, err) =
        crown(&["egtb", "probe", "--variant", "international", "--dir", root, "W:W31-34:B1"]);
    assert!(!ok && err.contains("no table"), "{err}");
    let (ok, _, err) = crown(&["egtb", "build", "--pieces", "9", "--dir", root]);
    assert!(!ok && err.contains("--pieces"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hub_search_uses_the_tables() {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let dir = temp_dir("hub");
    let root = dir.to_str().expect("utf-8 path");
    let (ok, out, err) =
        crown(&["egtb", "build", "--variant", "international", "--pieces", "2", "--dir", root]);
    assert!(ok, "{out}{err}");
    // The tables given as `--egtb` (messages on stderr; loaded at `init`,
    // or at the first `go` for a client that sends no `init`) or as the
    // Hub parameter `egtb` (messages on `error` lines: Hub has no other).
    // A missing directory: a message, and the engine still plays; set
    // after tables were loaded, it is refused and the tables stay.
    let missing = format!("{root}/missing");
    let cases = [
        (root, false, "init\n", false),
        (&missing, false, "init\n", false),
        (root, false, "", false),
        (root, true, "init\n", false),
        (&missing, true, "init\n", false),
        (root, true, "init\n", true),
    ];
    for (egtb, by_param, init, then_missing) in cases {
        let (args, mut param) = if by_param {
            (vec!["hub"], format!("set-param name=egtb value={egtb}\n"))
        } else {
            (vec!["hub", "--egtb", egtb], String::new())
        };
        if then_missing {
            param += &format!("set-param name=egtb value={missing}\n");
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_crown"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start crown hub");
        let mut stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // 12-8 wins (the tables say so after one ply, far above any
        // evaluation); 12-7 would be taken.
        writeln!(stdin, "hub\n{param}{init}pos pos=W:W12:B1\nlevel depth=3\ngo think")
            .expect("send");
        let mut score = None;
        let mut messages = String::new();
        loop {
            let line = rx.recv_timeout(std::time::Duration::from_secs(120)).expect("done");
            if line.starts_with("error") {
                messages.push_str(&line);
            }
            if let Some(rest) = line.split("score=").nth(1) {
                // Hub scores are in men (hundredths of the internal score).
                score = rest
                    .split_whitespace()
                    .next()
                    .and_then(|s| s.parse::<f64>().ok())
                    .map(|men| (men * 100.0).round() as i32);
            }
            if line.starts_with("done") {
                assert!(line.contains("move=12-8"), "{line}");
                break;
            }
        }
        writeln!(stdin, "quit").expect("send");
        let out = child.wait_with_output().expect("exit");
        let err = if by_param { messages } else { String::from_utf8_lossy(&out.stderr).into() };
        let score = score.expect("a score");
        if then_missing {
            assert!(
                err.contains(&format!("not a directory; keeping the tables of {root}")),
                "{err}"
            );
        }
        if egtb.ends_with("missing") {
            assert!(err.contains("not a directory"), "{err}");
            assert!(score < crown::score::TABLE_WIN, "{score}");
        } else {
            assert!(err.contains("international: 4 tables"), "{err}");
            assert!(score > crown::score::TABLE_WIN - crown::score::TABLE_PROGRESS, "{score}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
