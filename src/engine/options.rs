//! Engine options, declared once in [`OPTIONS`] and rendered for each
//! protocol (UCI `option` lines, Hub `param` lines).
//!
//! Setting an option is a two-step affair: [`parse`] validates the
//! text and returns the [`Change`] to apply, leaving the settings untouched
//! when the value is refused, so a bad `setoption` changes nothing.

use crate::search::level::{Level, Scale, DRAUGHTS_MAX_ELO, MAX_SKILL, MIN_ELO};
use crate::search::params;
use std::fmt;

/// The type and range of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Spin {
        /// Default value.
        default: i64,
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// An action without a value.
    Button,
    /// A line of text (a path).
    String {
        /// Default value.
        default: &'static str,
    },
}

/// One option as the table declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The UCI name (case-insensitive on input).
    pub name: &'static str,
    /// The Hub parameter name, if Hub offers it.
    pub hub: Option<&'static str>,
    /// Type and range.
    pub kind: Kind,
}

impl Spec {
    /// The type and range in a game of `scale`: `UCI_Elo` stops at the
    /// scale's strongest level (and defaults to it, as in Stockfish).
    pub fn kind_in(&self, scale: Scale) -> Kind {
        match self.kind {
            Kind::Spin { min, .. } if self.name == "UCI_Elo" => {
                Kind::Spin { default: scale.max_elo(), min, max: scale.max_elo() }
            }
            kind => kind,
        }
    }
}

/// Largest hash table, in MiB.
pub const MAX_HASH: i64 = 1 << 20;
/// Largest thread count.
pub const MAX_THREADS: i64 = 1024;
/// Largest `Seed`.
pub const MAX_SEED: i64 = (1 << 31) - 1;

/// Every option Crown has, in the order `uci` prints them.
pub const OPTIONS: &[Spec] = &[
    Spec {
        name: "Hash",
        hub: Some("tt-size"),
        kind: Kind::Spin { default: 16, min: 1, max: MAX_HASH },
    },
    Spec {
        name: "Threads",
        hub: Some("threads"),
        kind: Kind::Spin { default: 1, min: 1, max: MAX_THREADS },
    },
    Spec { name: "MultiPV", hub: None, kind: Kind::Spin { default: 1, min: 1, max: 256 } },
    Spec { name: "Ponder", hub: Some("ponder"), kind: Kind::Check { default: false } },
    Spec { name: "UCI_Chess960", hub: None, kind: Kind::Check { default: false } },
    Spec { name: "UCI_ShowWDL", hub: None, kind: Kind::Check { default: false } },
    Spec { name: "Move Overhead", hub: None, kind: Kind::Spin { default: 10, min: 0, max: 5000 } },
    Spec { name: "Clear Hash", hub: None, kind: Kind::Button },
    Spec { name: "UCI_LimitStrength", hub: None, kind: Kind::Check { default: false } },
    // The widest game's range; each game's own is `Spec::kind_in`.
    Spec {
        name: "UCI_Elo",
        hub: Some("elo"),
        kind: Kind::Spin { default: DRAUGHTS_MAX_ELO, min: MIN_ELO, max: DRAUGHTS_MAX_ELO },
    },
    Spec {
        name: "Skill Level",
        hub: Some("level"),
        kind: Kind::Spin { default: MAX_SKILL, min: 0, max: MAX_SKILL },
    },
    Spec {
        name: "Seed",
        hub: Some("seed"),
        kind: Kind::Spin { default: 0, min: 0, max: MAX_SEED },
    },
    // The endgame tables of the game played: Syzygy in chess, Crown's own
    // tables in draughts (Hub `egtb`, as `crown hub --egtb`).
    Spec { name: "SyzygyPath", hub: Some("egtb"), kind: Kind::String { default: NO_PATH } },
    Spec { name: "EvalFile", hub: Some("eval-file"), kind: Kind::String { default: DEFAULT_NET } },
    Spec { name: "BookFile", hub: Some("book"), kind: Kind::String { default: NO_BOOK } },
    Spec { name: "SyzygyProbeDepth", hub: None, kind: Kind::Spin { default: 1, min: 1, max: 100 } },
    Spec { name: "Syzygy50MoveRule", hub: None, kind: Kind::Check { default: true } },
    Spec { name: "SyzygyProbeLimit", hub: None, kind: Kind::Spin { default: 7, min: 0, max: 7 } },
];

