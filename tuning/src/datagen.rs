//! Self-play data generation: games at a fixed node count per move from
//! random or book openings, every quiet position labelled with the search
//! score and the game's result.
//!
//! Invariants:
//! * Deterministic given the seed: game `i` draws its opening from its own
//!   generator (seeded by the seed and `i`), searches with a fresh worker
//!   and table on one thread and a node limit (never a clock), and games are
//!   written in index order whatever the number of threads.
//! * A position is kept only when it is quiet: the side to move is not in
//!   check, the move the search chose is not tactical (no capture or
//!   promotion pending) and the score is not a mate score. So the static
//!   evaluation can be fitted to it without a quiescence search.

use crate::data::Record;
use crown::eval::Tunable;
use crown::game::{Outcome, Side, Variant};
use crown::score::is_mate;
use crown::search::tt::TranspositionTable;
use crown::search::{Limits, Signals, Silent, Worker};
use crown::tournament::openings::{self, Balance, OpeningText, Rng};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game (chess, chess960, a draughts variant).
    pub variant: Variant,
    /// Number of games to play.
    pub games: usize,
    /// Stop after the batch that reaches this many positions (0: no limit).
    pub positions: usize,
    /// Nodes per move.
    pub nodes: u64,
    /// Random plies of a random opening (when no book is given).
    pub random_plies: usize,
    /// Book openings to draw from instead of random ones.
    pub book: Vec<OpeningText>,
    /// Seed of every random choice.
    pub seed: u64,
    /// Worker threads (rayon).
    pub threads: usize,
    /// Plies after which a game is scored a draw.
    pub max_plies: usize,
    /// A score this large (White's view) for [`ADJUDICATE_PLIES`] plies in
    /// a row ends the game as a win for that side.
    pub resign_score: i32,
}

/// Plies a decisive score must last before the game is adjudicated.
pub const ADJUDICATE_PLIES: usize = 6;

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Positions written.
    pub positions: usize,
    /// Results: White wins, draws, Black wins.
    pub results: [usize; 3],
}

