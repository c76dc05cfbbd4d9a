//! Move ordering: which move to try first. Good ordering is what makes
//! alpha-beta cut: the transposition-table move, then winning tactical moves,
//! killer and counter moves, quiet moves by history, losing captures last.
//!
//! The history tables are per thread (never shared), indexed by
//! [`Game::history_index`], and updated with the gravity formula
//! `h += bonus - h * |bonus| / HISTORY_MAX`, which keeps every entry within
//! `±HISTORY_MAX` without periodic scaling. A quiet move's history score is
//! the sum of three tables: butterfly (the move alone), and continuation
//! history on the previous move and on the one before it (the move as an
//! answer to the opponent's last move, and as a follow-up to our own).

use crate::eval::Playable;
use crate::game::Game;
use crate::score::MAX_PLY;
use crate::search::params::{Step, Steps};

/// Bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

const TT_MOVE: i32 = 1 << 30;
const GOOD_TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const COUNTER: i32 = KILLER - 1;
const BAD_TACTICAL: i32 = -(1 << 28);
/// A move dropped by [`MovePicker::skip_quiets`] (below every real score).
const SKIPPED: i32 = i32::MIN;

/// The earlier moves a node's continuation history is conditioned on, as
/// history indices (`None` at the root or after a null move).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Continuation {
    /// The move that led to this node (the opponent's).
    pub previous: Option<usize>,
    /// The move before it (the side to move's own last move).
    pub before: Option<usize>,
}

/// Per-thread ordering memory.
#[derive(Clone)]
pub struct History<G: Game> {
    /// Butterfly history by side to move and history index.
    quiet: Vec<i32>,
    /// Continuation history: by the key of an earlier move
    /// ([`Game::CONTINUATION_KEYS`]) and the history index of this one.
    /// One table serves one and two plies back, as in Stockfish.
    continuation: Vec<i16>,
    /// Two killer moves per ply: quiet moves that caused a cutoff.
    killers: Vec<[Option<G::Move>; 2]>,
    /// The quiet move that refuted each previous move (by its history index).
    counters: Vec<Option<G::Move>>,
    /// Largest bonus of one update (a search tunable).
    pub bonus_max: i32,
    /// The ordering steps switched off (tuning builds, for ablation).
    pub off: Steps,
}

impl<G: Game> Default for History<G> {
    fn default() -> Self {
        History {
            quiet: vec![0; 2 * G::HISTORY_SIZE],
            continuation: vec![0; G::CONTINUATION_KEYS * G::HISTORY_SIZE],
            killers: vec![[None; 2]; MAX_PLY + 2],
            counters: vec![None; G::HISTORY_SIZE],
            bonus_max: 1600,
            off: Steps::NONE,
        }
    }
}

impl<G: Game> History<G> {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        let (bonus_max, off) = (self.bonus_max, self.off);
        *self = History { bonus_max, off, ..History::default() };
    }

    /// Clears the killers of the ply after `ply` (they belong to siblings).
    pub fn clear_killers(&mut self, ply: usize) {
        if let Some(k) = self.killers.get_mut(ply + 1) {
            *k = [None; 2];
        }
    }

    fn quiet_slot(pos: &G, index: usize) -> usize {
        pos.side_to_move().index() * G::HISTORY_SIZE + index % G::HISTORY_SIZE
    }

    fn continuation_slot(earlier: usize, index: usize) -> usize {
        (earlier % G::CONTINUATION_KEYS) * G::HISTORY_SIZE + index % G::HISTORY_SIZE
    }

    /// History score of a quiet move: butterfly plus both continuations,
    /// within `±3 * HISTORY_MAX`.
    #[inline]
    pub fn quiet_score(&self, pos: &G, mv: G::Move, cont: Continuation) -> i32 {
        let index = pos.history_index(mv);
        let mut score = self.quiet[Self::quiet_slot(pos, index)];
        for earlier in [cont.previous, cont.before].into_iter().flatten() {
            score += i32::from(self.continuation[Self::continuation_slot(earlier, index)]);
        }
        score
    }

    /// Rewards `best` (which caused a cutoff at `depth`) and punishes the
    /// quiet moves tried before it; records killer and counter move.
    pub fn update_quiet(
        &mut self,
        pos: &G,
        best: G::Move,
        tried: &[G::Move],
        depth: i32,
        ply: usize,
        cont: Continuation,
    ) {
        let bonus = (depth * depth * 16).min(self.bonus_max);
        let butterfly = self.off.runs(Step::History);
        let previous = cont.previous;
        let cont =
            if self.off.runs(Step::ContinuationHistory) { cont } else { Continuation::default() };
        let mut apply = |mv: G::Move, delta: i32| {
            let index = pos.history_index(mv);
            if butterfly {
                let slot = &mut self.quiet[Self::quiet_slot(pos, index)];
                *slot += delta - *slot * delta.abs() / HISTORY_MAX;
            }
            for earlier in [cont.previous, cont.before].into_iter().flatten() {
                let slot = &mut self.continuation[Self::continuation_slot(earlier, index)];
                let h = i32::from(*slot);
                *slot = (h + delta - h * delta.abs() / HISTORY_MAX) as i16;
            }
        };
        apply(best, bonus);
        for &mv in tried.iter().filter(|&&mv| mv != best) {
            apply(mv, -bonus);
        }
        if let (true, Some(k)) = (self.off.runs(Step::Killers), self.killers.get_mut(ply)) {
            if k[0] != Some(best) {
                k[1] = k[0];
                k[0] = Some(best);
            }
        }
        if let (true, Some(index)) = (self.off.runs(Step::CounterMove), previous) {
            self.counters[index % G::HISTORY_SIZE] = Some(best);
        }
    }

    /// The killers of a ply.
    pub fn killers(&self, ply: usize) -> [Option<G::Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// The counter move to the previous move (given by its history index).
    pub fn counter(&self, previous: Option<usize>) -> Option<G::Move> {
        previous.and_then(|i| self.counters[i % G::HISTORY_SIZE])
    }
}

