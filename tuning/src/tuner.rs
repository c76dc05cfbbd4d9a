//! The evaluation tuner: Texel's method with Adam.
//!
//! Each position's features ([`crown::eval::Features`]) are computed once;
//! the evaluation is then linear in the weights:
//! `E = Σ c·(mg·φ + eg·(1−φ)·s)` (White's view, φ the phase, s the endgame
//! scale). The prediction is `σ(K·E) = 1 / (1 + 10^(−K·E/400))` and the
//! loss the mean squared error against the target
//! `λ·result + (1−λ)·σ(K·score)`. [`fit_k`] finds the K that best fits the
//! current weights; [`tune`] then runs full-batch or mini-batch gradient
//! descent with Adam, the gradient summed in parallel with rayon.
//!
//! Invariant: the endgame scale is taken from the current weights when the
//! data is loaded and held fixed (it is the only non-linear term).

use crate::data::Record;
use crown::eval::Tunable;
use crown::game::Variant;
use crown::rng::Rng;
use rayon::prelude::*;

/// One position as the tuner sees it.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Sparse (feature, coefficient) pairs, White minus Black.
    pub terms: Box<[(u32, i16)]>,
    /// Middlegame share φ.
    pub phase: f32,
    /// Endgame scale s.
    pub eg_scale: f32,
    /// Game result for White.
    pub result: f32,
    /// Search score for White.
    pub score: f32,
}

/// Weights as the tuner holds them: (middlegame, endgame) per feature.
pub type Weights = Vec<(f64, f64)>;

/// Positions parsed from records; fails on the first unreadable FEN with
/// its line number (1-based, counting only records).
pub fn load<G: Tunable>(records: &[Record], variant: Variant) -> Result<Vec<Entry>, String> {
    records
        .par_iter()
        .enumerate()
        .map(|(i, r)| {
            let pos = G::from_fen(&r.fen, variant)
                .map_err(|e| format!("record {}: bad position '{}': {e}", i + 1, r.fen))?;
            let f = pos.features();
            Ok(Entry {
                terms: f.coefficients.terms.into_boxed_slice(),
                phase: f.phase,
                eg_scale: f.eg_scale,
                result: r.result,
                score: r.score as f32,
            })
        })
        .collect()
}

/// The linear evaluation of `entry` (White's view).
#[inline]
pub fn evaluate(entry: &Entry, weights: &[(f64, f64)]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(f, c) in entry.terms.iter() {
        let (wm, we) = weights[f as usize];
        mg += wm * f64::from(c);
        eg += we * f64::from(c);
    }
    let phase = f64::from(entry.phase);
    mg * phase + eg * (1.0 - phase) * f64::from(entry.eg_scale)
}

/// `1 / (1 + 10^(−k·x/400))`.
#[inline]
pub fn sigmoid(k: f64, x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * x / 400.0))
}

#[inline]
fn target(entry: &Entry, k: f64, lambda: f64) -> f64 {
    let result = f64::from(entry.result);
    if lambda >= 1.0 {
        result
    } else {
        lambda * result + (1.0 - lambda) * sigmoid(k, f64::from(entry.score))
    }
}

/// Mean squared error of the predictions against the targets.
pub fn loss(data: &[Entry], weights: &[(f64, f64)], k: f64, lambda: f64) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let sum: f64 = data
        .par_iter()
        .map(|e| {
            let d = target(e, k, lambda) - sigmoid(k, evaluate(e, weights));
            d * d
        })
        .sum();
    sum / data.len() as f64
}

