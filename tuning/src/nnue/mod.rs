//! `crown-tune nnue`: trains the chess network on `.crb` records
//! ([`crate::record`]) and exports it in the engine's format.
//!
//! * Target: `lambda * result + (1 - lambda) * sigmoid(score / scale)`,
//!   both from the side to move's view; prediction `sigmoid(out * SCALE /
//!   scale)`; loss the mean squared error of the two (win probabilities).
//! * AdamW (decoupled weight decay) on mini-batches shuffled every epoch
//!   (deterministic for the seed and epoch, so a resumed run replays the
//!   same order), the gradient summed over rayon's threads.
//! * Learning rate per step: cosine from `lr` down to `lr * final_lr`, or
//!   steps of `gamma` every `step_epochs`.
//! * A validation split (the last part of the data: whole games, since
//!   records are in game order) scored after every epoch.
//! * After every epoch, in the output folder: `epoch-N.ckpt` (resumable),
//!   `epoch-N.nnue` (quantised net), `loss.svg` (both curves so far).

pub mod checkpoint;
pub mod cli;
pub mod model;
pub mod plot;

use crate::record::ChessRecord;
use checkpoint::Checkpoint;
use model::{Model, Sample, SCALE, WEIGHT_CLIP};
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

/// The learning-rate schedule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// Cosine decay to `lr * final_lr` over the run.
    Cosine {
        /// The last step's rate as a share of the first.
        final_lr: f64,
    },
    /// Multiply by `gamma` every `epochs` epochs.
    Step {
        /// Epochs per step.
        epochs: usize,
        /// Factor per step.
        gamma: f64,
    },
}

/// Training settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Epochs in all (a resumed run goes on to this many).
    pub epochs: usize,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Peak learning rate.
    pub lr: f64,
    /// Learning-rate schedule.
    pub schedule: Schedule,
    /// AdamW's decoupled weight decay.
    pub weight_decay: f64,
    /// Share of the game result in the target.
    pub lambda: f64,
    /// Centipawns per unit of the sigmoid's argument.
    pub scale: f64,
    /// Seed of the shuffles.
    pub seed: u64,
    /// Folder for checkpoints, nets and the picture.
    pub out: PathBuf,
}

/// The sample of a record, `None` when it has more than 32 pieces.
pub fn sample(r: &ChessRecord) -> Option<Sample> {
    use crown::game::GameResult;
    use crown::game::Side;
    let white = match r.result {
        GameResult::WhiteWins => 2,
        GameResult::Draw => 1,
        GameResult::BlackWins => 0,
    };
    let (score, result) = if r.side == Side::White {
        (r.score, white)
    } else {
        (r.score.saturating_neg(), 2 - white)
    };
    let mut s = Sample::new(r.squares(), r.side, score, result)?;
    s.chess960 = r.chess960;
    Some(s)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

impl Config {
    fn target(&self, s: &Sample) -> f64 {
        self.lambda * f64::from(s.result) / 2.0
            + (1.0 - self.lambda) * sigmoid(f64::from(s.score) / self.scale)
    }

    /// The learning rate at `progress` (epochs done, fractional).
    fn rate(&self, progress: f64) -> f64 {
        match self.schedule {
            Schedule::Cosine { final_lr } => {
                let t = (progress / self.epochs.max(1) as f64).min(1.0);
                self.lr
                    * (final_lr + (1.0 - final_lr) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos()))
            }
            Schedule::Step { epochs, gamma } => {
                self.lr * gamma.powi((progress as usize / epochs.max(1)) as i32)
            }
        }
    }
}

/// Loss and gradient over `batch` (summed; the gradient of the mean when
/// `grad_scale` is `1 / len`).
fn batch_gradient(
    model: &Model,
    config: &Config,
    batch: &[&Sample],
    want_grad: bool,
) -> (f64, Vec<f32>) {
    let threads = rayon::current_num_threads().max(1);
    let chunk = batch.len().div_ceil(threads).max(1);
    let k = f64::from(SCALE) / config.scale;
    let inv = 1.0 / batch.len().max(1) as f64;
    batch
        .par_chunks(chunk)
        .map(|part| {
            let mut grad = if want_grad { vec![0.0f32; model.len()] } else { Vec::new() };
            let mut scratch = model.scratch();
            let mut loss = 0.0;
            for s in part {
                let out = f64::from(model.forward(s, &mut scratch));
                let p = sigmoid(out * k);
                let t = config.target(s);
                loss += (p - t) * (p - t);
                if want_grad {
                    let d = 2.0 * (p - t) * p * (1.0 - p) * k * inv;
                    model.backward(s, &scratch, d as f32, &mut grad);
                }
            }
            (loss, grad)
        })
        .reduce(
            || (0.0, Vec::new()),
            |(la, mut ga), (lb, gb)| {
                if ga.is_empty() {
                    return (la + lb, gb);
                }
                for (a, b) in ga.iter_mut().zip(&gb) {
                    *a += b;
                }
                (la + lb, ga)
            },
        )
}

