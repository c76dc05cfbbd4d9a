//! The schedule of a match: which games are played, in which order, with
//! which colours and openings.
//!
//! For each round, for each pairing (every pair of engines for a round
//! robin, the first engine against each other for a gauntlet), `games`
//! games. With `--repeat` games come in pairs on the same opening with the
//! colours swapped; those pairs feed the pentanomial statistics.
//!
//! Invariant: the schedule depends only on the engine count and the
//! `--games`, `--rounds`, `--repeat` and `--gauntlet` settings, so a
//! resumed match (`resume.rs`) finds the same games at the same indices.

use super::config::MatchConfig;

/// One scheduled game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// Game number, 1-based.
    pub number: u64,
    /// Round, 1-based.
    pub round: u32,
    /// White's engine index.
    pub white: usize,
    /// Black's engine index.
    pub black: usize,
    /// Opening index (into the book, or the seed offset of a random opening).
    pub opening: usize,
    /// The colour-swapped pair this game belongs to.
    pub pair: Option<u64>,
}

/// The pairings of a match: `(a, b)` with `a < b`.
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..engines).map(|b| (0, b)).collect()
    } else {
        (0..engines).flat_map(|a| (a + 1..engines).map(move |b| (a, b))).collect()
    }
}

/// Every game of the match, in order.
pub fn schedule(config: &MatchConfig) -> Vec<Job> {
    let mut jobs = Vec::new();
    let pairs = pairings(config.engines.len(), config.gauntlet);
    let per_opening = if config.repeat { 2 } else { 1 };
    let openings_per_round = (config.games as usize).div_ceil(per_opening);
    let mut pair_id = 0u64;
    for round in 0..config.rounds {
        for &(a, b) in &pairs {
            for g in 0..config.games as usize {
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                let pair = (config.repeat && (g / 2 * 2 + 1) < config.games as usize)
                    .then_some(pair_id + (g / 2) as u64);
                jobs.push(Job {
                    number: jobs.len() as u64 + 1,
                    round: round + 1,
                    white,
                    black,
                    opening: round as usize * openings_per_round + g / per_opening,
                    pair,
                });
            }
            pair_id += openings_per_round as u64;
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_games_pair_up_on_one_opening() {
        let args = "--engine cmd=a --engine cmd=b --engine cmd=c --games 3 --rounds 2 --repeat";
        let args: Vec<String> = args.split(' ').map(String::from).collect();
        let config = crate::tournament::config::parse(&args).unwrap().unwrap();
        let jobs = schedule(&config);
        // 2 rounds x 3 pairings x 3 games, numbered in order.
        assert_eq!(jobs.len(), 18);
        assert!(jobs.iter().enumerate().all(|(i, j)| j.number == i as u64 + 1));
        // The first pairing of round 1: a pair on opening 0 with colours
        // swapped, then a single game on opening 1.
        let seen: Vec<_> =
            jobs[..3].iter().map(|j| (j.white, j.black, j.opening, j.pair)).collect();
        assert_eq!(seen, [(0, 1, 0, Some(0)), (1, 0, 0, Some(0)), (0, 1, 1, None)]);
        // Round 2 moves on to fresh openings and pair numbers.
        let j = jobs[9];
        assert_eq!((j.round, j.white, j.black, j.opening, j.pair), (2, 0, 1, 2, Some(6)));
        assert_eq!(pairings(3, true), [(0, 1), (0, 2)]);
        assert_eq!(pairings(3, false), [(0, 1), (0, 2), (1, 2)]);
    }
}
