//! The chess training record: one position in 32 bytes, little-endian,
//! records simply concatenated in a file (extension `.crb`). Data
//! generation (`datagen`), the PGN converter (`pgn-to-data`) and the network
//! trainer all read and write it through this module.
//!
//! | bytes  | field            | meaning |
//! |--------|------------------|---------|
//! | 0..8   | occupancy: u64   | bit i set = square i occupied (a1 = 0, b1 = 1, ..., h8 = 63), absolute (White at the bottom) |
//! | 8..24  | pieces: [u8; 16] | one 4-bit code per occupied square, in ascending square order: the k-th occupied square's code is in byte k/2, low nibble for even k. Code bits 0-2: 0 pawn, 1 knight, 2 bishop, 3 rook, 4 queen, 5 king; bit 3 set = Black piece. Unused nibbles 0. |
//! | 24..26 | score: i16       | search score in centipawns from **White's** point of view |
//! | 26     | result: u8       | 0 Black won, 1 draw, 2 White won |
//! | 27     | side_to_move: u8 | 0 White, 1 Black |
//! | 28     | halfmove_clock: u8 | plies since the last capture or pawn move, saturated at 255 |
//! | 29     | flags: u8        | bit 0: Chess960 game; other bits 0 |
//! | 30..32 | fullmove: u16    | full-move number |
//!
//! Castling rights and en passant are not stored (positions are evaluated,
//! not searched), so [`ChessRecord::to_position`] gives a position without
//! either.
//!
//! Invariants: [`ChessRecord::from_bytes`] accepts exactly the byte strings
//! [`ChessRecord::to_bytes`] can produce (at most 32 pieces, piece codes
//! 0-5 and 8-13, unused nibbles zero, result 0-2, side 0-1, flags 0-1) and
//! refuses everything else with a [`RecordError`]; it never panics. A file
//! whose length is not a multiple of 32 is refused by [`read_file`]; a
//! writer that resumes a file cuts such a torn tail (see [`whole_length`]).

use crown::chess::{Color, Piece, PieceKind, Position, Square};
use crown::game::GameResult;
use crown::game::{Game, Side, Variant};
use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

/// Bytes per record.
pub const RECORD_SIZE: usize = 32;

/// One labelled chess position (see the module header for the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChessRecord {
    /// Occupied squares, bit i = square i (a1 = 0, h8 = 63).
    pub occupancy: u64,
    /// Piece codes of the occupied squares in ascending square order, two
    /// per byte, low nibble first.
    pub pieces: [u8; 16],
    /// Search score in centipawns, White's point of view.
    pub score: i16,
    /// The game's result.
    pub result: GameResult,
    /// The side to move.
    pub side: Side,
    /// Plies since the last capture or pawn move, saturated at 255.
    pub halfmove: u8,
    /// Whether the game is Chess960 (flags bit 0).
    pub chess960: bool,
    /// The full-move number (saturated at 65535).
    pub fullmove: u16,
}

/// Why bytes are not a record, or a record not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// More than 32 occupied squares.
    TooManyPieces(u32),
    /// A nibble that is no piece code (6, 7, 14 or 15).
    PieceCode(u8),
    /// A nibble after the last occupied square is not zero.
    Padding,
    /// Result byte above 2.
    Result(u8),
    /// Side-to-move byte above 1.
    Side(u8),
    /// Flag bits other than bit 0.
    Flags(u8),
    /// The pieces make no legal position (e.g. no king).
    Illegal(String),
    /// A file length that is not a whole number of records.
    Torn(u64),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::TooManyPieces(n) => {
                write!(f, "record has {n} occupied squares (at most 32)")
            }
            RecordError::PieceCode(c) => write!(f, "record has the invalid piece code {c}"),
            RecordError::Padding => f.write_str("record has non-zero unused piece nibbles"),
            RecordError::Result(r) => write!(f, "record has the invalid result {r} (0, 1 or 2)"),
            RecordError::Side(s) => write!(f, "record has the invalid side to move {s} (0 or 1)"),
            RecordError::Flags(x) => write!(f, "record has unknown flag bits {x:#04x}"),
            RecordError::Illegal(e) => write!(f, "record is no legal position: {e}"),
            RecordError::Torn(len) => write!(
                f,
                "file length {len} is not a multiple of {RECORD_SIZE} (a torn or foreign file)"
            ),
        }
    }
}

impl std::error::Error for RecordError {}

/// The record byte of a game result.
fn result_byte(result: GameResult) -> u8 {
    match result {
        GameResult::BlackWins => 0,
        GameResult::Draw => 1,
        GameResult::WhiteWins => 2,
    }
}

