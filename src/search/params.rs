//! Search tunables: every margin, threshold and factor of the search in one
//! table, so the same table feeds the code, `crown params` (OpenBench's SPSA
//! input format) and the tuner.
//!
//! Each line of `search_params!` is `name: default, min, max, step;` and
//! becomes a field of [`Params`]; names are lowercase with underscores and
//! describe the role (`_margin`, `_base`, `_factor`, `_threshold`), and
//! never start with `value` (a UCI option name must not).
//!
//! A build with the cargo feature `tuning` ([`TUNING`]) offers every
//! tunable as a UCI spin option of the same name; `crown params` prints the
//! table in OpenBench's SPSA input format ([`spsa_lines`]) in every build.
//!
//! The same builds can switch single search steps off ([`Step`], UCI check
//! options `step_<name>`), so that what each step is worth is measured by a
//! match against the full search (an ablation). In other builds every step
//! is on and the test folds away at compile time ([`Params::on`]).

/// One tunable as the table declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Field name.
    pub name: &'static str,
    /// Default value.
    pub default: i32,
    /// Smallest sensible value.
    pub min: i32,
    /// Largest sensible value.
    pub max: i32,
    /// SPSA step size.
    pub step: i32,
}

macro_rules! search_params {
    ($($(#[doc = $doc:literal])* $name:ident: $default:expr, $min:expr, $max:expr, $step:expr;)*) => {
        /// The search tunables, one field per table line.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: i32,)*
            /// The search steps switched off (tuning builds only).
            pub off: Steps,
        }

        impl Default for Params {
            fn default() -> Self {
                Params { $($name: $default,)* off: Steps::NONE }
            }
        }

        /// The table itself, in declaration order.
        pub const TABLE: &[Spec] = &[
            $(Spec { name: stringify!($name), default: $default, min: $min, max: $max, step: $step },)*
        ];

        impl Params {
            /// Sets the tunable called `name`; false when there is none or the
            /// value is out of its range.
            pub fn set(&mut self, name: &str, value: i32) -> bool {
                let Some(spec) = TABLE.iter().find(|s| s.name.eq_ignore_ascii_case(name)) else {
                    return false;
                };
                if value < spec.min || value > spec.max {
                    return false;
                }
                match spec.name {
                    $(stringify!($name) => self.$name = value,)*
                    _ => return false,
                }
                true
            }

            /// The value of the tunable called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name.to_ascii_lowercase().as_str() {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    /// Aspiration window half-width at the first re-search.
    aspiration_window: 20, 5, 100, 3;
    /// Reverse futility: margin per ply of depth.
    rfp_margin: 75, 30, 200, 8;
    /// Reverse futility: deepest depth it applies at.
    rfp_depth: 8, 3, 12, 1;
    /// Null move: base reduction.
    nmp_base: 3, 2, 5, 1;
    /// Null move: depth divisor added to the reduction.
    nmp_divisor: 4, 2, 8, 1;
    /// Null move: evaluation margin divisor added to the reduction.
    nmp_eval_divisor: 200, 80, 400, 20;
    /// Null move: shallowest depth at which a fail high is verified.
    nmp_verify_depth: 14, 8, 24, 1;
    /// Futility pruning: base margin.
    futility_base: 80, 20, 200, 10;
    /// Futility pruning: margin per ply.
    futility_margin: 90, 30, 200, 10;
    /// Futility pruning: deepest depth.
    futility_depth: 7, 3, 10, 1;
    /// Late move pruning: base quiet moves searched at depth 1.
    lmp_base: 3, 1, 8, 1;
    /// SEE pruning of quiet moves: margin per ply (negated).
    see_quiet_margin: 60, 20, 150, 10;
    /// SEE pruning of captures: margin per ply squared (negated).
    see_capture_margin: 25, 5, 60, 5;
    /// Late move reductions: base (hundredths).
    lmr_base: 75, 0, 200, 10;
    /// Late move reductions: divisor (hundredths).
    lmr_divisor: 225, 150, 400, 15;
    /// Singular extension: margin per ply of depth (hundredths of a unit).
    singular_margin: 200, 50, 400, 25;
    /// History bonus cap for one update.
    history_bonus_max: 1600, 400, 4000, 100;
}

/// Whether this build offers every tunable as a UCI option (`--features tuning`).
pub const TUNING: bool = cfg!(feature = "tuning");

/// A search step that a tuning build can switch off to measure its worth.
/// The search cites each by its step number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Aspiration windows around the previous iteration's score.
    Aspiration,
    /// Mate distance pruning.
    MateDistance,
    /// Reverse futility pruning.
    ReverseFutility,
    /// Null move pruning.
    NullMove,
    /// Verification of a null move's fail high.
    NullMoveVerification,
    /// Internal iterative reduction.
    InternalReduction,
    /// Late move pruning.
    LateMovePruning,
    /// Futility pruning of quiet moves.
    Futility,
    /// Exchange (SEE) pruning in the main search.
    SeePruning,
    /// Singular extension (and its multi-cut).
    SingularExtension,
    /// Check extension.
    CheckExtension,
    /// Late move reductions.
    LateMoveReductions,
    /// Exchange pruning in quiescence.
    QsearchSee,
    /// Killer moves.
    Killers,
    /// Counter moves.
    CounterMove,
    /// Butterfly history.
    History,
    /// Continuation history.
    ContinuationHistory,
    /// Shots (draughts) exempt from shallow pruning (step 11a).
    Shots,
}

/// Every switchable step with its option name (`step_<name>`).
pub const STEPS: &[(&str, Step)] = &[
    ("step_aspiration", Step::Aspiration),
    ("step_mate_distance", Step::MateDistance),
    ("step_rfp", Step::ReverseFutility),
    ("step_nmp", Step::NullMove),
    ("step_nmp_verification", Step::NullMoveVerification),
    ("step_iir", Step::InternalReduction),
    ("step_lmp", Step::LateMovePruning),
    ("step_futility", Step::Futility),
    ("step_see_pruning", Step::SeePruning),
    ("step_singular", Step::SingularExtension),
    ("step_check_extension", Step::CheckExtension),
    ("step_lmr", Step::LateMoveReductions),
    ("step_qsearch_see", Step::QsearchSee),
    ("step_killers", Step::Killers),
    ("step_counter_move", Step::CounterMove),
    ("step_history", Step::History),
    ("step_continuation_history", Step::ContinuationHistory),
    ("step_shots", Step::Shots),
];

/// The switchable step called `name` (ignoring case), with its spelling.
pub fn find_step(name: &str) -> Option<(&'static str, Step)> {
    STEPS.iter().copied().find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
}

/// A set of search steps, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Steps(u32);

impl Steps {
    /// No step.
    pub const NONE: Steps = Steps(0);

    /// Whether `step` is in the set.
    #[inline(always)]
    pub fn contains(self, step: Step) -> bool {
        self.0 & (1 << step as u32) != 0
    }

    /// Whether the search runs `step` when this is the set switched off:
    /// always, except in a tuning build (a constant `true` elsewhere, so
    /// the test costs nothing per node).
    #[inline(always)]
    pub fn runs(self, step: Step) -> bool {
        !TUNING || !self.contains(step)
    }

    /// The set with `step` added (`true`) or removed (`false`).
    pub fn with(self, step: Step, present: bool) -> Steps {
        let bit = 1 << step as u32;
        Steps(if present { self.0 | bit } else { self.0 & !bit })
    }
}

impl Params {
    /// Whether the search runs `step` ([`Steps::runs`]).
    #[inline(always)]
    pub fn on(&self, step: Step) -> bool {
        self.off.runs(step)
    }
}

/// The SPSA learning-rate end value `crown params` prints (OpenBench's default).
pub const SPSA_RATE: f64 = 0.002;

/// The tunable called `name` (ignoring case).
pub fn find(name: &str) -> Option<&'static Spec> {
    TABLE.iter().find(|s| s.name.eq_ignore_ascii_case(name.trim()))
}

/// One line per tunable in OpenBench's SPSA input format:
/// `name, int, value, min, max, step, rate` (`step` is SPSA's final
/// perturbation `c_end`, `rate` its final learning rate `r_end`).
pub fn spsa_lines() -> Vec<String> {
    TABLE
        .iter()
        .map(|s| {
            format!(
                "{}, int, {}, {}, {}, {}, {}",
                s.name, s.default, s.min, s.max, s.step, SPSA_RATE
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_struct_agree() {
        let mut p = Params::default();
        for spec in TABLE {
            assert_eq!(p.get(spec.name), Some(spec.default));
            assert!(spec.min <= spec.default && spec.default <= spec.max);
            assert!(p.set(spec.name, spec.max));
            assert_eq!(p.get(spec.name), Some(spec.max));
            assert!(!p.set(spec.name, spec.max + 1));
        }
        assert!(!p.set("no_such_param", 1));
    }

    #[test]
    fn steps_switch_off_one_at_a_time() {
        let mut p = Params::default();
        for &(name, step) in STEPS {
            assert!(p.on(step), "{name}");
            assert_eq!(find_step(&name.to_ascii_uppercase()), Some((name, step)));
            assert!(find(name).is_none(), "{name} is not a tunable");
        }
        p.off = p.off.with(Step::NullMove, true);
        assert_eq!(p.on(Step::NullMove), !TUNING);
        assert!(p.on(Step::Futility));
        p.off = p.off.with(Step::NullMove, false);
        assert_eq!(p, Params::default());
        assert!(find_step("step_nothing").is_none());
    }

    #[test]
    fn spsa_lines_describe_the_table() {
        let lines = spsa_lines();
        assert_eq!(lines.len(), TABLE.len());
        for (line, spec) in lines.iter().zip(TABLE) {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!(fields[0], spec.name);
            assert!(!spec.name.to_ascii_lowercase().starts_with("value"));
            assert_eq!(fields[1], "int");
            assert_eq!(fields[2].parse::<i32>(), Ok(spec.default));
            assert_eq!(find(&spec.name.to_ascii_uppercase()), Some(spec));
        }
    }
}
