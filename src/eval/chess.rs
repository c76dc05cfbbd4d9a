//! Chess evaluation: a tapered middlegame/endgame sum of linear terms (the
//! hand-set evaluation), and the chess [`Playable`] impl, whose evaluator is
//! the network ([`crate::eval::nnue::NetworkEvaluator`]); the hand-set
//! evaluation remains the tuner's model, the `eval` trace's second opinion
//! and the fallback when no network is loaded.
//!
//! Every term is `weight[feature] * count`, summed for White minus Black and
//! tapered by the material phase (24 = all pieces, 0 = pawns and kings). The
//! weights live in `chess_params.rs`, flattened here into one feature vector
//! ([`weights`]); the same code path feeds either a score ([`Score`]-summing
//! sink) or the tuner's list of feature coefficients ([`crate::eval::Coefficients`]), so
//! the two can never drift apart.
//!
//! Pawn-structure terms (all but the free passed pawn, which looks at the
//! other pieces) depend only on the pawns, so the evaluator caches them per
//! thread in a small pawn table ([`PawnTable`]) keyed by both pawn bitboards,
//! compared in full: a hit is always exact, so the cache never changes a
//! score.

use crate::chess::attacks;
use crate::chess::{Bitboard, Color, Move, PieceKind, Position, Square};
use crate::eval::chess_params::*;
#[cfg(test)]
use crate::eval::Coefficients;
use crate::eval::{Evaluator, Playable, Sink};
use crate::game::{Game, Side};
use crate::score::Score;

/// Feature offsets into the flat weight vector, in `chess_params.rs` order.
pub mod feature {
    /// Material, 6.
    pub const PIECE_VALUE: usize = 0;
    /// Piece-square tables, 6 x 64.
    pub const PSQT: usize = PIECE_VALUE + 6;
    /// Knight mobility, 9.
    pub const KNIGHT_MOBILITY: usize = PSQT + 384;
    /// Bishop mobility, 14.
    pub const BISHOP_MOBILITY: usize = KNIGHT_MOBILITY + 9;
    /// Rook mobility, 15.
    pub const ROOK_MOBILITY: usize = BISHOP_MOBILITY + 14;
    /// Queen mobility, 28.
    pub const QUEEN_MOBILITY: usize = ROOK_MOBILITY + 15;
    /// Passed pawns by rank, 8.
    pub const PASSED_PAWN: usize = QUEEN_MOBILITY + 28;
    /// Free passed pawns by rank, 8.
    pub const PASSED_FREE: usize = PASSED_PAWN + 8;
    /// Isolated pawn, 1.
    pub const ISOLATED_PAWN: usize = PASSED_FREE + 8;
    /// Doubled pawn, 1.
    pub const DOUBLED_PAWN: usize = ISOLATED_PAWN + 1;
    /// Backward pawn, 1.
    pub const BACKWARD_PAWN: usize = DOUBLED_PAWN + 1;
    /// Connected pawns by rank, 8.
    pub const CONNECTED_PAWN: usize = BACKWARD_PAWN + 1;
    /// Bishop pair, 1.
    pub const BISHOP_PAIR: usize = CONNECTED_PAWN + 8;
    /// Rook on open file, 1.
    pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
    /// Rook on semi-open file, 1.
    pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    /// Outposts (knight, bishop), 2.
    pub const OUTPOST: usize = ROOK_SEMI_OPEN_FILE + 1;
    /// King zone attacks by kind, 4.
    pub const KING_ATTACK: usize = OUTPOST + 2;
    /// Missing shelter pawns, 1.
    pub const SHELTER_MISSING: usize = KING_ATTACK + 4;
    /// Pawn storm, 1.
    pub const PAWN_STORM: usize = SHELTER_MISSING + 1;
    /// Threats by pawns, 4.
    pub const THREAT_BY_PAWN: usize = PAWN_STORM + 1;
    /// Threats by minors, 2.
    pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 4;
    /// Threat by rook, 1.
    pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 2;
    /// Tempo, 1.
    pub const TEMPO: usize = THREAT_BY_ROOK + 1;
    /// Number of features.
    pub const COUNT: usize = TEMPO + 1;
}