/// The K in `0.01..=10` that best predicts the game results from
/// `weights` (golden-section search on a log scale). Always fitted to the
/// results alone: against search scores K would shrink to nothing.
pub fn fit_k(data: &[Entry], weights: &[(f64, f64)]) -> f64 {
    let f = |log_k: f64| loss(data, weights, log_k.exp(), 1.0);
    let (mut a, mut b) = (0.01f64.ln(), 10f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..40 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The gradient of the loss over `batch` (mean), per (mg, eg) weight.
fn gradient(batch: &[&Entry], weights: &[(f64, f64)], k: f64, lambda: f64) -> Weights {
    let n = weights.len();
    let scale = k * std::f64::consts::LN_10 / 400.0;
    let mut grad = batch
        .par_chunks(1024)
        .map(|chunk| {
            let mut g = vec![(0.0, 0.0); n];
            for e in chunk {
                let p = sigmoid(k, evaluate(e, weights));
                let de = -2.0 * (target(e, k, lambda) - p) * p * (1.0 - p) * scale;
                let phase = f64::from(e.phase);
                let mg = de * phase;
                let eg = de * (1.0 - phase) * f64::from(e.eg_scale);
                for &(f, c) in e.terms.iter() {
                    let slot: &mut (f64, f64) = &mut g[f as usize];
                    slot.0 += mg * f64::from(c);
                    slot.1 += eg * f64::from(c);
                }
            }
            g
        })
        .reduce(
            || vec![(0.0, 0.0); n],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x.0 += y.0;
                    x.1 += y.1;
                }
                a
            },
        );
    let count = batch.len().max(1) as f64;
    for g in &mut grad {
        g.0 /= count;
        g.1 /= count;
    }
    grad
}

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Passes over the data.
    pub epochs: usize,
    /// Adam step size (centipawns).
    pub learning_rate: f64,
    /// Positions per step; 0 for full batch.
    pub batch: usize,
    /// Weight of the game result in the target (1.0: result only).
    pub lambda: f64,
    /// Shuffling seed (mini-batch).
    pub seed: u64,
    /// L2 penalty per weight on its distance from the start (in loss units
    /// per centipawn squared): keeps rarely seen weights near their start.
    pub l2: f64,
    /// Adam's epsilon. A larger one makes the step of a weight whose
    /// gradient is small (a rarely seen feature) proportional to its
    /// gradient instead of a full step, which holds sparse pattern weights
    /// back from fitting noise.
    pub epsilon: f64,
}

/// Adam over the loss from `start`; `progress` gets each epoch's number,
/// loss on the whole data and weights. Returns the tuned weights
/// (unrounded).
pub fn tune(
    data: &[Entry],
    start: &[(f64, f64)],
    k: f64,
    config: &Config,
    mut progress: impl FnMut(usize, f64, &[(f64, f64)]),
) -> Weights {
    let (beta1, beta2, eps) = (0.9, 0.999, config.epsilon);
    let mut w = start.to_vec();
    let mut m = vec![(0.0, 0.0); w.len()];
    let mut v = vec![(0.0, 0.0); w.len()];
    let mut step = 0;
    let mut order: Vec<&Entry> = data.iter().collect();
    let mut rng = Rng::new(config.seed);
    let size = if config.batch == 0 { data.len().max(1) } else { config.batch };
    for epoch in 1..=config.epochs {
        if config.batch != 0 {
            rng.shuffle(&mut order);
        }
        for batch in order.chunks(size) {
            let mut g = gradient(batch, &w, k, config.lambda);
            for (gi, (wi, si)) in g.iter_mut().zip(w.iter().zip(start)) {
                gi.0 += 2.0 * config.l2 * (wi.0 - si.0);
                gi.1 += 2.0 * config.l2 * (wi.1 - si.1);
            }
            step += 1;
            let c1 = 1.0 - f64::powi(beta1, step);
            let c2 = 1.0 - f64::powi(beta2, step);
            let lr = config.learning_rate;
            let adam = |w: &mut f64, m: &mut f64, v: &mut f64, g: f64| {
                *m = beta1 * *m + (1.0 - beta1) * g;
                *v = beta2 * *v + (1.0 - beta2) * g * g;
                *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
            };
            for i in 0..w.len() {
                adam(&mut w[i].0, &mut m[i].0, &mut v[i].0, g[i].0);
                adam(&mut w[i].1, &mut m[i].1, &mut v[i].1, g[i].1);
            }
        }
        progress(epoch, loss(data, &w, k, config.lambda), &w);
    }
    w
}

/// Integer weights to float.
pub fn to_float(weights: &[(i32, i32)]) -> Weights {
    weights.iter().map(|&(a, b)| (f64::from(a), f64::from(b))).collect()
}

