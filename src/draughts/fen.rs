//! Position text: PDN FEN, the Hub position string and the DXP position.
//!
//! * PDN FEN: `W:W31-50:B1-20` — side to move, then the white and black
//!   piece lists (either order), comma separated, `K` before a king, `a-b`
//!   for a range of numbers. Russian, Brazilian and Turkish may use algebraic
//!   names (`W:Wa1,c3:Bb6`) and are written that way; fields that lidraughts
//!   appends (`:H0:F1`) are accepted and ignored. Output lists each side in
//!   ascending number order, without ranges.
//! * Hub: the side to move (`W`/`B`) and one character per square in PDN
//!   number order: `w`/`b` men, `W`/`B` kings, `e` empty (51 characters on
//!   10x10, 33 on the 8x8 diagonal boards, 65 for Turkish).
//! * DXP: the same with `Z` (zwart) for black: side `W`/`Z`, squares
//!   `w z W Z e` (51 characters for international).

use super::geometry::{Bitboard, Geometry};
use super::notation::{bit_of_number, parse_square, square_name};
use super::position::Position;
use super::rules::Rules;
use crate::game::Side;
use std::fmt;

/// Why position text was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text is empty or too long.
    Empty,
    /// The side to move is not `W` or `B` (`W`/`Z` in DXP).
    Side,
    /// A piece list field is malformed, repeated or missing.
    Field,
    /// A square name or number is not on the board.
    Square,
    /// A square is listed twice.
    Duplicate,
    /// The Hub or DXP string has the wrong length.
    Length,
    /// A square character is not one of the allowed ones.
    Char,
    /// A man stands on the row where it would have been crowned.
    ManOnCrownRow,
    /// Breakthrough: the side to move owns a king, so it has already won.
    KingToMove,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionError::Empty => "empty or overlong position text",
            PositionError::Side => "bad side to move",
            PositionError::Field => "malformed, repeated or missing piece list",
            PositionError::Square => "no such square",
            PositionError::Duplicate => "square listed twice",
            PositionError::Length => "wrong position string length",
            PositionError::Char => "bad square character",
            PositionError::ManOnCrownRow => "a man stands on its crown row",
            PositionError::KingToMove => {
                "the side to move owns a king (breakthrough: it has already won)"
            }
        })
    }
}

impl std::error::Error for PositionError {}

/// Checks the physical sanity of a position and builds it.
fn build<R: Rules>(
    white: Bitboard,
    black: Bitboard,
    kings: Bitboard,
    side: Side,
) -> Result<Position<R>, PositionError> {
    let men = !kings;
    if white & men & <R::Board as Geometry>::WHITE_CROWN != 0
        || black & men & <R::Board as Geometry>::BLACK_CROWN != 0
    {
        return Err(PositionError::ManOnCrownRow);
    }
    let own = if side == Side::White { white } else { black };
    if R::KING_WINS && own & kings != 0 {
        return Err(PositionError::KingToMove);
    }
    Ok(Position::from_parts(white, black, kings, side))
}

fn side_of(c: &str) -> Result<Side, PositionError> {
    match c {
        "W" | "w" => Ok(Side::White),
        "B" | "b" => Ok(Side::Black),
        _ => Err(PositionError::Side),
    }
}

/// Reads a PDN FEN.
pub fn parse_fen<R: Rules>(text: &str) -> Result<Position<R>, PositionError> {
    let text = text.trim().trim_end_matches('.');
    if text.is_empty() || text.len() > 1000 {
        return Err(PositionError::Empty);
    }
    let text = text.trim_start_matches('[').trim_end_matches(']');
    let text = text.trim_start_matches("FEN").trim().trim_matches('"');
    let mut fields = text.split(':');
    let side = side_of(fields.next().unwrap_or("").trim())?;
    let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
    let mut seen = [false; 2];
    for field in fields {
        let field = field.trim();
        let Some(first) = field.chars().next() else {
            return Err(PositionError::Field);
        };
        let colour = match first {
            'W' | 'w' => 0,
            'B' | 'b' => 1,
            'H' | 'F' if field[1..].chars().all(|c| c.is_ascii_digit()) => continue,
            _ => return Err(PositionError::Field),
        };
        if seen[colour] {
            return Err(PositionError::Field);
        }
        seen[colour] = true;
        let list = &field[1..];
        if list.trim().is_empty() {
            continue;
        }
        for item in list.split(',') {
            let item = item.trim();
            let (king, body) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            let mut add = |bit: u8| -> Result<(), PositionError> {
                let b = 1u64 << bit;
                if (white | black) & b != 0 {
                    return Err(PositionError::Duplicate);
                }
                if colour == 0 {
                    white |= b;
                } else {
                    black |= b;
                }
                if king {
                    kings |= b;
                }
                Ok(())
            };
            if let Some((lo, hi)) = body.split_once('-') {
                let lo: u32 = lo.trim().parse().map_err(|_| PositionError::Field)?;
                let hi: u32 = hi.trim().parse().map_err(|_| PositionError::Field)?;
                if lo > hi || hi > 64 {
                    return Err(PositionError::Square);
                }
                for n in lo..=hi {
                    add(bit_of_number::<R>(n).ok_or(PositionError::Square)?)?;
                }
            } else {
                if body.is_empty() {
                    return Err(PositionError::Field);
                }
                add(parse_square::<R>(body).ok_or(PositionError::Square)?)?;
            }
        }
    }
    if seen != [true, true] {
        return Err(PositionError::Field);
    }
    build(white, black, kings, side)
}

