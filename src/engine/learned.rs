//! `EvalFile`: which learned evaluations an engine plays with.
//!
//! A value is `<none>` (the hand-set evaluations of every game),
//! `<embedded>` (the files in the binary: the chess network and the
//! draughts patterns of each variant that has some) or the path of a file:
//! a chess network, or a draughts pattern file, which replaces the learned
//! evaluation of its own game (a pattern file: of its own variant) only.
//!
//! Invariant: a value that cannot be used (an unreadable, bad, truncated or
//! foreign file) is refused with the reason and changes nothing; the caller
//! keeps the evaluations it had.

use super::options::{EMBEDDED_NET, NO_NET};
use crate::eval::draughts::patterns::{PatternError, PatternSet, Patterns};
use crate::eval::nnue::{NetError, Network};
use crate::eval::Learned;
use crate::text::cut;
use std::sync::Arc;

/// The learned evaluations `name` selects, starting from `current`, and a
/// line saying what is in use; or why it cannot be used.
pub fn load(name: &str, current: &Learned) -> Result<(Learned, String), String> {
    match name.trim() {
        NO_NET => Ok((Learned::default(), "EvalFile <none>: the hand-set evaluations".into())),
        EMBEDDED_NET => {
            let learned = Learned::embedded();
            let Some(net) = &learned.network else {
                return Err("the embedded chess network of this build is damaged".into());
            };
            if learned.patterns.variants().len() != crate::eval::draughts::patterns::EMBEDDED.len()
            {
                return Err("an embedded draughts pattern file of this build is damaged".into());
            }
            let note = format!(
                "EvalFile <embedded>: the evaluations in the binary (chess network with {} \
                 hidden units, draughts patterns for {})",
                net.hidden(),
                variants(&learned.patterns)
            );
            Ok((learned, note))
        }
        path => {
            let shown = cut(path, 100);
            let bytes = std::fs::read(path).map_err(|e| format!("EvalFile {shown}: {e}"))?;
            let keep = |e: &dyn std::fmt::Display| {
                format!("EvalFile {shown}: {e}; keeping the evaluation in use")
            };
            let mut learned = current.clone();
            match Network::from_bytes(&bytes) {
                Ok(net) => {
                    let note =
                        format!("EvalFile {shown}: network with {} hidden units", net.hidden());
                    learned.network = Some(Arc::new(net));
                    return Ok((learned, note));
                }
                Err(NetError::Foreign) => {}
                Err(e) => return Err(keep(&e)),
            }
            match Patterns::from_bytes(&bytes) {
                Ok(patterns) => {
                    let note =
                        format!("EvalFile {shown}: {} draughts patterns", patterns.variant());
                    learned.patterns = learned.patterns.with(Arc::new(patterns));
                    Ok((learned, note))
                }
                Err(PatternError::Foreign) => {
                    Err(keep(&"neither a Crown chess network nor a draughts pattern file"))
                }
                Err(e) => Err(keep(&e)),
            }
        }
    }
}

/// The variants of a set, as a list for a message.
fn variants(set: &PatternSet) -> String {
    let names: Vec<&str> = set.variants().iter().map(|v| v.name()).collect();
    if names.is_empty() {
        "no variant".into()
    } else {
        names.join(", ")
    }
}
