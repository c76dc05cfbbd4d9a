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
/// default: generation 3 beat the hand-set evaluation at 10+0.1, and each
/// adopted generation since beat the one it replaced; generation 12 is embedded,
/// tuning/generations.md); `EvalFile <none>` selects the
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
        // A version-1 file has no buckets: its byte 11 must be 0.
        let mut reserved = net.to_bytes();
        reserved[11] = 4;
        assert!(matches!(Network::from_bytes(&reserved), Err(NetError::Shape(_))));
    }

    #[test]
    fn the_overflow_bounds_are_checked_on_load() {
        let net = evaluator::tests::random_network(32, network::Activation::SquaredClipped, 7);
        let with = |edit: &dyn Fn(&mut network::Parts)| {
            let mut parts = net.parts().clone();
            edit(&mut parts);
            Network::new(parts)
        };
        // Output weights far beyond QA: fine since the kernel squares the
        // activation first; a product of i32 range is not.
        let wide = with(&|p| p.output_weights.iter_mut().for_each(|w| *w = 2000));
        let wide = wide.expect("32 * 181^2 * 2000 fits i32");
        let acc = vec![181i16; 32];
        // Every lane at QA: (2 * 32 * 181^2 * 2000 / 181 + bias) * 400 / (181 * 64).
        let want = (2 * 32 * 181 * 2000 + i64::from(net.parts().output_bias[0])) * 400 / (181 * 64);
        assert_eq!(i64::from(wide.output(&acc, &acc, 32)), want);
        let too_wide = with(&|p| p.output_weights.iter_mut().for_each(|w| *w = 2100));
        assert!(matches!(too_wide, Err(NetError::Range(_))), "32 * 181^2 * 2100 overflows i32");
        let qa = with(&|p| p.qa = 182);
        assert!(matches!(qa, Err(NetError::Range(_))), "182^2 overflows i16");
        let big_lane = with(&|p| p.feature_weights[5] = 1100);
        assert!(matches!(big_lane, Err(NetError::Range(_))), "32 * 1100 overflows i16");
    }

    #[test]
    fn nets_with_output_buckets_round_trip_and_choose_by_pieces() {
        use network::bucket;
        // 8 buckets: 2-5, 6-9, ..., 26-29, 30-32 pieces.
        let firsts: Vec<u32> =
            (2..=32).filter(|&n| n == 2 || bucket(n, 8) != bucket(n - 1, 8)).collect();
        assert_eq!(firsts, [2, 6, 10, 14, 18, 22, 26, 30]);
        assert!((2..=32).all(|n| bucket(n, 1) == 0 && bucket(n, 16) < 16));
        let net = evaluator::tests::random_network_with(32, 8, network::Activation::Clipped, 9);
        let bytes = net.to_bytes();
        assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), network::VERSION);
        assert_eq!(bytes[11], 8);
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.buckets(), 8);
        assert_eq!(back.to_bytes(), bytes);
        // Each bucket has its own output weights: the same accumulators
        // give different outputs with different piece counts.
        let acc = vec![90i16; 32];
        let outputs: std::collections::BTreeSet<i32> =
            [2, 6, 10, 14, 18, 22, 26, 30].map(|n| back.output(&acc, &acc, n)).into();
        assert_eq!(outputs.len(), 8);
        for bad in [0u8, 17] {
            let mut b = bytes.clone();
            b[11] = bad;
            assert!(matches!(Network::from_bytes(&b), Err(NetError::Shape(_))), "{bad}");
        }
        // One bucket is written as version 1, as older builds read it.
        let one = evaluator::tests::random_network(32, network::Activation::Clipped, 9).to_bytes();
        assert_eq!((one[8], one[11]), (1, 0));
    }
}
