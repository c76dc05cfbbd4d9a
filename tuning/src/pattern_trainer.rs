//! `crown-tune patterns`: trains the learned evaluation of a draughts
//! variant (`crown::eval::draughts::patterns`: region patterns, material,
//! tempo, king terms) on labelled positions and writes the pattern file the
//! engine reads (`EvalFile`, or embedded as `src/eval/draughts/<variant>.cdp`).
//!
//! * Data: the text lines `crown-tune datagen --variant <variant>`
//!   writes ([`crate::data`]); the last `--validation` share of the lines
//!   (whole games, as they are appended game by game) is held out.
//! * Model and loss: the evaluation is linear in its weights, so this is
//!   the Texel tuner ([`crate::tuner`]: Adam on the mean squared error of
//!   the win probability against a blend of result and search score),
//!   with the pattern features in place of the hand-set terms. Each epoch
//!   prints the training and validation loss and redraws `--plot`.
//! * Start: `--start FILE` continues from a pattern file (the previous
//!   generation); without it, the hand-set weights of the terms and 0 for
//!   every pattern, so the patterns learn what the terms miss (and
//!   `--l2` holds rarely seen ones near 0). `--windows tall` trains the
//!   10x10 board's tall windows (`windows.rs`); a start file of blocks
//!   then starts them as exactly its evaluation (`tall_from_blocks`).
//!
//! Invariant: the trainer's features are the engine's (both call
//! `patterns::features`), so the exported weights evaluate in the engine
//! as they did here, up to rounding and the phase's integer division.

use crate::data::Record;
use crate::nnue::plot;
use crate::tuner::{self, Entry};
use crown::draughts::position::Position;
use crown::draughts::rules::Rules;
use crown::eval::draughts::patterns::{self, feature_count, Patterns, WindowSet, SCALARS};
use crown::eval::draughts::terms::Tables;
use crown::eval::draughts::windows::tall_from_blocks;
use crown::eval::draughts::{eg_scale, phase};
use crown::eval::{Coefficients, Tunable};
use crown::for_variant;
use crown::game::{Game, Variant};
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// `crown-tune patterns` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The draughts variant the patterns are for.
    #[arg(long, default_value = "international", value_parser = parse_variant)]
    pub variant: Variant,
    /// Data files: labelled positions of the variant (repeat for several).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the pattern file.
    #[arg(long)]
    pub out: PathBuf,
    /// Continue from this pattern file.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// The windows to train: `blocks` (every board) or `tall` (10x10);
    /// default: the start file's, else blocks.
    #[arg(long, value_parser = parse_windows)]
    pub windows: Option<WindowSet>,
    /// Passes over the data.
    #[arg(long, default_value_t = 30)]
    pub epochs: usize,
    /// Adam step size (hundredths of a man).
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Positions per step.
    #[arg(long, default_value_t = 16384)]
    pub batch: usize,
    /// Share of the game result in the target (1.0: result only).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// L2 penalty on each weight's distance from its start value.
    #[arg(long, default_value_t = 0.0)]
    pub l2: f64,
    /// Adam's epsilon: steps of weights with gradients below it shrink in
    /// proportion (rare patterns move little).
    #[arg(long, default_value_t = 1e-8)]
    pub epsilon: f64,
    /// Share of the data (its last lines) held out for validation.
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Use this K instead of fitting it to the start weights.
    #[arg(long)]
    pub k: Option<f64>,
    /// Threads (0: all cores).
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Draw training and validation loss per epoch to this SVG.
    #[arg(long)]
    pub plot: Option<PathBuf>,
}

/// A draughts variant by name (chess refused).
fn parse_variant(text: &str) -> Result<Variant, String> {
    match text.parse::<Variant>() {
        Ok(v) if !v.is_chess() => Ok(v),
        _ => Err(format!("'{text}' is not a draughts variant")),
    }
}

/// A window set by name.
fn parse_windows(text: &str) -> Result<WindowSet, String> {
    match text {
        "blocks" => Ok(WindowSet::Blocks),
        "tall" => Ok(WindowSet::Tall),
        _ => Err(format!("'{text}' is not a window set (blocks, tall)")),
    }
}

