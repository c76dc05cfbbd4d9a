//! The game abstraction: what the search, perft, the match runner and the
//! protocols need to know about a board game, and nothing more.
//!
//! Every playable game (chess, each draughts variant) is one position type that
//! implements [`Game`]. Code that runs per node (search, perft, evaluation) is
//! generic over `G: Game` and monomorphised; code that runs per command matches
//! once on the [`Variant`] enum and then calls the generic code.
//!
//! Invariants every implementation keeps:
//! * `generate` writes exactly the strictly legal moves, each once (draughts
//!   captures with the same from, to and captured set are one move).
//! * `play` is only called with a move from the current legal list.
//! * No legal move means the side to move has lost (chess: checkmate) unless
//!   [`Game::no_move_result`] says otherwise (chess stalemate, antidraughts).
//! * No method panics on any input: text parsers return typed errors.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// The two players. In draughts `White` is the side that the PDN and Hub
/// notations call white (`W`), whatever colour the variant moves first with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// White (chess), white / light pieces (draughts).
    White,
    /// Black (chess), black / dark pieces (draughts).
    Black,
}

impl Side {
    /// Both sides, white first.
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    /// The opponent.
    #[inline]
    pub const fn flip(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// 0 for white, 1 for black: an index into per-side tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "white",
            Side::Black => "black",
        })
    }
}

/// Why a game ended in a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    /// Chess: the side to move has no legal move and is not in check.
    Stalemate,
    /// The same position (same side to move) occurred a third time.
    Repetition,
    /// Chess fifty-move rule, or a draughts variant's counting rule
    /// (international: 25 king moves each, the 16- and 5-move endgame rules).
    MoveRule,
    /// Neither side can win (chess: K v K, K+minor v K, K+B v K+B same colour).
    InsufficientMaterial,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The given side won.
    Win(Side),
    /// Drawn, with the rule that drew it.
    Draw(DrawReason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(Side::White) => f.write_str("1-0"),
            Outcome::Win(Side::Black) => f.write_str("0-1"),
            Outcome::Draw(_) => f.write_str("1/2-1/2"),
        }
    }
}

/// The result of a finished game as a record keeps it: who won, not why
/// ([`Outcome`] says why when the rules ended it). The match runner, its
/// game files and the tuner's training records share it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// A win for `side`.
    pub const fn win_for(side: Side) -> GameResult {
        match side {
            Side::White => GameResult::WhiteWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// The PGN result text (`1-0`, `0-1`, `1/2-1/2`).
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The PDN result text (`2-0`, `0-2`, `1-1`).
    pub fn pdn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "2-0",
            GameResult::BlackWins => "0-2",
            GameResult::Draw => "1-1",
        }
    }
}

/// The result for the side to move when it has no legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoMoveResult {
    /// The side to move has lost (checkmate, blocked or no pieces in draughts).
    Loss,
    /// A draw (stalemate).
    Draw,
    /// The side to move has won (antidraughts).
    Win,
}

/// A fixed-capacity list of moves, filled by a move generator.
///
/// The capacity is chosen per game so that no legal position can overflow it
/// (chess: at most 218 legal moves; draughts: see each variant). Pushing past
/// the capacity is a generator bug; it is caught by a debug assertion and the
/// move is dropped in release builds rather than corrupting memory.
#[derive(Clone)]
pub struct MoveList<M, const N: usize> {
    moves: [M; N],
    len: usize,
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    #[inline]
    fn default() -> Self {
        MoveList { moves: [M::default(); N], len: 0 }
    }
}

impl<M: Copy, const N: usize> MoveList<M, N> {
    /// Appends a move.
    #[inline]
    pub fn push(&mut self, mv: M) {
        debug_assert!(self.len < N, "move list overflow");
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Shortens the list to `len` moves (no-op when already shorter).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }
}

impl<M, const N: usize> Deref for MoveList<M, N> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        &self.moves[..self.len]
    }
}

impl<M, const N: usize> DerefMut for MoveList<M, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }
}