/// The weights of `chess_params.rs` as one vector indexed by feature.
pub fn weights() -> &'static [S] {
    &WEIGHTS
}

/// The flat weight vector, built at compile time (no lazy initialisation to
/// check on every term).
static WEIGHTS: [S; feature::COUNT] = flatten();

/// Copies `src` into `w` from `at` on; returns the vector and the next offset.
const fn put(mut w: [S; feature::COUNT], at: usize, src: &[S]) -> ([S; feature::COUNT], usize) {
    let mut i = 0;
    while i < src.len() {
        w[at + i] = src[i];
        i += 1;
    }
    (w, at + src.len())
}

const fn flatten() -> [S; feature::COUNT] {
    let w = [(0, 0); feature::COUNT];
    let (w, at) = put(w, 0, &PIECE_VALUE);
    let (w, at) = put(w, at, &PSQT[0]);
    let (w, at) = put(w, at, &PSQT[1]);
    let (w, at) = put(w, at, &PSQT[2]);
    let (w, at) = put(w, at, &PSQT[3]);
    let (w, at) = put(w, at, &PSQT[4]);
    let (w, at) = put(w, at, &PSQT[5]);
    let (w, at) = put(w, at, &KNIGHT_MOBILITY);
    let (w, at) = put(w, at, &BISHOP_MOBILITY);
    let (w, at) = put(w, at, &ROOK_MOBILITY);
    let (w, at) = put(w, at, &QUEEN_MOBILITY);
    let (w, at) = put(w, at, &PASSED_PAWN);
    let (w, at) = put(w, at, &PASSED_FREE);
    let (w, at) = put(w, at, &[ISOLATED_PAWN, DOUBLED_PAWN, BACKWARD_PAWN]);
    let (w, at) = put(w, at, &CONNECTED_PAWN);
    let (w, at) = put(w, at, &[BISHOP_PAIR, ROOK_OPEN_FILE, ROOK_SEMI_OPEN_FILE]);
    let (w, at) = put(w, at, &OUTPOST);
    let (w, at) = put(w, at, &KING_ATTACK);
    let (w, at) = put(w, at, &[SHELTER_MISSING, PAWN_STORM]);
    let (w, at) = put(w, at, &THREAT_BY_PAWN);
    let (w, at) = put(w, at, &THREAT_BY_MINOR);
    let (w, at) = put(w, at, &[THREAT_BY_ROOK, TEMPO]);
    assert!(at == feature::COUNT, "chess_params.rs and the feature list disagree");
    w
}

/// The weights packed as `mg * 2^32 + eg`, for [`Sum`].
static PACKED: [i64; feature::COUNT] = {
    let weights = flatten();
    let mut packed = [0; feature::COUNT];
    let mut i = 0;
    while i < feature::COUNT {
        packed[i] = ((weights[i].0 as i64) << 32) + weights[i].1 as i64;
        i += 1;
    }
    packed
};

/// Sums terms into middlegame and endgame scores (White's view), both in
/// one `i64` as `mg * 2^32 + eg`: a term is one multiply-add, and both
/// halves come back exactly while each sum stays within `i32`.
#[derive(Clone, Copy, Default)]
struct Sum {
    packed: i64,
}

impl Sum {
    /// The endgame sum (the low half, sign included).
    #[inline]
    fn eg(&self) -> i32 {
        self.packed as i32
    }

    /// The middlegame sum.
    #[inline]
    fn mg(&self) -> i32 {
        ((self.packed - i64::from(self.eg())) >> 32) as i32
    }
}

