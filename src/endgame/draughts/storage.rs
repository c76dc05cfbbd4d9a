//! Storage: one signature's results packed 2 bits a position in memory, and
//! compressed in a file of its own.
//!
//! Codes: 0 draw, 1 win, 2 loss (for the side to move), 3 no position (an
//! index whose men would share a square). Four positions a byte, index `i`
//! in bits `2 * (i % 4)` of byte `i / 4`.
//!
//! File `<signature>.wdl` (all integers little-endian):
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `CRWNWDL2` (`CRWNWDL1`: the data stored as is) |
//! | 8 | 16 | variant name, NUL padded |
//! | 24 | 4 | signature: white men, white kings, black men, black kings |
//! | 28 | 4 | reserved (0) |
//! | 32 | 8 | positions (indices) |
//! | 40 | 24 | wins, losses, draws |
//! | 64 | 8 | FNV-1a 64 of the packed data (uncompressed) |
//! | 72 | rest | the packed data, ceil(positions / 4) bytes, as one zstd frame |
//!
//! The packed codes compress 6-8 times (zstd level [`LEVEL`]; the 4-piece
//! international tables go from 21.7 MB to 2.9 MB). A table is decompressed
//! whole when it is loaded: probes read the packed codes directly.
//!
//! Loading checks every field, the frame, the length and the checksum: a
//! damaged file is refused with a [`StorageError`], never half used. Files
//! of the first version (uncompressed) are still read.

use super::index::Signature;
use super::Wdl;
use crate::checksum::{fnv1a64, FNV1A64_START};
use crate::game::Variant;
use std::fmt;
use std::path::Path;

/// Magic of the compressed files written now.
const MAGIC: &[u8; 8] = b"CRWNWDL2";
/// Magic of the first, uncompressed version (read, no longer written).
const MAGIC_RAW: &[u8; 8] = b"CRWNWDL1";
const HEADER: usize = 72;
/// zstd level of the files: level 19 gives 7.5x on the 4-piece international
/// tables against 5.1x at level 3, and decompression is as fast at any level.
pub const LEVEL: i32 = 19;

/// Code of a draw.
pub const DRAW: u8 = 0;
/// Code of a win for the side to move.
pub const WIN: u8 = 1;
/// Code of a loss for the side to move.
pub const LOSS: u8 = 2;
/// Code of an index without a position.
pub const NONE: u8 = 3;

/// Why a table file was refused.
#[derive(Debug)]
pub enum StorageError {
    /// The file could not be read or written.
    Io(std::io::Error),
    /// Not a Crown WDL file, or a version this build does not read.
    Magic,
    /// The file belongs to another variant or signature than its name says.
    Mismatch,
    /// The data is shorter or longer than the header says.
    Length,
    /// The data does not match its checksum, or a count is wrong.
    Checksum,
    /// The compressed data cannot be decompressed.
    Damaged(String),
}

impl fmt::Display for StorageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageError::Io(e) => write!(f, "cannot read or write: {e}"),
            StorageError::Magic => f.write_str("not a Crown endgame table (bad magic)"),
            StorageError::Mismatch => f.write_str("variant or material differs from the file name"),
            StorageError::Length => f.write_str("wrong length (truncated file?)"),
            StorageError::Checksum => f.write_str("checksum mismatch (damaged file)"),
            StorageError::Damaged(e) => write!(f, "damaged compressed data ({e})"),
        }
    }
}

impl std::error::Error for StorageError {}

impl From<std::io::Error> for StorageError {
    fn from(e: std::io::Error) -> Self {
        StorageError::Io(e)
    }
}

/// One signature's results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    signature: Signature,
    positions: u64,
    data: Vec<u8>,
    /// Wins, losses, draws among the real positions.
    counts: [u64; 3],
}

/// FNV-1a 64 of `data`.
fn fnv1a(data: &[u8]) -> u64 {
    fnv1a64(FNV1A64_START, data)
}

