//! UCI under fast random traffic (issues 18 and 84): seeded random command
//! sequences with random short pauses, on one and two threads, against the
//! built binary. Besides positions, searches of every kind, `stop`,
//! `isready` and `ucinewgame`, a sequence sends `go ponder` (with and
//! without `ponderhit`), `go perft`, `bench`, `setoption` of `Hash` (also
//! `Clear Hash`) and `MultiPV` during and between searches, `go
//! searchmoves` with legal and illegal moves, and malformed lines: the
//! cases of `tests/data/uci_hostile.txt`, random bytes (some not UTF-8),
//! commands cut short, numbers too large for any field, word soup, empty
//! lines. The contract checked after every sequence:
//!
//! * every `go` crown's parser accepts gets exactly one `bestmove` (never
//!   more; a `go infinite` or an unanswered `go ponder` is answered after
//!   `stop`, so the end of a sequence sends `stop` until every search has
//!   answered), and nothing else brings one;
//! * a `go searchmoves` answers one of the legal moves it names (any legal
//!   move when it names none);
//! * every `isready` gets its `readyok` within 2 s of being sent, whatever
//!   runs or waits in the queue;
//! * nothing that is due takes more than 2 s (a hang fails with the seed,
//!   the exit status if crown died, and the last lines sent and read);
//! * `ucinewgame`, `Threads 1`, `Hash 16`, `MultiPV 1`, `go depth 8` from a
//!   fixed position then gives a legal move, and the best move and node
//!   count of a fresh process: no state leaks.
//!
//! One process serves many sequences (the contract allows it); some
//! sequences end with `quit`, after which the process must exit within 2 s
//! and a new one is started. 1,000 sequences by default, 20,000 with
//! `CROWN_SOAK=1`; `CROWN_SEED=N` replays a run.

mod stress_support;

use crown::chess::Position;
use crown::game::{random_playout, Game, Variant};
use crown::protocol::{uci, Command};
use std::time::{Duration, Instant};
use stress_support::{
    field, hostile_cases, malformed, option_owes, pause, run_sequences, seed, Case, Line, Owed,
    Owes, Proc, Protocol, Rng, UCI,
};

/// The position of the determinism check.
const FIXED: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/// The best move and node count of `go depth 8` from [`FIXED`].
fn reference(p: &mut Proc, context: &str) -> (String, u64) {
    for line in [
        "ucinewgame",
        "setoption name Threads value 1",
        "setoption name Hash value 16",
        "setoption name MultiPV value 1",
        &format!("position fen {FIXED}"),
    ] {
        p.send(line);
    }
    p.send("go depth 8");
    let lines = p
        .until(Duration::from_secs(20), |l| l.starts_with("bestmove"))
        .unwrap_or_else(|_| panic!("{context}: no bestmove for go depth 8\n{}", p.dump()));
    let best = field(&lines.last().unwrap().text, "bestmove").unwrap_or("").to_string();
    let nodes = lines
        .iter()
        .rev()
        .find_map(|l| field(&l.text, "nodes").and_then(|n| n.parse().ok()))
        .unwrap_or_else(|| panic!("{context}: no nodes before bestmove\n{}", p.dump()));
    let pos = Position::from_fen(FIXED, Variant::Chess).expect("FIXED");
    assert!(
        pos.parse_move(&best).is_ok(),
        "{context}: bestmove {best:?} is not legal\n{}",
        p.dump()
    );
    (best, nodes)
}

fn fresh() -> Proc {
    let mut p = Proc::start(&[]);
    p.send("uci");
    p.until(Duration::from_secs(20), |l| l == "uciok").expect("uciok");
    p
}

/// Random positions to set up: a few random games from the start.
fn positions(rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..8 {
        let games = random_playout(Position::start(Variant::Chess), 30, rng.next_u64());
        out.extend(games.iter().step_by(5).filter(|p| !p.legal_moves_empty()).map(|p| p.to_fen()));
    }
    out
}

trait Empty {
    fn legal_moves_empty(&self) -> bool;
}

impl Empty for Position {
    fn legal_moves_empty(&self) -> bool {
        let mut list = <Position as Game>::MoveList::default();
        self.generate(&mut list);
        list.is_empty()
    }
}

/// Valid lines of every kind the run sends, to be cut short.
const COMMANDS: &[&str] = &[
    "go depth 3",
    "go nodes 5000",
    "go wtime 300 btime 300 winc 10 binc 10",
    "go ponder wtime 300 btime 300",
    "go perft 2",
    "bench 1",
    "go depth 2 searchmoves e2e4 d2d4",
    "setoption name Hash value 8",
    "setoption name MultiPV value 3",
    "setoption name Clear Hash",
    "position startpos moves e2e4 e7e5 g1f3",
    "position fen r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "isready",
    "ponderhit",
    "ucinewgame",
];