/// The `EvalFile` of the hand-set evaluation (no network).
pub const NO_NET: &str = "<none>";
/// The `EvalFile` of the network embedded in the binary.
pub const EMBEDDED_NET: &str = "<embedded>";
/// The `EvalFile` a session starts with: the embedded network when it is
/// the default evaluation ([`crate::eval::nnue::NETWORK_BY_DEFAULT`]).
pub const DEFAULT_NET: &str =
    if crate::eval::nnue::NETWORK_BY_DEFAULT { EMBEDDED_NET } else { NO_NET };

/// The `BookFile` of no book (the default).
pub const NO_BOOK: &str = "<none>";

/// The `SyzygyPath` that loads no tables (Stockfish's spelling).
pub const NO_PATH: &str = "<empty>";

/// A validated option change for the engine loop to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Resize the hash table to this many MiB.
    Hash(usize),
    /// Use this many search threads.
    Threads(usize),
    /// Report this many principal variations.
    MultiPv(usize),
    /// The GUI may ask for pondering.
    Ponder(bool),
    /// Chess960 castling notation on or off.
    Chess960(bool),
    /// Win/draw/loss estimates in info lines on or off.
    ShowWdl(bool),
    /// Milliseconds kept in reserve per move.
    MoveOverhead(u64),
    /// Empty the hash table.
    ClearHash,
    /// Set a search tunable (tuning builds only; see `search/params.rs`).
    SearchParam {
        /// The tunable's name as the table spells it.
        name: &'static str,
        /// Its new value, within its range.
        value: i32,
    },
    /// Switch a search step on or off (tuning builds only; see
    /// `search/params.rs`).
    SearchStep {
        /// The step.
        step: params::Step,
        /// Whether the search runs it.
        on: bool,
    },
    /// Play at the level `UCI_Elo` (true) or `Skill Level` (false).
    LimitStrength(bool),
    /// Nominal Elo of the level; `requested` holds an out-of-range value
    /// that was clamped to `elo` (the protocol says so). [`parse`] checks
    /// the widest game's range; [`Change::in_game`] the game's own.
    Elo {
        /// The Elo used.
        elo: i64,
        /// The value given, when it was outside the range.
        requested: Option<i64>,
    },
    /// Skill level 0..=20 (20: full strength).
    Skill(i64),
    /// Seed of the level's random choices (0: from the clock).
    Seed(u64),
    /// Play another game (Hub `variant`; a new engine at its start).
    Variant(crate::game::Variant),
    /// Load the endgame tables of the game played from here ([`NO_PATH`]
    /// or empty: none): in chess the Syzygy tables of these `:`-separated
    /// directories (`SyzygyPath`), in draughts the root of Crown's tables
    /// (Hub `egtb`, `crown hub --egtb`, `crown dxp --egtb`).
    TablesPath(String),
    /// Evaluate with this learned evaluation: a chess network or a
    /// draughts pattern file (of one variant) ([`NO_NET`]: the hand-set
    /// evaluations; [`EMBEDDED_NET`]: those in the binary).
    EvalFile(String),
    /// Play the moves of this opening book (`crown book build`) where it
    /// has the position ([`NO_BOOK`]: none).
    BookFile(String),
    /// Smallest remaining depth for a table probe at the piece limit.
    SyzygyProbeDepth(i32),
    /// Whether cursed wins and blessed losses count as draws.
    Syzygy50MoveRule(bool),
    /// Most pieces of a probed position (0: no probes).
    SyzygyProbeLimit(u32),
}

impl Change {
    /// The change as a game of `scale` takes it: an Elo above the game's
    /// strongest level is clamped to it, and said so.
    pub fn in_game(self, scale: Scale) -> Change {
        match self {
            Change::Elo { elo, requested } if elo > scale.max_elo() => {
                Change::Elo { elo: scale.max_elo(), requested: Some(requested.unwrap_or(elo)) }
            }
            change => change,
        }
    }

