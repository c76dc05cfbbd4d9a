//! UCI under fast random traffic (issue 18): seeded random command sequences
//! with random short pauses, on one and two threads, against the built
//! binary. The contract checked after every sequence:
//!
//! * every `go` gets exactly one `bestmove` (never more; a `go infinite` is
//!   answered after `stop`, so the end of a sequence sends `stop` until every
//!   search has answered);
//! * every `isready` gets its `readyok` within 2 s of being sent, whatever
//!   runs or waits in the queue;
//! * nothing that is due takes more than 2 s (a hang fails with the seed and
//!   the last lines sent and read);
//! * `ucinewgame`, `Threads 1`, `go depth 8` from a fixed position then gives
//!   the best move and node count of a fresh process: no state leaks.
//!
//! One process serves many sequences (the contract allows it); some
//! sequences end with `quit`, after which the process must exit within 2 s
//! and a new one is started. 1,000 sequences by default (at most about 2
//! minutes), 20,000 with `CROWN_SOAK=1`; `CROWN_SEED=N` replays a run.

mod stress_support;

use crown::chess::Position;
use crown::game::{random_playout, Game, Variant};
use std::time::{Duration, Instant};
use stress_support::{field, pause, run_sequences, seed, Owed, Proc, Protocol, Rng, UCI};

/// The position of the determinism check.
const FIXED: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";

/// The best move and node count of `go depth 8` from [`FIXED`].
fn reference(p: &mut Proc, context: &str) -> (String, u64) {
    for line in ["ucinewgame", "setoption name Threads value 1", &format!("position fen {FIXED}")] {
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

/// One random sequence of 3 to 14 commands.
fn sequence(rng: &mut Rng, p: &mut Proc, owed: &mut Owed, fens: &[String], ctx: &str) {
    let threads = if rng.chance(50) { 1 } else { 2 };
    p.send(&format!("setoption name Threads value {threads}"));
    for _ in 0..rng.range(3, 14) {
        let line = match rng.range(0, 12) {
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
            _ => format!("setoption name Threads value {}", rng.range(1, 2)),
        };
        if line.starts_with("go") {
            owed.gos += 1;
            owed.infinite |= line == "go infinite";
        }
        if !p.send(&line) {
            panic!("{ctx}: crown closed its input\n{}", p.dump());
        }
        if line == "isready" {
            owed.ready.push_back(Instant::now());
        }
        pause(rng);
        owed.drain(p, ctx);
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
    let sequence = |rng: &mut Rng, p: &mut Proc, owed: &mut Owed, ctx: &str| {
        sequence(rng, p, owed, &fens, ctx)
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
