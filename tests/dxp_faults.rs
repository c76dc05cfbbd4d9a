//! A scripted peer against `crown dxp --listen`: malformed messages, a wrong
//! protocol version, an impossible position, illegal, unmatchable and
//! out-of-turn moves, an oversize message, a dropped and a stalled
//! connection. Crown must answer each per the protocol or end the game or
//! connection cleanly, keep running, and accept the next game. Command-line
//! values the protocol cannot honour are refused before any connection.

mod cli_support;
mod dxp_support;

use dxp_support::{free_port, gamereq, scratch, Crown, Peer};
use std::net::Shutdown;
use std::time::{Duration, Instant};

/// 50 empty squares with the given pieces (`(square, char)`).
fn board(pieces: &[(usize, char)]) -> String {
    let mut b = vec!['e'; 50];
    for &(square, c) in pieces {
        b[square - 1] = c;
    }
    b.into_iter().collect()
}

/// Starts a game in which crown follows with black; asserts acceptance.
fn start_game(peer: &mut Peer, setup: &str) {
    peer.send(&gamereq('Z', setup));
    let acc = peer.recv_kind('A').expect("GAMEACC");
    assert_eq!((acc.len(), acc.chars().last()), (34, Some('0')), "{acc}");
}

/// Expects crown to end the game, answers its GAMEEND, and checks that the
/// same connection then accepts another game (which the peer ends at once).
fn expect_end_then_next_game(peer: &mut Peer) {
    let end = peer.recv_kind('E').expect("GAMEEND after the fault");
    assert_eq!(end.len(), 3, "{end}");
    peer.send("E00");
    start_game(peer, "A");
    peer.send("E00");
    assert!(peer.recv_kind('E').is_some(), "GAMEEND answered");
}

#[test]
fn crown_survives_every_fault_and_accepts_the_next_game() {
    let dir = scratch("faults");
    let log = dir.join("listener.log");
    let port = free_port();
    let mut crown = Crown::dxp(&[
        "--listen",
        &port.to_string(),
        "--movetime",
        "300",
        "--timeout",
        "3",
        "--hash",
        "4",
        "--log",
        log.to_str().unwrap(),
    ]);

    // Garbage outside a game is ignored; the game request that follows is accepted.
    let mut peer = Peer::connect(port);
    peer.send("garbage that is no message");
    peer.send_raw(b"\x01\x02\xff\0");
    peer.send("M99");
    peer.send("R01short");
    let acc = peer.recv_kind('A').expect("a GAMEACC for the malformed GAMEREQ");
    assert!(acc.ends_with('2'), "{acc}");
    // A follower colour that is neither W nor Z: refused, code 2.
    peer.send(&gamereq('X', "A"));
    assert!(peer.recv_kind('A').expect("GAMEACC").ends_with('2'));
    start_game(&mut peer, "A");
    // A GAMEREQ during the game is refused and the game goes on.
    peer.send(&gamereq('Z', "A"));
    assert!(peer.recv_kind('A').expect("GAMEACC mid-game").ends_with('2'));
    // Malformed inside a game ends it.
    peer.send("Mxyz");
    expect_end_then_next_game(&mut peer);
    drop(peer);

    // Wrong version: code 1.
    let mut peer = Peer::connect(port);
    peer.send(&gamereq('Z', "A").replacen("R01", "R02", 1));
    let acc = peer.recv_kind('A').expect("GAMEACC");
    assert!(acc.ends_with('1'), "{acc}");
    // Impossible position (a white man on its crown row): code 2.
    let setup = format!("BW{}", board(&[(3, 'w'), (40, 'w'), (20, 'z')]));
    peer.send(&gamereq('Z', &setup));
    let acc = peer.recv_kind('A').expect("GAMEACC");
    assert!(acc.ends_with('2'), "{acc}");
    // More than 20 pieces a side: code 2.
    let crowded: Vec<(usize, char)> = (6..=26).map(|s| (s, 'z')).chain([(40, 'w')]).collect();
    peer.send(&gamereq('Z', &format!("BW{}", board(&crowded))));
    assert!(peer.recv_kind('A').expect("GAMEACC").ends_with('2'));

    // Illegal move.
    start_game(&mut peer, "A");
    peer.send("M0000312200");
    expect_end_then_next_game(&mut peer);

    // Unmatchable capture: 28x19 is forced, but it captures 23, not 22.
    let setup = format!("BW{}", board(&[(28, 'w'), (45, 'w'), (23, 'z'), (5, 'z')]));
    start_game(&mut peer, &setup);
    peer.send("M000028190122");
    expect_end_then_next_game(&mut peer);

    // A move out of turn: the second move arrives while crown thinks.
    start_game(&mut peer, "A");
    peer.send_raw(b"M0000322800\0M0000312700\0");
    expect_end_then_next_game(&mut peer);
    drop(peer);

    // An oversize message without terminator: the connection is dropped.
    let mut peer = Peer::connect(port);
    peer.send_raw(&[b'C'; 200]);
    assert_eq!(peer.recv(), None, "connection dropped");

    // A peer that drops the connection mid-game.
    let mut peer = Peer::connect(port);
    start_game(&mut peer, "A");
    peer.send("M0000322800");
    assert!(peer.recv_kind('M').is_some(), "crown answers the move");
    let _ = peer.stream.shutdown(Shutdown::Both);
    drop(peer);

    // A peer that stalls: crown drops it after its 3 s timeout.
    let mut peer = Peer::connect(port);
    start_game(&mut peer, "A");
    let started = Instant::now();
    assert_eq!(peer.recv(), None, "stalled connection dropped");
    assert!(started.elapsed() < Duration::from_secs(15));

    // Still serving: chat, a move, a take-back, the move again, a game end.
    let mut peer = Peer::connect(port);
    start_game(&mut peer, "A");
    peer.send("CHello from the scripted peer");
    peer.send("M0000322800");
    assert!(peer.recv_kind('M').is_some());
    peer.send("B001W");
    assert_eq!(peer.recv_kind('K').as_deref(), Some("K0"));
    peer.send("M0000312700");
    assert!(peer.recv_kind('M').is_some());
    peer.send("E00");
    assert!(peer.recv_kind('E').is_some());
    drop(peer);

    assert!(crown.alive(), "crown is still running");
    let text = std::fs::read_to_string(&log).unwrap();
    for note in ["illegal move", "no legal move 28x19", "out of turn", "malformed", "version 02"] {
        assert!(text.contains(note), "log lacks {note:?}:\n{text}");
    }
    assert!(!text.contains("panic"), "{text}");
}

#[test]
fn values_the_protocol_cannot_carry_are_refused() {
    // Issue 84, item 8: a name over 32 characters was cut, `--timeout 0`
    // acted as 1 s, both without a word. Refused before connecting (to a
    // port where nobody listens).
    let long = "n".repeat(33);
    for (args, named) in [
        (["--name", long.as_str()], "--name"),
        (["--name", "Crown Böse"], "--name"),
        (["--timeout", "0"], "--timeout"),
    ] {
        let mut all = vec!["dxp", "--connect", "127.0.0.1:1"];
        all.extend(args);
        let (ok, _, err) = cli_support::crown(&all);
        assert!(!ok && err.contains(named) && !err.contains("connect"), "{args:?}: {err}");
    }
    // 32 characters are taken whole (the connection then fails).
    let name = &long[1..];
    let (ok, _, err) =
        cli_support::crown(&["dxp", "--connect", "127.0.0.1:1", "--timeout", "1", "--name", name]);
    assert!(!ok && err.contains("cannot connect"), "{err}");
}