    /// The note to show the user about a value that was adjusted.
    pub fn note(&self) -> Option<String> {
        match self {
            Change::Elo { elo, requested: Some(v) } => {
                Some(format!("UCI_Elo {v} is out of range; clamped to {elo}"))
            }
            _ => None,
        }
    }
}

/// Why an option was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value is not of the option's type.
    Invalid {
        /// Option name.
        name: &'static str,
        /// The value given.
        value: String,
    },
    /// The value is outside the option's range.
    OutOfRange {
        /// Option name.
        name: &'static str,
        /// The value given.
        value: i64,
        /// Smallest accepted.
        min: i64,
        /// Largest accepted.
        max: i64,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option '{name}'"),
            OptionError::Invalid { name, value } => {
                write!(f, "invalid value '{value}' for option {name}")
            }
            OptionError::OutOfRange { name, value, min, max } => {
                write!(f, "value {value} for option {name} is outside {min}..{max}")
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// A thread count from a command line (`--threads`), checked against the
/// `Threads` option's range, for clap's `value_parser`.
pub fn threads_arg(text: &str) -> Result<usize, String> {
    count_arg("Threads", text)
}

/// A table size in MB from a command line (`--hash`), checked against the
/// `Hash` option's range, for clap's `value_parser`.
pub fn hash_arg(text: &str) -> Result<usize, String> {
    count_arg("Hash", text)
}

fn count_arg(name: &str, text: &str) -> Result<usize, String> {
    match parse(name, Some(text)) {
        Ok(Change::Threads(n) | Change::Hash(n)) => Ok(n),
        Ok(_) => Err(format!("not a {name} value")),
        Err(e) => Err(e.to_string()),
    }
}

/// Finds an option by its UCI or Hub name, ignoring case.
pub fn find(name: &str) -> Option<&'static Spec> {
    let name = name.trim();
    OPTIONS.iter().find(|s| {
        s.name.eq_ignore_ascii_case(name) || s.hub.is_some_and(|h| h.eq_ignore_ascii_case(name))
    })
}

/// Validates `value` for the option `name` and returns the change to apply.
pub fn parse(name: &str, value: Option<&str>) -> Result<Change, OptionError> {
    if params::TUNING && find(name).is_none() {
        if let Some(spec) = params::find(name) {
            return parse_search_param(spec, value);
        }
        if let Some((name, step)) = params::find_step(name) {
            let text = value.map(str::trim).unwrap_or("");
            return match text.to_ascii_lowercase().as_str() {
                "true" => Ok(Change::SearchStep { step, on: true }),
                "false" => Ok(Change::SearchStep { step, on: false }),
                _ => Err(OptionError::Invalid { name, value: text.to_string() }),
            };
        }
    }
    let spec = find(name).ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
    let text = value.map(str::trim).unwrap_or("");
    let invalid = || OptionError::Invalid { name: spec.name, value: text.to_string() };
    let int = || -> Result<i64, OptionError> {
        let Kind::Spin { min, max, .. } = spec.kind else { return Err(invalid()) };
        // Out-of-range but well-formed numbers get the range message, even
        // ones too large for i64.
        let v: i128 = text.parse().map_err(|_| invalid())?;
        if v < min as i128 || v > max as i128 {
            let value = v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
            return Err(OptionError::OutOfRange { name: spec.name, value, min, max });
        }
        Ok(v as i64)
    };
    let boolean = || match text.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(invalid()),
    };
    Ok(match spec.name {
        "Hash" => Change::Hash(int()? as usize),
        "Threads" => Change::Threads(int()? as usize),
        "MultiPV" => Change::MultiPv(int()? as usize),
        "Ponder" => Change::Ponder(boolean()?),
        "UCI_Chess960" => Change::Chess960(boolean()?),
        "UCI_ShowWDL" => Change::ShowWdl(boolean()?),
        "Move Overhead" => Change::MoveOverhead(int()? as u64),
        "Clear Hash" => Change::ClearHash,
        "UCI_LimitStrength" => Change::LimitStrength(boolean()?),
        "UCI_Elo" => match int() {
            Ok(elo) => Change::Elo { elo, requested: None },
            // Out of range: clamped (as GUIs expect), and said so.
            Err(OptionError::OutOfRange { value, min, max, .. }) => {
                Change::Elo { elo: value.clamp(min, max), requested: Some(value) }
            }
            Err(e) => return Err(e),
        },
        "Skill Level" => Change::Skill(int()?),
        "Seed" => Change::Seed(int()? as u64),
        "SyzygyPath" => {
            Change::TablesPath(if text.is_empty() { NO_PATH.into() } else { text.into() })
        }
        "EvalFile" => Change::EvalFile(if text.is_empty() { NO_NET.into() } else { text.into() }),
        "BookFile" => Change::BookFile(if text.is_empty() { NO_BOOK.into() } else { text.into() }),
        "SyzygyProbeDepth" => Change::SyzygyProbeDepth(int()? as i32),
        "Syzygy50MoveRule" => Change::Syzygy50MoveRule(boolean()?),
        "SyzygyProbeLimit" => Change::SyzygyProbeLimit(int()? as u32),
        _ => return Err(OptionError::Unknown(name.trim().to_string())),
    })
}

