//! Search tunables: every margin, threshold and factor of the search in one
//! table, so the same table feeds the code, `crown params` (OpenBench's SPSA
//! input format) and the tuner.
//!
//! Each line of `search_params!` is `name: default, min, max, step;` and
//! becomes a field of [`Params`]; names are lowercase with underscores and
//! describe the role (`_margin`, `_base`, `_factor`, `_threshold`), and
//! never start with `value` (a UCI option name must not).
//!
//! Two families share the fields: chess (both variants) and draughts (every
//! game with compulsory captures). The `draughts` section lists the
//! tunables the draughts search reads (no null move, no SEE, no check
//! extension there) with their own defaults and ranges, under the names
//! `draughts_<field>`, so each family is tuned in its own games and a tune
//! of one never moves the other ([`Family`], [`ParamSets`]).
//!
//! A build with the cargo feature `tuning` ([`TUNING`]) offers every
//! tunable as a UCI spin option (Hub parameter) of its name; `crown params
//! [--variant V]` prints the family's table in OpenBench's SPSA input format
//! ([`spsa_lines`]) in every build.
//!
//! The same builds can switch single search steps off ([`Step`], UCI check
//! options `step_<name>`, in both families), so that what each step is
//! worth is measured by a match against the full search (an ablation). In
//! other builds every step is on and the test folds away at compile time
//! ([`Params::on`]).

use crate::game::Game;

/// Which games a set of tunables is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Chess and Chess960.
    Chess,
    /// Every draughts game (the games with compulsory captures).
    Draughts,
}

impl Family {
    /// The family of the game `G`.
    pub const fn of<G: Game>() -> Family {
        if G::FORCED_CAPTURES {
            Family::Draughts
        } else {
            Family::Chess
        }
    }

    /// The family of a variant.
    pub fn of_variant(variant: crate::game::Variant) -> Family {
        if variant.is_chess() {
            Family::Chess
        } else {
            Family::Draughts
        }
    }
}

/// One tunable as the table declares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Option name: the field's for chess, `draughts_<field>` for draughts.
    pub name: &'static str,
    /// The field of [`Params`] it sets.
    pub field: &'static str,
    /// The games it is for.
    pub family: Family,
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
    (
        chess {
            $($(#[doc = $doc:literal])* $name:ident: $default:expr, $min:expr, $max:expr, $step:expr;)*
        }
        draughts {
            $($dname:ident: $ddefault:expr, $dmin:expr, $dmax:expr, $dstep:expr;)*
        }
    ) => {
        /// The search tunables, one field per table line.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])* pub $name: i32,)*
            /// The search steps switched off (tuning builds only).
            pub off: Steps,
        }

        impl Default for Params {
            /// The chess defaults.
            fn default() -> Self {
                Params { $($name: $default,)* off: Steps::NONE }
            }
        }

        /// The chess table, in declaration order.
        pub const TABLE: &[Spec] = &[
            $(Spec {
                name: stringify!($name),
                field: stringify!($name),
                family: Family::Chess,
                default: $default,
                min: $min,
                max: $max,
                step: $step,
            },)*
        ];

        /// The draughts table: the fields the draughts search reads.
        pub const DRAUGHTS_TABLE: &[Spec] = &[
            $(Spec {
                name: concat!("draughts_", stringify!($dname)),
                field: stringify!($dname),
                family: Family::Draughts,
                default: $ddefault,
                min: $dmin,
                max: $dmax,
                step: $dstep,
            },)*
        ];

        impl Params {
            /// Sets the field `field` without a range check; false when there
            /// is no such field.
            fn set_field(&mut self, field: &str, value: i32) -> bool {
                match field {
                    $(stringify!($name) => self.$name = value,)*
                    _ => return false,
                }
                true
            }

            /// The value of the field called `field`.
            pub fn get(&self, field: &str) -> Option<i32> {
                match field.to_ascii_lowercase().as_str() {
                    $(stringify!($name) => Some(self.$name),)*
                    _ => None,
                }
            }
        }
    };
}

