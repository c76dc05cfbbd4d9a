//! Unit tests of the option table, its parsing and the settings.

use super::*;
use crate::search::level::{CHESS_MAX_ELO, DRAUGHTS_MAX_ELO, MIN_ELO};
use std::collections::BTreeSet;

/// The change `parse` makes of a valid value set by the UCI name.
fn set(option: &'static Spec, value: Value) -> Result<Change, OptionError> {
    Ok(Change::set(option, value))
}

#[test]
fn the_table_is_consistent() {
    let s = Settings::default();
    let mut names = BTreeSet::new();
    for spec in OPTIONS {
        if let Kind::Spin { default, min, max } = spec.kind {
            assert!(min <= default && default <= max, "{}", spec.name);
        }
        assert_eq!(s.get(spec), spec.kind.initial(), "{}", spec.name);
        assert!(!spec.about.is_empty(), "{}", spec.name);
        // A name (UCI or Hub, ignoring case) finds its entry and no other.
        let own: BTreeSet<String> =
            std::iter::once(spec.name).chain(spec.hub).map(str::to_ascii_lowercase).collect();
        for name in own {
            assert_eq!(find(&name).map(|s| s.name), Some(spec.name));
            assert!(names.insert(name), "{} twice", spec.name);
        }
        // Hub and DXP play draughts: what they offer applies there.
        if spec.hub.is_some() || spec.flag.is_some() {
            assert!(spec.games.include(Scale::Draughts), "{}", spec.name);
        }
        assert!(!spec.clamp || matches!(spec.kind, Kind::Spin { .. }), "{}", spec.name);
        if let Some((also, text)) = spec.also {
            assert!(read(also, also.kind, Some(text), false).is_ok(), "{}", spec.name);
        }
    }
    assert_eq!(find("hash").unwrap().kind, Kind::Spin { default: 16, min: 1, max: MAX_HASH });
    assert_eq!(s.int(&HASH), 16);
    assert_eq!(find("tt-size").unwrap().name, "Hash");
}

#[test]
fn values_are_validated() {
    assert_eq!(parse("Hash", Some("64")), set(&HASH, Value::Int(64)));
    assert_eq!(parse("hash", Some(" 64 ")), set(&HASH, Value::Int(64)));
    assert!(matches!(parse("Hash", Some("0")), Err(OptionError::OutOfRange { .. })));
    assert!(matches!(
        parse("Hash", Some("99999999999999999999999")),
        Err(OptionError::OutOfRange { .. })
    ));
    assert!(matches!(parse("Hash", Some("lots")), Err(OptionError::Invalid { .. })));
    assert!(matches!(parse("Hash", None), Err(OptionError::Invalid { .. })));
    assert_eq!(parse("Ponder", Some("TRUE")), set(&PONDER, Value::Bool(true)));
    assert!(parse("Ponder", Some("yes")).is_err());
    assert_eq!(parse("clear hash", None), set(&CLEAR_HASH, Value::Press));
    assert!(matches!(parse("Style", Some("1")), Err(OptionError::Unknown(_))));
    assert_eq!(threads_arg("4"), Ok(4));
    assert!(hash_arg("0").unwrap_err().contains("outside 1..1048576"));
}

