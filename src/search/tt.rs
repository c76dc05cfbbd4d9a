//! The transposition table: one per engine, shared by every search thread
//! without locks, independent of the game.
//!
//! Concurrency: entries are read and written with `Relaxed` atomics and no
//! lock, so two threads may race on one entry. Each entry stores `key ^ data`
//! beside `data` (Hyatt's lockless hashing): a torn entry (key of one write,
//! data of another) fails the key check on probe and reads as a miss. A move
//! read from the table is never trusted: the search re-finds it in the legal
//! move list by its key, so even a true key collision cannot produce an
//! illegal move.
//!
//! Layout: buckets of [`BUCKET`] entries (64 bytes, one cache line), indexed
//! by the high bits of `key * buckets` (multiply-shift). One entry is two
//! `u64`s, the first `key ^ data`, the second `data`:
//!
//! | bits   | field                                                     |
//! |--------|-----------------------------------------------------------|
//! | 0..16  | move key ([`crate::game::Game::move_key`]), 0 = no move   |
//! | 16..32 | score, i16, mate scores relative to this node (see below) |
//! | 32..48 | static evaluation, i16                                    |
//! | 48..56 | depth + [`DEPTH_OFFSET`], u8 (quiescence entries are low)  |
//! | 56..58 | bound: 0 none, 1 upper, 2 lower, 3 exact                   |
//! | 58..64 | age (generation of the search that wrote it), 6 bits      |
//!
//! Mate scores are stored as distance from the node and converted back to
//! distance from the root on probe ([`score_to_tt`], [`score_from_tt`]).
//!
//! Memory: tables of 2 MiB and more start on a 2 MiB boundary and are
//! advised to the kernel as huge pages (Linux `MADV_HUGEPAGE`), so that a
//! probe's random access costs a cache miss but not also a TLB miss.
//!
//! Replacement: an entry with the same key is overwritten (keeping its move
//! when the new write has none); otherwise the entry with the lowest
//! `depth - 4 * age_distance` in the bucket is replaced.

use crate::score::{Score, MATE_BOUND};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries per bucket (64-byte buckets).
pub const BUCKET: usize = 4;
/// Added to the depth before it is stored as a u8, so quiescence depths
/// (0 and below) fit.
pub const DEPTH_OFFSET: i32 = 8;
const AGE_MASK: u8 = 0x3f;

/// Kind of bound a stored score is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// No score (only a move or an evaluation is stored).
    None = 0,
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The stored score is exact (a PV node).
    Exact = 3,
}

impl Bound {
    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            3 => Bound::Exact,
            _ => Bound::None,
        }
    }
}

/// A decoded table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Move key, 0 for none.
    pub mv: u16,
    /// Score, mate scores relative to the probing node's ply already.
    pub score: Score,
    /// Static evaluation of the position.
    pub eval: Score,
    /// Search depth of the score.
    pub depth: i32,
    /// What kind of bound `score` is.
    pub bound: Bound,
}

/// What a caller writes.
#[derive(Clone, Copy, Debug)]
pub struct Store {
    /// Move key, 0 for none.
    pub mv: u16,
    /// Score relative to the root (converted for storage with `ply`).
    pub score: Score,
    /// Static evaluation.
    pub eval: Score,
    /// Depth.
    pub depth: i32,
    /// Bound kind.
    pub bound: Bound,
}

fn pack(mv: u16, score: Score, eval: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    let score = score.clamp(i16::MIN as Score, i16::MAX as Score) as i16 as u16 as u64;
    let eval = eval.clamp(i16::MIN as Score, i16::MAX as Score) as i16 as u16 as u64;
    let depth = (depth + DEPTH_OFFSET).clamp(0, 255) as u64;
    mv as u64
        | score << 16
        | eval << 32
        | depth << 48
        | (bound as u64) << 56
        | ((age & AGE_MASK) as u64) << 58
}

fn unpack(data: u64) -> (Entry, u8) {
    let entry = Entry {
        mv: data as u16,
        score: (data >> 16) as u16 as i16 as Score,
        eval: (data >> 32) as u16 as i16 as Score,
        depth: ((data >> 48) & 0xff) as i32 - DEPTH_OFFSET,
        bound: Bound::from_bits(data >> 56),
    };
    (entry, ((data >> 58) as u8) & AGE_MASK)
}

/// Converts a root-relative score to node-relative for storage.
#[inline]
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// Converts a stored node-relative score back to root-relative.
#[inline]
pub fn score_from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// Why a resize was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllocError {
    /// The size asked for, in MiB.
    pub megabytes: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a {} MB hash table on this machine", self.megabytes)
    }
}

impl std::error::Error for AllocError {}

