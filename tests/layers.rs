//! The structure of the source tree, checked: dependencies point one way
//! (rules <- eval <- search <- engine <- protocols; the match runner is a
//! client of everything), and the variant-to-type switch exists once.
//!
//! Reads the sources as text: every `crate::<module>` path outside comments
//! and outside `#[cfg(test)]` code names a dependency of the module whose
//! file it stands in. Test code may reach across layers.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The layer of each top-level module of `src/`: a module may use modules
/// of its own layer or below, never above.
const LAYERS: &[(&str, u8)] = &[
    // Rules: the games, their scores, tables and clocks.
    ("game", 0),
    ("score", 0),
    ("tablebase", 0),
    ("time", 0),
    ("perft", 0),
    ("chess", 0),
    ("draughts", 0),
    ("egtb", 0),
    // The checksum every file format shares (no dependency of its own).
    ("checksum", 0),
    // Evaluation.
    ("eval", 1),
    // Search.
    ("search", 2),
    // Engine (and the bench and the opening book, which drive searches).
    ("engine", 3),
    ("bench", 3),
    ("book", 3),
    // Protocols.
    ("protocol", 4),
    // The match runner: a client of all the above.
    ("tournament", 5),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(name, _)| *name == module).map(|&(_, l)| l)
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code lines of a file that count: no comments, nothing from the first
/// `#[cfg(test)]` on.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .filter(|l| !l.trim_start().starts_with("//"))
}

/// The top-level module a file of `src/` belongs to.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src");
    let first = rel.components().next().expect("a component");
    first.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string()
}

/// Every `crate::name` (or `$crate::name`) in `line`.
fn crate_paths(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        let name: String =
            after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !name.is_empty() {
            found.push(name);
        }
        rest = after;
    }
    found
}

#[test]
fn no_layer_imports_a_higher_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 50, "the source tree was not found");
    let mut wrong = BTreeSet::new();
    for file in &files {
        let module = module_of(&src, file);
        let Some(own) = layer(&module) else {
            // lib.rs and main.rs sit above every layer.
            assert!(matches!(module.as_str(), "lib" | "main"), "{module} has no layer");
            continue;
        };
        let text = std::fs::read_to_string(file).expect("read");
        for line in code_lines(&text) {
            for used in crate_paths(line) {
                // Macros exported at the crate root (for_variant!) belong to game.
                let target = if used == "for_variant" { "game".to_string() } else { used };
                if let Some(theirs) = layer(&target) {
                    if theirs > own {
                        wrong.insert(format!("{} uses {target}", file.display()));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "imports pointing up:\n{}", Vec::from_iter(wrong).join("\n"));
}

#[test]
fn the_checker_sees_an_upward_import() {
    let text = "use crate::engine::Session;\n// crate::protocol in a comment\n#[cfg(test)]\nuse crate::tournament;";
    let used: Vec<String> = code_lines(text).flat_map(crate_paths).collect();
    assert_eq!(used, vec!["engine".to_string()]);
    assert!(layer("engine") > layer("search"));
}

/// A match arm from a variant to a game or rules type: `Variant::Brazilian`
/// and, on the same line or the next few, a Brazilian position or rules type.
fn variant_switches(text: &str) -> usize {
    let lines: Vec<&str> = code_lines(text).collect();
    lines
        .iter()
        .enumerate()
        .filter(|(i, line)| {
            line.contains("Variant::Brazilian")
                && lines[*i..(*i + 4).min(lines.len())]
                    .iter()
                    .any(|l| l.contains("BrazilianRules") || l.contains("draughts::Brazilian"))
        })
        .count()
}

#[test]
fn one_variant_switch() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    sources(&root.join("tuning").join("src"), &mut files);
    let with_switch: Vec<String> = files
        .iter()
        .filter(|f| variant_switches(&std::fs::read_to_string(f).expect("read")) > 0)
        .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
        .collect();
    assert_eq!(with_switch, vec!["src/game.rs".to_string()], "variant-to-type switches");
    let game = std::fs::read_to_string(root.join("src/game.rs")).expect("game.rs");
    assert_eq!(variant_switches(&game), 1, "for_variant! maps each variant once");
}

#[test]
fn the_switch_finder_sees_a_switch() {
    let text =
        "match v {\n    Variant::Brazilian => {\n        type G = crate::draughts::Brazilian;";
    assert_eq!(variant_switches(text), 1);
    assert_eq!(variant_switches("Variant::Brazilian => \"brazilian\","), 0);
}
