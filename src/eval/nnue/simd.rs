//! The network's integer kernels: accumulator updates and the output dot
//! products, in a portable version and an AVX2 version. This is the only
//! module of the network with `unsafe`.
//!
//! # How the kernel is chosen
//! At run time: [`Kernel::detect`] asks the CPU once, when a network is
//! loaded (`is_x86_feature_detected!("avx2")`), and the network keeps the
//! answer. A run-time choice (not `cfg(target_feature)`) means one binary
//! built for the generic x86-64 baseline still uses AVX2 where the CPU has
//! it, and a binary built with `-C target-cpu=native` for the final crate
//! only (as OpenBench builds it) is not left on the portable path.
//!
//! The portable kernels are plain loops over fixed-width blocks that the
//! compiler vectorises for the baseline (SSE2 on x86-64). The AVX2
//! accumulator update is the same loop compiled with AVX2 enabled; the AVX2
//! dot products use `std::arch` intrinsics (`vpmaddwd`).
//!
//! # Invariants
//! Accumulator arithmetic wraps (as the SIMD instructions do): a lane's
//! final value is exact whenever it fits `i16`, which [`super::Network::new`]
//! proves for every legal board, whatever the order of adds and subtracts.
//! The dot products' `i32` sums are bounded the same way.

/// Lanes handled per block of the update loop (kept in registers).
const BLOCK: usize = 64;

/// The instruction set the kernels use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Plain Rust, any CPU.
    Portable,
    /// AVX2 (x86-64 only, chosen only when the CPU has it).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// The best kernel this CPU runs.
    pub fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        if is_x86_feature_detected!("avx2") {
            return Kernel::Avx2;
        }
        Kernel::Portable
    }

    /// `dst = src + sum(add) - sum(sub)`, lane by lane (wrapping); `src`
    /// `None` updates `dst` in place. Every slice has the same length.
    #[inline]
    pub fn update(self, dst: &mut [i16], src: Option<&[i16]>, add: &[&[i16]], sub: &[&[i16]]) {
        match self {
            Kernel::Portable => update(dst, src, add, sub),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `Kernel::Avx2` is only made by `detect` after the CPU
            // reported AVX2.
            Kernel::Avx2 => unsafe { update_avx2(dst, src, add, sub) },
        }
    }

    /// The index and distance (set bits of the XOR, summed over the 12
    /// words) of the entry of `boards` nearest to `target`; the first one
    /// on a tie, `(0, u32::MAX)` for no entries. Runs at almost every node,
    /// so the AVX2 kernel uses the CPU's `popcnt` (every AVX2 CPU has it)
    /// where the baseline build emulates it.
    #[inline]
    pub fn nearest(self, boards: &[[u64; 12]], target: &[u64; 12]) -> (usize, u32) {
        match self {
            Kernel::Portable => nearest(boards, target),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`, the CPU has AVX2, hence `popcnt`.
            Kernel::Avx2 => unsafe { nearest_popcnt(boards, target) },
        }
    }

    /// `sum(clamp(acc, 0, qa) * w)`.
    #[inline]
    pub fn clipped_dot(self, acc: &[i16], w: &[i16], qa: i16) -> i32 {
        match self {
            Kernel::Portable => clipped_dot(acc, w, qa),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`, the CPU has AVX2.
            Kernel::Avx2 => unsafe { avx2::dot::<false>(acc, w, qa) },
        }
    }

    /// `sum(clamp(acc, 0, qa)^2 * w)`, with the square formed in `i16`
    /// (the loader checks `qa * qa <= i16::MAX`, so any `i16` weight
    /// works and the output weights' unit is not bounded by `qa`).
    #[inline]
    pub fn squared_dot(self, acc: &[i16], w: &[i16], qa: i16) -> i32 {
        match self {
            Kernel::Portable => squared_dot(acc, w, qa),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `update`, the CPU has AVX2.
            Kernel::Avx2 => unsafe { avx2::dot::<true>(acc, w, qa) },
        }
    }
}

#[inline(always)]
fn update(dst: &mut [i16], src: Option<&[i16]>, add: &[&[i16]], sub: &[&[i16]]) {
    let whole = dst.len() / BLOCK * BLOCK;
    // Whole blocks as fixed-size arrays: the compiler keeps one block in
    // registers while every row is added, with no copy through memory.
    for start in (0..whole).step_by(BLOCK) {
        let block = start..start + BLOCK;
        let mut lanes: [i16; BLOCK] = match src {
            Some(src) => lanes_of(&src[block.clone()]),
            None => lanes_of(&dst[block.clone()]),
        };
        for row in add {
            let row = lanes_of(&row[block.clone()]);
            for (l, w) in lanes.iter_mut().zip(row) {
                *l = l.wrapping_add(w);
            }
        }
        for row in sub {
            let row = lanes_of(&row[block.clone()]);
            for (l, w) in lanes.iter_mut().zip(row) {
                *l = l.wrapping_sub(w);
            }
        }
        dst[block].copy_from_slice(&lanes);
    }
    // The lanes after the last whole block (the hidden size is a multiple
    // of 16, not always of `BLOCK`).
    let n = dst.len() - whole;
    if n == 0 {
        return;
    }
    let mut lanes = [0i16; BLOCK];
    match src {
        Some(src) => lanes[..n].copy_from_slice(&src[whole..]),
        None => lanes[..n].copy_from_slice(&dst[whole..]),
    }
    for row in add {
        for (l, w) in lanes.iter_mut().zip(&row[whole..]) {
            *l = l.wrapping_add(*w);
        }
    }
    for row in sub {
        for (l, w) in lanes.iter_mut().zip(&row[whole..]) {
            *l = l.wrapping_sub(*w);
        }
    }
    dst[whole..].copy_from_slice(&lanes[..n]);
}

