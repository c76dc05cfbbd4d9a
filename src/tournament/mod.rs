//! `crown match`: engine-versus-engine matches for every game Crown knows.
//!
//! The runner starts engines as child processes, speaks UCI (chess), Hub
//! (draughts) or DamExchange (international draughts, over a loopback TCP
//! connection the engine opens to the runner) to them, referees every move with Crown's own rules through
//! the [`crate::game::Game`] trait, keeps the clocks itself, adjudicates on
//! request, and reports like cutechess-cli and fastchess (Elo with error bars,
//! LOS, pentanomial counts, SPRT). One file per concept:
//!
//! | file | concept |
//! |---|---|
//! | `config.rs` | the command line |
//! | `runner.rs` | schedule, worker threads, output, SPRT stop |
//! | `play.rs` | one refereed game |
//! | `engine.rs`, `uci.rs`, `hub.rs`, `dxp.rs`, `process.rs` | talking to engines |
//! | `clock.rs`, `adjudication.rs`, `openings.rs` | game conditions |
//! | `pgn.rs` | game records (SAN from `chess::san`) |
//! | `resume.rs` | going on with a stopped match from its game file (`--resume`) |
//! | `report.rs`, `stats.rs`, `sprt.rs` | results and statistics |
//! | `genfens.rs` | OpenBench's `genfens` request (opening FENs for distributed data generation) |
//! | `progress.rs` | the progress bar on a terminal |

pub mod adjudication;
pub mod clock;
pub mod config;
pub mod dxp;
pub mod engine;
pub mod genfens;
pub mod hub;
pub mod openings;
pub mod pgn;
pub mod play;
pub mod process;
pub mod progress;
pub mod report;
pub mod resume;
pub mod runner;
pub mod sprt;
pub mod stats;
pub mod uci;

pub use runner::{run, MatchConfig, MatchSummary};

/// Entry point of `crown match`: parses `args`, runs the match with the rules
/// of the chosen variant, and prints to stdout.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    let Some(config) = config::parse(args)? else {
        print!("{}", config::USAGE);
        return Ok(());
    };
    crate::for_variant!(config.variant, G => runner::run_shown::<G>(&config, &mut std::io::stdout(), true))
        .map(|_| ())
}
