//! Opening positions: EPD/FEN lists, PGN/PDN files, or random openings.
//!
//! * `format=epd|fen`: one position per line. EPD lines (four fields plus
//!   operations) get `0 1` counters; draughts PDN FEN lines are taken whole;
//!   `[FEN "..."]` wrappers, blank lines and `#` comments are skipped.
//! * `format=pgn|pdn`: each game's `[FEN]` tag (or the start position) and its
//!   main line; comments, variations, NAGs, move numbers and results dropped.
//!   Moves are SAN for chess (the game's own text also works), PDN for draughts.
//! * `plies=N` cuts every opening line to N plies.
//! * Without a file, random openings of `plies` plies (default 8 for chess,
//!   4 for draughts) are played from the start position (a random one of the
//!   960 for Chess960) with a seeded generator ([`Rng`]), and kept only when balanced:
//!   a short fixed-depth search by Crown's own engine ([`Balance`]) scores
//!   them within [`BALANCED`] (the most even of the tries otherwise).
//!
//! Invariant: every opening handed to a game is validated with the core rules
//! first; an unreadable one is reported and skipped, never played.

use crate::chess::chess960::chess960_fen;
use crate::chess::san::parse_san;
use crate::eval::Playable;
use crate::game::{Game, Variant};
use crate::rng::Rng;
use crate::search::Limits;

/// An opening as text, before it is checked against the rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningText {
    /// Start position, or `None` for the variant's start position.
    pub fen: Option<String>,
    /// Moves from there.
    pub moves: Vec<String>,
}

/// An opening checked against the rules.
#[derive(Clone, Debug)]
pub struct Opening<G: Game> {
    /// The position the game record starts from.
    pub start: G,
    /// Whether `start` is the variant's standard start position.
    pub standard_start: bool,
    /// The opening moves played from `start`.
    pub moves: Vec<G::Move>,
}

/// Reads an opening file. `format` is `epd`, `fen`, `pgn` or `pdn`.
pub fn load(text: &str, format: &str) -> Result<Vec<OpeningText>, String> {
    match format {
        "epd" | "fen" => Ok(text
            .lines()
            .filter_map(fen_line)
            .map(|fen| OpeningText { fen: Some(fen), moves: vec![] })
            .collect()),
        "pgn" | "pdn" => Ok(parse_games(text)),
        _ => Err(format!("unknown opening format '{format}' (epd, fen, pgn, pdn)")),
    }
}

fn fen_line(line: &str) -> Option<String> {
    let mut line = line.trim();
    if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
        return None;
    }
    if let Some(inner) = line.strip_prefix("[FEN \"") {
        line = inner.trim_end_matches(']').trim_end_matches('"');
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() >= 4 && fields[0].contains('/') {
        // Chess: keep a full FEN, or make one from EPD's four fields.
        let counters = fields.len() >= 6
            && fields[4].parse::<u32>().is_ok()
            && fields[5].parse::<u32>().is_ok();
        return Some(if counters {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..4].join(" "))
        });
    }
    Some(line.trim_end_matches(';').to_string())
}

/// Splits PGN/PDN text into openings: `[FEN]` tag and main-line moves.
pub fn parse_games(text: &str) -> Vec<OpeningText> {
    let mut games = Vec::new();
    let mut current = OpeningText::default();
    let mut in_moves = false;
    let mut depth_comment = false;
    let mut depth_variation = 0usize;
    for line in text.lines() {
        let trimmed = line.trim();
        if !depth_comment && depth_variation == 0 && trimmed.starts_with('[') {
            if in_moves {
                games.push(std::mem::take(&mut current));
                in_moves = false;
            }
            if let Some(rest) = trimmed.strip_prefix("[FEN ") {
                let value = rest.trim_end_matches(']').trim().trim_matches('"');
                current.fen = Some(value.to_string());
            }
            continue;
        }
        if trimmed.starts_with('%') {
            continue;
        }
        let mut token = String::new();
        let flush = |token: &mut String, current: &mut OpeningText| {
            let t = std::mem::take(token);
            let t = strip_move_number(&t);
            let is_result = matches!(t, "1-0" | "0-1" | "1/2-1/2" | "*" | "2-0" | "0-2" | "1-1");
            if !t.is_empty() && !t.starts_with('$') && !is_result {
                current.moves.push(t.to_string());
            }
        };
        for c in trimmed.chars() {
            if depth_comment {
                if c == '}' {
                    depth_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, &mut current);
                    depth_comment = true;
                }
                '(' => {
                    flush(&mut token, &mut current);
                    depth_variation += 1;
                }
                ')' => {
                    token.clear();
                    depth_variation = depth_variation.saturating_sub(1);
                }
                ';' if depth_variation == 0 => break,
                c if c.is_whitespace() => {
                    if depth_variation == 0 {
                        flush(&mut token, &mut current);
                    }
                    token.clear();
                }
                c => {
                    if depth_variation == 0 {
                        in_moves = true;
                        token.push(c);
                    }
                }
            }
        }
        if depth_variation == 0 {
            flush(&mut token, &mut current);
        }
    }
    if in_moves || current.fen.is_some() {
        games.push(current);
    }
    games
}