/// The 4-bit code of a piece.
fn piece_code(piece: Piece) -> u8 {
    piece.kind.index() as u8 | if piece.color == Color::Black { 8 } else { 0 }
}

/// The piece of a 4-bit code, `None` for 6, 7, 14, 15.
fn code_piece(code: u8) -> Option<Piece> {
    let kind = *PieceKind::ALL.get(usize::from(code & 7))?;
    Some(Piece::new(if code & 8 != 0 { Color::Black } else { Color::White }, kind))
}

impl ChessRecord {
    /// The record of `pos` with a score (centipawns, White's view; clamped
    /// to the i16 range) and the game's result.
    pub fn from_position(pos: &Position, white_score: i32, result: GameResult) -> ChessRecord {
        let occupancy = pos.occupancy().0;
        let mut pieces = [0u8; 16];
        let mut k = 0;
        for index in 0..64u32 {
            if occupancy >> index & 1 == 0 {
                continue;
            }
            if let Some(piece) = pos.piece_on(Square::from_index(index)) {
                pieces[k / 2] |= piece_code(piece) << (4 * (k % 2));
            }
            k += 1;
        }
        ChessRecord {
            occupancy,
            pieces,
            score: white_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            result,
            side: pos.side_to_move(),
            halfmove: pos.halfmove_clock().min(255) as u8,
            chess960: pos.variant() == Variant::Chess960,
            fullmove: pos.fullmove_number().min(u32::from(u16::MAX)) as u16,
        }
    }

    /// The occupied squares and their pieces, a1 first.
    pub fn squares(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let mut bits = self.occupancy;
        let mut k = 0usize;
        std::iter::from_fn(move || {
            while bits != 0 {
                let index = bits.trailing_zeros();
                bits &= bits - 1;
                let code = self.pieces.get(k / 2).map_or(15, |b| b >> (4 * (k % 2)) & 15);
                k += 1;
                if let Some(piece) = code_piece(code) {
                    return Some((Square::from_index(index), piece));
                }
            }
            None
        })
    }

