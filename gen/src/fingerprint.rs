//! A small, stable 64-bit hash (FNV-1a) for fingerprinting the tables.
//! `std`'s `DefaultHasher` is not promised to stay the same across releases,
//! so the fingerprint uses a fixed, documented algorithm.

/// FNV-1a over bytes, fed incrementally.
#[derive(Clone, Copy, Debug)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Feeds bytes.
    pub fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// Feeds integers as little-endian bytes.
    pub fn write_u64s(&mut self, values: impl IntoIterator<Item = u64>) {
        for v in values {
            self.write(&v.to_le_bytes());
        }
    }

    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
}
