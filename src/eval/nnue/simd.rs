//! The network's inner loops: adding and subtracting feature columns to
//! an accumulator half, and the output layer. The output layer has a
//! portable scalar path and, on x86-64 CPUs with AVX2 (detected at run
//! time), an AVX2 path, about 3.6 times as fast (`cargo bench --bench
//! nnue`, docs/nnue.md). All arithmetic is integer and wrapping, so the
//! two paths give bit-identical results (the tests check it on positions
//! and on extreme values): wrapping sums do not depend on the order of the
//! additions. The column updates are plain loops the compiler vectorises;
//! an AVX2 build of them measured no faster.

use super::network::{HIDDEN, OUTPUT_FITS_I16, OUTPUT_WEIGHTS, QA};

/// One accumulator half: the `HIDDEN` sums of one perspective.
pub type Half = [i16; HIDDEN];

/// Whether this CPU runs the AVX2 output layer (std caches the answer).
#[inline(always)]
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// `acc += column`, lane by lane, wrapping. A plain loop: the compiler
/// vectorises it for the build's baseline (SSE2 and up), and an AVX2
/// version measured no faster (docs/nnue.md), so there is only this one.
#[inline(always)]
pub fn add(acc: &mut Half, column: &Half) {
    for (a, w) in acc.iter_mut().zip(column) {
        *a = a.wrapping_add(*w);
    }
}

/// `acc -= column`, lane by lane, wrapping (see [`add`]).
#[inline(always)]
pub fn sub(acc: &mut Half, column: &Half) {
    for (a, w) in acc.iter_mut().zip(column) {
        *a = a.wrapping_sub(*w);
    }
}

/// `dst = src + added - removed`, lane by lane, wrapping, in one pass:
/// the child accumulator of a move written straight from its parent's,
/// instead of copying the parent and then adding and subtracting one
/// column at a time (each a pass of its own). Wrapping sums do not depend
/// on the order of the additions, so the result is bit for bit the same.
#[inline(always)]
pub fn add_sub_into(dst: &mut Half, src: &Half, added: &[&Half], removed: &[&Half]) {
    match (added, removed) {
        // A quiet move or a promotion: one feature off, one on.
        ([a], [r]) => {
            for i in 0..dst.len() {
                dst[i] = src[i].wrapping_add(a[i]).wrapping_sub(r[i]);
            }
        }
        // A capture: the mover moves, the victim leaves.
        ([a], [r0, r1]) => {
            for i in 0..dst.len() {
                dst[i] = src[i]
                    .wrapping_add(a[i])
                    .wrapping_sub(r0[i])
                    .wrapping_sub(r1[i]);
            }
        }
        // Castling: king and rook both move.
        ([a0, a1], [r0, r1]) => {
            for i in 0..dst.len() {
                dst[i] = src[i]
                    .wrapping_add(a0[i])
                    .wrapping_add(a1[i])
                    .wrapping_sub(r0[i])
                    .wrapping_sub(r1[i]);
            }
        }
        _ => {
            *dst = *src;
            for column in added {
                add(dst, column);
            }
            for column in removed {
                sub(dst, column);
            }
        }
    }
}

/// The output layer of output bucket `bucket` before scaling: `Σ
/// act(us[i])·out[bucket][i] + Σ act(them[i])·out[bucket][N + i]`, with
/// `act(x) = clamp(x, 0, QA)²`, as an `i32` wrapping sum (the file
/// format's formula).
///
/// # Panics
/// If `bucket` is not below [`OUTPUT_BUCKETS`](super::network::OUTPUT_BUCKETS).
#[inline]
pub fn output_sum(us: &Half, them: &Half, bucket: usize) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { output_sum_avx2(us, them, bucket) };
    }
    output_sum_scalar(us, them, bucket)
}

/// The portable [`output_sum`].
pub fn output_sum_scalar(us: &Half, them: &Half, bucket: usize) -> i32 {
    let (ours, theirs) = OUTPUT_WEIGHTS.0[bucket].split_at(HIDDEN);
    let mut sum = 0i32;
    for (values, weights) in [(us, ours), (them, theirs)] {
        for (&x, &w) in values.iter().zip(weights) {
            let v = i32::from(x).clamp(0, QA);
            // v² ≤ 255² and |w| ≤ 2¹⁵: the product fits an i32 exactly.
            sum = sum.wrapping_add(v * v * i32::from(w));
        }
    }
    sum
}

