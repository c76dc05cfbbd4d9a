//! Opening books built from Crown's own analysis (`crown book build`), and
//! their use in play.
//!
//! A book maps positions to scored moves: every move of a book position was
//! searched by Crown (see [`build`]), and a move whose resulting position is
//! itself in the book carries the minimax of the book below it. In play the
//! engine answers at once with the best-scored move of a book position
//! (`BookFile`: Hub parameter `book`, `crown dxp --book`), and searches as
//! usual everywhere else.
//!
//! Positions are keyed by [`key`]: FNV-1a 64 of the position's FEN without
//! its move counters, so a book does not depend on the engine's hashing.
//! Moves are stored as the game's full move text ([`Game::full_move_text`]:
//! every square a draughts capture touches), matched against the legal
//! moves when the book is read, so a stale or colliding entry never plays
//! an illegal move.
//!
//! File (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CRWNBOOK` |
//! | 8 | 4 | version (1) |
//! | 12 | 4 | plies searched to (the book's depth) |
//! | 16 | 16 | variant name, NUL padded |
//! | 32 | 8 | nodes of each move's search |
//! | 40 | 8 | number of entries |
//! | 48 | ... | entries: key (8), score (2, signed, for the side to move), text length (1), move text |
//! | end - 8 | 8 | FNV-1a 64 of every byte before |
//!
//! Invariants: entries are sorted by key, then by falling score; loading
//! checks the magic, version, variant name, lengths and checksum, so a
//! damaged, truncated or foreign file is refused whole with a [`BookError`].

pub mod build;

use crate::checksum::{fnv1a64, FNV1A64_START};
use crate::game::{Game, Variant};
use crate::score::Score;
use std::collections::HashMap;
use std::fmt;
use std::path::Path;

const MAGIC: &[u8; 8] = b"CRWNBOOK";
const VERSION: u32 = 1;
const HEADER: usize = 48;

/// One scored move of a book position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The move as [`Game::full_move_text`] writes it.
    pub text: String,
    /// Its score for the side to move (the position's), engine units.
    pub score: i16,
}

/// An opening book of one variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    depth: u32,
    nodes: u64,
    /// Each position's moves, best first.
    positions: HashMap<u64, Vec<Entry>>,
}

/// Why a book file was refused.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read or written.
    Io(std::io::Error),
    /// Not a Crown book, or a version this build does not read.
    Magic,
    /// The header names no variant Crown plays.
    Variant,
    /// The file is shorter or longer than its entries.
    Length,
    /// The data does not match its checksum.
    Checksum,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot read or write: {e}"),
            BookError::Magic => f.write_str("not a Crown opening book (bad magic or version)"),
            BookError::Variant => f.write_str("the book names an unknown variant"),
            BookError::Length => f.write_str("wrong length (truncated file?)"),
            BookError::Checksum => f.write_str("checksum mismatch (damaged file)"),
        }
    }
}

impl std::error::Error for BookError {}

impl From<std::io::Error> for BookError {
    fn from(e: std::io::Error) -> Self {
        BookError::Io(e)
    }
}

/// FNV-1a 64 of `data`.
fn fnv1a(data: &[u8]) -> u64 {
    fnv1a64(FNV1A64_START, data)
}

/// The book key of a position: FNV-1a 64 of its FEN's first four fields
/// (chess: board, side, castling, en passant; a draughts FEN is one field),
/// so that move counters do not split a position.
pub fn key<G: Game>(pos: &G) -> u64 {
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split_whitespace().take(4).collect();
    fnv1a(fields.join(" ").as_bytes())
}

