//! Zobrist keys drawn from ChaCha20 and checked for quality.
//!
//! A position key is the XOR of the keys of its features, so a weakness in the
//! keys is an XOR relation among a few of them: two positions that differ in
//! those features get the same key. With 793 keys, relations among up to four
//! keys are checked exhaustively and cheaply:
//! - no key is zero (1 key) and no two are equal (2 keys);
//! - no pair-XOR equals a key (3 keys: `a ^ b == c`);
//! - no two distinct pairs have the same XOR (4 keys: `a ^ b == c ^ d`).
//!
//! The pair XORs go into a hash set; a repeat is a four-key relation. A seed whose keys fail
//! (astronomically unlikely) moves on to the next ChaCha stream, so the result
//! is still a pure function of the seed.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

/// Every Zobrist key of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZobristKeys {
    /// Piece keys by colour (0 White), kind (0 pawn … 5 king) and square.
    pub pieces: [[[u64; 64]; 6]; 2],
    /// One key per castling-rights set (4 bits).
    pub castling: [u64; 16],
    /// One key per en-passant file.
    pub en_passant: [u64; 8],
    /// XORed in when Black is to move.
    pub side: u64,
    /// The ChaCha stream the keys came from (0 unless earlier streams failed).
    pub stream: u64,
}

/// The outcome of the key-quality checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyQuality {
    /// Number of keys checked.
    pub keys: usize,
    /// Number of pair XORs compared.
    pub pairs: usize,
    /// Zero keys found.
    pub zero: usize,
    /// Equal key pairs found.
    pub duplicates: usize,
    /// `a ^ b == c` relations found.
    pub triples: usize,
    /// `a ^ b == c ^ d` relations found.
    pub quads: usize,
}

impl KeyQuality {
    /// True when no relation among up to four keys was found.
    pub fn passed(&self) -> bool {
        self.zero == 0 && self.duplicates == 0 && self.triples == 0 && self.quads == 0
    }
}

impl ZobristKeys {
    /// Draws the keys for `seed`, moving to the next stream until they pass
    /// [`check_keys`]; returns them with the passing check's results.
    pub fn generate(seed: u64) -> (ZobristKeys, KeyQuality) {
        let mut stream = 0;
        loop {
            let keys = Self::draw(seed, stream);
            let quality = check_keys(&keys.all());
            if quality.passed() {
                return (keys, quality);
            }
            stream += 1;
        }
    }

    fn draw(seed: u64, stream: u64) -> ZobristKeys {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[24..32].copy_from_slice(b"zobrist!");
        let mut rng = ChaCha20Rng::from_seed(key);
        rng.set_stream(stream);
        let mut keys = ZobristKeys {
            pieces: [[[0; 64]; 6]; 2],
            castling: [0; 16],
            en_passant: [0; 8],
            side: 0,
            stream,
        };
        for by_kind in keys.pieces.iter_mut() {
            for by_square in by_kind.iter_mut() {
                for key in by_square.iter_mut() {
                    *key = rng.next_u64();
                }
            }
        }
        keys.castling.iter_mut().for_each(|k| *k = rng.next_u64());
        keys.en_passant.iter_mut().for_each(|k| *k = rng.next_u64());
        keys.side = rng.next_u64();
        keys
    }

    /// Every key in one list (pieces, castling, en passant, side).
    pub fn all(&self) -> Vec<u64> {
        let mut all: Vec<u64> = self.pieces.iter().flatten().flatten().copied().collect();
        all.extend_from_slice(&self.castling);
        all.extend_from_slice(&self.en_passant);
        all.push(self.side);
        all
    }

    /// The key of the standard start position: White to move, all four
    /// castling rights, no en-passant square.
    pub fn start_position_key(&self) -> u64 {
        const BACK_RANK: [usize; 8] = [3, 1, 2, 4, 5, 2, 1, 3]; // R N B Q K B N R
        let mut key = self.castling[0b1111];
        for (file, &kind) in BACK_RANK.iter().enumerate() {
            key ^= self.pieces[0][kind][file];
            key ^= self.pieces[0][0][8 + file];
            key ^= self.pieces[1][0][48 + file];
            key ^= self.pieces[1][kind][56 + file];
        }
        key
    }
}

/// An open-addressing set of non-zero `u64`s. The values here (random keys
/// and their XORs) are uniformly distributed, so their top bits are a good
/// slot index without hashing. Linear time, unlike sorting the pair XORs, and
/// cheap in an unoptimised build script.
struct XorSet {
    slots: Vec<u64>,
    shift: u32,
}

impl XorSet {
    fn with_capacity(n: usize) -> XorSet {
        // Load factor at most 2/3: short probes, half the memory of 2n slots.
        let bits = (n.max(2) * 3 / 2).next_power_of_two().trailing_zeros();
        XorSet {
            slots: vec![0; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// Inserts `value` (non-zero); returns false when it was already present.
    fn insert(&mut self, value: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = (value >> self.shift) as usize;
        loop {
            match self.slots[i] {
                0 => {
                    self.slots[i] = value;
                    return true;
                }
                v if v == value => return false,
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn contains(&self, value: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = (value >> self.shift) as usize;
        loop {
            match self.slots[i] {
                0 => return false,
                v if v == value => return true,
                _ => i = (i + 1) & mask,
            }
        }
    }
}

/// Checks a key set for XOR relations among up to four keys.
pub fn check_keys(keys: &[u64]) -> KeyQuality {
    let zero = keys.iter().filter(|&&k| k == 0).count();
    let mut key_set = XorSet::with_capacity(keys.len());
    let duplicates = keys
        .iter()
        .filter(|&&k| k != 0 && !key_set.insert(k))
        .count();

    let pairs = keys.len() * keys.len().saturating_sub(1) / 2;
    let mut pair_set = XorSet::with_capacity(pairs);
    let (mut triples, mut quads) = (0, 0);
    for (i, &a) in keys.iter().enumerate() {
        for &b in &keys[i + 1..] {
            let x = a ^ b;
            if x == 0 {
                continue; // a duplicate, counted above
            }
            if key_set.contains(x) {
                triples += 1;
            }
            if !pair_set.insert(x) {
                quads += 1;
            }
        }
    }
    KeyQuality {
        keys: keys.len(),
        pairs,
        zero,
        duplicates,
        triples,
        quads,
    }
}