impl Sink for Sum {
    #[inline]
    fn add(&mut self, feature: usize, count: i32) {
        self.packed += PACKED[feature] * i64::from(count);
    }
}

/// Phase weights of the non-pawn pieces (knight, bishop, rook, queen).
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the start position.
pub const MAX_PHASE: i32 = 24;

fn sign(color: Color) -> i32 {
    if color == Side::White {
        1
    } else {
        -1
    }
}

fn relative_rank(color: Color, sq: Square) -> usize {
    if color == Side::White {
        sq.rank().index()
    } else {
        7 - sq.rank().index()
    }
}

/// Precomputed pawn-structure masks.
struct Masks {
    /// Files beside each square's file.
    adjacent: [Bitboard; 64],
    /// Squares ahead of each square on its file and the adjacent files, by colour.
    front_span: [[Bitboard; 64]; 2],
    /// Squares ahead of each square on its own file, by colour.
    front_file: [[Bitboard; 64]; 2],
}

/// The masks, built at compile time.
static MASKS: Masks = build_masks();

const fn build_masks() -> Masks {
    let mut m = Masks {
        adjacent: [Bitboard(0); 64],
        front_span: [[Bitboard(0); 64]; 2],
        front_file: [[Bitboard(0); 64]; 2],
    };
    let mut i = 0;
    while i < 64 {
        let sq = Square::from_index(i as u32);
        let file = Bitboard(Bitboard::FILE_A.0 << (i % 8));
        m.adjacent[i] = Bitboard(file.east().0 | file.west().0);
        let mut c = 0;
        while c < 2 {
            let color = Side::BOTH[c];
            let mut ray = Bitboard::from_square(sq).forward(color);
            let mut ahead = Bitboard(0);
            while ray.any() {
                ahead = Bitboard(ahead.0 | ray.0);
                ray = ray.forward(color);
            }
            m.front_file[c][i] = ahead;
            m.front_span[c][i] = Bitboard(ahead.0 | ahead.east().0 | ahead.west().0);
            c += 1;
        }
        i += 1;
    }
    m
}

/// A mask of the files adjacent to `sq`'s file.
#[inline]
fn adjacent_files(sq: Square) -> Bitboard {
    MASKS.adjacent[sq.index()]
}

/// Squares in front of `sq` (towards the enemy) on its file and the adjacent ones.
#[inline]
fn front_span(color: Color, sq: Square) -> Bitboard {
    MASKS.front_span[color.index()][sq.index()]
}

/// Squares in front of `sq` on its own file.
#[inline]
fn front_file(color: Color, sq: Square) -> Bitboard {
    MASKS.front_file[color.index()][sq.index()]
}

/// The material phase, 0 (pawn ending) to 24 (opening), clamped.
pub fn phase(pos: &Position) -> i32 {
    let mut phase = 0;
    for kind in PieceKind::ALL {
        phase += PHASE[kind.index()] * pos.kind(kind).count() as i32;
    }
    phase.min(MAX_PHASE)
}

/// Evaluates every term of `pos` into `sink` (White's view).
pub fn terms<T: Sink>(pos: &Position, sink: &mut T) {
    let passers = pawn_structure(pos, sink);
    other_terms(pos, passers, sink);
}

/// Every term but the pawn structure; `passers` are each side's passed pawns.
fn other_terms<T: Sink>(pos: &Position, passers: [Bitboard; 2], sink: &mut T) {
    material_and_squares(pos, sink);
    passed_free(pos, passers, sink);
    for color in Side::BOTH {
        pieces(pos, color, sink);
        king_safety(pos, color, sink);
    }
    sink.add(feature::TEMPO, sign(pos.side_to_move()));
}

