//! Syzygy endgame tables for chess: loading, WDL probes for the search and
//! DTZ probes for the root, over the `shakmaty-syzygy` prober.
//!
//! Why `shakmaty-syzygy` (niklasf, GPL-3.0-or-later like Crown, the same
//! author and algorithm as python-chess's `chess.syzygy`): it is safe Rust
//! whose every read is bounds-checked, so a corrupt or truncated table gives
//! an error, never a read out of bounds, and several table sets can live in
//! one process. `pyrrhic-rs` was the other candidate; it is a C-to-Rust
//! transliteration of Fathom with one process-wide table set (a second load
//! fails, and after a path without tables every later load fails), `exit()`
//! and `expect()` on some I/O failures, and no check beyond the file size on
//! the table contents. The price is a conversion of [`Position`] into a
//! `shakmaty::Chess` per probe (bitboards copied, the position validated):
//! measured in the README (probe speed) as small next to the probe itself.
//!
//! Invariants:
//! * A position with castling rights is never probed (the tables hold none);
//!   this covers Chess960 too.
//! * [`Probe::probe`] answers `None` without converting anything when the
//!   position has more pieces than the largest loaded table.
//! * A probe that fails (a missing or corrupt table) answers `None` and is
//!   counted in [`Syzygy::failures`]; the search goes on without it.
//!
//! The WDL the search sees is the table's value with the fifty-move rule
//! applied when `Syzygy50MoveRule` is on (a cursed win or a blessed loss is a
//! draw), else ignored (a cursed win is a win). The tables give the value
//! after a zeroing move (capture or pawn move), so the search probes only
//! there (fifty-move counter zero), as Stockfish does; the root uses DTZ
//! ([`root`]).

pub mod files;
pub mod root;

use crate::chess::{Color, PieceKind, Position};
use crate::endgame::{Probe, RootFilter, Wdl};
use shakmaty::{Bitboard, Board, ByColor, ByRole, CastlingMode, Chess, FromSetup, Setup};
use shakmaty_syzygy::Tablebase;
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

pub use crate::endgame::ProbeConfig;

/// A table value for the side to move, as the files hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableWdl {
    /// Lost even with the fifty-move rule.
    Loss,
    /// Lost, but saved by the fifty-move rule.
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but not within the fifty-move rule.
    CursedWin,
    /// Won within the fifty-move rule.
    Win,
}

impl TableWdl {
    /// The usual number: -2 loss, -1 blessed loss, 0, 1 cursed win, 2 win
    /// (python-chess's `probe_wdl`).
    pub const fn value(self) -> i32 {
        match self {
            TableWdl::Loss => -2,
            TableWdl::BlessedLoss => -1,
            TableWdl::Draw => 0,
            TableWdl::CursedWin => 1,
            TableWdl::Win => 2,
        }
    }

    /// The game result with the fifty-move rule on or off.
    pub const fn result(self, rule50: bool) -> Wdl {
        match self {
            TableWdl::Win => Wdl::Win,
            TableWdl::Loss => Wdl::Loss,
            TableWdl::Draw => Wdl::Draw,
            TableWdl::CursedWin if rule50 => Wdl::Draw,
            TableWdl::CursedWin => Wdl::Win,
            TableWdl::BlessedLoss if rule50 => Wdl::Draw,
            TableWdl::BlessedLoss => Wdl::Loss,
        }
    }

    fn from_syzygy(wdl: shakmaty_syzygy::Wdl) -> TableWdl {
        match wdl {
            shakmaty_syzygy::Wdl::Loss => TableWdl::Loss,
            shakmaty_syzygy::Wdl::BlessedLoss => TableWdl::BlessedLoss,
            shakmaty_syzygy::Wdl::Draw => TableWdl::Draw,
            shakmaty_syzygy::Wdl::CursedWin => TableWdl::CursedWin,
            shakmaty_syzygy::Wdl::Win => TableWdl::Win,
        }
    }
}

/// Loaded Syzygy tables, shared read-only by the search threads.
pub struct Syzygy {
    tables: Tablebase<Chess>,
    max_pieces: u32,
    wdl_files: usize,
    dtz_files: usize,
    depth: AtomicI32,
    limit: AtomicU32,
    rule50: AtomicBool,
    failures: AtomicU64,
}

impl std::fmt::Debug for Syzygy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Syzygy")
            .field("max_pieces", &self.max_pieces)
            .field("wdl_files", &self.wdl_files)
            .field("dtz_files", &self.dtz_files)
            .finish_non_exhaustive()
    }
}