/// Lines whose `{}` gets a number too large or malformed.
const NUMBERED: &[&str] = &[
    "go depth {}",
    "go nodes {}",
    "go movetime {}",
    "go wtime {} btime {}",
    "go mate {}",
    "go movestogo {} wtime 100 btime 100",
    "go perft {}",
    "bench {}",
    "setoption name Hash value {}",
    "setoption name MultiPV value {}",
    "setoption name Threads value {}",
    "position startpos moves e2e4 {}",
];

/// UCI's words, for word soup.
const WORDS: &[&str] = &[
    "go",
    "ponder",
    "ponderhit",
    "perft",
    "bench",
    "setoption",
    "name",
    "value",
    "Hash",
    "MultiPV",
    "searchmoves",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "wtime",
    "isready",
    "position",
    "startpos",
    "fen",
    "moves",
    "e2e4",
    "0000",
    "stop",
    "uci",
    "ucinewgame",
    "debug",
    "register",
];

/// Options a line may not set in a run: they would change the reference
/// search (its moves' notation, its level, its evaluation) or last beyond
/// it.
const KEPT_OPTIONS: &[&str] = &[
    "uci_chess960",
    "uci_limitstrength",
    "uci_elo",
    "skill level",
    "seed",
    "evalfile",
    "bookfile",
    "syzygypath",
    "syzygyprobedepth",
    "syzygy50moverule",
    "syzygyprobelimit",
];

fn owes(line: &[u8]) -> Owes {
    let text = format!("{}\n", String::from_utf8_lossy(line));
    match uci::parse(&text) {
        Ok(Some(Command::Go(_))) => Owes::Answer,
        Ok(Some(Command::IsReady)) => Owes::Ready,
        Ok(Some(Command::Quit)) => Owes::Skip,
        Ok(Some(Command::Perft(depth))) if depth > 3 => Owes::Skip,
        Ok(Some(Command::Bench(depth))) if depth.map_or(true, |d| d > 2) => Owes::Skip,
        Ok(Some(Command::SetOption { name, value })) => {
            option_owes(&name, value.as_deref(), "hash", KEPT_OPTIONS)
        }
        _ => Owes::Nothing,
    }
}

/// A line and, for a `go`, the moves its answer may be (`None`: any).
type Step = (Vec<u8>, Option<Vec<String>>);

/// `position fen F`, then a search restricted to some of F's legal moves
/// and some moves that are not (malformed or illegal there): its answer
/// must be one of the legal ones given, or any legal move when none is.
fn restricted(rng: &mut Rng, fens: &[String]) -> Vec<Step> {
    let fen = rng.pick(fens).clone();
    let pos = Position::from_fen(&fen, Variant::Chess).expect("a generated FEN");
    let mut list = <Position as Game>::MoveList::default();
    pos.generate(&mut list);
    let legal: Vec<String> = list.iter().map(|&mv| pos.move_text(mv)).collect();
    let mut given: Vec<String> = (0..rng.range(0, 3)).map(|_| rng.pick(&legal).clone()).collect();
    for _ in 0..rng.range(usize::from(given.is_empty()) as u64, 2) {
        given
            .push(rng.pick(&["e2e5", "a1a1", "zz99", "e7e8q", "0000", "h8h1", "e1g1"]).to_string());
    }
    rng.shuffle(&mut given);
    let mut allowed: Vec<String> = legal.iter().filter(|m| given.contains(m)).cloned().collect();
    if allowed.is_empty() {
        allowed = legal;
    }
    let limit = match rng.range(0, 2) {
        0 => format!("depth {}", rng.range(1, 4)),
        1 => format!("nodes {}", rng.range(200, 5000)),
        _ => format!("movetime {}", rng.range(1, 20)),
    };
    let go = if rng.chance(50) {
        format!("go {limit} searchmoves {}", given.join(" "))
    } else {
        format!("go searchmoves {} {limit}", given.join(" "))
    };
    assert_eq!(owes(go.as_bytes()), Owes::Answer, "the test's own line {go}");
    vec![(format!("position fen {fen}").into_bytes(), None), (go.into_bytes(), Some(allowed))]
}

