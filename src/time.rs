//! Time management: turns a clock (UCI `wtime/winc/movestogo`, Hub
//! `level time/inc/moves`, the DXP time budget) into two deadlines.
//!
//! * The soft deadline is checked between iterations: no new iteration starts
//!   after it (the search scales it by [`soft_scale`]: best-move stability,
//!   score drops, a single legal move).
//! * The hard deadline is checked inside the search and stops it at once.
//!
//! Invariant: the hard deadline never exceeds the time left minus the move
//! overhead, so a search that honours it cannot lose on time.

use crate::score::Score;
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

/// The moves planned for in sudden death (no `moves_to_go`).
const SUDDEN_DEATH_MOVES: u32 = 30;

/// The longest horizon planned for. A period with more moves left (DXP's
/// 75 moves in a minute, a 40/120 control) is planned as if it ended here,
/// so its early moves get more than an even share and its later ones still
/// get theirs from what is left: 75 moves in 60 s spend about 45% of the
/// time on the first 25 moves, 72% by move 50, and all of it by move 75
/// (see `a_period_is_planned_whole`). Games often end before the period
/// does: against Scan at 75/60, 66 of 100 games ended before move 75.
const HORIZON: u32 = 40;

/// Splits the clock into deadlines, keeping `overhead` (GUI and transport
/// latency) in reserve.
pub fn allocate(clock: Clock, overhead: Duration) -> Deadlines {
    let remaining = clock.remaining.saturating_sub(overhead);
    // Moves left to plan for: the period's, up to the horizon.
    let moves_to_go = clock.moves_to_go.unwrap_or(SUDDEN_DEATH_MOVES).clamp(1, HORIZON);
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

/// The factor on the soft deadline after an iteration: a best move that
/// has stayed the same for `stable` iterations needs less time, a changing
/// one or a score that fell by `score_drop` more. A root with a single
/// legal move (a forced capture in draughts, a lone evasion in chess) gets
/// a tenth: its search only finds the score and the expected reply, and
/// the time saved goes to the moves after it (each move plans from the
/// clock that is left).
pub fn soft_scale(stable: u32, score_drop: Score, single_reply: bool) -> f64 {
    let stability = match stable {
        0 => 1.6,
        1 => 1.2,
        2 => 1.0,
        3 => 0.85,
        _ => 0.7,
    };
    let falling = if score_drop > 40 {
        1.4
    } else if score_drop > 15 {
        1.15
    } else {
        1.0
    };
    let forced = if single_reply { 0.1 } else { 1.0 };
    stability * falling * forced
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
    fn forced_moves_are_quick_and_trouble_takes_longer() {
        let settled = soft_scale(4, 0, false);
        assert!(soft_scale(0, 0, false) > settled);
        assert!(soft_scale(4, 50, false) > soft_scale(4, 20, false));
        assert!(soft_scale(4, 20, false) > settled);
        // The most a single reply gets is below the least of any other root.
        assert!(soft_scale(0, 100, true) < settled / 2.0);
    }

    /// Plays a whole DXP period of 75 moves in 60 s, every move spending its
    /// soft deadline scaled by `scale(move)`: the plan lasts to the end of
    /// the period, spends nearly all of it, and front-loads sensibly.
    fn play_period(scale: impl Fn(u32) -> f64) -> Vec<Duration> {
        let (moves, overhead) = (75, ms(50));
        let mut remaining = ms(60_000);
        let mut spent = Vec::new();
        for played in 0..moves {
            let clock = Clock { remaining, increment: ms(0), moves_to_go: Some(moves - played) };
            let d = allocate(clock, overhead);
            let used = d.soft.mul_f64(scale(played)).min(d.hard);
            assert!(used + overhead <= remaining, "move {played}: {d:?} from {remaining:?}");
            remaining -= used + overhead;
            spent.push(used);
        }
        spent
    }

    #[test]
    fn a_period_is_planned_whole() {
        let spent = play_period(|_| 1.0);
        let total: Duration = spent.iter().sum();
        let first: Duration = spent[..25].iter().sum();
        assert!(total >= ms(52_000), "{total:?}");
        assert!(first >= ms(20_000) && first <= ms(35_000), "{first:?}");
        assert!(spent.iter().all(|&t| t >= ms(300)), "{spent:?}");
        // Moves that take twice their share early (a falling score) still
        // leave every later move a usable budget.
        let greedy = play_period(|m| if m < 30 { 2.2 } else { 1.0 });
        assert!(greedy.iter().all(|&t| t >= ms(100)), "{greedy:?}");
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
