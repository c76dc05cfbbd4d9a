//! The option table: every option Crown has, each declared once, in the
//! order `uci` lists them.
//!
//! An entry is a `static` [`Spec`] named for the engine code that reads it
//! (`settings.int(&MULTI_PV)`); [`OPTIONS`] lists them all. From the entry
//! alone come the UCI `option` line, the Hub `param` line (with the value
//! in force), the `crown dxp` flag, the parsing of `setoption` and
//! `set-param`, the value the settings start with, and the change it makes
//! ([`Spec::apply`], a method of the session, when setting it does more
//! than record the value). Fields an entry leaves out are those of
//! [`Spec::NEW`].

use super::{Flag, Games, Kind, Spec, DEFAULT_NET, NO_BOOK, NO_PATH};
use crate::engine::Session;
use crate::search::level::{Scale, DRAUGHTS_MAX_ELO, MAX_SKILL, MIN_ELO};

/// Largest hash table, in MiB.
pub const MAX_HASH: i64 = 1 << 20;
/// Largest thread count.
pub const MAX_THREADS: i64 = 1024;
/// Largest `Seed`.
pub const MAX_SEED: i64 = (1 << 31) - 1;

/// Declares each entry as a `static` and lists them all in [`OPTIONS`], so
/// that an option is written down once.
macro_rules! table {
    ($($(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $id:ident = $spec:expr;)*) => {
        $(
            $(#[doc = $doc])*
            $(#[cfg($cfg)])?
            pub static $id: Spec = $spec;
        )*

        /// Every option, in the order `uci` prints them.
        pub static OPTIONS: &[&Spec] = &[$($(#[cfg($cfg)])? &$id,)*];
    };
}

table! {
    /// `Hash` (Hub `tt-size`): the transposition table in MiB; setting it
    /// empties the table.
    HASH = Spec {
        name: "Hash",
        hub: Some("tt-size"),
        about: "Transposition table size in MB.",
        kind: Kind::Spin { default: 16, min: 1, max: MAX_HASH },
        // A DamExchange engine has no GUI to size its table.
        flag: Some(Flag { long: "hash", value_name: Some("MB"), default: Some("64"), ..Flag::NEW }),
        apply: Some(Session::resize_table),
        ..Spec::NEW
    };
    /// `Threads` (Hub `threads`): search threads, started when it is set.
    THREADS = Spec {
        name: "Threads",
        hub: Some("threads"),
        about: "Search threads.",
        kind: Kind::Spin { default: 1, min: 1, max: MAX_THREADS },
        flag: Some(Flag { long: "threads", ..Flag::NEW }),
        apply: Some(Session::restart_threads),
        ..Spec::NEW
    };
    /// `MultiPV`: principal variations to report.
    MULTI_PV = Spec {
        name: "MultiPV",
        about: "Principal variations to report.",
        kind: Kind::Spin { default: 1, min: 1, max: 256 },
        ..Spec::NEW
    };
    /// `Ponder` (Hub `ponder`): the GUI may ask for pondering.
    PONDER = Spec {
        name: "Ponder",
        hub: Some("ponder"),
        about: "Whether the GUI may ask for pondering.",
        kind: Kind::Check { default: false },
        ..Spec::NEW
    };
    /// `UCI_Chess960`: Chess960 castling notation, from the next position
    /// set up on (the position at hand keeps its notation, as in Stockfish:
    /// switched to standard notation, a Chess960 position with a king on b1
    /// would write its castling `b1c1` like the king's step, and its rights
    /// as a FEN Crown cannot read back).
    CHESS960 = Spec {
        name: "UCI_Chess960",
        about: "Chess960 castling notation from the next position on.",
        games: Games::Chess,
        kind: Kind::Check { default: false },
        ..Spec::NEW
    };
    /// `UCI_ShowWDL`: win/draw/loss estimates in info lines.
    SHOW_WDL = Spec {
        name: "UCI_ShowWDL",
        about: "Win/draw/loss estimates in info lines.",
        games: Games::Chess,
        kind: Kind::Check { default: false },
        ..Spec::NEW
    };
    /// `Move Overhead`: milliseconds kept in reserve per move.
    MOVE_OVERHEAD = Spec {
        name: "Move Overhead",
        about: "Milliseconds kept in reserve per move.",
        kind: Kind::Spin { default: 10, min: 0, max: 5000 },
        ..Spec::NEW
    };
    /// `Clear Hash`: empties the transposition table.
    CLEAR_HASH = Spec {
        name: "Clear Hash",
        about: "Empties the transposition table.",
        kind: Kind::Button,
        apply: Some(Session::clear_table),
        ..Spec::NEW
    };
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` (else `Skill Level`
    /// applies), as in Stockfish.
    LIMIT_STRENGTH = Spec {
        name: "UCI_LimitStrength",
        about: "Play at the level UCI_Elo (else at Skill Level).",
        kind: Kind::Check { default: false },
        ..Spec::NEW
    };
    /// `UCI_Elo` (Hub `elo`, `crown dxp --elo`): the nominal Elo of the
    /// level. The range (and the default) stops at the game's strongest
    /// level; a value outside it is clamped, and said so, as GUIs expect
    /// (`crown dxp` refuses it). Hub and DXP have no `UCI_LimitStrength`:
    /// setting `elo` plays at that Elo.
    ELO = Spec {
        name: "UCI_Elo",
        hub: Some("elo"),
        about: "Play at this nominal Elo (1000 to the game's strongest level: 2400 in chess, \
                2800 in draughts; see docs/levels.md).",
        // The widest game's range; each game's own is `Spec::kind_in`.
        kind: Kind::Spin { default: DRAUGHTS_MAX_ELO, min: MIN_ELO, max: DRAUGHTS_MAX_ELO },
        top: Some(Scale::max_elo),
        clamp: true,
        also: Some((&LIMIT_STRENGTH, "true")),
        flag: Some(Flag { long: "elo", conflicts_with: Some("level"), ..Flag::NEW }),
        ..Spec::NEW
    };
    /// `Skill Level` (Hub `level`, `crown dxp --level`): 0..=20, 20 full
    /// strength. Setting `level` over Hub plays at that skill level.
    SKILL = Spec {
        name: "Skill Level",
        hub: Some("level"),
        about: "Play at this skill level (0..=20; 20 is full strength).",
        kind: Kind::Spin { default: MAX_SKILL, min: 0, max: MAX_SKILL },
        also: Some((&LIMIT_STRENGTH, "false")),
        flag: Some(Flag { long: "level", ..Flag::NEW }),
        ..Spec::NEW
    };
    /// `Seed` (Hub `seed`): seed of the level's random choices (0: from
    /// the clock).
    SEED = Spec {
        name: "Seed",
        hub: Some("seed"),
        about: "Seed of the level's random choices (0: from the clock).",
        kind: Kind::Spin { default: 0, min: 0, max: MAX_SEED },
        flag: Some(Flag { long: "seed", ..Flag::NEW }),
        ..Spec::NEW
    };
    /// `SyzygyPath` (Hub `egtb`, as `crown hub --egtb`): the endgame tables
    /// of the game played: in chess the Syzygy tables of these
    /// `:`-separated directories, in draughts the root of Crown's tables
    /// ([`NO_PATH`] or empty: none). A path that names no directory is
    /// refused and the tables in use stay.
    TABLES_PATH = Spec {
        name: "SyzygyPath",
        hub: Some("egtb"),
        about: "Endgame tables: Syzygy directories (chess) or Crown's table root (draughts).",
        kind: Kind::String { default: NO_PATH },
        apply: Some(Session::set_tables_path),
        ..Spec::NEW
    };
    /// `EvalFile` (Hub `eval-file`, `crown dxp --eval-file`): the learned
    /// evaluations, see `engine/learned.rs`.
    EVAL_FILE = Spec {
        name: "EvalFile",
        hub: Some("eval-file"),
        about: "The evaluation: `<embedded>` (the learned evaluations in the binary), \
                `<none>` (the hand-set ones) or a file: a chess network, or a pattern file of \
                `crown-tune patterns` (it replaces the patterns of its own variant).",
        kind: Kind::String { default: DEFAULT_NET },
        flag: Some(Flag { long: "eval-file", value_name: Some("FILE"), ..Flag::NEW }),
        apply: Some(Session::load_learned),
        ..Spec::NEW
    };
    /// `BookFile` (Hub `book`, `crown dxp --book`): play the moves of this
    /// opening book (`crown book build`) where it has the position
    /// ([`NO_BOOK`]: none).
    BOOK_FILE = Spec {
        name: "BookFile",
        hub: Some("book"),
        about: "Play the moves of this opening book (`crown book build`) while the game is in \
                it; a damaged or foreign file is refused with a message and the engine plays \
                without a book.",
        kind: Kind::String { default: NO_BOOK },
        flag: Some(Flag { long: "book", value_name: Some("FILE"), fatal: false, ..Flag::NEW }),
        apply: Some(Session::load_book),
        ..Spec::NEW
    };
    /// `SyzygyProbeDepth`: smallest remaining depth for a table probe at
    /// the piece limit.
    PROBE_DEPTH = Spec {
        name: "SyzygyProbeDepth",
        about: "Smallest remaining depth for a table probe at the piece limit.",
        games: Games::Chess,
        kind: Kind::Spin { default: 1, min: 1, max: 100 },
        ..Spec::NEW
    };
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws.
    PROBE_50_MOVE_RULE = Spec {
        name: "Syzygy50MoveRule",
        about: "Whether cursed wins and blessed losses count as draws.",
        games: Games::Chess,
        kind: Kind::Check { default: true },
        ..Spec::NEW
    };
    /// `SyzygyProbeLimit`: most pieces of a probed position (0: no probes).
    PROBE_LIMIT = Spec {
        name: "SyzygyProbeLimit",
        about: "Most pieces of a probed position (0: no probes).",
        games: Games::Chess,
        kind: Kind::Spin { default: 7, min: 0, max: 7 },
        ..Spec::NEW
    };
    /// A test-only option (unit-test builds only): its entry is all that
    /// `protocol/option_tests.rs` needs to find it in the UCI and Hub
    /// handshakes and the `crown dxp` flags, set it over each protocol and
    /// see it applied.
    #[cfg(test)]
    TEST_OPTION = Spec {
        name: "Test Option",
        hub: Some("test-option"),
        about: "A test-only option.",
        kind: Kind::Spin { default: 3, min: 0, max: 9 },
        flag: Some(Flag { long: "test-option", ..Flag::NEW }),
        apply: Some(|_, value| Ok(vec![format!("test option applied: {value}")])),
        ..Spec::NEW
    };
}
