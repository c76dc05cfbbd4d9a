//! The tree search: principal variation search with quiescence, as numbered
//! steps, each with the reason it exists.
//!
//! Node kinds are marker types ([`Pv`], [`NonPv`]) with associated consts, so
//! the compiler builds a specialised copy of the search for each; the root
//! has its own loop (`Worker::search_root`) over the sorted root moves.
//!
//! Invariants: scores are from the side to move's point of view; a mate
//! found at ply `p` scores `MATE - p`; a search that was stopped returns a
//! meaningless value that every caller discards (it checks `stopped` first).

use crate::endgame::{Probe, Wdl};
use crate::eval::{Evaluator, Playable};
use crate::game::{Game, NoMoveResult};
use crate::score::{is_mate, Score, DRAW, EVAL_LIMIT, INFINITE, MATE, MAX_PLY};
use crate::search::ordering::{is_bad_tactical, Continuation, MovePicker};
use crate::search::params::Step;
use crate::search::tt::{Bound, Entry, Store};
use crate::search::worker::Worker;

/// A node kind, known at compile time.
pub trait NodeKind {
    /// Principal-variation node: searched with an open window, never pruned
    /// by a table cutoff.
    const PV: bool;
}

/// A node on the principal variation.
pub struct Pv;
/// A node searched with a null window.
pub struct NonPv;

impl NodeKind for Pv {
    const PV: bool = true;
}
impl NodeKind for NonPv {
    const PV: bool = false;
}

/// Added to the depth of a table result stored in the transposition table:
/// no search of that node is deeper, so the stored bound is always used.
const TABLE_DEPTH_BONUS: i32 = 6;

/// What `search_move` needs of its node.
#[derive(Clone, Copy)]
struct MoveNode {
    depth: i32,
    alpha: Score,
    beta: Score,
    ply: usize,
    cut_node: bool,
    improving: bool,
    single_reply: bool,
}

/// Quiet moves remembered per node for the history malus.
const QUIETS_TRACKED: usize = 64;

pub(super) fn no_move_score<G: Game>(pos: &G, ply: usize) -> Score {
    match pos.no_move_result() {
        NoMoveResult::Loss => -MATE + ply as Score,
        NoMoveResult::Draw => DRAW,
        NoMoveResult::Win => MATE - ply as Score,
    }
}

pub(super) fn tt_cutoff(entry: &Entry, depth: i32, alpha: Score, beta: Score) -> bool {
    entry.depth >= depth
        && match entry.bound {
            Bound::Exact => true,
            Bound::Lower => entry.score >= beta,
            Bound::Upper => entry.score <= alpha,
            Bound::None => false,
        }
}