/// A search tunable as a UCI spin option (tuning builds).
fn parse_search_param(
    spec: &'static params::Spec,
    value: Option<&str>,
) -> Result<Change, OptionError> {
    let text = value.map(str::trim).unwrap_or("");
    let v: i128 = text
        .parse()
        .map_err(|_| OptionError::Invalid { name: spec.name, value: text.to_string() })?;
    let (min, max) = (i64::from(spec.min), i64::from(spec.max));
    if v < i128::from(min) || v > i128::from(max) {
        let value = v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        return Err(OptionError::OutOfRange { name: spec.name, value, min, max });
    }
    Ok(Change::SearchParam { name: spec.name, value: v as i32 })
}

/// The UCI options of a tuning build: one spin per search tunable, then one
/// check per switchable search step (none in other builds).
pub fn search_param_options() -> impl Iterator<Item = Spec> {
    let tunables = params::TABLE.iter().map(|s| Spec {
        name: s.name,
        hub: None,
        kind: Kind::Spin {
            default: i64::from(s.default),
            min: i64::from(s.min),
            max: i64::from(s.max),
        },
    });
    let steps = params::STEPS.iter().map(|&(name, _)| Spec {
        name,
        hub: None,
        kind: Kind::Check { default: true },
    });
    tunables.chain(steps).filter(|_| params::TUNING)
}

/// The current values of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Hash table size in MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Whether the GUI may ponder.
    pub ponder: bool,
    /// Chess960 castling notation.
    pub chess960: bool,
    /// Win/draw/loss estimates in info lines.
    pub show_wdl: bool,
    /// Milliseconds kept in reserve per move.
    pub move_overhead_ms: u64,
    /// Play at `elo` (else at `skill`).
    pub limit_strength: bool,
    /// Nominal Elo of the level when `limit_strength` is on.
    pub elo: i64,
    /// Skill level (20: full strength) when `limit_strength` is off.
    pub skill: i64,
    /// Seed of the level's random choices (0: from the clock).
    pub seed: u64,
    /// Directories of the Syzygy tables ([`NO_PATH`]: none).
    pub syzygy_path: String,
    /// Smallest remaining depth for a probe at the piece limit.
    pub syzygy_probe_depth: i32,
    /// Cursed wins and blessed losses count as draws.
    pub syzygy_50_move_rule: bool,
    /// Most pieces of a probed position.
    pub syzygy_probe_limit: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            ponder: false,
            chess960: false,
            show_wdl: false,
            move_overhead_ms: 10,
            limit_strength: false,
            elo: DRAUGHTS_MAX_ELO,
            skill: MAX_SKILL,
            seed: 0,
            syzygy_path: NO_PATH.into(),
            syzygy_probe_depth: 1,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: 7,
        }
    }
}