/// Plays game number `index` and returns its labelled quiet positions.
pub fn play_game<G: Tunable + Balance>(config: &Config, index: u64) -> Result<Vec<Record>, String> {
    let mut rng = Rng::new(config.seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let opening = if config.book.is_empty() {
        openings::random_opening::<G>(config.variant, config.random_plies, &mut rng)?
    } else {
        let text = &config.book[rng.below(config.book.len())];
        openings::realise::<G>(text, config.variant, None)?
    };
    let mut pos = opening.start;
    let mut history = Vec::new();
    for mv in opening.moves {
        history.push(pos.hash());
        pos.play(mv);
    }
    let tt = Arc::new(TranspositionTable::new(4).map_err(|e| e.to_string())?);
    let signals = Arc::new(Signals::default());
    let mut worker = Worker::<G>::new(0, tt, signals.clone());
    let limits = Limits { nodes: Some(config.nodes), ..Limits::default() };
    let mut kept: Vec<(String, i32)> = Vec::new();
    let mut streak = (0i32, 0usize); // (sign of the decisive score, plies)
    let result = loop {
        if let Some(outcome) = pos.outcome(&history) {
            break match outcome {
                Outcome::Win(Side::White) => 1.0,
                Outcome::Win(Side::Black) => 0.0,
                Outcome::Draw(_) => 0.5,
            };
        }
        if history.len() >= config.max_plies {
            break 0.5;
        }
        signals.stop.store(false, Ordering::Relaxed);
        signals.nodes.store(0, Ordering::Relaxed);
        let found = worker.think(&pos, &history, &limits, &Silent, Instant::now());
        let Some(&mv) = found.pv.first() else { break 0.5 };
        let white = if pos.side_to_move() == Side::White { found.score } else { -found.score };
        if !is_mate(found.score) && !pos.in_check() && !pos.is_tactical(mv) {
            kept.push((pos.to_fen(), white));
        }
        let sign =
            if is_mate(white) || white.abs() >= config.resign_score { white.signum() } else { 0 };
        streak = if sign != 0 && sign == streak.0 { (sign, streak.1 + 1) } else { (sign, 1) };
        if streak.0 != 0 && streak.1 >= ADJUDICATE_PLIES {
            break if streak.0 > 0 { 1.0 } else { 0.0 };
        }
        history.push(pos.hash());
        pos.play(mv);
    };
    Ok(kept.into_iter().map(|(fen, score)| Record { fen, score, result }).collect())
}

/// Plays the games of `config` on a rayon pool and writes their positions
/// to `out` in game order; `progress` gets the running totals after each
/// batch.
pub fn generate<G: Tunable + Balance, W: Write>(
    config: &Config,
    out: &mut W,
    mut progress: impl FnMut(&Summary),
) -> Result<Summary, String> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads.max(1))
        .stack_size(crown::engine::pool::STACK_SIZE)
        .build()
        .map_err(|e| e.to_string())?;
    let batch = config.threads.max(1) * 8;
    let mut summary = Summary::default();
    let mut next = 0;
    while next < config.games && (config.positions == 0 || summary.positions < config.positions) {
        let end = (next + batch).min(config.games);
        let games: Vec<Result<Vec<Record>, String>> = pool.install(|| {
            (next..end).into_par_iter().map(|i| play_game::<G>(config, i as u64)).collect()
        });
        for game in games {
            let records = game?;
            if let Some(first) = records.first() {
                summary.results[match first.result {
                    r if r > 0.75 => 0,
                    r if r < 0.25 => 2,
                    _ => 1,
                }] += 1;
            }
            for record in &records {
                writeln!(out, "{}", record.line()).map_err(|e| format!("cannot write: {e}"))?;
            }
            summary.positions += records.len();
            summary.games += 1;
        }
        // Whole batches on disk: a run stopped between two batches leaves
        // the same file a smaller --games would have written.
        out.flush().map_err(|e| format!("cannot write: {e}"))?;
        next = end;
        progress(&summary);
    }
    out.flush().map_err(|e| format!("cannot write: {e}"))?;
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown::chess::Position;
    use crown::game::Game;

    fn config(variant: Variant) -> Config {
        Config {
            variant,
            games: 4,
            positions: 0,
            nodes: 400,
            random_plies: 6,
            book: Vec::new(),
            seed: 7,
            threads: 2,
            max_plies: 60,
            resign_score: 1000,
        }
    }

    #[test]
    fn output_parses_back_and_is_deterministic() {
        for variant in [Variant::Chess, Variant::Chess960] {
            let config = config(variant);
            let mut first = Vec::new();
            let summary = generate::<Position, _>(&config, &mut first, |_| {}).unwrap();
            assert_eq!(summary.games, 4);
            let text = String::from_utf8(first.clone()).unwrap();
            let mut count = 0;
            for line in text.lines() {
                let record = Record::parse(line).unwrap().unwrap();
                let pos = Position::from_fen(&record.fen, variant).unwrap();
                assert!(!pos.in_check(), "{line}");
                assert!([0.0, 0.5, 1.0].contains(&record.result));
                assert_eq!(Record::parse(&record.line()).unwrap().unwrap(), record);
                count += 1;
            }
            assert_eq!(count, summary.positions);
            assert!(count > 20, "{variant:?}: only {count} positions");
            // Same seed, one thread: the same bytes.
            let mut second = Vec::new();
            generate::<Position, _>(&Config { threads: 1, ..config }, &mut second, |_| {}).unwrap();
            assert_eq!(first, second);
        }
    }

    #[test]
    fn book_openings_are_used() {
        let book =
            openings::load("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n", "epd")
                .unwrap();
        let config = Config { book, games: 1, ..config(Variant::Chess) };
        let records = play_game::<Position>(&config, 0).unwrap();
        assert!(records[0].fen.starts_with("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b"));
    }
}
