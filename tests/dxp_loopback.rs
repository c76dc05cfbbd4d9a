//! Crown plays crown over loopback DamExchange, in both role combinations:
//! a listening initiator against a connecting follower, and a listening
//! follower against a connecting initiator (two games on one connection).
//! Each side's `--log` is replayed with the crown rules: every move legal,
//! each game played to a GAMEEND that the rules justify.

mod dxp_support;

use dxp_support::{free_port, replay_log, scratch, Crown};
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(240);

fn check_logs(initiator_log: &std::path::Path, follower_log: &std::path::Path, games: usize) {
    for path in [initiator_log, follower_log] {
        let text = std::fs::read_to_string(path).unwrap();
        let seen = replay_log(&text);
        assert_eq!(seen.len(), games, "{}:\n{text}", path.display());
        for game in seen {
            assert!(game.moves > 0, "{text}");
            assert_eq!(game.over_by_rule, Some(true), "{}:\n{text}", path.display());
        }
        assert!(!text.contains("panic"), "{text}");
    }
}

#[test]
fn listening_initiator_against_connecting_follower() {
    let dir = scratch("listen-init");
    let (a_log, b_log) = (dir.join("initiator.log"), dir.join("follower.log"));
    let port = free_port().to_string();
    let mut a = Crown::dxp(&[
        "--listen",
        &port,
        "--initiator",
        "--games",
        "1",
        "--movetime",
        "15",
        "--hash",
        "4",
        "--log",
        a_log.to_str().unwrap(),
    ]);
    let mut b = Crown::dxp(&[
        "--connect",
        &format!("127.0.0.1:{port}"),
        "--movetime",
        "15",
        "--hash",
        "4",
        "--log",
        b_log.to_str().unwrap(),
    ]);
    assert!(a.wait(LIMIT).is_some_and(|s| s.success()), "initiator did not finish");
    assert!(b.wait(LIMIT).is_some_and(|s| s.success()), "follower did not finish");
    check_logs(&a_log, &b_log, 1);
}

#[test]
fn listening_follower_against_connecting_initiator() {
    let dir = scratch("listen-follow");
    let (a_log, b_log) = (dir.join("follower.log"), dir.join("initiator.log"));
    let port = free_port().to_string();
    let mut a = Crown::dxp(&[
        "--listen",
        &port,
        "--games",
        "2",
        "--movetime",
        "15",
        "--hash",
        "4",
        "--name",
        "Listening follower",
        "--log",
        a_log.to_str().unwrap(),
    ]);
    let mut b = Crown::dxp(&[
        "--connect",
        &format!("127.0.0.1:{port}"),
        "--initiator",
        "--colour",
        "black",
        "--games",
        "2",
        "--minutes",
        "1",
        "--moves",
        "0",
        "--movetime",
        "15",
        "--hash",
        "4",
        "--fen",
        "W:W31,32,33,34,35,36,37,38,39,40:B11,12,13,14,15,16,17,18,19,20",
        "--log",
        b_log.to_str().unwrap(),
    ]);
    assert!(b.wait(LIMIT).is_some_and(|s| s.success()), "initiator did not finish");
    assert!(a.wait(LIMIT).is_some_and(|s| s.success()), "follower did not finish");
    check_logs(&b_log, &a_log, 2);
    let text = std::fs::read_to_string(&b_log).unwrap();
    // The initiator plays black: the follower is asked to play white, from the
    // given position (indicator B, white to move).
    let req = text.lines().find(|l| l.contains(" send R01")).unwrap();
    assert!(req.contains("W001000BW"), "{req}");
}
