//! The network's inner loops: adding and subtracting feature columns to
//! an accumulator half, and the output layer. The output layer has a
//! portable scalar path and, on x86-64 CPUs with AVX2 (detected at run
//! time), an AVX2 path, about 3.6 times as fast (`cargo bench --bench
//! nnue`, docs/nnue.md). All arithmetic is integer and wrapping, so the
//! two paths give bit-identical results (the tests check it on positions
//! and on extreme values): wrapping sums do not depend on the order of the
//! additions. The one-pass child update of a move ([`add_sub_into`], run
//! for every node searched) has an AVX2 path too, on aligned halves; the
//! single-column [`add`] and [`sub`], which only refreshes use, are plain
//! loops the compiler vectorises.

use super::network::{HIDDEN, OUTPUT_FITS_I16, OUTPUT_WEIGHTS, QA};

/// One accumulator half: the `HIDDEN` sums of one perspective.
pub type Half = [i16; HIDDEN];

/// Whether this CPU runs the AVX2 paths (std caches the answer).
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
/// version measured no faster (docs/nnue.md), so there is only this one:
/// it runs in refreshes, not in the per-move update ([`add_sub_into`]).
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
/// Runs `add_sub_into_avx2` on CPUs with AVX2 (1.4 to 1.8 times as fast,
/// `cargo bench --bench nnue`), otherwise [`add_sub_into_scalar`]; both
/// give the same bits.
#[inline(always)]
pub fn add_sub_into(dst: &mut Half, src: &Half, added: &[&Half], removed: &[&Half]) {
    #[cfg(target_arch = "x86_64")]
    if has_avx2() {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { add_sub_into_avx2(dst, src, added, removed) };
    }
    add_sub_into_scalar(dst, src, added, removed);
}

/// The portable [`add_sub_into`]: plain loops the compiler vectorises for
/// the build's baseline.
#[inline(always)]
pub fn add_sub_into_scalar(dst: &mut Half, src: &Half, added: &[&Half], removed: &[&Half]) {
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

/// Whether `lanes` starts on a 32-byte boundary, where the AVX2 paths may
/// load and store aligned.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn aligned(lanes: &[i16]) -> bool {
    lanes
        .as_ptr()
        .cast::<std::arch::x86_64::__m256i>()
        .is_aligned()
}

/// [`add_sub_into`] with AVX2: 16 lanes an instruction, each lane a
/// wrapping `i16` add or subtract like the scalar path's, for the three
/// shapes a move has (quiet, capture, castling); any other shape goes to
/// [`add_sub_into_scalar`].
///
/// It uses aligned loads and stores. The build's baseline tunes for CPUs
/// on which an unaligned 32-byte access is slow, so the compiler splits
/// every unaligned one into two 16-byte halves, which leaves the AVX2 path
/// with as many instructions as the SSE loops (measured: 0.3 % fewer
/// instructions a node at N = 256). Every half the engine passes here is
/// 32-byte aligned (accumulators and feature columns are 64-byte aligned
/// arrays of halves of `HIDDEN` = 16·k lanes, 32·k bytes); a misaligned
/// half, possible from other callers, takes the scalar path.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn add_sub_into_avx2(dst: &mut Half, src: &Half, added: &[&Half], removed: &[&Half]) {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    if !(aligned(dst)
        && aligned(src)
        && added.iter().all(|x| aligned(*x))
        && removed.iter().all(|x| aligned(*x)))
    {
        return add_sub_into_scalar(dst, src, added, removed);
    }
    // Lanes i..i + 16 of a half. `HIDDEN` is a multiple of 16 (the file
    // format demands it and the build script's parse checks it), so the
    // slice is always in bounds and the compiler drops the check.
    let load = |x: &Half, i: usize| {
        let lanes = &x[i..i + LANES];
        // SAFETY: `lanes` holds 16 i16 (32 bytes) and starts 32·k bytes
        // into a half that is 32-byte aligned (checked above).
        unsafe { _mm256_load_si256(lanes.as_ptr().cast()) }
    };
    let store = |x: &mut Half, i: usize, v: __m256i| {
        let lanes = &mut x[i..i + LANES];
        // SAFETY: as in `load`: 32 writable bytes, 32-byte aligned.
        unsafe { _mm256_store_si256(lanes.as_mut_ptr().cast(), v) }
    };
    match (added, removed) {
        ([a], [r]) => {
            for i in (0..HIDDEN).step_by(LANES) {
                let v = _mm256_add_epi16(load(src, i), load(a, i));
                store(dst, i, _mm256_sub_epi16(v, load(r, i)));
            }
        }
        ([a], [r0, r1]) => {
            for i in (0..HIDDEN).step_by(LANES) {
                let v = _mm256_add_epi16(load(src, i), load(a, i));
                let v = _mm256_sub_epi16(v, load(r0, i));
                store(dst, i, _mm256_sub_epi16(v, load(r1, i)));
            }
        }
        ([a0, a1], [r0, r1]) => {
            for i in (0..HIDDEN).step_by(LANES) {
                let v = _mm256_add_epi16(load(src, i), load(a0, i));
                let v = _mm256_add_epi16(v, load(a1, i));
                let v = _mm256_sub_epi16(v, load(r0, i));
                store(dst, i, _mm256_sub_epi16(v, load(r1, i)));
            }
        }
        _ => add_sub_into_scalar(dst, src, added, removed),
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
    let (ours, theirs) = OUTPUT_WEIGHTS.0[bucket].split_at(HIDDEN);
    // The engine's halves and the output weights are 32-byte aligned
    // (see `add_sub_into_avx2`, whose reason holds here too); others take
    // unaligned loads.
    if aligned(us) && aligned(them) && aligned(ours) && aligned(theirs) {
        // SAFETY: the CPU has AVX2 (this function's contract), and every
        // slice was just checked to be 32-byte aligned.
        unsafe { output_sum_avx2_loads::<true>(us, them, ours, theirs) }
    } else {
        // SAFETY: the CPU has AVX2 (this function's contract).
        unsafe { output_sum_avx2_loads::<false>(us, them, ours, theirs) }
    }
}

