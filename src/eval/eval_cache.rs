//! A small per-thread cache of static evaluations, keyed by the Zobrist key.
//!
//! The search evaluates the same position many times: every iteration of
//! iterative deepening walks the same tree again, and transpositions meet
//! in quiescence. The evaluation is a pure function of the position, so a
//! cached value is always the value evaluation would return; the cache
//! changes speed, never the search (the node counts stay identical).
//!
//! Each entry is one `u64`: the key's upper 48 bits (the lower bits choose
//! the slot) and the side-to-move score in the lower 16, stored with its
//! sign bit flipped so that an all-zero slot holds the score `i16::MIN`,
//! which no evaluation produces (scores are clamped to ±[`MAX_EVAL`]): an
//! empty slot never answers a probe, and a new cache is a zeroed allocation
//! whose pages the system supplies on first touch, so a search thread that
//! is set up but searches little costs little memory (1024 threads set up
//! their caches without writing 1 GiB). Nothing needs clearing while the
//! evaluation stays the same: the weights are compiled in, so a stored
//! score never goes stale. A search thread that switches between the
//! hand-written evaluation and the network starts a new cache.

use super::score::{MAX_EVAL, Score};

/// Flips the sign bit of the stored score: the zero bits of an empty slot
/// then read as `i16::MIN`, outside the evaluation's range.
const FLIP: u16 = 0x8000;

/// A direct-mapped table of static evaluations.
#[derive(Clone, Debug)]
pub struct EvalCache {
    entries: Vec<u64>,
}

impl EvalCache {
    /// Number of slots (a power of two): 1 MiB per search thread.
    pub const ENTRIES: usize = 1 << 17;

    /// An empty cache.
    pub fn new() -> Self {
        EvalCache {
            entries: vec![0; Self::ENTRIES],
        }
    }

    /// The cached side-to-move evaluation of the position with `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Score> {
        let entry = self.entries[Self::slot(key)];
        let score = (entry as u16 ^ FLIP) as i16;
        (entry >> 16 == key >> 16 && score != i16::MIN).then_some(Score::from(score))
    }

    /// Remembers `score`, the side-to-move evaluation of the position with
    /// `key`.
    #[inline]
    pub fn store(&mut self, key: u64, score: Score) {
        debug_assert!(score.abs() <= MAX_EVAL);
        let slot = Self::slot(key);
        self.entries[slot] = (key >> 16) << 16 | u64::from(score as i16 as u16 ^ FLIP);
    }

    /// Asks the CPU to start loading the slot of `key` (see
    /// [`crate::prefetch`]).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        crate::prefetch::prefetch(&self.entries[Self::slot(key)]);
    }

    #[inline]
    fn slot(key: u64) -> usize {
        (key as usize) & (Self::ENTRIES - 1)
    }
}

impl Default for EvalCache {
    fn default() -> Self {
        EvalCache::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate;
    use kiln_board::Board;
    use kiln_board::{MoveList, generate_all};

    #[test]
    fn an_empty_cache_answers_nothing() {
        let cache = EvalCache::new();
        for key in [
            0u64,
            1,
            u64::MAX,
            0xFFFF_0000_0000_0000,
            0x1234_5678_9abc_def0,
        ] {
            assert_eq!(cache.probe(key), None, "{key:#x}");
        }
    }

    #[test]
    fn stored_scores_come_back_and_other_keys_miss() {
        let mut cache = EvalCache::new();
        for score in [0, 1, -1, MAX_EVAL, -MAX_EVAL, 123, -4567] {
            let key = 0xDEAD_BEEF_0000_0000 ^ (score as u64);
            cache.store(key, score);
            assert_eq!(cache.probe(key), Some(score));
            // Same slot, different upper bits: a miss, not a wrong score.
            assert_eq!(cache.probe(key ^ (1 << 40)), None);
        }
    }

    #[test]
    fn cached_scores_equal_fresh_evaluations() {
        let mut cache = EvalCache::new();
        let mut board = Board::from_fen(kiln_board::STARTPOS).expect("valid FEN");
        for ply in 0..200 {
            let key = board.key().0;
            let fresh = evaluate(&board);
            if let Some(cached) = cache.probe(key) {
                assert_eq!(cached, fresh, "{board}");
            }
            cache.store(key, fresh);
            assert_eq!(cache.probe(key), Some(fresh), "{board}");
            let mut moves = MoveList::new();
            generate_all(&board, &mut moves);
            if moves.is_empty() {
                break;
            }
            board.make_move(moves[(ply * 5 + 1) % moves.len()]);
        }
    }
}
