//! `crown-tune tune --write` rewrites the weights file only when that file
//! is the one the binary was built from: the tuner starts from the built-in
//! weights and renders the whole file, so writing over a newer file would
//! undo every set tuned since (this happened: a killer run reverted the
//! Frisian weights written just before it).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PARAMS: &str = "src/eval/draughts_params.rs";

/// A scratch repository root holding `text` as the draughts weights file,
/// and a one-game data file of killer positions.
fn root(name: &str, text: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("crown-tune-write-{}-{name}", std::process::id()));
    std::fs::create_dir_all(dir.join("src/eval")).unwrap();
    std::fs::write(dir.join(PARAMS), text).unwrap();
    let data = dir.join("killer.txt");
    std::fs::write(
        &data,
        "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:\
         B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 | 10 | 0.5\n\
         W:W28,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:\
         B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,23 | 60 | 1.0\n\
         B:W27,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49:\
         B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20 | -20 | 0.0\n",
    )
    .unwrap();
    (dir, data)
}

fn tune(root: &Path, data: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_crown-tune"))
        .args(["tune", "--variant", "killer", "--epochs", "2", "--threads", "1", "--report", "0"])
        .arg("--data")
        .arg(data)
        .arg("--root")
        .arg(root)
        .arg("--write")
        .output()
        .unwrap()
}

fn built_with() -> String {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::fs::read_to_string(repo.join(PARAMS)).unwrap()
}

#[test]
fn a_weights_file_edited_since_the_build_is_refused_and_left_alone() {
    // Another set changed on disk after the build (one Frisian weight).
    let edited = built_with().replacen(
        "pub const FRISIAN: Weights = Weights {\n    man: (",
        "pub const FRISIAN: Weights = Weights {\n    man: (1",
        1,
    );
    assert_ne!(edited, built_with(), "the edit must change the file");
    let (dir, data) = root("edited", &edited);
    let out = tune(&dir, &data);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "an edited file must be refused: {stderr}");
    assert!(stderr.contains("rebuild"), "the message says what to do: {stderr}");
    assert_eq!(std::fs::read_to_string(dir.join(PARAMS)).unwrap(), edited, "nothing written");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn the_file_the_binary_was_built_from_is_rewritten() {
    let (dir, data) = root("same", &built_with());
    let out = tune(&dir, &data);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let written = std::fs::read_to_string(dir.join(PARAMS)).unwrap();
    // Only the killer set may change; every other line stays.
    let outside = |text: &str| {
        let start = text.find("pub const KILLER").unwrap();
        let end = start + text[start..].find("\n};\n").unwrap();
        format!("{}{}", &text[..start], &text[end..])
    };
    assert_eq!(outside(&written), outside(&built_with()));
    std::fs::remove_dir_all(dir).ok();
}