/// [`output_sum`] with AVX2. When every `v·w` fits 16 bits
/// ([`OUTPUT_FITS_I16`]) it multiplies `v·w` in 16 bits and then by `v`
/// with `madd` (16 products per instruction); otherwise it widens to 32
/// bits first. Both give exactly `v²·w` per lane.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_sum_avx2(us: &Half, them: &Half, bucket: usize) -> i32 {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    let (ours, theirs) = OUTPUT_WEIGHTS.0[bucket].split_at(HIDDEN);
    for (values, weights) in [(us, ours), (them, theirs)] {
        for (x, w) in values.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
            // SAFETY: both chunks hold exactly 16 i16 (32 bytes); the
            // loads are unaligned loads, so no alignment is assumed.
            let (x, w) = unsafe {
                (
                    _mm256_loadu_si256(x.as_ptr().cast()),
                    _mm256_loadu_si256(w.as_ptr().cast()),
                )
            };
            let v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            if OUTPUT_FITS_I16 {
                let vw = _mm256_mullo_epi16(v, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(vw, v));
            } else {
                for (v, w) in [
                    (
                        _mm256_cvtepi16_epi32(_mm256_castsi256_si128(v)),
                        _mm256_cvtepi16_epi32(_mm256_castsi256_si128(w)),
                    ),
                    (
                        _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(v)),
                        _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(w)),
                    ),
                ] {
                    let vv = _mm256_mullo_epi32(v, v);
                    sum = _mm256_add_epi32(sum, _mm256_mullo_epi32(vv, w));
                }
            }
        }
    }
    let halves = _mm_add_epi32(
        _mm256_castsi256_si128(sum),
        _mm256_extracti128_si256::<1>(sum),
    );
    let pairs = _mm_add_epi32(halves, _mm_shuffle_epi32::<0b01_00_11_10>(halves));
    let one = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b10_11_00_01>(pairs));
    _mm_cvtsi128_si32(one)
}

#[cfg(test)]
mod tests {
    use super::super::network::OUTPUT_BUCKETS;
    use super::*;

    /// Halves that reach every clamp: far below zero, zero, inside, QA,
    /// above QA and the i16 extremes.
    fn extreme_halves() -> Vec<Half> {
        let mut out = Vec::new();
        let mut rng = crate::rng::Rng::new(7);
        for fill in [i16::MIN, -1, 0, 1, QA as i16, i16::MAX] {
            out.push([fill; HIDDEN]);
        }
        for _ in 0..64 {
            let mut h = [0i16; HIDDEN];
            for x in &mut h {
                *x = rng.next_u64() as i16 >> (rng.below(16) as u32);
            }
            out.push(h);
        }
        out
    }

    #[test]
    fn simd_and_scalar_kernels_agree_bit_for_bit() {
        let halves = extreme_halves();
        for us in &halves {
            for them in halves.iter().step_by(7) {
                for bucket in 0..OUTPUT_BUCKETS {
                    assert_eq!(
                        output_sum(us, them, bucket),
                        output_sum_scalar(us, them, bucket)
                    );
                }
                let mut a = *us;
                add(&mut a, them);
                sub(&mut a, them);
                assert_eq!(a, *us);
            }
        }
    }

    #[test]
    fn the_one_pass_update_equals_copy_add_and_sub() {
        let halves = extreme_halves();
        for (k, src) in halves.iter().enumerate() {
            let pick = |offset: usize| &halves[(k * 7 + offset) % halves.len()];
            for (added, removed) in [(1, 1), (1, 2), (2, 2), (0, 1), (1, 0), (2, 1)] {
                let on: Vec<&Half> = (0..added).map(|i| pick(i + 1)).collect();
                let off: Vec<&Half> = (0..removed).map(|i| pick(i + 3)).collect();
                let mut expected = *src;
                for column in &on {
                    add(&mut expected, column);
                }
                for column in &off {
                    sub(&mut expected, column);
                }
                let mut dst = [0i16; HIDDEN];
                add_sub_into(&mut dst, src, &on, &off);
                assert_eq!(dst, expected, "{added} on, {removed} off");
            }
        }
    }
}
