//! Draughts evaluation weights, one set per board family (and per 10x10 variant whose play differs), in hundredths of a
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

/// Frisian and Frysk! (10x10, men and kings capture along rows and files
/// too, the most valuable capture compulsory, kings limited to three moves
/// in a row while the side has men). One set for both: lidraughts names
/// Frysk! `frisian` too, so a Hub engine meets Frysk! positions as Frisian.
#[rustfmt::skip]
pub const FRISIAN: Weights = Weights {
    man: (225, 56),
    king: [(983, 122), (1064, 116), (427, 97)],
    king_unopposed: (703, -118),
    advance: [(54, 8), (65, -19), (62, -26), (64, -17), (64, -18), (69, 8), (22, 24), (-178, 89), (55, -68), (0, 0)],
    centre: (0, -16),
    edge: (10, -5),
    back_row: (18, -18),
    imbalance: (1, -7),
    support: (-30, -11),
    outpost: (9, -37),
    hanging: (-14, -15),
    locked: (2, 64),
    runaway: [(1115, 17), (978, -124), (531, -57), (289, -48)],
    mobility: (-8, 5),
    king_mobility: (17, -2),
    king_diagonal: (204, 0),
    tempo: (-3, 2),
};

/// Killer draughts (international with the killer rule: a king that takes
/// a king last stops right behind it, so kings are easier to catch).
#[rustfmt::skip]
pub const KILLER: Weights = Weights {
    man: (151, 101),
    king: [(407, 264), (718, 209), (480, 242)],
    king_unopposed: (127, 24),
    advance: [(75, 27), (61, -26), (64, -25), (53, -20), (49, -8), (72, -14), (-82, 51), (-71, 63), (-144, 101), (0, 0)],
    centre: (2, 14),
    edge: (-5, -17),
    back_row: (-23, -36),
    imbalance: (-3, -8),
    support: (-42, 21),
    outpost: (42, -45),
    hanging: (-34, 27),
    locked: (18, 0),
    runaway: [(587, -13), (353, -21), (342, -64), (-19, 2)],
    mobility: (7, -5),
    king_mobility: (22, -1),
    king_diagonal: (-86, -3),
    tempo: (1, 7),
};

/// Breakthrough (international board; the first king wins): only the race
/// to the crown row counts, so king terms are never reached.
#[rustfmt::skip]
pub const BREAKTHROUGH: Weights = Weights {
    man: (8, 219),
    king: [(450, 227), (265, 162), (427, 97)],
    king_unopposed: (170, -13),
    advance: [(4, -24), (15, 22), (20, 31), (29, 15), (23, 33), (18, 25), (-42, 83), (87, -4), (48, 31), (0, 0)],
    centre: (-22, 48),
    edge: (0, -27),
    back_row: (17, 33),
    imbalance: (2, -13),
    support: (2, 8),
    outpost: (-93, -57),
    hanging: (9, 28),
    locked: (10, 14),
    runaway: [(-16, 257), (-76, 344), (339, -27), (371, -201)],
    mobility: (1, 0),
    king_mobility: (49, -4),
    king_diagonal: (79, 14),
    tempo: (0, 8),
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
