//! The progress display of `crown match` on a terminal: one bar with the
//! games played out of the total, the first engine's score and Elo with its
//! error, and the estimated time left (indicatif draws and rate-limits it).
//! When stdout is not a terminal there is no bar: the runner's plain lines
//! are the whole output, as in a log file or a pipe.
//!
//! Invariant: the bar never interleaves with the runner's lines: every
//! line is written inside [`Progress::suspend`], which hides the bar while
//! the line is printed and redraws it after.

use super::stats::{format_elo, Trinomial};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// The bar, or nothing when the output is not a terminal.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for `total` games drawn on stdout when `show` and stdout is a
    /// terminal; otherwise a no-op.
    pub fn new(total: u64, show: bool) -> Progress {
        if !show || !std::io::stdout().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stdout());
        let style = ProgressStyle::with_template(
            "{bar:30.cyan/blue} {pos}/{len} games  {msg}  ETA {eta}  ({elapsed})",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        Progress { bar: Some(bar) }
    }

    /// Runs `print` with the bar hidden, so its lines stay whole.
    pub fn suspend<R>(&self, print: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(print),
            None => print(),
        }
    }

    /// Moves the bar to `finished` games; `name` and `total` are the first
    /// engine's name and its results so far (its own point of view).
    pub fn update(&self, finished: u64, name: &str, total: &Trinomial) {
        if let Some(bar) = &self.bar {
            bar.set_message(summary(name, total));
            bar.set_position(finished);
        }
    }

    /// Removes the bar (the runner prints its final table after).
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `crown: +3 =4 -1 (62.5%) Elo +89 +/- 120`: the text after the bar.
pub fn summary(name: &str, t: &Trinomial) -> String {
    if t.games() == 0 {
        return format!("{name}: no game yet");
    }
    let e = t.estimate();
    format!(
        "{name}: +{} ={} -{} ({:.1}%)  Elo {} +/- {:.0}",
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.points() / t.games() as f64,
        format_elo(e.elo),
        e.error
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_text() {
        let mut t = Trinomial::default();
        assert_eq!(summary("a", &t), "a: no game yet");
        for hp in [2, 2, 1, 0] {
            t.add(hp);
        }
        let s = summary("a", &t);
        assert!(s.starts_with("a: +2 =1 -1 (62.5%)  Elo "), "{s}");
        // Not a terminal under the test harness: no bar, lines run as is.
        let p = Progress::new(4, true);
        assert_eq!(p.suspend(|| 7), 7);
        p.update(1, "a", &t);
        p.finish();
    }
}
