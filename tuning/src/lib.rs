//! Crown's tuning workshop: self-play data generation ([`datagen`]), the
//! plain-text position format ([`data`]), the 32-byte chess training
//! record ([`record`]), the PGN converter ([`pgn`]), the chess network
//! trainer ([`nnue`]), the evaluation tuner ([`tuner`])
//! and the dispatch from a `--variant` name to a tunable game
//! ([`with_tunable!`]).
//!
//! Everything is generic over [`crown::eval::Tunable`]: a game whose
//! evaluation lists its feature coefficients can be tuned here without any
//! change to this crate but one line in `variants.rs`.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod data;
pub mod datagen;
pub mod nnue;
pub mod pgn;
pub mod record;
pub mod tuner;
pub mod variants;