impl<M: fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// A board game position: rules only, no search and no evaluation.
///
/// Implemented on the position type itself; `Display` draws the board (the UCI
/// `d` command). Copy-make: the search copies the
/// position and calls [`Game::play`] on the copy.
pub trait Game: Clone + Send + Sync + fmt::Debug + fmt::Display + 'static {
    /// A move. Chess: from, to and promotion in 16 bits. Draughts: the bitset
    /// of from, to and captured squares.
    type Move: Copy + Eq + Default + fmt::Debug + Send + Sync + 'static;
    /// The move list the generator fills (capacity chosen per game).
    type MoveList: Default + Clone + Deref<Target = [Self::Move]> + DerefMut + Send + Sync;
    /// Typed error for position text (FEN / PDN FEN) that cannot be read or
    /// describes an impossible position.
    type PositionError: std::error::Error + Send + Sync + 'static;
    /// Typed error for move text that is malformed or not a legal move.
    type MoveError: std::error::Error + Send + Sync + 'static;

    /// Whether passing the turn (null-move pruning) is a sound idea in this
    /// game. Chess: yes outside zugzwang-prone endings. Draughts: no.
    const NULL_MOVE: bool = false;
    /// Whether capturing is compulsory (draughts): quiescence search may not
    /// stand pat while a capture is available.
    const FORCED_CAPTURES: bool = false;
    /// Size of per-move history tables indexed by [`Game::history_index`].
    const HISTORY_SIZE: usize;
    /// How continuation history keys an earlier move: its history index
    /// modulo this. Chess keeps all of it (piece and square); draughts
    /// keeps the destination square (`from * 64 + to`, modulo 64), since
    /// a full from-to pair squared would be a 33 MB table per thread.
    const CONTINUATION_KEYS: usize;

    /// The standard start position of `variant`. For Chess960 the standard
    /// chess array (position 518) in Chess960 mode.
    fn start(variant: Variant) -> Self;
    /// Reads a position from FEN (chess: FEN, X-FEN or Shredder-FEN; draughts:
    /// PDN FEN). `variant` fixes the rules (and for chess the castling mode).
    fn from_fen(text: &str, variant: Variant) -> Result<Self, Self::PositionError>;
    /// Writes the position as FEN in the format `from_fen` reads back.
    fn to_fen(&self) -> String;
    /// The variant whose rules this position follows.
    fn variant(&self) -> Variant;

    /// The side to move.
    fn side_to_move(&self) -> Side;
    /// Zobrist key of the position (pieces, side to move, castling and en
    /// passant rights; never the move counters).
    fn hash(&self) -> u64;
    /// The key the position will have after `mv`, or a close guess, cheaply
    /// and before the move is played: the search prefetches that table
    /// entry while it still decides about the move.
    fn hash_after(&self, mv: Self::Move) -> u64;

    /// Every strictly legal move, written into `list` (which is cleared).
    fn generate(&self, list: &mut Self::MoveList);
    /// The legal moves that quiescence search follows: chess captures and
    /// promotions (all evasions when in check); draughts the forced captures
    /// (empty when no capture is available).
    fn generate_tactical(&self, list: &mut Self::MoveList);
    /// Plays a legal move.
    fn play(&mut self, mv: Self::Move);
    /// Passes the turn (only called when [`Game::NULL_MOVE`] is true and the
    /// side to move is not in check).
    fn play_null(&mut self) {}

    /// Whether the side to move is in check (chess); always false in draughts.
    #[inline]
    fn in_check(&self) -> bool {
        false
    }
    /// Whether `mv` captures or promotes (never reduced or pruned as quiet).
    fn is_tactical(&self, mv: Self::Move) -> bool;
    /// Plies since the last irreversible move (capture, pawn or man move,
    /// castling-right change): repetitions can only reach back this far.
    fn reversible_plies(&self) -> u32;
    /// A draw by rule that does not need the game history: the fifty-move
    /// rule, insufficient material, the draughts counting rules.
    fn rule_draw(&self) -> bool;
    /// What it means for the side to move to have no legal move.
    fn no_move_result(&self) -> NoMoveResult;

    /// A compact key of a move for the transposition table. It need not be
    /// unique; a stored key is re-validated against the legal list with
    /// [`Game::find_move`], so a collision can never yield an illegal move.
    fn move_key(mv: Self::Move) -> u16;
    /// Index of `mv` (played from this position) into history tables,
    /// below [`Game::HISTORY_SIZE`]: chess piece and target square, draughts
    /// from and to squares.
    fn history_index(&self, mv: Self::Move) -> usize;

    /// Parses move text in the game's protocol notation (chess UCI move text,
    /// draughts PDN / Hub) and returns the legal move it names.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;
    /// Writes a legal move in the game's protocol notation (chess: UCI text in
    /// the position's castling mode; draughts: PDN, `32-28` / `28x19`).
    fn move_text(&self, mv: Self::Move) -> String;

    /// A legal move with every square it touches, for protocols that want
    /// no ambiguity (draughts: from, to and each captured square, as Hub
    /// writes it). Defaults to [`Game::move_text`].
    fn full_move_text(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    /// The number of legal moves (perft's last ply). A game may override this
    /// with a faster count that does not build the moves.
    fn count_legal(&self) -> u64 {
        let mut list = Self::MoveList::default();
        self.generate(&mut list);
        list.len() as u64
    }

    /// The legal move whose [`Game::move_key`] is `key`, if there is one.
    fn find_move(&self, key: u16) -> Option<Self::Move> {
        let mut list = Self::MoveList::default();
        self.generate(&mut list);
        list.iter().copied().find(|&mv| Self::move_key(mv) == key)
    }

    /// The outcome of the game at this position, or `None` when it goes on.
    /// `history` holds the keys of earlier positions of the game, oldest
    /// first (not including this one); three occurrences draw.
    fn outcome(&self, history: &[u64]) -> Option<Outcome> {
        let mut list = Self::MoveList::default();
        self.generate(&mut list);
        let stm = self.side_to_move();
        if list.is_empty() {
            return Some(match self.no_move_result() {
                NoMoveResult::Loss => Outcome::Win(stm.flip()),
                NoMoveResult::Win => Outcome::Win(stm),
                NoMoveResult::Draw => Outcome::Draw(DrawReason::Stalemate),
            });
        }
        if self.rule_draw() {
            return Some(Outcome::Draw(DrawReason::MoveRule));
        }
        let key = self.hash();
        let window = (self.reversible_plies() as usize).min(history.len());
        let seen = history[history.len() - window..].iter().filter(|&&k| k == key).count();
        if seen >= 2 {
            return Some(Outcome::Draw(DrawReason::Repetition));
        }
        None
    }
}

