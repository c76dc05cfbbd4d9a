//! The structure of the source tree, checked: dependencies point one way
//! (rules <- eval <- search <- engine <- protocols; the match runner is a
//! client of everything), and the variant-to-type switch exists once.
//!
//! Reads the sources as Rust tokens (comments, strings and character
//! literals dropped, so nothing in them counts) and leaves out test code:
//! an item under `#[cfg(test)]` (to its `;` or closing brace, so the code
//! after a test module still counts) and a module file declared by
//! `#[cfg(test)] mod name;`. Test code may reach across layers.
//!
//! A dependency is every path the code names that starts with `crate`,
//! `$crate`, `super` or `self`, made absolute from the module the code
//! stands in (its file's path, `mod.rs` naming its directory, plus any
//! inline `mod name { .. }` around it):
//!
//! * `use` trees, grouped and nested over any number of lines
//!   (`use crate::{eval::Evaluator, search::{tt, Limits}};`);
//! * paths used inline, in types and expressions (`crate::search::run(..)`,
//!   `crate::for_variant!`);
//! * `super::` (once or repeated) and `self::`, so `use super::engine::X;`
//!   in `src/search/mod.rs` is a use of `engine`.
//!
//! A path to a name the crate root re-exports (`crate::Variant`) or to an
//! exported macro (`crate::for_variant!`) counts as a use of the module
//! that defines it. The `the_scanner_*` and `the_switch_finder_*` tests feed
//! both checks synthetic sources, one form each: they fail when a check
//! stops seeing what it claims to catch.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layer of each top-level module of `src/`: a module may use modules
/// of its own layer or below, never above.
const LAYERS: &[(&str, u8)] = &[
    // Rules: the games, their scores, tables and clocks.
    ("game", 0),
    ("score", 0),
    ("endgame", 0),
    ("time", 0),
    ("perft", 0),
    ("chess", 0),
    ("draughts", 0),
    // The checksum every file format shares (no dependency of its own).
    ("checksum", 0),
    // The pseudo-random numbers (Zobrist keys, playouts; no dependency).
    ("rng", 0),
    ("text", 0),
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

// ---------------------------------------------------------------------------
// Tokens

/// An identifier or keyword (`$crate` reads as `crate`), `::`, or one
/// punctuation character, with its line. Literals and comments make none.
#[derive(Clone, Debug)]
struct Token {
    text: String,
    line: usize,
}

fn is_ident(text: &str) -> bool {
    text.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The tokens of `text`.
fn tokens(text: &str) -> Vec<Token> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let ident_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    // Skips from `i` up to and including `end` (a quote), `\` escaping the
    // next character; counts lines.
    let skip_quoted = |i: &mut usize, line: &mut usize, end: char| {
        while *i < c.len() && c[*i] != end {
            if c[*i] == '\\' {
                *i += 1;
            }
            if at(*i) == '\n' {
                *line += 1;
            }
            *i += 1;
        }
        *i += 1;
    };
    while i < c.len() {
        let (ch, next) = (c[i], at(i + 1));
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && next == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && next == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if ch == '"' {
            i += 1;
            skip_quoted(&mut i, &mut line, '"');
        } else if ch == '\'' {
            if next == '\\' {
                i += 1;
                skip_quoted(&mut i, &mut line, '\'');
            } else if at(i + 2) == '\'' {
                i += 3; // 'x'
            } else {
                i += 1; // a lifetime or a label: its name is not a path
                while i < c.len() && ident_char(c[i]) {
                    i += 1;
                }
            }
        } else if ch.is_ascii_digit() {
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
        } else if ch.is_alphabetic() || ch == '_' || (ch == '$' && is_ident(&next.to_string())) {
            let start = if ch == '$' { i + 1 } else { i };
            i = start;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // String prefixes: b"..", c"..", r"..", r#".."#, br"..".
            let raw = word == "r" || word == "br" || word == "cr";
            if matches!(word.as_str(), "b" | "c") && at(i) == '"' {
                i += 1;
                skip_quoted(&mut i, &mut line, '"');
            } else if word == "b" && at(i) == '\'' {
                i += 1;
                skip_quoted(&mut i, &mut line, '\'');
            } else if raw && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '#' | '"'))) {
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
                loop {
                    if i >= c.len() {
                        break;
                    }
                    if c[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            } else {
                out.push(Token { text: word, line });
            }
        } else if ch == ':' && next == ':' {
            out.push(Token { text: "::".into(), line });
            i += 2;
        } else {
            out.push(Token { text: ch.to_string(), line });
            i += 1;
        }
    }
    out
}

