//! The transposition table: a hash table of search results keyed by Zobrist
//! key, shared by every iteration and every search of a game.
//!
//! Layout: buckets of four 64-bit entries (32 bytes, two buckets per cache
//! line). An entry packs
//!
//! ```text
//! bits  0..16  verification key (low 16 bits of the Zobrist key)
//! bits 16..32  best move (raw 16-bit move, 0 = none)
//! bits 32..48  score (i16, mate scores relative to this node)
//! bits 48..56  depth (u8, plies of remaining depth, +1 so 0 marks empty)
//! bits 56..58  bound (lower / upper / exact)
//! bits 58..64  generation (age of the search that stored it, mod 64)
//! ```
//!
//! The bucket index comes from the *high* bits of the key (a multiply-shift,
//! so any bucket count works) and the verification bits from the low bits, so
//! the two are independent. A 16-bit check still lets through about one false
//! hit in 16,000 probes of a full table: the search only uses a stored move
//! after finding it among the legal moves of the position.
//!
//! The memory comes from the allocator's zeroed allocation: the operating
//! system hands out zero pages on first touch, so creating (or clearing,
//! which re-allocates) even a large table costs no initialisation loop. The
//! allocation is fallible: when a size cannot be had, the table halves it
//! until it can, rather than aborting the process.

use crate::eval::score::{MATE_BOUND, Score};

/// How a stored score relates to the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a fail-high).
    Lower = 1,
    /// The true value is at most the score (a fail-low).
    Upper = 2,
    /// The score is exact (a PV node).
    Exact = 3,
}

/// One probe result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Raw best move (0 = none).
    pub mv: u16,
    /// Score, already adjusted to the probing node's ply.
    pub score: Score,
    /// Remaining depth the score was searched with.
    pub depth: i32,
    /// Bound type of the score.
    pub bound: Bound,
}

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = ENTRIES_PER_BUCKET * 8;
const GENERATION_MASK: u8 = 0x3F;

/// The transposition table.
#[derive(Debug)]
pub struct TranspositionTable {
    entries: Vec<u64>,
    buckets: usize,
    generation: u8,
}

impl TranspositionTable {
    /// A table of `mib` mebibytes, all empty; if that much memory cannot be
    /// had, the largest power-of-two fraction of it that can (at least one
    /// bucket). [`size_mib`](Self::size_mib) tells what was allocated.
    pub fn new(mib: u64) -> Self {
        let bytes = usize::try_from(mib.max(1))
            .unwrap_or(usize::MAX / 2)
            .saturating_mul(1 << 20);
        let mut buckets = (bytes / BUCKET_BYTES).max(1);
        loop {
            if let Some(entries) = zeroed_words(buckets * ENTRIES_PER_BUCKET) {
                return Self {
                    entries,
                    buckets,
                    generation: 0,
                };
            }
            if buckets == 1 {
                // Not even 32 bytes: nothing sensible is left to do.
                std::alloc::handle_alloc_error(
                    std::alloc::Layout::new::<[u64; ENTRIES_PER_BUCKET]>(),
                );
            }
            buckets /= 2;
        }
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> u64 {
        ((self.buckets * BUCKET_BYTES) >> 20) as u64
    }

    /// Empties the table (by re-allocating zeroed memory, falling back to
    /// writing zeros if the allocation fails).
    pub fn clear(&mut self) {
        let n = self.entries.len();
        self.entries = Vec::new();
        self.entries = zeroed_words(n).unwrap_or_else(|| vec![0; n]);
        self.generation = 0;
    }

    /// Starts a new search: entries from older searches become preferred
    /// victims for replacement.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GENERATION_MASK;
    }

    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key's high bits uniformly onto 0..buckets.
        let index = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        index * ENTRIES_PER_BUCKET
    }

    /// Hints the CPU to fetch the bucket of `key` (call before make_move's
    /// child probe). Without a portable intrinsic this reads one word.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let _ = self.entries.get(self.bucket(key));
    }

    /// Looks `key` up; `ply` converts stored mate scores back to this node.
    pub fn probe(&self, key: u64, ply: i32) -> Option<TtHit> {
        let start = self.bucket(key);
        let check = key as u16;
        self.entries[start..start + ENTRIES_PER_BUCKET]
            .iter()
            .find(|&&e| e != 0 && e as u16 == check)
            .and_then(|&e| {
                let bound = match (e >> 56) as u8 & 3 {
                    1 => Bound::Lower,
                    2 => Bound::Upper,
                    3 => Bound::Exact,
                    _ => return None,
                };
                Some(TtHit {
                    mv: (e >> 16) as u16,
                    score: score_from_tt(i32::from((e >> 32) as u16 as i16), ply),
                    depth: i32::from((e >> 48) as u8) - 1,
                    bound,
                })
            })
    }

    /// Stores a result. Replaces the same position's entry (keeping its move
    /// when the new result has none), otherwise the entry with the least
    /// depth, older searches' entries first.
    pub fn store(&mut self, key: u64, mv: u16, score: Score, depth: i32, bound: Bound, ply: i32) {
        let start = self.bucket(key);
        let check = key as u16;
        let generation = self.generation;
        let bucket = &mut self.entries[start..start + ENTRIES_PER_BUCKET];

        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, &e) in bucket.iter().enumerate() {
            if e == 0 || e as u16 == check {
                victim = i;
                break;
            }
            let age = i32::from(generation.wrapping_sub((e >> 58) as u8) & GENERATION_MASK);
            let worth = i32::from((e >> 48) as u8) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }

        let old = bucket[victim];
        let same = old != 0 && old as u16 == check;
        if same {
            // Keep a deeper result for the same position unless the new one
            // is exact or the old one is from an earlier search.
            let old_depth = i32::from((old >> 48) as u8) - 1;
            let old_generation = (old >> 58) as u8;
            if bound != Bound::Exact && old_generation == generation && depth + 3 < old_depth {
                return;
            }
        }
        let mv = if mv == 0 && same {
            (old >> 16) as u16
        } else {
            mv
        };
        let stored = score_to_tt(score, ply) as i16 as u16;
        let depth_byte = (depth + 1).clamp(1, 255) as u64;
        bucket[victim] = u64::from(check)
            | u64::from(mv) << 16
            | u64::from(stored) << 32
            | depth_byte << 48
            | (bound as u64) << 56
            | u64::from(generation) << 58;
    }

    /// Permille of sampled entries written by the current search (UCI
    /// `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|&&e| e != 0 && (e >> 58) as u8 == self.generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// `n` zeroed words from the allocator's zeroed allocation, or `None` if the
