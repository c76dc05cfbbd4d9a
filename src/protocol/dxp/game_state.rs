//! One DamExchange game, socket-free: the positions so far, whose turn it
//! is, our clock, and the translation between DXP moves and legal moves.
//!
//! Invariants:
//! * `positions` is never empty; its last entry is the current position and
//!   every later entry follows from the one before by a legal move.
//! * A received move is accepted only when it matches a legal move of the
//!   current position by from, to and the *set* of captured squares, and only
//!   on the peer's turn; anything else is a typed [`PeerMoveError`].
//! * The clock: `minutes` per player for `moves` moves (0: the whole game),
//!   repeating after each `moves` moves; 0 minutes means one second a move.
//! * Move numbers for take-backs count from 1 at the game's first position,
//!   whichever side moves first there.

use super::message::{BackReq, EndReason, MoveMsg, StartPosition, SQUARES};
use crate::draughts::fen::{parse_dxp, write_dxp};
use crate::draughts::notation::{bit_of_number, dxp_fields};
use crate::draughts::position::{Move, MoveList};
use crate::draughts::rules::InternationalRules;
use crate::draughts::International;
use crate::engine::session::{Go, Setup as SessionSetup};
use crate::game::{Game, Outcome, Side};
use std::fmt;
use std::time::Duration;

/// Why a GAMEREQ position cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImpossiblePosition(pub String);

impl fmt::Display for ImpossiblePosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "impossible position: {}", self.0)
    }
}

/// Why a received MOVE was not played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerMoveError {
    /// It is our turn, not the peer's.
    OutOfTurn,
    /// The game is already over: no move may follow.
    GameOver,
    /// No legal move goes from this square to that one.
    Illegal {
        /// From square.
        from: u8,
        /// To square.
        to: u8,
    },
    /// Legal moves go from-to, but none captures exactly these squares.
    Unmatched {
        /// From square.
        from: u8,
        /// To square.
        to: u8,
        /// The captured squares received.
        captured: Vec<u8>,
    },
}

impl fmt::Display for PeerMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PeerMoveError::OutOfTurn => write!(f, "move received out of turn"),
            PeerMoveError::GameOver => write!(f, "move received after the end of the game"),
            PeerMoveError::Illegal { from, to } => write!(f, "illegal move {from}-{to}"),
            PeerMoveError::Unmatched { from, to, captured } => {
                write!(f, "no legal move {from}x{to} capturing {captured:?}")
            }
        }
    }
}

impl std::error::Error for PeerMoveError {}

/// The time control of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Minutes per player.
    pub minutes: u32,
    /// Moves for that time (0: the whole game).
    pub moves: u32,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct DxpGame {
    positions: Vec<International>,
    /// The moves between them (`positions.len() - 1` of them).
    moves: Vec<Move>,
    ours: Side,
    control: TimeControl,
    /// Time we have used so far.
    used: Duration,
    /// Moves we have made.
    our_moves: u32,
}

/// The position a GAMEREQ asks for: the start position or a given one that
/// must be physically possible (no man on its crown row, at most 20 pieces a
/// side, some piece on the board).
pub fn setup_position(setup: &StartPosition) -> Result<International, ImpossiblePosition> {
    match setup {
        StartPosition::Initial => Ok(International::start_position()),
        StartPosition::Position { to_move, squares } => {
            let side = super::message::colour_char(*to_move);
            let pos = parse_dxp::<InternationalRules>(&format!("{side}{squares}"))
                .map_err(|e| ImpossiblePosition(e.to_string()))?;
            let (white, black) = (pos.white().count_ones(), pos.black().count_ones());
            if white > 20 || black > 20 {
                return Err(ImpossiblePosition(format!("{white} white and {black} black pieces")));
            }
            if white + black == 0 {
                return Err(ImpossiblePosition("no piece on the board".into()));
            }
            Ok(pos)
        }
    }
}

/// The GAMEREQ setup field for a position (`Initial` for the start position).
pub fn setup_of(pos: &International) -> StartPosition {
    let text = write_dxp(pos);
    if pos.hash() == International::start_position().hash() {
        return StartPosition::Initial;
    }
    let to_move = pos.side_to_move();
    StartPosition::Position { to_move, squares: text.get(1..).unwrap_or_default().to_string() }
}

impl DxpGame {
    /// A game from `start` in which we play `ours`.
    pub fn new(start: International, ours: Side, control: TimeControl) -> Self {
        DxpGame {
            positions: vec![start],
            moves: Vec::new(),
            ours,
            control,
            used: Duration::ZERO,
            our_moves: 0,
        }
    }

    /// The current position.
    pub fn position(&self) -> &International {
        self.positions.last().unwrap_or_else(|| unreachable!("positions is never empty"))
    }

    /// Keys of the positions before the current one, oldest first.
    pub fn history(&self) -> Vec<u64> {
        let n = self.positions.len() - 1;
        self.positions[..n].iter().map(Game::hash).collect()
    }

