//! PGN with score comments → chess training records (`crown-tune
//! pgn-to-data`): the games that fastchess (OpenBench's workers) and
//! `crown match` write, turned into the same [`ChessRecord`]s that
//! `datagen` writes, so data made on one machine or on many trains alike.
//!
//! Input: standard PGN. Tags are read for `[FEN]`, `[Variant]` (absent or
//! `Standard`: chess; `Chess960` / `Fischerandom`: Chess960; anything else:
//! the game is skipped) and `[Result]`. Each move may be followed by
//! comments; the first one that starts with a score is the search score of
//! that move, in pawns from the mover's side: `{+0.31/12 0.004s, n=5012}`
//! (fastchess), `{+0.31/12 0.532s}` (Crown); `+M3`/`-M3` are mates, `book`
//! and other words are no score. Variations, NAGs, `;` comments and `%`
//! escape lines are skipped.
//!
//! Labels: each position before a move gets that move's score (converted to
//! White's view, centipawns) and the game's result. Skipped: positions in
//! check, positions whose played move captures or promotes, moves without a
//! score or with a mate score, and whole games without a result (`*`),
//! with an unknown variant, a bad FEN or an illegal move (counted, never
//! fatal: one broken game in a worker's upload does not spoil the rest).
//!
//! SAN is matched directly against the legal moves of a
//! `crown::chess::Position` ([`find_san`]); text it cannot read falls back
//! to the generic `crown::chess::san::parse_san` (which also accepts
//! UCI move text).

use crate::record::{write_records, ChessRecord};
use crown::chess::san::parse_san;
use crown::chess::{Move, MoveList, PieceKind, Position, Square};
use crown::game::GameResult;
use crown::game::{Game, Variant};
use crown::score::Score;
use liblzma::bufread::XzDecoder;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// One game as read from PGN text, before the rules look at it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Main-line moves, each with the comments that follow it.
    pub moves: Vec<(String, Vec<String>)>,
    /// The game termination marker (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub termination: Option<String>,
}

impl PgnGame {
    /// The value of tag `name` (case-sensitive, as PGN requires).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// A score comment's value for the mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentScore {
    /// Centipawns.
    Cp(Score),
    /// A mate score (either side).
    Mate,
}

/// Reads the score at the start of a comment: `+0.31/12 ...` → 31 cp,
/// `-M3/20 ...` → mate; `None` for a comment without one (`book`, a reason).
pub fn comment_score(comment: &str) -> Option<CommentScore> {
    let first = comment.split_whitespace().next()?;
    let value = first.split('/').next()?;
    let digits = value.trim_start_matches(['+', '-']);
    if let Some(n) = digits.strip_prefix('M') {
        return n.parse::<u32>().ok().map(|_| CommentScore::Mate);
    }
    if !digits.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let pawns: f64 = value.parse().ok()?;
    if !pawns.is_finite() || pawns.abs() > 300.0 {
        return None;
    }
    Some(CommentScore::Cp((pawns * 100.0).round() as Score))
}

/// Splits PGN text read line by line into games. Streams: one game is
/// held at a time.
pub struct PgnReader<R: BufRead> {
    lines: std::io::Lines<R>,
    pending: Option<String>,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader over PGN text.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader { lines: input.lines(), pending: None, done: false }
    }
}

/// Move text tokenizer state carried across lines.
#[derive(Default)]
struct MoveText {
    comment: Option<String>,
    variation: usize,
}

impl MoveText {
    fn feed(&mut self, line: &str, game: &mut PgnGame) {
        let mut token = String::new();
        for c in line.chars() {
            if let Some(text) = &mut self.comment {
                if c == '}' {
                    let text = std::mem::take(text).trim().to_string();
                    self.comment = None;
                    if self.variation == 0 {
                        if let Some((_, comments)) = game.moves.last_mut() {
                            comments.push(text);
                        }
                    }
                } else {
                    text.push(c);
                }
                continue;
            }
            match c {
                '{' => {
                    self.flush(&mut token, game);
                    self.comment = Some(String::new());
                }
                '(' => {
                    self.flush(&mut token, game);
                    self.variation += 1;
                }
                ')' => {
                    token.clear();
                    self.variation = self.variation.saturating_sub(1);
                }
                ';' if self.variation == 0 => break,
                c if c.is_whitespace() => self.flush(&mut token, game),
                c => token.push(c),
            }
        }
        self.flush(&mut token, game);
        if let Some(text) = &mut self.comment {
            text.push(' ');
        }
    }

