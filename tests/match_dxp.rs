//! The runner drives DamExchange engines: crown (`crown dxp --connect
//! 127.0.0.1:{port}`) against crown over Hub in international draughts, and
//! broken DXP peers (one that never connects, one that sends garbage) that
//! lose their games with a stated reason while the match completes, and
//! peers that end the game themselves with GAMEEND.

use std::process::Command;

fn crown_match(extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_crown"))
        .args(["match", "--variant", "international"])
        .args(extra)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    text
}

/// `crown match` of Crown over Hub (named `hub`) against what `rest` adds.
fn hub_against(rest: &[&str]) -> String {
    let cmd = format!("cmd={}", env!("CARGO_BIN_EXE_crown"));
    let mut args = vec!["--engine", "name=hub", &cmd, "arg=hub", "proto=hub"];
    args.extend_from_slice(rest);
    crown_match(&args)
}

#[test]
fn crown_over_dxp_against_crown_over_hub() {
    let crown = env!("CARGO_BIN_EXE_crown");
    let (cmd, dxp) = (format!("cmd={crown}"), "127.0.0.1:{port}");
    let text = crown_match(&[
        "--engine",
        "name=hub",
        &cmd,
        "arg=hub",
        "proto=hub",
        "--engine",
        "name=dxp",
        &cmd,
        "arg=dxp",
        "arg=--connect",
        &format!("arg={dxp}"),
        "arg=--movetime",
        "arg=50",
        "arg=--hash",
        "arg=4",
        "proto=dxp",
        "--each",
        "tc=10+0.1",
        "--repeat",
        "--maxmoves",
        "60",
        "--random-plies",
        "2",
    ]);
    assert!(text.contains("Finished match: 2 games"), "{text}");
    let line = text.lines().find(|l| l.starts_with("Games by termination")).unwrap();
    assert!(!line.contains("rules infraction") && !line.contains("abandoned"), "{text}");
    assert!(!line.contains("time forfeit"), "{text}");
    assert!(!text.contains("illegal") && !text.contains("disconnects"), "{text}");
}

/// At `tc=3+0.03` DXP can only say "1 minute for the game": the runner says
/// so and judges the DXP engine by that clock, so it keeps its time (before,
/// it was told 1 minute and charged 3 s, and lost every game on time).
#[test]
fn a_dxp_engine_keeps_a_fast_control() {
    let crown = env!("CARGO_BIN_EXE_crown");
    let cmd = format!("cmd={crown}");
    let text = crown_match(&[
        "--engine",
        "name=hub",
        &cmd,
        "arg=hub",
        "proto=hub",
        "--engine",
        "name=dxp",
        &cmd,
        "arg=dxp",
        "arg=--connect",
        "arg=127.0.0.1:{port}",
        "arg=--hash",
        "arg=4",
        "proto=dxp",
        "--each",
        "tc=3+0.03",
        "--repeat",
        "--concurrency",
        "2",
        "--maxmoves",
        "12",
        "--random-plies",
        "2",
    ]);
    assert!(text.contains("Note: engine dxp (DXP) plays 1 min for the game"), "{text}");
    assert!(text.contains("Finished match: 2 games"), "{text}");
    let line = text.lines().find(|l| l.starts_with("Games by termination")).unwrap();
    assert!(!line.contains("time forfeit") && !line.contains("abandoned"), "{text}");
    assert!(!text.contains("illegal") && !text.contains("loses on time"), "{text}");
}

#[test]
fn broken_dxp_peers_lose_with_a_reason() {
    // Never connects: exits at once.
    let text = hub_against(&[
        "--engine",
        "name=gone",
        "cmd=false",
        "proto=dxp",
        "--each",
        "tc=5+0.05",
        "--repeat",
    ]);
    assert!(text.contains("Finished match: 2 games"), "{text}");
    assert!(text.contains("fails to start"), "{text}");

    // Connects, accepts the game, then sends a MOVE that does not decode.
    let dir = std::env::temp_dir().join(format!("crown-match-dxp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("junk.sh");
    std::fs::write(
        &script,
        "#!/bin/bash\nexec 3<>/dev/tcp/127.0.0.1/$1\n\
         printf 'A%-32s0\\0' Junk >&3\nprintf 'Mjunk\\0' >&3\nsleep 5\n",
    )
    .unwrap();
    let mut perm = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&script, perm).unwrap();
    let text = hub_against(&[
        "--engine",
        "name=junk",
        &format!("cmd={}", script.display()),
        "arg={port}",
        "proto=dxp",
        "--each",
        "tc=5+0.05",
        "--repeat",
    ]);
    assert!(text.contains("Finished match: 2 games"), "{text}");
    assert!(text.contains("malformed"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A DXP peer script that accepts every game and answers each search with
/// `reply` (a DXP message without its terminating zero byte).
fn scripted_peer(dir: &std::path::Path, name: &str, reply: &str) -> std::path::PathBuf {
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!(
            "#!/bin/bash\nexec 3<>/dev/tcp/127.0.0.1/$1\n\
             while IFS= read -r -d '' msg <&3; do\n\
               case $msg in R*) printf 'A%-32s0\\0' Peer >&3; printf '{reply}\\0' >&3;;\n\
               M*) printf '{reply}\\0' >&3;; esac\n\
             done\n"
        ),
    )
    .unwrap();
    let mut perm = std::fs::metadata(&script).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
    std::fs::set_permissions(&script, perm).unwrap();
    script
}

#[test]
fn a_peer_that_ends_the_game_is_judged() {
    let dir = std::env::temp_dir().join(format!("crown-match-dxp-end-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let play = |script: &std::path::Path| {
        hub_against(&[
            "--engine",
            "name=peer",
            &format!("cmd={}", script.display()),
            "arg={port}",
            "proto=dxp",
            "--each",
            "tc=75/60",
            "--repeat",
        ])
    };
    // GAMEEND "I lose": a resignation.
    let text = play(&scripted_peer(&dir, "resign.sh", "E10"));
    assert!(text.contains("Finished match: 2 games"), "{text}");
    assert!(text.contains("resigns (DXP GAMEEND)"), "{text}");
    assert!(text.contains("Score of hub vs peer: 2 - 0 - 0"), "{text}");
    // A draw claimed long before the 75-move limit forfeits the game.
    let text = play(&scripted_peer(&dir, "claim.sh", "E20"));
    assert!(text.contains("Finished match: 2 games"), "{text}");
    assert!(text.contains("claiming a draw, which the rules do not give"), "{text}");
    assert!(text.contains("Score of hub vs peer: 2 - 0 - 0"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dxp_is_for_international_only() {
    let out = Command::new(env!("CARGO_BIN_EXE_crown"))
        .args(["match", "--variant", "russian", "--engine", "name=a", "cmd=x", "proto=dxp"])
        .args(["--engine", "name=b", "cmd=y", "proto=hub"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let all =
        format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(all.contains("international draughts only"), "{all}");
}