    /// The side we play.
    pub fn ours(&self) -> Side {
        self.ours
    }

    /// Plies played so far.
    pub fn plies(&self) -> usize {
        self.positions.len() - 1
    }

    /// Whether it is our turn.
    pub fn our_turn(&self) -> bool {
        self.position().side_to_move() == self.ours
    }

    /// The result, if the game is over at the current position.
    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome(&self.history())
    }

    /// The GAMEEND reason we give, from our point of view, for an outcome.
    pub fn reason(&self, outcome: Outcome) -> EndReason {
        match outcome {
            Outcome::Win(side) if side == self.ours => EndReason::IWin,
            Outcome::Win(_) => EndReason::ILose,
            Outcome::Draw(_) => EndReason::Draw,
        }
    }

    /// Plays a received move, if it is the peer's turn and it matches a legal
    /// move by from, to and captured set.
    pub fn play_peer(&mut self, m: &MoveMsg) -> Result<Move, PeerMoveError> {
        if self.outcome().is_some() {
            return Err(PeerMoveError::GameOver);
        }
        if self.our_turn() {
            return Err(PeerMoveError::OutOfTurn);
        }
        let mv = find_move(self.position(), m)?;
        self.push(mv);
        Ok(mv)
    }

    /// Plays our own move and returns the MOVE message for it.
    pub fn play_ours(&mut self, mv: Move, took: Duration) -> MoveMsg {
        self.used += took;
        self.our_moves += 1;
        self.push(mv);
        let (from, to, captured) = dxp_fields::<InternationalRules>(mv);
        MoveMsg {
            seconds: took.as_secs_f64().round().min(9999.0) as u32,
            from: from as u8,
            to: to as u8,
            captured: captured.into_iter().map(|c| c as u8).collect(),
        }
    }

    fn push(&mut self, mv: Move) {
        let mut next = *self.position();
        next.play(mv);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// The game as a session reads it: the start position (PDN FEN) and
    /// every move since, in full Hub text (so no move is ambiguous).
    pub fn setup(&self) -> (SessionSetup, Vec<String>) {
        let texts = self.positions.iter().zip(&self.moves).map(|(p, &mv)| p.full_move_text(mv));
        (SessionSetup::Text(self.positions[0].to_fen()), texts.collect())
    }

    /// The search request for our next move: our clock (both sides' fields
    /// carry it, whichever colour we play), or a fixed time per move when
    /// `movetime` is given; one second a move when GAMEREQ gave no time.
    pub fn request(&self, movetime: Option<Duration>) -> Go {
        let millis = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
        if let Some(t) = movetime {
            return Go { movetime: Some(millis(t) as u64), ..Go::default() };
        }
        if self.control.minutes == 0 {
            return Go { movetime: Some(1000), ..Go::default() };
        }
        let budget = Duration::from_secs(u64::from(self.control.minutes) * 60);
        let (remaining, moves_to_go) = match self.control.moves {
            0 => (budget.saturating_sub(self.used), None),
            n => {
                let periods = self.our_moves / n + 1;
                (budget * periods)
                    .checked_sub(self.used)
                    .map_or((Duration::ZERO, None), |left| (left, Some(n - self.our_moves % n)))
            }
        };
        let time = Some(millis(remaining));
        Go { wtime: time, btime: time, movestogo: moves_to_go, ..Go::default() }
    }

    /// Takes back to the position where move `req.move_number` is to be
    /// played by `req.to_move`; false (nothing changes) when the game has no
    /// such position.
    pub fn take_back(&mut self, req: BackReq) -> bool {
        // Label each position with its move number and side to move: a new
        // move number starts whenever white is to move (after black's move).
        let mut number = 1u32;
        let mut found = None;
        for (ply, p) in self.positions.iter().enumerate() {
            if ply > 0 && p.side_to_move() == Side::White {
                number += 1;
            }
            if number == req.move_number && p.side_to_move() == req.to_move {
                found = Some(ply);
                break;
            }
        }
        let Some(ply) = found else {
            return false;
        };
        // Our moves taken back give their share of the clock back only in
        // count, not in time: the time was spent.
        let ours_taken = self.positions[ply..self.positions.len() - 1]
            .iter()
            .filter(|p| p.side_to_move() == self.ours)
            .count() as u32;
        self.our_moves = self.our_moves.saturating_sub(ours_taken);
        self.positions.truncate(ply + 1);
        self.moves.truncate(ply);
        true
    }
}

