//! `crown-tune`: the command line of Crown's tuning workshop.
//!
//! * `crown-tune datagen`: self-play games at a fixed node budget, quiet
//!   positions appended as 32-byte records (chess, `record.rs`) or text
//!   lines (draughts, `data.rs`); resumable.
//! * `crown-tune pgn-to-data`: PGNs with score comments (fastchess,
//!   `crown match`) to 32-byte chess training records (`pgn_reader.rs`).
//! * `crown-tune nnue`: trains the chess network on training records and
//!   exports the quantised net (`nnue/`).
//! * `crown-tune patterns`: trains a draughts variant's pattern
//!   evaluation and writes its file (`pattern_trainer.rs`).
//! * `crown-tune scale-patterns`: multiplies every weight of a pattern
//!   file by one factor (`scale_patterns.rs`).
//! * `crown-tune shots`: the international draughts shot suite: find
//!   the shots that decided lost games, count those found (`shots.rs`).
//! * `crown-tune tune`: fits K, runs Adam on the evaluation weights and
//!   writes the new weights file (`--write`).
//!
//! Every error is one line on stderr and a failure exit code; nothing is
//! written when the input is bad.

use clap::{Parser, Subcommand};
use crown::eval::Tunable;
use crown::game::{GameResult, Variant};
use crown::tournament::openings;
use crown_tuning::data::Record;
use crown_tuning::{datagen, pgn_reader, record, tuner};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(name = "crown-tune", about = "Data generation and evaluation tuning for Crown")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Self-play games at a fixed node budget; appends labelled quiet
    /// positions (chess: 32-byte records; draughts: text lines). Resumable:
    /// run the same command again to continue.
    Datagen {
        /// chess, chess960 or any draughts variant.
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Stop when the file holds this many games (0: no limit).
        #[arg(long, default_value_t = 0)]
        games: u64,
        /// Stop when the file holds this many positions (0: no limit).
        #[arg(long, default_value_t = 0)]
        positions: u64,
        /// Soft node limit per move (no new iteration after it).
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Hard node limit per move, as a multiple of --nodes.
        #[arg(long, default_value_t = 4)]
        hard_factor: u64,
        /// Plies of random moves that start each game (without --book).
        #[arg(long, default_value_t = 8)]
        random_plies: usize,
        /// Opening book (EPD/FEN lines, or PGN/PDN games) to start from instead.
        #[arg(long)]
        book: Option<PathBuf>,
        /// Seed of every random choice (same seed, same file).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once, one search thread each.
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Plies after which a game is drawn.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Adjudicate a win once |score| >= this ...
        #[arg(long, default_value_t = 1000)]
        resign_score: i32,
        /// ... for this many plies in a row.
        #[arg(long, default_value_t = 6)]
        resign_plies: usize,
        /// Adjudicate a draw once |score| <= this ...
        #[arg(long, default_value_t = 10)]
        draw_score: i32,
        /// ... for this many plies in a row ...
        #[arg(long, default_value_t = 20)]
        draw_plies: usize,
        /// ... from this ply on.
        #[arg(long, default_value_t = 80)]
        draw_after: usize,
        /// Play with these evaluations, as the engine's EvalFile option
        /// (a net or pattern file, <none>, <embedded>; default: the build's).
        #[arg(long)]
        eval_file: Option<String>,
        /// Seconds between two progress lines.
        #[arg(long, default_value_t = 5)]
        report: u64,
        /// Output file (appended to; its progress is kept in FILE.progress).
        #[arg(long)]
        out: PathBuf,
    },
    /// Converts PGNs with score comments (fastchess, `crown match`) into
    /// 32-byte chess training records.
    PgnToData {
        /// PGN files (`.xz` is decompressed with the xz program); repeat for several.
        #[arg(long = "in", required = true)]
        inputs: Vec<PathBuf>,
        /// Output `.crb` file (written in full or not at all).
        #[arg(long)]
        out: PathBuf,
    },
    /// Trains the chess network (NNUE) on `.crb` training records.
    Nnue(crown_tuning::nnue::cli::Args),
    /// Trains a draughts variant's patterns on labelled positions.
    Patterns(crown_tuning::pattern_trainer::Args),
    /// Multiplies every weight of a draughts pattern file by one factor.
    ScalePatterns(crown_tuning::scale_patterns::Args),
    /// International draughts shots: collects those that decided lost
    /// games into a suite, and counts those the engine finds.
    Shots(crown_tuning::shots::Args),
    /// Fits K and tunes the evaluation weights on labelled positions.
    Tune {
        /// chess, chess960 or any draughts variant.
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Data files (repeat for several).
        #[arg(long, required = true)]
        data: Vec<PathBuf>,
        /// Passes over the data.
        #[arg(long, default_value_t = 500)]
        epochs: usize,
        /// Adam step size in centipawns.
        #[arg(long, default_value_t = 1.0)]
        lr: f64,
        /// Positions per step (0: full batch).
        #[arg(long, default_value_t = 0)]
        batch: usize,
        /// Share of the game result in the target (1.0: result only, 0.0: score only).
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
        /// L2 penalty on each weight's distance from its start value.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
        /// Share of the data (its last lines: whole games) held out to
        /// report a validation loss.
        #[arg(long, default_value_t = 0.0)]
        validation: f64,
        /// Use this K instead of fitting it.
        #[arg(long)]
        k: Option<f64>,
        /// Threads (0: all cores).
        #[arg(long, default_value_t = 2)]
        threads: usize,
        /// Print the loss every this many epochs.
        #[arg(long, default_value_t = 25)]
        report: usize,
        /// Write the tuned weights into the weights file under --root.
        #[arg(long)]
        write: bool,
        /// Repository root holding the weights file.
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Write the tuned weights file here instead.
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::Datagen {
            variant,
            games,
            positions,
            nodes,
            hard_factor,
            random_plies,
            book,
            seed,
            threads,
            max_plies,
            resign_score,
            resign_plies,
            draw_score,
            draw_plies,
            draw_after,
            eval_file,
            report,
            out,
        } => (|| {
            let variant = parse_variant(&variant)?;
            let book = match book {
                None => Vec::new(),
                Some(path) => {
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                    let format = path.extension().and_then(|e| e.to_str()).unwrap_or("epd");
                    let list = openings::load(&text, &format.to_ascii_lowercase())?;
                    if list.is_empty() {
                        return Err(format!("{}: no openings", path.display()));
                    }
                    list
                }
            };
            if nodes == 0 || hard_factor == 0 || threads == 0 {
                return Err("--nodes, --hard-factor and --threads must be positive".to_string());
            }
            let eval_file = match eval_file {
                None => None,
                Some(name) => {
                    let (file, note) = datagen::EvalFile::load(&name)?;
                    eprintln!("crown-tune: {note}");
                    Some(file)
                }
            };
            let config = datagen::Config {
                variant,
                games,
                positions,
                nodes,
                hard_factor,
                random_plies,
                book,
                seed,
                threads,
                max_plies,
                resign_score,
                resign_plies: resign_plies.max(1),
                draw_score,
                draw_plies: draw_plies.max(1),
                draw_after,
                eval_file,
            };
            let every = Duration::from_secs(report.max(1));
            crown::for_variant!(variant, G => datagen_run::<G>(&config, &out, every))
        })(),
        Command::PgnToData { inputs, out } => (|| {
            let start = Instant::now();
            let c = pgn_reader::convert_files(&inputs, &out, |w| eprintln!("crown-tune: {w}"))?;
            println!(
                "wrote {} positions from {} of {} games to {} in {:.1} s",
                c.positions,
                c.converted,
                c.games,
                out.display(),
                start.elapsed().as_secs_f64()
            );
            println!(
                "skipped games: {} without result, {} broken; skipped positions: {} in check, \
                 {} capture or promotion, {} mate score, {} without score",
                c.no_result, c.broken, c.in_check, c.tactical, c.mate, c.no_score
            );
            Ok(())
        })(),
        Command::Nnue(args) => crown_tuning::nnue::cli::run(args),
        Command::Patterns(args) => crown_tuning::pattern_trainer::run(args),
        Command::ScalePatterns(args) => crown_tuning::scale_patterns::run(args),
        Command::Shots(args) => crown_tuning::shots::run(args),
        Command::Tune {
            variant,
            data,
            epochs,
            lr,
            batch,
            lambda,
            l2,
            validation,
            k,
            threads,
            report,
            write,
            root,
            out,
        } => (|| {
            let variant = parse_variant(&variant)?;
            if !(0.0..=1.0).contains(&lambda) || lr <= 0.0 || l2 < 0.0 {
                return Err(
                    "--lambda must be in 0..1, --lr positive, --l2 not negative".to_string()
                );
            }
            if !(0.0..0.9).contains(&validation) {
                return Err("--validation must be in 0..0.9".to_string());
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build_global()
                .map_err(|e| e.to_string())?;
            let config = tuner::Config {
                epochs,
                learning_rate: lr,
                batch,
                lambda,
                seed: 1,
                l2,
                epsilon: 1e-8,
            };
            let target = match out {
                Some(path) => Some(path),
                None if write => Some(root.join(tune_params_file(variant)?)),
                None => None,
            };
            if write {
                crown::for_variant!(variant, G => check_params_file::<G>(&root))?;
            }
            crown::for_variant!(variant, G => tune_run::<G>(variant, &data, validation, k, &config, report, target))
        })(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("crown-tune: {message}");
            ExitCode::FAILURE
        }
    }
}

