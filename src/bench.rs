//! `bench`: a fixed, deterministic single-thread search over positions of
//! every game. Its total node count is the signature of a commit (it changes
//! only when the search or the evaluation changes); its speed is the
//! engine's nodes per second. The last line is `<nodes> nodes <nps> nps`,
//! the form OpenBench reads.
//!
//! Positions: for chess a few classic FENs; for every game, also positions
//! reached from the start by a fixed pseudo-random walk, so each variant is
//! covered without hand-written positions per notation.

use crate::eval::Playable;
use crate::game::{random_playout, Variant};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, Signals, Silent, Worker};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Default search depth per position.
pub const DEFAULT_DEPTH: i32 = 9;

const CHESS_FENS: &[&str] = &[
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "2r3k1/pp3ppp/2n5/3p4/3P4/2N2N2/PP3PPP/2R3K1 b - - 0 20",
];

/// Plies of the pseudo-random walks from the start position.
const WALKS: &[usize] = &[0, 8, 16, 24];

/// Searches each position of `G`'s bench list to `depth` on one thread, from
/// an empty table and fresh histories. Returns the nodes searched and the
/// time spent searching (table clears not counted), or `None` when `stop`
/// was raised.
pub fn bench<G: Playable>(
    variant: Variant,
    depth: i32,
    stop: &AtomicBool,
) -> Option<(u64, Duration)> {
    let mut positions: Vec<G> = Vec::new();
    if variant == Variant::Chess {
        positions.extend(CHESS_FENS.iter().filter_map(|f| G::from_fen(f, variant).ok()));
    }
    for (seed, &plies) in WALKS.iter().enumerate() {
        positions.push(walk(G::start(variant), plies, seed as u64 + 1));
    }
    let tt = Arc::new(TranspositionTable::new(16).expect("16 MB table"));
    let signals = Arc::new(Signals::default());
    let mut worker = Worker::<G>::new(0, tt.clone(), signals.clone());
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for pos in &positions {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        tt.clear();
        worker.clear();
        signals.stop.store(false, Ordering::Relaxed);
        signals.nodes.store(0, Ordering::Relaxed);
        let start = Instant::now();
        // The bench's own stop flag follows the caller's while it searches.
        let watch = StopWatch { from: stop, to: &signals.stop };
        elapsed += std::thread::scope(|scope| {
            scope.spawn(|| watch.run());
            worker.think(pos, &[], &limits, &Silent, start);
            let took = start.elapsed();
            watch.finish();
            took
        });
        nodes += signals.nodes.load(Ordering::Relaxed);
    }
    (!stop.load(Ordering::Relaxed)).then_some((nodes, elapsed))
}

/// Copies a raised caller's stop flag into the search's until finished.
struct StopWatch<'a> {
    from: &'a AtomicBool,
    to: &'a AtomicBool,
}

impl StopWatch<'_> {
    fn run(&self) {
        // `to` doubles as the finished flag: the search raises nothing
        // itself in a depth-limited one-thread search, `finish` does.
        while !self.to.load(Ordering::Relaxed) {
            if self.from.load(Ordering::Relaxed) {
                self.to.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn finish(&self) {
        self.to.store(true, Ordering::Relaxed);
    }
}

/// A position `plies` moves into a deterministic pseudo-random game (stops
/// early at a game end).
fn walk<G: Playable>(pos: G, plies: usize, seed: u64) -> G {
    let mut line = random_playout(pos, plies, seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    line.pop().expect("a playout holds its start")
}

/// Runs the bench of the listed games and writes one line per game and the
/// total in OpenBench's form (`<nodes> nodes <nps> nps`) through `line`;
/// stops early, with a line saying so, when `stop` is raised.
pub fn run(depth: Option<i32>, variants: &[Variant], stop: &AtomicBool, line: &dyn Fn(&str)) {
    let depth = depth.unwrap_or(DEFAULT_DEPTH);
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for &variant in variants {
        let Some((n, t)) = crate::for_variant!(variant, G => bench::<G>(variant, depth, stop))
        else {
            line("info string bench stopped");
            return;
        };
        line(&format!(
            "{:<14} {:>12} nodes {:>9} nps",
            variant.name(),
            n,
            n as u128 * 1000 / t.as_millis().max(1)
        ));
        nodes += n;
        time += t;
    }
    line(&format!("{nodes} nodes {} nps", nodes as u128 * 1000 / time.as_millis().max(1)));
}