fn material_and_squares<T: Sink>(pos: &Position, sink: &mut T) {
    for color in Side::BOTH {
        let s = sign(color);
        for kind in PieceKind::ALL {
            // Counted while walking the squares: cheaper than a popcount.
            let mut count = 0;
            for sq in pos.pieces(color, kind) {
                let index = sq.relative(color).index();
                sink.add(feature::PSQT + kind.index() * 64 + index, s);
                count += 1;
            }
            sink.add(feature::PIECE_VALUE + kind.index(), s * count);
        }
        if pos.pieces(color, PieceKind::Bishop).more_than_one() {
            sink.add(feature::BISHOP_PAIR, s);
        }
    }
}

/// The terms that depend on the pawns alone; returns each side's passed pawns.
fn pawn_structure<T: Sink>(pos: &Position, sink: &mut T) -> [Bitboard; 2] {
    let mut passers = [Bitboard(0); 2];
    for color in Side::BOTH {
        let s = sign(color);
        let own = pos.pieces(color, PieceKind::Pawn);
        let enemy = pos.pieces(color.flip(), PieceKind::Pawn);
        let enemy_attacks = enemy.pawn_attacks(color.flip());
        let own_attacks = own.pawn_attacks(color);
        for sq in own {
            let rank = relative_rank(color, sq);
            let span = front_span(color, sq);
            let file_ahead = front_file(color, sq);
            if (enemy & span).is_empty() && (own & file_ahead).is_empty() {
                sink.add(feature::PASSED_PAWN + rank, s);
                passers[color.index()] |= Bitboard::from_square(sq);
            }
            let neighbours = own & adjacent_files(sq);
            if neighbours.is_empty() {
                sink.add(feature::ISOLATED_PAWN, s);
            }
            if (own & file_ahead).any() {
                sink.add(feature::DOUBLED_PAWN, s);
            }
            let bit = Bitboard::from_square(sq);
            let supported = (own_attacks & bit).any();
            let phalanx = (own & (bit.east() | bit.west())).any();
            if supported || phalanx {
                sink.add(feature::CONNECTED_PAWN + rank, s);
            } else if neighbours.any() {
                // Backward: every neighbour is ahead and the stop square is
                // controlled by an enemy pawn.
                let behind = front_span(color.flip(), sq) | (bit.east() | bit.west());
                let stop = bit.forward(color);
                if (neighbours & behind).is_empty() && (stop & enemy_attacks).any() {
                    sink.add(feature::BACKWARD_PAWN, s);
                }
            }
        }
    }
    passers
}

/// Passed pawns whose stop square is empty.
fn passed_free<T: Sink>(pos: &Position, passers: [Bitboard; 2], sink: &mut T) {
    let occupied = pos.occupancy();
    for color in Side::BOTH {
        for sq in passers[color.index()] {
            let stop = Bitboard::from_square(sq).forward(color);
            if (stop & occupied).is_empty() {
                sink.add(feature::PASSED_FREE + relative_rank(color, sq), sign(color));
            }
        }
    }
}

/// First mobility feature and mobility cap of knight, bishop, rook, queen.
const MOBILITY: [(usize, usize); 4] = [
    (feature::KNIGHT_MOBILITY, 8),
    (feature::BISHOP_MOBILITY, 13),
    (feature::ROOK_MOBILITY, 14),
    (feature::QUEEN_MOBILITY, 27),
];

/// What the per-piece terms of one side need to know.
struct PieceTerms {
    color: Color,
    s: i32,
    occupied: Bitboard,
    area: Bitboard,
    enemy_king_zone: Bitboard,
    own_pawns: Bitboard,
    enemy_pawns: Bitboard,
    own_pawn_attacks: Bitboard,
}

