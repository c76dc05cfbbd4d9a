//! OpenBench's `genfens` request: `crown "genfens N seed S book <file|None>"`
//! (one argument, as OpenBench passes it; further tokens, such as `dfrc`,
//! and a following `quit` argument are ignored) prints exactly `N` lines
//! `info string genfens <FEN>` and exits. OpenBench's DATAGEN workers then
//! play games from these positions with their match runner.
//!
//! Each position: a random line of the book (EPD/FEN lines, or PGN games
//! for a `.pgn` file; Chess960 lines in Shredder-FEN are read as Chess960)
//! followed by [`BOOK_PLIES`] random legal moves, or [`RANDOM_PLIES`]
//! random moves from the start position without a book; kept when the
//! game has not ended and a fixed search of [`BALANCE_NODES`] nodes by
//! Crown scores it within [`BALANCED`] centipawns (else drawn again).
//!
//! Invariants: the list depends only on `N`, `S` and the book (one seeded
//! generator, single-threaded node-limited searches with a fresh table);
//! the whole list is built before anything is printed, so a request that
//! fails (malformed, unreadable book, no balanced position found) prints
//! no line at all.

use super::openings::{self, BALANCED};
use crate::chess::Position;
use crate::game::{Game, Variant};
use crate::rng::Rng;
use crate::search::Limits;
use std::path::PathBuf;

/// Random plies played from the start position when there is no book.
pub const RANDOM_PLIES: usize = 8;
/// Random plies played after a book line.
pub const BOOK_PLIES: usize = 4;
/// Nodes of the search that judges a position's balance.
pub const BALANCE_NODES: u64 = 4000;
/// Draws allowed per requested position before the request fails.
const ATTEMPTS: usize = 1000;
/// Largest request honoured.
pub const MAX_COUNT: usize = 1_000_000;

/// A parsed `genfens` request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Positions to print.
    pub count: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Book file, `None` for random openings from the start position.
    pub book: Option<PathBuf>,
}

/// Whether a command-line argument is a `genfens` request (its first word
/// is `genfens`); the binary routes such an argument here before parsing
/// its own command line.
pub fn is_request(arg: &str) -> bool {
    arg.split_whitespace().next() == Some("genfens")
}

/// Parses `genfens N seed S book <file|None> [ignored...]`.
pub fn parse(arg: &str) -> Result<Request, String> {
    let words: Vec<&str> = arg.split_whitespace().collect();
    let usage = "expected 'genfens N seed S book <file|None>'";
    if words.len() < 6 || words[0] != "genfens" || words[2] != "seed" || words[4] != "book" {
        return Err(format!("malformed genfens request '{arg}': {usage}"));
    }
    let count = words[1].parse::<usize>().ok().filter(|n| (1..=MAX_COUNT).contains(n)).ok_or_else(
        || format!("genfens: N must be a number from 1 to {MAX_COUNT}, not '{}'", words[1]),
    )?;
    let seed = words[3]
        .parse::<u64>()
        .or_else(|_| words[3].parse::<i64>().map(|s| s as u64))
        .map_err(|_| format!("genfens: the seed must be an integer, not '{}'", words[3]))?;
    let book = match words[5] {
        "None" | "none" => None,
        path => Some(PathBuf::from(path)),
    };
    Ok(Request { count, seed, book })
}

/// A book line checked against the rules: standard chess first, Chess960
/// when the castling rights need it.
fn book_line(text: &openings::OpeningText) -> Option<Position> {
    let opening = openings::realise::<Position>(text, Variant::Chess, None)
        .or_else(|_| openings::realise::<Position>(text, Variant::Chess960, None))
        .ok()?;
    let mut pos = opening.start;
    for mv in opening.moves {
        pos.play(mv);
    }
    Some(pos)
}