/// The index of the token that closes the bracket opened at `open`, or the
/// end.
fn closing(t: &[Token], open: usize) -> usize {
    let mut depth = 0i32;
    for (k, token) in t.iter().enumerate().skip(open) {
        match token.text.as_str() {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    t.len()
}

fn texts_at(t: &[Token], i: usize, want: &[&str]) -> bool {
    want.iter().enumerate().all(|(k, w)| t.get(i + k).is_some_and(|x| x.text == *w))
}

/// `t` without its test code, and the module files it declares as test code
/// (`#[cfg(test)] mod name;`). `#![cfg(test)]` makes the whole file test
/// code.
fn without_tests(t: Vec<Token>) -> (Vec<Token>, Vec<String>) {
    const CFG_TEST: &[&str] = &["#", "[", "cfg", "(", "test", ")", "]"];
    if (0..t.len()).any(|i| texts_at(&t, i, &["#", "!"]) && texts_at(&t, i + 1, CFG_TEST)) {
        return (Vec::new(), Vec::new());
    }
    let (mut kept, mut test_files) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < t.len() {
        if !texts_at(&t, i, CFG_TEST) {
            kept.push(t[i].clone());
            i += 1;
            continue;
        }
        // The item's other attributes, then the item to its `;` or closing
        // brace (or to the close of the block it stands in).
        let mut j = i + CFG_TEST.len();
        while texts_at(&t, j, &["#", "["]) {
            j = closing(&t, j + 1) + 1;
        }
        let start = j;
        let mut depth = 0i32;
        while j < t.len() {
            match t[j].text.as_str() {
                ";" if depth == 0 => break,
                "{" if depth == 0 => {
                    j = closing(&t, j);
                    break;
                }
                "(" | "[" | "{" => depth += 1,
                ")" | "]" | "}" if depth == 0 => {
                    j -= 1;
                    break;
                }
                ")" | "]" | "}" => depth -= 1,
                _ => {}
            }
            j += 1;
        }
        let item = &t[start..(j + 1).min(t.len())];
        if let Some(at) = item.iter().position(|x| x.text == "mod") {
            if texts_at(item, at + 2, &[";"]) {
                test_files.push(item[at + 1].text.clone());
            }
        }
        i = j + 1;
    }
    (kept, test_files)
}

// ---------------------------------------------------------------------------
// Paths

/// A path the code names and the line it is on.
#[derive(Debug)]
struct Named {
    path: Vec<String>,
    line: usize,
}

/// The paths of the `use` tree starting at `t[*i]`, each with `prefix` in
/// front; leaves `*i` after the tree.
fn use_tree(t: &[Token], i: &mut usize, prefix: &[String], out: &mut Vec<Named>) {
    let mut path = prefix.to_vec();
    if texts_at(t, *i, &["::"]) {
        *i += 1;
    }
    while let Some(token) = t.get(*i) {
        match token.text.as_str() {
            "{" => {
                *i += 1;
                while *i < t.len() && t[*i].text != "}" {
                    let before = *i;
                    use_tree(t, i, &path, out);
                    if texts_at(t, *i, &[","]) {
                        *i += 1;
                    }
                    if *i == before {
                        *i += 1; // not a tree: step over it
                    }
                }
                *i += 1;
                return;
            }
            "*" => {
                *i += 1;
                out.push(Named { path, line: token.line });
                return;
            }
            word if is_ident(word) => {
                path.push(word.to_string());
                *i += 1;
                if texts_at(t, *i, &["::"]) {
                    *i += 1;
                    continue;
                }
                if texts_at(t, *i, &["as"]) {
                    *i += 2;
                }
                out.push(Named { path, line: token.line });
                return;
            }
            _ => return,
        }
    }
}

/// Every path `t` names that starts with `crate`, `super` or `self`, made
/// absolute (module segments from the crate root) for code in `module`.
fn named_paths(t: &[Token], module: &[String]) -> Vec<Named> {
    let mut raw: Vec<(Named, Vec<String>)> = Vec::new();
    // Inline modules around the code: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut pending: Option<String> = None;
    let mut depth = 0;
    let mut i = 0;
    while i < t.len() {
        let here = || {
            let mut m = module.to_vec();
            m.extend(inline.iter().map(|(name, _)| name.clone()));
            m
        };
        match t[i].text.as_str() {
            "mod" if t.get(i + 1).is_some_and(|x| is_ident(&x.text)) => {
                pending = Some(t[i + 1].text.clone());
                i += 2;
                continue;
            }
            "{" => {
                depth += 1;
                if let Some(name) = pending.take() {
                    inline.push((name, depth));
                }
            }
            "}" => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            ";" => pending = None,
            "use" => {
                let mut found = Vec::new();
                let mut j = i + 1;
                use_tree(t, &mut j, &[], &mut found);
                let m = here();
                raw.extend(found.into_iter().map(|n| (n, m.clone())));
                i = j;
                continue;
            }
            "crate" | "super" | "self"
                if texts_at(t, i + 1, &["::"])
                    && (i == 0 || t[i - 1].text != "::")
                    && t.get(i + 2).is_some_and(|x| is_ident(&x.text)) =>
            {
                let line = t[i].line;
                let mut path = vec![t[i].text.clone()];
                let mut j = i + 1;
                while texts_at(t, j, &["::"]) && t.get(j + 1).is_some_and(|x| is_ident(&x.text)) {
                    path.push(t[j + 1].text.clone());
                    j += 2;
                }
                raw.push((Named { path, line }, here()));
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    raw.into_iter()
        .filter_map(|(n, m)| Some(Named { path: absolute(&n.path, &m)?, line: n.line }))
        .collect()
}

/// `path` from the crate root, for code in `module`; `None` for a path
/// that does not start at `crate`, `super` or `self` (another crate, a
/// name in scope) or climbs above the root.
fn absolute(path: &[String], module: &[String]) -> Option<Vec<String>> {
    let (mut base, mut rest) = match path.first()?.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (module.to_vec(), &path[1..]),
        "super" => (module.to_vec(), path),
        _ => return None,
    };
    while rest.first().is_some_and(|s| s == "super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// The module path of a file of `src/`: `search/tt.rs` is `search::tt`,
/// `search/mod.rs` is `search`, `lib.rs` and `main.rs` the root.
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> =
        rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !(stem == "mod" || (parts.is_empty() && matches!(stem, "lib" | "main"))) {
        parts.push(stem.to_string());
    }
    parts
}

/// The upward dependencies of a source tree (each file as its path under
/// `src/` and its text), one line each: `file:line: module (layer a) uses
/// target (layer b)`. Panics on a top-level module missing from [`LAYERS`].
fn upward(files: &[(PathBuf, String)]) -> Vec<String> {
    struct File<'a> {
        rel: &'a Path,
        module: Vec<String>,
        tokens: Vec<Token>,
    }
    let mut parsed = Vec::new();
    let mut test_modules: Vec<Vec<String>> = Vec::new();
    // Names the crate root re-exports or exports as macros, and their module.
    let mut root_names: BTreeMap<String, String> = BTreeMap::new();
    for (rel, text) in files {
        let module = module_path(rel);
        let (t, test_files) = without_tests(tokens(text));
        for name in test_files {
            let mut m = module.clone();
            m.push(name);
            test_modules.push(m);
        }
        for k in 0..t.len() {
            if texts_at(&t, k, &["#", "[", "macro_export", "]"]) {
                if let Some(at) = (k..t.len()).find(|&j| texts_at(&t, j, &["macro_rules", "!"])) {
                    if let (Some(name), Some(top)) = (t.get(at + 2), module.first()) {
                        root_names.insert(name.text.clone(), top.clone());
                    }
                }
            }
        }
        if module.is_empty() && rel == Path::new("lib.rs") {
            for k in 0..t.len() {
                if texts_at(&t, k, &["pub", "use"]) {
                    let mut found = Vec::new();
                    let mut j = k + 2;
                    use_tree(&t, &mut j, &[], &mut found);
                    for n in found {
                        let from = usize::from(matches!(n.path[0].as_str(), "crate" | "self"));
                        if let (Some(first), Some(last)) = (n.path.get(from), n.path.last()) {
                            root_names.insert(last.clone(), first.clone());
                        }
                    }
                }
            }
        }
        parsed.push(File { rel, module, tokens: t });
    }
    let mut wrong = BTreeSet::new();
    for file in &parsed {
        let Some(top) = file.module.first() else { continue }; // lib.rs, main.rs: above all
        if test_modules.iter().any(|m| file.module.starts_with(m)) {
            continue;
        }
        let own = layer(top).unwrap_or_else(|| panic!("{top} has no layer in LAYERS"));
        for named in named_paths(&file.tokens, &file.module) {
            let Some(first) = named.path.first() else { continue };
            let target = root_names.get(first).unwrap_or(first);
            if let Some(theirs) = layer(target).filter(|&l| l > own) {
                wrong.insert(format!(
                    "src/{}:{}: {top} (layer {own}) uses {target} (layer {theirs}) via {}",
                    file.rel.display(),
                    named.line,
                    named.path.join("::")
                ));
            }
        }
    }
    wrong.into_iter().collect()
}

fn read_tree(root: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    sources(root, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(root).expect("under the root").to_path_buf();
            (rel, std::fs::read_to_string(f).expect("read"))
        })
        .collect()
}

#[test]
fn no_layer_imports_a_higher_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = read_tree(&src);
    assert!(files.len() > 50, "the source tree was not found");
    let wrong = upward(&files);
    assert!(wrong.is_empty(), "dependencies pointing up:\n{}", wrong.join("\n"));
}

/// The targets the scanner finds in `text`, standing in file `rel` of
/// `src/`.
fn found(rel: &str, text: &str) -> Vec<String> {
    upward(&[(PathBuf::from(rel), text.to_string())])
}

fn uses(wrong: &[String], target: &str) -> bool {
    wrong.iter().any(|w| w.contains(&format!(" uses {target} ")))
}

#[test]
fn the_scanner_sees_a_plain_import() {
    let wrong = found("search/tt.rs", "use crate::engine::Session;");
    assert_eq!(
        wrong,
        vec!["src/search/tt.rs:1: search (layer 2) uses engine (layer 3) via engine::Session"]
    );
}

#[test]
fn the_scanner_sees_grouped_imports() {
    let one_line = "use crate::{game::Side, engine::Session};";
    assert!(uses(&found("search/mod.rs", one_line), "engine"));
    let nested = "use crate::{game::Side, protocol::{uci, hub::Hub}};";
    assert!(uses(&found("eval/chess.rs", nested), "protocol"));
    let multi_line = "use crate::{\n    game::{Game, Side},\n    search::{\n        tt::Entry,\n        Limits,\n    },\n};\nfn f() {}";
    let wrong = found("eval/chess.rs", multi_line);
    assert!(
        wrong.iter().any(|w| w.starts_with("src/eval/chess.rs:4: ") && w.contains("search")),
        "{wrong:?}"
    );
    assert!(wrong.iter().any(|w| w.starts_with("src/eval/chess.rs:5: ")), "{wrong:?}");
    let leading = "use ::std::fmt;\npub(crate) use crate::{self as root, tournament as t};";
    assert!(uses(&found("protocol/uci.rs", leading), "tournament"));
}

#[test]
fn the_scanner_resolves_super_and_self() {
    // mod.rs names its directory: one `super` reaches the crate root.
    assert!(uses(&found("search/mod.rs", "use super::engine::Session;"), "engine"));
    assert!(uses(&found("search/mod.rs", "use super::{game, protocol::uci};"), "protocol"));
    // In search/tt.rs, one `super` is `search`, two reach the root.
    assert!(found("search/tt.rs", "use super::engine::Session;").is_empty());
    assert!(uses(&found("search/tt.rs", "use super::super::engine::Session;"), "engine"));
    assert!(uses(
        &found("eval/nnue/simd.rs", "fn f() { super::super::super::search::go(); }"),
        "search"
    ));
    // `self` stays inside the module, whatever the next name is.
    assert!(found("search/mod.rs", "use self::engine::Session;").is_empty());
    assert!(found("search/mod.rs", "pub use self::{protocol::X, tt::Y};").is_empty());
    // Inside an inline module, `super` is the file's module.
    let inline = "mod inner {\n    use super::engine::Session;\n}\nuse super::tournament;";
    let wrong = found("search/mod.rs", inline);
    assert!(!uses(&wrong, "engine"), "{wrong:?}");
    assert!(uses(&wrong, "tournament"), "{wrong:?}");
    let deeper = "mod inner { mod deeper { use super::super::super::protocol::X; } }";
    assert!(uses(&found("search/mod.rs", deeper), "protocol"));
}

#[test]
fn the_scanner_sees_paths_used_inline() {
    let call = "fn f() -> u32 {\n    let s = crate::engine::Session::new();\n    s.go()\n}";
    assert_eq!(
        found("search/alphabeta.rs", call),
        vec!["src/search/alphabeta.rs:2: search (layer 2) uses engine (layer 3) via engine::Session::new"]
    );
    let typed = "pub struct X { session: crate::protocol::uci::Uci }";
    assert!(uses(&found("eval/mod.rs", typed), "protocol"));
    let generic = "fn f(v: Vec<crate::tournament::Game>) {}";
    assert!(uses(&found("engine/pool.rs", generic), "tournament"));
    let in_macro = "macro_rules! m { () => { $crate::engine::go() }; }";
    assert!(uses(&found("game.rs", in_macro), "engine"));
    // A crate-root re-export or an exported macro counts for its module.
    let files = vec![
        (PathBuf::from("lib.rs"), "pub use engine::Session;".to_string()),
        (
            PathBuf::from("engine/mod.rs"),
            "#[macro_export]\nmacro_rules! go { () => {} }".to_string(),
        ),
        (PathBuf::from("eval/mod.rs"), "use crate::Session;\nfn f() { crate::go!(); }".to_string()),
    ];
    let wrong = upward(&files);
    assert!(
        wrong.iter().any(|w| w.starts_with("src/eval/mod.rs:1: ") && w.contains("uses engine")),
        "{wrong:?}"
    );
    assert!(
        wrong.iter().any(|w| w.starts_with("src/eval/mod.rs:2: ") && w.contains("uses engine")),
        "{wrong:?}"
    );
}

#[test]
fn the_scanner_skips_comments_strings_and_test_code() {
    let text = r##"
// use crate::engine::Session;
/* crate::engine::go() /* nested */ crate::protocol */
/// Calls `crate::engine::go`.
fn f() -> &'static str { let _c = '"'; let _l = 'x'; "crate::engine::go" }
fn g() -> &'static str { r#"use crate::engine"# }
#[cfg(test)]
mod tests {
    use crate::engine::Session;
}
#[cfg(test)]
use crate::protocol::uci;
#[cfg(test)]
mod more_tests;
"##;
    assert_eq!(found("search/mod.rs", text), Vec::<String>::new());
    // Code after a test module still counts.
    let after = "#[cfg(test)]\nmod tests { use crate::engine::X; }\nuse crate::protocol::Y;";
    assert_eq!(
        found("search/mod.rs", after),
        vec!["src/search/mod.rs:3: search (layer 2) uses protocol (layer 4) via protocol::Y"]
    );
    // A module file declared under `#[cfg(test)]` is test code.
    let files = vec![
        (PathBuf::from("search/mod.rs"), "#[cfg(test)]\nmod more_tests;".to_string()),
        (PathBuf::from("search/more_tests.rs"), "use crate::engine::X;".to_string()),
        (PathBuf::from("search/other.rs"), "use crate::engine::X;".to_string()),
    ];
    assert_eq!(
        upward(&files),
        vec!["src/search/other.rs:1: search (layer 2) uses engine (layer 3) via engine::X"]
    );
}

#[test]
fn the_scanner_knows_every_module() {
    assert!(layer("engine") > layer("search"));
    assert_eq!(layer("rng"), Some(0));
    let result = std::panic::catch_unwind(|| found("newthing/mod.rs", "fn f() {}"));
    assert!(result.is_err(), "a module missing from LAYERS must fail the check");
}

// ---------------------------------------------------------------------------
// The variant switch

/// The names of the variants of `enum Variant` in `src/game.rs`.
fn variant_names() -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/game.rs");
    let t = tokens(&std::fs::read_to_string(path).expect("game.rs"));
    let start = (0..t.len())
        .find(|&i| texts_at(&t, i, &["enum", "Variant", "{"]))
        .expect("enum Variant in game.rs");
    let end = closing(&t, start + 2);
    let mut names = Vec::new();
    let mut i = start + 3;
    while i < end {
        if texts_at(&t, i, &["#", "["]) {
            i = closing(&t, i + 1) + 1;
            continue;
        }
        if is_ident(&t[i].text) && matches!(t[i + 1].text.as_str(), "," | "}" | "=") {
            names.push(t[i].text.clone());
        }
        i += 1;
    }
    assert!(names.len() >= 13, "variants of game.rs: {names:?}");
    names
}

/// The variant a match arm's pattern names: `Variant::X`, or a bare `X`
/// (imported by `use Variant::*`) that is not a path or a constructor.
fn pattern_variant(pattern: &[Token], variants: &[String]) -> Option<String> {
    (0..pattern.len()).find_map(|k| {
        let word = &pattern[k].text;
        if !variants.contains(word) {
            return None;
        }
        let qualified = k >= 2 && pattern[k - 1].text == "::" && pattern[k - 2].text == "Variant";
        let bare = (k == 0 || pattern[k - 1].text != "::")
            && !pattern.get(k + 1).is_some_and(|x| matches!(x.text.as_str(), "::" | "(" | "{"));
        (qualified || bare).then(|| word.clone())
    })
}

/// Whether a match arm's body names a game type: a rules type (`*Rules`),
/// `Position`, `Draughts`, `Engine`, a `draughts::X` alias, a `type` binding,
/// or a constructor of another enum's variant named like the arm's
/// (`Variant::Killer => AnyEngine::Killer(..)`).
fn names_a_type(body: &[Token], variant: &str) -> bool {
    (0..body.len()).any(|k| {
        let word = body[k].text.as_str();
        (word.ends_with("Rules") && word != "Rules")
            || matches!(word, "Position" | "Draughts" | "Engine")
            || (word == "type" && body.get(k + 1).is_some_and(|x| is_ident(&x.text)))
            || (word == "draughts"
                && texts_at(body, k + 1, &["::"])
                && body.get(k + 2).is_some_and(|x| x.text.starts_with(char::is_uppercase)))
            || (word != "Variant" && texts_at(body, k + 1, &["::", variant, "("]))
    })
}

/// The `match` expressions of `text` (test code left out) that switch from
/// a variant to a type: an arm whose pattern names a variant and whose body
/// names a game type.
fn variant_switches(text: &str, variants: &[String]) -> usize {
    let (t, _) = without_tests(tokens(text));
    let mut count = 0;
    for m in (0..t.len()).filter(|&i| t[i].text == "match") {
        // The scrutinee runs to the first `{` outside brackets.
        let mut open = m + 1;
        while open < t.len() && t[open].text != "{" {
            if matches!(t[open].text.as_str(), "(" | "[") {
                open = closing(&t, open);
            }
            open += 1;
        }
        let end = closing(&t, open);
        let mut k = open + 1;
        let mut switch = false;
        while k < end && !switch {
            // The pattern: to `=>` outside brackets.
            let start = k;
            while k < end && !texts_at(&t, k, &["=", ">"]) {
                if matches!(t[k].text.as_str(), "(" | "[" | "{") {
                    k = closing(&t, k);
                }
                k += 1;
            }
            let pattern = &t[start..k.min(end)];
            k += 2;
            // The body: a block, or to `,` outside brackets.
            let body_start = k;
            if texts_at(&t, k, &["{"]) {
                k = closing(&t, k) + 1;
            } else {
                while k < end && t[k].text != "," {
                    if matches!(t[k].text.as_str(), "(" | "[" | "{") {
                        k = closing(&t, k);
                    }
                    k += 1;
                }
            }
            let body = &t[body_start.min(end)..k.min(end)];
            if texts_at(&t, k, &[","]) {
                k += 1;
            }
            if let Some(variant) = pattern_variant(pattern, variants) {
                switch = names_a_type(body, &variant);
            }
        }
        count += usize::from(switch);
    }
    count
}

#[test]
fn one_variant_switch() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let variants = variant_names();
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    sources(&root.join("tuning").join("src"), &mut files);
    let with_switch: Vec<String> = files
        .iter()
        .filter(|f| variant_switches(&std::fs::read_to_string(f).expect("read"), &variants) > 0)
        .map(|f| f.strip_prefix(root).unwrap_or(f).display().to_string())
        .collect();
    assert_eq!(with_switch, vec!["src/game.rs".to_string()], "variant-to-type switches");
    let game = std::fs::read_to_string(root.join("src/game.rs")).expect("game.rs");
    assert_eq!(variant_switches(&game, &variants), 1, "for_variant! maps each variant once");
}

