//! `crown book build | show` and `crown dxp --book` from the command line:
//! a small book is built, read back and shown; bad requests and bad files
//! get a message and a failing exit status (or, for an engine, play without
//! a book).

mod cli_support;
use cli_support::crown;

#[test]
fn build_show_and_refuse() {
    let dir = std::env::temp_dir().join(format!("crown-book-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("b.crb");
    let path = file.to_str().unwrap();
    let (ok, out, err) = crown(&[
        "book",
        "build",
        "--variant",
        "russian",
        "--depth",
        "3",
        "--full",
        "1",
        "--nodes",
        "300",
        "--margin",
        "5",
        "--threads",
        "2",
        "--out",
        path,
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.lines().filter(|l| l.starts_with("ply ")).count() == 3, "{out}");
    assert!(out.contains("written to"), "{out}");
    // The start position: the header, then all 7 moves of Russian draughts'
    // start, best first.
    let (ok, out, err) = crown(&["book", "show", path]);
    assert!(ok, "{err}");
    let mut lines = out.lines();
    assert!(lines.next().unwrap().contains("russian, "), "{out}");
    let scores: Vec<i32> =
        lines.map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap()).collect();
    assert_eq!(scores.len(), 7, "{out}");
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{out}");
    let (ok, out, _) = crown(&["book", "show", path, "W:W21,22,23:B9,10,11"]);
    assert!(ok && out.contains("not in the book"), "{out}");
    // Bad requests and bad files.
    let (ok, _, err) = crown(&["book", "build", "--depth", "0", "--out", path]);
    assert!(!ok && err.contains("at least 1"), "{err}");
    let (ok, _, err) = crown(&["book", "show", path, "W:W99:B1"]);
    assert!(!ok && err.contains("bad position"), "{err}");
    std::fs::write(dir.join("junk.crb"), b"junk").unwrap();
    let (ok, _, err) = crown(&["book", "show", dir.join("junk.crb").to_str().unwrap()]);
    assert!(!ok && err.contains("not a Crown opening book"), "{err}");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.truncate(bytes.len() - 20);
    std::fs::write(&file, &bytes).unwrap();
    let (ok, _, err) = crown(&["book", "show", path]);
    assert!(!ok && err.contains("damaged"), "{err}");
    // An engine given a damaged book says so and goes on (here to its
    // connection, which nobody answers).
    let (ok, _, err) =
        crown(&["dxp", "--book", path, "--connect", "127.0.0.1:1", "--timeout", "5"]);
    assert!(err.contains("book") && err.contains("without a book"), "{err}");
    assert!(err.contains("127.0.0.1:1") && !ok, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
