//! `crown-tune scale-patterns`: multiplies every weight of a draughts
//! pattern file by one factor.
//!
//! Why: patterns trained on search scores alone (`crown-tune patterns
//! --lambda 0`) come out with a compressed scale. Under squared loss the
//! trained evaluation predicts the part of the search score it can see,
//! which is closer to even than the score itself, so a man or a king is
//! worth less in its units. The search's margins (futility, razoring, the
//! aspiration window, the reductions' thresholds) were tuned by SPSA in the
//! units of the file before, and read the compressed scores as smaller than
//! they are. The fix is to stretch the file back: fit K to the game results
//! for the old file and for the new one on the same data (`crown-tune
//! patterns --data D --start F --out /dev/null --epochs 0` prints `K =
//! ...`, fitted to the results) and scale the new file by K(new) / K(old);
//! refitting K on the scaled file then gives about K(old). Generation 6 of
//! the international patterns was made so (tuning/generations.md).
//!
//! Invariants: the file is read and written by the engine's own
//! [`Patterns::from_bytes`] (through [`crate::pattern_trainer::read_file`])
//! and [`Patterns::to_bytes`] (header, checksum), so a damaged or foreign
//! file is refused and nothing is written; each weight is rounded half to
//! even (as generation 6 was made) and clamped to the file's i16, and the
//! clamped weights are counted.

use crown::eval::draughts::patterns::Patterns;
use std::path::PathBuf;

/// `crown-tune scale-patterns` arguments.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The pattern file to scale.
    #[arg(long = "in")]
    pub input: PathBuf,
    /// Where to write the scaled file.
    #[arg(long)]
    pub out: PathBuf,
    /// The factor every weight is multiplied by (0.1 to 10).
    #[arg(long)]
    pub factor: f64,
}

/// The factors accepted: a wider stretch is a training problem, not a
/// scale problem.
const FACTORS: std::ops::RangeInclusive<f64> = 0.1..=10.0;

/// The file's weight range (i16).
const LIMIT: f64 = 32767.0;

/// `patterns` with every weight times `factor`, and how many weights were
/// clamped to the file's range.
pub fn scaled(patterns: &Patterns, factor: f64) -> Result<(Patterns, usize), String> {
    if !FACTORS.contains(&factor) {
        return Err(format!("--factor {factor} is outside 0.1..10"));
    }
    let mut clamped = 0;
    let mut scale = |w: i32| {
        let x = (f64::from(w) * factor).round_ties_even();
        if !(-LIMIT - 1.0..=LIMIT).contains(&x) {
            clamped += 1;
        }
        x.clamp(-LIMIT - 1.0, LIMIT) as i32
    };
    let weights: Vec<(i32, i32)> =
        patterns.weights().iter().map(|&(mg, eg)| (scale(mg), scale(eg))).collect();
    let out = Patterns::new(patterns.variant(), &weights).map_err(|e| e.to_string())?;
    Ok((out, clamped))
}

/// Runs `crown-tune scale-patterns`.
pub fn run(args: Args) -> Result<(), String> {
    let patterns = crate::pattern_trainer::read_file(&args.input)?;
    let (out, clamped) = scaled(&patterns, args.factor)?;
    std::fs::write(&args.out, out.to_bytes())
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    println!(
        "{}: {} {} features scaled by {} ({clamped} weights clamped)",
        args.out.display(),
        out.weights().len(),
        out.variant(),
        args.factor
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown::eval::draughts::patterns::{feature_count, WindowSet};
    use crown::game::Variant;

    fn file(variant: Variant, weight: impl Fn(usize) -> (i32, i32)) -> Patterns {
        let weights: Vec<_> =
            (0..feature_count(variant, WindowSet::Blocks).unwrap()).map(weight).collect();
        Patterns::new(variant, &weights).unwrap()
    }

    /// Every weight is multiplied, halves go to the even neighbour, the
    /// variant is kept and the written file reads back the same.
    #[test]
    fn scales_every_weight_rounding_half_to_even() {
        let p = file(Variant::Russian, |i| ((i % 41) as i32 - 20, 2 * (i % 7) as i32 + 2));
        let (s, clamped) = scaled(&p, 1.25).unwrap();
        assert_eq!(clamped, 0);
        assert_eq!(s.variant(), Variant::Russian);
        for (&(mg, eg), &(smg, seg)) in p.weights().iter().zip(s.weights()) {
            let expect = |w: i32| {
                // w * 5 / 4 exactly, ties to the even integer.
                let (q, r) = ((5 * w).div_euclid(4), (5 * w).rem_euclid(4));
                match r {
                    0 | 1 => q,
                    3 => q + 1,
                    _ => q + (q & 1),
                }
            };
            assert_eq!((smg, seg), (expect(mg), expect(eg)), "from {:?}", (mg, eg));
        }
        // 2 * 1.25 = 2.5 -> 2, 6 * 1.25 = 7.5 -> 8, -2 * 1.25 = -2.5 -> -2.
        let w = |v: i32| scaled(&file(Variant::Russian, |_| (v, v)), 1.25).unwrap().0.weights()[0];
        assert_eq!([w(2), w(6), w(-2)], [(2, 2), (8, 8), (-2, -2)]);
        assert_eq!(Patterns::from_bytes(&s.to_bytes()).unwrap(), s);
    }

    /// Weights beyond the file's range are clamped and counted; factors
    /// outside 0.1..10 are refused.
    #[test]
    fn clamps_and_refuses_wild_factors() {
        let p = file(Variant::International, |i| if i == 3 { (30000, -30000) } else { (100, 0) });
        let (s, clamped) = scaled(&p, 2.0).unwrap();
        assert_eq!(clamped, 2);
        assert_eq!(s.weights()[3], (32767, -32768));
        assert_eq!(s.weights()[0], (200, 0));
        for factor in [0.0, -1.0, 0.05, 11.0, f64::NAN] {
            assert!(scaled(&p, factor).is_err(), "{factor}");
        }
    }

    /// A damaged file is refused and nothing is written.
    #[test]
    fn a_damaged_file_writes_nothing() {
        let dir = std::env::temp_dir();
        let input = dir.join(format!("crown-scale-in-{}.cdp", std::process::id()));
        let out = dir.join(format!("crown-scale-out-{}.cdp", std::process::id()));
        let mut bytes = file(Variant::English, |i| (i as i32 % 50, 0)).to_bytes();
        bytes[40] ^= 1;
        std::fs::write(&input, &bytes).unwrap();
        let _ = std::fs::remove_file(&out);
        let args = Args { input: input.clone(), out: out.clone(), factor: 1.5 };
        let err = run(args).unwrap_err();
        assert!(err.contains("checksum"), "{err}");
        assert!(!out.exists());
        let _ = std::fs::remove_file(&input);
    }
}
