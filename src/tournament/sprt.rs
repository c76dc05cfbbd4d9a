//! Sequential probability ratio test on pentanomial (or trinomial) counts.
//!
//! The model is the one fishtest and fastchess use for `--sprt`: the
//! generalised SPRT with the normal approximation of the log-likelihood ratio,
//! `LLR = (s1 - s0) (2 mu - s0 - s1) / (2 var / N)`, where `mu` and `var` are
//! the mean and variance of the sample (pairs for pentanomial, games for
//! trinomial), `N` the sample size, and `s0`, `s1` the expected scores under
//! H0 and H1. Elo bounds are **normalized Elo by default** (fastchess's
//! default `model=normalized`, fishtest's since 2023):
//! `s = 1/2 + nelo * sqrt(2) * sigma / (800 / ln 10)` for pairs (`sqrt(2)`
//! dropped for single games). `model=logistic` takes the bounds as logistic
//! Elo: `s = 1 / (1 + 10^(-elo/400))`.
//!
//! Every count is floored at 1e-3 before the moments are taken (fishtest's
//! regularisation), so a sample with zero variance still gives a finite LLR.
//! The bounds are Wald's: `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.
//! The test stops as soon as the LLR crosses either bound.
//!
//! A test can go on from earlier runs whose PGN is gone (another machine):
//! `prior=LL,LD,DD,WD,WW` adds their pentanomial counts to this run's before
//! the LLR is taken. The sequential test reads nothing but the running
//! counts, so the LLR of the summed counts is the LLR of the whole test.
//! Invariant: the prior enters the LLR and the decision only, never the
//! Elo, score and game counts of this run.

use super::stats::{moments, score_from_elo, Pentanomial, Trinomial, NELO_SCALE};

/// How the Elo bounds of an SPRT are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Normalized Elo (the default, as in fastchess and fishtest).
    Normalized,
    /// Logistic Elo (BayesElo-free logistic scale, as cutechess reports Elo).
    Logistic,
}

/// The state of a running SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Neither bound crossed yet.
    Continue,
    /// The lower bound was crossed: H0 (elo0) accepted.
    H0,
    /// The upper bound was crossed: H1 (elo1) accepted.
    H1,
}