/// One step of a sequence: one line, or two that belong together.
fn step(rng: &mut Rng, fens: &[String], cases: &[Case]) -> Vec<Step> {
    let line = match rng.range(0, 23) {
        0 => "position startpos moves e2e4 e7e5 g1f3".to_string(),
        1 | 2 => format!("position fen {}", rng.pick(fens)),
        3 => format!("go depth {}", rng.range(1, 5)),
        4 => format!("go nodes {}", rng.range(200, 20_000)),
        5 => format!("go movetime {}", rng.range(1, 30)),
        6 => {
            let t = rng.range(50, 2000);
            format!("go wtime {t} btime {t} winc {} binc 10", rng.range(0, 50))
        }
        7 if rng.chance(40) => "go infinite".to_string(),
        7 | 8 => "stop".to_string(),
        9 | 10 => "isready".to_string(),
        11 => "ucinewgame".to_string(),
        12 => format!("setoption name Threads value {}", rng.range(1, 2)),
        13 => {
            // Pondering, answered after `ponderhit` (sometimes sent at once)
            // by the clock or limit, else after `stop`.
            let t = rng.range(50, 1000);
            let go = match rng.range(0, 3) {
                0 => format!("go ponder wtime {t} btime {t} winc 10 binc 10"),
                1 => format!("go ponder movetime {}", rng.range(1, 30)),
                2 => format!("go ponder depth {}", rng.range(1, 5)),
                _ => "go ponder".to_string(),
            };
            let mut steps = vec![(go.into_bytes(), None)];
            if rng.chance(50) {
                steps.push((b"ponderhit".to_vec(), None));
            }
            return steps;
        }
        14 => "ponderhit".to_string(),
        15 => format!("go perft {}", rng.range(0, 3)),
        16 => format!("bench {}", rng.range(1, 2)),
        17 if rng.chance(20) => "setoption name Clear Hash".to_string(),
        17 => format!("setoption name Hash value {}", rng.pick(&[1, 2, 4, 8, 16, 32, 64])),
        18 => format!("setoption name MultiPV value {}", rng.range(1, 4)),
        19 => return restricted(rng, fens),
        20 => return vec![(rng.pick(cases).payload.clone(), None)],
        _ => return vec![(malformed(rng, COMMANDS, NUMBERED, WORDS), None)],
    };
    vec![(line.into_bytes(), None)]
}

/// One random sequence of 3 to 14 steps.
fn sequence(
    rng: &mut Rng,
    p: &mut Proc,
    owed: &mut Owed,
    fens: &[String],
    cases: &[Case],
    ctx: &str,
) {
    let threads = if rng.chance(50) { 1 } else { 2 };
    p.send(&format!("setoption name Threads value {threads}"));
    for _ in 0..rng.range(3, 14) {
        for (line, allowed) in step(rng, fens, cases) {
            let owes = owes(&line);
            if owes == Owes::Skip {
                continue;
            }
            if owes == Owes::Answer {
                owed.go(allowed);
            }
            if !p.send_bytes(&line) {
                panic!("{ctx}: crown closed its input ({:?})\n{}", p.exit_status(), p.dump());
            }
            if owes == Owes::Ready {
                owed.ready.push_back(Instant::now());
            }
            pause(rng);
            owed.drain(p, ctx);
        }
    }
    p.send("isready");
    owed.ready.push_back(Instant::now());
    owed.settle(p, ctx);
}

#[test]
fn random_sequences_keep_the_uci_contract() {
    let seed = seed();
    let mut rng = Rng::new(seed);
    let fens = positions(&mut rng);
    let cases = hostile_cases();
    let sequence = |rng: &mut Rng, p: &mut Proc, owed: &mut Owed, ctx: &str| {
        sequence(rng, p, owed, &fens, &cases, ctx)
    };
    let protocol = Protocol {
        words: UCI,
        endless: "go infinite",
        fresh: &fresh,
        sequence: &sequence,
        reference: &reference,
    };
    run_sequences(&protocol, seed, &mut rng);
}

// The checks of this run, tried on answers that break the contract and on
// stand-in engines that misbehave: each must fail.

/// The message of the panic `f` raises, or `None` when it returns.
fn failure(f: impl FnOnce()) -> Option<String> {
    let payload = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).err()?;
    Some(
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
    )
}

fn line(text: &str) -> Line {
    Line { text: text.to_string(), at: Instant::now() }
}

/// `settle` against a stand-in engine (a shell command) that owes one
/// answer: the panic message, or `None` when it returned; fails the test
/// when it never does.
#[cfg(unix)]
fn settle_against(script: &str) -> Option<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let script = script.to_string();
    std::thread::spawn(move || {
        let mut p = Proc::start_program("sh", &["-c", &script]);
        let mut owed = Owed::new(UCI);
        owed.go(None);
        let _ = tx.send(failure(|| owed.settle(&mut p, "stand-in")));
    });
    rx.recv_timeout(Duration::from_secs(20)).expect("settle never gave up")
}