/// Mean loss of `data` (no gradient).
pub fn loss(model: &Model, config: &Config, data: &[Sample]) -> f64 {
    if data.is_empty() {
        return f64::NAN;
    }
    let mut sum = 0.0;
    for part in data.chunks(65536) {
        let refs: Vec<&Sample> = part.iter().collect();
        sum += batch_gradient(model, config, &refs, false).0;
    }
    sum / data.len() as f64
}

/// One AdamW step on `c` with gradient `grad` at learning rate `lr`.
fn adamw(c: &mut Checkpoint, grad: &[f32], lr: f64, weight_decay: f64) {
    const B1: f64 = 0.9;
    const B2: f64 = 0.999;
    c.step += 1;
    let t = c.step as i32;
    let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
    let lr = lr as f32;
    let step = lr / c1 as f32;
    let c2 = c2 as f32;
    let decay = 1.0 - lr * weight_decay as f32;
    for (((p, m), v), &g) in c.model.params.iter_mut().zip(&mut c.m).zip(&mut c.v).zip(grad) {
        *m = B1 as f32 * *m + (1.0 - B1 as f32) * g;
        *v = B2 as f32 * *v + (1.0 - B2 as f32) * g * g;
        let update = step * *m / ((*v / c2).sqrt() + 1e-8);
        *p = (*p * decay - update).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
    }
}

/// The shuffled order of `n` samples for `epoch` (Fisher-Yates, xorshift).
fn order(n: usize, seed: u64, epoch: usize) -> Vec<u32> {
    let mut idx: Vec<u32> = (0..n as u32).collect();
    let mut s = (seed ^ (epoch as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1;
    for i in (1..n).rev() {
        crown::rng::xorshift64(&mut s);
        idx.swap(i, (s % (i as u64 + 1)) as usize);
    }
    idx
}

/// Trains from `state` until `config.epochs`, writing checkpoints, nets
/// and the picture after every epoch; `report` gets one line per epoch.
pub fn train(
    mut state: Checkpoint,
    config: &Config,
    data: &[Sample],
    held: &[Sample],
    mut report: impl FnMut(&str),
) -> Result<Checkpoint, String> {
    if data.is_empty() || config.batch == 0 {
        return Err("no training positions, or a batch of 0".to_string());
    }
    std::fs::create_dir_all(&config.out)
        .map_err(|e| format!("cannot create {}: {e}", config.out.display()))?;
    let batches = data.len().div_ceil(config.batch);
    while state.epoch < config.epochs {
        let start = Instant::now();
        let idx = order(data.len(), config.seed, state.epoch);
        let mut sum = 0.0;
        for (b, part) in idx.chunks(config.batch).enumerate() {
            let batch: Vec<&Sample> = part.iter().map(|&i| &data[i as usize]).collect();
            let (l, grad) = batch_gradient(&state.model, config, &batch, true);
            sum += l;
            let lr = config.rate(state.epoch as f64 + b as f64 / batches as f64);
            adamw(&mut state, &grad, lr, config.weight_decay);
        }
        let train_loss = sum / data.len() as f64;
        let held_loss = loss(&state.model, config, held);
        state.epoch += 1;
        state.history.push((train_loss, held_loss));
        let base = config.out.join(format!("epoch-{}", state.epoch));
        state.save(&base.with_extension("ckpt"))?;
        let net = state.model.quantise().map_err(|e| format!("quantisation failed: {e}"))?;
        std::fs::write(base.with_extension("nnue"), net.to_bytes())
            .map_err(|e| format!("cannot write {}: {e}", base.display()))?;
        plot::draw(&config.out.join("loss.svg"), "Crown network: loss per epoch", &state.history)?;
        report(&format!(
            "epoch {:>3} train {train_loss:.6} validation {held_loss:.6} lr {:.2e} ({:.1} s)",
            state.epoch,
            config.rate(state.epoch as f64),
            start.elapsed().as_secs_f64()
        ));
    }
    Ok(state)
}