/// allocator refuses. (`vec![0; n]` would zero lazily too, but aborts the
/// process when the allocation fails.)
fn zeroed_words(n: usize) -> Option<Vec<u64>> {
    let layout = std::alloc::Layout::array::<u64>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size, as `alloc_zeroed` requires.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>();
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of
    // `[u64; n]`, exactly what a `Vec<u64>` of capacity `n` owns; the memory
    // is zeroed and zero is a valid `u64`, so all `n` elements are
    // initialised.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// Mate scores are stored relative to the node ("mate in n from here"), so
/// the same entry is right wherever the position recurs in the tree.
fn score_to_tt(score: Score, ply: i32) -> Score {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn score_from_tt(score: Score, ply: i32) -> Score {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::MATE;

    #[test]
    fn store_probe_round_trip() {
        let mut tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key, 0), None);
        tt.store(key, 0x0abc, -123, 7, Bound::Exact, 3);
        let hit = tt.probe(key, 5).unwrap();
        assert_eq!(
            hit,
            TtHit {
                mv: 0x0abc,
                score: -123,
                depth: 7,
                bound: Bound::Exact
            }
        );
        // A different key in the same bucket does not match.
        assert_eq!(tt.probe(key ^ 1, 0), None);
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let mut tt = TranspositionTable::new(1);
        // Mate found 3 plies below a node at ply 4: mate in 7 plies from root.
        tt.store(42 << 40, 0, MATE - 7, 5, Bound::Lower, 4);
        // Seen again at ply 2, the same mate is 5 plies from the root.
        assert_eq!(tt.probe(42 << 40, 2).unwrap().score, MATE - 5);
        tt.store(43 << 40, 0, -(MATE - 7), 5, Bound::Upper, 4);
        assert_eq!(tt.probe(43 << 40, 2).unwrap().score, -(MATE - 5));
    }

    #[test]
    fn hashfull_and_clear() {
        let mut tt = TranspositionTable::new(1);
        tt.new_search();
        for i in 0..100_000u64 {
            tt.store(
                i.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                1,
                0,
                1,
                Bound::Exact,
                0,
            );
        }
        assert!(tt.hashfull() > 500);
        tt.clear();
        assert_eq!(tt.hashfull(), 0);
        assert_eq!(tt.size_mib(), 1);
    }
}