impl Table {
    /// Packs one code per index (codes as in the header).
    pub fn from_codes(signature: Signature, codes: &[u8]) -> Self {
        let mut data = vec![0u8; codes.len().div_ceil(4)];
        let mut counts = [0u64; 3];
        for (i, &c) in codes.iter().enumerate() {
            data[i / 4] |= (c & 3) << (2 * (i % 4));
            match c & 3 {
                WIN => counts[0] += 1,
                LOSS => counts[1] += 1,
                DRAW => counts[2] += 1,
                _ => {}
            }
        }
        Table { signature, positions: codes.len() as u64, data, counts }
    }

    /// The material.
    pub fn signature(&self) -> Signature {
        self.signature
    }

    /// Number of indices.
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// Bytes of packed data.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// Wins, losses and draws (for the side to move) over every position of
    /// the signature, both sides to move.
    pub fn counts(&self) -> [u64; 3] {
        self.counts
    }

    /// The code of index `i` (NONE when out of range).
    #[inline]
    pub fn code(&self, i: u64) -> u8 {
        match self.data.get((i / 4) as usize) {
            Some(&b) if i < self.positions => (b >> (2 * (i % 4))) & 3,
            _ => NONE,
        }
    }

    /// The result of index `i` for the side to move.
    #[inline]
    pub fn wdl(&self, i: u64) -> Option<Wdl> {
        match self.code(i) {
            WIN => Some(Wdl::Win),
            LOSS => Some(Wdl::Loss),
            DRAW => Some(Wdl::Draw),
            _ => None,
        }
    }

    /// The file name of the table.
    pub fn file_name(signature: Signature) -> String {
        format!("{}.wdl", signature.name())
    }

    /// The file image (compressed).
    pub fn to_bytes(&self, variant: Variant) -> Vec<u8> {
        self.image(variant, true)
    }

    /// The file image of the first version (the data as is), which loading
    /// still accepts.
    pub fn to_raw_bytes(&self, variant: Variant) -> Vec<u8> {
        self.image(variant, false)
    }

