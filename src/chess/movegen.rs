//! Strictly legal move generation with check and pin masks (no make/unmake
//! legality test).
//!
//! Per call:
//! 1. King moves to squares not attacked by the enemy, computed with the king
//!    taken off the board (so it cannot hide behind itself from a slider).
//! 2. In double check nothing else moves.
//! 3. The target mask: in single check the checker plus the squares between
//!    it and the king; otherwise every square not holding an own piece
//!    (tactical generation: enemy pieces only).
//! 4. Pinned pieces (own pieces alone between the king and an enemy slider)
//!    move only along the line through the king and themselves.
//! 5. Pawns are generated set-wise for the unpinned ones, one by one for the
//!    pinned ones; en passant is tested exactly (it removes two pieces from a
//!    rank, the horizontal-pin case, and may capture a checking pawn).
//! 6. Castling (never when in check): the squares between the king and its
//!    target and between the rook and its target must be empty apart from
//!    the king and rook themselves, and no square the king passes or lands on
//!    may be attacked with the castling rook lifted (the Chess960 case of a
//!    rook shielding its king from an enemy rook or queen on the back rank).
//!
//! The moves go to a `Sink`: a move list, or a counter that adds whole
//! target sets with one popcount (perft's bulk counting at the last ply).

use crate::chess::attacks;
use crate::chess::bitboard::Bitboard;
use crate::chess::moves::Move;
use crate::chess::position::{castling_targets, Position};
use crate::chess::types::{Color, PieceKind, Rank, Square};
use crate::chess::MoveList;

/// Where generated moves go.
pub(crate) trait Sink {
    /// Normal moves (no promotion) of the piece on `from` to each target.
    fn piece(&mut self, from: Square, targets: Bitboard);
    /// Normal pawn moves to each target from the square `delta` behind it.
    fn pawns(&mut self, targets: Bitboard, delta: i8);
    /// Promotions (four each) to each target from `delta` behind it.
    fn promotions(&mut self, targets: Bitboard, delta: i8);
    /// One special move (en passant, castling).
    fn single(&mut self, mv: Move);
}

impl Sink for MoveList {
    #[inline]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::from_index((to.index() as i32 - delta as i32) as u32);
            self.push(Move::normal(from, to));
        }
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, delta: i8) {
        for to in targets {
            let from = Square::from_index((to.index() as i32 - delta as i32) as u32);
            for kind in PieceKind::PROMOTIONS {
                self.push(Move::promotion(from, to, kind));
            }
        }
    }

    #[inline]
    fn single(&mut self, mv: Move) {
        self.push(mv);
    }
}

/// Counts moves without building them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn pawns(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += u64::from(targets.count());
    }

    #[inline]
    fn promotions(&mut self, targets: Bitboard, _delta: i8) {
        self.0 += 4 * u64::from(targets.count());
    }

    #[inline]
    fn single(&mut self, _mv: Move) {
        self.0 += 1;
    }
}

