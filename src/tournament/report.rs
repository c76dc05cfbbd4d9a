//! Results bookkeeping and what the user sees: a line per finished game, the
//! running score with Elo, LOS, draw ratio and pentanomial counts, SPRT
//! progress, and the final table.
//!
//! Invariants: a pairing's statistics are kept from the point of view of its
//! first engine (the lower engine index); a pentanomial pair is counted only
//! when both of its games have finished, whatever order they finish in.

use super::sprt::{Decision, Sprt};
use super::stats::{format_elo, Pentanomial, Trinomial};
use crate::game::GameResult;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Results of one pairing (engine `a` against engine `b`, `a < b`).
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    /// Games from `a`'s point of view.
    pub games: Trinomial,
    /// Game pairs from `a`'s point of view.
    pub pairs: Pentanomial,
    /// `a`'s results with white.
    pub as_white: Trinomial,
    pending: HashMap<u64, u8>,
}

impl PairingStats {
    /// Adds a game scoring `half_points` for `a` (0, 1, 2); `pair` names the
    /// game pair it belongs to, if any.
    pub fn add(&mut self, half_points: u8, a_white: bool, pair: Option<u64>) {
        self.games.add(half_points);
        if a_white {
            self.as_white.add(half_points);
        }
        if let Some(key) = pair {
            match self.pending.remove(&key) {
                Some(first) => self.pairs.add(first + half_points),
                None => {
                    self.pending.insert(key, half_points);
                }
            }
        }
    }
}

/// The match's results and output.
pub struct Report {
    names: Vec<String>,
    /// Statistics per pairing `(a, b)`, `a < b`.
    pub pairings: HashMap<(usize, usize), PairingStats>,
    /// Total per engine, from its own point of view.
    pub totals: Vec<Trinomial>,
    /// Games finished.
    pub finished: u64,
    /// Games by PGN termination tag.
    pub terminations: HashMap<&'static str, u64>,
    sprt: Option<Sprt>,
}

/// Half points for white of a result.
pub fn white_half_points(result: GameResult) -> u8 {
    match result {
        GameResult::WhiteWins => 2,
        GameResult::Draw => 1,
        GameResult::BlackWins => 0,
    }
}

impl Report {
    /// An empty report for these engines.
    pub fn new(names: Vec<String>, sprt: Option<Sprt>) -> Report {
        let totals = vec![Trinomial::default(); names.len()];
        Report {
            names,
            pairings: HashMap::new(),
            totals,
            finished: 0,
            terminations: HashMap::new(),
            sprt,
        }
    }

    /// Records a finished game between engines `white` and `black`.
    pub fn add(
        &mut self,
        white: usize,
        black: usize,
        result: GameResult,
        termination: &'static str,
        pair: Option<u64>,
    ) {
        let w = white_half_points(result);
        self.totals[white].add(w);
        self.totals[black].add(2 - w);
        let (a, b) = (white.min(black), white.max(black));
        let a_white = a == white;
        let a_points = if a_white { w } else { 2 - w };
        self.pairings.entry((a, b)).or_default().add(a_points, a_white, pair);
        self.finished += 1;
        *self.terminations.entry(termination).or_insert(0) += 1;
    }

    /// The live line for a finished game, plus the running score of its pairing.
    pub fn game_line(
        &self,
        number: u64,
        white: usize,
        black: usize,
        result: &str,
        reason: &str,
    ) -> String {
        let (a, b) = (white.min(black), white.max(black));
        let mut out = format!(
            "Finished game {number} ({} vs {}): {result} {{{reason}}}\n",
            self.names[white], self.names[black]
        );
        if let Some(p) = self.pairings.get(&(a, b)) {
            let t = p.games;
            let e = t.estimate();
            let _ = write!(
                out,
                "Score of {} vs {}: {} - {} - {} [{:.3}] {}  Elo {} +/- {:.1}, LOS {:.1}%, DR {:.1}%, Ptnml {:?}",
                self.names[a],
                self.names[b],
                t.wins,
                t.losses,
                t.draws,
                t.points() / t.games().max(1) as f64,
                t.games(),
                format_elo(e.elo),
                e.error,
                e.los * 100.0,
                t.draw_ratio() * 100.0,
                p.pairs.0
            );
            if let Some(s) = self.sprt {
                if (a, b) == (0, 1) {
                    let llr = self.llr(p);
                    let (lo, hi) = s.bounds();
                    let _ = write!(out, ", LLR {llr:.2} ({lo:.2}, {hi:.2})");
                }
            }
            out.push('\n');
        }
        out
    }