/// One bucket: `2 * BUCKET` words, (key ^ data, data) per entry, aligned
/// to a cache line so that a probe touches one line, not two.
#[repr(C, align(64))]
struct Bucket([AtomicU64; 2 * BUCKET]);

/// Huge-page size the table is aligned to (x86-64 and aarch64 Linux).
const HUGE_PAGE: usize = 2 << 20;

/// The shared, lock-free transposition table.
pub struct TranspositionTable {
    /// The allocation: `start` unused buckets (the padding that aligns the
    /// table to a huge page), then the table.
    storage: Vec<Bucket>,
    start: usize,
    age: AtomicU64,
}

impl TranspositionTable {
    /// A table of `megabytes` MiB (at least one bucket).
    pub fn new(megabytes: usize) -> Result<TranspositionTable, AllocError> {
        let bytes = megabytes.checked_mul(1 << 20).ok_or(AllocError { megabytes })?;
        let buckets = (bytes / (BUCKET * 16)).max(1);
        if let Some(available) = available_memory() {
            // Touching more memory than is free would get the process killed
            // instead of refused; keep a margin for everything else.
            if bytes > available.saturating_sub(available / 8) {
                return Err(AllocError { megabytes });
            }
        }
        let bucket_bytes = std::mem::size_of::<Bucket>();
        let padding = if bytes >= HUGE_PAGE { HUGE_PAGE / bucket_bytes } else { 0 };
        let mut storage = Vec::new();
        storage.try_reserve_exact(buckets + padding).map_err(|_| AllocError { megabytes })?;
        // Buckets before the first huge-page boundary are left unused.
        let address = storage.as_ptr() as usize;
        let start = if padding == 0 {
            0
        } else {
            (address.next_multiple_of(HUGE_PAGE) - address) / bucket_bytes
        };
        if padding != 0 {
            advise_huge_pages(address + start * bucket_bytes, buckets * bucket_bytes);
        }
        // Zeroing touches every page, after the advice: the pages are huge.
        storage.resize_with(start + buckets, || Bucket([const { AtomicU64::new(0) }; 2 * BUCKET]));
        Ok(TranspositionTable { storage, start, age: AtomicU64::new(0) })
    }

    /// The buckets of the table proper.
    #[inline]
    fn table(&self) -> &[Bucket] {
        &self.storage[self.start..]
    }

    /// Size in MiB (rounded down).
    pub fn megabytes(&self) -> usize {
        std::mem::size_of_val(self.table()) >> 20
    }

    /// Empties the table (each word set to zero).
    pub fn clear(&self) {
        for bucket in self.table() {
            for word in &bucket.0 {
                word.store(0, Relaxed);
            }
        }
        self.age.store(0, Relaxed);
    }

    /// Starts a new search generation: older entries become easier to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Relaxed);
    }

    fn current_age(&self) -> u8 {
        (self.age.load(Relaxed) as u8) & AGE_MASK
    }

    /// The bucket of `key` (multiply-shift of the key by the bucket count).
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64; 2 * BUCKET] {
        let table = self.table();
        let index = ((key as u128) * (table.len() as u128)) >> 64;
        &table[index as usize].0
    }

    /// Asks the CPU to bring `key`'s bucket into the cache, so that the
    /// probe a few instructions later (after the move is played and the
    /// child's evaluation started) does not wait for memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let line = self.bucket(key).as_ptr().cast::<i8>();
            // SAFETY: prefetching is a hint that never faults, whatever the
            // address; this one is a live bucket of the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(line) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`; mate scores come back relative to the root for a node
    /// at `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let bucket = self.bucket(key);
        for pair in bucket.chunks_exact(2) {
            let data = pair[1].load(Relaxed);
            if pair[0].load(Relaxed) ^ data == key && data != 0 {
                let (mut entry, _) = unpack(data);
                entry.score = score_from_tt(entry.score, ply);
                return Some(entry);
            }
        }
        None
    }

    /// Writes an entry for `key` found at `ply`.
    pub fn store(&self, key: u64, ply: usize, store: Store) {
        let bucket = self.bucket(key);
        let age = self.current_age();
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        let mut keep_move = 0;
        for (i, pair) in bucket.chunks_exact(2).enumerate() {
            let data = pair[1].load(Relaxed);
            let (old, old_age) = unpack(data);
            if pair[0].load(Relaxed) ^ data == key && data != 0 {
                // A much shallower result for the same position of this search
                // only replaces a deeper one when it is exact.
                let deeper = old.depth > store.depth + 3 && old.bound != Bound::None;
                if store.bound != Bound::Exact && deeper && old_age == age {
                    return;
                }
                victim = i;
                keep_move = old.mv;
                break;
            }
            let distance = (age.wrapping_sub(old_age) & AGE_MASK) as i32;
            let value = if data == 0 { i32::MIN } else { old.depth - 4 * distance };
            if value < victim_value {
                victim_value = value;
                victim = i;
            }
        }
        let mv = if store.mv != 0 { store.mv } else { keep_move };
        let data =
            pack(mv, score_to_tt(store.score, ply), store.eval, store.depth, store.bound, age);
        bucket[victim * 2].store(key ^ data, Relaxed);
        bucket[victim * 2 + 1].store(data, Relaxed);
    }

    /// Per-mille of sampled entries written by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.current_age();
        let sample = (self.table().len() * BUCKET).min(1000);
        if sample == 0 {
            return 0;
        }
        let used = self
            .table()
            .iter()
            .flat_map(|b| b.0.chunks_exact(2))
            .take(sample)
            .filter(|pair| {
                let data = pair[1].load(Relaxed);
                data != 0 && unpack(data).1 == age
            })
            .count();
        (used * 1000 / sample) as u32
    }
}