    fn flush(&self, token: &mut String, game: &mut PgnGame) {
        let t = std::mem::take(token);
        if self.variation > 0 {
            return;
        }
        // `12.e4` → `e4`, `12...` → nothing.
        let t = match t.find('.') {
            Some(dot) if t[..dot].bytes().all(|b| b.is_ascii_digit()) => {
                t[dot..].trim_start_matches('.').to_string()
            }
            _ => t,
        };
        if t.is_empty() || t.starts_with('$') {
            return;
        }
        if matches!(t.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*") {
            game.termination = Some(t);
        } else {
            game.moves.push((t, Vec::new()));
        }
    }
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (name, value) = inner.split_once(char::is_whitespace)?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    Some((name.to_string(), value.replace("\\\"", "\"").replace("\\\\", "\\")))
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<PgnGame, String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut game = PgnGame::default();
        let mut text = MoveText::default();
        let mut in_moves = false;
        loop {
            let line = match self.pending.take() {
                Some(line) => line,
                None => match self.lines.next() {
                    Some(Ok(line)) => line,
                    Some(Err(e)) => {
                        self.done = true;
                        return Some(Err(format!("cannot read the PGN: {e}")));
                    }
                    None => {
                        self.done = true;
                        let empty = game.tags.is_empty() && game.moves.is_empty();
                        return (!empty).then_some(Ok(game));
                    }
                },
            };
            let trimmed = line.trim();
            let outside = text.comment.is_none() && text.variation == 0;
            if outside && trimmed.starts_with('[') {
                if in_moves {
                    self.pending = Some(line);
                    return Some(Ok(game));
                }
                if let Some(tag) = parse_tag(trimmed) {
                    game.tags.push(tag);
                }
                continue;
            }
            if trimmed.starts_with('%') || (trimmed.is_empty() && outside) {
                continue;
            }
            in_moves = true;
            text.feed(trimmed, &mut game);
        }
    }
}

/// Finds the legal move named by SAN `text` in `pos` (check marks,
/// annotations, `x`, `=` optional; `0-0` accepted for `O-O`), or `None`
/// when no single legal move matches.
pub fn find_san(pos: &Position, text: &str) -> Option<Move> {
    let text = text.trim_end_matches(['+', '#', '!', '?']);
    if !text.is_ascii() || text.len() < 2 {
        return None;
    }
    let mut list = MoveList::default();
    pos.generate(&mut list);
    let unique = |mut found: Vec<Move>| (found.len() == 1).then(|| found.remove(0));
    let castle = match text {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(king_side) = castle {
        let king = pos.king_square(pos.side());
        return unique(
            list.iter()
                .copied()
                .filter(|m| m.is_castling() && (m.to() > king) == king_side)
                .collect(),
        );
    }
    let first = text.as_bytes()[0];
    let (kind, rest) = match PieceKind::from_char(char::from(first)) {
        Some(kind) if first.is_ascii_uppercase() && kind != PieceKind::Pawn => (kind, &text[1..]),
        _ => (PieceKind::Pawn, text),
    };
    let (body, promotion) = match rest.split_once('=') {
        Some((body, piece)) => (body, Some(PieceKind::from_char(piece.chars().next()?)?)),
        None => match rest.as_bytes().last() {
            Some(&c) if kind == PieceKind::Pawn && b"NBRQ".contains(&c) => {
                (&rest[..rest.len() - 1], PieceKind::from_char(char::from(c)))
            }
            _ => (rest, None),
        },
    };
    let body: Vec<u8> = body.bytes().filter(|b| !matches!(b, b'x' | b':' | b'-')).collect();
    if body.len() < 2 || body.len() > 4 {
        return None;
    }
    let (from_text, to_text) = body.split_at(body.len() - 2);
    let to = Square::parse(std::str::from_utf8(to_text).ok()?)?;
    let mut file = None;
    let mut rank = None;
    for &b in from_text {
        match b {
            b'a'..=b'h' if file.is_none() => file = Some(usize::from(b - b'a')),
            b'1'..=b'8' if rank.is_none() => rank = Some(usize::from(b - b'1')),
            _ => return None,
        }
    }
    unique(
        list.iter()
            .copied()
            .filter(|&m| {
                !m.is_castling()
                    && m.to() == to
                    && m.promotion_kind() == promotion
                    && pos.moved_piece(m).is_some_and(|p| p.kind == kind)
                    && file.map_or(true, |f| m.from().file().index() == f)
                    && rank.map_or(true, |r| m.from().rank().index() == r)
            })
            .collect(),
    )
}

/// What a conversion kept and skipped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Games read.
    pub games: usize,
    /// Games that gave records (or could have: every move read).
    pub converted: usize,
    /// Games skipped: no result (`*` or none).
    pub no_result: usize,
    /// Games skipped: unknown variant, bad FEN or an illegal move.
    pub broken: usize,
    /// Positions written.
    pub positions: usize,
    /// Positions skipped: side to move in check.
    pub in_check: usize,
    /// Positions skipped: the move played captures or promotes.
    pub tactical: usize,
    /// Positions skipped: mate score.
    pub mate: usize,
    /// Positions skipped: no score comment (book moves).
    pub no_score: usize,
}

