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
//! Lazy SMP: every search thread probes and stores into the same table at
//! once, without locks. Each entry is a single `AtomicU64` read and written
//! with `Relaxed` loads and stores, so a reader sees either the whole old or
//! the whole new word, never a mix of two writers' halves: the key check
//! and the data it guards always come from the same store. (Engines with
//! 128-bit entries need the "key XOR data" trick to detect such torn reads;
//! a 64-bit entry cannot tear.) Races only decide *which* complete entry
//! survives, which the search tolerates like any other replacement. No
//! `unsafe` is involved beyond the zeroed allocation below.
//!
//! The memory comes from the allocator's zeroed allocation: the operating
//! system hands out zero pages on first touch, so creating even a large
//! table costs no initialisation loop. The allocation is fallible: when a
//! size cannot be had, the table halves it until it can, rather than
//! aborting the process. Clearing writes zeros in place, on the caller's
//! thread or on as many as it gives ([`TranspositionTable::clear_shared`]);
//! the searcher replaces a large table by a fresh one instead
//! ([`Searcher::clear_hash`](super::Searcher::clear_hash)).

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::thread;

use kiln_board::Board;

use crate::eval::score::{MATE, MATE_BOUND, MAX_EVAL, Score, TB_BOUND, TB_WIN, is_decisive};

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

impl Bound {
    /// Whether a score with this bound shows the true value beyond
    /// `estimate` in the direction the bound is sure of: a lower bound above
    /// it, an upper bound below it, or any exact score.
    pub fn beyond(self, score: Score, estimate: Score) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score > estimate,
            Bound::Upper => score < estimate,
        }
    }
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

/// `static_eval` refined by a stored search result: the stored score when its
/// bound says the true value lies beyond the static evaluation in the
/// stored direction (a lower bound above it, an upper bound below it, or an
/// exact score), which a search found and the static evaluation did not.
/// Mate scores are left out: they depend on the path.
pub fn refine_with_tt(static_eval: Score, hit: Option<TtHit>) -> Score {
    match hit {
        Some(h) if !is_decisive(h.score) && h.bound.beyond(h.score, static_eval) => h.score,
        _ => static_eval,
    }
}

const ENTRIES_PER_BUCKET: usize = 4;
const BUCKET_BYTES: usize = ENTRIES_PER_BUCKET * 8;
const GENERATION_MASK: u8 = 0x3F;

