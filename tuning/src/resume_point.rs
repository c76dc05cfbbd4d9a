//! The sidecar that makes data generation resumable: `OUT.progress` beside
//! the output file `OUT`, a few `key value` lines:
//!
//! ```text
//! # crown-tune datagen progress (rewritten after every game; do not edit)
//! args variant=chess nodes=5000 hard=20000 ...
//! next_game 1234
//! bytes 3145728
//! positions 98304
//! results 400 300 534
//! ```
//!
//! * `args`: every argument that changes the games (not `--games`,
//!   `--positions` or `--threads`); a restart with other arguments is
//!   refused, so a file never mixes two settings.
//! * `next_game`: the index of the first game not in the file; games are
//!   deterministic per index and seed, so a restart plays on from there.
//! * `bytes`: the output length after the last whole game recorded here.
//!
//! Invariants: the output is appended to, never rewritten. The data is
//! flushed before the sidecar is replaced (written to `.tmp`, then
//! renamed), so the sidecar never claims more than the file holds. Bytes
//! past `bytes` (a torn write, or games written after the last sidecar
//! update) are cut with a warning on restart; the games behind them are
//! played again and come out the same.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// What the sidecar records.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ResumePoint {
    /// The arguments that fix the games.
    pub args: String,
    /// First game index not yet in the file.
    pub next_game: u64,
    /// Output length after the last recorded game.
    pub bytes: u64,
    /// Positions in the file.
    pub positions: u64,
    /// Games in the file by result: White wins, draws, Black wins.
    pub results: [u64; 3],
}

impl ResumePoint {
    /// Games in the file.
    pub fn games(&self) -> u64 {
        self.results.iter().sum()
    }

    fn render(&self) -> String {
        format!(
            "# crown-tune datagen progress (rewritten after every game; do not edit)\n\
             args {}\nnext_game {}\nbytes {}\npositions {}\nresults {} {} {}\n",
            self.args,
            self.next_game,
            self.bytes,
            self.positions,
            self.results[0],
            self.results[1],
            self.results[2]
        )
    }

    fn parse(text: &str) -> Result<ResumePoint, String> {
        let mut p = ResumePoint::default();
        let mut seen = 0;
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            let number = || value.trim().parse::<u64>().map_err(|_| format!("bad {key} '{value}'"));
            match key {
                "args" => p.args = value.to_string(),
                "next_game" => p.next_game = number()?,
                "bytes" => p.bytes = number()?,
                "positions" => p.positions = number()?,
                "results" => {
                    let v: Vec<u64> =
                        value.split_whitespace().filter_map(|x| x.parse().ok()).collect();
                    p.results = v.try_into().map_err(|_| format!("bad results '{value}'"))?;
                }
                _ => return Err(format!("unknown line '{line}'")),
            }
            seen += 1;
        }
        if seen != 5 {
            return Err("incomplete progress file".to_string());
        }
        Ok(p)
    }
}

/// The sidecar path of an output file.
pub fn sidecar(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// Replaces the sidecar of `out` (write to `.tmp`, rename).
pub fn save(out: &Path, progress: &ResumePoint) -> Result<(), String> {
    let path = sidecar(out);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, progress.render())
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Opens `out` for appending where the sidecar says the last recorded game
/// ended, or creates both for a fresh run. Refuses: an output without a
/// sidecar (not ours, or from an older tool), a sidecar written with other
/// arguments, and an output shorter than the sidecar says. `warn` gets the
/// message when a tail is cut.
pub fn open(
    out: &Path,
    args: &str,
    mut warn: impl FnMut(&str),
) -> Result<(File, ResumePoint), String> {
    let side = sidecar(out);
    let progress = match std::fs::read_to_string(&side) {
        Ok(text) => {
            let p = ResumePoint::parse(&text).map_err(|e| format!("{}: {e}", side.display()))?;
            if p.args != args {
                return Err(format!(
                    "{} was written with other arguments:\n  {}\nthis run:\n  {}\n\
                     resume with the same arguments or choose another --out",
                    side.display(),
                    p.args,
                    args
                ));
            }
            p
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
                return Err(format!(
                    "{} exists without {}: refusing to append to it (remove it or choose \
                     another --out)",
                    out.display(),
                    side.display()
                ));
            }
            ResumePoint { args: args.to_string(), ..ResumePoint::default() }
        }
        Err(e) => return Err(format!("cannot read {}: {e}", side.display())),
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("cannot open {}: {e}", out.display()))?;
    let len = file.metadata().map_err(|e| format!("{}: {e}", out.display()))?.len();
    if len < progress.bytes {
        return Err(format!(
            "{} holds {len} bytes but {} records {}: the file was cut or replaced",
            out.display(),
            side.display(),
            progress.bytes
        ));
    }
    if len > progress.bytes {
        warn(&format!(
            "{}: ignoring {} bytes after the last recorded game (a torn write or games \
             not yet recorded); they are cut and those games played again",
            out.display(),
            len - progress.bytes
        ));
        file.set_len(progress.bytes).map_err(|e| format!("cannot cut {}: {e}", out.display()))?;
    }
    save(out, &progress)?;
    Ok((file, progress))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_refusals() {
        let p = ResumePoint {
            args: "variant=chess nodes=5000".into(),
            next_game: 12,
            bytes: 640,
            positions: 20,
            results: [3, 4, 5],
        };
        assert_eq!(ResumePoint::parse(&p.render()).unwrap(), p);
        assert_eq!(p.games(), 12);
        assert!(ResumePoint::parse("next_game 1\n").is_err());
        assert!(ResumePoint::parse(&p.render().replace("bytes 640", "bytes x")).is_err());

        let dir = std::env::temp_dir().join(format!("crown-progress-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("a.crb");
        // Fresh: creates both.
        let (_, fresh) = open(&out, "x", |_| panic!("no warning")).unwrap();
        assert_eq!(fresh.next_game, 0);
        // Recorded 64 bytes, file holds 64 + 13: the tail is cut with a warning.
        std::fs::write(&out, [7u8; 77]).unwrap();
        save(&out, &ResumePoint { args: "x".into(), bytes: 64, next_game: 2, ..fresh }).unwrap();
        let mut warned = false;
        let (_, p) = open(&out, "x", |_| warned = true).unwrap();
        assert!(warned);
        assert_eq!((p.next_game, std::fs::metadata(&out).unwrap().len()), (2, 64));
        // Other arguments, a shortened file, a file without sidecar: refused.
        assert!(open(&out, "y", |_| {}).unwrap_err().contains("other arguments"));
        std::fs::write(&out, [7u8; 32]).unwrap();
        assert!(open(&out, "x", |_| {}).unwrap_err().contains("cut or replaced"));
        std::fs::remove_file(sidecar(&out)).unwrap();
        assert!(open(&out, "x", |_| {}).unwrap_err().contains("without"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
