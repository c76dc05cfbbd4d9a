//! What a protocol hears from a search, as text: the [`Listener`] a
//! protocol implements, the [`Report`] of one line of progress, and the
//! [`Text`] reporter that turns the search's typed moves into the
//! protocol's move text ([`Notation`]).
//!
//! Invariant: the moves of a report are written from the position they
//! are played in (the root, then each move of the line in turn), so the
//! text is the one the protocol's own parser reads back.

use crate::game::Game;
use crate::search::{shown_score, Info, Reporter, ScoreBound};
use std::sync::Arc;

/// A line of search progress with the moves as text.
#[derive(Clone, Debug)]
pub struct Report {
    /// The progress, moves aside.
    pub info: Info<()>,
    /// The principal variation as move text.
    pub pv: Vec<String>,
}

/// What a protocol hears from a search, as text.
pub trait Listener: Send + Sync {
    /// A finished iteration (or an aspiration bound) of one line.
    fn info(&self, report: &Report);
    /// The root move being searched (after the first second).
    fn current_move(&self, _text: &str, _number: usize, _depth: i32) {}
    /// The answer: the move to play (none without a legal move) and the
    /// expected reply.
    fn best_move(&self, best: Option<&str>, ponder: Option<&str>);
    /// A problem with the request (a refused `searchmoves` move), heard
    /// before the search starts, so before anything the search says.
    fn warning(&self, text: &str);
    /// A line of a `perft` or `bench` task.
    fn line(&self, _text: &str) {}
}

/// How moves are written for a listener.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// The game's protocol text ([`Game::move_text`]).
    Standard,
    /// Every square a move touches ([`Game::full_move_text`], Hub).
    Full,
}

/// Turns the search's typed reports into text for a [`Listener`].
pub(super) struct Text {
    pub(super) listener: Arc<dyn Listener>,
    pub(super) notation: Notation,
}

impl Text {
    fn write<G: Game>(&self, pos: &G, mv: G::Move) -> String {
        match self.notation {
            Notation::Standard => pos.move_text(mv),
            Notation::Full => pos.full_move_text(mv),
        }
    }
}

impl<G: Game> Reporter<G> for Text {
    fn info(&self, root: &G, info: &Info<G::Move>) {
        let mut pos = root.clone();
        let mut pv = Vec::with_capacity(info.pv.len());
        for &mv in &info.pv {
            pv.push(self.write(&pos, mv));
            pos.play(mv);
        }
        // A root the tables decide shows their verdict, as an exact score.
        let score = shown_score(info.score, info.table);
        let info = Info {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score,
            bound: if score == info.score { info.bound } else { ScoreBound::Exact },
            nodes: info.nodes,
            time: info.time,
            hashfull: info.hashfull,
            tbhits: info.tbhits,
            table: info.table,
            pv: Vec::new(),
        };
        self.listener.info(&Report { info, pv });
    }

    fn current_move(&self, root: &G, mv: G::Move, number: usize, depth: i32) {
        self.listener.current_move(&self.write(root, mv), number, depth);
    }

    fn best_move(&self, root: &G, best: Option<G::Move>, ponder: Option<G::Move>) {
        let best_text = best.map(|mv| self.write(root, mv));
        let ponder_text = best.zip(ponder).map(|(mv, reply)| {
            let mut after = root.clone();
            after.play(mv);
            self.write(&after, reply)
        });
        self.listener.best_move(best_text.as_deref(), ponder_text.as_deref());
    }
}
