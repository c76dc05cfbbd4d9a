//! The engine options `crown dxp` takes on its command line, made from the
//! option table: one `--flag` per entry with a [`Flag`], in table order,
//! with the entry's help line, DXP's own default where it has one, and its
//! value checked against the option's type and its range in draughts.
//!
//! DXP is a socket protocol without options of its own, so these flags are
//! its only settings; unlike `setoption` and `set-param`, a number out of
//! range is refused here (a command line is fixed before it runs), never
//! clamped.

use crate::engine::options::{self, Flag, Kind, Spec, OPTIONS};
use crate::engine::Session;
use crate::search::level::Scale;
use clap::{Arg, ArgMatches, Args, Command, FromArgMatches};

/// The option flags given to `crown dxp` (or defaulted by DXP).
#[derive(Clone, Debug, Default)]
pub struct Flags {
    /// Each option and its text, in table order.
    pub given: Vec<(&'static Spec, String)>,
}

impl Flags {
    /// Sets the options of the flags, and `more` (`--egtb`'s tables), in
    /// table order, with what each sets along ([`options::Change::also`]);
    /// every note goes to `note`. A refused value stops here with its
    /// reason, unless its flag says the engine goes on without it (a book):
    /// then the reason is a note.
    pub fn apply(
        &self,
        session: &mut Session,
        more: Option<(&'static Spec, String)>,
        note: &mut dyn FnMut(&str),
    ) -> Result<(), String> {
        let mut given = self.given.clone();
        given.extend(more);
        given.sort_by_key(|(spec, _)| OPTIONS.iter().position(|s| s == spec));
        for (spec, text) in given {
            let change = options::parse(spec.name, Some(&text)).map_err(|e| e.to_string())?;
            let also = change.also();
            let notes = match session.apply(change) {
                Ok(notes) => notes,
                Err(e) if spec.flag.is_some_and(|f| !f.fatal) => vec![e],
                Err(e) => return Err(e),
            };
            notes.iter().for_each(|n| note(n));
            if let Some(also) = also {
                session.apply(also)?.iter().for_each(|n| note(n));
            }
        }
        Ok(())
    }
}

/// The options of the table that `crown dxp` offers, with their flags.
fn flagged() -> impl Iterator<Item = (&'static Spec, Flag)> {
    OPTIONS.iter().copied().filter_map(|spec| Some((spec, spec.flag?)))
}

/// `text` if it is a value of `spec` in draughts, strictly in range.
fn check(spec: &Spec, text: &str) -> Result<String, String> {
    match options::read(spec, spec.kind_in(Scale::Draughts), Some(text), false) {
        Ok(_) => Ok(text.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

/// The help line: the entry's, with the value in force when the flag is
/// not given (clap shows DXP's own default; none is shown for an option
/// that sets another along, `--elo`).
fn help(spec: &Spec, flag: Flag) -> String {
    let about = spec.about.trim_end_matches('.');
    if flag.default.is_some() || spec.also.is_some() {
        return about.to_string();
    }
    format!("{about} [default: {}]", spec.kind_in(Scale::Draughts).initial())
}

impl FromArgMatches for Flags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let given = flagged()
            .filter_map(|(spec, flag)| Some((spec, matches.get_one::<String>(flag.long)?.clone())))
            .collect();
        Ok(Flags { given })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Flags::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for Flags {
    fn augment_args(command: Command) -> Command {
        flagged().fold(command, |command, (spec, flag)| {
            let value_name = flag.value_name.unwrap_or(match spec.kind {
                Kind::Spin { .. } => "N",
                Kind::Check { .. } => "BOOL",
                Kind::Button | Kind::String { .. } => "TEXT",
            });
            let mut arg = Arg::new(flag.long)
                .long(flag.long)
                .help(help(spec, flag))
                .value_name(value_name)
                .value_parser(move |text: &str| check(spec, text));
            if let Some(default) = flag.default {
                arg = arg.default_value(default);
            }
            if let Some(other) = flag.conflicts_with {
                arg = arg.conflicts_with(other);
            }
            command.arg(arg)
        })
    }

    fn augment_args_for_update(command: Command) -> Command {
        Flags::augment_args(command)
    }
}
