//! The engine's one small pseudo-random generator.
//!
//! Kiln's play is deterministic; randomness is only wanted where a tool
//! needs reproducible variety: `kiln-workshop datagen` picks opening moves, `kiln-workshop
//! tune` shuffles positions, and tests play random games. All of them use
//! this SplitMix64 generator (Steele, Lea and Flood, 2014): one 64-bit
//! word of state, full period, and good enough statistics for choosing
//! moves, seeded so every run can be repeated.
//!
//! The keys and magic numbers of the lookup tables do not come from here:
//! they are drawn at build time by `kiln-gen` with `rand_chacha`.

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value, zero included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`; the tiny modulo bias does not matter
    /// for the uses above).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// An index into a slice of length `len` (`len > 0`).
    pub fn index(&mut self, len: usize) -> usize {
        // `usize` is at most 64 bits on every target Kiln builds for, so
        // the result, below `len`, fits back.
        (self.next_u64() % len as u64) as usize
    }

    /// A float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn matches_the_reference_splitmix64_stream() {
        // The first outputs of the reference implementation seeded with 0.
        let mut rng = Rng::new(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(rng.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn ranges_are_respected() {
        let mut rng = Rng::new(7);
        for n in 1..200u64 {
            assert!(rng.below(n) < n);
            assert!(rng.index(n as usize) < n as usize);
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
        }
    }
}