impl PieceTerms {
    /// Mobility, king-zone attacks, outposts and rook files of this side's
    /// pieces of `kind` (the `k`-th of knight, bishop, rook, queen); returns
    /// the squares they attack.
    #[inline(always)]
    fn kind<T: Sink>(&self, pos: &Position, k: usize, kind: PieceKind, sink: &mut T) -> Bitboard {
        let (color, s) = (self.color, self.s);
        let (base, cap) = MOBILITY[k];
        let mut attacked = Bitboard(0);
        for sq in pos.pieces(color, kind) {
            let reach = match kind {
                PieceKind::Knight => attacks::knight(sq),
                PieceKind::Bishop => attacks::bishop(sq, self.occupied),
                PieceKind::Rook => attacks::rook(sq, self.occupied),
                _ => attacks::queen(sq, self.occupied),
            };
            attacked |= reach;
            let mobility = (reach & self.area).count() as usize;
            sink.add(base + mobility.min(cap), s);
            let zone = reach & self.enemy_king_zone;
            if zone.any() {
                sink.add(feature::KING_ATTACK + k, s * zone.count() as i32);
            }
            match kind {
                PieceKind::Knight | PieceKind::Bishop => {
                    let safe =
                        (front_span(color, sq) & !Bitboard::file(sq.file()) & self.enemy_pawns)
                            .is_empty();
                    let rank = relative_rank(color, sq);
                    if safe && (3..=5).contains(&rank) && self.own_pawn_attacks.has(sq) {
                        sink.add(feature::OUTPOST + k, s);
                    }
                }
                PieceKind::Rook => {
                    let file = Bitboard::file(sq.file());
                    if (file & self.own_pawns).is_empty() {
                        if (file & self.enemy_pawns).is_empty() {
                            sink.add(feature::ROOK_OPEN_FILE, s);
                        } else {
                            sink.add(feature::ROOK_SEMI_OPEN_FILE, s);
                        }
                    }
                }
                _ => {}
            }
        }
        attacked
    }
}

fn pieces<T: Sink>(pos: &Position, color: Color, sink: &mut T) {
    let s = sign(color);
    let occupied = pos.occupancy();
    let own_pawns = pos.pieces(color, PieceKind::Pawn);
    let enemy_pawns = pos.pieces(color.flip(), PieceKind::Pawn);
    let enemy_pawn_attacks = enemy_pawns.pawn_attacks(color.flip());
    let own_pawn_attacks = own_pawns.pawn_attacks(color);
    let area = !(own_pawns | pos.pieces(color, PieceKind::King) | enemy_pawn_attacks);
    let enemy_king_zone = {
        let k = pos.king_square(color.flip());
        attacks::king(k) | Bitboard::from_square(k)
    };
    let side = PieceTerms {
        color,
        s,
        occupied,
        area,
        enemy_king_zone,
        own_pawns,
        enemy_pawns,
        own_pawn_attacks,
    };
    // One call per kind with constant arguments, so each is specialised.
    let attacked_by_minor =
        side.kind(pos, 0, PieceKind::Knight, sink) | side.kind(pos, 1, PieceKind::Bishop, sink);
    let attacked_by_rook = side.kind(pos, 2, PieceKind::Rook, sink);
    side.kind(pos, 3, PieceKind::Queen, sink);

    // Threats against this side's pieces come from the enemy's attacks:
    // counted here from the attacker's view as a penalty for the victim.
    let enemy = color.flip();
    for (k, kind) in [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen]
        .into_iter()
        .enumerate()
    {
        let victims = pos.pieces(enemy, kind);
        let by_pawn = victims & own_pawn_attacks;
        if by_pawn.any() {
            sink.add(feature::THREAT_BY_PAWN + k, -s * by_pawn.count() as i32);
        }
        if k >= 2 {
            let by_minor = victims & attacked_by_minor;
            if by_minor.any() {
                sink.add(feature::THREAT_BY_MINOR + k - 2, -s * by_minor.count() as i32);
            }
        }
    }
    let queens_hit = pos.pieces(enemy, PieceKind::Queen) & attacked_by_rook;
    if queens_hit.any() {
        sink.add(feature::THREAT_BY_ROOK, -s * queens_hit.count() as i32);
    }
}

