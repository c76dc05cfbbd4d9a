//! DamExchange messages: the typed values and their fixed-width codec, kept
//! apart from the socket (framing is `framing.rs`).
//!
//! Every message is 1..=127 printable ASCII characters (the NUL terminator
//! is not part of it). Numbers are ASCII digits with leading zeros, names are
//! padded with spaces to 32 characters, colours are `W` (white) or `Z`
//! (zwart, black). Layouts (width in characters):
//!
//! | message     | layout                                                                 | length |
//! |-------------|------------------------------------------------------------------------|--------|
//! | R GAMEREQ   | `R` version(2)=`01` name(32) follower-colour(1) minutes(3) moves(3) `A` | 43 |
//! |             | ... or `B` side-to-move(1) squares(50, from `w z W Z e`)               | 94 |
//! | A GAMEACC   | `A` name(32) code(1): 0 accept, 1 wrong version, 2 refuse game, 3 refuse all | 34 |
//! | M MOVE      | `M` seconds(4) from(2) to(2) count(2, 00..20) captured(2 each)         | 11 + 2n |
//! | E GAMEEND   | `E` reason(1): 0 unknown, 1 I lose, 2 draw, 3 I win; stop(1): 0 or 1   | 3 |
//! | C CHAT      | `C` text(0..126)                                                       | 1..127 |
//! | B BACKREQ   | `B` move-number(3) side-to-move(1)                                     | 5 |
//! | K BACKACC   | `K` code(1): 0 accepted, 1 not supported, 2 refused                    | 2 |
//!
//! Invariants: [`Message::decode`] never panics on any bytes and accepts only
//! exact layouts (squares 1..=50, at most 20 captured squares); whatever it
//! accepts, [`Message::encode`] writes back byte for byte (names lose only
//! their trailing spaces). A GAMEREQ with another version than `01` decodes
//! to [`CodecError::Version`] so that the follower can answer code 1.

use crate::game::Side;
use std::fmt;

/// The protocol version Crown speaks.
pub const VERSION: u32 = 1;
/// Longest message, terminator excluded.
pub const MAX_LEN: usize = 127;
/// Width of the name fields.
pub const NAME_LEN: usize = 32;
/// Most captured squares one MOVE can carry.
pub const MAX_CAPTURED: usize = 20;
/// Highest square number (international draughts).
pub const SQUARES: u8 = 50;

/// Where a requested game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// The initial position (`A`).
    Initial,
    /// A given position (`B`): side to move and 50 square characters from
    /// `w z W Z e` (validated by the codec; legality is the game's business).
    Position {
        /// Side to move.
        to_move: Side,
        /// Squares 1..=50, one character each.
        squares: String,
    },
}

/// GAMEREQ: the initiator asks for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReq {
    /// The initiator's name (trailing spaces removed).
    pub name: String,
    /// The colour the follower plays.
    pub follower: Side,
    /// Thinking time per player in minutes (0..=999).
    pub minutes: u32,
    /// Moves to be made in that time (0: no limit; 0..=999).
    pub moves: u32,
    /// The start position.
    pub setup: StartPosition,
}

/// GAMEACC answer codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccCode {
    /// 0: the game is accepted.
    Accept,
    /// 1: the follower does not speak this protocol version.
    WrongVersion,
    /// 2: this game is refused (e.g. an impossible position).
    RefuseGame,
    /// 3: every game is refused.
    RefuseAll,
}

/// GAMEACC: the follower's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAcc {
    /// The follower's name (trailing spaces removed).
    pub name: String,
    /// Accepted or why not.
    pub code: AccCode,
}

/// MOVE: one move with the time it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMsg {
    /// Seconds used for the move (0..=9999).
    pub seconds: u32,
    /// From square (1..=50).
    pub from: u8,
    /// To square (1..=50).
    pub to: u8,
    /// Captured squares (1..=50 each, at most 20, any order).
    pub captured: Vec<u8>,
}

/// GAMEEND reasons, from the sender's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// 0: no reason given (also protocol faults).
    Unknown,
    /// 1: the sender loses.
    ILose,
    /// 2: a draw.
    Draw,
    /// 3: the sender wins.
    IWin,
}

impl EndReason {
    /// The same result from the other side's point of view.
    pub fn mirror(self) -> EndReason {
        match self {
            EndReason::ILose => EndReason::IWin,
            EndReason::IWin => EndReason::ILose,
            other => other,
        }
    }
}

