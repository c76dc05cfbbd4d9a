//! Crown: one engine for chess, Chess960 and the draughts family.
//!
//! The crate is a library (rules, evaluation, search, engine, protocols) and a
//! thin binary (`src/main.rs`). The map of the modules and the data flow
//! between them is `docs/architecture.md` of the repository; in short, dependencies
//! point one way: protocol → engine → search → {rules, eval, tt, time}.
//!
//! The lint wall below is part of the house style: every public item is
//! documented and every `unsafe` block carries a `// SAFETY:` comment.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(rust_2018_idioms)]

pub mod bench;
pub mod book;
pub mod checksum;
pub mod chess;
pub mod draughts;
pub mod endgame;
pub mod engine;
pub mod eval;
pub mod game;
pub mod perft;
pub mod protocol;
pub mod rng;
pub mod score;
pub mod search;
pub mod text;
pub mod time;
pub mod tournament;

pub use game::{Game, Side, Variant};
