//! DamExchange under random traffic (issue 18): a scripted peer sends seeded
//! random sequences of valid and invalid messages, with random short pauses
//! and dropped connections, to `crown dxp --listen` on loopback. The
//! contract checked:
//!
//! * every GAMEREQ gets a GAMEACC within 2 s: code 0 for a game that can be
//!   played, code 1 or 2 for a malformed or impossible request (`R01` alone,
//!   follower colour `X`, a bad version, a cut setup);
//! * the connection goes on after anything the peer sends (garbage, CHAT,
//!   GAMEEND out of a game, BACKREQ, a second GAMEREQ): the next GAMEREQ on
//!   the same connection is answered;
//! * after a dropped connection crown accepts the next one, and the process
//!   is still running at the end (it is killed when the guard drops).
//!
//! 1,000 sequences by default, 20,000 with `CROWN_SOAK=1`; `CROWN_SEED=N`
//! replays a run (the seed is printed).

mod dxp_support;
mod stress_support;

use crown::draughts::fen::write_dxp;
use crown::draughts::rules::InternationalRules;
use crown::draughts::International;
use crown::game::{random_playout, Game, Side, Variant};
use dxp_support::{free_port, gamereq, Crown, Peer};
use std::time::Duration;
use stress_support::{pause, seed, soak, Rng, DUE};

/// DXP setups (`B` + side + 50 squares) of random positions.
fn setups(rng: &mut Rng) -> Vec<String> {
    let mut out = Vec::new();
    for _ in 0..8 {
        let games =
            random_playout(International::start(Variant::International), 40, rng.next_u64());
        for pos in games.iter().skip(1).step_by(7) {
            // A finished game cannot be played: keep positions with a move.
            let mut list = <International as Game>::MoveList::default();
            pos.generate(&mut list);
            if list.as_ref().is_empty() {
                continue;
            }
            let side = if pos.side_to_move() == Side::White { 'W' } else { 'Z' };
            let text = write_dxp::<InternationalRules>(pos);
            out.push(format!("B{side}{}", &text[1..]));
        }
    }
    out
}

/// Requests no game can be played from: each must get a GAMEACC that is
/// not code 0.
fn bad_request(rng: &mut Rng, setups: &[String]) -> String {
    let good = gamereq('Z', "A");
    match rng.range(0, 6) {
        0 => "R01".to_string(),
        1 => gamereq('X', "A"),
        2 => good.replacen("R01", "R99", 1),
        3 => format!("R01{:<32}", "cut after the name"),
        4 => gamereq('W', &rng.pick(setups)[..20]),
        5 => gamereq('Z', "Q"),
        _ => format!("R01{:<32}Zxyz075A", "bad minutes"),
    }
}

/// Sends `request` and waits for the GAMEACC; returns its code character.
fn answered(peer: &mut Peer, request: &str, ctx: &str) -> char {
    peer.send(request);
    let acc = peer
        .recv_kind('A')
        .unwrap_or_else(|| panic!("{ctx}: no GAMEACC within 2 s for {request:?}"));
    assert_eq!(acc.len(), 34, "{ctx}: GAMEACC {acc:?} for {request:?}");
    acc.chars().last().unwrap()
}

fn connect(port: u16) -> Peer {
    let peer = Peer::connect(port);
    peer.stream.set_read_timeout(Some(DUE)).unwrap();
    peer
}

/// Reads whatever crown sends for `wait` (its MOVEs, GAMEENDs).
fn drain(peer: &mut Peer, wait: Duration) {
    peer.stream.set_read_timeout(Some(wait)).unwrap();
    while peer.recv().is_some() {}
    peer.stream.set_read_timeout(Some(DUE)).unwrap();
}

#[test]
fn random_traffic_keeps_the_dxp_contract() {
    let seed = seed();
    let mut rng = Rng::new(seed);
    let setups = setups(&mut rng);
    let total = if soak() { 20_000 } else { 1_000 };
    let port = free_port();
    let mut crown =
        Crown::dxp(&["--listen", &port.to_string(), "--movetime", "5", "--timeout", "5"]);
    let mut peer = connect(port);
    for n in 0..total {
        let ctx = format!("seed {seed}, sequence {n}");
        let mut in_game = false;
        let mut did: Vec<String> = Vec::new();
        for _ in 0..rng.range(2, 8) {
            let ctx = format!("{ctx} after {did:?}");
            let action = rng.range(0, 9);
            did.push(action.to_string());
            match action {
                0..=2 => {
                    let follower = if rng.chance(50) { 'W' } else { 'Z' };
                    let setup =
                        if rng.chance(50) { "A".to_string() } else { rng.pick(&setups).clone() };
                    let code = answered(&mut peer, &gamereq(follower, &setup), &ctx);
                    // A second request during a game may be declined (busy).
                    assert!(code == '0' || in_game, "{ctx}: a playable game refused ({code})");
                    in_game |= code == '0';
                }
                3 | 4 => {
                    let code = answered(&mut peer, &bad_request(&mut rng, &setups), &ctx);
                    assert!(code != '0', "{ctx}: an unplayable request accepted");
                }
                5 => {
                    peer.send("E00");
                    in_game = false;
                }
                6 => {
                    let junk: &[&str] = &["Chello", "K1", "garbage", "M", "", "Z99"];
                    let text: &&str = rng.pick(junk);
                    peer.send(text);
                }
                7 => peer.send_raw(&[0xff, 0xfe, b'M', 0]),
                _ if rng.chance(30) => {
                    did.push("drop".into());
                    let _ = peer.stream.shutdown(std::net::Shutdown::Both);
                    peer = connect(port);
                    in_game = false;
                }
                _ => drain(&mut peer, Duration::from_millis(rng.range(1, 20))),
            }
            pause(&mut rng);
        }
        if in_game {
            peer.send("E00");
        }
        drain(&mut peer, Duration::from_millis(5));
        assert!(crown.alive(), "{ctx}: crown dxp exited");
    }
    // The connection still plays: a last game is accepted and ended.
    drain(&mut peer, Duration::from_millis(50));
    assert_eq!(answered(&mut peer, &gamereq('Z', "A"), "last"), '0');
    peer.send("E00");
    assert!(crown.alive(), "seed {seed}: crown dxp exited");
}