fn king_safety<T: Sink>(pos: &Position, color: Color, sink: &mut T) {
    let s = sign(color);
    let king = pos.king_square(color);
    let own_pawns = pos.pieces(color, PieceKind::Pawn);
    let enemy_pawns = pos.pieces(color.flip(), PieceKind::Pawn);
    let files = Bitboard::file(king.file()) | adjacent_files(king);
    let ahead = front_span(color, king) | Bitboard::from_square(king);
    let mut missing = 0;
    for file_sq in [king.offset(-1), Some(king), king.offset(1)].into_iter().flatten() {
        if file_sq.rank() != king.rank() {
            continue;
        }
        let column = Bitboard::file(file_sq.file());
        if (column & own_pawns & ahead).is_empty() {
            missing += 1;
        }
    }
    sink.add(feature::SHELTER_MISSING, s * missing);
    // Enemy pawns within reach of the king's shelter.
    let storm_zone = ahead & files;
    let near = {
        let rank = king.rank().index() as i32;
        let step = if color == Side::White { 1 } else { -1 };
        let mut band = Bitboard(0);
        for d in 1..=3 {
            if let Some(r) = u8::try_from(rank + d * step).ok().and_then(crate::chess::Rank::new) {
                band |= Bitboard::rank(r);
            }
        }
        band
    };
    let storm = enemy_pawns & storm_zone & near;
    let storm = if storm.any() { storm.count() as i32 } else { 0 };
    sink.add(feature::PAWN_STORM, s * storm);
}

/// Endgame scale in 1/64: drawish material shrinks the endgame score
/// (`eg` is the unscaled endgame sum, White's view).
pub fn endgame_scale(pos: &Position, eg: i32) -> i32 {
    let strong = if eg > 0 { Side::White } else { Side::Black };
    let weak = strong.flip();
    let pawns = pos.pieces(strong, PieceKind::Pawn).count();
    let non_pawn = |c: Color| -> i32 {
        [PieceKind::Knight, PieceKind::Bishop, PieceKind::Rook, PieceKind::Queen]
            .iter()
            .map(|&k| pos.pieces(c, k).count() as i32 * PIECE_VALUE[k.index()].1)
            .sum()
    };
    let (strong_np, weak_np) = (non_pawn(strong), non_pawn(weak));
    if pawns == 0 && strong_np - weak_np <= PIECE_VALUE[PieceKind::Bishop.index()].1 {
        // Without pawns, a minor piece's advantage rarely wins.
        return if strong_np < PIECE_VALUE[PieceKind::Rook.index()].1 { 0 } else { 16 };
    }
    let wb = pos.pieces(Side::White, PieceKind::Bishop);
    let bb = pos.pieces(Side::Black, PieceKind::Bishop);
    let only_bishops = strong_np == PIECE_VALUE[PieceKind::Bishop.index()].1
        && weak_np == PIECE_VALUE[PieceKind::Bishop.index()].1;
    if only_bishops && wb.count() == 1 && bb.count() == 1 {
        let light = Bitboard(0x55AA_55AA_55AA_55AA);
        if ((wb & light).any()) != ((bb & light).any()) {
            return 24;
        }
    }
    64
}

/// Combines the tapered sums of `pos` into a score for the side to move.
fn finish(pos: &Position, sum: &Sum) -> Score {
    let phase = phase(pos);
    let (mg, eg) = (sum.mg(), sum.eg());
    let eg = eg * endgame_scale(pos, eg) / 64;
    let white = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;
    if pos.side_to_move() == Side::White {
        white
    } else {
        -white
    }
}

/// Entries of the pawn table (a power of two).
const PAWN_ENTRIES: usize = 1 << 12;

/// One cached pawn structure: the pawns it was computed for, the summed
/// pawn-structure terms and the passed pawns. The all-zero entry is the
/// correct entry for "no pawns at all", so an empty table needs no marker.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    white: Bitboard,
    black: Bitboard,
    sum: Sum,
    passers: [Bitboard; 2],
}