    fn image(&self, variant: Variant, compress: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.data.len());
        out.extend_from_slice(if compress { MAGIC } else { MAGIC_RAW });
        let mut name = [0u8; 16];
        let v = variant.name().as_bytes();
        name[..v.len().min(16)].copy_from_slice(&v[..v.len().min(16)]);
        out.extend_from_slice(&name);
        let s = self.signature;
        out.extend_from_slice(&[
            s.white_men,
            s.white_kings,
            s.black_men,
            s.black_kings,
            0,
            0,
            0,
            0,
        ]);
        out.extend_from_slice(&self.positions.to_le_bytes());
        for c in self.counts {
            out.extend_from_slice(&c.to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&self.data).to_le_bytes());
        if compress {
            // Compressing a slice in memory fails only on allocation.
            let packed = zstd::bulk::compress(&self.data, LEVEL).expect("zstd compression");
            out.extend_from_slice(&packed);
        } else {
            out.extend_from_slice(&self.data);
        }
        out
    }

    /// Reads a file image, checking that it holds `signature` of `variant`.
    pub fn from_bytes(
        bytes: &[u8],
        variant: Variant,
        signature: Signature,
    ) -> Result<Table, StorageError> {
        if bytes.len() < HEADER || (&bytes[..8] != MAGIC && &bytes[..8] != MAGIC_RAW) {
            return Err(StorageError::Magic);
        }
        let compressed = &bytes[..8] == MAGIC;
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let name = &bytes[8..24];
        let end = name.iter().position(|&b| b == 0).unwrap_or(16);
        let s = &bytes[24..28];
        let stored = Signature::new(s[0], s[1], s[2], s[3]);
        if &name[..end] != variant.name().as_bytes() || stored != signature {
            return Err(StorageError::Mismatch);
        }
        let positions = word(32);
        let len = usize::try_from(positions.div_ceil(4)).map_err(|_| StorageError::Length)?;
        let data = if compressed {
            let frame = &bytes[HEADER..];
            // The frame must say how long it is, and say the header's length:
            // a foreign or damaged size never allocates more than the table.
            match zstd::zstd_safe::get_frame_content_size(frame) {
                Ok(Some(n)) if n == len as u64 => {}
                Ok(Some(_)) => return Err(StorageError::Length),
                _ => return Err(StorageError::Damaged("no frame size".into())),
            }
            zstd::bulk::decompress(frame, len).map_err(|e| StorageError::Damaged(e.to_string()))?
        } else {
            bytes[HEADER..].to_vec()
        };
        if data.len() != len {
            return Err(StorageError::Length);
        }
        if fnv1a(&data) != word(64) {
            return Err(StorageError::Checksum);
        }
        let mut table = Table::from_codes(signature, &[]);
        table.positions = positions;
        table.data = data;
        let mut counts = [0u64; 3];
        for i in 0..positions {
            match table.code(i) {
                WIN => counts[0] += 1,
                LOSS => counts[1] += 1,
                DRAW => counts[2] += 1,
                _ => {}
            }
        }
        if counts != [word(40), word(48), word(56)] {
            return Err(StorageError::Checksum);
        }
        table.counts = counts;
        Ok(table)
    }

    /// Writes the table as `<dir>/<signature>.wdl` (through a temporary file,
    /// so a reader never sees half a table).
    pub fn save(&self, dir: &Path, variant: Variant) -> Result<(), StorageError> {
        let path = dir.join(Self::file_name(self.signature));
        let tmp = path.with_extension("wdl.tmp");
        std::fs::write(&tmp, self.to_bytes(variant))?;
        std::fs::rename(&tmp, &path)?;
        Ok(())
    }

    /// Reads `<dir>/<signature>.wdl`.
    pub fn load(dir: &Path, variant: Variant, signature: Signature) -> Result<Table, StorageError> {
        let bytes = std::fs::read(dir.join(Self::file_name(signature)))?;
        Self::from_bytes(&bytes, variant, signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let sig = Signature::new(0, 1, 0, 1);
        let codes = [WIN, LOSS, DRAW, NONE, WIN, DRAW, DRAW];
        let table = Table::from_codes(sig, &codes);
        assert_eq!(table.counts(), [2, 1, 3]);
        let bytes = table.to_bytes(Variant::International);
        assert_eq!(&bytes[..8], MAGIC);
        let back = Table::from_bytes(&bytes, Variant::International, sig).expect("round trip");
        assert_eq!(back, table);
        for (i, &c) in codes.iter().enumerate() {
            assert_eq!(back.code(i as u64), c);
        }
        assert_eq!(back.code(99), NONE);
        // The first version, the data stored as is, still reads.
        let raw = table.to_raw_bytes(Variant::International);
        assert_eq!(&raw[..8], MAGIC_RAW);
        assert_eq!(Table::from_bytes(&raw, Variant::International, sig).expect("v1"), table);
        let mut flipped = raw.clone();
        *flipped.last_mut().expect("data") ^= 1;
        assert!(matches!(
            Table::from_bytes(&flipped, Variant::International, sig),
            Err(StorageError::Checksum)
        ));
        // A damaged frame, or one that holds other data than the header
        // says, is refused.
        let mut broken = bytes.clone();
        broken[HEADER] ^= 0xff;
        assert!(matches!(
            Table::from_bytes(&broken, Variant::International, sig),
            Err(StorageError::Damaged(_))
        ));
        let mut other = bytes[..HEADER].to_vec();
        other.extend_from_slice(&zstd::bulk::compress(&[0u8; 3], LEVEL).expect("zstd"));
        assert!(matches!(
            Table::from_bytes(&other, Variant::International, sig),
            Err(StorageError::Length)
        ));
        let mut wrong = bytes[..HEADER].to_vec();
        wrong.extend_from_slice(&zstd::bulk::compress(&[0u8; 2], LEVEL).expect("zstd"));
        assert!(matches!(
            Table::from_bytes(&wrong, Variant::International, sig),
            Err(StorageError::Checksum)
        ));
        assert!(matches!(
            Table::from_bytes(&raw[..raw.len() - 1], Variant::International, sig),
            Err(StorageError::Length)
        ));
        assert!(matches!(
            Table::from_bytes(&bytes[..bytes.len() - 1], Variant::International, sig),
            Err(StorageError::Damaged(_))
        ));
        assert!(matches!(
            Table::from_bytes(&bytes, Variant::Brazilian, sig),
            Err(StorageError::Mismatch)
        ));
        assert!(matches!(
            Table::from_bytes(&bytes[..10], Variant::International, sig),
            Err(StorageError::Magic)
        ));
    }
}
