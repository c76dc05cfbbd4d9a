//! Indexing: the positions of one material signature numbered `0..size`,
//! and back.
//!
//! A [`Signature`] is (white men, white kings, black men, black kings). Its
//! positions are numbered in mixed radix, least significant first:
//!
//! | digit | range | meaning |
//! |---|---|---|
//! | side | 2 | 0 white to move, 1 black to move |
//! | white men | C(n, wm) | colex rank of their squares among the `n` squares off white's crown row |
//! | black men | C(n, bm) | colex rank among the `n` squares off black's crown row |
//! | white kings | C(S - m, wk) | colex rank among the squares the men leave free |
//! | black kings | C(S - m - wk, bk) | colex rank among the squares still free |
//!
//! `S` is the number of playable squares, `n = S - S / SIDE` (a man never
//! stands on its own crown row: it was crowned there), `m = wm + bm`. Squares
//! are the layout's internal indices (0..S, see `draughts/geometry.rs`).
//! Invariant: every legal position of the signature has exactly one index;
//! the only indices without a position are those where a white and a black
//! man would share a square ([`Indexer::decode`] answers `None`), a few
//! percent of the table.

use crate::draughts::geometry::{Bitboard, Geometry};
use crate::draughts::rules::Rules;
use crate::draughts::Position;
use crate::game::Side;
use std::fmt;
use std::marker::PhantomData;

/// Most pieces of one kind a signature may hold (the binomial table's width).
pub const MAX_GROUP: usize = 8;