impl Position {
    /// The own pieces pinned to the king of the side to move.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.blockers(self.side)
    }

    /// Pieces of either colour that alone stand between `color`'s king and an
    /// enemy slider aiming at it.
    #[inline]
    pub(crate) fn blockers(&self, color: Color) -> Bitboard {
        let ksq = self.king_square(color);
        let theirs = self.colors[color.flip().index()];
        let occupied = self.occupancy();
        let snipers = ((attacks::rook(ksq, theirs) & (self.kinds[3] | self.kinds[4]))
            | (attacks::bishop(ksq, theirs) & (self.kinds[2] | self.kinds[4])))
            & theirs;
        let mut blockers = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(ksq, sniper) & occupied;
            if between.any() && !between.more_than_one() {
                blockers |= between;
            }
        }
        blockers
    }

    /// Feeds every legal move (`TACTICAL`: captures and promotions only,
    /// unless in check) to `sink`.
    #[inline(always)]
    pub(crate) fn generate_into<S: Sink, const TACTICAL: bool>(&self, sink: &mut S) {
        let us = self.side;
        let them = us.flip();
        let ours = self.colors[us.index()];
        let theirs = self.colors[them.index()];
        let occupied = ours | theirs;
        let ksq = self.king_square(us);
        let checkers = self.checkers;
        let quiet_too = !TACTICAL || checkers.any();

        // Step 1: king moves.
        let mut king_targets = attacks::king(ksq) & !ours;
        if !quiet_too {
            king_targets &= theirs;
        }
        let without_king = occupied ^ Bitboard::from_square(ksq);
        let mut safe = Bitboard::EMPTY;
        for to in king_targets {
            if !self.is_attacked(to, them, without_king) {
                safe |= Bitboard::from_square(to);
            }
        }
        sink.piece(ksq, safe);

        // Step 2: double check.
        if checkers.more_than_one() {
            return;
        }

        // Step 3: the target mask.
        let target = if checkers.any() {
            attacks::between(ksq, checkers.lsb()) | checkers
        } else if TACTICAL {
            theirs
        } else {
            !ours
        };

        // Step 4: pins.
        let pinned = self.blockers(us) & ours;

        for from in self.kinds[1] & ours & !pinned {
            sink.piece(from, attacks::knight(from) & target);
        }
        let queens = self.kinds[4];
        for from in (self.kinds[2] | queens) & ours {
            let mut t = attacks::bishop(from, occupied) & target;
            if pinned.has(from) {
                t &= attacks::line(ksq, from);
            }
            sink.piece(from, t);
        }
        for from in (self.kinds[3] | queens) & ours {
            let mut t = attacks::rook(from, occupied) & target;
            if pinned.has(from) {
                t &= attacks::line(ksq, from);
            }
            sink.piece(from, t);
        }

        // Step 5: pawns.
        // Pushes may promote in tactical mode, so they get their own mask.
        let push_target = if checkers.any() || !TACTICAL { target } else { Bitboard::FULL };
        let pawns = self.kinds[0] & ours;
        self.pawn_moves::<S>(sink, pawns & !pinned, target, push_target, quiet_too);
        for from in pawns & pinned {
            let line = attacks::line(ksq, from);
            self.pawn_moves::<S>(
                sink,
                Bitboard::from_square(from),
                target & line,
                push_target & line,
                quiet_too,
            );
        }
        if let Some(ep) = self.en_passant {
            for from in attacks::pawn(them, ep) & pawns {
                if self.en_passant_legal(from, ep) {
                    sink.single(Move::en_passant(from, ep));
                }
            }
        }

        // Step 6: castling.
        if TACTICAL || checkers.any() {
            return;
        }
        for rook in self.castling & ours {
            let (king_to, rook_to) = castling_targets(us, ksq, rook);
            let movers = Bitboard::from_square(ksq) | Bitboard::from_square(rook);
            let king_path = attacks::between(ksq, king_to) | Bitboard::from_square(king_to);
            let rook_path = attacks::between(rook, rook_to) | Bitboard::from_square(rook_to);
            if ((king_path | rook_path) & occupied & !movers).any() {
                continue;
            }
            let lifted = occupied ^ movers;
            if king_path.into_iter().all(|sq| !self.is_attacked(sq, them, lifted)) {
                sink.single(Move::castling(ksq, rook));
            }
        }
    }

    /// Pawn pushes (onto `push_target`; non-promoting ones only when
    /// `quiet_too`), captures (onto `target`) and promotions of `pawns`.
    #[inline(always)]
    fn pawn_moves<S: Sink>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        target: Bitboard,
        push_target: Bitboard,
        quiet_too: bool,
    ) {
        let us = self.side;
        let theirs = self.colors[us.flip().index()];
        let empty = !self.occupancy();
        let (up, up_east, up_west): (i8, i8, i8) = match us {
            Color::White => (8, 9, 7),
            Color::Black => (-8, -7, -9),
        };
        let seventh = Bitboard::rank(Rank::back(us.flip())).forward(us.flip());
        let third = Bitboard::rank(Rank::back(us)).forward(us).forward(us);
        let promoting = pawns & seventh;
        let rest = pawns & !seventh;

        if quiet_too {
            let single = rest.forward(us) & empty;
            let double = (single & third).forward(us) & empty & push_target;
            sink.pawns(single & push_target, up);
            sink.pawns(double, 2 * up);
        }
        let up_rest = rest.forward(us);
        sink.pawns(up_rest.east() & theirs & target, up_east);
        sink.pawns(up_rest.west() & theirs & target, up_west);

        if promoting.any() {
            let up_promo = promoting.forward(us);
            sink.promotions(up_promo & empty & push_target, up);
            sink.promotions(up_promo.east() & theirs & target, up_east);
            sink.promotions(up_promo.west() & theirs & target, up_west);
        }
    }

    /// Every legal move into `list` (cleared first).
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.clear();
        self.generate_into::<MoveList, false>(list);
    }

    /// Captures and promotions (every legal move when in check) into `list`.
    pub fn tactical_moves(&self, list: &mut MoveList) {
        list.clear();
        self.generate_into::<MoveList, true>(list);
    }

    /// The number of legal moves, counted without building them.
    pub fn count_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate_into::<Counter, false>(&mut counter);
        counter.0
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::{CastlingMode, MoveList, Position};

    fn pos(fen: &str) -> Position {
        Position::from_fen_mode(fen, CastlingMode::Standard).expect("valid FEN")
    }

    fn texts(pos: &Position, tactical: bool) -> Vec<String> {
        let mut list = MoveList::default();
        if tactical {
            pos.tactical_moves(&mut list);
        } else {
            pos.legal_moves(&mut list);
        }
        let mut texts: Vec<String> = list.iter().map(|&m| pos.move_text(m)).collect();
        texts.sort();
        texts
    }

    #[test]
    fn start_position() {
        let start = pos(crate::chess::START_FEN);
        assert_eq!(texts(&start, false).len(), 20);
        assert_eq!(start.count_moves(), 20);
        assert!(texts(&start, true).is_empty());
    }

    #[test]
    fn pinned_pieces_stay_on_their_line() {
        // The rook on e4 is pinned by the rook on e8: it may only move on the e-file.
        let p = pos("4r1k1/8/8/8/4R3/8/8/4K3 w - - 0 1");
        let rook: Vec<String> =
            texts(&p, false).into_iter().filter(|t| t.starts_with("e4")).collect();
        assert_eq!(rook, ["e4e2", "e4e3", "e4e5", "e4e6", "e4e7", "e4e8"]);
        // A pinned knight never moves.
        let p = pos("4r1k1/8/8/8/4N3/8/8/4K3 w - - 0 1");
        assert!(texts(&p, false).iter().all(|t| !t.starts_with("e4")));
    }

    #[test]
    fn evasions_and_quiet_promotions() {
        let checked = pos("4k3/8/8/8/8/8/8/r3K2R w K - 0 1");
        let evasions = texts(&checked, false);
        assert!(!evasions.contains(&"e1g1".to_string()), "no castling out of check");
        assert_eq!(texts(&checked, true), evasions, "tactical = all evasions in check");
        // Tactical moves include quiet promotions and underpromotions.
        let promo = pos("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(texts(&promo, true), ["e7e8b", "e7e8n", "e7e8q", "e7e8r"]);
    }

    #[test]
    fn en_passant_horizontal_pin() {
        // Taking en passant would leave both pawns off the fifth rank and
        // expose the white king on a5 to the rook on h5.
        let p = pos("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
        assert!(!texts(&p, false).contains(&"b5c6".to_string()));
        let free = pos("8/8/8/1Pp4r/K7/8/8/4k3 w - c6 0 1");
        assert!(texts(&free, false).contains(&"b5c6".to_string()));
    }
}
