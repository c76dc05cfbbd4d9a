//! Quiescence search: only tactical moves, until the position is quiet, so
//! the static evaluation is never taken in the middle of an exchange (chess)
//! or of a forced capture sequence (draughts). In draughts a quiet node also
//! follows its promotions and the trades it can force (step 3c), once per
//! line, which keeps the cost bounded. Steps numbered as in the main
//! search (`alphabeta.rs`), whose node kinds and conventions it shares.

use super::alphabeta::{no_move_score, tt_cutoff, NodeKind};
use crate::eval::Playable;
use crate::score::{Score, DRAW, INFINITE, MAX_PLY};
use crate::search::ordering::{loses_exchange, Continuation, MovePicker};
use crate::search::params::Step;
use crate::search::tt::{Bound, Store};
use crate::search::worker::Worker;

impl<G: Playable> Worker<G> {
    /// Quiescence search: only tactical moves, until the position is quiet,
    /// so the static evaluation is never taken in the middle of an exchange.
    /// `exchanges`: whether a quiet draughts node may still try its
    /// exchanges (step 3c; once per line).
    pub(crate) fn qsearch<N: NodeKind>(
        &mut self,
        pos: &G,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        exchanges: bool,
    ) -> Score {
        if self.should_stop() {
            return DRAW;
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply + 1);
        self.pv[ply].clear();
        if pos.rule_draw() {
            return DRAW;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.static_eval(pos) };
        }

        // Step 1: a stored bound may already answer.
        let key = pos.hash();
        let entry = self.tt.probe(key, ply);
        if let Some(e) = &entry {
            if !N::PV && tt_cutoff(e, 0, alpha, beta) {
                return e.score;
            }
        }

        // Step 2: stand pat: the side to move may decline every capture,
        // unless it is in check. Where captures are free (chess) this comes
        // before any move is generated, since most quiescence nodes end here.
        let mut best_score = -INFINITE;
        let mut eval = 0;
        let may_stand_now = !in_check && !G::FORCED_CAPTURES;
        if may_stand_now {
            eval = entry.as_ref().map_or_else(|| self.static_eval(pos), |e| e.eval);
            if eval >= beta {
                return eval;
            }
            best_score = eval;
            alpha = alpha.max(eval);
        }

        // Step 3: the tactical moves (all evasions when in check).
        let mut list = G::MoveList::default();
        pos.generate_tactical(&mut list);
        if list.is_empty() {
            if in_check {
                return no_move_score(pos, ply);
            }
            if G::FORCED_CAPTURES && pos.count_legal() == 0 {
                return no_move_score(pos, ply);
            }
        }

        // Step 3b: where captures are compulsory (draughts), standing pat is
        // only possible when there is none.
        let may_stand = may_stand_now || (!in_check && list.is_empty());
        // Whether `list` holds step 3c's exchanges, not captures.
        let mut exchanging = false;
        if may_stand && !may_stand_now {
            eval = entry.as_ref().map_or_else(|| self.static_eval(pos), |e| e.eval);
            if eval >= beta {
                return eval;
            }
            best_score = eval;
            alpha = alpha.max(eval);
            // Step 3c (draughts): at a quiet node the side to move may still
            // force play: a promotion, or an exchange or shot (a man handed
            // over that a capture of as many or more pieces answers). The
            // static evaluation sees neither, and a trade or combination
            // one ply beyond the horizon is what most often turns a game
            // (the lost games against Scan, docs/strength.md). Once per
            // line, as the trade it starts ends in another quiet node.
            if exchanges && self.params.on(Step::QsearchExchanges) {
                pos.generate_exchanges(&mut list);
                exchanging = !list.is_empty();
            }
        }

        let tt_move = entry
            .as_ref()
            .filter(|e| e.mv != 0)
            .and_then(|e| list.iter().copied().find(|&m| G::move_key(m) == e.mv));
        let mut picker =
            MovePicker::new(pos, &mut list, tt_move, &self.history, ply, Continuation::default());
        let mut best_move = None;
        while let Some((mv, order)) = picker.pick(pos) {
            self.tt.prefetch(pos.hash_after(mv));
            // Step 4: losing exchanges are not worth resolving.
            if may_stand && self.params.on(Step::QsearchSee) && loses_exchange(pos, mv, order) {
                continue;
            }
            let child = self.enter(pos, mv, ply);
            let score =
                -self.qsearch::<N>(&child, -beta, -alpha, ply + 1, exchanges && !exchanging);
            self.leave();
            if self.stopped {
                return DRAW;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    if N::PV {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if best_score == -INFINITE {
            // In check with only losing-looking evasions pruned cannot
            // happen (nothing is pruned in check); keep a sane value anyway.
            best_score = eval;
        }
        let bound = if best_score >= beta { Bound::Lower } else { Bound::Upper };
        self.tt.store(
            key,
            ply,
            Store {
                mv: best_move.map_or(0, G::move_key),
                score: best_score,
                eval,
                depth: 0,
                bound,
            },
        );
        best_score
    }
}
