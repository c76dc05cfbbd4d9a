//! FNV-1a, 64-bit: the one hash behind the book's keys and checksum, the
//! endgame tables' checksum and the training data's resume check.
//!
//! Invariant: the constants are FNV's published 64-bit offset basis and
//! prime, so every file written with them (books, tables) keeps its
//! checksum. The nets' and pattern files' 32-bit checksum is
//! `eval::nnue::network::fnv1a`.

/// The offset basis: the hash of no bytes, where a hash starts.
pub const FNV1A64_START: u64 = 0xCBF2_9CE4_8422_2325;

/// FNV-1a over `bytes`, going on from `hash` ([`FNV1A64_START`] to begin):
/// `fnv1a64(fnv1a64(FNV1A64_START, a), b)` is the hash of `a` then `b`.
pub fn fnv1a64(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_test_vectors() {
        // From the FNV reference (draft-eastlake-fnv): "", "a", "foobar".
        assert_eq!(fnv1a64(FNV1A64_START, b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(FNV1A64_START, b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(FNV1A64_START, b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn it_goes_on_across_pieces() {
        let whole = fnv1a64(FNV1A64_START, b"foobar");
        assert_eq!(fnv1a64(fnv1a64(FNV1A64_START, b"foo"), b"bar"), whole);
        assert_ne!(fnv1a64(FNV1A64_START, b"fooba"), whole);
    }
}
