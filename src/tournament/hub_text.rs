//! What the game loop sends Hub engines: positions and moves in Hub's own
//! text, made from the game's rules ([`HubText`]).
//!
//! Positions: Hub's string is the side `W`/`B`, then one of `w b W B e` per
//! square. Draughts positions write it directly; the default reads the
//! game's PDN FEN (`W:W31-50:B1-20`, `K` prefix for kings, ranges allowed)
//! with [`hub_position`]. Moves: quiet `32-28`, captures with every
//! captured square (`28x19x23`).
//!
//! Invariant: nothing here talks to a process; an unreadable FEN gives
//! `None`, never a panic.

use super::openings::Balance;
use crate::game::Variant;

/// Move text in Hub notation: quiet `32-28`, captures with every captured
/// square (`28x19x23`). The game's own text ([`crate::game::Game::move_text`]) is PDN,
/// which may omit captured squares, so the runner sends this to Hub engines.
/// Games without a Hub notation (chess) keep the default.
pub trait HubText: Balance {
    /// The Hub text of a legal move.
    fn hub_text(&self, mv: Self::Move) -> String {
        self.move_text(mv)
    }

    /// The Hub position string (side to move, then one letter per square).
    /// The default reads the PDN FEN with [`hub_position`].
    fn hub_position(&self) -> Option<String> {
        hub_position(&self.to_fen(), self.variant())
    }
}

impl HubText for crate::chess::Position {}

impl<R: crate::draughts::rules::Rules> HubText for crate::draughts::Position<R> {
    fn hub_text(&self, mv: Self::Move) -> String {
        crate::draughts::notation::hub_text::<R>(mv)
    }

    fn hub_position(&self) -> Option<String> {
        Some(crate::draughts::fen::write_hub::<R>(self))
    }
}

/// Number of playable squares of a draughts variant's board.
pub fn square_count(variant: Variant) -> usize {
    match variant {
        Variant::International
        | Variant::Antidraughts
        | Variant::Killer
        | Variant::Breakthrough
        | Variant::Frisian
        | Variant::Frysk => 50,
        Variant::Turkish => 64,
        _ => 32,
    }
}

/// Converts a PDN FEN (`W:W31-50:B1-20`, `K` for kings, ranges allowed) into
/// a Hub position string. `None` when the FEN cannot be read.
pub fn hub_position(fen: &str, variant: Variant) -> Option<String> {
    let squares = square_count(variant);
    let mut board = vec!['e'; squares];
    let mut fields = fen.trim().trim_end_matches('.').split(':');
    let side = match fields.next()?.trim() {
        "W" => 'W',
        "B" => 'B',
        _ => return None,
    };
    for field in fields {
        let field = field.trim();
        let (colour, list) = match field.chars().next()? {
            'W' => ('w', &field[1..]),
            'B' => ('b', &field[1..]),
            _ => continue, // move numbers and other tags
        };
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (king, item) = match item.strip_prefix('K') {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let piece = if king { colour.to_ascii_uppercase() } else { colour };
            let (a, b) = match item.split_once('-') {
                Some((a, b)) => (a.parse::<usize>().ok()?, b.parse::<usize>().ok()?),
                None => {
                    let n = item.parse::<usize>().ok()?;
                    (n, n)
                }
            };
            if a == 0 || b > squares || a > b {
                return None;
            }
            for sq in a..=b {
                board[sq - 1] = piece;
            }
        }
    }
    let mut out = String::with_capacity(squares + 1);
    out.push(side);
    out.extend(board);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions() {
        let start = hub_position("W:W31-50:B1-20", Variant::International).unwrap();
        assert_eq!(start, format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20)));
        let p = hub_position("B:WK3,28:B17,K45", Variant::International).unwrap();
        assert_eq!(&p[..1], "B");
        assert_eq!(p.chars().nth(3), Some('W'));
        assert_eq!(p.chars().nth(28), Some('w'));
        assert_eq!(p.chars().nth(45), Some('B'));
        assert!(hub_position("X:W1", Variant::International).is_none());
        assert!(hub_position("W:W51", Variant::International).is_none());
    }
}
