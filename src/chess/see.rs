//! Static exchange evaluation: does the capture sequence that a move starts
//! on its target square win at least a threshold, if both sides always
//! recapture with their least valuable attacker and may stop at any time?
//!
//! The algorithm is Stockfish's `see_ge` idea, written anew: swap values
//! along the exchange, adding x-ray attackers (sliders behind a piece that
//! just captured) as the board empties; pinned pieces do not recapture while
//! their pinner is still on the board; a king recaptures only when the other
//! side has no attacker left. Castling, en passant and promotions count as
//! an exchange of value 0 (the search orders them by other means).
//!
//! Piece values for the exchange: [`SEE_VALUES`] (pawn 100 ... queen 900).

use crate::chess::attacks;
use crate::chess::bitboard::Bitboard;
use crate::chess::moves::Move;
use crate::chess::position::Position;
use crate::chess::types::PieceKind;

/// Exchange values by piece kind (pawn, knight, bishop, rook, queen, king).
pub const SEE_VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];

impl Position {
    /// Whether the exchange `mv` starts gains at least `threshold`
    /// (centipawns, [`SEE_VALUES`]). `mv` must be legal here.
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        if mv.is_castling() || mv.is_en_passant() || mv.promotion_kind().is_some() {
            return threshold <= 0;
        }
        let (from, to) = (mv.from(), mv.to());
        let value = |kind: Option<PieceKind>| kind.map_or(0, |k| SEE_VALUES[k.index()]);
        let mut swap = value(self.piece_on(to).map(|p| p.kind)) - threshold;
        if swap < 0 {
            return false;
        }
        swap = value(self.piece_on(from).map(|p| p.kind)) - swap;
        if swap <= 0 {
            return true;
        }
        let diagonal = self.kinds[2] | self.kinds[4];
        let straight = self.kinds[3] | self.kinds[4];
        let mut occupied =
            self.occupancy() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
        let mut attackers = self.attackers_to(to, occupied);
        // Pins (blockers, pinners) of each side, found when first needed.
        let mut pins: [Option<(Bitboard, Bitboard)>; 2] = [None; 2];
        let mut stm = self.side;
        let mut result = true;
        loop {
            stm = stm.flip();
            attackers &= occupied;
            let mut ours = attackers & self.color(stm);
            if ours.is_empty() {
                break;
            }
            // Index 0 is the mover's side, 1 the opponent's.
            let me = usize::from(stm != self.side);
            let (blockers, pinners) = *pins[me].get_or_insert_with(|| self.pins(stm));
            if (pinners & occupied).any() {
                ours &= !blockers;
            }
            if ours.is_empty() {
                break;
            }
            result = !result;
            let mut least = None;
            for kind in PieceKind::ALL {
                let set = ours & self.kinds[kind.index()];
                if set.any() {
                    least = Some((kind, set.lsb()));
                    break;
                }
            }
            let Some((kind, sq)) = least else { break };
            if kind == PieceKind::King {
                let others = attackers & !self.color(stm);
                return if others.any() { !result } else { result };
            }
            swap = SEE_VALUES[kind.index()] - swap;
            if swap < i32::from(result) {
                break;
            }
            occupied ^= Bitboard::from_square(sq);
            if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
                attackers |= attacks::bishop(to, occupied) & diagonal;
            }
            if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
                attackers |= attacks::rook(to, occupied) & straight;
            }
        }
        result
    }

    /// The pieces (of either colour) alone between `color`'s king and an
    /// enemy slider ([`Position::blockers`]), and those sliders (the pinners).
    fn pins(&self, color: crate::chess::types::Color) -> (Bitboard, Bitboard) {
        let ksq = self.king_square(color);
        let theirs = self.color(color.flip());
        let occupied = self.occupancy();
        let snipers = ((attacks::rook(ksq, theirs) & (self.kinds[3] | self.kinds[4]))
            | (attacks::bishop(ksq, theirs) & (self.kinds[2] | self.kinds[4])))
            & theirs;
        let mut blockers = Bitboard::EMPTY;
        let mut pinners = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(ksq, sniper) & occupied;
            if between.any() && !between.more_than_one() {
                blockers |= between;
                pinners = pinners.with(sniper);
            }
        }
        (blockers, pinners)
    }
}

#[cfg(test)]
mod tests {
    use crate::chess::position::{CastlingMode, Position};

    fn see(fen: &str, text: &str, threshold: i32) -> bool {
        let pos = Position::from_fen_mode(fen, CastlingMode::Standard).expect("valid fen");
        let mv = pos.parse_move(text).expect("legal move");
        pos.see_ge(mv, threshold)
    }

    #[test]
    fn simple_exchanges() {
        // Pawn takes undefended knight: +300.
        let fen = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(fen, "e4d5", 300));
        assert!(!see(fen, "e4d5", 301));
        // Queen takes a pawn defended by a pawn: 100 - 900.
        let fen = "4k3/8/2p5/3p4/8/8/3Q4/4K3 w - - 0 1";
        assert!(see(fen, "d2d5", -800));
        assert!(!see(fen, "d2d5", -799));
        // Rook takes rook defended by rook, with a rook x-ray behind: +500.
        let fen = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(fen, "d2d7", 0));
        // A quiet move to a square a pawn attacks loses the knight.
        assert!(see("4k3/8/8/2p5/8/8/8/3NK3 w - - 0 1", "d1b2", 0));
        assert!(!see("4k3/8/8/8/2p5/8/8/2N1K3 w - - 0 1", "c1d3", 0));
        assert!(see("4k3/8/8/8/2p5/8/8/2N1K3 w - - 0 1", "c1d3", -300));
        // A pinned defender does not recapture: the bishop on e6 is pinned
        // to the king on g8 by the bishop on c4, so Rxd7 wins the rook.
        assert!(see("6k1/3r4/4b3/8/2B5/8/8/3R2K1 w - - 0 1", "d1d7", 500));
        // Unpinned, the bishop recaptures and the exchange is even.
        assert!(!see("6k1/3r4/4b3/8/8/8/8/3R2K1 w - - 0 1", "d1d7", 1));
    }
}
