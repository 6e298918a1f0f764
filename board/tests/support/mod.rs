//! What the randomised tests share: a seeded generator, so that every
//! failure can be replayed.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng as _, SeedableRng};

/// A seeded pseudo-random generator for choosing moves and placements.
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// An index into a slice of length `len` (`len > 0`; the tiny modulo
    /// bias does not matter for choosing test moves).
    pub fn index(&mut self, len: usize) -> usize {
        (self.0.next_u64() % len as u64) as usize
    }
}
