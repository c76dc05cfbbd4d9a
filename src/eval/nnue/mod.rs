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
//! beside this file and used when [`NETWORK_BY_DEFAULT`] says so; a UCI
//! option may give an engine another net through `set_network`.

pub mod accumulator;
pub mod evaluator;
pub mod network;
pub mod simd;

pub use evaluator::NetworkEvaluator;
pub use network::{NetError, Network};

use std::sync::{Arc, OnceLock};

/// Whether evaluators start with the embedded net (the chess evaluation by
/// default: generation 3 beats the hand-set evaluation at 10+0.1,
/// tuning/README.md, "Chess network"); `EvalFile <none>` selects the
/// hand-set evaluation.
pub const NETWORK_BY_DEFAULT: bool = true;

/// The embedded default net file.
pub static DEFAULT_NET: &[u8] = include_bytes!("default.nnue");

/// The embedded default network, loaded once; `None` only if the embedded
/// file were bad (a test checks it is not).
pub fn default_network() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| Network::from_bytes(DEFAULT_NET).ok().map(Arc::new)).clone()
}

/// The network an evaluator, an engine or a session starts with: the
/// embedded one when it is the default ([`NETWORK_BY_DEFAULT`]), else none.
/// The one place that decides it.
pub fn starting_network() -> Option<Arc<Network>> {
    if NETWORK_BY_DEFAULT {
        default_network()
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_net_loads() {
        let net = Network::from_bytes(DEFAULT_NET).expect("the embedded net is valid");
        assert_eq!(net.to_bytes(), DEFAULT_NET);
        assert!(default_network().is_some());
    }

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