impl Syzygy {
    /// Loads the tables of every directory in `paths` (separated by `:`;
    /// empty or `<empty>`: none). Returns the tables (`None` when no
    /// directory held any) and one message per directory or refused file,
    /// for the user. Table files are opened lazily, on first probe.
    pub fn load(paths: &str) -> (Option<Syzygy>, Vec<String>) {
        let mut messages = Vec::new();
        let mut tables = Tablebase::with_filesystem(Arc::new(files::Files));
        let (mut wdl_files, mut dtz_files) = (0, 0);
        let dirs = paths.split(':').map(str::trim).filter(|d| !d.is_empty() && *d != "<empty>");
        for dir in dirs {
            let entries = match std::fs::read_dir(dir) {
                Ok(entries) => entries,
                Err(e) => {
                    messages.push(format!("Syzygy: cannot read directory {dir}: {e}"));
                    continue;
                }
            };
            let mut paths: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            let (mut wdl, mut dtz) = (0, 0);
            for path in paths {
                let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
                if ext != "rtbw" && ext != "rtbz" {
                    continue;
                }
                match tables.add_file(&path) {
                    Ok(()) if ext == "rtbw" => wdl += 1,
                    Ok(()) => dtz += 1,
                    Err(e) => messages.push(format!("Syzygy: {} refused: {e}", path.display())),
                }
            }
            if wdl + dtz == 0 {
                messages.push(format!("Syzygy: no tables in {dir}"));
            } else {
                messages.push(format!("Syzygy: {dir}: {wdl} WDL and {dtz} DTZ tables"));
            }
            wdl_files += wdl;
            dtz_files += dtz;
        }
        if wdl_files == 0 {
            return (None, messages);
        }
        let max_pieces = tables.max_pieces() as u32;
        messages.push(format!(
            "Syzygy: {wdl_files} WDL and {dtz_files} DTZ tables, up to {max_pieces} pieces"
        ));
        let config = ProbeConfig::default();
        let syzygy = Syzygy {
            tables,
            max_pieces,
            wdl_files,
            dtz_files,
            depth: AtomicI32::new(config.depth),
            limit: AtomicU32::new(config.limit),
            rule50: AtomicBool::new(config.rule50),
            failures: AtomicU64::new(0),
        };
        (Some(syzygy), messages)
    }

    /// Most pieces (kings included) of any loaded table.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Applies the search-side settings (takes effect at once, also for a
    /// search that is running).
    pub fn configure(&self, config: ProbeConfig) {
        self.depth.store(config.depth, Ordering::Relaxed);
        self.limit.store(config.limit, Ordering::Relaxed);
        self.rule50.store(config.rule50, Ordering::Relaxed);
    }

    /// The settings in use.
    pub fn config(&self) -> ProbeConfig {
        ProbeConfig {
            depth: self.depth.load(Ordering::Relaxed),
            limit: self.limit.load(Ordering::Relaxed),
            rule50: self.rule50.load(Ordering::Relaxed),
        }
    }

    /// Probes that failed so far (missing or corrupt tables).
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Whether `pos` may be in the tables at all: no castling rights and no
    /// more pieces than the largest table (and than `limit`).
    #[inline]
    fn covers(&self, pos: &Position, limit: u32) -> bool {
        let pieces = pos.occupancy().count();
        pieces <= self.max_pieces.min(limit) && pos.castling_rights().is_empty()
    }

    fn failed<T>(&self) -> Option<T> {
        self.failures.fetch_add(1, Ordering::Relaxed);
        None
    }

    /// The WDL table value of `pos` as if it had just been reached by a
    /// zeroing move (the fifty-move counter is not looked at).
    pub fn wdl(&self, pos: &Position) -> Option<TableWdl> {
        if !self.covers(pos, u32::MAX) {
            return None;
        }
        let chess = to_shakmaty(pos)?;
        match self.tables.probe_wdl_after_zeroing(&chess) {
            Ok(wdl) => Some(TableWdl::from_syzygy(wdl)),
            Err(_) => self.failed(),
        }
    }

    /// The DTZ value of `pos` as python-chess's `probe_dtz` gives it: the
    /// plies to the next zeroing move (capture, pawn move, or the mate that
    /// ends the game) with best play, positive when the side to move wins,
    /// negative when it loses, 0 for a draw; 100 or more in absolute value
    /// for a cursed win or blessed loss. Pawnless tables without the `-p`
    /// generator option may be one ply too high where that cannot change the
    /// result under the fifty-move rule (`MaybeRounded`); this answer keeps
    /// the table's value as it is.
    pub fn dtz(&self, pos: &Position) -> Option<i32> {
        if !self.covers(pos, u32::MAX) {
            return None;
        }
        let chess = to_shakmaty(pos)?;
        match self.tables.probe_dtz(&chess) {
            Ok(dtz) => Some(dtz.ignore_rounding().0),
            Err(_) => self.failed(),
        }
    }
}

impl Probe<Position> for Syzygy {
    #[inline]
    fn probe(&self, pos: &Position) -> Option<Wdl> {
        let rule50 = self.rule50.load(Ordering::Relaxed);
        self.wdl(pos).map(|wdl| wdl.result(rule50))
    }

