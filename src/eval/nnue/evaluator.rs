//! The chess evaluator with a network: accumulators from the per-thread
//! [`Cache`], the output layer of the [`Network`], and the hand-set
//! evaluation beside it for the `eval` trace (and as the fallback when no
//! network is loaded).
//!
//! Invariant: the score depends only on the position and the network,
//! never on the cache's history (tested: incremental and refreshed
//! accumulators agree after every move of random games).

use crate::chess::Position;
use crate::eval::chess::ChessEvaluator;
use crate::eval::nnue::accumulator::{Boards, Cache};
use crate::eval::nnue::network::Network;
use crate::eval::Evaluator;
use crate::game::{Game, Side};
use crate::score::{Score, EVAL_LIMIT};
use std::sync::Arc;

/// Chess evaluation by the network (the hand-set evaluation when none is
/// loaded).
#[derive(Clone)]
pub struct NetworkEvaluator {
    net: Option<Arc<Network>>,
    cache: Cache,
    handset: ChessEvaluator,
}

impl Default for NetworkEvaluator {
    fn default() -> Self {
        NetworkEvaluator::new(super::starting_network())
    }
}

impl NetworkEvaluator {
    /// An evaluator with `net` (`None`: the hand-set evaluation).
    pub fn new(net: Option<Arc<Network>>) -> Self {
        NetworkEvaluator { net, cache: Cache::default(), handset: ChessEvaluator::default() }
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// How the accumulator cache has served evaluations so far.
    pub fn stats(&self) -> crate::eval::nnue::accumulator::Stats {
        self.cache.stats
    }

    /// The network's score of `pos` for the side to move, unclamped.
    fn network_score(net: &Network, cache: &mut Cache, pos: &Position) -> Score {
        let acc = cache.get(net, &Boards::of(pos));
        let us = pos.side_to_move();
        net.output(acc.perspective(us), acc.perspective(us.flip()), pos.occupancy().count())
    }
}

impl Evaluator<Position> for NetworkEvaluator {
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> Score {
        match &self.net {
            Some(net) => Self::network_score(net, &mut self.cache, pos)
                .clamp(-EVAL_LIMIT + 1, EVAL_LIMIT - 1),
            None => self.handset.evaluate(pos),
        }
    }

    fn trace(&mut self, pos: &Position) -> String {
        let white = |score: Score| {
            let s = if pos.side_to_move() == Side::White { score } else { -score };
            s as f64 / 100.0
        };
        match &self.net {
            Some(net) => {
                // One `Final evaluation` line: the network's, in use.
                let score = Self::network_score(net, &mut self.cache, pos);
                let (sums, handset) = crate::eval::chess::breakdown(pos);
                format!(
                    "network ({} hidden) evaluation: {:+.2} (white side)\n\
                     hand-set evaluation, not used: {:+.2} (white side)\n{sums}\n\
                     Final evaluation: {:+.2} (white side)",
                    net.hidden(),
                    white(score),
                    handset as f64 / 100.0,
                    white(score)
                )
            }
            None => {
                let embedded = super::default_network()
                    .map(|net| {
                        let score = Self::network_score(&net, &mut self.cache, pos);
                        format!(
                            "embedded network (not in use): {:+.2} (white side)\n",
                            white(score)
                        )
                    })
                    .unwrap_or_default();
                let handset = self.handset.trace(pos);
                format!("{embedded}hand-set evaluation (in use):\n{handset}")
            }
        }
    }

