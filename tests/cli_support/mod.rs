//! Shared helper of the tests that run `crown` subcommands to the end
//! (`crown egtb`, `crown book`): the exit status and both outputs.

use std::process::Command;

/// Runs the built `crown` with `args`; returns (success, stdout, stderr).
pub fn crown(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_crown")).args(args).output().expect("run crown");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
