//! Accumulators (the hidden layer's pre-activations, one per perspective)
//! and the per-thread cache that updates them incrementally.
//!
//! # Why a cache and not a stack
//! The search is copy-make and calls the evaluator with a position only (no
//! move, no ply), so the evaluator cannot push and pop. Instead it keeps the
//! last few evaluated boards ([`Boards`]: 12 piece bitboards) beside their
//! accumulators ([`Cache`], [`SLOTS`] entries). For a new position it takes
//! the entry used last when that is at most one move away (the usual case:
//! a child or a sibling), otherwise the cached board nearest to it (fewest
//! changed piece-squares, the XOR of the 12 bitboards, counted by the SIMD
//! kernel), and updates a copy of that accumulator by the
//! difference: the features removed and added. A quiet move is 2 features,
//! a capture 3, castling 4; a sibling of the last node, or a node after a
//! few plies of another line, is a handful more. A full refresh happens
//! only when no cached board is closer than the piece count (a new game, a
//! jump after `position`), since then refreshing is cheaper. The network is
//! not king-bucketed, so no move forces a refresh.
//!
//! Replacement is least-recently-used, where both an exact hit and serving
//! as the base of an update count as a use: the path from the root to the
//! current node keeps being used by its children and stays cached, while
//! finished subtrees age out. The result never depends on which entry was
//! the base (integer updates are exact; tested against refreshes).

use crate::chess::{PieceKind, Position};
use crate::eval::nnue::network::Network;
use crate::game::Side;

/// Entries of the cache.
pub const SLOTS: usize = 16;

/// The 12 piece bitboards of a board, index `color * 6 + kind`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Boards(pub [u64; 12]);

impl Boards {
    /// The boards of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> Boards {
        let mut b = [0; 12];
        for color in Side::BOTH {
            for kind in PieceKind::ALL {
                b[color.index() * 6 + kind.index()] = pos.pieces(color, kind).0;
            }
        }
        Boards(b)
    }

    /// Pieces on the board.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|b| b.count_ones()).sum()
    }
}

/// Changed piece-squares on the stack, each as `piece * 64 + square`
/// (`piece = color * 6 + kind`): an update runs at almost every node, so it
/// must not allocate, and the changes are found once for both
/// perspectives. Capacity 64 always suffices: the pieces added are pieces
/// of one board and those removed pieces of another, each at most one per
/// square.
struct Changes {
    items: [u16; 64],
    len: usize,
}

impl Changes {
    fn new() -> Changes {
        Changes { items: [0; 64], len: 0 }
    }

    fn as_slice(&self) -> &[u16] {
        &self.items[..self.len]
    }

    /// Appends piece `piece` (`color * 6 + kind`) on the squares of `bits`.
    #[inline]
    fn push(&mut self, piece: usize, mut bits: u64) {
        while bits != 0 {
            self.items[self.len] = (piece * 64) as u16 + bits.trailing_zeros() as u16;
            self.len += 1;
            bits &= bits - 1;
        }
    }
}

/// The feature of a change (`piece * 64 + square`) seen from
/// `perspective`: [`feature`](crate::eval::nnue::network::feature) without
/// unpacking. From White's side the code
/// is the feature; from Black's the square flips vertically (`^ 56`) and
/// the colours swap (`+ 384`, modulo the 768 inputs).
#[inline]
fn feature_of(perspective: Side, change: u16) -> usize {
    let change = usize::from(change);
    match perspective {
        Side::White => change,
        Side::Black => ((change ^ 56) + 384) % 768,
    }
}

/// Rows per kernel call: removed and added features are applied in groups.
const GROUP: usize = 16;

/// `dst = src + rows(add) - rows(sub)` for one perspective, in groups of
/// [`GROUP`] rows (in place after the first group).
fn apply(net: &Network, perspective: Side, dst: &mut [i16], src: &[i16], add: &[u16], sub: &[u16]) {
    let kernel = net.kernel();
    let mut first = true;
    let (mut a, mut s) = (add, sub);
    loop {
        let (na, ns) = (a.len().min(GROUP), s.len().min(GROUP - a.len().min(GROUP)));
        let mut rows_a: [&[i16]; GROUP] = [&[]; GROUP];
        let mut rows_s: [&[i16]; GROUP] = [&[]; GROUP];
        for (r, &c) in rows_a.iter_mut().zip(&a[..na]) {
            *r = net.row(feature_of(perspective, c));
        }
        for (r, &c) in rows_s.iter_mut().zip(&s[..ns]) {
            *r = net.row(feature_of(perspective, c));
        }
        kernel.update(dst, if first { Some(src) } else { None }, &rows_a[..na], &rows_s[..ns]);
        first = false;
        a = &a[na..];
        s = &s[ns..];
        if a.is_empty() && s.is_empty() {
            return;
        }
    }
}

/// The hidden layer's pre-activations from both perspectives: White's H
/// lanes, then Black's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    values: Vec<i16>,
}

impl Accumulator {
    /// The accumulator of `boards`, computed from scratch.
    pub fn refresh(&mut self, net: &Network, boards: &Boards) {
        self.update(net, &Boards::default(), None, boards);
    }

