//! Move generation: capture trees with the variant's precedence rule, quiet
//! moves, and the bulk counts perft uses at its last ply.
//!
//! Everything is generic over `R: Rules` and over the side to move (a const
//! `WHITE` parameter), so the per-node code is monomorphised with the rules
//! and the direction sets as constants.
//!
//! * Capture existence is a pure bitboard test (men: a neighbour in the
//!   direction is an opponent and the square beyond is empty; flying kings:
//!   the same test from every square a king can slide to).
//! * Capture trees are a depth-first search per piece over the board with the
//!   mover lifted off. Captured pieces stay on the board until the move ends
//!   (they block and cannot be jumped twice) unless `R::REMOVE_AT_ONCE`. Only
//!   finished sequences are moves; with a precedence rule, a better score
//!   clears the list. A move equal to one already listed (same from, to,
//!   captured set: another route) is not added again.
//! * Without a capture, quiet moves are counted by popcount over shifted
//!   bitboards (men) and sliding fills (kings), without building moves.

use super::geometry::{opposite, step, Bitboard, Geometry, Square, NO_DIR};
use super::position::{Move, MoveList, Position};
use super::rules::{Precedence, Rules};
use crate::game::Side;

/// Directions kings capture in: the four diagonals, and in Frisian the
/// four orthogonal directions too.
#[inline(always)]
fn king_capture_dirs<R: Rules>() -> &'static [usize] {
    if R::ORTHOGONAL_CAPTURES {
        &[0, 1, 2, 3, 4, 5, 6, 7]
    } else {
        &[0, 1, 2, 3]
    }
}

/// Directions men of the side capture in.
#[inline(always)]
fn man_capture_dirs<R: Rules, const WHITE: bool>() -> &'static [usize] {
    if R::ORTHOGONAL_CAPTURES {
        &[0, 1, 2, 3, 4, 5, 6, 7]
    } else if R::MEN_CAPTURE_BACKWARDS {
        &[0, 1, 2, 3]
    } else {
        man_steps::<R, WHITE>()
    }
}

/// Directions men of the side move in.
#[inline(always)]
fn man_steps<R: Rules, const WHITE: bool>() -> &'static [usize] {
    if WHITE {
        <R::Board as Geometry>::WHITE_MAN_STEPS
    } else {
        <R::Board as Geometry>::BLACK_MAN_STEPS
    }
}

/// The crown row of the side.
#[inline(always)]
fn crown<R: Rules, const WHITE: bool>() -> Bitboard {
    if WHITE {
        <R::Board as Geometry>::WHITE_CROWN
    } else {
        <R::Board as Geometry>::BLACK_CROWN
    }
}

/// Where a capture search puts its moves: a move list, or a counter.
trait Sink {
    /// Forgets every move (a better capture was found).
    fn reset(&mut self);
    /// Adds a move; `unique` when no other route can produce it (fewer than
    /// three pieces captured), so no duplicate check is needed.
    fn add(&mut self, mv: Move, unique: bool);
}

impl Sink for MoveList {
    #[inline(always)]
    fn reset(&mut self) {
        self.clear();
    }
    #[inline(always)]
    fn add(&mut self, mv: Move, unique: bool) {
        if unique || !self.contains(&mv) {
            self.push(mv);
        }
    }
}

/// Counts captures; keeps only those that another route could repeat.
#[derive(Default)]
struct Counter {
    count: u64,
    long: Vec<Move>,
}

impl Sink for Counter {
    #[inline(always)]
    fn reset(&mut self) {
        self.count = 0;
        self.long.clear();
    }
    #[inline(always)]
    fn add(&mut self, mv: Move, unique: bool) {
        if unique {
            self.count += 1;
        } else if !self.long.contains(&mv) {
            self.long.push(mv);
            self.count += 1;
        }
    }
}

/// Keeps only the largest number of pieces a listed capture takes: a
/// reset forgets it with the moves it came from (in Frisian a better
/// capture can take fewer pieces).
#[derive(Default)]
struct Most {
    pieces: u32,
}

