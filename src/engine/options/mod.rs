//! Engine options, each declared once in the table of `table.rs`
//! ([`OPTIONS`]) and everything else derived from it: the UCI `option`
//! lines and the Hub `param` lines (`protocol/uci.rs`, `protocol/hub.rs`,
//! which print the table), the `crown dxp` flags (`protocol/dxp/flags.rs`),
//! the parsing of `setoption` / `set-param` ([`parse`]), the values a
//! session starts with ([`Settings`]) and what setting one does
//! ([`Spec::apply`]).
//!
//! Setting an option is a two-step affair: [`parse`] validates the text
//! and returns the [`Change`] to apply, leaving the settings untouched when
//! the value is refused, so a bad `setoption` changes nothing; then
//! `Session::apply` runs the option's `apply` (if it has one: resizing the
//! table, loading files) and records the value. A search never reads the
//! settings as they change: `go` hands it one immutable snapshot
//! (`engine::Config`).
//!
//! # Adding an option
//!
//! Add one entry to the `table!` of `table.rs`: a `static` [`Spec`] with
//! its UCI name, its Hub name (if Hub offers it), a line of help, its
//! [`Kind`] (type, default, range), the [`Games`] it applies to, its
//! `crown dxp` [`Flag`] (if DXP offers it) and, when setting it must do
//! more than record the value, the `Session` method that applies it. That
//! is all: it is listed by `uci` and `hub`, parsed, recorded, and read by
//! the code that needs it as `settings.int(&NAME)` (`flag`, `text`). The
//! `TEST_OPTION` entry of unit-test builds is an example; its test
//! (`protocol/option_tests.rs`) shows it in every protocol.

mod table;

pub use table::*;

use crate::engine::Session;
use crate::search::level::{Level, Scale};
use crate::search::params;
use crate::text::cut;
use std::fmt;

/// The type, default and range of an option.
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
    /// A line of text (a path); empty text means the default.
    String {
        /// Default value.
        default: &'static str,
    },
}

impl Kind {
    /// The value an option of this kind starts with.
    pub fn initial(self) -> Value {
        match self {
            Kind::Spin { default, .. } => Value::Int(default),
            Kind::Check { default } => Value::Bool(default),
            Kind::Button => Value::Press,
            Kind::String { default } => Value::Text(default.to_string()),
        }
    }
}

/// The games an option applies to: UCI (chess) lists those of chess, Hub
/// and DXP (draughts) those of draughts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Games {
    /// Chess and every draughts variant.
    All,
    /// Chess and Chess960.
    Chess,
    /// The draughts variants.
    Draughts,
}

impl Games {
    /// Whether a game of `scale` has the option.
    pub fn include(self, scale: Scale) -> bool {
        match self {
            Games::All => true,
            Games::Chess => scale == Scale::Chess,
            Games::Draughts => scale == Scale::Draughts,
        }
    }
}

/// How `crown dxp` takes an option on its command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    /// The long flag, without `--`.
    pub long: &'static str,
    /// The value's name in `--help` (none: the flag's name in capitals).
    pub value_name: Option<&'static str>,
    /// DXP's own default, set when the flag is not given (none: the
    /// option keeps the table's default).
    pub default: Option<&'static str>,
    /// The flag that cannot be given with this one.
    pub conflicts_with: Option<&'static str>,
    /// Whether a value the engine refuses (a file it cannot use) stops
    /// `crown dxp`; if not, the refusal is reported and the engine goes on
    /// without it.
    pub fatal: bool,
}

impl Flag {
    /// The fields a table entry leaves out.
    pub const NEW: Flag =
        Flag { long: "", value_name: None, default: None, conflicts_with: None, fatal: true };
}

/// What setting an option does beyond recording its value: a method of the
/// session, given the validated value; it returns the notes to show the
/// user, or why the value was refused (then nothing changes).
pub type Apply = fn(&mut Session, &Value) -> Result<Vec<String>, String>;

