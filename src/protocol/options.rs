//! The options both protocols expose, defined once: the hash size (UCI
//! `Hash`, XBoard `memory`) and the number of search threads (UCI
//! `Threads`, XBoard `cores`). The tools that start searchers of their own
//! (`kiln datagen`, `kiln label`) take their hash limits from here too.

use crate::search::threads::max_threads;

/// Inclusive range and default of a numeric option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// Default value.
    pub default: u64,
    /// Smallest value.
    pub min: u64,
    /// Largest value.
    pub max: u64,
}

impl Range {
    /// `value` brought into the range.
    pub fn clamp(self, value: u64) -> u64 {
        value.clamp(self.min, self.max)
    }
}

/// Transposition table size in MiB.
pub const HASH_MIB: Range = Range {
    default: 16,
    min: 1,
    max: 65_536,
};

/// Search threads: 1 to cores × 4 (see [`max_threads`]).
pub fn threads() -> Range {
    Range {
        default: 1,
        min: 1,
        max: max_threads() as u64,
    }
}

/// The hash table could not have the size asked for: a smaller one is in
/// use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashShortfall {
    /// MiB asked for.
    pub requested: u64,
    /// MiB obtained.
    pub got: u64,
}

impl std::fmt::Display for HashShortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "not enough memory for {} MiB of hash; using {} MiB",
            self.requested, self.got
        )
    }
}

impl std::error::Error for HashShortfall {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_hold_their_defaults() {
        for range in [HASH_MIB, threads()] {
            assert!(range.min <= range.default && range.default <= range.max);
            assert_eq!(range.clamp(0), range.min);
            assert_eq!(range.clamp(u64::MAX), range.max);
        }
    }
}