    /// This accumulator for `to`, from `base` (the accumulator of `from`;
    /// `None`: the empty board, i.e. the bias).
    pub fn update(
        &mut self,
        net: &Network,
        from: &Boards,
        base: Option<&Accumulator>,
        to: &Boards,
    ) {
        let h = net.hidden();
        self.values.resize(2 * h, 0);
        let empty = Boards::default();
        let (from, base) = match base {
            Some(b) if b.values.len() == 2 * h => (from, Some(b)),
            _ => (&empty, None),
        };
        let (mut added, mut removed) = (Changes::new(), Changes::new());
        for i in 0..12 {
            added.push(i, to.0[i] & !from.0[i]);
            removed.push(i, from.0[i] & !to.0[i]);
        }
        for perspective in Side::BOTH {
            let lanes = perspective.index() * h..(perspective.index() + 1) * h;
            let src = match base {
                Some(b) => &b.values[lanes.clone()],
                None => net.bias(),
            };
            let dst = &mut self.values[lanes];
            apply(net, perspective, dst, src, added.as_slice(), removed.as_slice());
        }
    }

    /// The lanes of `perspective` (empty before the first refresh).
    #[inline]
    pub fn perspective(&self, side: Side) -> &[i16] {
        let h = self.values.len() / 2;
        &self.values[side.index() * h..(side.index() + 1) * h]
    }
}

/// Counters of how the cache served evaluations (for measurement).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Exact hits.
    pub hits: u64,
    /// Incremental updates.
    pub updates: u64,
    /// Feature rows changed by updates, summed.
    pub changed: u64,
    /// Refreshes from scratch.
    pub refreshes: u64,
}

/// The last [`SLOTS`] boards and their accumulators (see the module header).
/// Entry `i` is `boards[i]`, `accumulators[i]`, `used[i]`; an entry never
/// used has the empty board and an empty accumulator, which an update treats
/// as the bias (a refresh), so empty entries need no special case.
#[derive(Clone, Debug)]
pub struct Cache {
    boards: [[u64; 12]; SLOTS],
    accumulators: Vec<Accumulator>,
    /// Time of last use per entry; 0: never used.
    used: [u64; SLOTS],
    /// The entry used last: tried first, since most evaluations are of a
    /// child or sibling of the node evaluated just before.
    last: usize,
    clock: u64,
    /// How evaluations were served.
    pub stats: Stats,
}

/// Piece-squares within which the last entry is taken without a search of
/// the others: one move changes at most 4 (castling).
const NEAR: u32 = 4;

impl Default for Cache {
    fn default() -> Self {
        Cache {
            boards: [[0; 12]; SLOTS],
            accumulators: vec![Accumulator::default(); SLOTS],
            used: [0; SLOTS],
            last: 0,
            clock: 0,
            stats: Stats::default(),
        }
    }
}

impl Cache {
    /// Forgets every entry (a new network).
    pub fn clear(&mut self) {
        *self = Cache::default();
    }

    /// The accumulator of `boards`, from the cache, by update from its
    /// nearest entry (or the last one, when it is one move away), or
    /// refreshed.
    pub fn get(&mut self, net: &Network, boards: &Boards) -> &Accumulator {
        self.clock += 1;
        let target = &boards.0;
        let kernel = net.kernel();
        let (_, last) = kernel.nearest(std::slice::from_ref(&self.boards[self.last]), target);
        let (best, distance) = if self.used[self.last] != 0 && last <= NEAR {
            (self.last, last)
        } else {
            kernel.nearest(&self.boards, target)
        };
        self.last = best;
        self.used[best] = self.clock;
        if distance == 0 {
            self.stats.hits += 1;
            return &self.accumulators[best];
        }
        // The least recently used entry other than `best` takes the result.
        let oldest = (0..SLOTS)
            .filter(|&i| i != best)
            .min_by_key(|&i| self.used[i])
            .expect("more than one slot");
        if distance <= boards.count() {
            self.stats.updates += 1;
            self.stats.changed += u64::from(distance);
            let (target, base) = if oldest < best {
                let (low, high) = self.accumulators.split_at_mut(best);
                (&mut low[oldest], &high[0])
            } else {
                let (low, high) = self.accumulators.split_at_mut(oldest);
                (&mut high[0], &low[best])
            };
            target.update(net, &Boards(self.boards[best]), Some(base), boards);
        } else {
            self.stats.refreshes += 1;
            self.accumulators[oldest].refresh(net, boards);
        }
        self.boards[oldest] = boards.0;
        self.used[oldest] = self.clock;
        self.last = oldest;
        &self.accumulators[oldest]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::Square;
    use crate::eval::nnue::network::feature;

    #[test]
    fn a_change_maps_to_the_feature_of_its_piece_and_square() {
        for perspective in Side::BOTH {
            for piece in 0..12 {
                for sq in 0..64u32 {
                    let mut changes = Changes::new();
                    changes.push(piece, 1 << sq);
                    let expected = feature(
                        perspective,
                        Side::BOTH[piece / 6],
                        PieceKind::ALL[piece % 6],
                        Square::from_index(sq),
                    );
                    assert_eq!(feature_of(perspective, changes.as_slice()[0]), expected);
                }
            }
        }
    }
}