/// Reads a book: every line that makes a legal position.
pub fn load_book(path: &std::path::Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("genfens: cannot read the book {}: {e}", path.display()))?;
    let format = match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("pgn") => "pgn",
        _ => "epd",
    };
    let lines: Vec<Position> =
        openings::load(&text, format)?.iter().filter_map(book_line).collect();
    if lines.is_empty() {
        return Err(format!("genfens: the book {} holds no legal position", path.display()));
    }
    Ok(lines)
}

/// A fixed search's score of `pos` for the side to move (`None` when it
/// has no legal move).
pub fn balance_score(pos: &Position) -> Option<i32> {
    let limits = Limits { nodes: Some(BALANCE_NODES), ..Limits::default() };
    crate::search::search_once(pos, &limits, 1).map(|found| found.score)
}

/// One random position: a book line (or the start) and random plies;
/// `None` when the game ended on the way.
fn candidate(book: &[Position], rng: &mut Rng) -> Option<Position> {
    let (mut pos, plies) = if book.is_empty() {
        (Position::start(Variant::Chess), RANDOM_PLIES)
    } else {
        (book[rng.below(book.len())].clone(), BOOK_PLIES)
    };
    let mut history = Vec::new();
    let mut list = crate::chess::MoveList::default();
    for _ in 0..plies {
        pos.generate(&mut list);
        if list.is_empty() {
            return None;
        }
        history.push(pos.hash());
        pos.play(list[rng.below(list.len())]);
    }
    pos.outcome(&history).is_none().then_some(pos)
}

/// The FENs of a request, all of them or an error.
pub fn generate(request: &Request) -> Result<Vec<String>, String> {
    let book = match &request.book {
        Some(path) => load_book(path)?,
        None => Vec::new(),
    };
    let mut rng = Rng::new(request.seed);
    let mut fens = Vec::with_capacity(request.count);
    while fens.len() < request.count {
        let found = (0..ATTEMPTS).find_map(|_| {
            let pos = candidate(&book, &mut rng)?;
            let score = balance_score(&pos)?;
            (score.abs() <= BALANCED).then(|| pos.to_fen())
        });
        match found {
            Some(fen) => fens.push(fen),
            None => {
                return Err(format!(
                    "genfens: no balanced position in {ATTEMPTS} tries (position {})",
                    fens.len() + 1
                ))
            }
        }
    }
    Ok(fens)
}

/// Answers a request: the lines to print, or the error for stderr.
pub fn answer(arg: &str) -> Result<Vec<String>, String> {
    let request = parse(arg)?;
    Ok(generate(&request)?.into_iter().map(|fen| format!("info string genfens {fen}")).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests() {
        assert!(is_request("genfens 5 seed 1 book None"));
        assert!(!is_request("bench") && !is_request(""));
        let r = parse("genfens 5 seed 77 book None dfrc extra").unwrap();
        assert_eq!(r, Request { count: 5, seed: 77, book: None });
        assert_eq!(parse("genfens 1 seed -3 book a.epd").unwrap().seed, (-3i64) as u64);
        assert_eq!(parse("genfens 1 seed 1 book x.epd").unwrap().book, Some("x.epd".into()));
        for bad in [
            "genfens",
            "genfens 5",
            "genfens 5 seed 1",
            "genfens 5 seed 1 book",
            "genfens x seed 1 book None",
            "genfens 0 seed 1 book None",
            "genfens 5 seed y book None",
            "genfens 5 seeds 1 book None",
            "genfens 5 seed 1 books None",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn positions_are_balanced_and_deterministic() {
        let request = Request { count: 6, seed: 9, book: None };
        let fens = generate(&request).unwrap();
        assert_eq!(fens.len(), 6);
        for fen in &fens {
            let pos = Position::from_fen(fen, Variant::Chess).unwrap();
            assert_eq!(pos.fullmove_number(), 5, "{fen}: 8 plies from the start");
            assert!(balance_score(&pos).unwrap().abs() <= BALANCED, "{fen}");
        }
        assert_eq!(generate(&request).unwrap(), fens);
        assert_ne!(generate(&Request { seed: 10, ..request }).unwrap(), fens);
    }
}