#[test]
fn the_switch_finder_sees_a_switch_on_any_variant() {
    let v = variant_names();
    let brazilian =
        "match v {\n    Variant::Brazilian => {\n        type G = crate::draughts::Brazilian;\n        run::<G>()\n    }\n    _ => {}\n}";
    assert_eq!(variant_switches(brazilian, &v), 1);
    // Any variant, a type far below its arm, a macro's `$crate` path.
    let italian = "match v {\n    Variant::Chess => 0,\n    Variant::Italian => {\n        let x = 1;\n\n        // a long arm\n\n        let y = 2;\n        run::<ItalianRules>(x, y)\n    }\n}";
    assert_eq!(variant_switches(italian, &v), 1);
    let in_macro =
        "match $v { $crate::game::Variant::Frysk => { type $R = __rules::FryskRules; $body } }";
    assert_eq!(variant_switches(in_macro, &v), 1);
    // An or-pattern with bare names (`use Variant::*`) to a generic type.
    let bare =
        "match v { Chess | Chess960 => None, Frisian | Frysk => Some(Draughts::<R>::start()) }";
    assert_eq!(variant_switches(bare, &v), 1);
    // An enum over engines built per variant.
    let engines = "let e = match variant {\n    Variant::Killer => AnyEngine::Killer(new(v)),\n    _ => todo!(),\n};";
    assert_eq!(variant_switches(engines, &v), 1);
    let sessions = "match variant { Variant::Chess => Session::Chess(Engine::new()), _ => x }";
    assert_eq!(variant_switches(sessions, &v), 1);
    // Two switches in one file count twice.
    assert_eq!(variant_switches(&format!("{italian}\n{engines}"), &v), 2);
}

#[test]
fn the_switch_finder_ignores_what_is_no_switch() {
    let v = variant_names();
    // A variant to a value, not a type.
    assert_eq!(
        variant_switches("match v { Variant::Brazilian => \"brazilian\", _ => \"\" }", &v),
        0
    );
    let numbers = "match v {\n    Variant::English => \"21\",\n    Variant::Turkish => 64,\n    Variant::Chess960 => CastlingMode::Chess960,\n    _ => x.parse::<u8>(),\n}";
    assert_eq!(variant_switches(numbers, &v), 0);
    // A match over the engines, whatever they hold.
    let engines = "match &self.engine { AnyEngine::Chess(_) => Variant::Chess, e => with_engine!(e, x => x.go()) }";
    assert_eq!(variant_switches(engines, &v), 0);
    // Comments, strings and test code.
    let hidden = "// match v { Variant::Italian => { type G = ItalianRules; } }\nfn f() -> &'static str { \"match v { Variant::Russian => RussianRules }\" }\n#[cfg(test)]\nmod tests { fn t() { match v { Variant::Killer => run::<KillerRules>(), _ => {} } } }";
    assert_eq!(variant_switches(hidden, &v), 0);
}
