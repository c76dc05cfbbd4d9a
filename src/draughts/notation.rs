//! Square names and move text: PDN (`32-28`, `28x19`, full paths
//! `28x19x10`), the Hub capture form (`from x to x captured...`) and the
//! DamExchange (DXP) move fields. Socket-free codecs for the protocol layer.
//!
//! * Numbers follow the variant's PDN numbering (see `rules.rs`); algebraic
//!   names (`c3`) are written for Russian, Brazilian and Turkish and read for
//!   them besides numbers.
//! * PDN out: a quiet move `from-to`; a capture `fromxto` (algebraic
//!   `from:to`), or its landing squares in full when another legal capture
//!   has the same from and to.
//! * In: `-`, `x` and `:` separate squares. Two squares name the legal move
//!   with that from and to (ambiguous if several); more squares are either the
//!   landing squares of a route or the Hub form, to then the captured squares
//!   in any order. Only legal moves are ever returned.

use super::geometry::{opposite, step, Bitboard, Geometry, Square, NO_DIR};
use super::position::{Move, MoveList, Position};
use super::rules::{Numbering, Rules};
use crate::game::Side;
use std::fmt;

/// Why move text was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not of the form `a-b`, `axb`, `axbxc...`.
    Syntax,
    /// A square name or number that is not on the board.
    Square,
    /// Well formed, but no legal move matches.
    Illegal,
    /// Several legal moves match; give the full route or captured squares.
    Ambiguous,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::Syntax => "malformed move text",
            MoveError::Square => "no such square",
            MoveError::Illegal => "illegal move",
            MoveError::Ambiguous => "ambiguous move",
        })
    }
}

impl std::error::Error for MoveError {}

/// The internal index of PDN number `n` (1-based), if it is on the board.
pub fn index_of_number<R: Rules>(n: u32) -> Option<usize> {
    let squares = <R::Board as Geometry>::SQUARES as u32;
    if n == 0 || n > squares {
        return None;
    }
    let i = (n - 1) as usize;
    Some(match R::NUMBERING {
        Numbering::TopLeft => i,
        Numbering::Turned => 4 * (i / 4) + 3 - i % 4,
        Numbering::BottomLeft => 4 * (7 - i / 4) + i % 4,
        Numbering::Orthogonal => 8 * (7 - i / 8) + i % 8,
    })
}

/// The bit of PDN number `n`.
pub fn bit_of_number<R: Rules>(n: u32) -> Option<Square> {
    index_of_number::<R>(n).map(|i| <R::Board as Geometry>::BIT[i])
}

/// The PDN number of a bit (0 for a ghost bit).
pub fn number_of_bit<R: Rules>(bit: Square) -> u32 {
    let index = <R::Board as Geometry>::INDEX[bit as usize & 63];
    if index == 255 {
        return 0;
    }
    // Every numbering is its own inverse except `TopLeft`, which is the identity.
    let i = index as u32;
    match R::NUMBERING {
        Numbering::TopLeft => i + 1,
        Numbering::Turned => 4 * (i / 4) + 3 - i % 4 + 1,
        Numbering::BottomLeft => 4 * (7 - i / 4) + i % 4 + 1,
        Numbering::Orthogonal => 8 * (7 - i / 8) + i % 8 + 1,
    }
}

/// The algebraic name of a bit (`a1` is white's bottom-left corner).
pub fn algebraic<R: Rules>(bit: Square) -> String {
    let (row, col) = <R::Board as Geometry>::cell(bit);
    let rank = <R::Board as Geometry>::SIDE - row;
    format!("{}{}", (b'a' + col as u8) as char, rank)
}

/// The name the variant's PDN uses for a square.
pub fn square_name<R: Rules>(bit: Square) -> String {
    if R::ALGEBRAIC {
        algebraic::<R>(bit)
    } else {
        number_of_bit::<R>(bit).to_string()
    }
}

/// Reads a square: a PDN number, or (algebraic variants) a name like `c3`.
pub fn parse_square<R: Rules>(text: &str) -> Option<Square> {
    let bytes = text.as_bytes();
    if !bytes.is_empty() && bytes.len() <= 3 && bytes.iter().all(u8::is_ascii_digit) {
        return bit_of_number::<R>(text.parse().ok()?);
    }
    if !R::ALGEBRAIC || bytes.len() < 2 || bytes.len() > 3 {
        return None;
    }
    let file = bytes[0].to_ascii_lowercase().checked_sub(b'a')? as usize;
    let rank: usize = text.get(1..)?.parse().ok()?;
    let side = <R::Board as Geometry>::SIDE;
    if file >= side || rank == 0 || rank > side {
        return None;
    }
    let row = side - rank;
    (0..<R::Board as Geometry>::SQUARES)
        .map(|i| <R::Board as Geometry>::BIT[i])
        .find(|&bit| <R::Board as Geometry>::cell(bit) == (row, file))
}