    fn llr(&self, p: &PairingStats) -> f64 {
        match self.sprt {
            Some(s) if p.pairs.pairs() + s.prior.pairs() > 0 => s.llr_with_prior(&p.pairs),
            Some(s) => s.llr_trinomial(&p.games),
            None => 0.0,
        }
    }

    /// The SPRT decision on the first pairing, if an SPRT runs.
    pub fn sprt_decision(&self) -> Option<Decision> {
        let s = self.sprt?;
        let p = self.pairings.get(&(0, 1))?;
        Some(s.decide(self.llr(p)))
    }

    /// The detailed block for a pairing (printed periodically and at the end).
    pub fn pairing_block(&self, a: usize, b: usize, context: &str) -> String {
        let Some(p) = self.pairings.get(&(a, b)) else { return String::new() };
        let t = p.games;
        let tri = t.estimate();
        let mut out = String::new();
        let rule = "-".repeat(60);
        let _ = writeln!(out, "{rule}");
        let _ = writeln!(out, "Results of {} vs {} ({context}):", self.names[a], self.names[b]);
        if p.pairs.pairs() > 0 {
            let e = p.pairs.estimate();
            let _ = writeln!(
                out,
                "Elo: {} +/- {:.2}, nElo: {:.2} (pentanomial)",
                format_elo(e.elo),
                e.error,
                e.nelo
            );
            let _ = writeln!(
                out,
                "LOS: {:.2} %, DrawRatio: {:.2} %",
                e.los * 100.0,
                t.draw_ratio() * 100.0
            );
        } else {
            let _ = writeln!(
                out,
                "Elo: {} +/- {:.2}, nElo: {:.2} (trinomial)",
                format_elo(tri.elo),
                tri.error,
                tri.nelo
            );
            let _ = writeln!(
                out,
                "LOS: {:.2} %, DrawRatio: {:.2} %",
                tri.los * 100.0,
                t.draw_ratio() * 100.0
            );
        }
        let _ = writeln!(
            out,
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({:.2} %)",
            t.games(),
            t.wins,
            t.losses,
            t.draws,
            t.points(),
            100.0 * t.points() / t.games().max(1) as f64
        );
        let w = p.as_white;
        let _ =
            writeln!(out, "{} as white: {} - {} - {}", self.names[a], w.wins, w.losses, w.draws);
        let _ = writeln!(out, "Ptnml(0-2): {:?}", p.pairs.0);
        if let (Some(s), (0, 1)) = (self.sprt, (a, b)) {
            let (lo, hi) = s.bounds();
            let model = match s.model {
                super::sprt::EloModel::Normalized => "normalized",
                super::sprt::EloModel::Logistic => "logistic",
            };
            let _ = writeln!(
                out,
                "LLR: {:.2} ({lo:.2}, {hi:.2}) [{:.2}, {:.2}] {model} Elo",
                self.llr(p),
                s.elo0,
                s.elo1
            );
            if s.prior.pairs() > 0 {
                let _ = writeln!(
                    out,
                    "The LLR is the whole test's: prior Ptnml(0-2) {:?} + this run = {:?}",
                    s.prior.0,
                    (s.prior + p.pairs).0
                );
            }
        }
        let _ = writeln!(out, "{rule}");
        out
    }

    /// Every pairing's block, in engine order.
    pub fn all_blocks(&self, context: &str) -> String {
        let mut keys: Vec<_> = self.pairings.keys().copied().collect();
        keys.sort_unstable();
        keys.into_iter().map(|(a, b)| self.pairing_block(a, b, context)).collect()
    }

