//! The command line of `crown-tune nnue`: arguments, loading the records,
//! the validation split, resuming, and the final export.

use crate::nnue::checkpoint::Checkpoint;
use crate::nnue::model::{Model, Sample};
use crate::nnue::{loss, sample, train, Config, Schedule};
use crate::record;
use crown::eval::nnue::network::Activation;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `crown-tune nnue`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Training records (`.crb`); repeat for several.
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Folder for checkpoints, per-epoch nets and loss.svg.
    #[arg(long)]
    pub out: PathBuf,
    /// Copy the last epoch's net here (e.g. src/eval/nnue/default.nnue).
    #[arg(long)]
    pub export: Option<PathBuf>,
    /// Resume from this checkpoint (its hidden size, buckets and
    /// activation win).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Start from this net (`.nnue`, e.g. the embedded one): its
    /// activation wins, a net with one output bucket starts each of
    /// `--buckets`, and a larger `--hidden` widens it (new units with zero
    /// output weights, so it starts computing the same). A fresh optimiser
    /// state.
    #[arg(long, conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// Hidden size H (a multiple of 16) [default: 256, or the `--init`
    /// net's].
    #[arg(long, conflicts_with = "resume")]
    pub hidden: Option<usize>,
    /// Output buckets, chosen by the number of pieces (1 to 16).
    #[arg(long, default_value_t = 1)]
    pub buckets: usize,
    /// Hidden activation: screlu (squared clipped ReLU) or crelu.
    #[arg(long, default_value = "screlu")]
    pub activation: String,
    /// Epochs in all.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Peak learning rate.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f64,
    /// Schedule: cosine or step.
    #[arg(long, default_value = "cosine")]
    pub schedule: String,
    /// Cosine: the last rate as a share of the first.
    #[arg(long, default_value_t = 0.05)]
    pub final_lr: f64,
    /// Step: epochs per step.
    #[arg(long, default_value_t = 10)]
    pub step_epochs: usize,
    /// Step: factor per step.
    #[arg(long, default_value_t = 0.3)]
    pub gamma: f64,
    /// AdamW's decoupled weight decay.
    #[arg(long, default_value_t = 0.01)]
    pub weight_decay: f64,
    /// Share of the game result in the target (0: score only, 1: result only).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Centipawns per unit of the sigmoid's argument.
    #[arg(long, default_value_t = 400.0)]
    pub scale: f64,
    /// Share of each data file (its end: whole games) held out for
    /// validation.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Threads (0: all cores).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also train on every training position with its files mirrored
    /// (a <-> h) where that is the same game (no king on e1 or e8); the
    /// validation positions stay as they are.
    #[arg(long)]
    pub mirror: bool,
}