/// Squares of `set` in ascending PDN number order.
fn by_number<R: Rules>(set: Bitboard) -> impl Iterator<Item = u8> {
    (1..=<R::Board as Geometry>::SQUARES as u32)
        .filter_map(bit_of_number::<R>)
        .filter(move |&bit| set & (1u64 << bit) != 0)
}

/// Writes a PDN FEN.
pub fn write_fen<R: Rules>(pos: &Position<R>) -> String {
    let mut out = String::from(if pos.side == Side::White { "W" } else { "B" });
    for (tag, set) in [('W', pos.white), ('B', pos.black)] {
        out.push(':');
        out.push(tag);
        let items: Vec<String> = by_number::<R>(set)
            .map(|bit| {
                let k = if pos.kings & (1u64 << bit) != 0 { "K" } else { "" };
                format!("{k}{}", square_name::<R>(bit))
            })
            .collect();
        out.push_str(&items.join(","));
    }
    out
}

/// The characters of a square string: [white man, black man, white king,
/// black king, empty], and the two side letters.
struct Alphabet {
    squares: [u8; 5],
    sides: [u8; 2],
}

const HUB: Alphabet = Alphabet { squares: *b"wbWBe", sides: *b"WB" };
const DXP: Alphabet = Alphabet { squares: *b"wzWZe", sides: *b"WZ" };

fn parse_squares<R: Rules>(text: &str, abc: &Alphabet) -> Result<Position<R>, PositionError> {
    let bytes = text.trim().as_bytes();
    if bytes.len() != <R::Board as Geometry>::SQUARES + 1 {
        return Err(PositionError::Length);
    }
    let side = match bytes[0] {
        c if c == abc.sides[0] => Side::White,
        c if c == abc.sides[1] => Side::Black,
        _ => return Err(PositionError::Side),
    };
    let (mut white, mut black, mut kings) = (0u64, 0u64, 0u64);
    for (i, &c) in bytes[1..].iter().enumerate() {
        let b = 1u64 << bit_of_number::<R>(i as u32 + 1).ok_or(PositionError::Square)?;
        match abc.squares.iter().position(|&x| x == c) {
            Some(0) => white |= b,
            Some(1) => black |= b,
            Some(2) => {
                white |= b;
                kings |= b;
            }
            Some(3) => {
                black |= b;
                kings |= b;
            }
            Some(_) => {}
            None => return Err(PositionError::Char),
        }
    }
    build(white, black, kings, side)
}

fn write_squares<R: Rules>(pos: &Position<R>, abc: &Alphabet) -> String {
    let mut out = String::new();
    out.push(abc.sides[if pos.side == Side::White { 0 } else { 1 }] as char);
    for n in 1..=<R::Board as Geometry>::SQUARES as u32 {
        let b = bit_of_number::<R>(n).map_or(0, |bit| 1u64 << bit);
        let king = if pos.kings & b != 0 { 2 } else { 0 };
        let c = if pos.white & b != 0 {
            abc.squares[king]
        } else if pos.black & b != 0 {
            abc.squares[king + 1]
        } else {
            abc.squares[4]
        };
        out.push(c as char);
    }
    out
}

/// Reads a Hub position string.
pub fn parse_hub<R: Rules>(text: &str) -> Result<Position<R>, PositionError> {
    parse_squares(text, &HUB)
}

/// Writes a Hub position string.
pub fn write_hub<R: Rules>(pos: &Position<R>) -> String {
    write_squares(pos, &HUB)
}

/// Reads a DXP position (side `W`/`Z` and the squares).
pub fn parse_dxp<R: Rules>(text: &str) -> Result<Position<R>, PositionError> {
    parse_squares(text, &DXP)
}

/// Writes a DXP position.
pub fn write_dxp<R: Rules>(pos: &Position<R>) -> String {
    write_squares(pos, &DXP)
}
