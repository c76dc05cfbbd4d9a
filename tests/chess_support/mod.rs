//! Shared by the chess integration tests: the perft suites in `tests/data/`
//! read into `(name, FEN, variant, [(depth, count)])` records.

#![allow(dead_code)]

use crown::game::Variant;

/// One suite position with its reference counts.
pub struct Record {
    /// Where it came from (file and id or line).
    pub name: String,
    /// The position.
    pub fen: String,
    /// Chess or Chess960.
    pub variant: Variant,
    /// `(depth, leaf count)`, ascending depth.
    pub counts: Vec<(u32, u64)>,
}

fn data(file: &str) -> String {
    // The runtime variable first, so a test binary copied elsewhere can be
    // pointed at a checkout.
    let root = std::env::var("CARGO_MANIFEST_DIR")
        .unwrap_or_else(|_| env!("CARGO_MANIFEST_DIR").to_string());
    let path = format!("{root}/tests/data/{file}");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"))
}

/// `FEN ;D1 20 ;D2 400 ... ;id "name"` lines.
fn epd(file: &str, variant: Variant) -> Vec<Record> {
    let mut records = Vec::new();
    for (line_no, line) in data(file).lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        let mut name = format!("{file}:{}", line_no + 1);
        let mut counts = Vec::new();
        for part in parts {
            let part = part.trim();
            if let Some(rest) = part.strip_prefix('D') {
                let mut it = rest.split_whitespace();
                let depth = it.next().and_then(|d| d.parse().ok()).expect("depth");
                let count = it.next().and_then(|c| c.parse().ok()).expect("count");
                counts.push((depth, count));
            } else if let Some(id) = part.strip_prefix("id ") {
                name = format!("{file}:{}", id.trim_matches('"'));
            }
        }
        records.push(Record { name, fen, variant, counts });
    }
    records
}

/// `id NAME` / `epd FEN` / `perft D N` records.
fn pychess(file: &str, variant: Variant) -> Vec<Record> {
    let mut records: Vec<Record> = Vec::new();
    let mut name = String::new();
    for line in data(file).lines() {
        let line = line.trim();
        if let Some(id) = line.strip_prefix("id ") {
            name = format!("{file}:{id}");
        } else if let Some(fen) = line.strip_prefix("epd ") {
            records.push(Record {
                name: name.clone(),
                fen: fen.to_string(),
                variant,
                counts: vec![],
            });
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let depth = it.next().and_then(|d| d.parse().ok()).expect("depth");
            let count = it.next().and_then(|c| c.parse().ok()).expect("count");
            records.last_mut().expect("perft before epd").counts.push((depth, count));
        }
    }
    records
}

/// The standard-chess suites.
pub fn standard() -> Vec<Record> {
    let mut all = epd("cpw_perft_positions.epd", Variant::Chess);
    all.extend(epd("ethereal_standard.epd", Variant::Chess));
    all.extend(
        pychess("pychess_tricky.perft", Variant::Chess).into_iter().filter(|r| !needs_960(r)),
    );
    all
}

/// The Chess960 suites.
pub fn fischer() -> Vec<Record> {
    let mut all = epd("ethereal_fischer.epd", Variant::Chess960);
    all.extend(pychess("pychess_chess960.perft", Variant::Chess960));
    all.extend(tricky_960());
    all
}

/// Every suite position.
pub fn all() -> Vec<Record> {
    let mut all = standard();
    all.extend(fischer());
    all
}

/// pychess_tricky.perft also holds Chess960 positions (X-FEN `KQkq` with the
/// king off the e-file); they are read in Chess960 mode.
fn needs_960(record: &Record) -> bool {
    crown::chess::Position::from_fen_mode(&record.fen, crown::chess::CastlingMode::Standard)
        .is_err_and(|e| {
            e == crown::chess::PositionError::Illegal(crown::chess::IllegalPosition::CastlingRights)
        })
}

/// pychess_tricky.perft positions split by mode: standard ones (used by
/// [`standard`]) are those that read in standard mode.
pub fn tricky_960() -> Vec<Record> {
    pychess("pychess_tricky.perft", Variant::Chess960).into_iter().filter(needs_960).collect()
}
