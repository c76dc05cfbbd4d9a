//! Un-moves: the positions from which one quiet move (no capture, no
//! promotion) leads to a given position. Retrograde analysis walks these
//! backwards from decided positions.
//!
//! Invariant (tested against forward move generation): for a position `Q`
//! with side to move `s`, the predecessors are exactly the positions `P` with
//! side to move `s.flip()` and no capture available such that a legal quiet
//! non-promoting move of `P` gives `Q`. This function does not test "no
//! capture available": a position with a capture has no quiet move, and the
//! builder never counts it as undecided (see `build.rs`), so it skips such
//! predecessors by their state.

use super::index::Placement;
use crate::draughts::geometry::{opposite, step, Bitboard, Geometry};
use crate::draughts::rules::Rules;
use crate::game::Side;

/// Calls `visit` with every predecessor placement of `q` (see the header).
#[inline]
pub fn predecessors<R: Rules>(q: &Placement, mut visit: impl FnMut(Placement)) {
    let mover = q.side.flip();
    let own = match mover {
        Side::White => q.white,
        Side::Black => q.black,
    };
    let empty = !(q.white | q.black) & <R::Board as Geometry>::MASK;
    let back_steps = match mover {
        Side::White => <R::Board as Geometry>::WHITE_MAN_STEPS,
        Side::Black => <R::Board as Geometry>::BLACK_MAN_STEPS,
    };
    let undo = |to: Bitboard, from: Bitboard, king: bool| -> Placement {
        let swap = to | from;
        let mut p = Placement { side: mover, ..*q };
        match mover {
            Side::White => p.white ^= swap,
            Side::Black => p.black ^= swap,
        }
        if king {
            p.kings ^= swap;
        }
        p
    };
    let mut pieces = own;
    while pieces != 0 {
        let to = pieces & pieces.wrapping_neg();
        pieces ^= to;
        if q.kings & to != 0 {
            for d in 0..4 {
                let mut from = step::<R::Board>(to, d) & empty;
                while from != 0 {
                    visit(undo(to, from, true));
                    if !R::FLYING_KINGS {
                        break;
                    }
                    from = step::<R::Board>(from, d) & empty;
                }
            }
        } else {
            for &d in back_steps {
                let from = step::<R::Board>(to, opposite(d)) & empty;
                if from != 0 {
                    visit(undo(to, from, false));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::position::MoveList;
    use crate::draughts::rules::{EnglishRules, InternationalRules, TurkishRules};
    use crate::endgame::draughts::index::{Indexer, Signature};

    /// Every predecessor without a capture reaches `q` by a legal quiet
    /// move, and every quiet move of every position is found backwards.
    fn matches_forward<R: Rules>(sig: Signature) {
        let ix = Indexer::<R>::new(sig);
        let mut forward = 0u64;
        let mut backward = 0u64;
        let mut list = MoveList::default();
        for i in 0..ix.size() {
            let Some(q) = ix.decode(i) else { continue };
            let pos = q.position::<R>();
            pos.generate_moves(&mut list);
            for mv in list.iter().filter(|m| !m.is_capture() && !m.promotes) {
                let mut child = pos;
                child.play_move(*mv);
                let mut found = false;
                predecessors::<R>(&Placement::of(&child), |p| found |= p == q);
                assert!(found, "{} -> {}", pos.to_fen(), child.to_fen());
                forward += 1;
            }
            predecessors::<R>(&q, |p| {
                let prev = p.position::<R>();
                if !prev.has_capture() {
                    prev.generate_moves(&mut list);
                    let hit = list.iter().any(|&m| {
                        let mut c = prev;
                        c.play_move(m);
                        !m.promotes && Placement::of(&c) == q
                    });
                    assert!(hit, "{} <- {}", pos.to_fen(), prev.to_fen());
                    backward += 1;
                }
            });
        }
        assert_eq!(forward, backward);
    }

    use crate::game::Game;

    #[test]
    fn unmoves_invert_quiet_moves() {
        matches_forward::<InternationalRules>(Signature::new(1, 1, 0, 1));
        matches_forward::<EnglishRules>(Signature::new(1, 0, 1, 1));
        matches_forward::<TurkishRules>(Signature::new(1, 1, 1, 0));
    }
}