impl Settings {
    /// Records a change that the engine has applied successfully.
    pub fn record(&mut self, change: &Change) {
        match change {
            Change::Hash(mb) => self.hash_mb = *mb,
            Change::Threads(n) => self.threads = *n,
            Change::MultiPv(n) => self.multipv = *n,
            Change::Ponder(on) => self.ponder = *on,
            Change::Chess960(on) => self.chess960 = *on,
            Change::ShowWdl(on) => self.show_wdl = *on,
            Change::MoveOverhead(ms) => self.move_overhead_ms = *ms,
            Change::ClearHash | Change::SearchParam { .. } | Change::SearchStep { .. } => {}
            Change::LimitStrength(on) => self.limit_strength = *on,
            Change::Elo { elo, .. } => self.elo = *elo,
            Change::Skill(skill) => self.skill = *skill,
            Change::Seed(seed) => self.seed = *seed,
            Change::TablesPath(path) => self.syzygy_path.clone_from(path),
            Change::SyzygyProbeDepth(depth) => self.syzygy_probe_depth = *depth,
            Change::Syzygy50MoveRule(on) => self.syzygy_50_move_rule = *on,
            Change::SyzygyProbeLimit(limit) => self.syzygy_probe_limit = *limit,
            Change::Variant(_) | Change::EvalFile(_) | Change::BookFile(_) => {}
        }
    }