/// A per-thread cache of [`pawn_structure`], indexed by a multiplicative
/// hash of the two pawn bitboards and checked against both in full.
#[derive(Clone)]
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable { entries: vec![PawnEntry::default(); PAWN_ENTRIES] }
    }
}

impl PawnTable {
    /// Adds the pawn-structure terms of `pos` to `sum` (from the cache when
    /// this structure was seen before) and returns the passed pawns.
    fn add_to(&mut self, pos: &Position, sum: &mut Sum) -> [Bitboard; 2] {
        let white = pos.pieces(Side::White, PieceKind::Pawn);
        let black = pos.pieces(Side::Black, PieceKind::Pawn);
        let hash = (white.0 ^ black.0.rotate_left(32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let index = (hash >> (64 - PAWN_ENTRIES.trailing_zeros())) as usize;
        let Some(entry) = self.entries.get_mut(index) else {
            return pawn_structure(pos, sum);
        };
        if entry.white != white || entry.black != black {
            let mut pawns = Sum::default();
            let passers = pawn_structure(pos, &mut pawns);
            *entry = PawnEntry { white, black, sum: pawns, passers };
        }
        sum.packed += entry.sum.packed;
        entry.passers
    }
}

/// The chess evaluator: the terms of [`terms`], with the pawn structure
/// cached in a per-thread [`PawnTable`].
#[derive(Clone, Default)]
pub struct ChessEvaluator {
    pawns: PawnTable,
}

impl Evaluator<Position> for ChessEvaluator {
    fn evaluate(&mut self, pos: &Position) -> Score {
        let mut sum = Sum::default();
        let passers = self.pawns.add_to(pos, &mut sum);
        other_terms(pos, passers, &mut sum);
        finish(pos, &sum)
    }

    fn trace(&mut self, pos: &Position) -> String {
        let (sums, white) = breakdown(pos);
        format!("{sums}\nFinal evaluation: {:+.2} (white side)", white as f64 / 100.0)
    }
}

/// The `eval` breakdown of the hand-set evaluation (its sums and phase) and
/// its score for White.
pub fn breakdown(pos: &Position) -> (String, Score) {
    let mut sum = Sum::default();
    terms(pos, &mut sum);
    let score = finish(pos, &sum);
    let white = if pos.side_to_move() == Side::White { score } else { -score };
    (
        format!("middlegame {} endgame {} phase {}/{MAX_PHASE}", sum.mg(), sum.eg(), phase(pos)),
        white,
    )
}

impl Playable for Position {
    type Evaluator = crate::eval::nnue::NetworkEvaluator;
    type Tables = crate::endgame::syzygy::Syzygy;

    const EXCHANGE: bool = true;

    #[inline]
    fn tactical_value(&self, mv: Move) -> Score {
        let victim = self.captured(mv).map_or(0, |k| PIECE_VALUE[k.index()].0);
        let promotion = self.promotion(mv).map_or(0, |k| PIECE_VALUE[k.index()].0);
        let attacker = self.moved_piece(mv).map_or(0, |p| p.kind.index() as i32);
        (victim + promotion) * 8 - attacker
    }

    #[inline]
    fn see_ge(&self, mv: Move, threshold: Score) -> bool {
        Position::see_ge(self, mv, threshold)
    }

    #[inline]
    fn null_move_safe(&self) -> bool {
        pieces_to_move(self).any()
    }

    fn zugzwang_likely(&self) -> bool {
        pieces_to_move(self).count() <= 1
    }
}

/// The side to move's pieces other than pawns and king: what keeps it out
/// of zugzwang.
#[inline]
fn pieces_to_move(pos: &Position) -> Bitboard {
    let us = pos.side_to_move();
    pos.color(us) & !(pos.pieces(us, PieceKind::Pawn) | pos.pieces(us, PieceKind::King))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    fn eval(fen: &str) -> Score {
        ChessEvaluator::default().evaluate(&Position::from_fen(fen, Variant::Chess).unwrap())
    }

    #[test]
    fn weights_cover_every_feature() {
        assert_eq!(weights().len(), feature::COUNT);
    }

    #[test]
    fn packed_sums_split_exactly() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            let mut sum = Sum::default();
            let (mut mg, mut eg) = (0, 0);
            for _ in 0..60 {
                crate::rng::xorshift64(&mut state);
                let f = (state % feature::COUNT as u64) as usize;
                let count = (state >> 32) as i32 % 9 - 4;
                sum.add(f, count);
                mg += WEIGHTS[f].0 * count;
                eg += WEIGHTS[f].1 * count;
            }
            assert_eq!((sum.mg(), sum.eg()), (mg, eg));
        }
    }