/// Why a game gave no records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// No decisive or drawn result.
    NoResult,
    /// Unreadable: the reason.
    Broken(String),
}

fn game_result(game: &PgnGame) -> Option<GameResult> {
    let text = game.termination.as_deref().filter(|t| *t != "*").or(game.tag("Result"))?;
    match text {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// The training records of one game, or why it has none; `counts` gets the
/// skipped positions.
pub fn convert(game: &PgnGame, counts: &mut Counts) -> Result<Vec<ChessRecord>, Skip> {
    let result = game_result(game).ok_or(Skip::NoResult)?;
    let variant = match game.tag("Variant").map(str::to_ascii_lowercase).as_deref() {
        None | Some("standard") | Some("chess") => Variant::Chess,
        Some("chess960" | "chess 960" | "fischerandom" | "fischer random" | "frc") => {
            Variant::Chess960
        }
        Some(other) => return Err(Skip::Broken(format!("unsupported variant '{other}'"))),
    };
    let mut pos = match game.tag("FEN") {
        Some(fen) => Position::from_fen(fen, variant)
            .map_err(|e| Skip::Broken(format!("bad FEN '{fen}': {e}")))?,
        None if variant == Variant::Chess960 => {
            return Err(Skip::Broken("Chess960 game without a FEN tag".to_string()))
        }
        None => Position::start(variant),
    };
    let mut local = Counts::default();
    let mut records = Vec::new();
    for (text, comments) in &game.moves {
        let mv = find_san(&pos, text)
            .or_else(|| parse_san(&pos, text))
            .ok_or_else(|| Skip::Broken(format!("illegal move '{text}' in {}", pos.to_fen())))?;
        match comments.iter().find_map(|c| comment_score(c)) {
            None => local.no_score += 1,
            Some(_) if pos.in_check() => local.in_check += 1,
            Some(_) if pos.is_tactical(mv) => local.tactical += 1,
            Some(CommentScore::Mate) => local.mate += 1,
            Some(CommentScore::Cp(cp)) => {
                let white = if pos.side_to_move() == crown::Side::White { cp } else { -cp };
                records.push(ChessRecord::from_position(&pos, white, result));
            }
        }
        pos.play(mv);
    }
    counts.in_check += local.in_check;
    counts.tactical += local.tactical;
    counts.mate += local.mate;
    counts.no_score += local.no_score;
    Ok(records)
}

/// An `.xz` stream decompressed as it is read (every concatenated stream,
/// as `xz -dc` does), its errors marked `xz:` so a corrupt or truncated
/// archive is named as such.
struct Xz<R: BufRead>(XzDecoder<R>);

impl<R: BufRead> Read for Xz<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf).map_err(|e| std::io::Error::new(e.kind(), format!("xz: {e}")))
    }
}

/// Opens a PGN file for reading; a name ending in `.xz` is decompressed
/// in-process as it is read (see [`convert_files`]).
pub fn open_pgn(path: &Path) -> Result<Box<dyn BufRead>, String> {
    let file = File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = BufReader::with_capacity(1 << 16, file);
    if path.extension().is_some_and(|e| e == "xz") {
        let xz = Xz(XzDecoder::new_multi_decoder(file));
        Ok(Box::new(BufReader::with_capacity(1 << 16, xz)))
    } else {
        Ok(Box::new(file))
    }
}

