//! Scores: centipawns (chess) or hundredths of a man (draughts), from the
//! side to move's point of view, with mate scores at the ends of the range.
//!
//! A mate found `n` plies from the root scores `MATE - n` (winning) or
//! `-(MATE - n)` (losing); every score with magnitude at least [`MATE_BOUND`]
//! is a mate score. Ordinary evaluations are clamped well inside that bound.

/// A search score.
pub type Score = i32;

/// Deepest ply the search reaches (arrays per ply are this long).
pub const MAX_PLY: usize = 128;
/// Score of delivering mate at the root.
pub const MATE: Score = 32_000;
/// Scores at least this large are mates.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// Larger than any score: the initial window.
pub const INFINITE: Score = MATE + 1;
/// Evaluations are clamped to this magnitude so they never look like mates.
pub const EVAL_LIMIT: Score = MATE_BOUND - 1;
/// Score of a drawn position.
pub const DRAW: Score = 0;
/// Score of an endgame-table win before the progress term: far above any
/// ordinary evaluation, below the mate range.
pub const TABLE_WIN: Score = 20_000;
/// Largest progress term (the static evaluation, clamped) added to it.
pub const TABLE_PROGRESS: Score = 2_000;

/// Whether `score` is a mate score (either side).
#[inline]
pub fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Mate in moves (not plies) as UCI prints it: positive when the side to move
/// mates, negative when it is mated. `None` for an ordinary score.
pub fn mate_in_moves(score: Score) -> Option<i32> {
    if !is_mate(score) {
        return None;
    }
    let plies = MATE - score.abs();
    let moves = (plies + 1) / 2;
    Some(if score > 0 { moves } else { -moves })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_moves() {
        assert_eq!(mate_in_moves(MATE - 1), Some(1));
        assert_eq!(mate_in_moves(MATE - 3), Some(2));
        assert_eq!(mate_in_moves(-(MATE - 2)), Some(-1));
        assert_eq!(mate_in_moves(-MATE), Some(0));
        assert_eq!(mate_in_moves(150), None);
        assert!(!is_mate(EVAL_LIMIT));
    }
}