/// Calls `found` with the landing squares (after `from`, ending with `to`) of
/// every route that plays capture `mv`, until it returns true.
pub fn routes<R: Rules>(pos: &Position<R>, mv: Move, found: &mut dyn FnMut(&[Square]) -> bool) {
    if !mv.is_capture() {
        return;
    }
    let from = 1u64 << mv.from;
    let white = pos.side == Side::White;
    let (own, opp) = if white { (pos.white, pos.black) } else { (pos.black, pos.white) };
    if own & from == 0 {
        return;
    }
    let walk = Walk::<R> {
        mv,
        empty: !(pos.white | pos.black) & <R::Board as Geometry>::MASK | from,
        opp,
        kings: pos.kings,
        white,
        rules: std::marker::PhantomData,
    };
    let mut path = Vec::new();
    walk.go(from, 0, pos.kings & from != 0, NO_DIR, &mut path, found);
}

/// A slow route search for notation (not move generation).
struct Walk<R: Rules> {
    mv: Move,
    empty: Bitboard,
    opp: Bitboard,
    kings: Bitboard,
    white: bool,
    rules: std::marker::PhantomData<R>,
}

impl<R: Rules> Walk<R> {
    fn go(
        &self,
        sq: Bitboard,
        caps: Bitboard,
        king: bool,
        last: usize,
        path: &mut Vec<Square>,
        found: &mut dyn FnMut(&[Square]) -> bool,
    ) -> bool {
        if caps == self.mv.captured && sq.trailing_zeros() as Square == self.mv.to && found(path) {
            return true;
        }
        let empty = if R::REMOVE_AT_ONCE { self.empty | caps } else { self.empty };
        let targets = self.opp & self.mv.captured & !caps;
        let crown = if self.white {
            <R::Board as Geometry>::WHITE_CROWN
        } else {
            <R::Board as Geometry>::BLACK_CROWN
        };
        let forward = if self.white {
            <R::Board as Geometry>::WHITE_MAN_STEPS
        } else {
            <R::Board as Geometry>::BLACK_MAN_STEPS
        };
        let directions = if R::ORTHOGONAL_CAPTURES { 8 } else { 4 };
        for d in 0..directions {
            if !king && !R::MEN_CAPTURE_BACKWARDS && !forward.contains(&d) {
                continue;
            }
            if king && R::REMOVE_AT_ONCE && last < NO_DIR && d == opposite(last) {
                continue;
            }
            let mut t = step::<R::Board>(sq, d);
            if king && R::FLYING_KINGS {
                while t & empty != 0 {
                    t = step::<R::Board>(t, d);
                }
            }
            if t & targets == 0 || (!king && !R::MEN_CAPTURE_KINGS && t & self.kings != 0) {
                continue;
            }
            let mut land = step::<R::Board>(t, d);
            while land & empty != 0 {
                path.push(land.trailing_zeros() as Square);
                let crowned = king || (R::PROMOTE_MID_CAPTURE && land & crown != 0);
                if self.go(land, caps | t, crowned, d, path, found) {
                    return true;
                }
                path.pop();
                if !(king && R::FLYING_KINGS) {
                    break;
                }
                land = step::<R::Board>(land, d);
            }
        }
        false
    }
}

fn capture_sep<R: Rules>() -> char {
    if R::ALGEBRAIC {
        ':'
    } else {
        'x'
    }
}

/// PDN text of a legal move of `pos`.
pub fn pdn_text<R: Rules>(pos: &Position<R>, mv: Move, legal: &[Move]) -> String {
    let name = square_name::<R>;
    if !mv.is_capture() {
        return format!("{}-{}", name(mv.from), name(mv.to));
    }
    let sep = capture_sep::<R>();
    let twins = legal.iter().filter(|m| m.from == mv.from && m.to == mv.to).count();
    if twins <= 1 {
        return format!("{}{sep}{}", name(mv.from), name(mv.to));
    }
    let mut text = name(mv.from);
    routes(pos, mv, &mut |path| {
        for &sq in path {
            text.push(sep);
            text.push_str(&name(sq));
        }
        true
    });
    text
}