impl Book {
    /// An empty book of `variant`, built to `depth` plies at `nodes` a move.
    pub fn new(variant: Variant, depth: u32, nodes: u64) -> Self {
        Book { variant, depth, nodes, positions: HashMap::new() }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Plies from the start the build went to.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Nodes of each move's search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Number of scored moves over all positions.
    pub fn entries(&self) -> usize {
        self.positions.values().map(Vec::len).sum()
    }

    /// Sets the moves of the position with `key` (sorted best first).
    pub fn insert(&mut self, key: u64, mut moves: Vec<Entry>) {
        moves.sort_by(|a, b| b.score.cmp(&a.score).then_with(|| a.text.cmp(&b.text)));
        self.positions.insert(key, moves);
    }

    /// The moves of the position with `key`, best first.
    pub fn moves(&self, key: u64) -> Option<&[Entry]> {
        self.positions.get(&key).map(Vec::as_slice)
    }

    /// The move to play in `pos` and its score: the best-scored book move
    /// that is legal there (none when the position is not in the book, or
    /// belongs to another variant).
    pub fn probe<G: Game>(&self, pos: &G) -> Option<(G::Move, Score)> {
        if pos.variant() != self.variant && !(self.variant.is_chess() && pos.variant().is_chess()) {
            return None;
        }
        let entries = self.positions.get(&key(pos))?;
        let mut list = G::MoveList::default();
        pos.generate(&mut list);
        entries.iter().find_map(|entry| {
            let mv = list.iter().copied().find(|&mv| pos.full_move_text(mv) == entry.text)?;
            Some((mv, Score::from(entry.score)))
        })
    }

    /// The file image.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + 16 * self.entries() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.depth.to_le_bytes());
        let mut name = [0u8; 16];
        let v = self.variant.name().as_bytes();
        name[..v.len().min(16)].copy_from_slice(&v[..v.len().min(16)]);
        out.extend_from_slice(&name);
        out.extend_from_slice(&self.nodes.to_le_bytes());
        out.extend_from_slice(&(self.entries() as u64).to_le_bytes());
        let mut keys: Vec<u64> = self.positions.keys().copied().collect();
        keys.sort_unstable();
        for k in keys {
            for entry in &self.positions[&k] {
                let text = &entry.text.as_bytes()[..entry.text.len().min(255)];
                out.extend_from_slice(&k.to_le_bytes());
                out.extend_from_slice(&entry.score.to_le_bytes());
                out.push(text.len() as u8);
                out.extend_from_slice(text);
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a file image; a damaged, truncated or foreign one is refused.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < 12
            || &bytes[..8] != MAGIC
            || u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")) != VERSION
        {
            return Err(BookError::Magic);
        }
        if bytes.len() < HEADER + 8 {
            return Err(BookError::Length);
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
            return Err(BookError::Checksum);
        }
        let u64_at = |at: usize| u64::from_le_bytes(body[at..at + 8].try_into().expect("8 bytes"));
        let depth = u32::from_le_bytes(body[12..16].try_into().expect("4 bytes"));
        let name = &body[16..32];
        let end = name.iter().position(|&b| b == 0).unwrap_or(16);
        let variant = std::str::from_utf8(&name[..end])
            .ok()
            .and_then(Variant::parse)
            .ok_or(BookError::Variant)?;
        let mut book = Book::new(variant, depth, u64_at(32));
        let count = u64_at(40);
        let mut at = HEADER;
        let mut read = 0u64;
        let mut by_key: HashMap<u64, Vec<Entry>> = HashMap::new();
        while at < body.len() {
            if at + 11 > body.len() {
                return Err(BookError::Length);
            }
            let k = u64_at(at);
            let score = i16::from_le_bytes([body[at + 8], body[at + 9]]);
            let len = usize::from(body[at + 10]);
            let text = body.get(at + 11..at + 11 + len).ok_or(BookError::Length)?;
            let text = String::from_utf8(text.to_vec()).map_err(|_| BookError::Checksum)?;
            by_key.entry(k).or_default().push(Entry { text, score });
            at += 11 + len;
            read += 1;
        }
        if read != count {
            return Err(BookError::Length);
        }
        for (k, moves) in by_key {
            book.insert(k, moves);
        }
        Ok(book)
    }

    /// Writes the book to `path` (through a temporary file, so a reader
    /// never sees half a book).
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    }

    /// Reads the book at `path`.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        Self::from_bytes(&std::fs::read(path)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::International;

    fn sample() -> (International, Book) {
        let start = International::start(Variant::International);
        let mut list = <International as Game>::MoveList::default();
        start.generate(&mut list);
        let mut book = Book::new(Variant::International, 1, 1000);
        let moves = list
            .iter()
            .enumerate()
            .map(|(i, &mv)| Entry { text: start.full_move_text(mv), score: i as i16 - 4 })
            .collect();
        book.insert(key(&start), moves);
        (start, book)
    }

    #[test]
    fn the_best_scored_legal_move_is_played() {
        let (start, mut book) = sample();
        let (mv, score) = book.probe(&start).expect("in book");
        assert_eq!(score, 4);
        assert_eq!(book.moves(key(&start)).expect("moves")[0].text, start.full_move_text(mv));
        // A best entry that is no legal move is passed over.
        let mut moves = book.moves(key(&start)).expect("moves").to_vec();
        moves.push(Entry { text: "1-7".into(), score: 100 });
        book.insert(key(&start), moves);
        assert_eq!(book.probe(&start).map(|(_, s)| s), Some(4));
        // Out of book, and another variant: nothing.
        let mut after = start;
        after.play(mv);
        assert_eq!(book.probe(&after), None);
        let russian = crate::draughts::Russian::start(Variant::Russian);
        assert_eq!(book.probe(&russian), None);
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let (_, book) = sample();
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes).expect("round trip"), book);
        let mut flipped = bytes.clone();
        flipped[HEADER + 3] ^= 1;
        assert!(matches!(Book::from_bytes(&flipped), Err(BookError::Checksum)));
        assert!(matches!(Book::from_bytes(&bytes[..bytes.len() - 5]), Err(BookError::Checksum)));
        assert!(matches!(Book::from_bytes(&bytes[..20]), Err(BookError::Length)));
        assert!(matches!(Book::from_bytes(b"CRWNWDL2 not a book"), Err(BookError::Magic)));
        // A count that disagrees with the entries, checksum made good.
        let mut short = bytes[..bytes.len() - 8].to_vec();
        short[40] += 1;
        let sum = fnv1a(&short);
        short.extend_from_slice(&sum.to_le_bytes());
        assert!(matches!(Book::from_bytes(&short), Err(BookError::Length)));
    }

    #[test]
    fn move_counters_do_not_split_a_chess_position() {
        let a = crate::chess::Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            Variant::Chess,
        )
        .expect("fen");
        let b = crate::chess::Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 4 9",
            Variant::Chess,
        )
        .expect("fen");
        assert_eq!(key(&a), key(&b));
        assert_ne!(key(&a), key(&crate::chess::Position::start(Variant::Chess)));
    }
}