/// Runs `crown-tune nnue`.
pub fn run(a: Args) -> Result<(), String> {
    let activation = match a.activation.as_str() {
        "screlu" => Activation::SquaredClipped,
        "crelu" => Activation::Clipped,
        other => return Err(format!("unknown activation '{other}' (screlu or crelu)")),
    };
    let schedule = match a.schedule.as_str() {
        "cosine" => Schedule::Cosine { final_lr: a.final_lr },
        "step" => Schedule::Step { epochs: a.step_epochs, gamma: a.gamma },
        other => return Err(format!("unknown schedule '{other}' (cosine or step)")),
    };
    if !(0.0..=1.0).contains(&a.lambda) || !(0.0..0.9).contains(&a.validation) {
        return Err("--lambda must be in 0..1 and --validation in 0..0.9".to_string());
    }
    if a.lr <= 0.0
        || a.scale <= 0.0
        || a.batch == 0
        || a.hidden.is_some_and(|h| h == 0 || h % 16 != 0)
    {
        return Err(
            "--lr, --scale and --batch must be positive, --hidden a multiple of 16".to_string()
        );
    }
    if !(1..=crown::eval::nnue::network::MAX_BUCKETS).contains(&a.buckets) {
        return Err("--buckets must be 1 to 16".to_string());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads)
        .build_global()
        .map_err(|e| e.to_string())?;
    let state = match (&a.resume, &a.init) {
        (Some(path), _) => Checkpoint::load(path)?,
        (None, Some(path)) => {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let net = crown::eval::nnue::Network::from_bytes(&bytes)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let mut model = Model::from_network(&net, a.buckets)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if let Some(hidden) = a.hidden.filter(|&h| h != model.hidden) {
                println!("widening {} hidden units to {hidden}", model.hidden);
                model = model.widened(hidden, a.seed)?;
            }
            Checkpoint::start(model)
        }
        (None, None) => {
            Checkpoint::start(Model::new(a.hidden.unwrap_or(256), a.buckets, activation, a.seed))
        }
    };
    let start = Instant::now();
    let (mut samples, mut held): (Vec<Sample>, Vec<Sample>) = (Vec::new(), Vec::new());
    let mut held_records = Vec::new();
    let mut skipped = 0;
    // Each file's end is held out, so every source (standard chess,
    // Chess960, each generation) is validated.
    for path in &a.data {
        let (mut file, mut records) = (Vec::new(), Vec::new());
        for r in record::read_file(path)? {
            match sample(&r) {
                Some(s) => {
                    file.push(s);
                    records.push(r);
                }
                None => skipped += 1,
            }
        }
        let cut = file.len() - (file.len() as f64 * a.validation) as usize;
        held.extend(file.split_off(cut));
        held_records.extend(records.split_off(cut));
        samples.extend(file);
    }
    let loaded = samples.len() + held.len();
    if a.mirror {
        let mirrored: Vec<Sample> = samples.iter().filter_map(Sample::mirrored).collect();
        println!("mirrored {} training positions (no king on e1 or e8)", mirrored.len());
        samples.extend(mirrored);
    }
    println!(
        "loaded {loaded} positions ({} held out, {skipped} skipped) in {:.1} s; H = {}, {} output buckets, {:?}, {} epochs from epoch {}",
        held.len(),
        start.elapsed().as_secs_f64(),
        state.model.hidden,
        state.model.buckets,
        state.model.activation,
        a.epochs,
        state.epoch
    );
    let config = Config {
        epochs: a.epochs,
        batch: a.batch,
        lr: a.lr,
        schedule,
        weight_decay: a.weight_decay,
        lambda: a.lambda,
        scale: a.scale,
        seed: a.seed,
        out: a.out.clone(),
    };
    if state.epoch == 0 {
        println!(
            "before training: train {:.6} validation {:.6}",
            loss(&state.model, &config, &samples),
            loss(&state.model, &config, &held)
        );
    }
    let state = train(state, &config, &samples, &held, |line| println!("{line}"))?;
    let net = state.model.quantise().map_err(|e| format!("quantisation failed: {e}"))?;
    let every = (held_records.len() / 20_000).max(1);
    let checked: Vec<_> = held_records.into_iter().step_by(every).collect();
    let (mean, worst) = quantisation_error(&state.model, net, &checked);
    println!("quantised net against the float model on held-out positions: mean {mean:.2} cp, worst {worst:.1} cp");
    if let Some(path) = &a.export {
        let net = state.model.quantise().map_err(|e| format!("quantisation failed: {e}"))?;
        let bytes = net.to_bytes();
        std::fs::write(path, &bytes)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("exported {} ({} bytes)", path.display(), bytes.len());
    }
    Ok(())
}

/// Mean and worst difference (centipawns) between the engine's integer
/// evaluation with `net` and the float model, over `records`.
fn quantisation_error(
    model: &Model,
    net: crown::eval::nnue::Network,
    records: &[record::ChessRecord],
) -> (f64, f64) {
    use crown::eval::Evaluator;
    let mut eval = crown::eval::nnue::NetworkEvaluator::new(Some(std::sync::Arc::new(net)));
    let mut scratch = model.scratch();
    let (mut total, mut worst, mut n) = (0.0, 0.0f64, 0);
    for r in records {
        let (Ok(pos), Some(s)) = (r.to_position(), sample(r)) else { continue };
        let float =
            f64::from(model.forward(&s, &mut scratch)) * f64::from(crate::nnue::model::SCALE);
        let error = (f64::from(eval.evaluate(&pos)) - float).abs();
        total += error;
        worst = worst.max(error);
        n += 1;
    }
    (total / f64::from(n.max(1)), worst)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Command {
        #[command(flatten)]
        args: Args,
    }

    /// `crown-tune nnue` arguments with a data file that does not exist.
    fn args(extra: &[&str]) -> Args {
        let base = ["nnue", "--data", "no-such-file.crb", "--out", "no-such-folder"];
        Command::try_parse_from(base.iter().chain(extra)).expect("arguments parse").args
    }

    #[test]
    fn bad_arguments_are_refused_before_anything_runs() {
        for (extra, reason) in [
            (&["--buckets", "0"][..], "--buckets must be 1 to 16"),
            (&["--buckets", "17"], "--buckets must be 1 to 16"),
            (&["--hidden", "100"], "--hidden a multiple of 16"),
            (&["--lambda", "1.5"], "--lambda must be in 0..1"),
            (&["--activation", "relu"], "unknown activation 'relu'"),
            (&["--schedule", "linear"], "unknown schedule 'linear'"),
        ] {
            let error = run(args(extra)).expect_err("refused");
            assert!(error.contains(reason), "{extra:?}: {error}");
        }
        assert!(!std::path::Path::new("no-such-folder").exists(), "nothing was written");
        // The largest bucket count passes the check and fails on the data.
        let error = run(args(&["--buckets", "16", "--threads", "1"])).expect_err("no data");
        assert!(!error.contains("--buckets"), "{error}");
    }
}