fn parse_variant(name: &str) -> Result<Variant, String> {
    name.parse::<Variant>().map_err(|e| e.to_string())
}

fn tune_params_file(variant: Variant) -> Result<&'static str, String> {
    Ok(crown::for_variant!(variant, G => <G as Tunable>::PARAMS_FILE))
}

fn datagen_run<G: datagen::Encode>(
    config: &datagen::Config,
    out: &std::path::Path,
    every: Duration,
) -> Result<(), String> {
    let status = datagen::run::<G>(
        config,
        out,
        every,
        |s| eprintln!("{}", s.line(config)),
        |w| eprintln!("crown-tune: warning: {w}"),
    )?;
    println!(
        "{} holds {} positions from {} games ({} new positions in {:.1} s)",
        out.display(),
        status.progress.positions,
        status.progress.games(),
        status.new_positions,
        status.elapsed.as_secs_f64()
    );
    Ok(())
}

/// Reads a data file: text lines, or 32-byte chess records (`.crb`).
fn read_data(path: &std::path::Path, variant: Variant) -> Result<Vec<Record>, String> {
    if path.extension().is_some_and(|e| e == "crb") {
        if !variant.is_chess() {
            return Err(format!("{}: a .crb file holds chess positions", path.display()));
        }
        return record::read_file(path)?
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let pos =
                    r.to_position().map_err(|e| format!("{}: record {i}: {e}", path.display()))?;
                let result = match r.result {
                    GameResult::WhiteWins => 1.0,
                    GameResult::Draw => 0.5,
                    GameResult::BlackWins => 0.0,
                };
                Ok(Record { fen: pos.fen(), score: i32::from(r.score), result })
            })
            .collect();
    }
    crown_tuning::data::read_text(path)
}

