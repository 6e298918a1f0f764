//! A cache hint: ask the CPU to start loading a table entry that is about
//! to be read, so the read does not stall on main memory.
//!
//! The search makes a move, then (a few hundred instructions later, after
//! the child's draw checks and bookkeeping) probes the transposition table
//! and the evaluation cache with the child's key. Both are too large to
//! stay in the core's caches, and in a profile the transposition-table load
//! alone was half of `negamax`'s own time. Prefetching with the key the
//! move will produce (`Board::key_after`), before the move is made,
//! overlaps those loads with making the move and the work after it.

/// Hints the CPU to fetch the cache line holding `item` (no effect on
/// architectures without a prefetch intrinsic here).
#[inline(always)]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let address: *const T = item;
        // SAFETY: a prefetch is only a hint: it never faults and changes no
        // memory or architectural state, whatever the address (and this one
        // comes from a reference, so it is valid). SSE, which provides the
        // instruction, is part of every x86-64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address.cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
