//! Perft exactness over every chess and Chess960 suite in `tests/data/`.
//!
//! The default run checks, for each position, every listed depth whose
//! reference count is at most [`NODE_LIMIT`] (or the environment variable
//! `CROWN_PERFT_LIMIT`); `cargo test -- --ignored` checks every listed depth.

mod chess_support;

use chess_support::Record;
use crown::chess::Position;
use crown::game::Game;
use crown::perft::perft;

/// Leaf counts above this are left to the ignored test.
const NODE_LIMIT: u64 = 2_000_000;

fn node_limit() -> u64 {
    std::env::var("CROWN_PERFT_LIMIT").ok().and_then(|v| v.parse().ok()).unwrap_or(NODE_LIMIT)
}

fn check(records: &[Record], limit: u64) {
    assert!(!records.is_empty(), "no suite positions read");
    let mut checked = 0;
    for record in records {
        let pos = Position::from_fen(&record.fen, record.variant)
            .unwrap_or_else(|e| panic!("{}: {e}: {}", record.name, record.fen));
        let counts: Vec<_> = record.counts.iter().filter(|&&(_, n)| n <= limit).collect();
        // Every position is checked at least at its shallowest depth.
        let counts =
            if counts.is_empty() { record.counts.iter().take(1).collect() } else { counts };
        for &&(depth, expected) in &counts {
            let got = perft(&pos, depth);
            assert_eq!(got, expected, "{} depth {depth}: {}", record.name, record.fen);
            checked += 1;
        }
    }
    assert!(checked >= records.len());
}

#[test]
fn perft_standard_suites() {
    check(&chess_support::standard(), node_limit());
}

#[test]
fn perft_chess960_suites() {
    check(&chess_support::fischer(), node_limit());
}

#[test]
fn suites_are_complete() {
    assert_eq!(chess_support::standard().len(), 7 + 128 + 19 - chess_support::tricky_960().len());
    assert_eq!(chess_support::fischer().len(), 960 + 960 + chess_support::tricky_960().len());
}

#[test]
#[ignore = "every listed depth: billions of nodes, minutes with --release"]
fn perft_every_depth() {
    let mut records = chess_support::all();
    // Deepest first is no faster; spread over threads per position instead.
    records.sort_by_key(|r| r.counts.last().map_or(0, |c| c.1));
    use rayon::prelude::*;
    records.par_iter().for_each(|record| check(std::slice::from_ref(record), u64::MAX));
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::start(crown::game::Variant::Chess);
    let divided = crown::perft::divide(&pos, 4, 2);
    assert_eq!(divided.len(), 20);
    assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 197_281);
    assert!(divided.iter().any(|(text, n)| text == "e2e4" && *n == 13_160));
}
