//! Fuzz-style robustness: thousands of random and mutated strings thrown at
//! every draughts parser (PDN FEN, PDN / Hub move text, Hub and DXP position
//! strings, DXP move fields) in every variant. Each call must return `Ok` or
//! `Err`; a panic fails the test. Deterministic seeds.

use crown::draughts::fen::{parse_dxp, parse_fen, parse_hub, write_dxp, write_hub};
use crown::draughts::notation::{dxp_fields, hub_text, parse_dxp_fields};
use crown::draughts::position::MoveList;
use crown::draughts::rules::{self, Rules};
use crown::draughts::Position;
use crown::game::Game;

/// xorshift64* ([`crown::rng::xorshift64_star`]): deterministic seeds.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        crown::rng::xorshift64_star(&mut self.0)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const ALPHABET: &[u8] = b"WBKZwbze0123456789-x:,.X abcdefghK\"[]\t\xc3";

fn random_text(rng: &mut Rng) -> String {
    let len = rng.below(70);
    let bytes: Vec<u8> = (0..len).map(|_| ALPHABET[rng.below(ALPHABET.len())]).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut bytes = seed.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(bytes.len() + 1);
        match rng.below(3) {
            0 if at < bytes.len() => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
            _ if at < bytes.len() => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn fuzz<R: Rules>(seed: u64) {
    let mut rng = Rng(seed);
    let mut pos = Position::<R>::start(R::VARIANT);
    let mut accepted = 0;
    for round in 0..4000 {
        // Walk a random game so the seeds cover many positions.
        let mut list = MoveList::default();
        pos.generate(&mut list);
        if list.is_empty() || round % 60 == 59 {
            pos = Position::<R>::start(R::VARIANT);
            continue;
        }
        let mv = list[rng.below(list.len())];
        let seeds = [
            pos.to_fen(),
            write_hub(&pos),
            write_dxp(&pos),
            pos.move_text(mv),
            hub_text::<R>(mv),
            random_text(&mut rng),
        ];
        for seed in &seeds {
            for text in [seed.clone(), mutate(&mut rng, seed), random_text(&mut rng)] {
                let results = [
                    parse_fen::<R>(&text).is_ok(),
                    parse_hub::<R>(&text).is_ok(),
                    parse_dxp::<R>(&text).is_ok(),
                ];
                accepted += results.iter().filter(|&&ok| ok).count();
                if let Ok(found) = pos.parse_move(&text) {
                    assert!(list.contains(&found), "parse_move returned an illegal move");
                }
            }
        }
        let (from, to, mut caps) = dxp_fields::<R>(mv);
        match rng.below(4) {
            0 => caps.push(rng.below(80) as u32),
            1 => caps.clear(),
            2 => caps.push(caps.first().copied().unwrap_or(0)),
            _ => {}
        }
        let jitter = |x: u32, r: &mut Rng| if r.below(3) == 0 { r.below(100) as u32 } else { x };
        if let Ok(found) =
            parse_dxp_fields(&pos, jitter(from, &mut rng), jitter(to, &mut rng), &caps)
        {
            assert!(list.contains(&found));
        }
        pos.play(mv);
    }
    assert!(accepted > 0, "the unmutated seeds must parse");
}

#[test]
fn fuzz_international() {
    fuzz::<rules::InternationalRules>(11);
}

#[test]
fn fuzz_brazilian() {
    fuzz::<rules::BrazilianRules>(12);
}

#[test]
fn fuzz_russian() {
    fuzz::<rules::RussianRules>(13);
}

#[test]
fn fuzz_english() {
    fuzz::<rules::EnglishRules>(14);
}

#[test]
fn fuzz_italian() {
    fuzz::<rules::ItalianRules>(15);
}

#[test]
fn fuzz_turkish() {
    fuzz::<rules::TurkishRules>(16);
}

#[test]
fn fuzz_antidraughts() {
    fuzz::<rules::AntidraughtsRules>(17);
}

#[test]
fn fuzz_frisian() {
    fuzz::<rules::FrisianRules>(18);
}

#[test]
fn fuzz_breakthrough() {
    fuzz::<rules::BreakthroughRules>(19);
}

#[test]
fn fixed_bad_inputs_are_errors() {
    type P = Position<rules::InternationalRules>;
    for text in [
        "",
        "W",
        "X:W1:B2",
        "W:W1:W2",
        "W:W1,1:B2",
        "W:W0:B1",
        "W:W51",
        "W:W5-3",
        "W:WK",
        "W:B1-99",
    ] {
        assert!(parse_fen::<rules::InternationalRules>(text).is_err(), "{text}");
    }
    // A white man on its crown row is not a position.
    assert!(parse_fen::<rules::InternationalRules>("W:W3:B40").is_err());
    let start = P::start(crown::game::Variant::International);
    for text in
        ["", "32", "32-", "-28", "32--28", "32-28-23", "32x28", "33-27", "99-28", "a1-b2", "32-28x"]
    {
        assert!(start.parse_move(text).is_err(), "{text}");
    }
    assert!(start.parse_move("32-28").is_ok());
    assert!(parse_hub::<rules::InternationalRules>(&format!("W{}", "x".repeat(50))).is_err());
    assert!(parse_hub::<rules::InternationalRules>(&format!("B{}", "e".repeat(49))).is_err());
    assert!(parse_dxp::<rules::InternationalRules>(&format!("B{}", "e".repeat(50))).is_err());
}