/// One option as the table declares it.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The UCI name (case-insensitive on input).
    pub name: &'static str,
    /// The Hub parameter name, if Hub offers it.
    pub hub: Option<&'static str>,
    /// One line of help (`crown dxp --help`).
    pub about: &'static str,
    /// The games it applies to.
    pub games: Games,
    /// Type, default and range, in the widest game.
    pub kind: Kind,
    /// A spin's largest value (and default) in each game, when it depends
    /// on the game (`UCI_Elo` stops at the game's strongest level).
    pub top: Option<fn(Scale) -> i64>,
    /// Whether a number out of range is clamped (and said so) rather than
    /// refused.
    pub clamp: bool,
    /// An option that Hub and DXP, where the option set last decides, set
    /// along with this one, and its value (`elo` plays at that Elo).
    pub also: Option<(&'static Spec, &'static str)>,
    /// The `crown dxp` flag, if DXP offers it.
    pub flag: Option<Flag>,
    /// What setting it does beyond recording the value.
    pub apply: Option<Apply>,
}

impl Spec {
    /// The fields a table entry leaves out.
    pub const NEW: Spec = Spec {
        name: "",
        hub: None,
        about: "",
        games: Games::All,
        kind: Kind::Button,
        top: None,
        clamp: false,
        also: None,
        flag: None,
        apply: None,
    };

    /// The type and range in a game of `scale` (`UCI_Elo` stops at the
    /// scale's strongest level, and defaults to it, as in Stockfish).
    pub fn kind_in(&self, scale: Scale) -> Kind {
        match (self.kind, self.top) {
            (Kind::Spin { min, .. }, Some(top)) => {
                Kind::Spin { default: top(scale), min, max: top(scale) }
            }
            (kind, _) => kind,
        }
    }

    /// This option's place in the table (none: a tuning build's tunable).
    fn index(&self) -> Option<usize> {
        OPTIONS.iter().position(|s| s.name == self.name)
    }
}

impl PartialEq for Spec {
    /// Options are the same when they have the same UCI name (the names
    /// of the table are unique).
    fn eq(&self, other: &Spec) -> bool {
        self.name == other.name
    }
}

impl Eq for Spec {}

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

/// A validated option value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A spin's number.
    Int(i64),
    /// A check's state.
    Bool(bool),
    /// A string option's text (never empty: empty text is the default).
    Text(String),
    /// A button press.
    Press,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Bool(on) => write!(f, "{on}"),
            Value::Text(text) => f.write_str(text),
            Value::Press => Ok(()),
        }
    }
}

impl Value {
    /// The number of a spin (0 for another kind).
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(v) => *v,
            _ => 0,
        }
    }

    /// The state of a check (false for another kind).
    pub fn flag(&self) -> bool {
        matches!(self, Value::Bool(true))
    }

    /// The text of a string option ("" for another kind).
    pub fn text(&self) -> &str {
        match self {
            Value::Text(text) => text,
            _ => "",
        }
    }
}

/// A validated change for the engine loop to apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Set an option of the table.
    Set {
        /// The option.
        option: &'static Spec,
        /// Its new value, within its range.
        value: Value,
        /// The number given, when it was out of range and clamped to
        /// `value` (the protocol says so). [`parse`] checks the widest
        /// game's range; [`Change::in_game`] the game's own.
        requested: Option<i64>,
        /// The name it was set by (UCI or Hub), for messages.
        by: &'static str,
    },
    /// Set a search tunable (tuning builds only; see `search/params.rs`).
    SearchParam {
        /// The tunable, of its family's table.
        spec: &'static params::Spec,
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
    /// Play another game (Hub `variant`; a new engine at its start).
    Variant(crate::game::Variant),
}

impl Change {
    /// Sets `option` to `value`, which the caller has validated.
    pub fn set(option: &'static Spec, value: Value) -> Change {
        Change::Set { option, value, requested: None, by: option.name }
    }