/// `12.e4` → `e4`, `3...` → ``, `32-28` unchanged.
fn strip_move_number(token: &str) -> &str {
    match token.find('.') {
        Some(dot) if token[..dot].bytes().all(|b| b.is_ascii_digit()) => {
            token[dot..].trim_start_matches('.')
        }
        _ => token,
    }
}

/// Checks an opening against the rules and plays at most `plies` of its moves.
pub fn realise<G: Game>(
    text: &OpeningText,
    variant: Variant,
    plies: Option<usize>,
) -> Result<Opening<G>, String> {
    let (start, standard_start) = match &text.fen {
        Some(fen) => {
            (G::from_fen(fen, variant).map_err(|e| format!("bad opening FEN '{fen}': {e}"))?, false)
        }
        None => (G::start(variant), true),
    };
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for word in text.moves.iter().take(plies.unwrap_or(usize::MAX)) {
        let mv = parse_san(&pos, word).ok_or_else(|| format!("illegal opening move '{word}'"))?;
        pos.play(mv);
        moves.push(mv);
    }
    Ok(Opening { start, standard_start, moves })
}

/// Largest score (centipawns, or hundredths of a man) of a balanced opening.
pub const BALANCED: i32 = 100;
/// Depth of the search that judges an opening's balance.
const BALANCE_DEPTH: i32 = 6;

/// How even a position is, to filter random openings.
pub trait Balance: Game {
    /// A short search's score for the side to move, or `None` when the game
    /// has no evaluation (every opening is then accepted).
    fn balance(&self) -> Option<i32> {
        None
    }
}

fn searched_balance<G: Playable>(pos: &G) -> Option<i32> {
    let limits = Limits { depth: Some(BALANCE_DEPTH), ..Limits::default() };
    crate::search::search_once(pos, &limits, 1).map(|found| found.score)
}

impl Balance for crate::chess::Position {
    fn balance(&self) -> Option<i32> {
        searched_balance(self)
    }
}

impl<R: crate::draughts::rules::Rules> Balance for crate::draughts::Position<R> {
    fn balance(&self) -> Option<i32> {
        searched_balance(self)
    }
}

/// A random opening: `plies` random legal moves from the start position (a
/// random Chess960 array for Chess960), avoiding lines where the game ends,
/// and balanced by [`Balance`] when the game can tell (else the most even of
/// the tries).
pub fn random_opening<G: Balance>(
    variant: Variant,
    plies: usize,
    rng: &mut Rng,
) -> Result<Opening<G>, String> {
    let mut best: Option<(i32, Opening<G>)> = None;
    for _attempt in 0..100 {
        let (start, standard_start) = if variant == Variant::Chess960 {
            let fen = chess960_fen(rng.below(960));
            (
                G::from_fen(&fen, variant).map_err(|e| format!("bad Chess960 FEN '{fen}': {e}"))?,
                false,
            )
        } else {
            (G::start(variant), true)
        };
        let mut pos = start.clone();
        let mut history = Vec::new();
        let mut moves = Vec::new();
        let mut list = G::MoveList::default();
        while moves.len() < plies {
            pos.generate(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list[rng.below(list.len())];
            history.push(pos.hash());
            pos.play(mv);
            moves.push(mv);
            if pos.outcome(&history).is_some() {
                break;
            }
        }
        if moves.len() == plies && pos.outcome(&history).is_none() {
            let opening = Opening { start, standard_start, moves };
            let Some(score) = pos.balance() else { return Ok(opening) };
            if score.abs() <= BALANCED {
                return Ok(opening);
            }
            if best.as_ref().map_or(true, |(b, _)| score.abs() < *b) {
                best = Some((score.abs(), opening));
            }
        }
    }
    best.map(|(_, opening)| opening)
        .ok_or_else(|| "could not find a random opening that does not end the game".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_and_epd_lines() {
        let epd = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - id \"x\";\n\n# c\n[FEN \"W:W31-50:B1-20\"]\n";
        let list = load(epd, "epd").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(
            list[0].fen.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
        );
        assert_eq!(list[1].fen.as_deref(), Some("W:W31-50:B1-20"));
        assert!(load("", "xyz").is_err());
    }

    #[test]
    fn pgn_games() {
        let pgn = "[Event \"a\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n\n1. e4 {c} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6 1-0\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
        let games = parse_games(pgn);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].fen.as_deref(), Some("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert_eq!(games[0].moves, ["e4", "e5", "Nf3", "Nc6"]);
        assert_eq!(games[1].moves, ["d4", "d5"]);
        let pdn = "[GameType \"20\"]\n1.32-28 19-23 2. 28x19 14x23 *\n";
        assert_eq!(parse_games(pdn)[0].moves, ["32-28", "19-23", "28x19", "14x23"]);
    }

    #[test]
    fn random_openings_are_balanced() {
        let mut rng = Rng::new(5);
        for _ in 0..4 {
            let opening =
                random_opening::<crate::chess::Position>(Variant::Chess, 8, &mut rng).unwrap();
            let mut pos = opening.start.clone();
            for &mv in &opening.moves {
                pos.play(mv);
            }
            let score = pos.balance().unwrap();
            assert!(score.abs() <= BALANCED, "{} scores {score}", pos.to_fen());
        }
    }
}
