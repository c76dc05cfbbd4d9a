//! Draughts evaluation weights, one set per board family, in hundredths of a
//! man. Each weight is a (middlegame, endgame) pair; the evaluation tapers
//! between them by the share of men still on the board. The tuner
//! (`tuning/`) rewrites one set at a time through `Tunable::render_params`,
//! so keep this file data only, fields in the order of `Weights`.
//!
//! Rows are counted from the side's own back row (0) to the crown row.
//! "Advanced" means on the opponent's half of the board.

/// A middlegame/endgame weight pair.
pub type S = (i32, i32);

/// Weights of one board family (see `eval/draughts/features.rs` for the
/// exact definition of every feature).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man.
    pub man: S,
    /// The side's first, second, and each further king (kings lose value
    /// as they multiply).
    pub king: [S; 3],
    /// Having kings while the opponent has none.
    pub king_unopposed: S,
    /// A man by its row from the own back row (10x10 uses all ten, 8x8 eight).
    pub advance: [S; 10],
    /// A man on a central square.
    pub centre: S,
    /// A man on the left or right edge.
    pub edge: S,
    /// A man on the own back row while the opponent has men.
    pub back_row: S,
    /// Per man of difference between the left and right halves.
    pub imbalance: S,
    /// Per own piece right behind an advanced man (support).
    pub support: S,
    /// An advanced man supported from every square behind it (an outpost).
    pub outpost: S,
    /// An advanced man without any support.
    pub hanging: S,
    /// A man that cannot step because enemy pieces block it (a lock).
    pub locked: S,
    /// A man no enemy piece can stop short of the crown row, by rows to go:
    /// 1, 2, 3, 4 or more.
    pub runaway: [S; 4],
    /// Per quiet step of the side's men (mobility).
    pub mobility: S,
    /// Per square the side's kings can move to.
    pub king_mobility: S,
    /// A king on the long diagonal (the main road).
    pub king_diagonal: S,
    /// The side to move.
    pub tempo: S,
}

/// 10x10 boards (international).
#[rustfmt::skip]
pub const TEN: Weights = Weights {
    man: (172, 76),
    king: [(450, 227), (265, 162), (427, 97)],
    king_unopposed: (170, -13),
    advance: [(4, -10), (35, 13), (52, -3), (56, -7), (67, -7), (27, 11), (-39, 41), (31, 23), (103, 66), (0, 0)],
    centre: (12, 14),
    edge: (-2, -11),
    back_row: (17, 47),
    imbalance: (1, -10),
    support: (8, 3),
    outpost: (-62, -8),
    hanging: (15, 11),
    locked: (10, -15),
    runaway: [(205, 51), (290, 4), (243, -33), (-4, -10)],
    mobility: (-1, -1),
    king_mobility: (49, -4),
    king_diagonal: (79, 14),
    tempo: (8, 2),
};

/// 8x8 diagonal boards (brazilian, russian, english, italian).
#[rustfmt::skip]
pub const EIGHT: Weights = Weights {
    man: (100, 100),
    king: [(280, 260), (240, 220), (200, 180)],
    king_unopposed: (40, 60),
    advance: [(0, 0), (3, 3), (5, 7), (8, 12), (11, 18), (15, 26), (20, 36), (0, 0), (0, 0), (0, 0)],
    centre: (8, 2),
    edge: (-4, -2),
    back_row: (8, 0),
    imbalance: (-2, -1),
    support: (3, 1),
    outpost: (4, 2),
    hanging: (-4, -2),
    locked: (-3, -2),
    runaway: [(60, 80), (40, 60), (25, 40), (10, 20)],
    mobility: (2, 2),
    king_mobility: (1, 2),
    king_diagonal: (10, 20),
    tempo: (6, 6),
};

/// Antidraughts (10x10, losing objective): material and moves are a burden.
#[rustfmt::skip]
pub const ANTI: Weights = Weights {
    man: (-100, -100),
    king: [(-320, -300), (-250, -250), (-200, -200)],
    king_unopposed: (0, 0),
    advance: [(0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    centre: (0, 0),
    edge: (0, 0),
    back_row: (0, 0),
    imbalance: (0, 0),
    support: (0, 0),
    outpost: (0, 0),
    hanging: (0, 0),
    locked: (0, 0),
    runaway: [(0, 0), (0, 0), (0, 0), (0, 0)],
    mobility: (-2, -2),
    king_mobility: (0, 0),
    king_diagonal: (0, 0),
    tempo: (6, 6),
};

/// Turkish draughts (8x8 orthogonal, men step forward and sideways).
#[rustfmt::skip]
pub const TURKISH: Weights = Weights {
    man: (100, 100),
    king: [(300, 300), (250, 250), (200, 200)],
    king_unopposed: (40, 60),
    advance: [(0, 0), (0, 0), (2, 3), (5, 7), (8, 12), (12, 18), (18, 30), (0, 0), (0, 0), (0, 0)],
    centre: (4, 2),
    edge: (-2, -1),
    back_row: (0, 0),
    imbalance: (-2, -1),
    support: (2, 1),
    outpost: (4, 2),
    hanging: (-3, -2),
    locked: (-2, -1),
    runaway: [(60, 80), (40, 60), (25, 40), (10, 20)],
    mobility: (1, 1),
    king_mobility: (1, 2),
    king_diagonal: (0, 0),
    tempo: (6, 6),
};