    /// The playing level these settings ask for (`None`: full strength).
    /// As in Stockfish, `UCI_LimitStrength` selects `UCI_Elo`, else
    /// `Skill Level` applies. `scale` is the game's calibration.
    pub fn level(&self, scale: Scale) -> Option<Level> {
        if self.limit_strength {
            Some(Level::from_elo(scale, self.elo))
        } else {
            Level::from_skill(scale, self.skill)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::level::CHESS_MAX_ELO;

    #[test]
    fn defaults_match_the_table() {
        let s = Settings::default();
        for spec in OPTIONS {
            if let Kind::Spin { default, min, max } = spec.kind {
                assert!(min <= default && default <= max);
            }
        }
        assert_eq!(
            find("hash").unwrap().kind,
            Kind::Spin { default: s.hash_mb as i64, min: 1, max: MAX_HASH }
        );
        assert_eq!(find("tt-size").unwrap().name, "Hash");
    }

    #[test]
    fn values_are_validated() {
        assert_eq!(parse("Hash", Some("64")), Ok(Change::Hash(64)));
        assert_eq!(parse("hash", Some(" 64 ")), Ok(Change::Hash(64)));
        assert!(matches!(parse("Hash", Some("0")), Err(OptionError::OutOfRange { .. })));
        assert!(matches!(
            parse("Hash", Some("99999999999999999999999")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(parse("Hash", Some("lots")), Err(OptionError::Invalid { .. })));
        assert!(matches!(parse("Hash", None), Err(OptionError::Invalid { .. })));
        assert_eq!(parse("Ponder", Some("TRUE")), Ok(Change::Ponder(true)));
        assert!(parse("Ponder", Some("yes")).is_err());
        assert_eq!(parse("clear hash", None), Ok(Change::ClearHash));
        assert!(matches!(parse("Style", Some("1")), Err(OptionError::Unknown(_))));
    }

    #[test]
    fn syzygy_options_are_validated_and_recorded() {
        let path = "/tables/wdl:/tables/dtz";
        assert_eq!(parse("syzygypath", Some(path)), Ok(Change::TablesPath(path.into())));
        assert_eq!(parse("SyzygyPath", None), Ok(Change::TablesPath(NO_PATH.into())));
        assert_eq!(parse("SyzygyProbeDepth", Some("12")), Ok(Change::SyzygyProbeDepth(12)));
        assert!(matches!(
            parse("SyzygyProbeDepth", Some("0")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(
            parse("SyzygyProbeLimit", Some("8")),
            Err(OptionError::OutOfRange { .. })
        ));
        assert!(matches!(parse("Syzygy50MoveRule", Some("1")), Err(OptionError::Invalid { .. })));
        let mut s = Settings::default();
        for change in [
            Change::TablesPath(path.into()),
            Change::SyzygyProbeDepth(4),
            Change::Syzygy50MoveRule(false),
            Change::SyzygyProbeLimit(5),
        ] {
            s.record(&change);
        }
        assert_eq!(
            (
                s.syzygy_path.as_str(),
                s.syzygy_probe_depth,
                s.syzygy_50_move_rule,
                s.syzygy_probe_limit
            ),
            (path, 4, false, 5)
        );
    }

    #[test]
    fn search_params_are_options_only_in_tuning_builds() {
        let name = params::TABLE[0].name;
        let options: Vec<Spec> = search_param_options().collect();
        if !params::TUNING {
            assert!(options.is_empty());
            assert!(matches!(parse(name, Some("1")), Err(OptionError::Unknown(_))));
            assert!(matches!(parse("step_nmp", Some("false")), Err(OptionError::Unknown(_))));
            return;
        }
        assert_eq!(options.len(), params::TABLE.len() + params::STEPS.len());
        for &(name, step) in params::STEPS {
            assert_eq!(parse(name, Some("false")), Ok(Change::SearchStep { step, on: false }));
            assert_eq!(parse(name, Some("True")), Ok(Change::SearchStep { step, on: true }));
            assert!(matches!(parse(name, Some("1")), Err(OptionError::Invalid { .. })));
        }
        // Every line of `crown params` is a valid setoption that changes the
        // parameter; values out of range are refused with their range.
        for line in params::spsa_lines() {
            let fields: Vec<&str> = line.split(", ").collect();
            let (min, max): (i32, i32) = (fields[3].parse().unwrap(), fields[4].parse().unwrap());
            for value in [min, max] {
                let change = parse(fields[0], Some(&value.to_string())).unwrap();
                let Change::SearchParam { name, value: v } = change else { panic!("{line}") };
                let mut p = params::Params::default();
                assert!(p.set(name, v));
                assert_eq!(p.get(fields[0]), Some(value), "{line}");
            }
            assert!(matches!(
                parse(fields[0], Some(&(max + 1).to_string())),
                Err(OptionError::OutOfRange { .. })
            ));
            assert!(matches!(parse(fields[0], Some("x")), Err(OptionError::Invalid { .. })));
        }
    }

    #[test]
    fn elo_is_clamped_with_a_note_and_levels_follow_the_settings() {
        assert_eq!(parse("UCI_Elo", Some("1500")), Ok(Change::Elo { elo: 1500, requested: None }));
        let low = parse("uci_elo", Some("500")).unwrap();
        assert_eq!(low, Change::Elo { elo: MIN_ELO, requested: Some(500) });
        assert!(low.note().unwrap().contains("clamped to 1000"));
        let high = parse("elo", Some("4000")).unwrap();
        assert_eq!(high, Change::Elo { elo: DRAUGHTS_MAX_ELO, requested: Some(4000) });
        // Each game clamps to its own strongest level, keeping what was asked.
        assert_eq!(high.clone().in_game(Scale::Draughts), high);
        let chess = high.in_game(Scale::Chess);
        assert_eq!(chess, Change::Elo { elo: CHESS_MAX_ELO, requested: Some(4000) });
        assert!(chess.note().unwrap().contains("4000 is out of range; clamped to 2200"));
        let asked = Change::Elo { elo: 2500, requested: None };
        assert_eq!(
            asked.clone().in_game(Scale::Chess),
            Change::Elo { elo: CHESS_MAX_ELO, requested: Some(2500) }
        );
        assert_eq!(asked.clone().in_game(Scale::Draughts), asked);
        let spec = find("UCI_Elo").unwrap();
        assert_eq!(
            spec.kind_in(Scale::Chess),
            Kind::Spin { default: CHESS_MAX_ELO, min: MIN_ELO, max: CHESS_MAX_ELO }
        );
        assert_eq!(spec.kind_in(Scale::Draughts), spec.kind);
        assert!(matches!(parse("UCI_Elo", Some("strong")), Err(OptionError::Invalid { .. })));
        assert!(matches!(parse("Skill Level", Some("21")), Err(OptionError::OutOfRange { .. })));

        let mut s = Settings::default();
        assert_eq!(s.level(Scale::Chess), None);
        s.record(&Change::Skill(5));
        assert_eq!(s.level(Scale::Chess), Level::from_skill(Scale::Chess, 5));
        s.record(&Change::Elo { elo: 1800, requested: None });
        assert_eq!(
            s.level(Scale::Chess),
            Level::from_skill(Scale::Chess, 5),
            "UCI_Elo needs UCI_LimitStrength"
        );
        s.record(&Change::LimitStrength(true));
        assert_eq!(s.level(Scale::Chess), Some(Level::from_elo(Scale::Chess, 1800)));
        assert_eq!(s.level(Scale::Draughts), Some(Level::from_elo(Scale::Draughts, 1800)));
    }
}
