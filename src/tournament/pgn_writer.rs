//! Game records and their text: PGN for chess, PDN for draughts.
//!
//! PGN follows the export format of the standard: the seven-tag roster first,
//! then `[Variant]` (Chess960), `[SetUp "1"]` and `[FEN]` for a non-standard
//! start, `[TimeControl]`, `[PlyCount]` and `[Termination]`; SAN moves with a
//! comment after each engine move in cutechess's form `{+0.31/12 0.532s}`
//! (`book` for opening moves), lines under 80 characters, the reason for the
//! result as the last comment, and a blank line after each game.
//!
//! PDN uses the same layout with `[GameType]` (20 international, 21 English,
//! 22 Italian, 25 Russian, 26 Brazilian, 30 Turkish) and the draughts results
//! `2-0`, `0-2`, `1-1`.

use super::client::Score;
use crate::game::{GameResult, Variant};
use std::fmt::Write as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// One move of a game record.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveRecord {
    /// SAN (chess) or PDN move text (draughts).
    pub text: String,
    /// Whether it came from the opening rather than an engine.
    pub book: bool,
    /// The engine's last score, from its own point of view.
    pub score: Option<Score>,
    /// The engine's last depth.
    pub depth: Option<u32>,
    /// Time the move took.
    pub time: Duration,
}

/// A finished game, ready to be written.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Game number in the match (1-based).
    pub number: u64,
    /// Round number (1-based).
    pub round: u32,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The variant.
    pub variant: Variant,
    /// Start position FEN, when it is not the standard start.
    pub fen: Option<String>,
    /// Full move number of the first move.
    pub first_move_number: u32,
    /// Whether black makes the first move.
    pub black_first: bool,
    /// The moves.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub result: GameResult,
    /// Why the game ended, in words.
    pub reason: String,
    /// PGN termination tag value (`normal`, `adjudication`, `time forfeit`,
    /// `rules infraction`, `abandoned`).
    pub termination: &'static str,
    /// The time control text, if any.
    pub time_control: Option<String>,
}

fn pdn_game_type(variant: Variant) -> &'static str {
    match variant {
        Variant::English => "21",
        Variant::Italian => "22",
        Variant::Russian => "25",
        Variant::Brazilian => "26",
        Variant::Turkish => "30",
        _ => "20",
    }
}

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let days =
        SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() / 86_400).unwrap_or(0)
            as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The comment after an engine move: `+0.31/12 0.532s`, `+M3/20 1.0s`.
pub fn move_comment(m: &MoveRecord) -> String {
    if m.book {
        return "book".to_string();
    }
    let mut out = String::new();
    match m.score {
        Some(Score::Cp(cp)) => {
            let _ = write!(
                out,
                "{}{:.2}",
                if cp >= 0 { "+" } else { "-" },
                f64::from(cp.unsigned_abs()) / 100.0
            );
        }
        Some(Score::Mate(n)) => {
            let _ = write!(out, "{}M{}", if n >= 0 { "+" } else { "-" }, n.unsigned_abs());
        }
        None => {}
    }
    if let Some(d) = m.depth {
        if !out.is_empty() {
            let _ = write!(out, "/{d}");
        } else {
            let _ = write!(out, "d{d}");
        }
    }
    if !out.is_empty() {
        out.push(' ');
    }
    let _ = write!(out, "{:.3}s", m.time.as_secs_f64());
    out
}

/// Writes a game as PGN (chess) or PDN (draughts), ending with a blank line.
pub fn write_game(g: &GameRecord, event: &str) -> String {
    let chess = g.variant.is_chess();
    let result = if chess { g.result.pgn() } else { g.result.pdn() };
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", event);
    tag("Site", "?");
    tag("Date", &today());
    tag("Round", &g.round.to_string());
    tag("White", &g.white);
    tag("Black", &g.black);
    tag("Result", result);
    if chess {
        if g.variant == Variant::Chess960 {
            tag("Variant", "Chess960");
        }
    } else {
        tag("GameType", pdn_game_type(g.variant));
        if g.variant != Variant::International {
            tag("Variant", g.variant.name());
        }
    }
    if let Some(fen) = &g.fen {
        if chess {
            tag("SetUp", "1");
        }
        tag("FEN", fen);
    }
    if let Some(tc) = &g.time_control {
        tag("TimeControl", tc);
    }
    tag("PlyCount", &g.moves.len().to_string());
    tag("Termination", g.termination);
    out.push('\n');

    let mut tokens: Vec<String> = Vec::new();
    let mut number = g.first_move_number;
    let mut white_to_move = !g.black_first;
    for (i, m) in g.moves.iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.text.clone());
        tokens.push(format!("{{{}}}", move_comment(m)));
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(format!("{{{}}}", g.reason.replace('}', ")")));
    tokens.push(result.to_string());
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > 79 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&token);
        line_len += token.len();
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(variant: Variant) -> GameRecord {
        let mv = |text: &str, book| MoveRecord {
            text: text.to_string(),
            book,
            score: Some(Score::Cp(-31)),
            depth: Some(12),
            time: Duration::from_millis(532),
        };
        GameRecord {
            number: 1,
            round: 1,
            white: "A \"quoted\"".into(),
            black: "B".into(),
            variant,
            fen: Some("fen text".into()),
            first_move_number: 1,
            black_first: true,
            moves: vec![mv("e5", true), mv("Nf3", false), mv("Nc6", false)],
            result: GameResult::Draw,
            reason: "Draw by adjudication".into(),
            termination: "adjudication",
            time_control: Some("10+0.1".into()),
        }
    }

    #[test]
    fn pgn_layout() {
        let text = write_game(&record(Variant::Chess960), "t");
        assert!(text.contains("[White \"A \\\"quoted\\\"\"]\n"));
        assert!(text.contains("[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"fen text\"]\n"));
        assert!(text.contains("1... e5 {book} 2. Nf3 {-0.31/12 0.532s} Nc6 {-0.31/12 0.532s}"));
        assert!(text.ends_with("{Draw by adjudication} 1/2-1/2\n\n"));
        assert!(text.lines().all(|l| l.len() < 80));
        let pdn = write_game(&record(Variant::Russian), "t");
        assert!(
            pdn.contains("[GameType \"25\"]") && pdn.ends_with("1-1\n\n") && !pdn.contains("SetUp")
        );
        assert_eq!(today().len(), 10);
    }
}