    /// The position (no castling rights, no en-passant square), in
    /// Chess960 mode when the flag says so.
    pub fn to_position(&self) -> Result<Position, RecordError> {
        let mut board = [None; 64];
        for (sq, piece) in self.squares() {
            board[sq.index()] = Some(piece.to_char());
        }
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match board[rank * 8 + file] {
                    Some(c) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = if self.side == Side::White { 'w' } else { 'b' };
        let fen = format!("{fen} {side} - - {} {}", self.halfmove, self.fullmove.max(1));
        let variant = if self.chess960 { Variant::Chess960 } else { Variant::Chess };
        Position::from_fen(&fen, variant).map_err(|e| RecordError::Illegal(format!("{e} ({fen})")))
    }

    /// The 32 bytes of the record.
    pub fn to_bytes(&self) -> [u8; RECORD_SIZE] {
        let mut out = [0u8; RECORD_SIZE];
        out[0..8].copy_from_slice(&self.occupancy.to_le_bytes());
        out[8..24].copy_from_slice(&self.pieces);
        out[24..26].copy_from_slice(&self.score.to_le_bytes());
        out[26] = result_byte(self.result);
        out[27] = self.side.index() as u8;
        out[28] = self.halfmove;
        out[29] = u8::from(self.chess960);
        out[30..32].copy_from_slice(&self.fullmove.to_le_bytes());
        out
    }

    /// Reads and validates 32 bytes (see the module invariants).
    pub fn from_bytes(bytes: &[u8; RECORD_SIZE]) -> Result<ChessRecord, RecordError> {
        let word = |range: std::ops::Range<usize>| {
            let mut b = [0u8; 8];
            b[..range.len()].copy_from_slice(&bytes[range]);
            u64::from_le_bytes(b)
        };
        let occupancy = word(0..8);
        let count = occupancy.count_ones();
        if count > 32 {
            return Err(RecordError::TooManyPieces(count));
        }
        let mut pieces = [0u8; 16];
        pieces.copy_from_slice(&bytes[8..24]);
        for k in 0..32 {
            let code = pieces[k / 2] >> (4 * (k % 2)) & 15;
            if k as u32 >= count {
                if code != 0 {
                    return Err(RecordError::Padding);
                }
            } else if code_piece(code).is_none() {
                return Err(RecordError::PieceCode(code));
            }
        }
        let result = match bytes[26] {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::WhiteWins,
            r => return Err(RecordError::Result(r)),
        };
        let side = match bytes[27] {
            0 => Side::White,
            1 => Side::Black,
            s => return Err(RecordError::Side(s)),
        };
        if bytes[29] > 1 {
            return Err(RecordError::Flags(bytes[29]));
        }
        Ok(ChessRecord {
            occupancy,
            pieces,
            score: word(24..26) as u16 as i16,
            result,
            side,
            halfmove: bytes[28],
            chess960: bytes[29] == 1,
            fullmove: word(30..32) as u16,
        })
    }
}

/// Appends the records to `out` (whole records only; the caller flushes).
pub fn write_records<W: Write>(out: &mut W, records: &[ChessRecord]) -> io::Result<()> {
    for record in records {
        out.write_all(&record.to_bytes())?;
    }
    Ok(())
}

/// Reads every record of `bytes`, refusing a length that is not a multiple
/// of [`RECORD_SIZE`] and any invalid record (with its index).
pub fn parse_records(bytes: &[u8]) -> Result<Vec<ChessRecord>, String> {
    if bytes.len() % RECORD_SIZE != 0 {
        return Err(RecordError::Torn(bytes.len() as u64).to_string());
    }
    bytes
        .chunks_exact(RECORD_SIZE)
        .enumerate()
        .map(|(i, chunk)| {
            let mut b = [0u8; RECORD_SIZE];
            b.copy_from_slice(chunk);
            ChessRecord::from_bytes(&b).map_err(|e| format!("record {i}: {e}"))
        })
        .collect()
}

/// Reads a whole `.crb` file (see [`parse_records`]).
pub fn read_file(path: &Path) -> Result<Vec<ChessRecord>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_records(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Streams the records of a reader one at a time (for files larger than
/// memory). A torn tail is an error on the last item.
pub struct Reader<R: Read> {
    inner: R,
    index: u64,
}

impl<R: Read> Reader<R> {
    /// A reader over `inner` (wrap files in a `BufReader`).
    pub fn new(inner: R) -> Reader<R> {
        Reader { inner, index: 0 }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<ChessRecord, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut buf = [0u8; RECORD_SIZE];
        let mut filled = 0;
        while filled < RECORD_SIZE {
            match self.inner.read(&mut buf[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Some(Err(format!("record {}: {e}", self.index))),
            }
        }
        if filled == 0 {
            return None;
        }
        let index = self.index;
        self.index += 1;
        if filled < RECORD_SIZE {
            let len = index * RECORD_SIZE as u64 + filled as u64;
            return Some(Err(RecordError::Torn(len).to_string()));
        }
        Some(ChessRecord::from_bytes(&buf).map_err(|e| format!("record {index}: {e}")))
    }
}

/// The longest prefix of a file of `len` bytes that holds whole records.
pub fn whole_length(len: u64) -> u64 {
    len - len % RECORD_SIZE as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown::chess::chess960::chess960_fen;
    use crown::game::random_playout;

    fn positions() -> Vec<Position> {
        let mut all = Vec::new();
        for seed in 1..=20u64 {
            all.extend(random_playout(Position::start(Variant::Chess), 200, seed));
            let start =
                Position::from_fen(&chess960_fen(seed as usize * 47), Variant::Chess960).unwrap();
            all.extend(random_playout(start, 200, seed));
        }
        all
    }

    /// The FEN without castling and en-passant fields.
    fn stripped(pos: &Position) -> String {
        let fen = pos.to_fen();
        let f: Vec<&str> = fen.split(' ').collect();
        format!("{} {} {} {}", f[0], f[1], f[4], f[5])
    }

    #[test]
    fn round_trip_over_random_games() {
        let all = positions();
        assert!(all.len() > 4000, "{}", all.len());
        let results = [GameResult::WhiteWins, GameResult::Draw, GameResult::BlackWins];
        let mut bytes = Vec::new();
        let mut records = Vec::new();
        for (i, pos) in all.iter().enumerate() {
            let score = (i as i32 * 37) % 4001 - 2000;
            let record = ChessRecord::from_position(pos, score, results[i % 3]);
            assert_eq!(record.occupancy.count_ones(), pos.occupancy().count());
            let back = ChessRecord::from_bytes(&record.to_bytes()).unwrap();
            assert_eq!(back, record);
            let rebuilt = back.to_position().unwrap();
            assert_eq!(stripped(&rebuilt), stripped(pos), "{}", pos.to_fen());
            assert_eq!(rebuilt.variant(), pos.variant());
            assert_eq!(i32::from(back.score), score);
            assert_eq!(back.side, pos.side_to_move());
            write_records(&mut bytes, &[record]).unwrap();
            records.push(record);
        }
        assert_eq!(parse_records(&bytes).unwrap(), records);
        let streamed: Vec<_> = Reader::new(&bytes[..]).map(Result::unwrap).collect();
        assert_eq!(streamed, records);
    }

    #[test]
    fn known_layout() {
        let pos = Position::start(Variant::Chess);
        let bytes = ChessRecord::from_position(&pos, -35, GameResult::WhiteWins).to_bytes();
        assert_eq!(&bytes[0..8], &0xFFFF_0000_0000_FFFFu64.to_le_bytes());
        // a1 rook (3), b1 knight (1): byte 0 = 0x13; a2, b2 pawns: byte 4 = 0.
        assert_eq!(bytes[8], 0x13);
        assert_eq!(bytes[9], 0x42); // c1 bishop, d1 queen
        assert_eq!(bytes[10], 0x25); // e1 king, f1 bishop
        assert_eq!(bytes[12], 0x00);
        assert_eq!(bytes[16], 0x88); // a7, b7 black pawns
        assert_eq!(bytes[20], 0x9B); // a8 black rook (11), b8 black knight (9)
        assert_eq!(&bytes[24..26], &(-35i16).to_le_bytes());
        assert_eq!(&bytes[26..32], &[2, 0, 0, 0, 1, 0]);
    }

    #[test]
    fn bad_bytes_are_refused() {
        let good =
            ChessRecord::from_position(&Position::start(Variant::Chess), 0, GameResult::Draw)
                .to_bytes();
        let mut b = good;
        b[26] = 3;
        assert_eq!(ChessRecord::from_bytes(&b), Err(RecordError::Result(3)));
        let mut b = good;
        b[27] = 2;
        assert_eq!(ChessRecord::from_bytes(&b), Err(RecordError::Side(2)));
        let mut b = good;
        b[29] = 2;
        assert_eq!(ChessRecord::from_bytes(&b), Err(RecordError::Flags(2)));
        let mut b = good;
        b[8] = 0x16;
        assert_eq!(ChessRecord::from_bytes(&b), Err(RecordError::PieceCode(6)));
        let mut b = good;
        b[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert_eq!(ChessRecord::from_bytes(&b), Err(RecordError::TooManyPieces(64)));
        // A lone king each: the nibbles after the second piece must be 0.
        let kings = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1", Variant::Chess).unwrap();
        let mut b = ChessRecord::from_position(&kings, 0, GameResult::Draw).to_bytes();
        assert_eq!(b[8], 0xD5);
        b[9] = 1;
        assert_eq!(ChessRecord::from_bytes(&b), Err(RecordError::Padding));
        // Valid bytes, impossible position: no white king.
        let mut b = good;
        b[9] = 0x42;
        b[10] = 0x24; // e1 queen instead of king
        let record = ChessRecord::from_bytes(&b).unwrap();
        assert!(matches!(record.to_position(), Err(RecordError::Illegal(_))));
        // Every byte string is either refused or round-trips: no panics.
        let mut state = 0x1234_5678_9ABC_DEF1u64;
        for _ in 0..20_000 {
            let mut b = [0u8; RECORD_SIZE];
            for byte in &mut b {
                crown::rng::xorshift64(&mut state);
                *byte = state as u8;
            }
            b[0..8].copy_from_slice(&(state & state.rotate_left(17)).to_le_bytes());
            if let Ok(record) = ChessRecord::from_bytes(&b) {
                assert_eq!(record.to_bytes(), b);
                let _ = record.to_position();
            }
        }
    }

    #[test]
    fn torn_files() {
        let pos = Position::start(Variant::Chess960);
        let record = ChessRecord::from_position(&pos, 12, GameResult::Draw);
        let mut bytes = Vec::new();
        write_records(&mut bytes, &[record, record, record]).unwrap();
        bytes.extend_from_slice(&record.to_bytes()[..13]);
        let err = parse_records(&bytes).unwrap_err();
        assert!(err.contains("not a multiple of 32"), "{err}");
        let streamed: Vec<_> = Reader::new(&bytes[..]).collect();
        assert_eq!(streamed.len(), 4);
        assert!(streamed[..3].iter().all(|r| r.as_ref() == Ok(&record)));
        assert!(streamed[3].is_err());
        assert_eq!(whole_length(bytes.len() as u64), 96);
        assert_eq!(parse_records(&bytes[..96]).unwrap(), vec![record; 3]);
        let dir = std::env::temp_dir().join(format!("crown-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("torn.crb");
        std::fs::write(&path, &bytes).unwrap();
        assert!(read_file(&path).unwrap_err().contains("torn.crb"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
