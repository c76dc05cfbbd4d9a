//! Hub under fast random traffic (issue 18): seeded random command sequences
//! with random short pauses, on one and two threads, against `crown hub`
//! (international draughts). The contract checked after every sequence:
//!
//! * every `go` gets exactly one `done` (never more; a `go analyze` is
//!   answered after `stop`, so the end of a sequence sends `stop` until every
//!   search has answered);
//! * every `ping` gets its `pong` within 2 s of being sent, whatever runs or
//!   waits in the queue;
//! * nothing that is due takes more than 2 s (a hang fails with the seed and
//!   the last lines sent and read);
//! * `new-game`, `threads` 1, `level depth=8`, `go think` from a fixed
//!   position then gives the move and node count of a fresh process.
//!
//! One process serves many sequences (the contract allows it); some
//! sequences end with `quit`, after which the process must exit within 2 s
//! and a new one is started. 1,000 sequences by default (at most about 2
//! minutes), 20,000 with `CROWN_SOAK=1`; `CROWN_SEED=N` replays a run.

mod stress_support;

use crown::draughts::fen::write_hub;
use crown::draughts::rules::InternationalRules;
use crown::draughts::International as Position;
use crown::game::{random_playout, Game, Variant};
use std::time::{Duration, Instant};
use stress_support::{hub_field, pause, run_sequences, seed, Owed, Proc, Protocol, Rng, HUB};

/// The position of the determinism check: six plies of a fixed random game.
fn fixed() -> String {
    let game = random_playout(Position::start(Variant::International), 6, 7);
    write_hub::<InternationalRules>(game.last().unwrap())
}

/// The best move and node count of `go depth 8` from [`FIXED`].
fn reference(p: &mut Proc, context: &str) -> (String, u64) {
    for line in ["new-game", "set-param name=threads value=1", &format!("pos pos={}", fixed())] {
        p.send(line);
    }
    p.send("level depth=8");
    p.send("go think");
    let lines = p
        .until(Duration::from_secs(20), |l| l.starts_with("done"))
        .unwrap_or_else(|_| panic!("{context}: no done for depth 8\n{}", p.dump()));
    let error = lines.iter().find(|l| l.text.starts_with("error"));
    assert!(error.is_none(), "{context}: {error:?}\n{}", p.dump());
    let best = hub_field(&lines.last().unwrap().text, "move").unwrap_or("").to_string();
    let nodes = lines
        .iter()
        .rev()
        .find_map(|l| hub_field(&l.text, "nodes").and_then(|n| n.parse().ok()))
        .unwrap_or_else(|| panic!("{context}: no nodes before done\n{}", p.dump()));
    (best, nodes)
}

fn fresh() -> Proc {
    let mut p = Proc::start(&["hub"]);
    p.send("hub");
    p.until(Duration::from_secs(20), |l| l == "wait").expect("wait");
    p.send("init");
    p.until(Duration::from_secs(20), |l| l == "ready").expect("ready");
    p
}

/// Random positions to set up: a few random games from the start.
fn positions(rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..8 {
        let games = random_playout(Position::start(Variant::International), 40, rng.next_u64());
        out.extend(
            games
                .iter()
                .step_by(5)
                .filter(|p| !p.legal_moves_empty())
                .map(write_hub::<InternationalRules>),
        );
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
    p.send(&format!("set-param name=threads value={threads}"));
    p.send(&format!("level depth={}", rng.range(1, 5)));
    for _ in 0..rng.range(3, 14) {
        let line = match rng.range(0, 13) {
            0 => "pos".to_string(),
            1 | 2 => format!("pos pos={}", rng.pick(fens)),
            3 => format!("level depth={}", rng.range(1, 6)),
            4 => format!("level nodes={}", rng.range(200, 20_000)),
            5 => format!("level move-time={:.3}", rng.range(1, 30) as f64 / 1000.0),
            6 => format!("level time={:.2} inc=0.01", rng.range(5, 200) as f64 / 100.0),
            7 if rng.chance(40) => "go analyze".to_string(),
            7 | 8 => "stop".to_string(),
            9 | 10 => "ping".to_string(),
            11 => "new-game".to_string(),
            12 => "go think".to_string(),
            _ => format!("set-param name=threads value={}", rng.range(1, 2)),
        };
        if line.starts_with("go") {
            owed.gos += 1;
            owed.infinite |= line == "go analyze";
        }
        if !p.send(&line) {
            panic!("{ctx}: crown closed its input\n{}", p.dump());
        }
        if line == "ping" {
            owed.ready.push_back(Instant::now());
        }
        pause(rng);
        owed.drain(p, ctx);
    }
    p.send("ping");
    owed.ready.push_back(Instant::now());
    owed.settle(p, ctx);
}

#[test]
fn random_sequences_keep_the_hub_contract() {
    let seed = seed();
    let mut rng = Rng::new(seed);
    let fens = positions(&mut rng);
    let sequence = |rng: &mut Rng, p: &mut Proc, owed: &mut Owed, ctx: &str| {
        sequence(rng, p, owed, &fens, ctx)
    };
    let protocol = Protocol {
        words: HUB,
        endless: "go analyze",
        fresh: &fresh,
        sequence: &sequence,
        reference: &reference,
    };
    run_sequences(&protocol, seed, &mut rng);
}