    /// The option of the table this change sets.
    pub fn option(&self) -> Option<&'static Spec> {
        match self {
            Change::Set { option, .. } => Some(option),
            _ => None,
        }
    }

    /// The change that Hub and DXP make along with this one ([`Spec::also`]).
    pub fn also(&self) -> Option<Change> {
        let (option, text) = self.option()?.also?;
        let (value, _) = read(option, option.kind, Some(text), false).ok()?;
        Some(Change::set(option, value))
    }

    /// The change as a game of `scale` takes it: a number above the game's
    /// largest is clamped to it, and said so.
    pub fn in_game(self, scale: Scale) -> Change {
        match self {
            Change::Set { option, value: Value::Int(v), requested, by } if option.clamp => {
                let max = match option.kind_in(scale) {
                    Kind::Spin { max, .. } => max,
                    _ => v,
                };
                let requested = if v > max { Some(requested.unwrap_or(v)) } else { requested };
                Change::Set { option, value: Value::Int(v.min(max)), requested, by }
            }
            change => change,
        }
    }

    /// The note to show the user about a value that was adjusted.
    pub fn note(&self) -> Option<String> {
        match self {
            Change::Set { value, requested: Some(v), by, .. } => {
                Some(format!("{by} {v} is out of range; clamped to {value}"))
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
        /// The value given, as the client wrote it.
        value: String,
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

impl OptionError {
    /// The same error naming the option as the client called it (Hub's
    /// `tt-size` rather than UCI's `Hash`).
    fn called(self, by: &'static str) -> OptionError {
        match self {
            OptionError::Invalid { value, .. } => OptionError::Invalid { name: by, value },
            OptionError::OutOfRange { value, min, max, .. } => {
                OptionError::OutOfRange { name: by, value, min, max }
            }
            unknown => unknown,
        }
    }
}

/// A thread count from a command line (`--threads`), checked against the
/// `Threads` option's range, for clap's `value_parser`.
pub fn threads_arg(text: &str) -> Result<usize, String> {
    count_arg(&THREADS, text)
}

/// A table size in MB from a command line (`--hash`), checked against the
/// `Hash` option's range, for clap's `value_parser`.
pub fn hash_arg(text: &str) -> Result<usize, String> {
    count_arg(&HASH, text)
}

fn count_arg(option: &Spec, text: &str) -> Result<usize, String> {
    match read(option, option.kind, Some(text), false) {
        Ok((value, _)) => Ok(value.int() as usize),
        Err(e) => Err(e.to_string()),
    }
}

/// Finds an option by its UCI or Hub name, ignoring case.
pub fn find(name: &str) -> Option<&'static Spec> {
    let name = name.trim();
    OPTIONS.iter().copied().find(|s| {
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
    let option = find(name).ok_or_else(|| OptionError::Unknown(name.trim().to_string()))?;
    // The name the client used: UCI's exactly as written, else the Hub
    // name when it matches (`threads` and `Threads` differ only in case).
    let name = name.trim();
    let by = match option.hub {
        Some(hub) if name != option.name && hub.eq_ignore_ascii_case(name) => hub,
        _ => option.name,
    };
    let (value, requested) =
        read(option, option.kind, value, option.clamp).map_err(|e| e.called(by))?;
    Ok(Change::Set { option, value, requested, by })
}

/// Reads `value` as a value of `option` of kind `kind`: a number out of
/// range is clamped (returned with the number given) when `clamp` is on,
/// else refused; empty text is the default of a string option.
pub fn read(
    option: &Spec,
    kind: Kind,
    value: Option<&str>,
    clamp: bool,
) -> Result<(Value, Option<i64>), OptionError> {
    let text = value.map(str::trim).unwrap_or("");
    let invalid = || OptionError::Invalid { name: option.name, value: cut(text, 40) };
    match kind {
        Kind::Spin { min, max, .. } => {
            // Out-of-range but well-formed numbers get the range message,
            // even ones too large for i64.
            let v: i128 = text.parse().map_err(|_| invalid())?;
            if v >= i128::from(min) && v <= i128::from(max) {
                return Ok((Value::Int(v as i64), None));
            }
            let value = v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
            if clamp {
                // Clamped (as GUIs expect), and said so.
                Ok((Value::Int(value.clamp(min, max)), Some(value)))
            } else {
                Err(OptionError::OutOfRange { name: option.name, value: cut(text, 40), min, max })
            }
        }
        Kind::Check { .. } => match text.to_ascii_lowercase().as_str() {
            "true" => Ok((Value::Bool(true), None)),
            "false" => Ok((Value::Bool(false), None)),
            _ => Err(invalid()),
        },
        Kind::Button => Ok((Value::Press, None)),
        // An empty text option is its default (`<embedded>`, `<empty>`,
        // `<none>`): what a GUI sends for a cleared field.
        Kind::String { default } if text.is_empty() => Ok((Value::Text(default.into()), None)),
        Kind::String { .. } => Ok((Value::Text(text.into()), None)),
    }
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
        return Err(OptionError::OutOfRange { name: spec.name, value: cut(text, 40), min, max });
    }
    Ok(Change::SearchParam { spec, value: v as i32 })
}

/// The options of a tuning build: one spin per search tunable (the chess
/// ones for chess, the `draughts_` ones for draughts), then one check per
/// switchable search step (none in other builds). They are set through
/// [`Change::SearchParam`] and [`Change::SearchStep`].
pub fn search_param_options() -> impl Iterator<Item = Spec> {
    let tunables = params::TABLE.iter().chain(params::DRAUGHTS_TABLE).map(|s| Spec {
        name: s.name,
        kind: Kind::Spin {
            default: i64::from(s.default),
            min: i64::from(s.min),
            max: i64::from(s.max),
        },
        games: match s.family {
            params::Family::Chess => Games::Chess,
            params::Family::Draughts => Games::Draughts,
        },
        ..Spec::NEW
    });
    let steps = params::STEPS.iter().map(|&(name, _)| Spec {
        name,
        kind: Kind::Check { default: true },
        ..Spec::NEW
    });
    tunables.chain(steps).filter(|_| params::TUNING)
}

/// The value in force of every option of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// One value per entry of [`OPTIONS`], in its order.
    values: Vec<Value>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { values: OPTIONS.iter().map(|s| s.kind.initial()).collect() }
    }
}

impl Settings {
    /// The value of `option` (its default if it is not in the table).
    pub fn get(&self, option: &Spec) -> Value {
        option.index().map_or_else(|| option.kind.initial(), |i| self.values[i].clone())
    }

    /// The number of the spin `option`.
    pub fn int(&self, option: &Spec) -> i64 {
        option.index().map_or(0, |i| self.values[i].int())
    }

    /// The state of the check `option`.
    pub fn flag(&self, option: &Spec) -> bool {
        option.index().is_some_and(|i| self.values[i].flag())
    }

    /// The text of the string option `option`.
    pub fn text(&self, option: &Spec) -> &str {
        option.index().map_or("", |i| self.values[i].text())
    }

    /// Records the value of `option`, once the engine has applied it.
    pub fn set(&mut self, option: &Spec, value: Value) {
        if let Some(i) = option.index() {
            self.values[i] = value;
        }
    }

    /// The playing level these settings ask for (`None`: full strength).
    /// As in Stockfish, `UCI_LimitStrength` selects `UCI_Elo`, else
    /// `Skill Level` applies. `scale` is the game's calibration.
    pub fn level(&self, scale: Scale) -> Option<Level> {
        if self.flag(&LIMIT_STRENGTH) {
            Some(Level::from_elo(scale, self.int(&ELO)))
        } else {
            Level::from_skill(scale, self.int(&SKILL))
        }
    }
}

#[cfg(test)]
mod tests;