/// Moves beyond this many in one list are tried unordered, after the rest
/// (no chess position has that many; draughts positions with many kings do).
const SCORED: usize = 256;

/// Hands out the moves of a list, best-scored first (selection sort: most
/// nodes cut after one or two moves, so sorting everything would be waste).
///
/// The exchange test that splits tactical moves into good and bad is lazy
/// where it costs something ([`Playable::EXCHANGE`]): a tactical move is scored as good at first and tested only when it is
/// about to be handed out; a loser is rescored as bad and the choice made
/// again. Untested scores are never below the tested ones, so the order is
/// exactly that of testing every move up front, without the tests of the
/// moves after a cutoff.
pub struct MovePicker<'a, G: Game> {
    /// The caller's list, reordered in place as moves are handed out.
    moves: &'a mut G::MoveList,
    scores: [i32; SCORED],
    /// Bit `i` set: move `i` is tactical and not yet exchange-tested.
    untested: [u64; SCORED / 64],
    next: usize,
}

impl<'a, G: Playable> MovePicker<'a, G> {
    /// Scores `moves` generated at `pos`. Always inlined: the picker holds
    /// a 1 KB score array, which a call would build and then copy out.
    #[inline(always)]
    pub fn new(
        pos: &G,
        moves: &'a mut G::MoveList,
        tt_move: Option<G::Move>,
        history: &History<G>,
        ply: usize,
        cont: Continuation,
    ) -> MovePicker<'a, G> {
        let killers = history.killers(ply);
        let counter = history.counter(cont.previous);
        let mut scores = [i32::MIN; SCORED];
        let mut untested = [0; SCORED / 64];
        for (i, (slot, &mv)) in scores.iter_mut().zip(moves.iter()).enumerate() {
            *slot = {
                if Some(mv) == tt_move {
                    TT_MOVE
                } else if pos.is_tactical(mv) {
                    let value = pos.tactical_value(mv);
                    if G::EXCHANGE {
                        untested[i / 64] |= 1 << (i % 64);
                        GOOD_TACTICAL + value
                    } else if pos.see_ge(mv, 0) {
                        GOOD_TACTICAL + value
                    } else {
                        BAD_TACTICAL + value
                    }
                } else if killers[0] == Some(mv) {
                    KILLER
                } else if killers[1] == Some(mv) {
                    KILLER - 1
                } else if counter == Some(mv) {
                    COUNTER - 1
                } else {
                    history.quiet_score(pos, mv, cont)
                }
            };
        }
        MovePicker { moves, scores, untested, next: 0 }
    }

    /// The next best move of the list generated at `pos`, and its ordering
    /// score.
    pub fn pick(&mut self, pos: &G) -> Option<(G::Move, i32)> {
        let start = self.next;
        if start >= self.moves.len() {
            return None;
        }
        self.next += 1;
        if start >= SCORED {
            return Some((self.moves[start], 0));
        }
        let end = self.moves.len().min(SCORED);
        let best = loop {
            // The first of the highest scores: the maximum in one pass the
            // compiler vectorises, then its first position (a loop that
            // tracks the index is a serial chain of dependent compares).
            let window = &self.scores[start..end];
            let top = window.iter().copied().fold(i32::MIN, i32::max);
            if top == SKIPPED {
                // Only skipped quiet moves are left (see `skip_quiets`).
                self.next = self.moves.len();
                return None;
            }
            let best = start + window.iter().position(|&s| s == top).unwrap_or(0);
            let bit = 1 << (best % 64);
            if !G::EXCHANGE || self.untested[best / 64] & bit == 0 {
                break best;
            }
            self.untested[best / 64] &= !bit;
            if pos.see_ge(self.moves[best], 0) {
                break best;
            }
            self.scores[best] += BAD_TACTICAL - GOOD_TACTICAL;
        };
        self.moves.swap(start, best);
        if G::EXCHANGE {
            // `best` is tested now; an untested move at `start` moves there.
            let bit = 1 << (start % 64);
            if self.untested[start / 64] & bit != 0 {
                self.untested[start / 64] &= !bit;
                self.untested[best / 64] |= 1 << (best % 64);
            }
        }
        self.scores.swap(start, best);
        Some((self.moves[start], self.scores[start]))
    }

    /// Drops the quiet moves not yet handed out: the caller would skip
    /// every one of them (late move pruning), so they need not be picked
    /// only to be thrown away. The tactical moves left come out in the same
    /// order as before.
    pub fn skip_quiets(&mut self, pos: &G) {
        let end = self.moves.len().min(SCORED);
        for i in self.next..end {
            if !pos.is_tactical(self.moves[i]) {
                self.scores[i] = SKIPPED;
            }
        }
    }

    /// Number of moves in the list.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }
}