impl<G: Playable> Worker<G> {
    pub(super) fn static_eval(&mut self, pos: &G) -> Score {
        self.eval.evaluate(pos).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Plays `mv` on a copy of `pos` and pushes the child's key. The
    /// callers have prefetched the child's table entry already, through
    /// [`Game::hash_after`], before deciding about the move.
    #[inline]
    pub(super) fn enter(&mut self, pos: &G, mv: G::Move, ply: usize) -> G {
        let mut child = pos.clone();
        child.play(mv);
        self.keys.push(child.hash());
        self.frames[ply].played = Some(pos.history_index(mv));
        self.frames[ply].null = false;
        child
    }

    #[inline]
    pub(super) fn leave(&mut self) {
        self.keys.pop();
    }

    pub(super) fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// The root: every root move from the current PV index on, in the order
    /// of the previous iteration. Records each move's score and PV.
    /// `current`, when given, hears of each root move as it is started.
    pub(crate) fn search_root(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        current: Option<&dyn Fn(G::Move, usize)>,
    ) -> Score {
        let mut best = -INFINITE;
        self.pv[0].clear();
        self.history.clear_killers(0);
        for index in self.pv_index..self.root_moves.len() {
            let mv = self.root_moves[index].mv;
            if let Some(report) = current {
                report(mv, index + 1);
            }
            self.tt.prefetch(pos.hash_after(mv));
            let child = self.enter(pos, mv, 0);
            let extension = i32::from(child.in_check() && self.params.on(Step::CheckExtension));
            let new_depth = depth - 1 + extension;
            let seldepth_before = self.seldepth;
            self.seldepth = 0;
            let mut score;
            if index == self.pv_index {
                score = -self.search::<Pv>(&child, new_depth, -beta, -alpha, 1, false);
            } else {
                // Late root moves are reduced a little when quiet.
                let reduce = depth >= 3 && index >= self.pv_index + 3 && !pos.is_tactical(mv);
                let reduced = if reduce { new_depth - 1 } else { new_depth };
                score = -self.search::<NonPv>(&child, reduced, -alpha - 1, -alpha, 1, true);
                if score > alpha && reduced < new_depth {
                    score = -self.search::<NonPv>(&child, new_depth, -alpha - 1, -alpha, 1, false);
                }
                if score > alpha && score < beta {
                    score = -self.search::<Pv>(&child, new_depth, -beta, -alpha, 1, false);
                }
            }
            self.leave();
            if self.stopped {
                self.seldepth = self.seldepth.max(seldepth_before);
                return best;
            }
            let seldepth = self.seldepth;
            self.seldepth = self.seldepth.max(seldepth_before);
            let rm = &mut self.root_moves[index];
            if index == self.pv_index || score > alpha {
                rm.score = score;
                rm.seldepth = seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The main search below the root.
    pub(crate) fn search<N: NodeKind>(
        &mut self,
        pos: &G,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        let in_check = pos.in_check();
        let params = self.params;

        // Step 1: horizon. Quiescence resolves captures so that the static
        // evaluation is only ever taken in a quiet position.
        if depth <= 0 && !in_check {
            return self.qsearch::<N>(pos, alpha, beta, ply, true);
        }
        depth = depth.max(1);

        // Step 2: stop signal, node count, selective depth.
        if self.should_stop() {
            return DRAW;
        }
        self.count_node();
        self.seldepth = self.seldepth.max(ply + 1);
        self.pv[ply].clear();

        // Step 3: draws by rule and repetition: the game ends there, so the
        // search must too (a repeated position inside the tree counts once).
        if pos.rule_draw() || self.is_repetition(pos.reversible_plies()) {
            return DRAW;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check { DRAW } else { self.static_eval(pos) };
        }

        // Step 4: mate distance pruning: no line from here can beat a mate
        // already found closer to the root.
        if params.on(Step::MateDistance) {
            alpha = alpha.max(-MATE + ply as Score);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5: transposition table. A deep enough stored bound ends a
        // null-window node at once; its move is tried first in any case.
        let excluded = self.frames[ply].excluded;
        let key = pos.hash();
        let entry = if excluded.is_none() { self.tt.probe(key, ply) } else { None };
        if let Some(e) = &entry {
            if !N::PV && tt_cutoff(e, depth, alpha, beta) {
                return e.score;
            }
        }

        // Step 5b: endgame tablebase: below the root, a position the tables
        // cover has a known result (capture positions included; the tables
        // decide at which depth and fifty-move count a probe is worth it).
        // A win scores far above any evaluation but below mate, plus the
        // static evaluation so that the winning side still makes progress
        // (the tables hold no distance); the draw rules were applied in
        // step 3. The result is a bound: a win is at least that (a mate may
        // be found), a loss at most that; a draw is exact. A bound that
        // settles the window ends the node (and is stored in the table, deep
        // enough to outlast any search of it); otherwise a PV node searches
        // on, within the bound.
        let mut table_floor = -INFINITE;
        let mut table_ceiling = INFINITE;
        if excluded.is_none() {
            if let Some(wdl) = self.tables.as_ref().and_then(|t| t.search_probe(pos, depth)) {
                self.tbhits += 1;
                let score = super::table_score(wdl, self.static_eval(pos));
                let bound = match wdl {
                    Wdl::Win => Bound::Lower,
                    Wdl::Draw => Bound::Exact,
                    Wdl::Loss => Bound::Upper,
                };
                let settles = match bound {
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                    _ => true,
                };
                if settles {
                    self.tt.store(
                        key,
                        ply,
                        Store {
                            mv: 0,
                            score,
                            eval: score,
                            depth: (depth + TABLE_DEPTH_BONUS).min(MAX_PLY as i32 - 1),
                            bound,
                        },
                    );
                    return score;
                }
                if N::PV {
                    if bound == Bound::Lower {
                        table_floor = score;
                        alpha = alpha.max(score);
                    } else {
                        table_ceiling = score;
                    }
                }
            }
        }

        // Step 6: static evaluation (see `node_eval`).
        let (eval, improving) = self.node_eval(pos, entry.as_ref(), in_check, ply);
        self.history.clear_killers(ply);

        // Steps 7 to 8b: node pruning before any move (see `prune_node`).
        if let (false, Some(eval), None) = (N::PV, eval, excluded) {
            if let Some(score) = self.prune_node(pos, depth, beta, ply, cut_node, eval, improving) {
                return score;
            }
        }

        // Step 9: internal iterative reduction: a node with no stored move
        // is probably not important enough to search at full depth.
        let tt_key = entry.as_ref().map_or(0, |e| e.mv);
        if params.on(Step::InternalReduction)
            && depth >= 4
            && tt_key == 0
            && (N::PV || cut_node)
            && excluded.is_none()
        {
            depth -= 1;
        }

        // Step 10: generate; no legal move ends the game.
        let mut list = G::MoveList::default();
        pos.generate(&mut list);
        if list.is_empty() {
            return no_move_score(pos, ply);
        }
        let tt_move = if tt_key != 0 {
            list.iter().copied().find(|&m| G::move_key(m) == tt_key)
        } else {
            None
        };
        let single_reply = list.len() == 1;
        // The two moves before this node, for continuation history.
        let played = |back: usize| ply.checked_sub(back).and_then(|p| self.frames[p].played);
        let cont = Continuation { previous: played(1), before: played(2) };
        let mut picker = MovePicker::new(pos, &mut list, tt_move, &self.history, ply, cont);

        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets = [G::Move::default(); QUIETS_TRACKED];
        let mut quiet_count = 0;
        let mut skip_quiets = false;

        while let Some((mv, order)) = picker.pick(pos) {
            if Some(mv) == excluded {
                continue;
            }
            let quiet = !pos.is_tactical(mv);
            // Step 11a (draughts): a shot, a quiet sacrifice that a larger
            // capture pays back two plies later, gains beyond the static
            // evaluation, which sees only the men given; the prunings of
            // step 11 never cut it. Tested only for a move that one of them
            // would cut.
            let shot = |mv| G::FORCED_CAPTURES && params.on(Step::Shots) && pos.shot(mv);
            if quiet && skip_quiets && !shot(mv) {
                continue;
            }
            // The child's table entry is fetched while the prunings below
            // decide about the move, not after it is played.
            self.tt.prefetch(pos.hash_after(mv));

            // Step 11: shallow-depth pruning, once a move that does not lose
            // has been found.
            if best_score > -crate::score::MATE_BOUND && searched > 0 {
                if quiet {
                    // Late move pruning: late quiet moves at low depth.
                    let limit = (params.lmp_base + depth * depth) / (2 - i32::from(improving));
                    let late = params.on(Step::LateMovePruning)
                        && depth <= 8
                        && quiet_count as i32 >= limit;
                    // Futility: the evaluation is too far below alpha.
                    let futile = !late
                        && eval.is_some_and(|eval| {
                            let margin = params.futility_base + params.futility_margin * depth;
                            params.on(Step::Futility)
                                && depth <= params.futility_depth
                                && eval + margin <= alpha
                        });
                    // SEE: the move loses material to exchanges (chess).
                    let losing = !late
                        && !futile
                        && params.on(Step::SeePruning)
                        && depth <= 8
                        && !pos.see_ge(mv, -params.see_quiet_margin * depth);
                    if (late || futile || losing) && !shot(mv) {
                        // Late or futile: so is every later quiet move.
                        if (late || futile) && !skip_quiets {
                            skip_quiets = true;
                            // Where no quiet move can be a shot, the picker
                            // need not hand them out at all.
                            if !G::FORCED_CAPTURES || !params.on(Step::Shots) {
                                picker.skip_quiets(pos);
                            }
                        }
                        continue;
                    }
                } else if params.on(Step::SeePruning)
                    && depth <= 6
                    && !pos.see_ge(mv, -params.see_capture_margin * depth * depth)
                {
                    continue;
                }
            }

            // Step 12: singular extension (see `singular`).
            let mut extension = 0;
            if let (Some(e), true) = (&entry, Some(mv) == tt_move) {
                if excluded.is_none() {
                    match self.singular(pos, e, mv, depth, beta, ply, cut_node) {
                        Ok(more) => extension = more,
                        Err(score) => return score,
                    }
                }
            }

            let child = self.enter(pos, mv, ply);
            searched += 1;
            if quiet && quiet_count < QUIETS_TRACKED {
                quiets[quiet_count] = mv;
                quiet_count += 1;
            }
            // Steps 13 to 15: extend, reduce, search (see `search_move`).
            let node = MoveNode { depth, alpha, beta, ply, cut_node, improving, single_reply };
            let score = self
                .search_move::<N>(pos, &child, mv, order, quiet, searched, extension, node, cont);
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
                        // Step 16: a cutoff teaches the ordering heuristics:
                        // butterfly and continuation history (the move as an
                        // answer to the last two plies), killer, counter move.
                        if quiet {
                            self.history.update_quiet(
                                pos,
                                mv,
                                &quiets[..quiet_count],
                                depth,
                                ply,
                                cont,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
        }

        if searched == 0 {
            // Every move was excluded or pruned: the singular test's answer
            // is "fail low"; otherwise at least one move is always searched.
            return if excluded.is_some() { alpha } else { no_move_score(pos, ply) };
        }

        // A table bound found in step 5b holds whatever the moves said.
        best_score = best_score.clamp(table_floor, table_ceiling);

        // Step 17: store the result for later visits and other threads.
        if excluded.is_none() {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if N::PV && best_move.is_some() {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                ply,
                Store {
                    mv: best_move.map_or(0, G::move_key),
                    score: best_score,
                    eval: eval.unwrap_or(0),
                    depth,
                    bound,
                },
            );
        }
        best_score
    }

    /// Step 6: static evaluation, refined by a stored bound when it is
    /// more precise; `None` in check. Also whether the side to move is
    /// improving on its evaluation two plies ago (the prunings trust an
    /// improving position less).
    fn node_eval(
        &mut self,
        pos: &G,
        entry: Option<&Entry>,
        in_check: bool,
        ply: usize,
    ) -> (Option<Score>, bool) {
        let eval = if in_check {
            None
        } else {
            let raw = match entry {
                Some(e) => e.eval,
                None => self.static_eval(pos),
            };
            Some(match entry {
                Some(e) if e.bound == Bound::Lower && e.score > raw && !is_mate(e.score) => e.score,
                Some(e) if e.bound == Bound::Upper && e.score < raw && !is_mate(e.score) => e.score,
                _ => raw,
            })
        };
        self.frames[ply].eval = eval;
        let improving = match (eval, ply.checked_sub(2).and_then(|p| self.frames[p].eval)) {
            (Some(now), Some(before)) => now > before,
            (Some(_), None) => true,
            _ => false,
        };
        (eval, improving)
    }

    /// Steps 7 to 8b, tried before any move at a non-PV node that is not
    /// in check: the score to return when the node can be cut at once.
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
        &mut self,
        pos: &G,
        depth: i32,
        beta: Score,
        ply: usize,
        cut_node: bool,
        eval: Score,
        improving: bool,
    ) -> Option<Score> {
        let params = self.params;
        // Step 7: reverse futility pruning: so far above beta that a
        // quiet move will not bring the opponent back. Chess only: in
        // draughts a position far above beta still falls to a shot that
        // the static evaluation cannot see (without it Crown avoids 7 of 8
        // moves that lost games against Scan 2.0; docs/strength.md).
        let margin = params.rfp_margin * (depth - i32::from(improving));
        if !G::FORCED_CAPTURES
            && params.on(Step::ReverseFutility)
            && depth <= params.rfp_depth
            && eval - margin >= beta
            && !is_mate(beta)
        {
            return Some((eval + beta) / 2);
        }

        // Step 8: null move pruning: if passing still fails high, a real
        // move will too (unsound in zugzwang, hence `null_move_safe`,
        // and the verification below).
        let after_null = ply > 0 && self.frames[ply - 1].null;
        if G::NULL_MOVE
            && params.on(Step::NullMove)
            && depth >= 3
            && eval >= beta
            && !after_null
            && ply >= self.nmp_min_ply
            && pos.null_move_safe()
        {
            let reduction = params.nmp_base
                + depth / params.nmp_divisor
                + ((eval - beta) / params.nmp_eval_divisor).min(3);
            let mut child = pos.clone();
            child.play_null();
            self.keys.push(child.hash());
            self.frames[ply].null = true;
            self.frames[ply].played = None;
            let score = -self.search::<NonPv>(
                &child,
                depth - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                !cut_node,
            );
            self.frames[ply].null = false;
            self.leave();
            if self.stopped {
                return Some(DRAW);
            }
            if score >= beta {
                let score = if is_mate(score) { beta } else { score };
                // Step 8b: verification: where zugzwang is likely (little
                // material besides pawns) or the null search was deep
                // enough to hide one, the fail high must also hold in a
                // reduced search of the real moves, with no null move
                // for the next plies (as in Stockfish).
                let verify = params.on(Step::NullMoveVerification)
                    && self.nmp_min_ply == 0
                    && (depth >= params.nmp_verify_depth || pos.zugzwang_likely());
                if !verify {
                    return Some(score);
                }
                let verify_depth = depth - reduction;
                self.nmp_min_ply = ply + 1 + 3 * verify_depth.max(0) as usize / 4;
                let verified = self.search::<NonPv>(pos, verify_depth, beta - 1, beta, ply, false);
                self.nmp_min_ply = 0;
                if self.stopped {
                    return Some(DRAW);
                }
                if verified >= beta {
                    return Some(score);
                }
            }
        }
        None
    }

    /// Step 12: singular extension: when the stored move `mv` is much
    /// better than every other, it deserves a deeper look (`Ok(1)`); when
    /// several moves beat beta, the node is cut (multi-cut, `Err(score)`).
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        pos: &G,
        e: &Entry,
        mv: G::Move,
        depth: i32,
        beta: Score,
        ply: usize,
        cut_node: bool,
    ) -> Result<i32, Score> {
        let params = self.params;
        if !(params.on(Step::SingularExtension)
            && depth >= 8
            && ply > 0
            && e.bound == Bound::Lower
            && e.depth >= depth - 3
            && !is_mate(e.score))
        {
            return Ok(0);
        }
        let singular_beta = e.score - params.singular_margin * depth / 100;
        self.frames[ply].excluded = Some(mv);
        let score = self.search::<NonPv>(
            pos,
            (depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            cut_node,
        );
        self.frames[ply].excluded = None;
        if self.stopped {
            return Err(DRAW);
        }
        if score < singular_beta {
            Ok(1)
        } else if singular_beta >= beta {
            // Multi-cut: several moves beat beta.
            Err(singular_beta)
        } else {
            Ok(0)
        }
    }

    /// Steps 13 to 15: the search of one move's `child` (already entered),
    /// extended, reduced and re-searched as the steps say; the score is
    /// from this node's side.
    #[allow(clippy::too_many_arguments)]
    fn search_move<N: NodeKind>(
        &mut self,
        pos: &G,
        child: &G,
        mv: G::Move,
        order: i32,
        quiet: bool,
        searched: usize,
        mut extension: i32,
        node: MoveNode,
        cont: Continuation,
    ) -> Score {
        let params = self.params;
        let MoveNode { depth, alpha, beta, ply, cut_node, improving, single_reply } = node;
        // Step 13: check extension: a check is forcing, so its line is
        // short and worth resolving.
        let gives_check = child.in_check();
        if gives_check && params.on(Step::CheckExtension) {
            extension = extension.max(1);
        }
        // Step 13b: single-reply extension where captures are compulsory
        // (draughts): a forced move is no choice, so it should not cost
        // depth (bounded so forced sequences cannot run away). In chess
        // a single reply only happens in check, already extended.
        // Measured neutral in international draughts (135 games at
        // 20,000 nodes: -3 +/- 43 Elo); kept as the draughts setting.
        if G::FORCED_CAPTURES && single_reply && (ply as i32) < self.root_depth {
            extension = extension.max(1);
        }
        let new_depth = depth - 1 + extension;

        // Step 14: late move reductions: late quiet moves are searched
        // shallower first and only re-searched when they surprise.
        let mut score;
        if params.on(Step::LateMoveReductions)
            && depth >= 3
            && searched > 1 + usize::from(N::PV)
            && (quiet || is_bad_tactical(order))
        {
            let mut r = self.lmr[(depth as usize).min(63)][searched.min(63)] as i32;
            r += i32::from(!improving) + i32::from(cut_node);
            r -= i32::from(N::PV) + i32::from(gives_check);
            if quiet {
                r -= self.history.quiet_score(pos, mv, cont) / 16_384;
            }
            let reduced = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
            score = -self.search::<NonPv>(child, reduced, -alpha - 1, -alpha, ply + 1, true);
            if score > alpha && reduced < new_depth {
                score =
                    -self.search::<NonPv>(child, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
            }
        } else if !N::PV || searched > 1 {
            score = -self.search::<NonPv>(child, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
        } else {
            score = -INFINITE;
        }
        // Step 15: principal variation search: only the first move, or a
        // move that beat alpha with a null window, gets the full window.
        if N::PV && (searched == 1 || (score > alpha && score < beta)) {
            score = -self.search::<Pv>(child, new_depth, -beta, -alpha, ply + 1, false);
        }
        score
    }
}
