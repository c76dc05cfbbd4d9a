//! The root filter: which root moves keep the table result and make
//! progress, from the DTZ tables.
//!
//! Each legal move gets its DTZ counted from the root, as in Stockfish's
//! `root_probe`: a zeroing move (capture or pawn move) takes the WDL of the
//! position after it (win 1, cursed win 101, draw 0, blessed loss -101,
//! loss -1); a mating move is 1; any other move is the child's DTZ, negated,
//! one ply further from zero. The moves are then ranked:
//!
//! * a win is certain when `dtz + halfmove clock <= 99` (or always with the
//!   fifty-move rule off); a certain win beats a cursed one, which beats a
//!   draw; among wins the smallest DTZ is best, so every move kept brings the
//!   next zeroing move (or mate) nearer and the win lands within the
//!   fifty-move rule;
//! * every drawing move ranks the same (the search chooses among them);
//! * a loss is saved by the fifty-move rule when `-dtz + halfmove clock >
//!   100` (rule on); among losses the largest DTZ resists longest.
//!
//! Only the best-ranked moves are kept. Any probe failure gives `None`: the
//! search then runs on all moves, as without tables.

use super::{Syzygy, TableWdl};
use crate::chess::{MoveList, Position};
use crate::endgame::{RootFilter, Wdl};
use crate::game::Game;

/// Rank of a certain win (minus the DTZ).
const CERTAIN: i32 = 2000;
/// Rank of a win the fifty-move rule may spoil (minus the DTZ).
const CURSED: i32 = 1000;

/// The moves of `pos` that keep the best table result (see the module
/// header), or `None` when `pos` is not covered or a probe fails.
pub fn filter(tables: &Syzygy, pos: &Position) -> Option<RootFilter<crate::chess::Move>> {
    let config = tables.config();
    if !tables.covers(pos, config.limit) {
        return None;
    }
    let clock = pos.halfmove_clock() as i32;
    let mut list = MoveList::default();
    pos.generate(&mut list);
    if list.is_empty() {
        return None;
    }
    let mut ranked = Vec::with_capacity(list.len());
    let mut probes = 0;
    for &mv in list.iter() {
        let mut child = pos.clone();
        child.play(mv);
        probes += 1;
        let dtz = move_dtz(tables, &child)?;
        ranked.push((mv, rank(dtz, clock, config.rule50)));
    }
    let best = ranked.iter().map(|&(_, r)| r).max()?;
    // Cursed wins and blessed losses rank between the certain results and
    // count as draws (with the rule off no move ranks there).
    let wdl = if best > CURSED {
        Wdl::Win
    } else if best <= -CURSED {
        Wdl::Loss
    } else {
        Wdl::Draw
    };
    let moves = ranked.iter().filter(|&&(_, r)| r == best).map(|&(mv, _)| mv).collect();
    Some(RootFilter { wdl, moves, probes })
}

/// The DTZ of the move that led to `child`, from the mover's side.
fn move_dtz(tables: &Syzygy, child: &Position) -> Option<i32> {
    if child.count_legal() == 0 {
        return Some(if child.in_check() { 1 } else { 0 });
    }
    if child.halfmove_clock() == 0 {
        return Some(match tables.wdl(child)? {
            TableWdl::Loss => 1,
            TableWdl::BlessedLoss => 101,
            TableWdl::Draw => 0,
            TableWdl::CursedWin => -101,
            TableWdl::Win => -1,
        });
    }
    let dtz = -tables.dtz(child)?;
    Some(dtz + dtz.signum())
}

/// The rank of a move with `dtz` (from the root) when the fifty-move
/// counter stands at `clock`: larger is better.
fn rank(dtz: i32, clock: i32, rule50: bool) -> i32 {
    if dtz > 0 {
        if !rule50 || dtz + clock <= 99 {
            CERTAIN - dtz
        } else {
            CURSED - dtz
        }
    } else if dtz < 0 {
        if rule50 && -dtz + clock > 100 {
            -CURSED - dtz
        } else {
            -CERTAIN - dtz
        }
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_prefer_sure_short_wins_then_draws_then_long_losses() {
        assert!(rank(3, 0, true) > rank(5, 0, true));
        assert_eq!(rank(5, 90, true), CERTAIN - 5, "95 plies: still within the rule");
        assert!(rank(15, 90, true) > 0 && rank(15, 90, true) < rank(60, 0, true), "cursed");
        assert_eq!(rank(60, 90, false), CERTAIN - 60);
        assert!(rank(0, 0, true) > rank(-40, 70, true));
        assert!(rank(-40, 70, true) > rank(-40, 0, true), "a blessed loss beats a loss");
        assert!(rank(-40, 0, true) > rank(-10, 0, true), "resist longest");
    }
}