impl Sink for Most {
    #[inline(always)]
    fn reset(&mut self) {
        self.pieces = 0;
    }
    #[inline(always)]
    fn add(&mut self, mv: Move, _unique: bool) {
        self.pieces = self.pieces.max(mv.captured.count_ones());
    }
}

/// The state of one capture search (one side, one position).
///
/// Two routes reaching the same square with the same captured set need at
/// least three captured pieces (with one or two, the order of the jumps is
/// fixed by the geometry), so shorter captures skip the duplicate check.
struct Captures<'a, R: Rules, S: Sink> {
    list: &'a mut S,
    best: u32,
    from: Square,
    from_king: bool,
    /// Empty squares, the mover's start square included.
    empty: Bitboard,
    opp: Bitboard,
    opp_kings: Bitboard,
    crown: Bitboard,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules, S: Sink> Captures<'_, R, S> {
    #[inline(always)]
    fn empty_now(&self, caps: Bitboard) -> Bitboard {
        if R::REMOVE_AT_ONCE {
            self.empty | caps
        } else {
            self.empty
        }
    }

    /// Italian order bits: the i-th captured piece sets bit 15 - i when it
    /// is a king, so an earlier king gives a larger number.
    #[inline(always)]
    fn order(&self, order: u32, caps: Bitboard, piece: Bitboard) -> u32 {
        if R::PRECEDENCE == Precedence::Italian && piece & self.opp_kings != 0 {
            order | (1 << (15 - caps.count_ones().min(15)))
        } else {
            order
        }
    }

    fn add(&mut self, to: Bitboard, caps: Bitboard, order: u32, promotes: bool) {
        let count = caps.count_ones();
        let score = match R::PRECEDENCE {
            Precedence::Free => 0,
            Precedence::MaxCount => count,
            Precedence::Frisian => {
                let kings = (caps & self.opp_kings).count_ones();
                64 * (count - kings) + 126 * kings + u32::from(self.from_king)
            }
            Precedence::Italian => {
                (count << 21)
                    | (u32::from(self.from_king) << 20)
                    | ((caps & self.opp_kings).count_ones() << 16)
                    | order
            }
        };
        if score < self.best {
            return;
        }
        if score > self.best {
            self.list.reset();
            self.best = score;
        }
        let mv =
            Move { captured: caps, from: self.from, to: to.trailing_zeros() as Square, promotes };
        self.list.add(mv, count < 3);
    }

    fn man<const WHITE: bool>(&mut self, sq: Bitboard, caps: Bitboard, order: u32) {
        let empty = self.empty_now(caps);
        let targets =
            if R::MEN_CAPTURE_KINGS { self.opp } else { self.opp & !self.opp_kings } & !caps;
        let mut found = false;
        for &d in man_capture_dirs::<R, WHITE>() {
            let n = step::<R::Board>(sq, d);
            if n & targets == 0 {
                continue;
            }
            let land = step::<R::Board>(n, d);
            if land & empty == 0 {
                continue;
            }
            found = true;
            let next = self.order(order, caps, n);
            if R::PROMOTE_MID_CAPTURE && land & self.crown != 0 {
                self.king(land, caps | n, next, d, true, true, false);
            } else {
                self.man::<WHITE>(land, caps | n, next);
            }
        }
        if !found && caps != 0 {
            self.add(sq, caps, order, sq & self.crown != 0);
        }
    }

    /// Whether a king on `sq` that has captured `caps` (arriving in
    /// direction `last`) can capture once more.
    fn king_can_go_on(&self, sq: Bitboard, caps: Bitboard, last: usize, straight: bool) -> bool {
        let empty = self.empty_now(caps);
        let targets = self.opp & !caps;
        king_capture_dirs::<R>().iter().any(|&d| {
            if (R::REMOVE_AT_ONCE && d == opposite(last)) || (d == last && !straight) {
                return false;
            }
            let mut t = step::<R::Board>(sq, d);
            while t & empty != 0 {
                t = step::<R::Board>(t, d);
            }
            t & targets != 0 && step::<R::Board>(t, d) & empty != 0
        })
    }

    /// The capture tree of a king on `sq` that has captured `caps`, arriving
    /// in direction `last` (4: none yet). `straight` is false on every landing
    /// square but the first after a jump: going on in the same direction from
    /// a later square is the same capture as from the first one, so only the
    /// first square tries it (otherwise the routes would repeat each move).
    /// `behind_king`: the piece just captured was a king (the killer rule
    /// then ends the capture only on the first square behind it).
    #[allow(clippy::too_many_arguments)]
    fn king(
        &mut self,
        sq: Bitboard,
        caps: Bitboard,
        order: u32,
        last: usize,
        straight: bool,
        promoted: bool,
        behind_king: bool,
    ) {
        let empty = self.empty_now(caps);
        let targets = self.opp & !caps;
        let mut found = false;
        for &d in king_capture_dirs::<R>() {
            if (R::REMOVE_AT_ONCE && last < NO_DIR && d == opposite(last))
                || (d == last && !straight)
            {
                continue;
            }
            let mut t = step::<R::Board>(sq, d);
            if R::FLYING_KINGS {
                while t & empty != 0 {
                    t = step::<R::Board>(t, d);
                }
            }
            if t & targets == 0 {
                continue;
            }
            let next = self.order(order, caps, t);
            let took_king = R::HALT_BEHIND_KING && t & self.opp_kings != 0;
            let mut land = step::<R::Board>(t, d);
            if land & empty == 0 {
                continue;
            }
            found = true;
            if R::FLYING_KINGS && R::PRECEDENCE == Precedence::Free {
                // Free choice (Russian): the king must land where it can go
                // on capturing if some landing square allows it (FSR 4.10);
                // it may stop only when none does.
                let first = land;
                let mut goes_on = false;
                while land & empty != 0 {
                    if self.king_can_go_on(land, caps | t, d, land == first) {
                        goes_on = true;
                        self.king(land, caps | t, next, d, land == first, promoted, false);
                    }
                    land = step::<R::Board>(land, d);
                }
                if !goes_on {
                    land = first;
                    while land & empty != 0 {
                        self.add(land, caps | t, next, promoted);
                        land = step::<R::Board>(land, d);
                    }
                }
                continue;
            }
            let first = land;
            while land & empty != 0 {
                self.king(land, caps | t, next, d, land == first, promoted, took_king);
                if !R::FLYING_KINGS {
                    break;
                }
                land = step::<R::Board>(land, d);
            }
        }
        // Killer: a capture whose last piece is a king ends right behind it.
        if !found && caps != 0 && !(R::HALT_BEHIND_KING && behind_king && !straight) {
            self.add(sq, caps, order, promoted);
        }
    }
}