#[test]
fn the_contract_check_sees_a_second_answer() {
    let p = Proc::start_program("sh", &["-c", "exit 0"]);
    let mut owed = Owed::new(UCI);
    owed.go(None);
    owed.take(&line("bestmove e2e4"), &p, "test");
    let failed = failure(|| owed.take(&line("bestmove e2e4"), &p, "test"));
    assert!(failed.is_some_and(|m| m.contains("more bestmove (2) than go (1)")));
}

#[test]
fn the_contract_check_sees_a_move_outside_searchmoves() {
    let p = Proc::start_program("sh", &["-c", "exit 0"]);
    let mut owed = Owed::new(UCI);
    owed.go(Some(vec!["e2e4".to_string(), "g1f3".to_string()]));
    owed.go(Some(vec!["e2e4".to_string()]));
    owed.take(&line("bestmove g1f3 ponder g8f6"), &p, "test");
    let failed = failure(|| owed.take(&line("bestmove d2d4 ponder d7d5"), &p, "test"));
    assert!(failed.is_some_and(|m| m.contains("\"d2d4\" is not one of")));
}

#[test]
fn the_contract_check_sees_a_late_or_unasked_readyok() {
    let p = Proc::start_program("sh", &["-c", "exit 0"]);
    let mut owed = Owed::new(UCI);
    let failed = failure(|| owed.take(&line("readyok"), &p, "test"));
    assert!(failed.is_some_and(|m| m.contains("readyok without a request")));
    let mut owed = Owed::new(UCI);
    owed.ready.push_back(Instant::now() - Duration::from_secs(3));
    let failed = failure(|| owed.take(&line("readyok"), &p, "test"));
    assert!(failed.is_some_and(|m| m.contains("readyok after")));
}

#[cfg(unix)]
#[test]
fn the_contract_check_sees_a_hang_a_chatterbox_and_a_crash() {
    // Reads everything, answers nothing.
    let silent = settle_against("cat > /dev/null");
    assert!(silent.is_some_and(|m| m.contains("hang: 0 of 1 answered")));
    // Talks forever (no progress), never answers.
    let chatty = settle_against("while :; do echo 'info depth 1 nodes 1'; sleep 0.01; done");
    assert!(chatty.is_some_and(|m| m.contains("hang: 0 of 1 answered")));
    // Dies: the failure says how.
    let dead = settle_against("exit 3");
    assert!(dead.is_some_and(|m| m.contains("crown exited (exit status: 3)")));
    // A stand-in that keeps the contract passes.
    let good = settle_against("read line; echo 'bestmove e2e4'; cat > /dev/null");
    assert_eq!(good, None);
}

#[test]
fn the_run_sends_what_crown_parses_and_owes_what_it_accepted() {
    assert_eq!(owes(b"go depth 3"), Owes::Answer);
    assert_eq!(owes(b"go ponder"), Owes::Answer);
    assert_eq!(owes(b"go searchmoves zz99 depth 2"), Owes::Answer);
    assert_eq!(owes(b"go depth x"), Owes::Nothing);
    assert_eq!(owes(b"go perft 2"), Owes::Nothing);
    assert_eq!(owes(b" \tisready\r"), Owes::Ready);
    assert_eq!(owes(b"isready now"), Owes::Nothing);
    assert_eq!(owes(b"\xff\xfe isready"), Owes::Nothing);
    for long in ["quit", "bench", "bench 25", "go perft 6", "setoption name Hash value 4096"] {
        assert_eq!(owes(long.as_bytes()), Owes::Skip, "{long}");
    }
    assert_eq!(owes(b"setoption name UCI_Chess960 value true"), Owes::Skip);
    let mut rng = Rng::new(1);
    let cases = hostile_cases();
    assert!(cases.len() >= 60);
    let mut kinds = [0; 4];
    for _ in 0..2000 {
        let bad = malformed(&mut rng, COMMANDS, NUMBERED, WORDS);
        assert!(!bad.contains(&b'\n'), "{bad:?}");
        kinds[match owes(&bad) {
            Owes::Nothing => 0,
            Owes::Ready => 1,
            Owes::Answer => 2,
            Owes::Skip => 3,
        }] += 1;
    }
    assert!(kinds[0] > 1000, "most malformed lines are refused: {kinds:?}");
}
