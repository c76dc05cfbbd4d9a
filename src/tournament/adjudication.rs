//! Optional adjudication from the engines' own scores, as cutechess and
//! fastchess do it:
//! * draw: from full move `movenumber` on, both engines' scores stay within
//!   `score` centipawns of zero for `movecount` consecutive moves each;
//! * resign: one engine's score stays at or below `-score` for `movecount`
//!   consecutive own moves (it loses);
//! * maximum length: the game is drawn after `maxmoves` full moves.
//!
//! Invariant: a move without a reported score resets the counters of that
//! rule, so adjudication only ever follows an unbroken run of scores.

use super::client::Score;
use crate::game::Side;

/// Draw adjudication settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move number at which it may apply.
    pub movenumber: u32,
    /// Consecutive moves per side within the margin.
    pub movecount: u32,
    /// Margin in centipawns.
    pub score: i32,
}

/// Resign adjudication settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive own moves at or below `-score`.
    pub movecount: u32,
    /// Margin in centipawns.
    pub score: i32,
}

/// Adjudication rules of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Draw rule.
    pub draw: Option<DrawRule>,
    /// Resign rule.
    pub resign: Option<ResignRule>,
    /// Maximum game length in full moves.
    pub max_moves: Option<u32>,
}

/// An adjudicated end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Drawn by the score rule.
    Draw,
    /// Drawn at the maximum length.
    MaxMoves,
    /// This side resigns (loses).
    Resign(Side),
}

fn parse_kv(tokens: &[String], what: &str) -> Result<Vec<(String, i64)>, String> {
    tokens
        .iter()
        .map(|t| {
            let (k, v) = t
                .split_once('=')
                .ok_or_else(|| format!("{what}: expected key=value, got '{t}'"))?;
            let n = v.parse::<i64>().map_err(|_| format!("{what}: bad number '{v}'"))?;
            if n < 0 && k != "score" {
                return Err(format!("{what}: negative {k}"));
            }
            Ok((k.to_string(), n))
        })
        .collect()
}

impl DrawRule {
    /// Parses `movenumber=M movecount=N score=S`.
    pub fn parse(tokens: &[String]) -> Result<DrawRule, String> {
        let mut rule = DrawRule { movenumber: 0, movecount: 1, score: 0 };
        for (k, v) in parse_kv(tokens, "--draw")? {
            match k.as_str() {
                "movenumber" => rule.movenumber = v as u32,
                "movecount" => rule.movecount = (v as u32).max(1),
                "score" => rule.score = v.unsigned_abs() as i32,
                _ => return Err(format!("--draw: unknown key '{k}'")),
            }
        }
        Ok(rule)
    }
}

impl ResignRule {
    /// Parses `movecount=N score=S`.
    pub fn parse(tokens: &[String]) -> Result<ResignRule, String> {
        let mut rule = ResignRule { movecount: 1, score: 1000 };
        for (k, v) in parse_kv(tokens, "--resign")? {
            match k.as_str() {
                "movecount" => rule.movecount = (v as u32).max(1),
                "score" => rule.score = v.unsigned_abs() as i32,
                _ => return Err(format!("--resign: unknown key '{k}'")),
            }
        }
        Ok(rule)
    }
}

/// The per-game state of the adjudicator.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    draw_run: u32,
    resign_run: [u32; 2],
}

impl Adjudicator {
    /// A fresh adjudicator for one game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator { rules, draw_run: 0, resign_run: [0; 2] }
    }

    /// Records a move by `mover` with its reported score; `plies` is the
    /// number of plies played in the game so far, this move included.
    pub fn record(&mut self, mover: Side, score: Option<Score>, plies: u32) -> Option<Verdict> {
        let cp = score.map(Score::as_cp);
        if let Some(rule) = self.rules.resign {
            let run = &mut self.resign_run[mover.index()];
            match cp {
                Some(v) if v <= -rule.score => *run += 1,
                _ => *run = 0,
            }
            if *run >= rule.movecount {
                return Some(Verdict::Resign(mover));
            }
        }
        if let Some(rule) = self.rules.draw {
            let move_number = plies.div_ceil(2);
            match cp {
                Some(v) if move_number >= rule.movenumber && v.abs() <= rule.score => {
                    self.draw_run += 1
                }
                _ => self.draw_run = 0,
            }
            if self.draw_run >= 2 * rule.movecount {
                return Some(Verdict::Draw);
            }
        }
        if let Some(max) = self.rules.max_moves {
            if plies >= 2 * max {
                return Some(Verdict::MaxMoves);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn resign_after_a_run() {
        let rules = Adjudication {
            resign: Some(ResignRule::parse(&toks("movecount=2 score=500")).unwrap()),
            ..Default::default()
        };
        let mut a = Adjudicator::new(rules);
        assert_eq!(a.record(Side::White, Some(Score::Cp(-600)), 1), None);
        assert_eq!(a.record(Side::Black, Some(Score::Cp(600)), 2), None);
        assert_eq!(a.record(Side::White, None, 3), None); // broken run
        assert_eq!(a.record(Side::White, Some(Score::Cp(-600)), 5), None);
        assert_eq!(
            a.record(Side::White, Some(Score::Mate(-3)), 7),
            Some(Verdict::Resign(Side::White))
        );
    }

    #[test]
    fn draw_after_movenumber_and_max_moves() {
        let draw = DrawRule::parse(&toks("movenumber=3 movecount=2 score=10")).unwrap();
        let mut a = Adjudicator::new(Adjudication {
            draw: Some(draw),
            max_moves: Some(40),
            ..Default::default()
        });
        for ply in 1..=4 {
            assert_eq!(a.record(Side::BOTH[(ply as usize + 1) % 2], Some(Score::Cp(0)), ply), None);
        }
        let mut verdict = None;
        for ply in 5..=8 {
            verdict = a.record(Side::BOTH[(ply as usize + 1) % 2], Some(Score::Cp(5)), ply);
        }
        assert_eq!(verdict, Some(Verdict::Draw));
        let mut a = Adjudicator::new(Adjudication { max_moves: Some(2), ..Default::default() });
        assert_eq!(a.record(Side::White, None, 3), None);
        assert_eq!(a.record(Side::Black, None, 4), Some(Verdict::MaxMoves));
        assert!(DrawRule::parse(&toks("bogus=1")).is_err());
    }
}
