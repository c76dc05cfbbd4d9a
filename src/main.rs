//! The `crown` binary: a thin command line over the library.
//!
//! With no subcommand it speaks UCI on stdin/stdout, as GUIs expect;
//! `crown hub` speaks Hub v2 for draughts. A first argument
//! `"genfens N seed S book <file|None>"` (OpenBench) prints opening FENs
//! and exits (`tournament::genfens`).

use clap::{Parser, Subcommand};
use crown::game::{Game, Variant};
use crown::protocol::hub::Hub;
use crown::protocol::uci::Uci;
use crown::protocol::Printer;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Parser)]
#[command(name = "crown", version, about = "Chess, Chess960 and draughts engine")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

// One value, parsed once per run: the size of the DamExchange variant costs
// nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Speak UCI on stdin/stdout (the default).
    Uci,
    /// Speak Hub v2 (draughts GUIs, Scan-style clients, pydraughts).
    Hub {
        /// Endgame tablebase root (holds `<variant>/*.wdl`, as `crown egtb
        /// build` writes it); loaded at start and probed in search.
        #[arg(long, value_name = "DIR")]
        egtb: Option<PathBuf>,
    },
    /// Search fixed positions of every game to a fixed depth on one thread;
    /// the last line is `<nodes> nodes <nps> nps`.
    Bench {
        /// Depth per position (1..=30; 0 reads as 1).
        #[arg(value_parser = crown::engine::session::bench_depth)]
        depth: Option<u32>,
        /// Bench only this game (chess, chess960, international, ...).
        #[arg(long, value_parser = variant_arg)]
        variant: Option<Variant>,
    },
    /// Print the search tunables in OpenBench's SPSA input format
    /// (`name, int, value, min, max, step, rate`): the chess ones, or the
    /// draughts ones (`draughts_<name>`) for a draughts variant.
    Params {
        /// The game whose tunables to print (any draughts variant gives the
        /// draughts set).
        #[arg(long, default_value = "chess", value_parser = variant_arg)]
        variant: Variant,
    },
    /// Play international draughts over DamExchange (TCP).
    Dxp {
        /// Endgame tablebase root (as for `crown hub --egtb`).
        #[arg(long, value_name = "DIR")]
        egtb: Option<PathBuf>,
        #[command(flatten)]
        options: crown::protocol::dxp::Options,
    },
    /// Draughts endgame databases: build them, or look a position up.
    Egtb {
        #[command(subcommand)]
        action: EgtbAction,
    },
    /// Opening books from Crown's own analysis: build one, or show a
    /// position's moves.
    Book {
        #[command(subcommand)]
        action: BookAction,
    },
    /// Count the leaves of the legal move tree (exactness and speed test).
    Perft {
        /// chess, chess960, international, brazilian, russian, english,
        /// italian, turkish, antidraughts, killer, breakthrough, frisian, frysk
        #[arg(long, default_value = "chess", value_parser = variant_arg)]
        variant: Variant,
        /// Start from this position (FEN / PDN FEN) instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Depth in plies.
        #[arg(long, short)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
        /// Split the root moves over this many threads (1..=1024).
        #[arg(long, default_value_t = 1, value_parser = crown::engine::options::threads_arg)]
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

#[derive(Subcommand)]
enum EgtbAction {
    /// Build win/draw/loss tables by retrograde analysis into DIR/<variant>/.
    Build {
        /// Draughts variant (international, brazilian, russian, english,
        /// italian, turkish, antidraughts, killer, breakthrough, frisian, frysk).
        #[arg(long, default_value = "international")]
        variant: String,
        /// Largest number of pieces on the board (2..=6).
        #[arg(long, default_value_t = 4)]
        pieces: usize,
        /// Tablebase root directory.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
    },
    /// Print the result of a position (PDN FEN) for the side to move, and of
    /// each legal move.
    Probe {
        /// Draughts variant.
        #[arg(long, default_value = "international")]
        variant: String,
        /// Tablebase root directory.
        #[arg(long, default_value = "egtb")]
        dir: PathBuf,
        /// The position, e.g. `W:WK46:BK5`.
        fen: String,
    },
}

#[derive(Subcommand)]
enum BookAction {
    /// Search every move of the positions to DEPTH plies from the start
    /// (all moves for the first FULL plies, then those within MARGIN of the
    /// best) and write the book.
    Build {
        /// The game (international first; any variant builds).
        #[arg(long, default_value = "international", value_parser = variant_arg)]
        variant: Variant,
        /// Plies from the start position.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Plies over which every move is followed.
        #[arg(long, default_value_t = 2)]
        full: u32,
        /// Nodes of each move's search.
        #[arg(long, default_value_t = 200_000)]
        nodes: u64,
        /// After FULL plies, follow the moves within this much of the best
        /// (engine units: 100 = a man or a pawn).
        #[arg(long, default_value_t = 15)]
        margin: i32,
        /// Searches at once.
        #[arg(long, default_value_t = 1, value_parser = crown::engine::options::threads_arg)]
        threads: usize,
        /// Hash table of each search, MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// Print a book's header and the moves it has for a position.
    Show {
        /// The book file.
        file: PathBuf,
        /// The position (FEN / PDN FEN; default: the start position).
        fen: Option<String>,
    },
}

/// `crown book build | show`.
fn book(action: BookAction) -> Result<(), String> {
    use crown::book::{build::Config, Book};
    match action {
        BookAction::Build { variant, depth, full, nodes, margin, threads, hash, out } => {
            let config = Config { depth, full, nodes, margin, threads, hash_mb: hash };
            let start = Instant::now();
            let book = crown::for_variant!(variant, G => crown::book::build::build::<G>(
                variant, &config, |line| println!("{line}")))?;
            book.save(&out).map_err(|e| format!("{}: {e}", out.display()))?;
            println!(
                "{} positions, {} moves, written to {} in {:.0} s",
                book.len(),
                book.entries(),
                out.display(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        BookAction::Show { file, fen } => {
            let book = Book::load(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let variant = book.variant();
            println!(
                "{}: {}, {} positions, {} moves, {} plies at {} nodes a move",
                file.display(),
                variant,
                book.len(),
                book.entries(),
                book.depth(),
                book.nodes()
            );
            crown::for_variant!(variant, G => {
                let pos = match &fen {
                    Some(text) => G::from_fen(text, variant)
                        .map_err(|e| format!("bad position: {e}"))?,
                    None => G::start(variant),
                };
                match book.moves(crown::book::key(&pos)) {
                    Some(moves) => moves.iter().for_each(|m| println!("{} {}", m.text, m.score)),
                    None => println!("not in the book"),
                }
            });
            Ok(())
        }
    }
}

/// Answers an OpenBench `genfens` request: every line or none.
fn genfens(arg: &str) -> ExitCode {
    match crown::tournament::genfens::answer(arg) {
        Ok(lines) => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let written = lines.iter().try_for_each(|l| writeln!(out, "{l}"));
            if written.and_then(|()| out.flush()).is_err() {
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    // OpenBench's `genfens` request is one argument, not a subcommand.
    if let Some(arg) = std::env::args_os().nth(1).and_then(|a| a.into_string().ok()) {
        if crown::tournament::genfens::is_request(&arg) {
            return genfens(&arg);
        }
    }
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft { variant, fen, depth, divide, threads }) => crown::for_variant!(
            variant,
            G => run_perft::<G>(variant, fen.as_deref(), depth, divide, threads)
        ),
        Some(Command::Match { args }) => crown::tournament::run_cli(&args),
        Some(Command::Dxp { egtb, options }) => crown::protocol::dxp::run(&options, egtb),
        Some(Command::Egtb { action }) => egtb::run(action),
        Some(Command::Book { action }) => book(action),
        Some(Command::Params { variant }) => {
            let family = crown::search::params::Family::of_variant(variant);
            crown::search::params::spsa_lines(family).iter().for_each(|l| println!("{l}"));
            Ok(())
        }
        Some(Command::Bench { depth, variant }) => {
            let printer = Printer::stdout();
            let variants = variant.map_or(Variant::ALL.to_vec(), |v| vec![v]);
            let never = std::sync::atomic::AtomicBool::new(false);
            let depth = depth.map(|d| d as i32);
            crown::bench::run(depth, &variants, &never, &|line| printer.line(line));
            Ok(())
        }
        Some(Command::Hub { egtb }) => {
            Hub::run(std::io::BufReader::new(std::io::stdin()), Printer::stdout(), egtb);
            Ok(())
        }
        Some(Command::Uci) | None => {
            Uci::run(std::io::BufReader::new(std::io::stdin()), Printer::stdout());
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

/// A game name on the command line: [`Variant`]'s `FromStr` (every name and
/// alias; the error names the known variants).
fn variant_arg(text: &str) -> Result<Variant, String> {
    text.parse::<Variant>().map_err(|e| e.to_string())
}

/// `crown perft`: Stockfish's output format, then time and speed.
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

mod egtb {
    //! `crown egtb build | probe`.

    use super::EgtbAction;
    use crown::draughts::rules::Rules;
    use crown::draughts::Position;
    use crown::endgame::draughts::{build_missing, variant_dir, Table, Tablebase};
    use crown::game::{Game, Variant};
    use std::path::Path;
    use std::time::Instant;

    pub fn run(action: EgtbAction) -> Result<(), String> {
        match action {
            EgtbAction::Build { variant, pieces, dir } => {
                let v = variant_of(&variant)?;
                if !(2..=6).contains(&pieces) {
                    return Err(format!("--pieces {pieces}: must be 2..=6"));
                }
                with_rules(v, |r| r.build(pieces, &variant_dir(&dir, v)))
            }
            EgtbAction::Probe { variant, dir, fen } => {
                let v = variant_of(&variant)?;
                with_rules(v, |r| r.probe(&variant_dir(&dir, v), &fen))
            }
        }
    }

    fn variant_of(name: &str) -> Result<Variant, String> {
        match name.parse::<Variant>() {
            Ok(v) if !v.is_chess() => Ok(v),
            Ok(v) => Err(format!("{v} has no endgame tables (draughts variants only)")),
            Err(e) => Err(e.to_string()),
        }
    }

    /// The two commands for one rules type.
    trait Command {
        fn build(&self, pieces: usize, dir: &Path) -> Result<(), String>;
        fn probe(&self, dir: &Path, fen: &str) -> Result<(), String>;
    }

    struct With<R>(std::marker::PhantomData<R>);

    fn with_rules(
        v: Variant,
        f: impl Fn(&dyn Command) -> Result<(), String>,
    ) -> Result<(), String> {
        crown::for_variant!(v, chess => Err("draughts variants only".into()),
            R => f(&With::<R>(std::marker::PhantomData)))
    }

    impl<R: Rules> Command for With<R> {
        fn build(&self, pieces: usize, dir: &Path) -> Result<(), String> {
            let start = Instant::now();
            let shown = |e: &dyn std::fmt::Display| format!("{}: {e}", dir.display());
            std::fs::create_dir_all(dir).map_err(|e| shown(&e))?;
            // Resume: the valid tables already there are kept, a damaged one
            // is built again.
            let (have, problems) = Tablebase::load_dir(dir, R::VARIANT);
            for p in problems {
                eprintln!("egtb: refused {p}; building it again");
            }
            if !have.tables().is_empty() {
                println!("{} tables already in {}, kept", have.tables().len(), dir.display());
            }
            println!(
                "signature        positions       wins     losses      draws   seconds     bytes"
            );
            let mut built = (0usize, 0u64);
            let tb = build_missing::<R>(have, pieces, |t, took| {
                let took = took.as_secs_f64();
                let save = Instant::now();
                t.save(dir, R::VARIANT).map_err(|e| shown(&e))?;
                let file = std::fs::metadata(dir.join(Table::file_name(t.signature())))
                    .map_or(0, |m| m.len());
                let [w, l, d] = t.counts();
                println!(
                    "{:<12} {:>13} {:>10} {:>10} {:>10} {:>9.2} {:>9}  (saved in {:.2} s)",
                    t.signature().name(),
                    t.positions(),
                    w,
                    l,
                    d,
                    took,
                    file,
                    save.elapsed().as_secs_f64()
                );
                built = (built.0 + 1, built.1 + file);
                Ok(())
            })
            .map_err(|e| e.to_string())?;
            println!(
                "{} tables built ({} bytes on disk) in {:.1} s; {} tables up to {} pieces, \
                 {} bytes in memory, in {}",
                built.0,
                built.1,
                start.elapsed().as_secs_f64(),
                tb.tables().len(),
                tb.max_pieces(),
                tb.bytes(),
                dir.display()
            );
            Ok(())
        }

        fn probe(&self, dir: &Path, fen: &str) -> Result<(), String> {
            let variant = R::VARIANT;
            let pos =
                Position::<R>::from_fen(fen, variant).map_err(|e| format!("bad position: {e}"))?;
            let (tb, problems) = Tablebase::load_dir(dir, variant);
            for p in problems {
                eprintln!("egtb: refused {p}");
            }
            let wdl = tb
                .probe(&pos)
                .ok_or_else(|| format!("no table for this position in {}", dir.display()))?;
            println!("{wdl}");
            let mut list = <Position<R> as Game>::MoveList::default();
            pos.generate(&mut list);
            for &mv in list.iter() {
                let mut child = pos;
                child.play(mv);
                let text = pos.move_text(mv);
                match tb.probe(&child) {
                    Some(r) => println!("{text} {}", r.flip()),
                    None => println!("{text} unknown"),
                }
            }
            Ok(())
        }
    }
}