    /// Probed only just after a zeroing move (where the WDL value is exact
    /// under the fifty-move rule), within the piece limit, and at the limit
    /// itself only with at least `SyzygyProbeDepth` plies left.
    #[inline]
    fn search_probe(&self, pos: &Position, depth: i32) -> Option<Wdl> {
        let limit = self.limit.load(Ordering::Relaxed).min(self.max_pieces);
        let pieces = pos.occupancy().count();
        if pieces > limit
            || (pieces == limit && depth < self.depth.load(Ordering::Relaxed))
            || pos.halfmove_clock() != 0
        {
            return None;
        }
        self.probe(pos)
    }

    fn root_moves(&self, pos: &Position) -> Option<RootFilter<crate::chess::Move>> {
        root::filter(self, pos)
    }

    fn load(path: &std::path::Path, _variant: crate::game::Variant) -> (Option<Self>, Vec<String>) {
        Syzygy::load(&path.to_string_lossy())
    }

    fn configure(&self, config: ProbeConfig) {
        Syzygy::configure(self, config);
    }
}

/// `pos` as a `shakmaty::Chess` (castling rights dropped: callers only
/// convert positions without them). `None` if shakmaty refuses it, which a
/// legal Crown position never is.
fn to_shakmaty(pos: &Position) -> Option<Chess> {
    let bb = |kind: PieceKind| Bitboard(pos.kind(kind).0);
    let by_role = ByRole {
        pawn: bb(PieceKind::Pawn),
        knight: bb(PieceKind::Knight),
        bishop: bb(PieceKind::Bishop),
        rook: bb(PieceKind::Rook),
        queen: bb(PieceKind::Queen),
        king: bb(PieceKind::King),
    };
    let by_color = ByColor {
        white: Bitboard(pos.color(Color::White).0),
        black: Bitboard(pos.color(Color::Black).0),
    };
    let board = Board::try_from_bitboards(by_role, by_color).ok()?;
    let setup = Setup {
        board,
        promoted: Bitboard::EMPTY,
        pockets: None,
        turn: match pos.side() {
            Color::White => shakmaty::Color::White,
            Color::Black => shakmaty::Color::Black,
        },
        castling_rights: Bitboard::EMPTY,
        ep_square: pos.en_passant().and_then(|sq| shakmaty::Square::try_from(sq.index()).ok()),
        remaining_checks: None,
        halfmoves: pos.halfmove_clock(),
        fullmoves: NonZeroU32::new(pos.fullmove_number()).unwrap_or(NonZeroU32::MIN),
    };
    Chess::from_setup(setup, CastlingMode::Standard).ok()
}

#[cfg(test)]
mod speed {
    use super::*;
    use crate::game::{Game, Variant};
    use std::time::Instant;

    /// Probe speed over the reference positions (docs/endgame.md, "Syzygy
    /// tablebases"): `cargo test --release --lib syzygy::speed -- --ignored
    /// --nocapture`. Prints rates, asserts nothing about time.
    #[test]
    #[ignore]
    fn probe_speed() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = root.join("tests/data/syzygy");
        let (tables, _) = Syzygy::load(dir.to_str().unwrap());
        let tables = tables.unwrap();
        let text = std::fs::read_to_string(root.join("tests/data/syzygy-reference.txt")).unwrap();
        let positions: Vec<Position> = text
            .lines()
            .map(|l| Position::from_fen(l.split(';').next().unwrap(), Variant::Chess).unwrap())
            .collect();
        let mut os = Tablebase::<Chess>::new();
        os.add_directory(&dir).unwrap();
        let rounds = 20;
        let rate = |what: &str, f: &dyn Fn(&Position) -> bool| {
            let mut samples = Vec::new();
            for _ in 0..5 {
                let start = Instant::now();
                let mut answered = 0;
                for _ in 0..rounds {
                    answered += positions.iter().filter(|p| f(p)).count();
                }
                let n = (rounds * positions.len()) as f64;
                samples.push(n / start.elapsed().as_secs_f64());
                assert_eq!(answered, rounds * positions.len(), "{what}");
            }
            samples.sort_by(f64::total_cmp);
            println!(
                "{what}: median {:.0} per second (5 runs of {} probes)",
                samples[2],
                rounds * positions.len()
            );
        };
        rate("conversion to shakmaty", &|p| to_shakmaty(p).is_some());
        rate("WDL, tables in memory", &|p| tables.wdl(p).is_some());
        rate("DTZ, tables in memory", &|p| tables.dtz(p).is_some());
        rate("WDL, positioned reads (OsFilesystem)", &|p| {
            to_shakmaty(p).is_some_and(|c| os.probe_wdl_after_zeroing(&c).is_ok())
        });
        rate("DTZ, positioned reads (OsFilesystem)", &|p| {
            to_shakmaty(p).is_some_and(|c| os.probe_dtz(&c).is_ok())
        });
    }
}