/// Hub text of a move: `32-28`, or `from x to x captured...` (captured in
/// ascending number order). Always numeric.
pub fn hub_text<R: Rules>(mv: Move) -> String {
    let n = number_of_bit::<R>;
    if !mv.is_capture() {
        return format!("{}-{}", n(mv.from), n(mv.to));
    }
    let mut text = format!("{}x{}", n(mv.from), n(mv.to));
    for c in captured_numbers::<R>(mv) {
        text.push_str(&format!("x{c}"));
    }
    text
}

/// The PDN numbers of the captured squares, ascending.
pub fn captured_numbers<R: Rules>(mv: Move) -> Vec<u32> {
    let mut out = Vec::new();
    let mut b = mv.captured;
    while b != 0 {
        out.push(number_of_bit::<R>(b.trailing_zeros() as Square));
        b &= b - 1;
    }
    out.sort_unstable();
    out
}

/// Parses PDN or Hub move text against the legal moves of `pos`.
pub fn parse_move_text<R: Rules>(pos: &Position<R>, text: &str) -> Result<Move, MoveError> {
    let text = text.trim();
    if text.is_empty() || text.len() > 200 || !text.is_ascii() {
        return Err(MoveError::Syntax);
    }
    let quiet = text.contains('-');
    let capture = text.contains(['x', 'X', ':']);
    if quiet == capture {
        return Err(MoveError::Syntax);
    }
    let mut squares = Vec::new();
    for token in text.split(['-', 'x', 'X', ':']) {
        if token.is_empty() {
            return Err(MoveError::Syntax);
        }
        squares.push(parse_square::<R>(token).ok_or(MoveError::Square)?);
    }
    if squares.len() < 2 || (quiet && squares.len() != 2) {
        return Err(MoveError::Syntax);
    }
    let mut legal = MoveList::default();
    pos.generate_moves(&mut legal);
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let candidates = legal.iter().copied().filter(|m| m.from == from && m.is_capture() == capture);
    let hits: Vec<Move> = if squares.len() == 2 {
        let plain: Vec<Move> = candidates.filter(|m| m.to == to).collect();
        if plain.len() > 1 {
            // `axb` is also the full route of a one-jump capture.
            let one_jump: Vec<Move> =
                plain.iter().copied().filter(|&m| route_matches(pos, m, &squares)).collect();
            if one_jump.len() == 1 {
                return Ok(one_jump[0]);
            }
        }
        plain
    } else {
        candidates
            .filter(|&m| hub_matches(m, &squares) || route_matches(pos, m, &squares))
            .collect()
    };
    match hits.as_slice() {
        [] => Err(MoveError::Illegal),
        [mv] => Ok(*mv),
        _ => Err(MoveError::Ambiguous),
    }
}

fn hub_matches(mv: Move, squares: &[Square]) -> bool {
    if squares[1] != mv.to || squares.len() - 2 != mv.captured.count_ones() as usize {
        return false;
    }
    let set = squares[2..].iter().fold(0u64, |acc, &s| acc | 1u64 << (s & 63));
    set == mv.captured
}

fn route_matches<R: Rules>(pos: &Position<R>, mv: Move, squares: &[Square]) -> bool {
    let mut hit = false;
    routes(pos, mv, &mut |path| {
        hit = path == &squares[1..];
        hit
    });
    hit
}

/// DXP move fields of a move: from, to and the captured squares (numbers).
pub fn dxp_fields<R: Rules>(mv: Move) -> (u32, u32, Vec<u32>) {
    (number_of_bit::<R>(mv.from), number_of_bit::<R>(mv.to), captured_numbers::<R>(mv))
}