/// Every game Crown plays: the variant switch matched once per command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Orthodox chess.
    Chess,
    /// Fischer random chess (castling king-takes-rook in UCI text).
    Chess960,
    /// International draughts, 10x10 (FMJD rules).
    International,
    /// Brazilian draughts: international rules on 8x8.
    Brazilian,
    /// Russian draughts (shashki), 8x8.
    Russian,
    /// English draughts / American checkers, 8x8.
    English,
    /// Italian draughts, 8x8.
    Italian,
    /// Turkish draughts, 8x8 orthogonal.
    Turkish,
    /// Antidraughts (losing draughts) on 10x10 with international move rules.
    Antidraughts,
    /// Killer draughts: international rules, a king that takes a king last
    /// stops right behind it.
    Killer,
    /// Breakthrough: international rules, the first king wins.
    Breakthrough,
    /// Frisian draughts: orthogonal captures, capture by value, king limit.
    Frisian,
    /// Frysk!: Frisian rules from five men each.
    Frysk,
}

impl Variant {
    /// All variants, in the order Crown lists them.
    pub const ALL: [Variant; 13] = [
        Variant::Chess,
        Variant::Chess960,
        Variant::International,
        Variant::Brazilian,
        Variant::Russian,
        Variant::English,
        Variant::Italian,
        Variant::Turkish,
        Variant::Antidraughts,
        Variant::Killer,
        Variant::Breakthrough,
        Variant::Frisian,
        Variant::Frysk,
    ];

