//! Time controls and the runner's own clocks.
//!
//! The runner measures every move itself, from sending `go` to reading the
//! answer, and never trusts what an engine says about its time. A move that
//! takes longer than the time left plus the margin (`--timemargin`) loses on
//! time. `--tc moves/seconds+inc` adds `seconds` again after every `moves` own
//! moves (cutechess's repeating control); the increment is added after each move.
//!
//! Invariant: remaining times are never negative after a move that did not
//! forfeit (an overrun within the margin leaves zero on the clock).

use std::time::Duration;

/// The longest time value the runner accepts (a period, an increment, a
/// movetime, a margin): 1,000,000 s, about 11.5 days. Larger values would
/// overflow the runner's deadlines (`Instant + Duration`).
pub const MAX_SECONDS: f64 = 1_000_000.0;

/// Reads a time value in seconds: finite, not negative, at most
/// [`MAX_SECONDS`]. `what` names the value in the error.
pub fn seconds(text: &str, what: &str) -> Result<Duration, String> {
    let secs: f64 =
        text.trim().parse().map_err(|_| format!("{what}: '{text}' is not a number of seconds"))?;
    checked_seconds(secs, what)
}

/// A number of seconds as a duration, refused (never a panic) when it is
/// not finite, negative or above [`MAX_SECONDS`].
pub fn checked_seconds(secs: f64, what: &str) -> Result<Duration, String> {
    if !(0.0..=MAX_SECONDS).contains(&secs) {
        return Err(format!("{what}: {secs} s is out of range (0 to {MAX_SECONDS} s)"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// A clock-based time control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeControl {
    /// Moves per period, or `None` for sudden death (plus increment).
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Duration,
    /// Increment per move.
    pub increment: Duration,
}

impl TimeControl {
    /// Parses `10+0.1`, `40/60`, `40/60+0.5`, `60` (seconds), or cutechess's
    /// `1:30+1` (minutes:seconds).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = || format!("bad time control '{text}' (expected e.g. 10+0.1 or 40/60+0.5)");
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?.max(1)), rest),
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_secs = match base.split_once(':') {
            Some((min, sec)) => {
                min.trim().parse::<f64>().map_err(|_| bad())? * 60.0
                    + sec.trim().parse::<f64>().map_err(|_| bad())?
            }
            None => base.trim().parse::<f64>().map_err(|_| bad())?,
        };
        let inc_secs = match inc {
            Some(i) => i.trim().parse::<f64>().map_err(|_| bad())?,
            None => 0.0,
        };
        if !(base_secs.is_finite() && inc_secs.is_finite()) || base_secs < 0.0 || inc_secs < 0.0 {
            return Err(bad());
        }
        if base_secs == 0.0 && inc_secs == 0.0 {
            return Err(bad());
        }
        let what = format!("time control '{text}'");
        Ok(TimeControl {
            moves,
            base: checked_seconds(base_secs, &what)?,
            increment: checked_seconds(inc_secs, &what)?,
        })
    }
}

/// The PGN `TimeControl` text of `tc`: `moves/seconds+inc` or
/// `seconds+inc` (`+inc` only when there is one). The runner's output and
/// notes use it too.
pub fn tc_text(tc: &TimeControl) -> String {
    let mut out = match tc.moves {
        Some(m) => format!("{m}/{}", tc.base.as_secs_f64()),
        None => format!("{}", tc.base.as_secs_f64()),
    };
    if !tc.increment.is_zero() {
        out.push_str(&format!("+{}", tc.increment.as_secs_f64()));
    }
    out
}

/// Everything that limits one search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Clock time control.
    pub tc: Option<TimeControl>,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    /// Node limit per move.
    pub nodes: Option<u64>,
    /// Depth limit per move.
    pub depth: Option<u32>,
}

impl Limits {
    /// Whether no limit at all was given (a search would never end).
    pub fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime.is_none() && self.nodes.is_none() && self.depth.is_none()
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameClock {
    /// Time left.
    pub remaining: Duration,
    /// Moves left in the current period (`None` for sudden death).
    pub moves_to_go: Option<u32>,
}

impl GameClock {
    /// A full clock at the start of a game.
    pub fn new(tc: &TimeControl) -> GameClock {
        GameClock { remaining: tc.base, moves_to_go: tc.moves }
    }

    /// Charges a move that took `used`. Returns `false` when it overran the
    /// time left by more than `margin` (a loss on time).
    pub fn charge(&mut self, tc: &TimeControl, used: Duration, margin: Duration) -> bool {
        if used > self.remaining + margin {
            self.remaining = Duration::ZERO;
            return false;
        }
        self.remaining = self.remaining.saturating_sub(used) + tc.increment;
        if let (Some(left), Some(per)) = (self.moves_to_go, tc.moves) {
            if left <= 1 {
                self.remaining += tc.base;
                self.moves_to_go = Some(per);
            } else {
                self.moves_to_go = Some(left - 1);
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    #[test]
    fn parses_the_usual_forms() {
        let tc = TimeControl::parse("10+0.1").unwrap();
        assert_eq!((tc.moves, tc.base, tc.increment), (None, secs(10.0), secs(0.1)));
        let tc = TimeControl::parse("40/60+0.5").unwrap();
        assert_eq!((tc.moves, tc.base, tc.increment), (Some(40), secs(60.0), secs(0.5)));
        let tc = TimeControl::parse("1:30").unwrap();
        assert_eq!(tc.base, secs(90.0));
        for bad in ["", "x", "10+", "-1+0", "0+0", "a/10", "1e20+0", "1+1e20", "1e7", "inf+0"] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn time_values_are_range_checked() {
        assert_eq!(seconds("1.5", "t"), Ok(secs(1.5)));
        for bad in ["1e20", "-1", "NaN", "inf", "x"] {
            assert!(seconds(bad, "t").is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_charges_increments_and_periods() {
        let tc = TimeControl::parse("2/10+1").unwrap();
        let mut c = GameClock::new(&tc);
        assert!(c.charge(&tc, secs(3.0), Duration::ZERO));
        assert_eq!((c.remaining, c.moves_to_go), (secs(8.0), Some(1)));
        assert!(c.charge(&tc, secs(4.0), Duration::ZERO));
        assert_eq!((c.remaining, c.moves_to_go), (secs(15.0), Some(2)));
        // Overrun within the margin: zero left plus increment, not a loss.
        let tc = TimeControl::parse("1+0").unwrap();
        let mut c = GameClock::new(&tc);
        assert!(c.charge(&tc, secs(1.05), secs(0.1)));
        assert_eq!(c.remaining, Duration::ZERO);
        let mut c = GameClock::new(&tc);
        assert!(!c.charge(&tc, secs(1.2), secs(0.1)));
    }
}