/// The legal move of `pos` with the fields of `m`.
pub fn find_move(pos: &International, m: &MoveMsg) -> Result<Move, PeerMoveError> {
    let bit = |n: u8| bit_of_number::<InternationalRules>(u32::from(n));
    let (Some(from), Some(to)) = (bit(m.from), bit(m.to)) else {
        return Err(PeerMoveError::Illegal { from: m.from, to: m.to });
    };
    let mut set = 0u64;
    for &c in &m.captured {
        match bit(c) {
            Some(b) if c <= SQUARES && set & (1 << b) == 0 => set |= 1 << b,
            _ => {
                return Err(PeerMoveError::Unmatched {
                    from: m.from,
                    to: m.to,
                    captured: m.captured.clone(),
                })
            }
        }
    }
    let mut legal = MoveList::default();
    pos.generate(&mut legal);
    let mut same_route = legal.iter().filter(|mv| mv.from == from && mv.to == to).peekable();
    if same_route.peek().is_none() {
        return Err(PeerMoveError::Illegal { from: m.from, to: m.to });
    }
    same_route.copied().find(|mv| mv.captured == set).ok_or_else(|| PeerMoveError::Unmatched {
        from: m.from,
        to: m.to,
        captured: m.captured.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(from: u8, to: u8, captured: &[u8]) -> MoveMsg {
        MoveMsg { seconds: 0, from, to, captured: captured.to_vec() }
    }

    #[test]
    fn peer_moves_are_matched_or_refused() {
        let control = TimeControl { minutes: 1, moves: 75 };
        let mut g = DxpGame::new(International::start_position(), Side::Black, control);
        assert_eq!(g.play_peer(&mv(31, 22, &[])), Err(PeerMoveError::Illegal { from: 31, to: 22 }));
        assert!(g.play_peer(&mv(32, 28, &[])).is_ok());
        assert_eq!(g.play_peer(&mv(28, 23, &[])), Err(PeerMoveError::OutOfTurn));
        let m = find_move(g.position(), &mv(19, 23, &[])).unwrap();
        let sent = g.play_ours(m, Duration::from_millis(1400));
        assert_eq!(sent, MoveMsg { seconds: 1, from: 19, to: 23, captured: vec![] });
        // 28x19 is forced; with a wrong captured set it is unmatched.
        assert!(matches!(g.play_peer(&mv(28, 19, &[22])), Err(PeerMoveError::Unmatched { .. })));
        assert!(g.play_peer(&mv(28, 19, &[23])).is_ok());
        assert_eq!(g.plies(), 3);
    }

    #[test]
    fn take_back_to_a_move_number() {
        let control = TimeControl { minutes: 1, moves: 0 };
        let mut g = DxpGame::new(International::start_position(), Side::White, control);
        for (f, t) in [(32, 28), (19, 23), (28, 19), (14, 23)] {
            let m = find_move(g.position(), &mv(f, t, &[])).or_else(|_| {
                let caps: Vec<u8> = if f == 28 { vec![23] } else { vec![19] };
                find_move(g.position(), &mv(f, t, &caps))
            });
            let m = m.unwrap();
            g.play_ours(m, Duration::ZERO);
        }
        assert!(!g.take_back(BackReq { move_number: 9, to_move: Side::White }));
        assert!(g.take_back(BackReq { move_number: 2, to_move: Side::Black }));
        assert_eq!(g.plies(), 3);
        assert!(g.take_back(BackReq { move_number: 1, to_move: Side::White }));
        assert_eq!(g.plies(), 0);
        assert!(!g.take_back(BackReq { move_number: 0, to_move: Side::White }));
    }

    #[test]
    fn impossible_positions_are_refused() {
        let mut squares = "e".repeat(50);
        assert!(setup_position(&StartPosition::Position {
            to_move: Side::White,
            squares: squares.clone()
        })
        .is_err());
        squares.replace_range(2..3, "w");
        assert!(setup_position(&StartPosition::Position {
            to_move: Side::White,
            squares: squares.clone()
        })
        .is_err());
        squares.replace_range(2..3, "W");
        assert!(setup_position(&StartPosition::Position { to_move: Side::White, squares }).is_ok());
        let start = setup_position(&StartPosition::Initial).unwrap();
        assert_eq!(setup_of(&start), StartPosition::Initial);
    }

    #[test]
    fn clock_from_the_budget() {
        let control = TimeControl { minutes: 1, moves: 2 };
        let mut g = DxpGame::new(International::start_position(), Side::White, control);
        let r = g.request(None);
        assert_eq!((r.wtime, r.btime, r.movestogo), (Some(60_000), Some(60_000), Some(2)));
        let m = find_move(g.position(), &mv(32, 28, &[])).unwrap();
        g.play_ours(m, Duration::from_secs(10));
        let r = g.request(None);
        assert_eq!((r.wtime, r.movestogo), (Some(50_000), Some(1)));
        assert_eq!(g.request(Some(Duration::from_millis(20))).movetime, Some(20));
        let (setup, moves) = g.setup();
        assert_eq!(moves, vec!["32-28".to_string()]);
        assert!(matches!(setup, SessionSetup::Text(_)));
    }
}
