//! Training checkpoints: the float model, the optimiser's state and the
//! loss history, written after every epoch so training can resume exactly
//! where it stopped.
//!
//! Layout (little-endian): magic `CRWCKPT\0`, version u32 = 2, hidden u32,
//! activation u8, output buckets u32 (absent in version 1: one), epoch u32 (epochs done), step u64 (optimiser steps),
//! history length u32 and `(training, validation)` f64 pairs, parameter
//! count u64, then the parameters, the first and the second moments as f32,
//! and an FNV-1a checksum (u32) of everything before it. A file that does
//! not parse or check is refused; nothing is half-loaded.

use crate::nnue::model::{parameter_count, Model};
use crown::eval::nnue::network::{fnv1a, Activation, MAX_BUCKETS};
use std::path::Path;

const MAGIC: [u8; 8] = *b"CRWCKPT\0";
const VERSION: u32 = 2;

/// Everything training needs to go on.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The float network.
    pub model: Model,
    /// AdamW's first moments.
    pub m: Vec<f32>,
    /// AdamW's second moments.
    pub v: Vec<f32>,
    /// Epochs done.
    pub epoch: usize,
    /// Optimiser steps done.
    pub step: u64,
    /// `(training, validation)` loss of each epoch done.
    pub history: Vec<(f64, f64)>,
}

impl Checkpoint {
    /// A fresh start from `model`.
    pub fn start(model: Model) -> Checkpoint {
        let n = model.len();
        Checkpoint {
            model,
            m: vec![0.0; n],
            v: vec![0.0; n],
            epoch: 0,
            step: 0,
            history: Vec::new(),
        }
    }

    /// The checkpoint as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12 * self.model.len() + 64);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.model.hidden as u32).to_le_bytes());
        out.push(self.model.activation.code());
        out.extend_from_slice(&(self.model.buckets as u32).to_le_bytes());
        out.extend_from_slice(&(self.epoch as u32).to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&(self.history.len() as u32).to_le_bytes());
        for &(t, v) in &self.history {
            out.extend_from_slice(&t.to_le_bytes());
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&(self.model.len() as u64).to_le_bytes());
        for x in self.model.params.iter().chain(&self.m).chain(&self.v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a checkpoint written by [`Checkpoint::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, String> {
        let bad = |what: &str| format!("not a valid checkpoint: {what}");
        if bytes.len() < 12 || bytes[..8] != MAGIC {
            return Err(bad("bad magic bytes"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 4);
        if fnv1a(body) != u32::from_le_bytes([sum[0], sum[1], sum[2], sum[3]]) {
            return Err(bad("checksum mismatch (truncated or corrupted)"));
        }
        let mut at = 8;
        let mut take = |n: usize| -> Result<&[u8], String> {
            let s = body.get(at..at + n).ok_or_else(|| bad("too short"))?;
            at += n;
            Ok(s)
        };
        let u32_of = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
        let version = u32_of(take(4)?);
        if version != 1 && version != VERSION {
            return Err(bad("unknown version"));
        }
        let hidden = u32_of(take(4)?) as usize;
        let activation =
            Activation::from_code(take(1)?[0]).ok_or_else(|| bad("unknown activation"))?;
        let buckets = if version == 1 { 1 } else { u32_of(take(4)?) as usize };
        if buckets == 0 || buckets > MAX_BUCKETS {
            return Err(bad("output buckets out of range"));
        }
        let epoch = u32_of(take(4)?) as usize;
        let step = u64_of(take(8)?);
        let count = u32_of(take(4)?) as usize;
        let mut history = Vec::new();
        for _ in 0..count {
            let t = f64::from_bits(u64_of(take(8)?));
            let v = f64::from_bits(u64_of(take(8)?));
            history.push((t, v));
        }
        let n = u64_of(take(8)?) as usize;
        if hidden == 0 || n != parameter_count(hidden, buckets) {
            return Err(bad("parameter count does not match the hidden size and buckets"));
        }
        let mut floats = |n: usize| -> Result<Vec<f32>, String> {
            Ok(take(4 * n)?
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect())
        };
        let params = floats(n)?;
        let m = floats(n)?;
        let v = floats(n)?;
        if at != body.len() {
            return Err(bad("trailing bytes"));
        }
        let model = Model { hidden, activation, buckets, params };
        Ok(Checkpoint { model, m, v, epoch, step, history })
    }

    /// Writes the checkpoint to `path` (through a temporary file, so a
    /// crash never leaves half a checkpoint under the final name).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes())
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Checkpoint::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_round_trip_and_refuse_damage() {
        let mut c = Checkpoint::start(Model::new(16, 4, Activation::SquaredClipped, 9));
        c.epoch = 3;
        c.step = 77;
        c.history = vec![(0.1, 0.2), (0.05, f64::NAN)];
        c.m[5] = 0.25;
        let bytes = c.to_bytes();
        let back = Checkpoint::from_bytes(&bytes).unwrap();
        assert_eq!(back.model, c.model);
        assert_eq!((back.epoch, back.step, back.m[5]), (3, 77, 0.25));
        assert!(back.history[1].1.is_nan());
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 9]).is_err());
        let mut corrupted = bytes.clone();
        corrupted[100] ^= 1;
        assert!(Checkpoint::from_bytes(&corrupted).is_err());
        assert!(Checkpoint::from_bytes(b"CRWNNUE\0 a net, not a checkpoint").is_err());
    }
}