#[test]
fn syzygy_options_are_validated_and_recorded() {
    let path = "/tables/wdl:/tables/dtz";
    let text = |t: &str| Value::Text(t.into());
    assert_eq!(parse("syzygypath", Some(path)), set(&TABLES_PATH, text(path)));
    assert_eq!(parse("SyzygyPath", None), set(&TABLES_PATH, text(NO_PATH)));
    let egtb = parse("egtb", Some(" ")).unwrap();
    assert_eq!(egtb.option(), Some(&TABLES_PATH));
    assert!(matches!(egtb, Change::Set { value: Value::Text(t), by: "egtb", .. } if t == NO_PATH));
    // Every empty text option is its default.
    assert_eq!(parse("EvalFile", Some("")), set(&EVAL_FILE, text(DEFAULT_NET)));
    assert!(matches!(parse("eval-file", None),
        Ok(Change::Set { value: Value::Text(t), .. }) if t == DEFAULT_NET));
    assert_eq!(parse("BookFile", Some("")), set(&BOOK_FILE, text(NO_BOOK)));
    assert_eq!(parse("SyzygyProbeDepth", Some("12")), set(&PROBE_DEPTH, Value::Int(12)));
    assert!(matches!(parse("SyzygyProbeDepth", Some("0")), Err(OptionError::OutOfRange { .. })));
    assert!(matches!(parse("SyzygyProbeLimit", Some("8")), Err(OptionError::OutOfRange { .. })));
    assert!(matches!(parse("Syzygy50MoveRule", Some("1")), Err(OptionError::Invalid { .. })));
    let mut s = Settings::default();
    for (option, value) in [
        (&TABLES_PATH, text(path)),
        (&PROBE_DEPTH, Value::Int(4)),
        (&PROBE_50_MOVE_RULE, Value::Bool(false)),
        (&PROBE_LIMIT, Value::Int(5)),
    ] {
        s.set(option, value);
    }
    assert_eq!(
        (
            s.text(&TABLES_PATH),
            s.int(&PROBE_DEPTH),
            s.flag(&PROBE_50_MOVE_RULE),
            s.int(&PROBE_LIMIT)
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
        assert!(matches!(parse("draughts_lmr_base", Some("1")), Err(OptionError::Unknown(_))));
        assert!(matches!(parse("step_nmp", Some("false")), Err(OptionError::Unknown(_))));
        return;
    }
    let tunables = params::TABLE.len() + params::DRAUGHTS_TABLE.len();
    assert_eq!(options.len(), tunables + params::STEPS.len());
    for &(name, step) in params::STEPS {
        assert_eq!(parse(name, Some("false")), Ok(Change::SearchStep { step, on: false }));
        assert_eq!(parse(name, Some("True")), Ok(Change::SearchStep { step, on: true }));
        assert!(matches!(parse(name, Some("1")), Err(OptionError::Invalid { .. })));
    }
    // Every line of `crown params [--variant V]` is a valid setoption that
    // changes the parameter of its family only; values out of range are
    // refused with their range.
    for family in [params::Family::Chess, params::Family::Draughts] {
        for line in params::spsa_lines(family) {
            let fields: Vec<&str> = line.split(", ").collect();
            let (min, max): (i32, i32) = (fields[3].parse().unwrap(), fields[4].parse().unwrap());
            for value in [min, max] {
                let change = parse(fields[0], Some(&value.to_string())).unwrap();
                let Change::SearchParam { spec, value: v } = change else { panic!("{line}") };
                assert_eq!(spec.family, family, "{line}");
                let mut sets = params::ParamSets::default();
                assert!(sets.set(spec, v));
                assert_eq!(sets.get(family).get(spec.field), Some(value), "{line}");
                assert_eq!(
                    sets.get(other(family)),
                    params::ParamSets::default().get(other(family))
                );
            }
            assert!(matches!(
                parse(fields[0], Some(&(max + 1).to_string())),
                Err(OptionError::OutOfRange { .. })
            ));
            assert!(matches!(parse(fields[0], Some("x")), Err(OptionError::Invalid { .. })));
        }
    }
}

fn other(family: params::Family) -> params::Family {
    match family {
        params::Family::Chess => params::Family::Draughts,
        params::Family::Draughts => params::Family::Chess,
    }
}

#[test]
fn elo_is_clamped_with_a_note_and_levels_follow_the_settings() {
    let elo = |elo: i64, requested: Option<i64>, by: &'static str| Change::Set {
        option: &ELO,
        value: Value::Int(elo),
        requested,
        by,
    };
    assert_eq!(parse("UCI_Elo", Some("1500")), Ok(elo(1500, None, "UCI_Elo")));
    let low = parse("uci_elo", Some("500")).unwrap();
    assert_eq!(low, elo(MIN_ELO, Some(500), "UCI_Elo"));
    assert!(low.note().unwrap().contains("UCI_Elo 500 is out of range; clamped to 1000"));
    // Hub's name is the one its messages use.
    let high = parse("elo", Some("4000")).unwrap();
    assert_eq!(high, elo(DRAUGHTS_MAX_ELO, Some(4000), "elo"));
    assert_eq!(high.note().unwrap(), "elo 4000 is out of range; clamped to 2800");
    assert_eq!(high.also(), Some(Change::set(&LIMIT_STRENGTH, Value::Bool(true))));
    // Each game clamps to its own strongest level, keeping what was asked.
    assert_eq!(high.clone().in_game(Scale::Draughts), high);
    let chess = high.in_game(Scale::Chess);
    assert_eq!(chess, elo(CHESS_MAX_ELO, Some(4000), "elo"));
    assert!(chess.note().unwrap().contains("4000 is out of range; clamped to 2400"));
    let asked = elo(2500, None, "UCI_Elo");
    assert_eq!(asked.clone().in_game(Scale::Chess), elo(CHESS_MAX_ELO, Some(2500), "UCI_Elo"));
    assert_eq!(asked.clone().in_game(Scale::Draughts), asked);
    assert_eq!(
        ELO.kind_in(Scale::Chess),
        Kind::Spin { default: CHESS_MAX_ELO, min: MIN_ELO, max: CHESS_MAX_ELO }
    );
    assert_eq!(ELO.kind_in(Scale::Draughts), ELO.kind);
    assert!(matches!(parse("UCI_Elo", Some("strong")), Err(OptionError::Invalid { .. })));
    assert!(matches!(parse("Skill Level", Some("21")), Err(OptionError::OutOfRange { .. })));
    assert_eq!(
        parse("level", Some("3")).unwrap().also(),
        Some(Change::set(&LIMIT_STRENGTH, Value::Bool(false)))
    );

    let mut s = Settings::default();
    assert_eq!(s.level(Scale::Chess), None);
    s.set(&SKILL, Value::Int(5));
    assert_eq!(s.level(Scale::Chess), Level::from_skill(Scale::Chess, 5));
    s.set(&ELO, Value::Int(1800));
    assert_eq!(
        s.level(Scale::Chess),
        Level::from_skill(Scale::Chess, 5),
        "UCI_Elo needs UCI_LimitStrength"
    );
    s.set(&LIMIT_STRENGTH, Value::Bool(true));
    assert_eq!(s.level(Scale::Chess), Some(Level::from_elo(Scale::Chess, 1800)));
    assert_eq!(s.level(Scale::Draughts), Some(Level::from_elo(Scale::Draughts, 1800)));
}
