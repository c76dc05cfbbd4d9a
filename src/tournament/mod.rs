//! `crown match`: engine-versus-engine matches for every game Crown knows.
//!
//! The runner starts engines as child processes, speaks UCI (chess), Hub
//! (draughts) or DamExchange (international draughts, over a loopback TCP
//! connection the engine opens to the runner) to them, referees every move
//! with Crown's own rules through the [`crate::game::Game`] trait, keeps the
//! clocks itself, adjudicates on request, and reports like cutechess-cli and
//! fastchess (Elo with error bars, LOS, pentanomial counts, SPRT). One file
//! per concept:
//!
//! | file | concept |
//! |---|---|
//! | `config.rs` | the command line and the [`MatchConfig`] it yields |
//! | `engine_config.rs` | one engine's settings (`--engine`, `--each`) |
//! | `schedule.rs` | which games, colours and opening indices, in order |
//! | `runner.rs` | openings per game, worker threads, output, SPRT stop |
//! | `play.rs` | one refereed game (the game loop) |
//! | `client.rs` | the `Client` trait: the runner's seam to any engine |
//! | `uci_client.rs`, `hub_client.rs`, `dxp_client.rs` | the three protocol clients |
//! | `hub_text.rs` | positions and moves in Hub's text |
//! | `process.rs` | an engine child process: lines with deadlines, traffic log |
//! | `clock.rs`, `adjudication.rs`, `openings.rs` | game conditions |
//! | `pgn_writer.rs` | game records as PGN/PDN (SAN from `chess::san`) |
//! | `resume.rs` | going on with a stopped match from its game file (`--resume`) |
//! | `report.rs`, `stats.rs`, `sprt.rs` | results and statistics |
//! | `progress_bar.rs` | the progress bar on a terminal |
//! | `genfens.rs` | OpenBench's `genfens` request (opening FENs for distributed data generation) |
//!
//! Dependencies point one way (no module imports one that imports it back):
//! `runner` → `play` → the protocol clients → `client` → `engine_config`,
//! `clock`, `process`; `config` → `engine_config`; `schedule` → `config`;
//! `resume` → `schedule`. The seeded generator is [`crate::rng::Rng`] and
//! the result of a game [`crate::game::GameResult`], shared with the tuner.
//! `cargo test --test module_cycles -- --nocapture` prints the import graph
//! and fails on a cycle.

pub mod adjudication;
pub mod client;
pub mod clock;
pub mod config;
pub mod dxp_client;
pub mod engine_config;
pub mod genfens;
pub mod hub_client;
pub mod hub_text;
pub mod openings;
pub mod pgn_writer;
pub mod play;
pub mod process;
pub mod progress_bar;
pub mod report;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod uci_client;

pub use config::MatchConfig;
pub use runner::{run, MatchSummary};

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