impl<R: Rules> Position<R> {
    #[inline(always)]
    fn split<const WHITE: bool>(&self) -> (Bitboard, Bitboard) {
        if WHITE {
            (self.white, self.black)
        } else {
            (self.black, self.white)
        }
    }

    #[inline(always)]
    fn empty(&self) -> Bitboard {
        !(self.white | self.black) & <R::Board as Geometry>::MASK
    }

    /// Breakthrough: the game is over (the side that just moved owns a king,
    /// so the side to move has no move).
    #[inline(always)]
    pub fn king_has_won(&self) -> bool {
        R::KING_WINS
            && self.kings
                & match self.side {
                    Side::White => self.black,
                    Side::Black => self.white,
                }
                != 0
    }

    /// The most pieces a legal capture of the side to move takes (0 when
    /// it has none): what [`Position::generate_captures`] would list,
    /// without building the list.
    pub fn most_captured(&self) -> u32 {
        let mut most = Most::default();
        if !self.king_has_won() {
            match self.side {
                Side::White => self.captures_for::<true, _>(&mut most),
                Side::Black => self.captures_for::<false, _>(&mut most),
            }
        }
        most.pieces
    }

    /// Whether the side to move has a capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        if self.king_has_won() {
            return false;
        }
        match self.side {
            Side::White => self.has_capture_for::<true>(),
            Side::Black => self.has_capture_for::<false>(),
        }
    }

    /// The men of the side that can capture (bitboard test).
    #[inline(always)]
    fn man_jumpers<const WHITE: bool>(&self) -> Bitboard {
        let (own, opp) = self.split::<WHITE>();
        let empty = self.empty();
        let men = own & !self.kings;
        let targets = if R::MEN_CAPTURE_KINGS { opp } else { opp & !self.kings };
        let mut jumpers = 0;
        for &d in man_capture_dirs::<R, WHITE>() {
            let back = opposite(d);
            jumpers |= step::<R::Board>(targets & step::<R::Board>(empty, back), back);
        }
        men & jumpers
    }

    /// Whether a king of the side can capture (bitboard test).
    #[inline(always)]
    fn king_can_capture<const WHITE: bool>(&self) -> bool {
        let (own, opp) = self.split::<WHITE>();
        let kings = own & self.kings;
        if kings == 0 {
            return false;
        }
        let empty = self.empty();
        for &d in king_capture_dirs::<R>() {
            let mut reach = kings;
            if R::FLYING_KINGS {
                let mut r = kings;
                loop {
                    r = step::<R::Board>(r, d) & empty;
                    if r == 0 {
                        break;
                    }
                    reach |= r;
                }
            }
            if step::<R::Board>(step::<R::Board>(reach, d) & opp, d) & empty != 0 {
                return true;
            }
        }
        false
    }

    #[inline(always)]
    fn has_capture_for<const WHITE: bool>(&self) -> bool {
        self.man_jumpers::<WHITE>() != 0 || self.king_can_capture::<WHITE>()
    }

    /// Writes the compulsory captures of the side to move (none if there is
    /// no capture).
    pub fn generate_captures(&self, list: &mut MoveList) {
        list.clear();
        if self.king_has_won() {
            return;
        }
        match self.side {
            Side::White => self.captures_for::<true, _>(list),
            Side::Black => self.captures_for::<false, _>(list),
        }
    }

    fn captures_for<const WHITE: bool, S: Sink>(&self, list: &mut S) {
        let (own, opp) = self.split::<WHITE>();
        let mut gen = Captures::<R, S> {
            list,
            best: 0,
            from: 0,
            from_king: false,
            empty: 0,
            opp,
            opp_kings: opp & self.kings,
            crown: crown::<R, WHITE>(),
            rules: std::marker::PhantomData,
        };
        let empty = self.empty();
        let mut pieces = (own & self.kings) | self.man_jumpers::<WHITE>();
        while pieces != 0 {
            let sq = pieces & pieces.wrapping_neg();
            pieces ^= sq;
            gen.from = sq.trailing_zeros() as Square;
            gen.empty = empty | sq;
            if self.kings & sq != 0 {
                gen.from_king = true;
                gen.king(sq, 0, 0, NO_DIR, true, false, false);
            } else {
                gen.from_king = false;
                gen.man::<WHITE>(sq, 0, 0);
            }
        }
    }

    /// Writes every legal move of the side to move.
    #[inline]
    pub fn generate_moves(&self, list: &mut MoveList) {
        if self.has_capture() {
            self.generate_captures(list);
        } else {
            list.clear();
            if self.king_has_won() {
                return;
            }
            match self.side {
                Side::White => self.quiet_for::<true>(list),
                Side::Black => self.quiet_for::<false>(list),
            }
        }
    }

    fn quiet_for<const WHITE: bool>(&self, list: &mut MoveList) {
        let (own, _) = self.split::<WHITE>();
        let empty = self.empty();
        let men = own & !self.kings;
        let crown = crown::<R, WHITE>();
        for &d in man_steps::<R, WHITE>() {
            let mut t = step::<R::Board>(men, d) & empty;
            while t != 0 {
                let to = t.trailing_zeros() as i32;
                let from = to - <R::Board as Geometry>::SHIFT[d];
                list.push(Move {
                    captured: 0,
                    from: from as Square,
                    to: to as Square,
                    promotes: (1u64 << to) & crown != 0,
                });
                t &= t - 1;
            }
        }
        let mut kings = own & self.kings & !self.blocked_king(self.side);
        while kings != 0 {
            let k = kings & kings.wrapping_neg();
            kings ^= k;
            let from = k.trailing_zeros() as Square;
            for d in 0..4 {
                let mut t = step::<R::Board>(k, d) & empty;
                while t != 0 {
                    list.push(Move {
                        captured: 0,
                        from,
                        to: t.trailing_zeros() as Square,
                        promotes: false,
                    });
                    if !R::FLYING_KINGS {
                        break;
                    }
                    t = step::<R::Board>(t, d) & empty;
                }
            }
        }
    }

    /// The number of quiet moves (valid only when there is no capture).
    #[inline(always)]
    fn count_quiet_for<const WHITE: bool>(&self) -> u64 {
        let (own, _) = self.split::<WHITE>();
        let empty = self.empty();
        let men = own & !self.kings;
        let mut n = 0;
        for &d in man_steps::<R, WHITE>() {
            n += (step::<R::Board>(men, d) & empty).count_ones();
        }
        let kings = own & self.kings & !self.blocked_king(self.side);
        if kings != 0 {
            for d in 0..4 {
                let mut t = kings;
                loop {
                    t = step::<R::Board>(t, d) & empty;
                    if t == 0 {
                        break;
                    }
                    n += t.count_ones();
                    if !R::FLYING_KINGS {
                        break;
                    }
                }
            }
        }
        u64::from(n)
    }

    /// The number of captures when they are all single jumps by men: the
    /// number of (man, direction) jumps, if no landing square offers a second
    /// jump. `None` when that shortcut does not apply (a king can capture, a
    /// jump may go on, or the variant ranks captures by more than their
    /// length); the caller then searches the capture trees. The test for a
    /// second jump treats every jumping man's square as empty, so it can only
    /// err towards `None`.
    #[inline(always)]
    fn count_single_jumps<const WHITE: bool>(&self) -> Option<u64> {
        if matches!(R::PRECEDENCE, Precedence::Italian | Precedence::Frisian)
            || R::PROMOTE_MID_CAPTURE
            || R::REMOVE_AT_ONCE
        {
            return None;
        }
        if self.king_can_capture::<WHITE>() {
            return None;
        }
        let (own, opp) = self.split::<WHITE>();
        let empty = self.empty();
        let men = own & !self.kings;
        let targets = if R::MEN_CAPTURE_KINGS { opp } else { opp & !self.kings };
        let mut jumpers = [0; 8];
        let mut all = 0;
        for &d in man_capture_dirs::<R, WHITE>() {
            let back = opposite(d);
            jumpers[d] = men & step::<R::Board>(targets & step::<R::Board>(empty, back), back);
            all |= jumpers[d];
        }
        let empty = empty | all;
        let mut count = 0;
        for &d in man_capture_dirs::<R, WHITE>() {
            if jumpers[d] == 0 {
                continue;
            }
            count += u64::from(jumpers[d].count_ones());
            let land = step::<R::Board>(step::<R::Board>(jumpers[d], d), d);
            for &e in man_capture_dirs::<R, WHITE>() {
                if e == opposite(d) {
                    continue;
                }
                let back = opposite(e);
                if land & step::<R::Board>(targets & step::<R::Board>(empty, back), back) != 0 {
                    return None;
                }
            }
        }
        Some(count)
    }

    /// The number of legal moves, without building quiet moves.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.king_has_won() {
            return 0;
        }
        if self.has_capture() {
            let single = match self.side {
                Side::White => self.count_single_jumps::<true>(),
                Side::Black => self.count_single_jumps::<false>(),
            };
            if let Some(n) = single {
                return n;
            }
            let mut counter = Counter::default();
            match self.side {
                Side::White => self.captures_for::<true, _>(&mut counter),
                Side::Black => self.captures_for::<false, _>(&mut counter),
            }
            counter.count
        } else {
            match self.side {
                Side::White => self.count_quiet_for::<true>(),
                Side::Black => self.count_quiet_for::<false>(),
            }
        }
    }
}
