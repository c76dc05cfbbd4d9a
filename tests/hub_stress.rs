//! Hub under fast random traffic (issues 18 and 84): seeded random command
//! sequences with random short pauses, on one and two threads, against
//! `crown hub` (international draughts). Besides positions, levels,
//! searches, `stop`, `ping` and `new-game`, a sequence sends `go ponder`
//! (with and without `ponder-hit`), `set-param name=tt-size` during and
//! between searches, and malformed lines: hand-picked ones, random bytes
//! (some not UTF-8), commands cut short, numbers too large for any field,
//! word soup, empty lines. The contract checked after every sequence:
//!
//! * every `go` crown's parser accepts gets exactly one `done` (never more;
//!   a `go analyze` or an unanswered `go ponder` is answered after `stop`,
//!   so the end of a sequence sends `stop` until every search has
//!   answered), and nothing else brings one;
//! * every `ping` gets its `pong` within 2 s of being sent, whatever runs or
//!   waits in the queue;
//! * nothing that is due takes more than 2 s (a hang fails with the seed,
//!   the exit status if crown died, and the last lines sent and read);
//! * `new-game`, `threads` 1, `tt-size` 16, `level depth=8`, `go think` from
//!   a fixed position then gives the move and node count of a fresh
//!   process.
//!
//! One process serves many sequences (the contract allows it); some
//! sequences end with `quit`, after which the process must exit within 2 s
//! and a new one is started. 1,000 sequences by default, 20,000 with
//! `CROWN_SOAK=1`; `CROWN_SEED=N` replays a run.

mod stress_support;

use crown::draughts::fen::write_hub;
use crown::draughts::rules::InternationalRules;
use crown::draughts::International as Position;
use crown::game::{random_playout, Game, Variant};
use crown::protocol::{hub_parse, Command};
use std::time::{Duration, Instant};
use stress_support::{
    hub_field, malformed, option_owes, pause, run_sequences, seed, Owed, Owes, Proc, Protocol, Rng,
    DUE, HUB,
};

/// The position of the determinism check: six plies of a fixed random game.
fn fixed() -> String {
    let game = random_playout(Position::start(Variant::International), 6, 7);
    write_hub::<InternationalRules>(game.last().unwrap())
}

/// The best move and node count of `go depth 8` from [`FIXED`].
fn reference(p: &mut Proc, context: &str) -> (String, u64) {
    // A barrier: `init` is kept in order behind what the sequence left
    // waiting, so the errors of those commands come before its `ready`
    // (sequences never send `init`).
    p.send("init");
    p.until(DUE, |l| l == "ready")
        .unwrap_or_else(|_| panic!("{context}: no ready after init\n{}", p.dump()));
    for line in [
        "new-game",
        "set-param name=threads value=1",
        "set-param name=tt-size value=16",
        &format!("pos pos={}", fixed()),
    ] {
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

/// Valid lines of every kind the run sends, to be cut short.
const COMMANDS: &[&str] = &[
    "pos start moves=\"32-28 19-23\"",
    "level depth=3",
    "level nodes=5000",
    "level move-time=0.020",
    "level time=1.50 inc=0.01",
    "go think",
    "go ponder",
    "go analyze",
    "ponder-hit",
    "set-param name=tt-size value=8",
    "set-param name=threads value=2",
    "ping",
    "new-game",
];

/// Lines whose `{}` gets a number too large or malformed.
const NUMBERED: &[&str] = &[
    "level depth={}",
    "level nodes={}",
    "level move-time={}",
    "level time={} inc=0",
    "level moves={} time=1",
    "set-param name=tt-size value={}",
    "set-param name=threads value={}",
    "pos start moves=\"32-28 {}\"",
];

/// Hub's words, for word soup.
const WORDS: &[&str] = &[
    "go",
    "think",
    "ponder",
    "analyze",
    "ponder-hit",
    "level",
    "depth=3",
    "nodes=",
    "move-time=",
    "pos",
    "pos=",
    "start",
    "moves=",
    "set-param",
    "name=tt-size",
    "value=",
    "ping",
    "new-game",
    "stop",
    "init",
    "hub",
    "\"",
    "=",
    "=\"",
];

/// Hand-picked malformed Hub lines.
const HOSTILE: &[&str] = &[
    "pos pos=\"unterminated",
    "pos pos=",
    "pos moves=",
    "pos start moves=\"99-99\"",
    "pos pos=Wxyz",
    "level",
    "level depth=-1",
    "level depth=abc",
    "level time=NaN",
    "level time=inf inc=-1",
    "level move-time=1e400",
    "set-param",
    "set-param name=",
    "set-param name=\"\" value=1",
    "set-param name=tt-size value=0",
    "set-param name=tt-size value=-5",
    "set-param name=tt-size",
    "set-param name=no-such-param value=1",
    "go think ponder analyze",
    "ping ping ping",
    "ponder-hit now",
    "PING",
    "hub hub",
    "=",
    "\"",
];

/// Parameters a line may not set in a run: they would change the
/// reference search or last beyond it.
const KEPT_PARAMS: &[&str] =
    &["variant", "numbering", "elo", "level", "seed", "egtb", "eval-file", "book"];

fn owes(line: &[u8]) -> Owes {
    let text = format!("{}\n", String::from_utf8_lossy(line));
    match hub_parse::parse(&text) {
        Ok(Some(Command::Go(_))) => Owes::Answer,
        Ok(Some(Command::Ping)) => Owes::Ready,
        // `init` is the reference's barrier; `hub` answers with `wait`.
        Ok(Some(Command::Quit | Command::Init | Command::Hello)) => Owes::Skip,
        Ok(Some(Command::SetOption { name, value })) => {
            option_owes(&name, value.as_deref(), "tt-size", KEPT_PARAMS)
        }
        _ => Owes::Nothing,
    }
}

/// One step of a sequence: one line, or two that belong together.
fn step(rng: &mut Rng, fens: &[String]) -> Vec<Vec<u8>> {
    let line = match rng.range(0, 18) {
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
        13 => {
            // Pondering, answered after `ponder-hit` (sometimes sent at
            // once) within the level, else after `stop`.
            let mut steps = vec![b"go ponder".to_vec()];
            if rng.chance(50) {
                steps.push(b"ponder-hit".to_vec());
            }
            return steps;
        }
        14 => "ponder-hit".to_string(),
        15 => format!("set-param name=tt-size value={}", rng.pick(&[1, 2, 4, 8, 16, 32, 64])),
        16 => rng.pick(HOSTILE).to_string(),
        17 => return vec![malformed(rng, COMMANDS, NUMBERED, WORDS)],
        _ => format!("set-param name=threads value={}", rng.range(1, 2)),
    };
    vec![line.into_bytes()]
}

/// One random sequence of 3 to 14 steps.
fn sequence(rng: &mut Rng, p: &mut Proc, owed: &mut Owed, fens: &[String], ctx: &str) {
    let threads = if rng.chance(50) { 1 } else { 2 };
    p.send(&format!("set-param name=threads value={threads}"));
    p.send(&format!("level depth={}", rng.range(1, 5)));
    for _ in 0..rng.range(3, 14) {
        for line in step(rng, fens) {
            let owes = owes(&line);
            if owes == Owes::Skip {
                continue;
            }
            if owes == Owes::Answer {
                owed.go(None);
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
