//! Efficiently updatable neural network (NNUE) evaluation for chess.
//!
//! * [`network`]: the quantised net, its file format and checks, the output
//!   layer;
//! * [`accumulator`]: the hidden layer's accumulators and the per-thread
//!   cache that updates them by board differences;
//! * [`simd`]: the integer kernels (AVX2 chosen at run time, portable
//!   fallback), the only `unsafe` here;
//! * [`evaluator`]: the chess evaluator that puts them together.
//!
//! The default net, trained by `crown-tune nnue` on Crown's own games
//! (`tuning/README.md`, "Chess network"), is embedded from `default.nnue`
//! beside this file; a UCI option may replace it per engine.

pub mod accumulator;
pub mod evaluator;
pub mod network;
pub mod simd;

pub use evaluator::NetworkEvaluator;
pub use network::{NetError, Network};

use std::sync::Arc;

/// The default network: none yet (the first net is being trained), so
/// evaluators fall back to the hand-set evaluation.
pub fn default_network() -> Option<Arc<Network>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_files_are_refused() {
        let net = evaluator::tests::random_network(32, network::Activation::SquaredClipped, 5);
        let good = net.to_bytes();
        assert_eq!(Network::from_bytes(&good).unwrap().to_bytes(), good);
        for cut in [0, 5, 20, network::HEADER, good.len() / 2, good.len() - 1] {
            assert!(Network::from_bytes(&good[..cut]).is_err(), "cut at {cut}");
        }
        assert!(matches!(Network::from_bytes(&good[..good.len() - 1]), Err(NetError::Size { .. })));
        let mut longer = good.clone();
        longer.push(0);
        assert!(matches!(Network::from_bytes(&longer), Err(NetError::Size { .. })));
        let mut corrupted = good.clone();
        corrupted[network::HEADER + 100] ^= 0x10;
        assert_eq!(Network::from_bytes(&corrupted).unwrap_err(), NetError::Checksum);
        let foreign = b"\x00\x00\x00\x00NNUE and then some other engine's bytes".to_vec();
        assert_eq!(Network::from_bytes(&foreign).unwrap_err(), NetError::Foreign);
        let mut version = good.clone();
        version[8] = 9;
        assert_eq!(Network::from_bytes(&version).unwrap_err(), NetError::Version(9));
        let mut shape = good;
        shape[14] ^= 0x01;
        assert!(Network::from_bytes(&shape).is_err());
    }
}
