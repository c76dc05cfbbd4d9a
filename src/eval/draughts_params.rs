//! Draughts evaluation weights, one table per board family, in hundredths of
//! a man. The tuner (`tuning/`) rewrites this file as a whole: data only.
//!
//! Rows are counted from the side's own back row (0) to the crown row.

/// Weights of one board family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king when the side has one king.
    pub king: i32,
    /// Each further king (kings lose value as they multiply).
    pub extra_king: i32,
    /// A man by its row from the own back row (first 10 used on 8x8: 8).
    pub advance: [i32; 10],
    /// A man on a central square.
    pub centre: i32,
    /// A man on the own back row while the opponent has men (guards promotion).
    pub back_row: i32,
    /// A man on the left or right edge.
    pub edge: i32,
    /// A man with a free path to the crown row that no enemy piece can stop.
    pub runaway: i32,
    /// Per legal-looking quiet step of the side's men (mobility).
    pub mobility: i32,
    /// The side to move.
    pub tempo: i32,
}

/// 10x10 boards (international, antidraughts).
pub const TEN: Weights = Weights {
    man: 100,
    king: 320,
    extra_king: 250,
    advance: [0, 1, 3, 5, 8, 11, 15, 20, 30, 0],
    centre: 6,
    back_row: 6,
    edge: -4,
    runaway: 60,
    mobility: 2,
    tempo: 6,
};

/// 8x8 boards (brazilian, russian, english, italian, turkish).
pub const EIGHT: Weights = Weights {
    man: 100,
    king: 280,
    extra_king: 230,
    advance: [0, 2, 4, 8, 12, 18, 30, 0, 0, 0],
    centre: 8,
    back_row: 8,
    edge: -4,
    runaway: 60,
    mobility: 2,
    tempo: 6,
};
