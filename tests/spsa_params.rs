//! `crown params` and the UCI options of a tuning build, with the real
//! binary: every line `crown params` prints is OpenBench's SPSA input format,
//! and (with `--features tuning`) can be sent back as `setoption` without
//! an error, while a value out of range is refused with a message. A tuning
//! build also switches single search steps off (`step_<name>`, for
//! ablation matches); other builds refuse those names.
//!
//! Run the second half with `cargo test --profile ci --features tuning --test spsa_params`.

mod uci_support;

use crown::search::params::{find, STEPS};
use std::io::Write;
use std::process::{Command, Stdio};
use uci_support::{field, Engine};

fn crown(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crown"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("crown starts");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// The lines of `crown params` (chess) or `crown params --variant V`.
fn params_of(variant: Option<&str>) -> Vec<Vec<String>> {
    let args: Vec<&str> = match variant {
        Some(v) => vec!["params", "--variant", v],
        None => vec!["params"],
    };
    crown(&args, "").lines().map(|l| l.split(", ").map(str::to_string).collect()).collect()
}

fn params() -> Vec<Vec<String>> {
    params_of(None)
}

#[test]
fn params_prints_openbench_spsa_lines() {
    let chess = params();
    let draughts = params_of(Some("international"));
    assert!(chess.len() >= 10 && draughts.len() >= 10);
    // The draughts set has its own names, and every draughts game has it.
    assert!(draughts.iter().all(|f| f[0].starts_with("draughts_")), "{draughts:?}");
    assert!(chess.iter().all(|f| !f[0].starts_with("draughts_")), "{chess:?}");
    assert_eq!(params_of(Some("frisian")), draughts);
    assert_eq!(params_of(Some("chess960")), chess);
    for fields in chess.iter().chain(&draughts) {
        assert_eq!(fields.len(), 7, "{fields:?}");
        assert!(!fields[0].to_ascii_lowercase().starts_with("value"));
        assert_eq!(fields[1], "int");
        let n: Vec<i64> = fields[2..6].iter().map(|f| f.parse().unwrap()).collect();
        assert!(n[1] <= n[0] && n[0] <= n[2] && n[3] > 0, "{fields:?}");
        assert!(fields[6].parse::<f64>().unwrap() > 0.0);
    }
}

#[test]
fn params_round_trip_through_setoption() {
    let lines = params();
    let mut input = String::from("uci\n");
    for fields in &lines {
        input += &format!("setoption name {} value {}\n", fields[0], fields[4]);
        input += &format!("setoption name {} value {}\n", fields[0], fields[2]);
    }
    input += "isready\nquit\n";
    let out = crown(&[], &input);
    let errors = out.lines().filter(|l| l.starts_with("info string")).count();
    if cfg!(feature = "tuning") {
        for fields in &lines {
            let option = format!(
                "option name {} type spin default {} min {} max {}",
                fields[0],
                fields[2],
                fields[3],
                fields[5 - 1]
            );
            assert!(out.lines().any(|l| l == option), "missing '{option}'");
        }
        assert_eq!(errors, 0, "{out}");
        let name = &lines[0][0];
        let max: i64 = lines[0][4].parse().unwrap();
        let out = crown(&[], &format!("setoption name {name} value {}\nquit\n", max + 1));
        assert!(
            out.contains(&format!(
                "info string error: value {} for option {name} is outside",
                max + 1
            )),
            "{out}"
        );
    } else {
        // Other builds do not know the names: each setoption is refused.
        assert_eq!(errors, 2 * lines.len(), "{out}");
    }
}

#[test]
fn params_round_trip_through_hub_set_param() {
    // SPSA in draughts sets the draughts tunables over Hub.
    let lines = params_of(Some("international"));
    let mut input = String::from("hub\n");
    for fields in &lines {
        input += &format!("set-param name={} value={}\n", fields[0], fields[4]);
    }
    input += &format!("set-param name={} value={}\n", lines[0][0], "99999");
    input += "ping\nquit\n";
    let out = crown(&["hub"], &input);
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
    assert!(out.contains("pong"), "{out}");
    if cfg!(feature = "tuning") {
        assert_eq!(errors.len(), 1, "{out}");
        assert!(errors[0].contains("outside"), "{out}");
    } else {
        assert_eq!(errors.len(), lines.len() + 1, "{out}");
        assert!(errors.iter().all(|l| l.contains("unknown parameter")), "{out}");
    }
}

/// Nodes of a depth-9 search of a middlegame from a new game, after `setup`.
fn nodes_at_depth_9(engine: &mut Engine, setup: &[&str]) -> u64 {
    for line in setup {
        engine.send(line);
    }
    engine.send("ucinewgame");
    engine.send("position fen r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8");
    assert!(engine.sync().is_empty(), "{}", engine.dump());
    let lines = engine.search("go depth 9");
    let last = lines.iter().rev().find_map(|l| field(l, "nodes")).expect("an info line with nodes");
    last.parse().unwrap()
}

#[test]
fn search_steps_switch_off_only_in_tuning_builds() {
    let mut engine = Engine::ready();
    if !cfg!(feature = "tuning") {
        engine.send("setoption name step_nmp value false");
        let out = engine.sync();
        assert_eq!(out, ["info string error: unknown option 'step_nmp'"]);
        engine.quit();
        return;
    }
    for (name, _) in STEPS {
        let option = format!("option name {name} type check default true");
        assert!(engine.transcript.contains(&option), "missing '{option}'");
    }
    let full = nodes_at_depth_9(&mut engine, &[]);
    let no_null_move = nodes_at_depth_9(&mut engine, &["setoption name step_nmp value false"]);
    assert_ne!(full, no_null_move, "switching null move off changes the search");
    let again = nodes_at_depth_9(&mut engine, &["setoption name STEP_NMP value true"]);
    assert_eq!(full, again, "switching it back on restores the search");
    // A draughts tunable leaves the chess search alone; its chess twin does not.
    let draughts = nodes_at_depth_9(&mut engine, &["setoption name draughts_lmr_base value 0"]);
    assert_eq!(draughts, full, "draughts_lmr_base changed the chess search");
    let chess = nodes_at_depth_9(&mut engine, &["setoption name lmr_base value 0"]);
    assert_ne!(chess, full, "lmr_base changes the chess search");
    let default = find("lmr_base").expect("lmr_base").default;
    let _ = nodes_at_depth_9(&mut engine, &[&format!("setoption name lmr_base value {default}")]);
    engine.send("setoption name step_nmp value maybe");
    assert_eq!(engine.sync(), ["info string error: invalid value 'maybe' for option step_nmp"]);
    assert_eq!(nodes_at_depth_9(&mut engine, &[]), full, "a refused value changes nothing");
    engine.quit();
}
