//! Accumulators (the hidden layer's pre-activations, one per perspective)
//! and the per-thread cache that updates them incrementally.
//!
//! # Why a cache and not a stack
//! The search is copy-make and calls the evaluator with a position only (no
//! move, no ply), so the evaluator cannot push and pop. Instead it keeps the
//! last few evaluated boards ([`Boards`]: 12 piece bitboards) beside their
//! accumulators ([`Cache`], [`SLOTS`] entries). For a new position it finds
//! the cached board nearest to it (fewest changed piece-squares, the XOR of
//! the 12 bitboards) and updates a copy of that accumulator by the
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

use crate::chess::{PieceKind, Position, Square};
use crate::eval::nnue::network::{feature, Network};
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

    /// Piece-squares that differ from `other` (removed plus added).
    #[inline]
    pub fn distance(&self, other: &Boards) -> u32 {
        self.0.iter().zip(&other.0).map(|(a, b)| (a ^ b).count_ones()).sum()
    }

    /// Pieces on the board.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|b| b.count_ones()).sum()
    }
}

/// The features of piece type `index` (`color * 6 + kind`) on the squares of
/// `bits`, seen from `perspective`, appended to `out`.
#[inline]
fn features(perspective: Side, index: usize, mut bits: u64, out: &mut Vec<usize>) {
    let color = Side::BOTH[index / 6];
    let kind = PieceKind::ALL[index % 6];
    while bits != 0 {
        let sq = Square::from_index(bits.trailing_zeros());
        out.push(feature(perspective, color, kind, sq));
        bits &= bits - 1;
    }
}

/// Rows per kernel call: removed and added features are applied in groups.
const GROUP: usize = 16;

/// `dst = src + rows(add) - rows(sub)` for one perspective, in groups of
/// [`GROUP`] rows (in place after the first group).
fn apply(net: &Network, dst: &mut [i16], src: &[i16], add: &[usize], sub: &[usize]) {
    let kernel = net.kernel();
    let mut first = true;
    let (mut a, mut s) = (add, sub);
    loop {
        let (na, ns) = (a.len().min(GROUP), s.len().min(GROUP - a.len().min(GROUP)));
        let mut rows_a: [&[i16]; GROUP] = [&[]; GROUP];
        let mut rows_s: [&[i16]; GROUP] = [&[]; GROUP];
        for (r, &f) in rows_a.iter_mut().zip(&a[..na]) {
            *r = net.row(f);
        }
        for (r, &f) in rows_s.iter_mut().zip(&s[..ns]) {
            *r = net.row(f);
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
        let mut added = Vec::with_capacity(32);
        let mut removed = Vec::with_capacity(32);
        for perspective in Side::BOTH {
            added.clear();
            removed.clear();
            for i in 0..12 {
                features(perspective, i, to.0[i] & !from.0[i], &mut added);
                features(perspective, i, from.0[i] & !to.0[i], &mut removed);
            }
            let lanes = perspective.index() * h..(perspective.index() + 1) * h;
            let src = match base {
                Some(b) => &b.values[lanes.clone()],
                None => net.bias(),
            };
            apply(net, &mut self.values[lanes], src, &added, &removed);
        }
    }

    /// The lanes of `perspective` (empty before the first refresh).
    #[inline]
    pub fn perspective(&self, side: Side) -> &[i16] {
        let h = self.values.len() / 2;
        &self.values[side.index() * h..(side.index() + 1) * h]
    }
}

#[derive(Clone, Debug, Default)]
struct Entry {
    boards: Boards,
    accumulator: Accumulator,
    /// Time of last use; 0: empty.
    used: u64,
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
#[derive(Clone, Debug)]
pub struct Cache {
    entries: Vec<Entry>,
    clock: u64,
    /// How evaluations were served.
    pub stats: Stats,
}

impl Default for Cache {
    fn default() -> Self {
        Cache { entries: vec![Entry::default(); SLOTS], clock: 0, stats: Stats::default() }
    }
}

impl Cache {
    /// Forgets every entry (a new network).
    pub fn clear(&mut self) {
        *self = Cache::default();
    }

    /// The accumulator of `boards`, from the cache, by update from its
    /// nearest entry, or refreshed.
    pub fn get(&mut self, net: &Network, boards: &Boards) -> &Accumulator {
        self.clock += 1;
        let (mut best, mut best_distance, mut oldest) = (usize::MAX, u32::MAX, 0);
        for (i, e) in self.entries.iter().enumerate() {
            if e.used != 0 {
                let d = e.boards.distance(boards);
                if d < best_distance {
                    (best, best_distance) = (i, d);
                }
            }
            if e.used < self.entries[oldest].used {
                oldest = i;
            }
        }
        if best_distance == 0 {
            self.stats.hits += 1;
            self.entries[best].used = self.clock;
            return &self.entries[best].accumulator;
        }
        if oldest == best {
            oldest = (best + 1) % self.entries.len();
        }
        if best != usize::MAX && best_distance <= boards.count() {
            self.stats.updates += 1;
            self.stats.changed += u64::from(best_distance);
            self.entries[best].used = self.clock;
            let (target, base) = if oldest < best {
                let (low, high) = self.entries.split_at_mut(best);
                (&mut low[oldest], &high[0])
            } else {
                let (low, high) = self.entries.split_at_mut(oldest);
                (&mut high[0], &low[best])
            };
            target.accumulator.update(net, &base.boards, Some(&base.accumulator), boards);
        } else {
            self.stats.refreshes += 1;
            self.entries[oldest].accumulator.refresh(net, boards);
        }
        let target = &mut self.entries[oldest];
        target.boards = *boards;
        target.used = self.clock;
        &target.accumulator
    }
}