/// Float weights rounded to integers.
pub fn rounded(weights: &[(f64, f64)]) -> Vec<(i32, i32)> {
    weights.iter().map(|&(a, b)| (a.round() as i32, b.round() as i32)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown::chess::Position;
    use crown::game::Game;

    /// Positions of random games, labelled with the true weights' own
    /// prediction (so those weights are a perfect fit).
    fn synthetic(true_weights: &[(f64, f64)], k: f64) -> Vec<Entry> {
        let mut rng = Rng::new(3);
        let mut records = Vec::new();
        let mut list = <Position as Game>::MoveList::default();
        for _ in 0..100 {
            let mut pos = Position::start(Variant::Chess);
            for _ in 0..80 {
                pos.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                pos.play(list[rng.below(list.len())]);
                if !pos.in_check() {
                    records.push(Record { fen: pos.to_fen(), score: 0, result: 0.5 });
                }
            }
        }
        let mut data = load::<Position>(&records, Variant::Chess).unwrap();
        for e in &mut data {
            e.result = sigmoid(k, evaluate(e, true_weights)) as f32;
        }
        data
    }

    #[test]
    fn recovers_known_weights_from_a_perturbed_start() {
        let truth = to_float(&<Position as Tunable>::weights());
        let k = 1.0;
        let data = synthetic(&truth, k);
        assert!(data.len() > 5000);
        // Perturb every weight by a deterministic ±20% plus a few centipawns.
        let mut rng = Rng::new(11);
        let start: Weights = truth
            .iter()
            .map(|&(a, b)| {
                let mut jitter = |x: f64| x * (0.8 + 0.4 * (rng.below(1000) as f64 / 1000.0)) + 8.0;
                (jitter(a), jitter(b))
            })
            .collect();
        let error = |w: &[(f64, f64)]| -> f64 {
            data.iter().map(|e| (evaluate(e, w) - evaluate(e, &truth)).abs()).sum::<f64>()
                / data.len() as f64
        };
        let before = (loss(&data, &start, k, 1.0), error(&start));
        let config = Config {
            epochs: 600,
            learning_rate: 2.0,
            batch: 0,
            lambda: 1.0,
            seed: 1,
            l2: 0.0,
            epsilon: 1e-8,
        };
        let tuned = tune(&data, &start, k, &config, |_, _, _| {});
        let after = (loss(&data, &tuned, k, 1.0), error(&tuned));
        assert!(after.0 < before.0 / 4.0, "loss {before:?} -> {after:?}");
        assert!(after.1 < before.1 / 3.0, "evaluation error {before:?} -> {after:?}");
        // The weights themselves move back towards the truth (features
        // that occur in the data; some are collinear, such as material and
        // the piece-square tables, so only the sum is asked for).
        let mut count = vec![0; truth.len()];
        for e in &data {
            for &(f, _) in e.terms.iter() {
                count[f as usize] += 1;
            }
        }
        let seen: Vec<bool> = count.iter().map(|&c| c * 10 >= data.len()).collect();
        let distance = |w: &[(f64, f64)]| -> f64 {
            (0..w.len())
                .filter(|&i| seen[i])
                .map(|i| (w[i].0 - truth[i].0).abs() + (w[i].1 - truth[i].1).abs())
                .sum()
        };
        let (d0, d1) = (distance(&start), distance(&tuned));
        assert!(d1 < d0 * 0.6, "weight distance {d0} -> {d1}");
        // K is found again from the truth.
        let found = fit_k(&data, &truth);
        assert!((found - k).abs() < 0.05, "K {found}");
    }

    #[test]
    fn bad_positions_are_reported_with_their_record() {
        let records = vec![
            Record { fen: crown::chess::START_FEN.to_string(), score: 0, result: 0.5 },
            Record { fen: "not a fen".to_string(), score: 0, result: 0.5 },
        ];
        let err = load::<Position>(&records, Variant::Chess).unwrap_err();
        assert!(err.starts_with("record 2:"), "{err}");
    }
}
