//! Chess960 start positions in the standard numbering (0..960, 518 being
//! the orthodox array), written as FEN with Shredder-FEN castling rights.
//! Invariant: bishops on opposite colours, the king between the rooks.

/// A random Chess960 start position (Shredder-FEN castling), `index` 0..960
/// in the standard numbering (518 is the orthodox array).
pub fn chess960_fen(index: usize) -> String {
    let mut n = index % 960;
    let mut rank: [Option<char>; 8] = [None; 8];
    let light = [1usize, 3, 5, 7][n % 4];
    n /= 4;
    let dark = [0usize, 2, 4, 6][n % 4];
    n /= 4;
    rank[light] = Some('B');
    rank[dark] = Some('B');
    let queen = n % 6;
    n /= 6;
    place_nth_empty(&mut rank, queen, 'Q');
    let knights =
        [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)][n];
    place_nth_empty(&mut rank, knights.1, 'N');
    place_nth_empty(&mut rank, knights.0, 'N');
    for piece in ['R', 'K', 'R'] {
        place_nth_empty(&mut rank, 0, piece);
    }
    let white: String = rank.iter().map(|p| p.unwrap_or('R')).collect();
    let files: Vec<char> = white
        .char_indices()
        .filter(|&(_, p)| p == 'R')
        .map(|(i, _)| char::from(b'a' + i as u8))
        .collect();
    let castling = format!(
        "{}{}{}{}",
        files[1].to_ascii_uppercase(),
        files[0].to_ascii_uppercase(),
        files[1],
        files[0]
    );
    format!("{}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1", white.to_ascii_lowercase())
}

fn place_nth_empty(rank: &mut [Option<char>; 8], n: usize, piece: char) {
    if let Some(slot) = rank.iter_mut().filter(|s| s.is_none()).nth(n) {
        *slot = Some(piece);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn chess960_arrays() {
        assert_eq!(chess960_fen(518), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
        assert_eq!(chess960_fen(0), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
        for index in 0..960 {
            let fen = chess960_fen(index);
            let pos = crate::chess::Position::from_fen(&fen, crate::game::Variant::Chess960);
            assert!(pos.is_ok(), "{index}: {fen}");
        }
    }
}
