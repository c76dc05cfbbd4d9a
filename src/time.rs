//! Time management: turns a clock (UCI `wtime/winc/movestogo`, Hub
//! `level time/inc/moves`, the DXP time budget) into two deadlines.
//!
//! * The soft deadline is checked between iterations: no new iteration starts
//!   after it (the search may scale it by best-move stability).
//! * The hard deadline is checked inside the search and stops it at once.
//!
//! Invariant: the hard deadline never exceeds the time left minus the move
//! overhead, so a search that honours it cannot lose on time.

use std::time::Duration;

/// A player's clock at the start of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// When to stop thinking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadlines {
    /// Start no new iteration after this.
    pub soft: Duration,
    /// Stop the search at once after this.
    pub hard: Duration,
}

/// Splits the clock into deadlines, keeping `overhead` (GUI and transport
/// latency) in reserve.
pub fn allocate(clock: Clock, overhead: Duration) -> Deadlines {
    let remaining = clock.remaining.saturating_sub(overhead);
    // Expected moves left in this period: a fixed horizon for sudden death.
    let moves_to_go = clock.moves_to_go.unwrap_or(30).clamp(1, 40);
    // The time for the rest of the period: the clock plus the increments
    // still to come, less the overhead of every one of those moves and two
    // more in reserve. Charging the overhead per move (not once) is what
    // keeps a reserve when the clock runs low with an increment: the budget
    // then falls below the increment and the clock refills, instead of
    // hovering one overhead above zero where any delay of the process or
    // the GUI loses on time.
    let pool = (clock.remaining + clock.increment * (moves_to_go - 1))
        .saturating_sub(overhead * (moves_to_go + 2));
    let base = pool / moves_to_go;
    // Never plan to use more than this share of the clock on one move.
    let ceiling = if moves_to_go == 1 { remaining * 9 / 10 } else { remaining * 2 / 5 };
    let hard = (base * 3).min(ceiling).max(Duration::from_millis(1));
    // The whole per-move share: the search scales it by stability (0.7x
    // for a settled best move up to 2.2x for a changing one with a falling
    // score), and no iteration starts after it. At 3/5 of it Crown used
    // about 40% of its clock at 10+0.1; the full share measured +25 +/- 33
    // Elo over 249 games at 5+0.05.
    let soft = base.min(hard);
    Deadlines { soft, hard }
}

/// Deadlines for a fixed time per move.
pub fn fixed(movetime: Duration, overhead: Duration) -> Deadlines {
    let hard = movetime.saturating_sub(overhead).max(Duration::from_millis(1));
    Deadlines { soft: hard, hard }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn never_beyond_the_clock() {
        for remaining in [0, 1, 5, 10, 50, 100, 1000, 60_000, 3_600_000] {
            for inc in [0, 10, 100, 5000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let clock =
                        Clock { remaining: ms(remaining), increment: ms(inc), moves_to_go: mtg };
                    let d = allocate(clock, ms(10));
                    assert!(d.soft <= d.hard);
                    assert!(
                        d.hard <= ms(remaining.saturating_sub(10)).max(ms(1)),
                        "{clock:?} {d:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_low_clock_with_increment_refills() {
        // 1 s + 10 ms: below a few hundred ms the budget is under the
        // increment, so the clock grows back instead of draining to zero.
        for remaining in [30, 60, 100, 150, 200] {
            let clock = Clock { remaining: ms(remaining), increment: ms(10), moves_to_go: None };
            let d = allocate(clock, ms(10));
            assert!(d.soft < ms(7), "{clock:?} {d:?}");
            assert!(remaining > 100 || d.hard < ms(10), "{clock:?} {d:?}");
        }
        let start =
            allocate(Clock { remaining: ms(1000), increment: ms(10), moves_to_go: None }, ms(10));
        assert!(start.soft >= ms(15), "{start:?}");
    }

    #[test]
    fn sensible_budgets() {
        let d = allocate(
            Clock { remaining: ms(10_000), increment: ms(100), moves_to_go: None },
            ms(10),
        );
        assert!(d.soft >= ms(150) && d.soft <= ms(600), "{d:?}");
        let last = allocate(
            Clock { remaining: ms(10_000), increment: ms(0), moves_to_go: Some(1) },
            ms(10),
        );
        assert!(last.hard >= ms(5_000));
        assert_eq!(fixed(ms(100), ms(10)).hard, ms(90));
    }
}
