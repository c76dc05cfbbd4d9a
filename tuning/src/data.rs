//! The labelled-position format: one position per line,
//!
//! ```text
//! <FEN> | <score> | <result>
//! ```
//!
//! * `FEN`: the position in the game's own notation (chess FEN or X-FEN,
//!   Shredder-FEN for Chess960, PDN FEN for draughts);
//! * `score`: the search score in centipawns (hundredths of a man in
//!   draughts) from **White's** point of view, an integer;
//! * `result`: the game's result from White's point of view: `1.0` win,
//!   `0.5` draw, `0.0` loss.
//!
//! It is the text format of the `bullet` trainer and close to Stockfish's
//! `plain` format, so the files can be shared with other tools. Blank lines
//! and lines starting with `#` are skipped. Invariant: [`Record::line`] and
//! [`Record::parse`] round-trip.

use std::fmt;

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The position (FEN of its game).
    pub fen: String,
    /// Search score, White's point of view.
    pub score: i32,
    /// Game result for White: 1.0, 0.5 or 0.0.
    pub result: f32,
}

/// Why a line was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

impl Record {
    /// The record as one line of the format (no newline).
    pub fn line(&self) -> String {
        format!("{} | {} | {:.1}", self.fen, self.score, self.result)
    }

    /// Reads one line; `Ok(None)` for a blank or comment line.
    pub fn parse(line: &str) -> Result<Option<Record>, ParseError> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let mut fields = line.rsplitn(3, '|');
        let (Some(result), Some(score), Some(fen)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(ParseError("expected '<FEN> | <score> | <result>'".to_string()));
        };
        let score = score
            .trim()
            .parse()
            .map_err(|_| ParseError(format!("bad score '{}'", score.trim())))?;
        let result = match result.trim() {
            "1.0" | "1" | "1-0" => 1.0,
            "0.5" | "1/2-1/2" => 0.5,
            "0.0" | "0" | "0-1" => 0.0,
            other => return Err(ParseError(format!("bad result '{other}' (1.0, 0.5 or 0.0)"))),
        };
        let fen = fen.trim();
        if fen.is_empty() {
            return Err(ParseError("empty FEN".to_string()));
        }
        Ok(Some(Record { fen: fen.to_string(), score, result }))
    }
}

/// Every record of a text file of this format; the first bad line fails
/// with `path:line: reason`.
pub fn read_text(path: &std::path::Path) -> Result<Vec<Record>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut records = Vec::new();
    for (n, line) in text.lines().enumerate() {
        match Record::parse(line) {
            Ok(Some(r)) => records.push(r),
            Ok(None) => {}
            Err(e) => return Err(format!("{}:{}: {e}", path.display(), n + 1)),
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        for result in [1.0, 0.5, 0.0] {
            let r = Record { fen: "W:W31-50:B1-20".to_string(), score: -17, result };
            assert_eq!(Record::parse(&r.line()), Ok(Some(r)));
        }
        assert_eq!(Record::parse("  # comment"), Ok(None));
        assert!(Record::parse("8/8/8/8/8/8/8/K6k w - - 0 1 | x | 1.0").is_err());
        assert!(Record::parse("8/8/8/8/8/8/8/K6k w - - 0 1 | 3 | 2").is_err());
        assert!(Record::parse("no separators").is_err());
        assert!(Record::parse(" | 3 | 1.0").is_err());
    }
}