/// One block of lanes as an array (`slice` is exactly [`BLOCK`] long).
#[inline(always)]
fn lanes_of(slice: &[i16]) -> [i16; BLOCK] {
    let mut lanes = [0; BLOCK];
    lanes.copy_from_slice(slice);
    lanes
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn update_avx2(dst: &mut [i16], src: Option<&[i16]>, add: &[&[i16]], sub: &[&[i16]]) {
    update(dst, src, add, sub)
}

#[inline(always)]
fn nearest(boards: &[[u64; 12]], target: &[u64; 12]) -> (usize, u32) {
    let mut best = (0, u32::MAX);
    for (i, b) in boards.iter().enumerate() {
        let d: u32 = b.iter().zip(target).map(|(a, t)| (a ^ t).count_ones()).sum();
        if d < best.1 {
            best = (i, d);
        }
    }
    best
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn nearest_popcnt(boards: &[[u64; 12]], target: &[u64; 12]) -> (usize, u32) {
    nearest(boards, target)
}

#[inline(always)]
fn clipped_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    acc.iter().zip(w).map(|(&a, &w)| i32::from(a.clamp(0, qa)) * i32::from(w)).sum()
}

#[inline(always)]
fn squared_dot(acc: &[i16], w: &[i16], qa: i16) -> i32 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let v = a.clamp(0, qa);
            i32::from(v.wrapping_mul(v)) * i32::from(w)
        })
        .sum()
}

#[cfg(target_arch = "x86_64")]
mod avx2 {
    use std::arch::x86_64::*;

    /// The clipped (`SQUARED = false`) or squared clipped dot product of
    /// `acc` and `w` over their common length, rounded down to 16 lanes
    /// (callers pass multiples of 16).
    #[target_feature(enable = "avx2")]
    pub(super) fn dot<const SQUARED: bool>(acc: &[i16], w: &[i16], qa: i16) -> i32 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(qa);
        let mut sum = _mm256_setzero_si256();
        for (a, w) in acc.chunks_exact(16).zip(w.chunks_exact(16)) {
            // SAFETY: each chunk is exactly 16 `i16`, 32 bytes, and the
            // loads are unaligned.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(a.as_ptr().cast::<__m256i>()),
                    _mm256_loadu_si256(w.as_ptr().cast::<__m256i>()),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            let product = if SQUARED {
                _mm256_madd_epi16(_mm256_mullo_epi16(v, v), w)
            } else {
                _mm256_madd_epi16(v, w)
            };
            sum = _mm256_add_epi32(sum, product);
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256::<1>(sum));
        let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        let one = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn noise(n: usize, seed: u64, range: i16) -> Vec<i16> {
        let mut s = seed;
        (0..n)
            .map(|_| {
                crate::rng::xorshift64(&mut s);
                (s % (2 * range as u64 + 1)) as i16 - range
            })
            .collect()
    }

    fn rows_sum(rows: &[Vec<i16>]) -> Vec<i16> {
        (0..rows[0].len())
            .map(|i| rows[0][i] + rows[1][i] + rows[2][i] - rows[3][i] - rows[4][i])
            .collect()
    }

    #[test]
    fn every_kernel_computes_the_same() {
        let best = Kernel::detect();
        for h in [16, 48, 80, 256] {
            let acc = noise(h, 1, 400);
            // Weights beyond 181 would overflow the old `v * w` in `i16`.
            let w = noise(h, 2, 250);
            assert_eq!(best.clipped_dot(&acc, &w, 181), clipped_dot(&acc, &w, 181));
            assert_eq!(best.squared_dot(&acc, &w, 181), squared_dot(&acc, &w, 181));
            let rows: Vec<Vec<i16>> = (0..5).map(|i| noise(h, 10 + i, 300)).collect();
            let (add, sub): (Vec<&[i16]>, Vec<&[i16]>) = (
                rows[..3].iter().map(|r| &r[..]).collect(),
                rows[3..].iter().map(|r| &r[..]).collect(),
            );
            let (mut fast, mut slow) = (vec![0; h], vec![0; h]);
            best.update(&mut fast, Some(&acc), &add, &sub);
            update(&mut slow, Some(&acc), &add, &sub);
            assert_eq!(fast, slow);
            best.update(&mut fast, None, &[], &[&acc]);
            assert_eq!(fast, rows_sum(&rows));
            let expected: Vec<i16> = (0..h)
                .map(|i| acc[i] + rows[0][i] + rows[1][i] + rows[2][i] - rows[3][i] - rows[4][i])
                .collect();
            assert_eq!(slow, expected);
        }
        let boards: Vec<[u64; 12]> = (0..16u64)
            .map(|i| std::array::from_fn(|k| (i * 0x9E37_79B9_7F4A_7C15).rotate_left(k as u32)))
            .collect();
        let mut target = boards[11];
        target[3] ^= 0b101;
        assert_eq!(best.nearest(&boards, &target), (11, 2));
        assert_eq!(best.nearest(&boards, &target), nearest(&boards, &target));
        assert_eq!(best.nearest(&[], &target), (0, u32::MAX));
        let acc = [-5, 0, 3, 200, 181, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        let w = [1; 16];
        assert_eq!(Kernel::Portable.clipped_dot(&acc, &w, 181), 3 + 181 + 181 + 7 + 55);
    }
}