fn validation_text(held: &[tuner::Entry], loss: f64) -> String {
    if held.is_empty() {
        String::new()
    } else {
        format!(", validation {loss:.6}")
    }
}

/// Refuses `--write` when the weights file under `root` is not the one
/// this binary was built from: the tuner starts from the built-in weights
/// and rewrites the whole file, so it would silently undo every edit made
/// since (another set tuned and written by an older build, for instance).
fn check_params_file<G: Tunable>(root: &std::path::Path) -> Result<(), String> {
    let path = root.join(G::PARAMS_FILE);
    let on_disk = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if on_disk != G::render_params(&G::weights()) {
        return Err(format!(
            "{} differs from the weights crown-tune was built with; rebuild it \
             (cargo build --release -p crown-tuning) and run again",
            path.display()
        ));
    }
    Ok(())
}

fn tune_run<G: Tunable>(
    variant: Variant,
    files: &[PathBuf],
    validation: f64,
    k: Option<f64>,
    config: &tuner::Config,
    report: usize,
    target: Option<PathBuf>,
) -> Result<(), String> {
    let start = Instant::now();
    let mut records = Vec::new();
    for path in files {
        records.extend(read_data(path, variant)?);
    }
    let mut data = tuner::load::<G>(&records, variant)?;
    drop(records);
    let held = data.split_off(data.len() - (data.len() as f64 * validation) as usize);
    if data.is_empty() {
        return Err("no positions in the data".to_string());
    }
    println!(
        "loaded {} positions ({} held out) in {:.1} s",
        data.len() + held.len(),
        held.len(),
        start.elapsed().as_secs_f64()
    );
    let initial = G::weights();
    let start_weights = tuner::to_float(&initial);
    let k = match k {
        Some(k) => k,
        None => {
            let t = Instant::now();
            let k = tuner::fit_k(&data, &start_weights);
            println!("fitted K = {k:.4} in {:.1} s", t.elapsed().as_secs_f64());
            k
        }
    };
    let before = tuner::loss(&data, &start_weights, k, config.lambda);
    let held_before = tuner::loss(&held, &start_weights, k, config.lambda);
    println!("loss before: {before:.6}{}", validation_text(&held, held_before));
    let t = Instant::now();
    let tuned = tuner::tune(&data, &start_weights, k, config, |epoch, loss, _| {
        if report > 0 && (epoch % report == 0 || epoch == config.epochs) {
            println!("epoch {epoch:>5} loss {loss:.6} ({:.1} s)", t.elapsed().as_secs_f64());
        }
    });
    let weights = tuner::rounded(&tuned);
    let after = tuner::loss(&data, &tuner::to_float(&weights), k, config.lambda);
    let held_after = tuner::loss(&held, &tuner::to_float(&weights), k, config.lambda);
    println!(
        "loss after: {after:.6}{} (rounded weights), {:.1} s",
        validation_text(&held, held_after),
        t.elapsed().as_secs_f64()
    );
    let names = G::feature_names();
    let mut changes: Vec<(i32, usize)> = (0..weights.len())
        .map(|i| {
            let d = (weights[i].0 - initial[i].0).abs() + (weights[i].1 - initial[i].1).abs();
            (d, i)
        })
        .collect();
    changes.sort_unstable_by(|a, b| b.cmp(a));
    println!("largest changes:");
    for &(_, i) in changes.iter().take(12) {
        println!("  {:<28} {:?} -> {:?}", names[i], initial[i], weights[i]);
    }
    if let Some(path) = target {
        std::fs::write(&path, G::render_params(&weights))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