/// GAMEEND: the game is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// Why, from the sender's point of view.
    pub reason: EndReason,
    /// The sender wants no further game on this connection.
    pub stop: bool,
}

/// BACKREQ: take back to the position where this move is to be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BackReq {
    /// Move number (1..=999).
    pub move_number: u32,
    /// Side to move in that position.
    pub to_move: Side,
}

/// BACKACC answer codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackCode {
    /// 0: taken back.
    Accepted,
    /// 1: take-backs are not supported.
    NotSupported,
    /// 2: refused (the game state does not allow it).
    Refused,
}

/// One DamExchange message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`.
    GameReq(GameReq),
    /// `A`.
    GameAcc(GameAcc),
    /// `M`.
    Move(MoveMsg),
    /// `E`.
    GameEnd(GameEnd),
    /// `C` with its text.
    Chat(String),
    /// `B`.
    BackReq(BackReq),
    /// `K`.
    BackAcc(BackCode),
}

/// Why bytes are not a message, or a message cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodecError {
    /// No characters at all.
    Empty,
    /// Longer than 127 characters.
    TooLong(usize),
    /// A byte that is not printable ASCII, at this offset.
    NotPrintable(usize),
    /// The first character names no message type.
    UnknownType(char),
    /// The message has the wrong length for its type.
    Length {
        /// Message type.
        kind: char,
        /// The length its fields call for.
        expected: usize,
        /// Its actual length.
        found: usize,
    },
    /// A numeric field holds something other than digits (or is out of range).
    Number(&'static str),
    /// A colour field is not `W` or `Z`.
    Colour(&'static str),
    /// A code or flag field has a value the protocol does not define.
    Code(&'static str),
    /// A GAMEREQ for another protocol version than `01`.
    Version(u32),
    /// The position indicator is not `A` or `B`.
    Setup,
    /// A square character of a GAMEREQ position is not one of `w z W Z e`.
    Board(usize),
    /// A square number outside 1..=50.
    Square(u32),
    /// More than 20 captured squares.
    Captures(usize),
}

impl fmt::Display for CodecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodecError::Empty => write!(f, "empty message"),
            CodecError::TooLong(n) => write!(f, "message of {n} characters (at most {MAX_LEN})"),
            CodecError::NotPrintable(i) => write!(f, "non-printable byte at offset {i}"),
            CodecError::UnknownType(c) => write!(f, "unknown message type {c:?}"),
            CodecError::Length { kind, expected, found } => {
                write!(f, "{kind} message of length {found}, expected {expected}")
            }
            CodecError::Number(field) => write!(f, "bad number in field {field}"),
            CodecError::Colour(field) => write!(f, "bad colour in field {field}"),
            CodecError::Code(field) => write!(f, "undefined value in field {field}"),
            CodecError::Version(v) => write!(f, "unsupported protocol version {v:02}"),
            CodecError::Setup => write!(f, "position indicator is not A or B"),
            CodecError::Board(i) => write!(f, "bad square character at square {}", i + 1),
            CodecError::Square(n) => write!(f, "square {n} is not on the board"),
            CodecError::Captures(n) => write!(f, "{n} captured squares (at most {MAX_CAPTURED})"),
        }
    }
}

impl std::error::Error for CodecError {}

/// The DXP letter of a side.
pub fn colour_char(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'Z',
    }
}

fn colour(byte: u8, field: &'static str) -> Result<Side, CodecError> {
    match byte {
        b'W' => Ok(Side::White),
        b'Z' => Ok(Side::Black),
        _ => Err(CodecError::Colour(field)),
    }
}

fn number(bytes: &[u8], field: &'static str) -> Result<u32, CodecError> {
    if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) {
        return Err(CodecError::Number(field));
    }
    Ok(bytes.iter().fold(0, |n, &d| n * 10 + u32::from(d - b'0')))
}

fn square(bytes: &[u8], field: &'static str) -> Result<u8, CodecError> {
    let n = number(bytes, field)?;
    if n == 0 || n > u32::from(SQUARES) {
        return Err(CodecError::Square(n));
    }
    Ok(n as u8)
}

fn name(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim_end().to_string()
}

fn expect_len(kind: char, expected: usize, found: usize) -> Result<(), CodecError> {
    if expected == found {
        Ok(())
    } else {
        Err(CodecError::Length { kind, expected, found })
    }
}