/// One position's entry for the tuner, read with `set`'s windows.
fn entry<R: Rules>(record: &Record, set: WindowSet) -> Result<Entry, String> {
    let pos = Position::<R>::from_fen(&record.fen, R::VARIANT)
        .map_err(|e| format!("bad position '{}': {e}", record.fen))?;
    let layout =
        set.layout::<R>().ok_or_else(|| format!("{} has no {set:?} windows", R::VARIANT))?;
    let mut c = Coefficients::default();
    patterns::features(&pos, layout, &mut c);
    Ok(Entry {
        terms: c.terms.into_boxed_slice(),
        phase: phase(&pos) as f32 / Tables::<R>::MAX_PHASE as f32,
        eg_scale: eg_scale(&pos) as f32 / 64.0,
        result: record.result,
        score: record.score as f32,
    })
}

/// Reads every file's records.
fn read(files: &[PathBuf]) -> Result<Vec<Record>, String> {
    let mut records = Vec::new();
    for path in files {
        records.extend(crate::data::read_text(path)?);
    }
    Ok(records)
}

/// A pattern file, or one line saying why it cannot be read.
pub fn read_file(path: &Path) -> Result<Patterns, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Patterns::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A (middlegame, endgame) weight that adds.
#[derive(Clone, Copy)]
struct Pair(i32, i32);

