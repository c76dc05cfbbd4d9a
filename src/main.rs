//! The `crown` binary: a thin command line over the library.
//!
//! With no subcommand it speaks UCI on stdin/stdout, as GUIs expect;
//! `crown hub` speaks Hub v2 for draughts.

use clap::{Parser, Subcommand};
use crown::chess;
use crown::game::{Game, Variant};
use crown::protocol::hub::HubLoop;
use crown::protocol::uci::UciLoop;
use crown::protocol::Printer;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "crown", version, about = "Chess, Chess960 and draughts engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Speak Hub v2 (draughts GUIs, Scan-style clients, pydraughts).
    Hub,
    /// Search fixed positions of every game to a fixed depth on one thread;
    /// the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth per position.
        depth: Option<i32>,
        /// Bench only this game (chess, chess960, international, ...).
        #[arg(long)]
        variant: Option<String>,
    },
    /// Print the search tunables in OpenBench's SPSA input format
    /// (`name, int, value, min, max, step, rate`).
    Params,
    /// Play international draughts over DamExchange (TCP).
    Dxp(crown::protocol::dxp::Options),
    /// Count the leaves of the legal move tree (exactness and speed test).
    Perft {
        /// chess, chess960, international, brazilian, russian, english,
        /// italian, turkish, antidraughts
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Start from this position (FEN / PDN FEN) instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Split the root moves over this many threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Engine-versus-engine matches (`crown match --help` for the options).
    #[command(disable_help_flag = true)]
    Match {
        /// Options in cutechess/fastchess style: --engine name=.. cmd=.. ...
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
        args: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft { variant, fen, depth, divide, threads }) => {
            perft(&variant, fen.as_deref(), depth, divide, threads)
        }
        Some(Command::Match { args }) => crown::tournament::run_cli(&args),
        Some(Command::Params) => {
            crown::search::params::spsa_lines().iter().for_each(|l| println!("{l}"));
            Ok(())
        }
        Some(Command::Dxp(options)) => crown::protocol::dxp::run(&options),
        Some(Command::Bench { depth, variant }) => match variant.as_deref() {
            None => {
                crown::bench::run_printed(depth, &Printer::stdout());
                Ok(())
            }
            Some(name) => match Variant::parse(name) {
                Some(v) => {
                    crown::bench::run_printed_only(depth, &[v], &Printer::stdout());
                    Ok(())
                }
                None => Err(format!("unknown variant '{name}'")),
            },
        },
        Some(Command::Hub) => {
            HubLoop::run(std::io::BufReader::new(std::io::stdin()), Printer::stdout());
            Ok(())
        }
        Some(Command::Uci) | None => {
            UciLoop::<chess::Position>::run(
                std::io::BufReader::new(std::io::stdin()),
                Printer::stdout(),
            );
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("crown: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `crown perft`: Stockfish's output format, then time and speed.
fn perft(
    variant: &str,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let variant = Variant::parse(variant).ok_or_else(|| format!("unknown variant '{variant}'"))?;
    crown::with_game!(variant, G => run_perft::<G>(variant, fen, depth, divide, threads))?
}

fn run_perft<G: Game>(
    variant: Variant,
    fen: Option<&str>,
    depth: u32,
    divide: bool,
    threads: usize,
) -> Result<(), String> {
    let pos = match fen {
        Some(text) => G::from_fen(text, variant).map_err(|e| format!("bad position: {e}"))?,
        None => G::start(variant),
    };
    let start = Instant::now();
    let nodes = if depth == 0 {
        1
    } else {
        let counts = crown::perft::divide(&pos, depth, threads);
        if divide {
            for (text, count) in &counts {
                println!("{text}: {count}");
            }
        }
        counts.iter().map(|(_, n)| n).sum()
    };
    let seconds = start.elapsed().as_secs_f64();
    println!();
    println!("Nodes searched: {nodes}");
    println!("Time: {:.3} s", seconds);
    println!("Nodes/second: {:.0}", nodes as f64 / seconds.max(1e-9));
    Ok(())
}