/// `BINOMIAL[n][k]` = n choose k, for n <= 64 and k <= MAX_GROUP.
const BINOMIAL: [[u64; MAX_GROUP + 1]; 65] = {
    let mut t = [[0u64; MAX_GROUP + 1]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_GROUP {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// n choose k (0 when k > n).
#[inline]
fn choose(n: usize, k: usize) -> u64 {
    BINOMIAL[n][k]
}

/// The material of a position: how many men and kings each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// White men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
}

impl Signature {
    /// A signature from its four counts.
    pub const fn new(white_men: u8, white_kings: u8, black_men: u8, black_kings: u8) -> Self {
        Signature { white_men, white_kings, black_men, black_kings }
    }

    /// The signature of a position.
    pub fn of<R: Rules>(pos: &Position<R>) -> Self {
        let kings = pos.kings();
        let count = |b: Bitboard| b.count_ones() as u8;
        Signature {
            white_men: count(pos.white() & !kings),
            white_kings: count(pos.white() & kings),
            black_men: count(pos.black() & !kings),
            black_kings: count(pos.black() & kings),
        }
    }

    /// Pieces on the board.
    pub const fn pieces(self) -> usize {
        (self.white_men + self.white_kings + self.black_men + self.black_kings) as usize
    }

    /// Men on the board (both sides).
    pub const fn men(self) -> usize {
        (self.white_men + self.black_men) as usize
    }

    /// Pieces of `side`.
    pub const fn side_pieces(self, side: Side) -> usize {
        match side {
            Side::White => (self.white_men + self.white_kings) as usize,
            Side::Black => (self.black_men + self.black_kings) as usize,
        }
    }

    /// Every signature with 2..=`pieces` pieces and at least one piece a
    /// side, in build order: by pieces, then by men (a promotion keeps the
    /// piece count and removes a man, a capture removes pieces, so every
    /// signature a move can lead to comes earlier).
    pub fn all_up_to(pieces: usize) -> Vec<Signature> {
        let mut all = Vec::new();
        let top = pieces.min(2 * MAX_GROUP) as u8;
        for n in 2..=top {
            for men in 0..=n {
                for wm in 0..=men {
                    let bm = men - wm;
                    for wk in 0..=(n - men) {
                        let bk = n - men - wk;
                        let sig = Signature::new(wm, wk, bm, bk);
                        let groups_fit = [wm, wk, bm, bk].iter().all(|&g| g as usize <= MAX_GROUP);
                        if wm + wk > 0 && bm + bk > 0 && groups_fit {
                            all.push(sig);
                        }
                    }
                }
            }
        }
        all
    }

    /// File-name form, e.g. `1m1k-0m1k` (white first).
    pub fn name(self) -> String {
        format!("{}m{}k-{}m{}k", self.white_men, self.white_kings, self.black_men, self.black_kings)
    }

    /// Reads the [`Signature::name`] form back.
    pub fn parse(text: &str) -> Option<Signature> {
        let (white, black) = text.split_once('-')?;
        let side = |t: &str| -> Option<(u8, u8)> {
            let (men, kings) = t.strip_suffix('k')?.split_once('m')?;
            Some((men.parse().ok()?, kings.parse().ok()?))
        };
        let (wm, wk) = side(white)?;
        let (bm, bk) = side(black)?;
        let sig = Signature::new(wm, wk, bm, bk);
        let fits = [wm, wk, bm, bk].iter().all(|&g| g as usize <= MAX_GROUP);
        (fits && sig.name() == text).then_some(sig)
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The four piece sets and the side to move, as bitboards of the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// White pieces.
    pub white: Bitboard,
    /// Black pieces.
    pub black: Bitboard,
    /// Kings of both sides.
    pub kings: Bitboard,
    /// Side to move.
    pub side: Side,
}

impl Placement {
    /// The placement of a position.
    pub fn of<R: Rules>(pos: &Position<R>) -> Self {
        Placement { white: pos.white(), black: pos.black(), kings: pos.kings(), side: pos.side() }
    }

    /// The position (draw counters at zero).
    pub fn position<R: Rules>(self) -> Position<R> {
        Position::from_parts(self.white, self.black, self.kings, self.side)
    }
}

/// Numbers the positions of one signature under the rules `R`.
#[derive(Clone, Copy, Debug)]
pub struct Indexer<R: Rules> {
    signature: Signature,
    /// Radix of each digit: white men, black men, white kings, black kings.
    radix: [u64; 4],
    size: u64,
    rules: PhantomData<R>,
}

/// Colex rank of the set `values` (a mask over 0..64): sum of C(c_j, j).
#[inline]
fn rank_set(mut values: u64) -> u64 {
    let mut rank = 0;
    let mut j = 1;
    while values != 0 {
        rank += choose(values.trailing_zeros() as usize, j);
        values &= values - 1;
        j += 1;
    }
    rank
}

/// The set of `k` values below `n` with colex rank `rank`.
fn unrank_set(mut rank: u64, k: usize, n: usize) -> u64 {
    let mut set = 0u64;
    let mut top = n;
    for j in (1..=k).rev() {
        let mut c = top - 1;
        while choose(c, j) > rank {
            c -= 1;
        }
        rank -= choose(c, j);
        set |= 1 << c;
        top = c;
    }
    set
}

/// Maps each square of `set` to its rank among the squares not in `taken`.
#[inline]
fn compress(set: u64, taken: u64) -> u64 {
    let mut out = 0;
    let mut b = set;
    while b != 0 {
        let s = b.trailing_zeros();
        let below = if s == 0 { 0 } else { taken & (u64::MAX >> (64 - s)) };
        out |= 1 << (s - below.count_ones());
        b &= b - 1;
    }
    out
}

/// Inverse of [`compress`]: the `r`-th square not in `taken` for each `r`.
fn expand(ranks: u64, taken: u64) -> u64 {
    let mut out = 0;
    let mut free_rank = 0;
    let mut r = ranks;
    for s in 0..64u32 {
        if r == 0 {
            break;
        }
        if taken & (1 << s) != 0 {
            continue;
        }
        if r & (1 << free_rank) != 0 {
            out |= 1 << s;
            r &= !(1 << free_rank);
        }
        free_rank += 1;
    }
    out
}

impl<R: Rules> Indexer<R> {
    const SQUARES: usize = <R::Board as Geometry>::SQUARES;
    /// Squares a man may stand on (all but one row).
    const MAN_SQUARES: usize = Self::SQUARES - Self::SQUARES / <R::Board as Geometry>::SIDE;
    /// Squares per row: white men's internal indices start here.
    const ROW: usize = Self::SQUARES / <R::Board as Geometry>::SIDE;

    /// The indexer of `signature`.
    pub fn new(signature: Signature) -> Self {
        let s = signature;
        let men = s.men();
        let radix = [
            choose(Self::MAN_SQUARES, s.white_men as usize),
            choose(Self::MAN_SQUARES, s.black_men as usize),
            choose(Self::SQUARES.saturating_sub(men), s.white_kings as usize),
            choose(
                Self::SQUARES.saturating_sub(men + s.white_kings as usize),
                s.black_kings as usize,
            ),
        ];
        let size = 2 * radix.iter().product::<u64>();
        Indexer { signature, radix, size, rules: PhantomData }
    }

    /// The signature.
    pub fn signature(&self) -> Signature {
        self.signature
    }

    /// Number of indices (both sides to move).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// Bitboard → mask of internal square indices.
    #[inline]
    fn to_indices(b: Bitboard) -> u64 {
        let mut out = 0;
        let mut r = b;
        while r != 0 {
            out |= 1 << <R::Board as Geometry>::INDEX[r.trailing_zeros() as usize];
            r &= r - 1;
        }
        out
    }

    /// Mask of internal square indices → bitboard.
    #[inline]
    fn to_bits(indices: u64) -> Bitboard {
        let mut out = 0;
        let mut r = indices;
        while r != 0 {
            out |= 1 << <R::Board as Geometry>::BIT[r.trailing_zeros() as usize];
            r &= r - 1;
        }
        out
    }

    /// The index of a placement of this signature (the caller guarantees
    /// the material matches and that men stand off their crown rows).
    #[inline]
    pub fn encode(&self, p: &Placement) -> u64 {
        let wm = Self::to_indices(p.white & !p.kings);
        let bm = Self::to_indices(p.black & !p.kings);
        let wk = Self::to_indices(p.white & p.kings);
        let bk = Self::to_indices(p.black & p.kings);
        let men = wm | bm;
        let digits = [
            rank_set(wm >> Self::ROW),
            rank_set(bm),
            rank_set(compress(wk, men)),
            rank_set(compress(bk, men | wk)),
        ];
        let mut index = 0;
        for d in (0..4).rev() {
            index = index * self.radix[d] + digits[d];
        }
        2 * index + u64::from(p.side == Side::Black)
    }

    /// The placement with index `index`, or `None` when two men would share
    /// a square (or the index is out of range).
    pub fn decode(&self, index: u64) -> Option<Placement> {
        if index >= self.size {
            return None;
        }
        let s = self.signature;
        let side = if index & 1 == 0 { Side::White } else { Side::Black };
        let mut rest = index / 2;
        let mut digits = [0u64; 4];
        for (d, digit) in digits.iter_mut().enumerate() {
            *digit = rest % self.radix[d];
            rest /= self.radix[d];
        }
        let wm = unrank_set(digits[0], s.white_men as usize, Self::MAN_SQUARES) << Self::ROW;
        let bm = unrank_set(digits[1], s.black_men as usize, Self::MAN_SQUARES);
        if wm & bm != 0 {
            return None;
        }
        let men = wm | bm;
        let free = Self::SQUARES - s.men();
        let wk = expand(unrank_set(digits[2], s.white_kings as usize, free), men);
        let bk = expand(
            unrank_set(digits[3], s.black_kings as usize, free - s.white_kings as usize),
            men | wk,
        );
        Some(Placement {
            white: Self::to_bits(wm | wk),
            black: Self::to_bits(bm | bk),
            kings: Self::to_bits(wk | bk),
            side,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{InternationalRules, TurkishRules};

    fn round_trip<R: Rules>(sig: Signature) -> u64 {
        let ix = Indexer::<R>::new(sig);
        let mut valid = 0;
        for i in 0..ix.size() {
            if let Some(p) = ix.decode(i) {
                valid += 1;
                assert_eq!(ix.encode(&p), i, "{sig} {i}");
                let pos = p.position::<R>();
                assert_eq!(Signature::of(&pos), sig);
                let men = pos.kings() ^ (pos.white() | pos.black());
                assert_eq!(men & pos.white() & <R::Board as Geometry>::WHITE_CROWN, 0);
                assert_eq!(men & pos.black() & <R::Board as Geometry>::BLACK_CROWN, 0);
            }
        }
        valid
    }

    #[test]
    fn every_index_round_trips() {
        // 1 white man v 1 black man on 10x10: 45 * 45 minus the 40 shared
        // squares, both sides to move.
        assert_eq!(
            round_trip::<InternationalRules>(Signature::new(1, 0, 1, 0)),
            2 * (45 * 45 - 40)
        );
        // Two kings v one king: C(50,2) * 48.
        assert_eq!(round_trip::<InternationalRules>(Signature::new(0, 2, 0, 1)), 2 * 1225 * 48);
        round_trip::<InternationalRules>(Signature::new(1, 1, 1, 0));
        round_trip::<TurkishRules>(Signature::new(1, 0, 0, 2));
    }

    #[test]
    fn names_and_order() {
        let sig = Signature::new(2, 1, 0, 1);
        assert_eq!(sig.name(), "2m1k-0m1k");
        assert_eq!(Signature::parse("2m1k-0m1k"), Some(sig));
        assert_eq!(Signature::parse("2m1k-0m1"), None);
        assert_eq!(Signature::parse("02m1k-0m1k"), None);
        assert_eq!(Signature::parse("99m1k-0m1k"), None);
        let all = Signature::all_up_to(3);
        assert_eq!(all.len(), 4 + 12);
        assert!(all.windows(2).all(|w| (w[0].pieces(), w[0].men()) <= (w[1].pieces(), w[1].men())));
    }
}
