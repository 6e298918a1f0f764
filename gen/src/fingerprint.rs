//! A small, stable 64-bit hash (FNV-1a) for fingerprinting the tables.
//! `std`'s `DefaultHasher` is not promised to stay the same across releases,
//! so the fingerprint uses a fixed, documented algorithm. (`kiln-format`
//! has its own `const fn` copy for the files it checks: this crate is
//! published and cannot depend on that one, which must not pull in the
//! generators. Both are tested against FNV's published values.)

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

#[cfg(test)]
mod tests {
    use super::Fnv1a;

    /// FNV's published 64-bit FNV-1a values.
    #[test]
    fn the_published_test_vectors() {
        for (text, hash) in [
            ("", 0xcbf2_9ce4_8422_2325_u64),
            ("a", 0xaf63_dc4c_8601_ec8c),
            ("foobar", 0x8594_4171_f739_67e8),
        ] {
            let mut fnv = Fnv1a::default();
            fnv.write(text.as_bytes());
            assert_eq!(fnv.finish(), hash, "{text:?}");
        }
    }
}