/// The transposition table. Probes and stores take `&self`, so any number
/// of search threads can share one table (behind an `Arc`).
#[derive(Debug)]
pub struct TranspositionTable {
    entries: Vec<AtomicU64>,
    buckets: usize,
    /// Age of the current search, mod 64; changed only between searches.
    generation: AtomicU8,
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
            if let Some(table) = Self::with_buckets(buckets) {
                return table;
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

    /// A new, empty table of the same size as this one, or `None` if that
    /// much more memory cannot be had.
    pub fn empty_like(&self) -> Option<Self> {
        Self::with_buckets(self.buckets)
    }

    fn with_buckets(buckets: usize) -> Option<Self> {
        let entries = zeroed_words(buckets.checked_mul(ENTRIES_PER_BUCKET)?)?;
        Some(Self {
            entries,
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> u64 {
        ((self.buckets * BUCKET_BYTES) >> 20) as u64
    }

    /// Empties the table by writing zeros over it, in place, on this
    /// thread. Callers must not run a search meanwhile, though a concurrent
    /// prober would only see empty or valid entries.
    pub fn clear(&self) {
        zero(&self.entries);
        self.generation.store(0, Ordering::Relaxed);
    }

    /// [`clear`](Self::clear) with `workers` threads, each zeroing its own
    /// contiguous part (memory bandwidth is the limit, which one core does
    /// not reach). Meant to run in the background: it gives up, leaving
    /// the table to be freed, once `table` holds the last reference to it
    /// (its owner has moved on to a new table). A worker that cannot be
    /// started leaves its part to this thread.
    pub fn clear_shared(table: &Arc<Self>, workers: usize) {
        /// Words zeroed between checks for an abandoned table: 16 MiB, a
        /// few milliseconds.
        const STRETCH: usize = 1 << 21;
        let abandoned = || Arc::strong_count(table) == 1;
        let zero_part = |part: &[AtomicU64]| {
            for stretch in part.chunks(STRETCH) {
                if abandoned() {
                    return;
                }
                zero(stretch);
            }
        };
        let part_len = table.entries.len().div_ceil(workers.max(1)).max(1);
        thread::scope(|scope| {
            let mut parts = table.entries.chunks(part_len);
            let own = parts.next().unwrap_or(&[]);
            for part in parts {
                let spawned = thread::Builder::new()
                    .name("hash-clear".into())
                    .spawn_scoped(scope, move || zero_part(part));
                if spawned.is_err() {
                    zero_part(part);
                }
            }
            zero_part(own);
        });
        table.generation.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries from older searches become preferred
    /// victims for replacement. Called before the search threads start.
    pub fn new_search(&self) {
        let next = (self.generation() + 1) & GENERATION_MASK;
        self.generation.store(next, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed)
    }

    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key's high bits uniformly onto 0..buckets.
        let index = ((u128::from(key) * self.buckets as u128) >> 64) as usize;
        index * ENTRIES_PER_BUCKET
    }

    /// Asks the CPU to start loading the bucket of `key` into cache (see
    /// [`crate::prefetch`]): called as a move is about to be made, so the child
    /// node's probe finds it there.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.entries[self.bucket(key)]);
    }

    /// Looks `key` up; `ply` converts stored mate scores back to this node,
    /// and `halfmove_clock` (this node's) demotes those the fifty-move rule
    /// may not leave time for.
    pub fn probe(&self, key: u64, ply: i32, halfmove_clock: u16) -> Option<TtHit> {
        let start = self.bucket(key);
        let check = key as u16;
        self.entries[start..start + ENTRIES_PER_BUCKET]
            .iter()
            .map(|e| e.load(Ordering::Relaxed))
            .find(|&e| e != 0 && e as u16 == check)
            .and_then(|e| {
                let bound = match (e >> 56) as u8 & 3 {
                    1 => Bound::Lower,
                    2 => Bound::Upper,
                    3 => Bound::Exact,
                    _ => return None,
                };
                Some(TtHit {
                    mv: (e >> 16) as u16,
                    score: score_from_tt(i32::from((e >> 32) as u16 as i16), ply, halfmove_clock),
                    depth: i32::from((e >> 48) as u8) - 1,
                    bound,
                })
            })
    }

    /// Stores a result. Replaces the same position's entry (keeping its move
    /// when the new result has none), otherwise the entry with the least
    /// depth, older searches' entries first.
    ///
    /// Another thread may store into the same bucket between this one's
    /// reads and its write; the write then replaces whatever is there. Each
    /// word written is still one complete entry for `key`.
    pub fn store(&self, key: u64, mv: u16, score: Score, depth: i32, bound: Bound, ply: i32) {
        let start = self.bucket(key);
        let check = key as u16;
        let generation = self.generation();
        let slots = &self.entries[start..start + ENTRIES_PER_BUCKET];
        let mut bucket = [0u64; ENTRIES_PER_BUCKET];
        for (word, slot) in bucket.iter_mut().zip(slots) {
            *word = slot.load(Ordering::Relaxed);
        }

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
        let entry = u64::from(check)
            | u64::from(mv) << 16
            | u64::from(stored) << 32
            | depth_byte << 48
            | (bound as u64) << 56
            | u64::from(generation) << 58;
        slots[victim].store(entry, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search (UCI
    /// `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let generation = self.generation();
        let used = self.entries[..sample]
            .iter()
            .map(|e| e.load(Ordering::Relaxed))
            .filter(|&e| e != 0 && (e >> 58) as u8 == generation)
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

/// Writes zero over every word of `words`.
///
/// Every word is written, even one that is zero already. Reading first
/// would spare the pages of a large table that no search has reached, but
/// the read maps the kernel's shared zero page there, and on current Linux
/// kernels a later write to such a page gets a 4 KiB page where a write to
/// an untouched page of the table gets a 2 MiB one (see
/// [`advise_huge_pages`]): the table would drift onto small pages and
/// every search would miss the TLB more often.
fn zero(words: &[AtomicU64]) {
    for word in words {
        word.store(0, Ordering::Relaxed);
    }
}

/// `n` zeroed words from the allocator's zeroed allocation, or `None` if the
/// allocator refuses. (`vec![0; n]` would zero lazily too, but aborts the
/// process when the allocation fails, and a `Vec<AtomicU64>` built by
/// `collect` writes every word.)
fn zeroed_words(n: usize) -> Option<Vec<AtomicU64>> {
    let layout = std::alloc::Layout::array::<AtomicU64>(n).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size, as `alloc_zeroed` requires.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<AtomicU64>();
    if ptr.is_null() {
        return None;
    }
    advise_huge_pages(ptr.cast::<u8>(), layout.size());
    // SAFETY: `ptr` comes from the global allocator with the layout of
    // `[AtomicU64; n]`, exactly what a `Vec<AtomicU64>` of capacity `n`
    // owns; the memory is zeroed, and `AtomicU64` has the same in-memory
    // representation as `u64`, for which all-zero bytes are the valid value
    // 0, so all `n` elements are initialised. No other reference to the
    // memory exists yet.
    Some(unsafe { Vec::from_raw_parts(ptr, n, n) })
}

/// Asks Linux to back the table with 2 MiB pages where it can (transparent
/// huge pages in `madvise` mode, the common default). Every probe lands on
/// a random bucket, so with 4 KiB pages nearly every probe of a table of
/// more than a few MiB also misses the TLB; with huge pages a 16 MiB table
/// needs only eight entries. Only a hint: if the kernel declines, nothing
/// changes but speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: *mut u8, len: usize) {
    // `madvise` needs a page-aligned start: the range is narrowed to the
    // whole pages inside the allocation.
    let page = 4096;
    let aligned = (start as usize).next_multiple_of(page);
    let end = (start as usize + len) / page * page;
    if end > aligned {
        // SAFETY: `aligned..end` lies inside one live allocation of ours,
        // not yet shared; MADV_HUGEPAGE only changes how the kernel backs
        // those pages (their contents, zero, stay), and a failure is
        // harmless, so the result is ignored.
        unsafe {
            libc::madvise(
                aligned as *mut libc::c_void,
                end - aligned,
                libc::MADV_HUGEPAGE,
            );
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: *mut u8, _len: usize) {}

/// Mate and tablebase scores are stored relative to the node ("mate in n
/// from here"), so the same entry is right wherever the position recurs in
/// the tree.
fn score_to_tt(score: Score, ply: i32) -> Score {
    if score >= TB_BOUND {
        score + ply
    } else if score <= -TB_BOUND {
        score - ply
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`], with one exception: the entry may have
/// been stored where the fifty-move counter was lower, so a mate or
/// tablebase result further away (in plies from this node) than the plies
/// the rule still allows may be a draw here. Such a score becomes the largest
/// ordinary one, [`MAX_EVAL`] (or its negative): still winning, no longer a
/// proven result the search could stop on.
fn score_from_tt(score: Score, ply: i32, halfmove_clock: u16) -> Score {
    let plies_left = i32::from(Board::FIFTY_MOVE_PLIES) - i32::from(halfmove_clock);
    if score >= TB_BOUND {
        if plies_to_result(score) > plies_left {
            MAX_EVAL
        } else {
            score - ply
        }
    } else if score <= -TB_BOUND {
        if plies_to_result(-score) > plies_left {
            -MAX_EVAL
        } else {
            score + ply
        }
    } else {
        score
    }
}

/// The plies from the storing node to the mate or tablebase result that
/// `score` (a winning one, stored relative to that node) promises.
fn plies_to_result(score: Score) -> i32 {
    if score >= MATE_BOUND {
        MATE - score
    } else {
        TB_WIN - score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn store_probe_round_trip() {
        let tt = TranspositionTable::new(1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key, 0, 0), None);
        tt.store(key, 0x0abc, -123, 7, Bound::Exact, 3);
        let hit = tt.probe(key, 5, 0).unwrap();
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
        assert_eq!(tt.probe(key ^ 1, 0, 0), None);
    }

    #[test]
    fn mate_scores_are_ply_relative() {
        let tt = TranspositionTable::new(1);
        // Mate found 3 plies below a node at ply 4: mate in 7 plies from root.
        tt.store(42 << 40, 0, MATE - 7, 5, Bound::Lower, 4);
        // Seen again at ply 2, the same mate is 5 plies from the root.
        assert_eq!(tt.probe(42 << 40, 2, 0).unwrap().score, MATE - 5);
        tt.store(43 << 40, 0, -(MATE - 7), 5, Bound::Upper, 4);
        assert_eq!(tt.probe(43 << 40, 2, 0).unwrap().score, -(MATE - 5));
    }

    #[test]
    fn results_the_fifty_move_rule_may_spoil_become_ordinary_scores() {
        let tt = TranspositionTable::new(1);
        // Mate in 7 plies from the storing node: fits while 7 plies are left.
        tt.store(44 << 40, 0, MATE - 9, 5, Bound::Lower, 2);
        assert_eq!(tt.probe(44 << 40, 2, 93).unwrap().score, MATE - 9);
        assert_eq!(tt.probe(44 << 40, 2, 94).unwrap().score, MAX_EVAL);
        tt.store(45 << 40, 0, -(MATE - 9), 5, Bound::Upper, 2);
        assert_eq!(tt.probe(45 << 40, 2, 93).unwrap().score, -(MATE - 9));
        assert_eq!(tt.probe(45 << 40, 2, 94).unwrap().score, -MAX_EVAL);
        // A tablebase win 40 plies away, the same way.
        tt.store(46 << 40, 0, TB_WIN - 41, 5, Bound::Exact, 1);
        assert_eq!(tt.probe(46 << 40, 1, 60).unwrap().score, TB_WIN - 41);
        assert_eq!(tt.probe(46 << 40, 1, 61).unwrap().score, MAX_EVAL);
        // Ordinary scores never change.
        tt.store(47 << 40, 0, MAX_EVAL, 5, Bound::Exact, 1);
        assert_eq!(tt.probe(47 << 40, 1, 99).unwrap().score, MAX_EVAL);
    }

    /// What the stress test stores for `key`: every field derived from the
    /// key, so a probe can tell whether the data belongs to the key it found.
    fn payload(key: u64) -> TtHit {
        let h = key.wrapping_mul(0xD6E8_FEB8_6659_FD93).rotate_left(29);
        TtHit {
            mv: (h as u16) | 1,
            score: i32::from((h >> 16) as i16) / 4,
            depth: ((h >> 32) % 100) as i32,
            bound: match (h >> 40) % 3 {
                0 => Bound::Lower,
                1 => Bound::Upper,
                _ => Bound::Exact,
            },
        }
    }

    /// Lazy SMP stress: many threads store and probe a few crowded buckets
    /// at once. Every probe hit must carry exactly the data stored for the
    /// probed key (the keys' 16 verification bits are all distinct, so a
    /// hit can only come from the key itself): a torn or mixed entry would
    /// fail the comparison.
    #[test]
    fn concurrent_stores_and_probes_never_mix_entries() {
        const THREADS: u64 = 8;
        const KEYS: u64 = 4096;
        const ROUNDS: u64 = 200_000;
        let tt = TranspositionTable::new(1);
        let mut rng = Rng::new(7);
        // Bits 49..57 are clear, so the top six bits pick one of 64 buckets
        // (of 32,768, indexed by the top 15 bits), and 4,096
        // keys fight over 256 slots; the low 16 bits are the key's index.
        let keys: Vec<u64> = (0..KEYS)
            .map(|i| (rng.next_u64() & !0xFFFF & !(0x1FF << 49)) | i)
            .collect();
        let hits = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for t in 0..THREADS {
                let (tt, keys, hits) = (&tt, &keys, &hits);
                scope.spawn(move || {
                    let mut rng = Rng::new(t);
                    let mut found = 0;
                    for round in 0..ROUNDS {
                        let key = keys[rng.index(keys.len())];
                        let data = payload(key);
                        if round % 3 == 0 {
                            tt.store(key, data.mv, data.score, data.depth, data.bound, 0);
                        } else if let Some(hit) = tt.probe(key, 0, 0) {
                            assert_eq!(hit, data, "key {key:#018x}");
                            found += 1;
                        }
                        if round % 50_000 == 0 && t == 0 {
                            tt.new_search();
                        }
                    }
                    hits.fetch_add(found, std::sync::atomic::Ordering::Relaxed);
                });
            }
        });
        // The test must have exercised real hits, not only misses.
        assert!(hits.into_inner() > THREADS * ROUNDS / 100);
    }

    #[test]
    fn hashfull_and_clear() {
        let tt = TranspositionTable::new(1);
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

    #[test]
    fn clearing_on_several_threads_empties_every_entry() {
        let tt = Arc::new(TranspositionTable::new(1));
        let _owner = Arc::clone(&tt);
        for (i, word) in tt.entries.iter().enumerate() {
            word.store(i as u64 | 1, Ordering::Relaxed);
        }
        tt.new_search();
        TranspositionTable::clear_shared(&tt, 3);
        assert!(tt.entries.iter().all(|w| w.load(Ordering::Relaxed) == 0));
        assert_eq!(tt.generation(), 0);
    }

    #[test]
    fn an_empty_table_like_another() {
        let tt = TranspositionTable::new(2);
        tt.store(99 << 40, 1, 0, 1, Bound::Exact, 0);
        let fresh = tt.empty_like().expect("2 MiB");
        assert_eq!(fresh.size_mib(), 2);
        assert_eq!(fresh.probe(99 << 40, 0, 0), None);
        assert!(tt.probe(99 << 40, 0, 0).is_some());
    }

    #[test]
    fn an_abandoned_table_is_not_cleared() {
        let tt = Arc::new(TranspositionTable::new(1));
        tt.entries[0].store(7, Ordering::Relaxed);
        TranspositionTable::clear_shared(&tt, 2);
        assert_eq!(tt.entries[0].load(Ordering::Relaxed), 7);
    }
}