/// The body of [`output_sum_avx2`], with aligned loads if `ALIGNED`.
///
/// # Safety
/// The CPU must support AVX2, and with `ALIGNED` every slice must start
/// on a 32-byte boundary.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn output_sum_avx2_loads<const ALIGNED: bool>(
    us: &Half,
    them: &Half,
    ours: &[i16],
    theirs: &[i16],
) -> i32 {
    use std::arch::x86_64::*;
    const LANES: usize = 16;
    let zero = _mm256_setzero_si256();
    let qa = _mm256_set1_epi16(QA as i16);
    let mut sum = _mm256_setzero_si256();
    let load = |lanes: &[i16]| {
        debug_assert_eq!(lanes.len(), LANES);
        let at = lanes.as_ptr().cast();
        // SAFETY: `lanes` holds 16 i16 (32 bytes); an aligned load only
        // when the caller vouched for 32-byte alignment (chunks of 32
        // bytes keep it).
        unsafe {
            if ALIGNED {
                _mm256_load_si256(at)
            } else {
                _mm256_loadu_si256(at)
            }
        }
    };
    for (values, weights) in [(&us[..], ours), (&them[..], theirs)] {
        for (x, w) in values.chunks_exact(LANES).zip(weights.chunks_exact(LANES)) {
            let (x, w) = (load(x), load(w));
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
    use super::super::network::{Aligned, OUTPUT_BUCKETS};
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
        // Aligned halves (the engine's, aligned loads) and a copy one lane
        // off (unaligned loads).
        let halves: Vec<Aligned<Half>> = extreme_halves().into_iter().map(Aligned).collect();
        let mut shifted = Aligned([0i16; HIDDEN + 1]);
        for Aligned(us) in &halves {
            shifted.0[1..].copy_from_slice(us);
            let misaligned: &Half = (&shifted.0[1..]).try_into().expect("HIDDEN lanes");
            for Aligned(them) in halves.iter().step_by(7) {
                for bucket in 0..OUTPUT_BUCKETS {
                    let expected = output_sum_scalar(us, them, bucket);
                    assert_eq!(output_sum(us, them, bucket), expected);
                    assert_eq!(output_sum(misaligned, them, bucket), expected);
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
        // 32-byte aligned halves, like the engine's, so that the AVX2 path
        // runs where the CPU has it; the scalar path must give the same
        // bits, and so must a misaligned destination (the fallback).
        let halves: Vec<Aligned<Half>> = extreme_halves().into_iter().map(Aligned).collect();
        let mut shifted = Aligned([0i16; HIDDEN + 1]);
        for (k, src) in halves.iter().enumerate() {
            let pick = |offset: usize| &halves[(k * 7 + offset) % halves.len()].0;
            for (added, removed) in [(1, 1), (1, 2), (2, 2), (0, 1), (1, 0), (2, 1)] {
                let on: Vec<&Half> = (0..added).map(|i| pick(i + 1)).collect();
                let off: Vec<&Half> = (0..removed).map(|i| pick(i + 3)).collect();
                let mut expected = src.0;
                for column in &on {
                    add(&mut expected, column);
                }
                for column in &off {
                    sub(&mut expected, column);
                }
                let mut dst = Aligned([0i16; HIDDEN]);
                add_sub_into(&mut dst.0, &src.0, &on, &off);
                assert_eq!(dst.0, expected, "{added} on, {removed} off");
                let mut scalar = Aligned([0i16; HIDDEN]);
                add_sub_into_scalar(&mut scalar.0, &src.0, &on, &off);
                assert_eq!(scalar.0, dst.0, "scalar, {added} on, {removed} off");
                let misaligned: &mut Half = (&mut shifted.0[1..]).try_into().unwrap();
                add_sub_into(misaligned, &src.0, &on, &off);
                assert_eq!(
                    *misaligned, expected,
                    "misaligned, {added} on, {removed} off"
                );
            }
        }
    }
}
