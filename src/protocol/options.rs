//! The options both protocols expose, defined once: the hash size (UCI
//! `Hash`, XBoard `memory`) and the number of search threads (UCI
//! `Threads`, XBoard `cores`). The tools that start searchers of their own
//! (`kiln-workshop datagen`, `kiln-workshop label`) take their hash limits from here too.

use super::memory::physical_mib;

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

/// Largest hash size in MiB where the machine's memory is unknown: 32 TiB,
/// as Stockfish allows (the allocation falls back to what can be had).
pub const HASH_CEILING_MIB: u64 = 33_554_432;

/// Transposition table size in MiB: up to the machine's physical memory
/// (see [`memory`](super::memory)), or [`HASH_CEILING_MIB`] where that is
/// unknown.
pub fn hash_mib() -> Range {
    hash_mib_within(physical_mib())
}

/// [`hash_mib`] on a machine with `physical` MiB of memory.
pub fn hash_mib_within(physical: Option<u64>) -> Range {
    const DEFAULT: u64 = 16;
    Range {
        default: DEFAULT,
        min: 1,
        max: physical.map_or(HASH_CEILING_MIB, |mib| mib.clamp(DEFAULT, HASH_CEILING_MIB)),
    }
}

/// Why a hash size was cut to [`hash_mib`]'s maximum, for the message that
/// says so.
pub fn hash_limit_reason() -> &'static str {
    if physical_mib().is_some() {
        "the machine's physical memory"
    } else {
        "the largest hash Kiln allows"
    }
}

/// Search threads: 1 to 1024, whatever the machine (more threads than
/// cores only slow each other down, but a tournament machine may have
/// hundreds of cores).
pub const THREADS: Range = Range {
    default: 1,
    min: 1,
    max: 1024,
};

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
        for range in [
            hash_mib(),
            hash_mib_within(None),
            hash_mib_within(Some(8)),
            THREADS,
        ] {
            assert!(range.min <= range.default && range.default <= range.max);
            assert_eq!(range.clamp(0), range.min);
            assert_eq!(range.clamp(u64::MAX), range.max);
        }
        assert_eq!(hash_mib_within(Some(24_000)).max, 24_000);
        assert_eq!(hash_mib_within(None).max, HASH_CEILING_MIB);
    }
}