/// SPRT parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under the null hypothesis.
    pub elo0: f64,
    /// Elo under the alternative.
    pub elo1: f64,
    /// Type I error (false H1).
    pub alpha: f64,
    /// Type II error (false H0).
    pub beta: f64,
    /// How `elo0` and `elo1` are read.
    pub model: EloModel,
    /// Pair counts of earlier runs of the same test (`prior=`, summed).
    pub prior: Pentanomial,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=normalized|logistic]
    /// [prior=LL,LD,DD,WD,WW ...]` tokens (defaults: 0, 5, 0.05, 0.05,
    /// normalized, no prior; several `prior=` tokens are summed).
    pub fn parse(tokens: &[String]) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Normalized,
            prior: Pentanomial::default(),
        };
        for token in tokens {
            let (key, value) = token
                .split_once('=')
                .ok_or_else(|| format!("--sprt: expected key=value, got '{token}'"))?;
            let number =
                || value.parse::<f64>().map_err(|_| format!("--sprt: bad number '{value}'"));
            match key {
                "elo0" => sprt.elo0 = number()?,
                "elo1" => sprt.elo1 = number()?,
                "alpha" => sprt.alpha = number()?,
                "beta" => sprt.beta = number()?,
                "model" => {
                    sprt.model = match value {
                        "normalized" => EloModel::Normalized,
                        "logistic" => EloModel::Logistic,
                        _ => return Err(format!("--sprt: unknown model '{value}'")),
                    }
                }
                "prior" => {
                    let bad =
                        || format!("--sprt: prior needs five counts LL,LD,DD,WD,WW, got '{value}'");
                    let counts: Vec<u64> = value
                        .split(',')
                        .map(str::parse)
                        .collect::<Result<_, _>>()
                        .map_err(|_| bad())?;
                    let counts: [u64; 5] = counts.try_into().map_err(|_| bad())?;
                    sprt.prior = sprt.prior + Pentanomial(counts);
                }
                _ => return Err(format!("--sprt: unknown key '{key}'")),
            }
        }
        let valid = sprt.elo0 < sprt.elo1
            && (0.0..0.5).contains(&sprt.alpha)
            && (0.0..0.5).contains(&sprt.beta)
            && sprt.alpha > 0.0
            && sprt.beta > 0.0;
        if !valid {
            return Err("--sprt: need elo0 < elo1 and 0 < alpha, beta < 0.5".to_string());
        }
        let prior_llr = sprt.llr_pentanomial(&sprt.prior);
        if sprt.decide(prior_llr) != Decision::Continue {
            return Err(format!(
                "--sprt: the prior alone already decides the test (LLR {prior_llr:.2})"
            ));
        }
        Ok(sprt)
    }

    /// The (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// LLR of pentanomial pair counts (as given: the prior is not added).
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&p.0, &Pentanomial::SCORES, std::f64::consts::SQRT_2)
    }

    /// LLR of the whole test: this run's pair counts plus the prior's.
    pub fn llr_with_prior(&self, p: &Pentanomial) -> f64 {
        self.llr_pentanomial(&(self.prior + *p))
    }

    /// LLR of trinomial game counts (used when games are not paired).
    pub fn llr_trinomial(&self, t: &Trinomial) -> f64 {
        self.llr(&[t.losses, t.draws, t.wins], &[0.0, 0.5, 1.0], 1.0)
    }

    fn llr(&self, counts: &[u64], scores: &[f64], pair_factor: f64) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        // Regularise in thousandths so integer moments can be reused.
        let scaled: Vec<u64> = counts.iter().map(|&c| (c * 1000).max(1)).collect();
        let (mu, var, n) = moments(&scaled, scores);
        let n = n / 1000.0;
        let (s0, s1) = match self.model {
            EloModel::Logistic => (score_from_elo(self.elo0), score_from_elo(self.elo1)),
            EloModel::Normalized => {
                let k = pair_factor * var.sqrt() / NELO_SCALE;
                (0.5 + self.elo0 * k, 0.5 + self.elo1 * k)
            }
        };
        (s1 - s0) * (2.0 * mu - s0 - s1) / (2.0 * var / n)
    }

    /// The decision for a given LLR.
    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64, model: EloModel) -> Sprt {
        Sprt { elo0, elo1, alpha: 0.05, beta: 0.05, model, prior: Pentanomial::default() }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.01
    }

    /// Published values: fastchess's SPRT unit tests (fishtest runs), each
    /// recomputed independently with a Python one-off of the formula above:
    /// normalized penta [365,16618,36229,16974,390] [0,2] -> 2.25 (2.2504);
    /// [127,4883,10712,5150,104] [-1.75,0.25] -> 3.01 (3.0109);
    /// logistic penta [223,9863,21279,10037,246] [0.5,2.5] -> -3.07 (-3.0743);
    /// [871,26175,55983,26678,821] [0,2] -> -4.98 (-4.9782).
    #[test]
    fn pentanomial_llr_matches_fastchess() {
        let n = |c, e0, e1| sprt(e0, e1, EloModel::Normalized).llr_pentanomial(&Pentanomial(c));
        let l = |c, e0, e1| sprt(e0, e1, EloModel::Logistic).llr_pentanomial(&Pentanomial(c));
        assert!(close(n([365, 16618, 36229, 16974, 390], 0.0, 2.0), 2.2504));
        assert!(close(n([127, 4883, 10712, 5150, 104], -1.75, 0.25), 3.0109));
        assert!(close(l([223, 9863, 21279, 10037, 246], 0.5, 2.5), -3.0743));
        assert!(close(l([871, 26175, 55983, 26678, 821], 0.0, 2.0), -4.9782));
    }

    /// fastchess trinomial tests: W/L/D 36433/36027/68692 [0,2] normalized
    /// -> 0.92; 10871/10650/20431 [-1.75,0.25] -> 2.30; logistic
    /// 21404/21184/40708 [0.5,2.5] -> -1.57; 57433/57030/106593 [0,2] -> -2.59.
    #[test]
    fn trinomial_llr_matches_fastchess() {
        let t = |wins, losses, draws| Trinomial { wins, losses, draws };
        let n = sprt(0.0, 2.0, EloModel::Normalized);
        assert!(close(n.llr_trinomial(&t(36433, 36027, 68692)), 0.9233));
        let n = sprt(-1.75, 0.25, EloModel::Normalized);
        assert!(close(n.llr_trinomial(&t(10871, 10650, 20431)), 2.2976));
        let l = sprt(0.5, 2.5, EloModel::Logistic);
        assert!(close(l.llr_trinomial(&t(21404, 21184, 40708)), -1.5719));
        let l = sprt(0.0, 2.0, EloModel::Logistic);
        assert!(close(l.llr_trinomial(&t(57433, 57030, 106593)), -2.5930));
    }

    #[test]
    fn bounds_and_decisions() {
        let s = sprt(0.0, 5.0, EloModel::Normalized);
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944) && close(hi, 2.944));
        assert_eq!(s.decide(3.0), Decision::H1);
        assert_eq!(s.decide(-3.0), Decision::H0);
        assert_eq!(s.decide(0.0), Decision::Continue);
        // Degenerate samples: finite and clearly decided.
        let all_wins = s.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 50]));
        assert!(all_wins.is_finite() && s.decide(all_wins) == Decision::H1);
        let all_losses = s.llr_pentanomial(&Pentanomial([50, 0, 0, 0, 0]));
        assert!(all_losses.is_finite() && s.decide(all_losses) == Decision::H0);
        assert_eq!(s.llr_pentanomial(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn parse_tokens() {
        let toks: Vec<String> =
            ["elo0=-1.75", "elo1=0.25", "alpha=0.05", "beta=0.1", "model=logistic"]
                .map(String::from)
                .into();
        let s = Sprt::parse(&toks).unwrap();
        assert_eq!((s.elo0, s.elo1, s.beta, s.model), (-1.75, 0.25, 0.1, EloModel::Logistic));
        assert!(Sprt::parse(&["elo0=5".to_string(), "elo1=0".to_string()]).is_err());
        assert!(Sprt::parse(&["x".to_string()]).is_err());
    }

    /// Generation 6's SPRT (tuning/generations.md, "SPRT runs"): two runs, the first one's PGN
    /// lost with its machine. The second run's counts with the first as a
    /// prior give the LLR of the summed counts, 2.95 (H1), where the second
    /// run alone is far from a bound.
    #[test]
    fn prior_counts_are_summed() {
        let toks = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let s = Sprt::parse(&toks(&["elo0=0", "elo1=5", "prior=5,57,95,104,50"])).unwrap();
        assert_eq!(s.prior, Pentanomial([5, 57, 95, 104, 50]));
        let run = Pentanomial([1, 9, 15, 13, 6]);
        let whole = s.llr_with_prior(&run);
        assert!(close(whole, 2.950), "{whole}");
        assert_eq!(s.decide(whole), Decision::H1);
        assert_eq!(s.decide(s.llr_pentanomial(&run)), Decision::Continue);
        // Split priors add up to the same thing.
        let split = Sprt::parse(&toks(&["prior=5,50,90,100,50", "prior=0,7,5,4,0"])).unwrap();
        assert_eq!(split.prior, s.prior);
        for bad in [
            "prior=1,2,3",
            "prior=1,2,3,4,5,6",
            "prior=1,2,x,4,5",
            "prior=-1,2,3,4,5",
            "prior=6,66,110,117,56", // the whole of generation 6's test: decided
        ] {
            assert!(Sprt::parse(&toks(&[bad])).is_err(), "{bad}");
        }
    }
}