    /// The canonical lowercase name (used on the command line and in Hub).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Chess960 => "chess960",
            Variant::International => "international",
            Variant::Brazilian => "brazilian",
            Variant::Russian => "russian",
            Variant::English => "english",
            Variant::Italian => "italian",
            Variant::Turkish => "turkish",
            Variant::Antidraughts => "antidraughts",
            Variant::Killer => "killer",
            Variant::Breakthrough => "breakthrough",
            Variant::Frisian => "frisian",
            Variant::Frysk => "frysk",
        }
    }

    /// Whether this is chess or Chess960 (as opposed to a draughts variant).
    pub const fn is_chess(self) -> bool {
        matches!(self, Variant::Chess | Variant::Chess960)
    }

    /// Parses a variant name, case-insensitively, including the names other
    /// programs use: `normal` and `standard` (Scan, Hub, pydraughts) for
    /// international, `losing` for antidraughts, `bt` (Scan) for
    /// breakthrough, `frysk!` (lidraughts) for frysk, `fischerandom` for 960.
    /// The same as [`str::parse`] (the `FromStr` impl) without the error.
    pub fn parse(text: &str) -> Option<Variant> {
        let lower = text.trim().to_ascii_lowercase();
        Some(match lower.as_str() {
            "chess" | "orthodox" => Variant::Chess,
            "chess960" | "960" | "fischerandom" | "fischerrandom" | "frc" => Variant::Chess960,
            "international" | "normal" | "standard" | "draughts" | "10x10" => {
                Variant::International
            }
            "brazilian" => Variant::Brazilian,
            "russian" => Variant::Russian,
            "english" | "american" | "checkers" => Variant::English,
            "italian" => Variant::Italian,
            "turkish" => Variant::Turkish,
            "antidraughts" | "losing" | "giveaway" | "antidraughts10x10" => Variant::Antidraughts,
            "killer" => Variant::Killer,
            "breakthrough" | "bt" => Variant::Breakthrough,
            "frisian" => Variant::Frisian,
            "frysk" | "frysk!" => Variant::Frysk,
            _ => return None,
        })
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that [`Variant::parse`] does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown variant '{}' (known: ", self.0)?;
        for (i, v) in Variant::ALL.iter().enumerate() {
            f.write_str(if i == 0 { "" } else { ", " })?;
            f.write_str(v.name())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for UnknownVariant {}

/// `"frc".parse::<Variant>()`: every name and alias of [`Variant::parse`],
/// with an error that names the text and the known variants.
impl std::str::FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        Variant::parse(text).ok_or_else(|| UnknownVariant(text.to_string()))
    }
}

/// The variant switch: the one place where a [`Variant`] turns into a static
/// type for generic code. Every variant has an arm, so it cannot fail.
///
/// * `for_variant!(variant, G => body)`: `body` with `G` bound to the
///   variant's position type (chess and Chess960 share `chess::Position`).
/// * `for_variant!(variant, chess => chess_body, R => draughts_body)`:
///   `chess_body` for chess and Chess960, else `draughts_body` with `R` bound
///   to the variant's draughts rules type.
///
/// A test (`tests/layers.rs`) fails when a second variant-to-type switch
/// appears anywhere in the sources.
#[macro_export]
macro_rules! for_variant {
    ($variant:expr, chess => $chess:expr, $R:ident => $draughts:expr) => {{
        use $crate::draughts::rules as __rules;
        match $variant {
            $crate::game::Variant::Chess | $crate::game::Variant::Chess960 => $chess,
            $crate::game::Variant::International => {
                type $R = __rules::InternationalRules;
                $draughts
            }
            $crate::game::Variant::Brazilian => {
                type $R = __rules::BrazilianRules;
                $draughts
            }
            $crate::game::Variant::Russian => {
                type $R = __rules::RussianRules;
                $draughts
            }
            $crate::game::Variant::English => {
                type $R = __rules::EnglishRules;
                $draughts
            }
            $crate::game::Variant::Italian => {
                type $R = __rules::ItalianRules;
                $draughts
            }
            $crate::game::Variant::Turkish => {
                type $R = __rules::TurkishRules;
                $draughts
            }
            $crate::game::Variant::Antidraughts => {
                type $R = __rules::AntidraughtsRules;
                $draughts
            }
            $crate::game::Variant::Killer => {
                type $R = __rules::KillerRules;
                $draughts
            }
            $crate::game::Variant::Breakthrough => {
                type $R = __rules::BreakthroughRules;
                $draughts
            }
            $crate::game::Variant::Frisian => {
                type $R = __rules::FrisianRules;
                $draughts
            }
            $crate::game::Variant::Frysk => {
                type $R = __rules::FryskRules;
                $draughts
            }
        }
    }};
    ($variant:expr, $G:ident => $body:expr) => {
        $crate::for_variant!($variant, chess => {
            type $G = $crate::chess::Position;
            $body
        }, __CrownRules => {
            type $G = $crate::draughts::Position<__CrownRules>;
            $body
        })
    };
}

/// The positions of a deterministic pseudo-random game from `start`: `start`
/// itself, then the position after each of up to `plies` uniformly drawn
/// legal moves (fewer when the game ends). `seed` picks the game; the draw is
/// [`crate::rng::xorshift64`], so the same seed gives the same game everywhere
/// (benches, tests).
pub fn random_playout<G: Game>(start: G, plies: usize, seed: u64) -> Vec<G> {
    let mut state = if seed == 0 { 0x9E37_79B9_7F4A_7C15 } else { seed };
    let mut pos = start;
    let mut positions = vec![pos.clone()];
    for _ in 0..plies {
        let mut list = G::MoveList::default();
        pos.generate(&mut list);
        if list.is_empty() {
            break;
        }
        let random = crate::rng::xorshift64(&mut state);
        pos.play(list[(random % list.len() as u64) as usize]);
        positions.push(pos.clone());
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::parse(v.name()), Some(v));
            assert_eq!(Variant::parse(&v.name().to_uppercase()), Some(v));
        }
        assert_eq!(Variant::parse("normal"), Some(Variant::International));
        assert_eq!(Variant::parse("losing"), Some(Variant::Antidraughts));
        assert_eq!(Variant::parse("frisian"), Some(Variant::Frisian));
        assert_eq!(Variant::parse("bt"), Some(Variant::Breakthrough));
        assert_eq!(Variant::parse("Frysk!"), Some(Variant::Frysk));
        assert_eq!(Variant::parse("frisia"), None);
        assert_eq!(Variant::parse(""), None);
        // FromStr: the same names, and an error naming the text.
        for (text, v) in [
            ("Chess960", Variant::Chess960),
            ("fischerandom", Variant::Chess960),
            ("frc", Variant::Chess960),
            ("standard", Variant::International),
            ("american", Variant::English),
            ("checkers", Variant::English),
            ("frysk!", Variant::Frysk),
        ] {
            assert_eq!(text.parse::<Variant>(), Ok(v));
        }
        let error = "frisia".parse::<Variant>().unwrap_err().to_string();
        assert!(error.starts_with("unknown variant 'frisia' (known: chess, chess960,"), "{error}");
        assert!(error.ends_with("frisian, frysk)"), "{error}");
        assert_eq!(GameResult::win_for(Side::Black), GameResult::BlackWins);
        assert_eq!((GameResult::Draw.pgn(), GameResult::Draw.pdn()), ("1/2-1/2", "1-1"));
    }

    #[test]
    fn move_list_never_overflows_in_release() {
        let mut list: MoveList<u16, 4> = MoveList::default();
        for i in 0..4 {
            list.push(i);
        }
        assert_eq!(&*list, &[0, 1, 2, 3]);
        list.truncate(2);
        assert_eq!(list.len(), 2);
        list.clear();
        assert!(list.is_empty());
    }
}