/// Writes a text field: at most `width` printable characters (others become
/// `?`), padded with spaces to `width` when `pad`.
fn push_text(out: &mut String, text: &str, width: usize, pad: bool) {
    let mut n = 0;
    for c in text.chars().take(width) {
        out.push(if (' '..='~').contains(&c) { c } else { '?' });
        n += 1;
    }
    if pad {
        out.extend(std::iter::repeat(' ').take(width - n));
    }
}

fn push_number(
    out: &mut String,
    n: u32,
    width: usize,
    field: &'static str,
) -> Result<(), CodecError> {
    if n >= 10u32.pow(width as u32) {
        return Err(CodecError::Number(field));
    }
    out.push_str(&format!("{n:0width$}"));
    Ok(())
}

fn check_square(n: u8) -> Result<(), CodecError> {
    if n == 0 || n > SQUARES {
        return Err(CodecError::Square(u32::from(n)));
    }
    Ok(())
}

impl Message {
    /// Reads one message (without its terminator).
    pub fn decode(bytes: &[u8]) -> Result<Message, CodecError> {
        if bytes.is_empty() {
            return Err(CodecError::Empty);
        }
        if bytes.len() > MAX_LEN {
            return Err(CodecError::TooLong(bytes.len()));
        }
        if let Some(i) = bytes.iter().position(|&b| !(b' '..=b'~').contains(&b)) {
            return Err(CodecError::NotPrintable(i));
        }
        let body = &bytes[1..];
        match bytes[0] {
            b'R' => decode_gamereq(body),
            b'A' => {
                expect_len('A', 34, bytes.len())?;
                let code = match body[NAME_LEN] {
                    b'0' => AccCode::Accept,
                    b'1' => AccCode::WrongVersion,
                    b'2' => AccCode::RefuseGame,
                    b'3' => AccCode::RefuseAll,
                    _ => return Err(CodecError::Code("acceptance code")),
                };
                Ok(Message::GameAcc(GameAcc { name: name(&body[..NAME_LEN]), code }))
            }
            b'M' => decode_move(bytes),
            b'E' => {
                expect_len('E', 3, bytes.len())?;
                let reason = match body[0] {
                    b'0' => EndReason::Unknown,
                    b'1' => EndReason::ILose,
                    b'2' => EndReason::Draw,
                    b'3' => EndReason::IWin,
                    _ => return Err(CodecError::Code("reason")),
                };
                let stop = match body[1] {
                    b'0' => false,
                    b'1' => true,
                    _ => return Err(CodecError::Code("stop code")),
                };
                Ok(Message::GameEnd(GameEnd { reason, stop }))
            }
            b'C' => Ok(Message::Chat(String::from_utf8_lossy(body).into_owned())),
            b'B' => {
                expect_len('B', 5, bytes.len())?;
                let move_number = number(&body[..3], "move number")?;
                let to_move = colour(body[3], "side to move")?;
                Ok(Message::BackReq(BackReq { move_number, to_move }))
            }
            b'K' => {
                expect_len('K', 2, bytes.len())?;
                Ok(Message::BackAcc(match body[0] {
                    b'0' => BackCode::Accepted,
                    b'1' => BackCode::NotSupported,
                    b'2' => BackCode::Refused,
                    _ => return Err(CodecError::Code("back-acceptance code")),
                }))
            }
            other => Err(CodecError::UnknownType(other as char)),
        }
    }