/// Whether an ordering score marks a tactical move that lost material by SEE.
pub fn is_bad_tactical(score: i32) -> bool {
    score < BAD_TACTICAL / 2
}

/// Whether `mv`, handed out by a [`MovePicker`] at `pos` with ordering
/// score `score`, loses material by exchange (`!see_ge(mv, 0)`): the
/// picker's own test when it made one, else a fresh one.
pub fn loses_exchange<G: Playable>(pos: &G, mv: G::Move, score: i32) -> bool {
    if score > KILLER && score < TT_MOVE {
        false
    } else if is_bad_tactical(score) {
        true
    } else {
        !pos.see_ge(mv, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Position;
    use crate::game::Variant;

    #[test]
    fn continuation_history_learns_the_answer_to_a_move() {
        let pos = Position::start(Variant::Chess);
        let (knight, pawn) = (pos.parse_move("g1f3").unwrap(), pos.parse_move("e2e4").unwrap());
        let after_d5 = Continuation { previous: Some(100), before: None };
        let after_e5 = Continuation { previous: Some(200), before: None };
        let mut history = History::<Position>::default();
        for _ in 0..4 {
            history.update_quiet(&pos, knight, &[pawn, knight], 8, 0, after_d5);
        }
        // Butterfly history is shared by both contexts; the continuation
        // part is only where the cutoff happened.
        let learned = history.quiet_score(&pos, knight, after_d5);
        let elsewhere = history.quiet_score(&pos, knight, after_e5);
        assert!(learned > elsewhere && elsewhere > 0, "{learned} {elsewhere}");
        assert!(
            history.quiet_score(&pos, pawn, after_d5) < history.quiet_score(&pos, pawn, after_e5)
        );
        assert_eq!(history.counter(Some(100)), Some(knight));
        // Gravity keeps every table within its bound.
        for _ in 0..1000 {
            history.update_quiet(&pos, knight, &[], 20, 0, after_d5);
        }
        assert!(history.quiet_score(&pos, knight, after_d5) <= 3 * HISTORY_MAX);
    }

    #[test]
    fn skipping_quiets_leaves_the_tactical_moves_in_order() {
        // Many captures, good and bad, beside many quiet moves.
        let fen = "r2q1rk1/pp2bppp/2n1bn2/1Q1pp3/2PP4/2N1PN2/PP2BPPP/R1B2RK1 w - - 0 9";
        let pos = Position::from_fen(fen, Variant::Chess).unwrap();
        let mut history = History::<Position>::default();
        let quiet = pos.parse_move("h2h3").unwrap();
        history.update_quiet(&pos, quiet, &[], 6, 0, Continuation::default());
        let order = |skip_after: Option<usize>| {
            let mut list = <Position as Game>::MoveList::default();
            pos.generate(&mut list);
            let mut picker =
                MovePicker::new(&pos, &mut list, None, &history, 0, Continuation::default());
            let mut out = Vec::new();
            while let Some((mv, score)) = picker.pick(&pos) {
                out.push((mv, score));
                if Some(out.len()) == skip_after {
                    picker.skip_quiets(&pos);
                }
            }
            out
        };
        let all = order(None);
        let tactical = all.iter().filter(|(mv, _)| pos.is_tactical(*mv)).count();
        assert!(tactical >= 4 && all.len() > tactical + 20, "{all:?}");
        // Skipped after the first move (a good capture): the rest are the
        // tactical moves, best first, as the full order has them.
        let skipped = order(Some(1));
        assert!(skipped.len() < all.len());
        assert!(skipped[1..].iter().all(|(mv, _)| pos.is_tactical(*mv)), "{skipped:?}");
        let expected: Vec<i32> =
            all[1..].iter().filter(|(mv, _)| pos.is_tactical(*mv)).map(|m| m.1).collect();
        let got: Vec<i32> = skipped[1..].iter().map(|m| m.1).collect();
        assert_eq!(got, expected);
        assert!(got.iter().any(|&s| is_bad_tactical(s)), "no losing capture: {skipped:?}");
    }
}
