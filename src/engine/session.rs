//! The session: the enum over every draughts variant's engine that a
//! protocol loop (Hub, DXP) matches once per command.
//!
//! Code that runs per node is generic over the position type; a protocol
//! loop holds one [`Session`] and dispatches each command with
//! [`with_session!`], whose arms call the same generic code with the
//! variant's static type. Switching the variant replaces the whole engine
//! (workers, histories) and starts from the variant's start position; the
//! caller supplies the table and clears it.
//!
//! Chess is deliberately not an arm: the only chess front end is UCI, which
//! drives `Engine<chess::Position>` directly, and the draughts protocols never
//! play chess. Keeping chess out means every arm here is a `Position<R>` and
//! generic Hub/DXP code can be written once over `R: Rules`.

use crate::draughts;
use crate::engine::Engine;
use crate::game::{Game, Variant};
use crate::search::tt::TranspositionTable;
use crate::search::Signals;
use std::sync::Arc;

/// One draughts variant's engine.
pub enum Session {
    /// International draughts, 10x10.
    International(Engine<draughts::International>),
    /// Brazilian draughts, 8x8.
    Brazilian(Engine<draughts::Brazilian>),
    /// Russian draughts, 8x8.
    Russian(Engine<draughts::Russian>),
    /// English draughts / checkers, 8x8.
    English(Engine<draughts::English>),
    /// Italian draughts, 8x8.
    Italian(Engine<draughts::Italian>),
    /// Turkish draughts, 8x8 orthogonal.
    Turkish(Engine<draughts::Turkish>),
    /// Antidraughts, 10x10.
    Antidraughts(Engine<draughts::Antidraughts>),
}

/// Runs `$body` with `$engine` bound to the `&mut Engine<G>` inside a
/// [`Session`] (by mutable reference), whatever the variant: the one match
/// that turns the session enum into a static type for generic code.
#[macro_export]
macro_rules! with_session {
    ($session:expr, $engine:ident => $body:expr) => {{
        use $crate::engine::session::Session as S;
        match $session {
            S::International($engine) => $body,
            S::Brazilian($engine) => $body,
            S::Russian($engine) => $body,
            S::English($engine) => $body,
            S::Italian($engine) => $body,
            S::Turkish($engine) => $body,
            S::Antidraughts($engine) => $body,
        }
    }};
}

impl Session {
    /// A fresh engine for `variant` at its start position, or `None` for a
    /// variant that is not draughts.
    pub fn new(
        variant: Variant,
        tt: Arc<TranspositionTable>,
        signals: Arc<Signals>,
        threads: usize,
    ) -> Option<Session> {
        fn make<G: crate::eval::Playable>(
            variant: Variant,
            tt: Arc<TranspositionTable>,
            signals: Arc<Signals>,
            threads: usize,
        ) -> Engine<G> {
            Engine::new(G::start(variant), tt, signals, threads)
        }
        Some(match variant {
            Variant::International => Session::International(make(variant, tt, signals, threads)),
            Variant::Brazilian => Session::Brazilian(make(variant, tt, signals, threads)),
            Variant::Russian => Session::Russian(make(variant, tt, signals, threads)),
            Variant::English => Session::English(make(variant, tt, signals, threads)),
            Variant::Italian => Session::Italian(make(variant, tt, signals, threads)),
            Variant::Turkish => Session::Turkish(make(variant, tt, signals, threads)),
            Variant::Antidraughts => Session::Antidraughts(make(variant, tt, signals, threads)),
            Variant::Chess | Variant::Chess960 => return None,
        })
    }

    /// The variant this session plays.
    pub fn variant(&self) -> Variant {
        with_session!(self, e => e.position().variant())
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        with_session!(self, e => e.is_searching())
    }

    /// Asks a running search to stop.
    pub fn stop(&self) {
        with_session!(self, e => e.stop())
    }

    /// Waits for a running search to end.
    pub fn wait(&mut self) {
        with_session!(self, e => e.wait())
    }

    /// Forgets the previous game's histories.
    pub fn new_game(&mut self) {
        with_session!(self, e => e.new_game())
    }

    /// Uses `threads` search threads from the next search on.
    pub fn set_threads(&mut self, threads: usize) {
        with_session!(self, e => e.set_threads(threads))
    }

    /// Plays at `level` from the next search on (see [`Engine::set_level`]).
    pub fn set_level(&mut self, level: Option<crate::search::level::Level>, seed: u64) {
        with_session!(self, e => {
            e.wait();
            e.set_level(level, seed)
        })
    }

    /// Replaces the search tunables (SPSA over Hub, tuning builds).
    /// Switches to another table (after a resize).
    pub fn set_params(&mut self, params: crate::search::params::Params) {
        with_session!(self, e => e.set_params(params))
    }

    /// Replaces the shared transposition table.
    pub fn set_table(&mut self, tt: Arc<TranspositionTable>) {
        with_session!(self, e => e.set_table(tt))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_draughts_variant_has_a_session() {
        let tt = Arc::new(TranspositionTable::new(1).unwrap());
        let signals = Arc::new(Signals::default());
        for v in Variant::ALL {
            let session = Session::new(v, tt.clone(), signals.clone(), 1);
            assert_eq!(session.is_some(), !v.is_chess(), "{v}");
            if let Some(s) = session {
                assert_eq!(s.variant(), v);
                assert!(!s.is_searching());
            }
        }
    }
}