search_params! {
    // The chess values were set by hand for the hand-set evaluation; these
    // are `scripts/spsa` under network generation 12 (400 iterations of 8
    // games at 20,000 nodes, tuning/README.md section 3).
    chess {
        /// Aspiration window half-width at the first re-search.
        aspiration_window: 25, 5, 100, 3;
        /// Reverse futility: margin per ply of depth.
        rfp_margin: 65, 30, 200, 8;
        /// Reverse futility: deepest depth it applies at.
        rfp_depth: 6, 3, 12, 1;
        /// Null move: base reduction.
        nmp_base: 4, 2, 5, 1;
        /// Null move: depth divisor added to the reduction.
        nmp_divisor: 3, 2, 8, 1;
        /// Null move: evaluation margin divisor added to the reduction.
        nmp_eval_divisor: 190, 80, 400, 20;
        /// Null move: shallowest depth at which a fail high is verified.
        nmp_verify_depth: 13, 8, 24, 1;
        /// Futility pruning: base margin.
        futility_base: 86, 20, 200, 10;
        /// Futility pruning: margin per ply.
        futility_margin: 114, 30, 200, 10;
        /// Futility pruning: deepest depth.
        futility_depth: 7, 3, 10, 1;
        /// Late move pruning: base quiet moves searched at depth 1.
        lmp_base: 4, 1, 8, 1;
        /// SEE pruning of quiet moves: margin per ply (negated).
        see_quiet_margin: 49, 20, 150, 10;
        /// SEE pruning of captures: margin per ply squared (negated).
        see_capture_margin: 22, 5, 60, 5;
        /// Late move reductions: base (hundredths).
        lmr_base: 81, 0, 200, 10;
        /// Late move reductions: divisor (hundredths).
        lmr_divisor: 197, 150, 400, 15;
        /// Singular extension: margin per ply of depth (hundredths of a unit).
        singular_margin: 205, 50, 400, 25;
        /// History bonus cap for one update.
        history_bonus_max: 1673, 400, 4000, 100;
    }
    // The draughts values started as the chess ones; these are
    // `scripts/spsa --variant international` in draughts self-play (400
    // iterations of 8 games at 25,000 nodes, tuning/README.md section 3).
    draughts {
        aspiration_window: 14, 5, 100, 3;
        rfp_margin: 90, 30, 200, 8;
        rfp_depth: 6, 3, 12, 1;
        futility_base: 73, 20, 200, 10;
        futility_margin: 88, 30, 200, 10;
        futility_depth: 7, 3, 10, 1;
        lmp_base: 1, 1, 8, 1;
        lmr_base: 66, 0, 200, 10;
        lmr_divisor: 232, 150, 400, 15;
        singular_margin: 200, 50, 400, 25;
        history_bonus_max: 1697, 400, 4000, 100;
    }
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
    /// Exchanges and promotions (draughts) followed in quiescence (step 3c).
    QsearchExchanges,
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
    ("step_qsearch_exchanges", Step::QsearchExchanges),
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

/// The table of a family.
pub fn table(family: Family) -> &'static [Spec] {
    match family {
        Family::Chess => TABLE,
        Family::Draughts => DRAUGHTS_TABLE,
    }
}

/// The tunable called `name` (ignoring case), of either family.
pub fn find(name: &str) -> Option<&'static Spec> {
    TABLE.iter().chain(DRAUGHTS_TABLE).find(|s| s.name.eq_ignore_ascii_case(name.trim()))
}

impl Params {
    /// The defaults of a family: the chess defaults with the family's own
    /// lines of the table applied.
    pub fn new(family: Family) -> Params {
        let mut params = Params::default();
        for spec in table(family) {
            params.set_field(spec.field, spec.default);
        }
        params
    }

