//! Crown's tuning workshop: self-play data generation ([`datagen`], made
//! resumable by its sidecar, [`resume_point`]), the plain-text position
//! format ([`data`]), the 32-byte chess training record ([`record`]), the
//! PGN reader and converter ([`pgn_reader`]), the chess network trainer
//! ([`nnue`]), the draughts pattern trainer ([`pattern_trainer`]) and its
//! rescaler ([`scale_patterns`]), the draughts shot suite ([`shots`]) and
//! the evaluation tuner ([`tuner`]).
//!
//! Everything is generic over [`crown::eval::Tunable`], and a `--variant`
//! name becomes a game type through the engine's one variant switch,
//! `crown::for_variant!`: a game whose evaluation lists its feature
//! coefficients can be tuned here without any change to this crate.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod data;
pub mod datagen;
pub mod nnue;
pub mod pattern_trainer;
pub mod pgn_reader;
pub mod record;
pub mod resume_point;
pub mod scale_patterns;
pub mod shots;
pub mod tuner;