/// Replaces the table in `slot` by a new, empty one of `megabytes` MiB; on
/// failure the old table stays in place.
pub fn resize(
    slot: &mut std::sync::Arc<TranspositionTable>,
    megabytes: usize,
) -> Result<(), AllocError> {
    *slot = std::sync::Arc::new(TranspositionTable::new(megabytes)?);
    Ok(())
}

/// Asks Linux to back `len` bytes from `address` (a huge-page boundary in
/// a live, not yet touched allocation) with huge pages. Only a hint: where
/// it is refused or unsupported the table works the same, a little slower.
fn advise_huge_pages(address: usize, len: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: the range lies inside an allocation this table owns, and
    // MADV_HUGEPAGE changes only the size of the pages that back it, never
    // its contents or whether it is mapped; a failure is a no-op.
    unsafe {
        libc::madvise(address as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (address, len);
}

/// Free memory in bytes (`MemAvailable` of /proc/meminfo), when known.
fn available_memory() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    kb.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn pack_round_trips_every_field() {
        for &(mv, score, eval, depth, bound) in &[
            (0u16, 0, 0, 0, Bound::None),
            (0xffff, -32000, 32000, 120, Bound::Exact),
            (1234, 77, -5, -7, Bound::Lower),
            (42, -1, 1, 1, Bound::Upper),
        ] {
            let (entry, age) = unpack(pack(mv, score, eval, depth, bound, 63));
            assert_eq!(entry, Entry { mv, score, eval, depth, bound });
            assert_eq!(age, 63);
        }
    }

    #[test]
    fn store_then_probe_with_mate_adjustment() {
        let tt = TranspositionTable::new(1).unwrap();
        let key = 0x1234_5678_9abc_def0;
        // Mate in 3 plies from a node at ply 5: root-relative MATE - 8.
        let score = MATE - 8;
        tt.store(key, 5, Store { mv: 7, score, eval: 10, depth: 4, bound: Bound::Exact });
        let at_same_ply = tt.probe(key, 5).unwrap();
        assert_eq!(at_same_ply.score, score);
        // Reached at ply 3 instead, the same node mates 2 plies sooner from the root.
        assert_eq!(tt.probe(key, 3).unwrap().score, MATE - 6);
        assert_eq!(tt.probe(key ^ 1, 5), None);
        tt.clear();
        assert_eq!(tt.probe(key, 5), None);
    }

    #[test]
    fn torn_entry_reads_as_miss() {
        let tt = TranspositionTable::new(1).unwrap();
        let key = 99;
        tt.store(key, 0, Store { mv: 1, score: 5, eval: 5, depth: 3, bound: Bound::Lower });
        let bucket = tt.bucket(key);
        // Overwrite only the data word, as a racing writer might.
        let slot = (0..BUCKET).find(|i| bucket[i * 2 + 1].load(Relaxed) != 0).unwrap();
        bucket[slot * 2 + 1].store(pack(2, 9, 9, 9, Bound::Exact, 0), Relaxed);
        assert_eq!(tt.probe(key, 0), None);
    }

    #[test]
    fn large_tables_start_on_a_huge_page() {
        for megabytes in [1, 2, 3, 16] {
            let tt = TranspositionTable::new(megabytes).unwrap();
            assert_eq!(tt.megabytes(), megabytes);
            let first = tt.table().as_ptr() as usize;
            assert_eq!(first % HUGE_PAGE == 0, megabytes >= 2, "{megabytes} MB at {first:#x}");
            // Every bucket is reachable and the padding never is.
            assert!(std::ptr::eq(tt.bucket(0), &tt.table()[0].0));
            assert!(std::ptr::eq(tt.bucket(u64::MAX), &tt.table()[tt.table().len() - 1].0));
        }
    }

    #[test]
    fn impossible_size_is_refused() {
        assert!(TranspositionTable::new(usize::MAX / 2).is_err());
        assert!(TranspositionTable::new(1 << 40).is_err());
    }
}
