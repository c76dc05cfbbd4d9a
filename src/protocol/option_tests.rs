//! One declaration per option, shown: the test-only entry `TEST_OPTION`
//! of `engine/options/table.rs` (unit-test builds only) is the one place
//! the option is written, and every protocol has it: UCI lists it and sets
//! it with `setoption`, Hub lists it with the value in force and sets it
//! with `set-param`, `crown dxp` takes it as `--test-option`; each time its
//! `apply` runs and the settings record the value.

use crate::engine::options::{self, TEST_OPTION};
use crate::engine::Session;
use crate::game::Variant;
use crate::protocol::dxp::Options;
use crate::protocol::hub::Hub;
use crate::protocol::uci::Uci;
use crate::protocol::Printer;
use clap::Parser;
use parking_lot::Mutex;
use std::io::{Cursor, Write};
use std::sync::Arc;

/// A writer the test reads back.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Output {
    fn lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.0.lock()).lines().map(String::from).collect()
    }
}

/// The lines a front end prints for `input`, run to its end.
fn session(input: &str, run: impl FnOnce(Cursor<Vec<u8>>, Printer)) -> Vec<String> {
    let out = Output::default();
    run(Cursor::new(input.as_bytes().to_vec()), Printer::new(Box::new(out.clone())));
    out.lines()
}

#[test]
fn uci_lists_sets_and_applies_the_test_option() {
    let lines = session(
        "uci\nsetoption name Test Option value 7\nsetoption name test option value 10\n",
        Uci::run,
    );
    let declared = "option name Test Option type spin default 3 min 0 max 9";
    assert!(lines.iter().any(|l| l == declared), "{lines:?}");
    assert!(lines.iter().any(|l| l == "info string test option applied: 7"), "{lines:?}");
    let refused = "info string error: value 10 for option Test Option is outside 0..9";
    assert!(lines.iter().any(|l| l == refused), "{lines:?}");
}

#[test]
fn hub_lists_the_value_in_force_and_sets_the_test_option() {
    let lines = session("hub\nset-param name=test-option value=8\nhub\n", |input, printer| {
        Hub::run(input, printer, None)
    });
    let declared =
        |value: i64| format!("param name=test-option value={value} type=int min=0 max=9");
    let first = lines.iter().position(|l| *l == declared(3)).unwrap_or_else(|| panic!("{lines:?}"));
    let applied = lines.iter().position(|l| l == "error message=\"test option applied: 8\"");
    let second = lines.iter().position(|l| *l == declared(8));
    assert!(applied.is_some_and(|a| first < a && Some(a) < second), "{lines:?}");
}

#[test]
fn dxp_takes_the_test_option_as_a_flag() {
    #[derive(Parser)]
    struct Dxp {
        #[command(flatten)]
        options: Options,
    }
    let dxp = Dxp::try_parse_from(["dxp", "--test-option", "5"]).unwrap();
    let mut session = Session::new(Variant::International).unwrap();
    let mut notes = Vec::new();
    dxp.options.engine.apply(&mut session, None, &mut |n| notes.push(n.to_string())).unwrap();
    assert_eq!(notes, ["test option applied: 5"]);
    assert_eq!(session.settings().int(&TEST_OPTION), 5);
    // Strictly in range, and listed in the help.
    assert!(Dxp::try_parse_from(["dxp", "--test-option", "10"]).is_err());
    let mut command = <Dxp as clap::CommandFactory>::command();
    let help = command.render_help().to_string();
    let line = help.lines().find(|l| l.contains("--test-option <N>")).unwrap_or_default();
    assert!(line.ends_with(" A test-only option [default: 3]"), "{help}");
    // And the option is nowhere but in the table.
    assert_eq!(options::find("test-option").map(|s| s.name), Some(TEST_OPTION.name));
}