impl std::ops::Add for Pair {
    type Output = Pair;
    fn add(self, o: Pair) -> Pair {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}

/// The start weights for `set`'s windows: a file's (a blocks file read
/// through tall windows evaluates as it did, `tall_from_blocks`; the other
/// way only its terms are kept), or the hand-set terms' and 0 for patterns.
fn start_weights<R: Rules>(
    start: Option<&PathBuf>,
    set: WindowSet,
) -> Result<Vec<(i32, i32)>, String> {
    let count = feature_count(R::VARIANT, set)
        .ok_or_else(|| format!("{} has no {set:?} windows", R::VARIANT))?;
    match start {
        Some(path) => {
            let p = read_file(path)?;
            if p.variant() != R::VARIANT {
                return Err(format!(
                    "{}: {} patterns, not {}",
                    path.display(),
                    p.variant(),
                    R::VARIANT
                ));
            }
            let mut w = p.weights().to_vec();
            match (p.window_set(), set) {
                (from, to) if from == to => {}
                (WindowSet::Blocks, WindowSet::Tall) => {
                    // The same evaluation, read through tall windows.
                    let tables: Vec<Pair> = w[SCALARS..].iter().map(|&(a, b)| Pair(a, b)).collect();
                    w.truncate(SCALARS);
                    w.extend(tall_from_blocks(&tables).into_iter().map(|Pair(a, b)| (a, b)));
                }
                _ => {
                    w.truncate(SCALARS);
                    w.resize(count, (0, 0));
                }
            }
            Ok(w)
        }
        None => {
            let mut w = <Position<R> as Tunable>::weights();
            w.resize(count, (0, 0));
            Ok(w)
        }
    }
}

/// Runs `crown-tune patterns`.
pub fn run(args: Args) -> Result<(), String> {
    for_variant!(args.variant, chess => Err("chess has no patterns".into()), R => run_for::<R>(args))
}

/// Trains the patterns of rules `R`.
fn run_for<R: Rules>(args: Args) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) || args.lr <= 0.0 || args.l2 < 0.0 {
        return Err("--lambda must be in 0..1, --lr positive, --l2 not negative".into());
    }
    if !(0.0..0.9).contains(&args.validation) || args.batch == 0 {
        return Err("--validation must be in 0..0.9 and --batch positive".into());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build_global()
        .map_err(|e| e.to_string())?;
    let t = Instant::now();
    let set = match (args.windows, &args.start) {
        (Some(set), _) => set,
        (None, Some(path)) => read_file(path)?.window_set(),
        (None, None) => WindowSet::Blocks,
    };
    let initial = start_weights::<R>(args.start.as_ref(), set)?;
    let records = read(&args.data)?;
    let mut data: Vec<Entry> = records
        .par_iter()
        .enumerate()
        .map(|(i, r)| entry::<R>(r, set).map_err(|e| format!("record {}: {e}", i + 1)))
        .collect::<Result<_, _>>()?;
    drop(records);
    let held = data.split_off(data.len() - (data.len() as f64 * args.validation) as usize);
    if data.is_empty() {
        return Err("no positions in the data".into());
    }
    println!(
        "loaded {} positions ({} held out; {set:?} windows, {} features) in {:.1} s",
        data.len() + held.len(),
        held.len(),
        initial.len(),
        t.elapsed().as_secs_f64()
    );
    let start = tuner::to_float(&initial);
    let k = args.k.unwrap_or_else(|| tuner::fit_k(&data, &start));
    println!(
        "K = {k:.4}; loss before: training {:.6}, validation {:.6}",
        tuner::loss(&data, &start, k, args.lambda),
        tuner::loss(&held, &start, k, args.lambda)
    );
    let config = tuner::Config {
        epochs: args.epochs,
        learning_rate: args.lr,
        batch: args.batch,
        lambda: args.lambda,
        seed: 1,
        l2: args.l2,
        epsilon: args.epsilon,
    };
    let mut history = Vec::new();
    let mut failure = None;
    let tuned = tuner::tune(&data, &start, k, &config, |epoch, loss, w| {
        let validation = tuner::loss(&held, w, k, args.lambda);
        let v = if held.is_empty() { f64::NAN } else { validation };
        history.push((loss, v));
        println!(
            "epoch {epoch:>3} training {loss:.6} validation {v:.6} ({:.0} s)",
            t.elapsed().as_secs_f64()
        );
        if let Some(path) = &args.plot {
            if let Err(e) = plot::draw(
                path,
                &format!("Crown {} patterns: loss per epoch", R::VARIANT),
                &history,
            ) {
                failure.get_or_insert(e);
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let weights = tuner::rounded(&tuned);
    let rounded = tuner::to_float(&weights);
    println!(
        "after rounding: training {:.6}, validation {:.6}",
        tuner::loss(&data, &rounded, k, args.lambda),
        tuner::loss(&held, &rounded, k, args.lambda)
    );
    let names = <Position<R> as Tunable>::feature_names();
    let mut changes: Vec<(i32, usize)> = (0..SCALARS)
        .map(|i| ((weights[i].0 - initial[i].0).abs() + (weights[i].1 - initial[i].1).abs(), i))
        .collect();
    changes.sort_unstable_by(|a, b| b.cmp(a));
    println!("largest changes of the terms:");
    for &(_, i) in changes.iter().take(12) {
        println!("  {:<28} {:?} -> {:?}", names[i], initial[i], weights[i]);
    }
    let patterns = Patterns::new(R::VARIANT, &weights).map_err(|e| e.to_string())?;
    std::fs::write(&args.out, patterns.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown::eval::Evaluator;
    use crown::game::Side;
    use crown::rng::Rng;

    /// The engine's integer evaluation with a pattern file equals the
    /// trainer's linear one on the same weights, up to rounding, over the
    /// positions of random games (kings included), in every board layout.
    fn engine_evaluates_as_trainer<R: Rules>(seed: u64, games: usize, set: WindowSet) {
        let mut rng = Rng::new(seed);
        let weights: Vec<(i32, i32)> = (0..feature_count(R::VARIANT, set).unwrap())
            .map(|_| (rng.below(301) as i32 - 150, rng.below(301) as i32 - 150))
            .collect();
        let patterns = std::sync::Arc::new(Patterns::new(R::VARIANT, &weights).unwrap());
        let learned = crown::eval::Learned {
            network: None,
            patterns: crown::eval::draughts::patterns::PatternSet::default().with(patterns),
        };
        let mut evaluator = <Position<R> as crown::eval::Playable>::Evaluator::default();
        Evaluator::<Position<R>>::set_learned(&mut evaluator, &learned);
        let float = tuner::to_float(&weights);
        let mut list = <Position<R> as Game>::MoveList::default();
        let mut checked = 0;
        let mut kings = 0;
        for _ in 0..games {
            let mut pos = Position::<R>::start(R::VARIANT);
            for _ in 0..150 {
                pos.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                let mv = list[rng.below(list.len())];
                pos.play(mv);
                let record = Record { fen: pos.to_fen(), score: 0, result: 0.5 };
                let linear = tuner::evaluate(&entry::<R>(&record, set).unwrap(), &float);
                let engine = Evaluator::<Position<R>>::evaluate(&mut evaluator, &pos);
                let white = if pos.side() == Side::White { engine } else { -engine };
                assert!(
                    (f64::from(white) - linear).abs() <= 1.0,
                    "{}: engine {white}, trainer {linear}",
                    record.fen
                );
                checked += 1;
                kings += usize::from(pos.kings() != 0);
            }
        }
        assert!(
            checked > 40 * games && kings > 2 * games,
            "{checked} positions, {kings} with kings"
        );
    }

    #[test]
    fn the_engine_evaluates_as_the_trainer() {
        use crown::draughts::rules::{
            AntidraughtsRules, EnglishRules, InternationalRules, RussianRules, TurkishRules,
        };
        engine_evaluates_as_trainer::<InternationalRules>(5, 40, WindowSet::Blocks);
        engine_evaluates_as_trainer::<InternationalRules>(10, 40, WindowSet::Tall);
        engine_evaluates_as_trainer::<RussianRules>(6, 40, WindowSet::Blocks);
        engine_evaluates_as_trainer::<EnglishRules>(7, 40, WindowSet::Blocks);
        engine_evaluates_as_trainer::<TurkishRules>(8, 40, WindowSet::Blocks);
        engine_evaluates_as_trainer::<AntidraughtsRules>(9, 20, WindowSet::Blocks);
    }

    /// `--start` takes a file of the variant trained and refuses another
    /// variant's (same board, same size: only the header tells them apart)
    /// and a damaged one.
    #[test]
    fn start_takes_only_the_variants_own_file() {
        use crown::draughts::rules::{BrazilianRules, RussianRules};
        let weights: Vec<(i32, i32)> = (0..feature_count(Variant::Russian, WindowSet::Blocks)
            .unwrap())
            .map(|i| ((i % 97) as i32 - 48, (i % 89) as i32 - 44))
            .collect();
        let bytes = Patterns::new(Variant::Russian, &weights).unwrap().to_bytes();
        let path = std::env::temp_dir().join(format!("crown-start-{}.cdp", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(start_weights::<RussianRules>(Some(&path), WindowSet::Blocks).unwrap(), weights);
        let err = start_weights::<BrazilianRules>(Some(&path), WindowSet::Blocks).unwrap_err();
        assert!(err.contains("russian patterns, not brazilian"), "{err}");
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert!(start_weights::<RussianRules>(Some(&path), WindowSet::Blocks).is_err());
        let _ = std::fs::remove_file(&path);
        // Without a file: the hand-set terms, then zero for every pattern.
        let fresh = start_weights::<RussianRules>(None, WindowSet::Blocks).unwrap();
        assert_eq!(fresh.len(), weights.len());
        assert!(fresh[fresh.len() - 100..].iter().all(|&w| w == (0, 0)));
        // No tall windows on 8x8.
        assert!(start_weights::<RussianRules>(None, WindowSet::Tall).is_err());
    }

    /// A start file of blocks gives tall windows that evaluate as it does:
    /// its terms, and each tall table the sum of the two blocks it holds.
    #[test]
    fn a_blocks_start_file_gives_tall_windows_that_read_as_it() {
        use crown::draughts::rules::InternationalRules;
        let blocks = feature_count(Variant::International, WindowSet::Blocks).unwrap();
        let weights: Vec<(i32, i32)> =
            (0..blocks).map(|i| ((i % 53) as i32 + 1, (i % 59) as i32 + 1)).collect();
        let bytes = Patterns::new(Variant::International, &weights).unwrap().to_bytes();
        let path = std::env::temp_dir().join(format!("crown-tall-{}.cdp", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let tall = start_weights::<InternationalRules>(Some(&path), WindowSet::Tall).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(tall.len(), feature_count(Variant::International, WindowSet::Tall).unwrap());
        assert_eq!(tall[..SCALARS], weights[..SCALARS]);
        // Tall table 0, configuration 0 (all empty): block 0's plus block 4's.
        let (a, b) = (weights[SCALARS], weights[SCALARS + 4 * 6561]);
        assert_eq!(tall[SCALARS], (a.0 + b.0, a.1 + b.1));
    }
}