    /// Writes the message (without its terminator). Fails only on values that
    /// do not fit their fields (numbers too wide, squares off the board, more
    /// than 20 captures, chat over 126 characters).
    pub fn encode(&self) -> Result<String, CodecError> {
        let mut out = String::with_capacity(MAX_LEN);
        match self {
            Message::GameReq(r) => {
                out.push('R');
                push_number(&mut out, VERSION, 2, "version")?;
                push_text(&mut out, &r.name, NAME_LEN, true);
                out.push(colour_char(r.follower));
                push_number(&mut out, r.minutes, 3, "minutes")?;
                push_number(&mut out, r.moves, 3, "moves")?;
                match &r.setup {
                    StartPosition::Initial => out.push('A'),
                    StartPosition::Position { to_move, squares } => {
                        out.push('B');
                        out.push(colour_char(*to_move));
                        if squares.len() != usize::from(SQUARES) {
                            return Err(CodecError::Length {
                                kind: 'R',
                                expected: usize::from(SQUARES),
                                found: squares.len(),
                            });
                        }
                        if let Some(i) = squares.bytes().position(|b| !b"wzWZe".contains(&b)) {
                            return Err(CodecError::Board(i));
                        }
                        out.push_str(squares);
                    }
                }
            }
            Message::GameAcc(a) => {
                out.push('A');
                push_text(&mut out, &a.name, NAME_LEN, true);
                out.push(match a.code {
                    AccCode::Accept => '0',
                    AccCode::WrongVersion => '1',
                    AccCode::RefuseGame => '2',
                    AccCode::RefuseAll => '3',
                });
            }
            Message::Move(m) => {
                if m.captured.len() > MAX_CAPTURED {
                    return Err(CodecError::Captures(m.captured.len()));
                }
                out.push('M');
                push_number(&mut out, m.seconds, 4, "time")?;
                for &s in [m.from, m.to].iter().chain(&m.captured) {
                    check_square(s)?;
                }
                push_number(&mut out, u32::from(m.from), 2, "from")?;
                push_number(&mut out, u32::from(m.to), 2, "to")?;
                push_number(&mut out, m.captured.len() as u32, 2, "count")?;
                for &s in &m.captured {
                    push_number(&mut out, u32::from(s), 2, "captured")?;
                }
            }
            Message::GameEnd(e) => {
                out.push('E');
                out.push(match e.reason {
                    EndReason::Unknown => '0',
                    EndReason::ILose => '1',
                    EndReason::Draw => '2',
                    EndReason::IWin => '3',
                });
                out.push(if e.stop { '1' } else { '0' });
            }
            Message::Chat(text) => {
                if text.chars().count() > MAX_LEN - 1 {
                    return Err(CodecError::TooLong(text.chars().count() + 1));
                }
                out.push('C');
                push_text(&mut out, text, MAX_LEN - 1, false);
            }
            Message::BackReq(b) => {
                out.push('B');
                push_number(&mut out, b.move_number, 3, "move number")?;
                out.push(colour_char(b.to_move));
            }
            Message::BackAcc(code) => {
                out.push('K');
                out.push(match code {
                    BackCode::Accepted => '0',
                    BackCode::NotSupported => '1',
                    BackCode::Refused => '2',
                });
            }
        }
        Ok(out)
    }
}

fn decode_gamereq(body: &[u8]) -> Result<Message, CodecError> {
    // The version comes first so that any other version is answered with
    // code 1 whatever follows it.
    if body.len() < 2 {
        return Err(CodecError::Length { kind: 'R', expected: 43, found: body.len() + 1 });
    }
    let version = number(&body[..2], "version")?;
    if version != VERSION {
        return Err(CodecError::Version(version));
    }
    let found = body.len() + 1;
    if found != 43 && found != 94 {
        let expected = if found < 94 { 43 } else { 94 };
        return Err(CodecError::Length { kind: 'R', expected, found });
    }
    let name = name(&body[2..2 + NAME_LEN]);
    let rest = &body[2 + NAME_LEN..];
    let follower = colour(rest[0], "follower colour")?;
    let minutes = number(&rest[1..4], "minutes")?;
    let moves = number(&rest[4..7], "moves")?;
    let setup = match (rest[7], found) {
        (b'A', 43) => StartPosition::Initial,
        (b'B', 94) => {
            let to_move = colour(rest[8], "side to move")?;
            let squares = &rest[9..];
            if let Some(i) = squares.iter().position(|b| !b"wzWZe".contains(b)) {
                return Err(CodecError::Board(i));
            }
            StartPosition::Position {
                to_move,
                squares: String::from_utf8_lossy(squares).into_owned(),
            }
        }
        (b'A', _) => return Err(CodecError::Length { kind: 'R', expected: 43, found }),
        (b'B', _) => return Err(CodecError::Length { kind: 'R', expected: 94, found }),
        _ => return Err(CodecError::Setup),
    };
    Ok(Message::GameReq(GameReq { name, follower, minutes, moves, setup }))
}

fn decode_move(bytes: &[u8]) -> Result<Message, CodecError> {
    if bytes.len() < 11 {
        return Err(CodecError::Length { kind: 'M', expected: 11, found: bytes.len() });
    }
    let seconds = number(&bytes[1..5], "time")?;
    let from = square(&bytes[5..7], "from")?;
    let to = square(&bytes[7..9], "to")?;
    let count = number(&bytes[9..11], "count")? as usize;
    if count > MAX_CAPTURED {
        return Err(CodecError::Captures(count));
    }
    expect_len('M', 11 + 2 * count, bytes.len())?;
    let captured = bytes[11..]
        .chunks(2)
        .map(|pair| square(pair, "captured"))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Message::Move(MoveMsg { seconds, from, to, captured }))
}