    /// The final table: engines ranked by score, with Elo against the field.
    pub fn table(&self) -> String {
        let mut order: Vec<usize> =
            (0..self.names.len()).filter(|&i| self.totals[i].games() > 0).collect();
        order.sort_by(|&x, &y| {
            let sx = self.totals[x].points() / self.totals[x].games() as f64;
            let sy = self.totals[y].points() / self.totals[y].games() as f64;
            sy.total_cmp(&sx)
        });
        let width = self.names.iter().map(String::len).max().unwrap_or(4).max(4);
        let mut out = format!(
            "{:>4} {:<width$} {:>8} {:>7} {:>6} {:>7} {:>7}\n",
            "Rank", "Name", "Elo", "+/-", "Games", "Score", "Draw"
        );
        for (rank, &i) in order.iter().enumerate() {
            let t = self.totals[i];
            let e = t.estimate();
            let _ = writeln!(
                out,
                "{:>4} {:<width$} {:>8} {:>7.1} {:>6} {:>6.1}% {:>6.1}%",
                rank + 1,
                self.names[i],
                format_elo(e.elo),
                e.error,
                t.games(),
                100.0 * e.score,
                100.0 * t.draw_ratio()
            );
        }
        let mut terms: Vec<_> = self.terminations.iter().collect();
        terms.sort();
        let terms: Vec<String> = terms.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        if !terms.is_empty() {
            let _ = writeln!(out, "Games by termination: {}", terms.join(", "));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_count_when_both_games_finish() {
        let mut r = Report::new(vec!["A".into(), "B".into()], None);
        // Pair 7: A wins with white, then draws with black -> 3 half points.
        r.add(1, 0, GameResult::Draw, "normal", Some(7));
        assert_eq!(r.pairings[&(0, 1)].pairs.pairs(), 0);
        r.add(0, 1, GameResult::WhiteWins, "normal", Some(7));
        assert_eq!(r.pairings[&(0, 1)].pairs.0, [0, 0, 0, 1, 0]);
        r.add(0, 1, GameResult::BlackWins, "time forfeit", None);
        let t = r.pairings[&(0, 1)].games;
        assert_eq!((t.wins, t.draws, t.losses), (1, 1, 1));
        assert_eq!(r.totals[1].losses, 1);
        let line = r.game_line(3, 0, 1, "0-1", "White loses on time");
        assert!(line.starts_with(
            "Finished game 3 (A vs B): 0-1 {White loses on time}\nScore of A vs B: 1 - 1 - 1"
        ));
        assert!(r.table().contains("time forfeit: 1"));
        assert!(r.pairing_block(0, 1, "x").contains("Ptnml(0-2): [0, 0, 0, 1, 0]"));
    }

    /// With `prior=`, the decision reads the summed counts: with generation
    /// 6's first run as the prior, its second run's 44 pairs (in this order)
    /// decide the test at the last one, not before.
    #[test]
    fn sprt_decision_counts_the_prior() {
        let toks: Vec<String> =
            ["elo0=0", "elo1=5", "prior=5,57,95,104,50"].map(String::from).into();
        let sprt = Sprt::parse(&toks).unwrap();
        let mut r = Report::new(vec!["A".into(), "B".into()], Some(sprt));
        // Pairs of (A's half points as white, as black): 1-9-15-13-6 in all.
        let mut pairs = Vec::new();
        pairs.extend([(0, 0)]); // LL
        pairs.extend(std::iter::repeat_n((1, 0), 9)); // LD
        pairs.extend(std::iter::repeat_n((1, 1), 15)); // DD
        pairs.extend(std::iter::repeat_n((2, 1), 13)); // WD
        pairs.extend(std::iter::repeat_n((2, 2), 6)); // WW
        for (key, &(white, black)) in pairs.iter().enumerate() {
            assert_eq!(r.sprt_decision(), if key == 0 { None } else { Some(Decision::Continue) });
            let as_white = [GameResult::BlackWins, GameResult::Draw, GameResult::WhiteWins];
            let as_black = [GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins];
            r.add(0, 1, as_white[white], "normal", Some(key as u64));
            r.add(1, 0, as_black[black], "normal", Some(key as u64));
        }
        assert_eq!(r.pairings[&(0, 1)].pairs.0, [1, 9, 15, 13, 6]);
        assert_eq!(r.sprt_decision(), Some(Decision::H1));
        let block = r.pairing_block(0, 1, "x");
        assert!(block.contains("LLR: 2.95"), "{block}");
        assert!(block.contains("= [6, 66, 110, 117, 56]"), "{block}");
    }
}
