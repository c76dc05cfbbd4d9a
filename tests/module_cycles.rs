//! The import graph of the match runner (`src/tournament/`) and of the
//! tuning crate (`tuning/src/`) has no cycle: every module can be read
//! after the modules it uses, never in a loop.
//!
//! A module's edges are the sibling modules its code names through
//! `super::x` / `super::{x, ...}` (outside its `#[cfg(test)] mod tests`)
//! or through its full path (`crate::tournament::x`, `crate::x` in the
//! tuning crate), comments left out. `cargo test --test module_cycles --
//! --nocapture` prints the graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The identifiers that follow each `prefix` in `code` (`a` in `prefix a::b`,
/// and every first identifier of a `prefix{a, b::c}` group).
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let ident = |s: &str| -> String {
        s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
    };
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // `foo_super::` or `a::super::`: not this prefix
        }
        let rest = &code[at + prefix.len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(group.split(',').map(ident));
        } else {
            out.push(ident(rest));
        }
    }
    out
}

/// The sibling-import graph of the `.rs` files of `dir` (`mod.rs` and
/// `lib.rs`/`main.rs` left out: they declare the modules, not use them).
fn graph(dir: &Path, full_prefix: &str) -> Graph {
    let mut files = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") && !["mod", "lib", "main"].contains(&&*name)
        {
            files.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let mut graph = Graph::new();
    for (name, text) in &files {
        let code: String = text
            .lines()
            .map(|line| line.find("//").map_or(line, |i| &line[..i]))
            .collect::<Vec<_>>()
            .join("\n");
        let own = code.find("#[cfg(test)]\nmod tests").map_or(&code[..], |i| &code[..i]);
        let mut used: BTreeSet<String> = BTreeSet::new();
        used.extend(names_after(own, "super::"));
        used.extend(names_after(&code, full_prefix));
        used.retain(|m| m != name && files.contains_key(m));
        graph.insert(name.clone(), used);
    }
    graph
}

/// A cycle of `graph`, as a path that ends where it starts, if there is one.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        done: &mut BTreeSet<String>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in &graph[node] {
            if let Some(cycle) = visit(next, graph, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|start| visit(start, graph, &mut done, &mut Vec::new()))
}

fn check(dir: &str, full_prefix: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let graph = graph(&root, full_prefix);
    println!("{dir}: {} modules", graph.len());
    for (module, used) in &graph {
        let used: Vec<&str> = used.iter().map(String::as_str).collect();
        println!("  {module} -> {}", used.join(", "));
    }
    match find_cycle(&graph) {
        Some(cycle) => panic!("{dir}: import cycle {}", cycle.join(" -> ")),
        None => println!("  no cycle"),
    }
}

#[test]
fn match_runner_modules_form_no_cycle() {
    check("src/tournament", "crate::tournament::");
}

#[test]
fn tuning_modules_form_no_cycle() {
    check("tuning/src", "crate::");
}

#[test]
fn a_cycle_is_found() {
    let mut graph = Graph::new();
    for (a, b) in [("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")] {
        graph.entry(a.to_string()).or_default().insert(b.to_string());
        graph.entry(b.to_string()).or_default();
    }
    assert_eq!(find_cycle(&graph).unwrap().join(" "), "a b c a");
    graph.get_mut("c").unwrap().clear();
    assert_eq!(find_cycle(&graph), None);
    let code =
        "use super::{play::x, clock};\nlet a = crate::tournament::dxp_client::f; super::stats";
    assert_eq!(names_after(code, "super::"), ["play", "clock", "stats"]);
    assert_eq!(names_after(code, "crate::tournament::"), ["dxp_client"]);
}