/// The legal move of `pos` with the DXP fields from, to and captured
/// squares (in any order).
pub fn parse_dxp_fields<R: Rules>(
    pos: &Position<R>,
    from: u32,
    to: u32,
    captured: &[u32],
) -> Result<Move, MoveError> {
    let from = bit_of_number::<R>(from).ok_or(MoveError::Square)?;
    let to = bit_of_number::<R>(to).ok_or(MoveError::Square)?;
    let mut set = 0u64;
    for &c in captured {
        let bit = bit_of_number::<R>(c).ok_or(MoveError::Square)?;
        if set & (1 << bit) != 0 {
            return Err(MoveError::Illegal);
        }
        set |= 1 << bit;
    }
    let mut legal = MoveList::default();
    pos.generate_moves(&mut legal);
    legal
        .iter()
        .copied()
        .find(|m| m.from == from && m.to == to && m.captured == set)
        .ok_or(MoveError::Illegal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::rules::{
        EnglishRules, InternationalRules, ItalianRules, RussianRules, TurkishRules,
    };

    fn named<R: Rules>(n: u32) -> String {
        algebraic::<R>(bit_of_number::<R>(n).expect("square"))
    }

    #[test]
    fn numbering_of_each_variant() {
        // International: 1 = b10, 5 = j10, 46 = a1, 50 = i1.
        assert_eq!(named::<InternationalRules>(1), "b10");
        assert_eq!(named::<InternationalRules>(46), "a1");
        assert_eq!(named::<InternationalRules>(50), "i1");
        // English: 1 = b8, 4 = h8, 29 = a1.
        assert_eq!(named::<EnglishRules>(1), "b8");
        assert_eq!(named::<EnglishRules>(29), "a1");
        // Italian turned board: the numbers mirror each row, so 1 is the
        // top-left square of the turned board and 21 has two forward moves.
        assert_eq!(named::<ItalianRules>(4), "b8");
        assert_eq!(named::<ItalianRules>(32), "a1");
        // Russian (pydraughts): 1 = a1, 9 = a3, 13 = b4, 32 = h8.
        assert_eq!(named::<RussianRules>(1), "a1");
        assert_eq!(named::<RussianRules>(9), "a3");
        assert_eq!(named::<RussianRules>(13), "b4");
        assert_eq!(named::<RussianRules>(32), "h8");
        // Turkish: 1 = a1, 17 = a3, 64 = h8.
        assert_eq!(named::<TurkishRules>(17), "a3");
        assert_eq!(named::<TurkishRules>(64), "h8");
        for n in 1..=64 {
            let bit = bit_of_number::<TurkishRules>(n).expect("square");
            assert_eq!(number_of_bit::<TurkishRules>(bit), n);
            assert_eq!(parse_square::<TurkishRules>(&algebraic::<TurkishRules>(bit)), Some(bit));
        }
        for n in 1..=32 {
            let bit = bit_of_number::<ItalianRules>(n).expect("square");
            assert_eq!(number_of_bit::<ItalianRules>(bit), n);
        }
        assert_eq!(bit_of_number::<InternationalRules>(51), None);
        assert_eq!(parse_square::<InternationalRules>("a1"), None);
        assert_eq!(parse_square::<RussianRules>("b1"), None);
    }

    #[test]
    fn first_moves_in_the_variant_notation() {
        use crate::game::{Game, Variant};
        let italian = Position::<ItalianRules>::start(Variant::Italian);
        assert!(italian.parse_move("21-17").is_ok());
        assert!(italian.parse_move("21-18").is_ok());
        assert!(italian.parse_move("24-21").is_err());
        let russian = Position::<RussianRules>::start(Variant::Russian);
        let a = russian.parse_move("c3-d4").expect("algebraic");
        assert_eq!(russian.parse_move("10-14"), Ok(a));
        assert_eq!(russian.move_text(a), "c3-d4");
        let english = Position::<EnglishRules>::start(Variant::English);
        assert!(english.parse_move("11-15").is_ok());
        assert!(english.parse_move("22-18").is_err(), "black moves first");
    }

    #[test]
    fn dxp_example_from_the_protocol_notes() {
        use crate::game::{Game, Variant};
        // `M00001739022233`: 17x39 capturing 22 and 33 (black man on 17).
        let pos =
            Position::<InternationalRules>::from_fen("B:W22,33,50:B17", Variant::International)
                .expect("fen");
        let mv = parse_dxp_fields(&pos, 17, 39, &[33, 22]).expect("legal");
        assert_eq!(dxp_fields::<InternationalRules>(mv), (17, 39, vec![22, 33]));
        assert_eq!(hub_text::<InternationalRules>(mv), "17x39x22x33");
        assert_eq!(pos.move_text(mv), "17x39");
        assert_eq!(pos.parse_move("17x28x39"), Ok(mv));
        assert_eq!(parse_dxp_fields(&pos, 17, 39, &[22]), Err(MoveError::Illegal));
    }
}