/// Converts PGN files (plain or `.xz`) into one `.crb` file. The records
/// go to `out` with a `.tmp` suffix first and the file is renamed when every
/// input was read in full, so a failure (an unreadable file, a corrupt
/// archive) leaves no partial output. `warn` gets one line per skipped
/// broken game.
pub fn convert_files(
    inputs: &[PathBuf],
    out: &Path,
    mut warn: impl FnMut(&str),
) -> Result<Counts, String> {
    let mut tmp = out.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let result = (|| {
        let file =
            File::create(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
        let mut writer = BufWriter::with_capacity(1 << 16, file);
        let mut counts = Counts::default();
        for path in inputs {
            let reader = open_pgn(path)?;
            for game in PgnReader::new(reader) {
                let game = game.map_err(|e| format!("{}: {e}", path.display()))?;
                counts.games += 1;
                match convert(&game, &mut counts) {
                    Ok(records) => {
                        counts.converted += 1;
                        counts.positions += records.len();
                        write_records(&mut writer, &records)
                            .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
                    }
                    Err(Skip::NoResult) => counts.no_result += 1,
                    Err(Skip::Broken(why)) => {
                        counts.broken += 1;
                        warn(&format!("{} game {}: skipped, {why}", path.display(), counts.games));
                    }
                }
            }
        }
        writer.flush().map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        Ok(counts)
    })();
    match result {
        Ok(counts) => {
            std::fs::rename(&tmp, out).map_err(|e| {
                format!("cannot rename {} to {}: {e}", tmp.display(), out.display())
            })?;
            Ok(counts)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_scores() {
        assert_eq!(comment_score("+0.31/12 0.004s, n=5012"), Some(CommentScore::Cp(31)));
        assert_eq!(comment_score("-1.22/8 0.003s"), Some(CommentScore::Cp(-122)));
        assert_eq!(comment_score("0.00/1 0.000s"), Some(CommentScore::Cp(0)));
        assert_eq!(comment_score("+M3/20 1.0s"), Some(CommentScore::Mate));
        assert_eq!(comment_score("-M1/1 0.001s"), Some(CommentScore::Mate));
        assert_eq!(comment_score("book"), None);
        assert_eq!(comment_score("d12 0.100s"), None);
        assert_eq!(comment_score("White wins by adjudication"), None);
        assert_eq!(comment_score("+inf/3"), None);
        assert_eq!(comment_score(""), None);
    }

    #[test]
    fn san_matching() {
        let start = Position::start(Variant::Chess);
        let fen = |p: &Position, s: &str| {
            let mut q = p.clone();
            q.play(find_san(p, s).unwrap());
            q.to_fen()
        };
        assert_eq!(
            fen(&start, "Nf3"),
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1"
        );
        assert!(find_san(&start, "e5").is_none());
        assert!(find_san(&start, "Ke2").is_none());
        let pos =
            Position::from_fen("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", Variant::Chess).unwrap();
        assert_eq!(fen(&pos, "O-O"), "r3k2r/1P6/8/8/8/8/8/R4RK1 b kq - 1 1");
        assert_eq!(fen(&pos, "0-0-0"), "r3k2r/1P6/8/8/8/8/8/2KR3R b kq - 1 1");
        assert_eq!(fen(&pos, "bxa8=N"), "N3k2r/8/8/8/8/8/8/R3K2R b KQk - 0 1");
        assert_eq!(fen(&pos, "b8Q+"), "rQ2k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        assert!(find_san(&pos, "b8").is_none(), "a promotion needs its piece");
        // Rooks on a1 and h1 both reach d1: the file decides.
        let pos = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1", Variant::Chess).unwrap();
        assert!(find_san(&pos, "Rd1").is_none());
        assert_eq!(fen(&pos, "Rad1"), "4k3/8/8/8/8/8/4K3/3R3R b - - 1 1");
        assert_eq!(fen(&pos, "Rhf1"), "4k3/8/8/8/8/8/4K3/R4R2 b - - 1 1");
        // En passant, and Chess960 castling with the king next to its rook.
        let pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", Variant::Chess).unwrap();
        assert_eq!(fen(&pos, "exd6"), "4k3/8/3P4/8/8/8/8/4K3 b - - 0 2");
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1", Variant::Chess960).unwrap();
        assert_eq!(fen(&pos, "O-O"), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");
    }

    #[test]
    fn reader_splits_games_and_comments() {
        let text = "[Event \"a\"]\n[Result \"1-0\"]\n\n1. e4 {+0.31/12 0.1s,\n n=5} e5 {book} (1... c5 {x} 2. Nf3) 2. Nf3 $1 {-0.10/3 0.1s} {reason} 1-0\n\n[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n1. Kd2 *\n";
        let games: Vec<PgnGame> = PgnReader::new(text.as_bytes()).map(Result::unwrap).collect();
        assert_eq!(games.len(), 2);
        let g = &games[0];
        assert_eq!(g.tag("Result"), Some("1-0"));
        assert_eq!(g.termination.as_deref(), Some("1-0"));
        let names: Vec<&str> = g.moves.iter().map(|(m, _)| m.as_str()).collect();
        assert_eq!(names, ["e4", "e5", "Nf3"]);
        assert_eq!(g.moves[0].1, ["+0.31/12 0.1s, n=5"]);
        assert_eq!(g.moves[2].1, ["-0.10/3 0.1s", "reason"]);
        let mut counts = Counts::default();
        let records = convert(g, &mut counts).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!((records[0].score, records[1].score), (31, -10));
        assert_eq!(counts.no_score, 1);
        assert_eq!(convert(&games[1], &mut counts), Err(Skip::NoResult));
    }
}