    #[test]
    fn symmetric_positions_score_the_tempo_only() {
        let start = eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let tempo = (TEMPO.0 * MAX_PHASE) / MAX_PHASE;
        assert_eq!(start, tempo);
        // Mirrored positions evaluate the same for the side to move.
        let a = eval("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let b = eval("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        assert_eq!(a, b);
    }

    #[test]
    fn null_move_is_refused_or_verified_where_zugzwang_threatens() {
        let pos = |fen| Position::from_fen(fen, Variant::Chess).unwrap();
        // Pawns only: no null move at all.
        let pawns = pos("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1");
        assert!(!pawns.null_move_safe());
        // One piece: a null move, verified.
        let rook = pos("4k3/4p3/8/8/8/8/4P3/R3K3 w - - 0 1");
        assert!(rook.null_move_safe() && rook.zugzwang_likely());
        // Two pieces, or the opponent's material only: trusted.
        let two = pos("4k3/4p3/8/8/8/8/4P3/R3KB2 w - - 0 1");
        assert!(two.null_move_safe() && !two.zugzwang_likely());
        let start = pos(crate::chess::START_FEN);
        assert!(!start.zugzwang_likely());
        assert!(pos("4k3/4p3/8/8/8/8/4P3/R3KB2 b - - 0 1").zugzwang_likely());
    }

    #[test]
    fn material_counts() {
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 w - - 0 1") > 700);
        assert!(eval("4k3/8/8/8/8/8/8/3QK3 b - - 0 1") < -700);
        // A lone minor piece cannot win: scaled to zero in the endgame.
        assert!(eval("4k3/8/8/8/8/8/8/3NK3 w - - 0 1").abs() < 60);
    }

    #[test]
    fn the_pawn_cache_never_changes_a_score() {
        let mut evaluator = ChessEvaluator::default();
        let mut list = crate::chess::MoveList::default();
        for fen in [
            crate::chess::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let mut pos = Position::from_fen(fen, Variant::Chess).unwrap();
            let mut state = 0x2545_F491_4F6C_DD1Du64;
            for _ in 0..300 {
                let mut sum = Sum::default();
                terms(&pos, &mut sum);
                // Twice: once filling the entry, once reading it.
                assert_eq!(evaluator.evaluate(&pos), finish(&pos, &sum), "{pos:?}");
                assert_eq!(evaluator.evaluate(&pos), finish(&pos, &sum), "{pos:?}");
                pos.legal_moves(&mut list);
                if list.is_empty() || pos.halfmove_clock() >= 100 {
                    break;
                }
                crate::rng::xorshift64(&mut state);
                pos.play(list[(state % list.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn coefficients_times_weights_equal_the_evaluation() {
        let pos = Position::from_fen(
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
            Variant::Chess,
        )
        .unwrap();
        let mut coefficients = Coefficients::default();
        terms(&pos, &mut coefficients);
        let mut sum = Sum::default();
        for &(f, c) in &coefficients.terms {
            sum.add(f as usize, c as i32);
        }
        assert_eq!(finish(&pos, &sum), ChessEvaluator::default().evaluate(&pos));
    }
}