    fn set_learned(&mut self, learned: &crate::eval::Learned) {
        self.net.clone_from(&learned.network);
        self.cache.clear();
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::chess::CastlingMode;
    use crate::eval::nnue::accumulator::Accumulator;
    use crate::eval::nnue::network::{Activation, Parts, INPUTS};
    use crate::game::{random_playout, Variant};

    /// A network of random weights (deterministic for `seed`), one output
    /// bucket.
    pub(crate) fn random_network(hidden: usize, activation: Activation, seed: u64) -> Network {
        random_network_with(hidden, 1, activation, seed)
    }

    /// A network of random weights with `buckets` output buckets.
    pub(crate) fn random_network_with(
        hidden: usize,
        buckets: usize,
        activation: Activation,
        seed: u64,
    ) -> Network {
        let mut s = seed | 1;
        let mut noise = |range: i64| {
            crate::rng::xorshift64(&mut s);
            ((s % (2 * range as u64 + 1)) as i64 - range) as i16
        };
        let parts = Parts {
            activation,
            hidden,
            buckets,
            qa: 181,
            qb: 64,
            scale: 400,
            feature_weights: (0..INPUTS * hidden).map(|_| noise(300)).collect(),
            feature_bias: (0..hidden).map(|_| noise(100)).collect(),
            output_weights: (0..2 * hidden * buckets).map(|_| noise(120)).collect(),
            output_bias: (0..buckets).map(|_| i32::from(noise(1000))).collect(),
        };
        Network::new(parts).expect("random weights are in range")
    }

    fn positions() -> Vec<Position> {
        let mut all = Vec::new();
        let start = Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            Variant::Chess,
        )
        .unwrap();
        for seed in 1..=40 {
            all.extend(random_playout(start.clone(), 200, seed));
        }
        // Castling, en passant and promotion are common in long random games;
        // Chess960 castling comes from the Fischer-random perft suite.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/ethereal_fischer.epd"
        ))
        .unwrap();
        for (i, line) in text.lines().take(60).enumerate() {
            let fen = line.split(';').next().unwrap().trim();
            let pos = Position::from_fen_mode(fen, CastlingMode::Chess960).unwrap();
            all.extend(random_playout(pos, 120, 1000 + i as u64));
        }
        all
    }

    fn check(eval: &mut NetworkEvaluator, net: &Network, pos: &Position) {
        let incremental = eval.evaluate(pos);
        let mut fresh = Accumulator::default();
        fresh.refresh(net, &Boards::of(pos));
        let us = pos.side_to_move();
        let pieces = pos.occupancy().count();
        assert_eq!(
            incremental,
            net.output(fresh.perspective(us), fresh.perspective(us.flip()), pieces)
        );
        assert_eq!(eval.cache.get(net, &Boards::of(pos)), &fresh);
    }

    #[test]
    fn incremental_and_refreshed_accumulators_agree() {
        // Every position of random games (standard and Chess960), and every
        // child of each: the children are the search's siblings, and cover
        // castling, en passant and promotion wherever they are legal.
        let net = Arc::new(random_network_with(32, 8, Activation::SquaredClipped, 7));
        let mut eval = NetworkEvaluator::new(Some(Arc::clone(&net)));
        let (mut castles, mut en_passant, mut promotions, mut castles960) = (0, 0, 0, 0);
        for pos in positions() {
            check(&mut eval, &net, &pos);
            let mut list = <Position as Game>::MoveList::default();
            pos.generate(&mut list);
            for &mv in list.iter() {
                let mut child = pos.clone();
                child.play(mv);
                check(&mut eval, &net, &child);
                castles += usize::from(mv.is_castling());
                castles960 +=
                    usize::from(mv.is_castling() && pos.castling_mode() == CastlingMode::Chess960);
                en_passant += usize::from(mv.is_en_passant());
                promotions += usize::from(mv.promotion_kind().is_some());
            }
        }
        assert!(
            castles960 > 20 && castles > castles960 && en_passant > 5 && promotions > 20,
            "{castles} {castles960} {en_passant} {promotions}"
        );
        let stats = eval.stats();
        assert!(stats.updates > 10 * stats.refreshes, "{stats:?}");
    }

    #[test]
    fn the_network_is_colour_symmetric() {
        // The same position with colours swapped and the board mirrored
        // scores the same for the side to move.
        let net = Arc::new(random_network_with(32, 4, Activation::Clipped, 3));
        let mut eval = NetworkEvaluator::new(Some(net));
        let a = Position::from_fen(
            "r3k2r/pp1n1ppp/2p5/8/3P4/2N2Q2/PPP2PPP/R3K2R w KQkq - 0 1",
            Variant::Chess,
        )
        .unwrap();
        let b = Position::from_fen(
            "r3k2r/ppp2ppp/2n2q2/3p4/8/2P5/PP1N1PPP/R3K2R b KQkq - 0 1",
            Variant::Chess,
        )
        .unwrap();
        assert_eq!(eval.evaluate(&a), eval.evaluate(&b));
    }
}
