//! Standard algebraic notation for chess, computed through the [`Game`] trait
//! alone: the board is read from the position's FEN, the move from its UCI
//! text, and disambiguation, check and mate from the legal move list. This
//! keeps the runner generic while its PGN stays standard.
//!
//! Castling is recognised as a king move of two or more files or a king
//! moving onto its own rook (Chess960's king-takes-rook text) and written
//! `O-O` / `O-O-O` by the direction of the rook.
//!
//! For draughts (and whenever the FEN cannot be read as a chess board) the
//! game's own move text is returned unchanged: it is already PDN notation.

use crate::game::Game;

/// A board read from the first FEN field: `board[rank * 8 + file]`.
type Board = [Option<char>; 64];

fn read_board(fen: &str) -> Option<Board> {
    let placement = fen.split_whitespace().next()?;
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return None;
    }
    let mut board = [None; 64];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i;
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else if c.is_ascii_alphabetic() {
                if file >= 8 {
                    return None;
                }
                board[rank * 8 + file] = Some(c);
                file += 1;
            }
            // `~` (promoted marker) and other decorations are skipped.
        }
        if file != 8 {
            return None;
        }
    }
    Some(board)
}

fn square(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some(usize::from(b[1] - b'1') * 8 + usize::from(b[0] - b'a'))
}

fn split_uci(text: &str) -> Option<(usize, usize, Option<char>)> {
    if !(4..=5).contains(&text.len()) || !text.is_ascii() {
        return None;
    }
    Some((square(&text[0..2])?, square(&text[2..4])?, text[4..].chars().next()))
}

fn is_castling(board: &Board, from: usize, to: usize) -> bool {
    let Some(piece) = board[from] else { return false };
    if !piece.eq_ignore_ascii_case(&'K') {
        return false;
    }
    let own_rook = if piece.is_ascii_uppercase() { 'R' } else { 'r' };
    board[to] == Some(own_rook) || (from % 8).abs_diff(to % 8) >= 2
}

/// The SAN of a legal move (chess), or the game's move text (draughts).
pub fn san<G: Game>(pos: &G, mv: G::Move) -> String {
    let text = pos.move_text(mv);
    if !pos.variant().is_chess() {
        return text;
    }
    let Some(board) = read_board(&pos.to_fen()) else { return text };
    let Some((from, to, promo)) = split_uci(&text) else { return text };
    let Some(piece) = board[from] else { return text };
    let mut out = String::new();
    if is_castling(&board, from, to) {
        out.push_str(if to % 8 > from % 8 { "O-O" } else { "O-O-O" });
    } else {
        let kind = piece.to_ascii_uppercase();
        let capture = board[to].is_some() || (kind == 'P' && from % 8 != to % 8);
        if kind == 'P' {
            if capture {
                out.push(char::from(b'a' + (from % 8) as u8));
            }
        } else {
            out.push(kind);
            let mut list = G::MoveList::default();
            pos.generate(&mut list);
            let rivals: Vec<usize> = list
                .iter()
                .filter(|&&m| m != mv)
                .filter_map(|&m| split_uci(&pos.move_text(m)))
                .filter(|&(f, t, _)| {
                    t == to && board[f] == Some(piece) && !is_castling(&board, f, t)
                })
                .map(|(f, _, _)| f)
                .collect();
            if !rivals.is_empty() {
                let same_file = rivals.iter().any(|&f| f % 8 == from % 8);
                let same_rank = rivals.iter().any(|&f| f / 8 == from / 8);
                if !same_file {
                    out.push(char::from(b'a' + (from % 8) as u8));
                } else if !same_rank {
                    out.push(char::from(b'1' + (from / 8) as u8));
                } else {
                    out.push(char::from(b'a' + (from % 8) as u8));
                    out.push(char::from(b'1' + (from / 8) as u8));
                }
            }
        }
        if capture {
            out.push('x');
        }
        out.push(char::from(b'a' + (to % 8) as u8));
        out.push(char::from(b'1' + (to / 8) as u8));
        if let Some(p) = promo {
            out.push('=');
            out.push(p.to_ascii_uppercase());
        }
    }
    let mut after = pos.clone();
    after.play(mv);
    if after.in_check() {
        let mut replies = G::MoveList::default();
        after.generate(&mut replies);
        out.push(if replies.is_empty() { '#' } else { '+' });
    }
    out
}

/// Normalises SAN for comparison: no check marks, annotations, `=` or `x`,
/// castling written with letters.
fn canonical(text: &str) -> String {
    text.replace("0-0-0", "O-O-O")
        .replace("0-0", "O-O")
        .chars()
        .filter(|c| !matches!(c, '+' | '#' | '!' | '?' | '=' | 'x' | ':'))
        .collect()
}

/// Finds the legal move named by `text`: SAN for chess (also the game's own
/// move text), the game's own notation for draughts.
pub fn parse_san<G: Game>(pos: &G, text: &str) -> Option<G::Move> {
    if let Ok(mv) = pos.parse_move(text) {
        return Some(mv);
    }
    if !pos.variant().is_chess() {
        return None;
    }
    let want = canonical(text);
    let mut list = G::MoveList::default();
    pos.generate(&mut list);
    let found: Vec<G::Move> =
        list.iter().copied().filter(|&m| canonical(&san(pos, m)) == want).collect();
    if found.len() == 1 {
        Some(found[0])
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_reading() {
        let b = read_board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
        assert_eq!(b[square("e4").unwrap()], Some('P'));
        assert_eq!(b[square("e8").unwrap()], Some('k'));
        assert!(read_board("W:W31-50:B1-20").is_none());
        assert!(read_board("9/8/8/8/8/8/8/8 w - - 0 1").is_none());
        assert_eq!(split_uci("e7e8q"), Some((52, 60, Some('q'))));
        assert!(is_castling(&read_board("8/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap(), 4, 7));
        assert!(is_castling(&read_board("8/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap(), 4, 2));
        assert_eq!(canonical("exd8=Q+"), "ed8Q");
        assert_eq!(canonical("0-0"), "O-O");
    }
}
