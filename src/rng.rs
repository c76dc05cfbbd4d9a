//! Crown's pseudo-random numbers: every generator of the workspace, in one
//! place. No dependency, no global state: a caller owns its `u64` state or
//! its [`Rng`], so the same seed gives the same numbers on every machine.
//!
//! Three algorithms, each kept because outputs that must never change come
//! from it:
//!
//! | function | algorithm | whose outputs are fixed |
//! |---|---|---|
//! | [`splitmix64`], [`mix64`], [`Rng`] | SplitMix64 (Steele, Lea and Flood, 2014): add the golden gamma, then a 64-bit finaliser | chess Zobrist keys (`chess/zobrist.rs`) and draughts Zobrist keys (`draughts/position.rs`), both `const` tables; the match runner's random openings and book shuffles (a resumed match re-derives them from `--seed` and checks them); `crown-tune datagen` games per seed; the tuners' shuffles; OpenBench `genfens` lists |
//! | [`xorshift64`] | Marsaglia's xorshift, shifts 13, 7, 17 | `game::random_playout`, which places the `bench` positions (the node count is the commit signature); the network trainer's initial weights and sample order; test data |
//! | [`xorshift64_star`] | Vigna's xorshift64*: shifts 12, 25, 27 and a multiply by `0x2545_F491_4F6C_DD1D` | the magic-number search of `chess/attacks.rs` (its stored magics were found with it); test data |
//!
//! The search's level play (`search/level.rs`, `mix`) computes the same
//! function as [`mix64`].
//!
//! Invariants: these functions are bit-exact forever. Changing one changes
//! the bench signature, every hash key, the stored magics, or the openings
//! of every seeded match and data file; add a new function instead. The
//! `const fn`s build compile-time tables; none of them allocates or panics.

/// The golden-ratio increment of SplitMix64 (2^64 / φ, odd).
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output for one value: `x` plus [`GOLDEN_GAMMA`], then the
/// finaliser. This is the first output of a [`splitmix64`] stream seeded
/// with `x`, and a well-mixed hash of any 64-bit input.
pub const fn mix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN_GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step: the next output of the stream whose state is
/// `state`, which advances by [`GOLDEN_GAMMA`]. `const`, for the Zobrist
/// tables.
pub const fn splitmix64(state: &mut u64) -> u64 {
    let out = mix64(*state);
    *state = state.wrapping_add(GOLDEN_GAMMA);
    out
}

/// One xorshift64 step (shifts 13, 7, 17): updates `state` and returns it.
/// A zero state stays zero, so seed it with a non-zero value.
pub const fn xorshift64(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// One xorshift64* step (shifts 12, 25, 27): updates `state` and returns
/// it times `0x2545_F491_4F6C_DD1D`. A zero state stays zero.
pub const fn xorshift64_star(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// A seeded SplitMix64 generator with the helpers the runner, the data
/// generator and the tuners use. Any seed works, zero included.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        splitmix64(&mut self.0)
    }

    /// A number below `n` (`n` = 0 counts as 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    /// One element of `items` (which must not be empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next_u64() % items.len() as u64) as usize]
    }

    /// Shuffles a slice (Fisher–Yates, from the back).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference outputs: a change here changes the bench signature,
    /// the hash keys, the magics or every seeded match.
    #[test]
    fn outputs_are_fixed() {
        // SplitMix64 from seed 0: the published test vector.
        let mut s = 0;
        assert_eq!(splitmix64(&mut s), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(&mut s), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(mix64(0), 0xE220_A839_7B1D_CDAF);
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        // xorshift64 and xorshift64* from seed 1.
        let mut x = 1;
        assert_eq!(xorshift64(&mut x), 0x0000_0000_4082_2041);
        assert_eq!(x, 0x0000_0000_4082_2041);
        let mut y = 1;
        assert_eq!(xorshift64_star(&mut y), 0x47E4_CE4B_896C_DD1D);
        assert_eq!(y, 0x0000_0000_0200_0001);
    }

    #[test]
    fn shuffle_keeps_the_elements() {
        let mut rng = Rng::new(1);
        let mut v = [1, 2, 3, 4, 5];
        rng.shuffle(&mut v);
        v.sort_unstable();
        assert_eq!(v, [1, 2, 3, 4, 5]);
    }
}