    /// Sets the tunable `spec` (of this set's family); false, changing
    /// nothing, when `value` is out of its range.
    pub fn set(&mut self, spec: &Spec, value: i32) -> bool {
        (spec.min..=spec.max).contains(&value) && self.set_field(spec.field, value)
    }
}

/// The tunables of both families, as the engine keeps them: each search
/// takes the set of its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamSets {
    /// For chess and Chess960.
    pub chess: Params,
    /// For every draughts game.
    pub draughts: Params,
}

impl Default for ParamSets {
    fn default() -> Self {
        ParamSets { chess: Params::new(Family::Chess), draughts: Params::new(Family::Draughts) }
    }
}

impl ParamSets {
    /// The set for `family`.
    pub fn get(&self, family: Family) -> Params {
        match family {
            Family::Chess => self.chess,
            Family::Draughts => self.draughts,
        }
    }

    /// Sets the tunable `spec` in its family's set; false when out of range.
    pub fn set(&mut self, spec: &Spec, value: i32) -> bool {
        match spec.family {
            Family::Chess => self.chess.set(spec, value),
            Family::Draughts => self.draughts.set(spec, value),
        }
    }

    /// Switches a search step on or off in both families.
    pub fn switch(&mut self, step: Step, on: bool) {
        self.chess.off = self.chess.off.with(step, !on);
        self.draughts.off = self.draughts.off.with(step, !on);
    }
}

/// The SPSA learning-rate end value `crown params` prints (OpenBench's default).
pub const SPSA_RATE: f64 = 0.002;

/// One line per tunable of `family` in OpenBench's SPSA input format:
/// `name, int, value, min, max, step, rate` (`step` is SPSA's final
/// perturbation `c_end`, `rate` its final learning rate `r_end`).
pub fn spsa_lines(family: Family) -> Vec<String> {
    table(family)
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
        for family in [Family::Chess, Family::Draughts] {
            let mut p = Params::new(family);
            for spec in table(family) {
                assert_eq!(spec.family, family);
                assert_eq!(p.get(spec.field), Some(spec.default), "{}", spec.name);
                assert!(spec.min <= spec.default && spec.default <= spec.max);
                assert!(p.set(spec, spec.max));
                assert_eq!(p.get(spec.field), Some(spec.max));
                assert!(!p.set(spec, spec.max + 1));
                assert_eq!(p.get(spec.field), Some(spec.max));
            }
        }
        assert!(find("no_such_param").is_none());
        // Every draughts tunable is a field of the struct.
        for spec in DRAUGHTS_TABLE {
            assert!(TABLE.iter().any(|c| c.field == spec.field), "{}", spec.name);
            assert_eq!(spec.name, format!("draughts_{}", spec.field));
        }
    }

    #[test]
    fn every_game_searches_with_its_family() {
        for variant in crate::game::Variant::ALL {
            let of_game = crate::for_variant!(variant, G => Family::of::<G>());
            assert_eq!(of_game, Family::of_variant(variant), "{variant:?}");
        }
        assert_eq!(Family::of_variant(crate::game::Variant::Frisian), Family::Draughts);
        assert_eq!(Family::of_variant(crate::game::Variant::Chess960), Family::Chess);
    }

    #[test]
    fn a_family_tune_leaves_the_other_alone() {
        let mut sets = ParamSets::default();
        let chess = find("LMR_BASE").unwrap();
        let draughts = find("draughts_lmr_base").unwrap();
        assert!(sets.set(draughts, 120));
        assert_eq!(sets.draughts.lmr_base, 120);
        assert_eq!(sets.chess, Params::new(Family::Chess));
        assert!(sets.set(chess, 50));
        assert_eq!((sets.chess.lmr_base, sets.draughts.lmr_base), (50, 120));
        sets.switch(Step::NullMove, false);
        assert_eq!(sets.chess.off, sets.draughts.off);
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
        for family in [Family::Chess, Family::Draughts] {
            let lines = spsa_lines(family);
            assert_eq!(lines.len(), table(family).len());
            for (line, spec) in lines.iter().zip(table(family)) {
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
}
