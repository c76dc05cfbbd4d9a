//! How the prober reads table files: small files are read into memory
//! once, on first probe (a probe then costs no system call), larger ones are
//! read piecewise with positioned reads, without `mmap` (a file truncated
//! while mapped would crash the process; a short read is an error instead).
//!
//! Invariant: every read is checked against the data actually there; a
//! read past the end is an `UnexpectedEof` error, which the prober turns
//! into a failed probe.

use shakmaty_syzygy::filesystem::{Filesystem, RandomAccessFile, ReadHint};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Files up to this size are kept in memory (the whole 3-4-5-piece set is
/// under a gigabyte; a 6-piece file can be several).
const IN_MEMORY_LIMIT: u64 = 64 << 20;

/// The table filesystem: the real one, with small files held in memory.
#[derive(Debug, Default, Clone, Copy)]
pub struct Files;

impl Filesystem for Files {
    fn regular_file_size(&self, path: &Path) -> io::Result<u64> {
        let meta = fs::metadata(path)?;
        if !meta.is_file() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
        }
        Ok(meta.len())
    }

    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        fs::read_dir(path)?.map(|entry| entry.map(|e| e.path())).collect()
    }

    fn open(&self, path: &Path) -> io::Result<Box<dyn RandomAccessFile>> {
        let file = fs::File::open(path)?;
        if file.metadata()?.len() <= IN_MEMORY_LIMIT {
            let bytes = fs::read(path)?;
            return Ok(Box::new(Memory(bytes)));
        }
        Ok(Box::new(Disk(file)))
    }
}

/// A file held in memory.
struct Memory(Vec<u8>);

impl RandomAccessFile for Memory {
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX).min(self.0.len());
        let available = &self.0[start..];
        let n = buf.len().min(available.len());
        buf[..n].copy_from_slice(&available[..n]);
        Ok(n)
    }
}

/// A file read with positioned reads.
struct Disk(fs::File);

impl RandomAccessFile for Disk {
    #[cfg(unix)]
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        std::os::unix::fs::FileExt::read_at(&self.0, buf, offset)
    }

    #[cfg(windows)]
    fn read_at(&self, buf: &mut [u8], offset: u64, _hint: ReadHint) -> io::Result<usize> {
        std::os::windows::fs::FileExt::seek_read(&self.0, buf, offset)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_reads_stop_at_the_end() {
        let file = Memory(vec![1, 2, 3, 4]);
        let mut buf = [0; 3];
        assert_eq!(file.read_at(&mut buf, 2, ReadHint::Data).unwrap(), 2);
        assert_eq!(buf[..2], [3, 4]);
        assert_eq!(file.read_at(&mut buf, 9, ReadHint::Data).unwrap(), 0);
        let err = file.read_exact_at(&mut buf, 2, ReadHint::Data).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
    }
}
