//! Fancy magic bitboards and the PEXT layout of the same slider attacks.
//!
//! For a slider on square `s`, only the pieces on the relevant-occupancy mask
//! `m` change its attacks. A magic number `k` maps each of the `2^n` subsets of
//! `m` (with `n = popcount(m)`) to an index `((occ & m) * k) >> (64 - n)` into
//! that square's slice of one shared table; `k` is valid when no two subsets
//! with different attack sets land on the same index. Valid magics are found by
//! trial: sparse random candidates (the AND of three draws) are tried until one
//! maps every subset without a destructive collision.
//!
//! Trial counts vary a lot with the random stream. Rather than searching from
//! an arbitrary stream (millions of candidates, seconds in an unoptimised build
//! script), the default search starts each square from a committed *sub-seed*
//! (see [`crate::schedule`]) that was found, once, to need few candidates. A
//! full search from the user's seed remains available ([`MagicSearch::Full`]).
//!
//! The PEXT layout stores the same attacks at `pext(occ, m) + offset`, which
//! needs no magic at all; it is computed with a software `pext` here so that
//! generation does not depend on the host CPU.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use crate::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, relevant_mask, slider_attacks_slow};
use crate::schedule;

/// Seed of the magic candidate streams used with the committed schedule.
pub const MAGIC_BASE_SEED: u64 = 0x4B49_4C4E_4D41_4749; // "KILNMAGI"

/// The two sliders with magic tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slider {
    /// Rook (orthogonal rays).
    Rook,
    /// Bishop (diagonal rays).
    Bishop,
}

impl Slider {
    /// Ray directions as (file, rank) steps.
    pub fn directions(self) -> &'static [(i32, i32); 4] {
        match self {
            Slider::Rook => &ROOK_DIRECTIONS,
            Slider::Bishop => &BISHOP_DIRECTIONS,
        }
    }

    fn tag(self) -> u64 {
        match self {
            Slider::Rook => 0,
            Slider::Bishop => 1,
        }
    }

    /// Lower-case name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Slider::Rook => "rook",
            Slider::Bishop => "bishop",
        }
    }
}

/// Where magic candidates come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MagicSearch {
    /// Each square starts from its committed sub-seed of [`MAGIC_BASE_SEED`]:
    /// a few thousand candidates in all, fast even in an unoptimised build.
    Scheduled,
    /// Each square searches from sub-seed 0 of the given seed: different
    /// magics per seed, millions of candidates (about a second optimised).
    Full(u64),
}

/// The magic and PEXT layouts of one slider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SliderTables {
    /// Relevant-occupancy mask per square.
    pub masks: [u64; 64],
    /// Magic multiplier per square.
    pub magics: [u64; 64],
    /// Right shift per square (`64 - popcount(mask)`).
    pub shifts: [u8; 64],
    /// Start of each square's slice in the shared tables (same for both
    /// layouts: each slice has `2^popcount(mask)` entries).
    pub offsets: [u32; 64],
    /// Attacks indexed by magic.
    pub magic_attacks: Vec<u64>,
    /// Attacks indexed by PEXT.
    pub pext_attacks: Vec<u64>,
    /// Candidates tried per square (a measure of the search's cost).
    pub candidates: [u32; 64],
}

/// A small, fast generator for magic candidates (SplitMix64), seeded from
/// ChaCha so that every stream is a well-mixed function of its seed.
///
/// The engine has the same step function in `kiln::rng::Rng` for its tools
/// and tests; the two are not shared because the engine must not link the
/// build-time generator crate, and the generator crate cannot depend on the
/// engine it generates tables for.
pub struct CandidateRng(u64);

impl CandidateRng {
    /// The stream for one slider, square and sub-seed of `seed`.
    pub fn new(seed: u64, slider: Slider, square: usize, sub_seed: u32) -> Self {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&(slider.tag() << 8 | square as u64).to_le_bytes());
        key[16..20].copy_from_slice(&sub_seed.to_le_bytes());
        key[24..32].copy_from_slice(b"magicrng");
        CandidateRng(ChaCha8Rng::from_seed(key).next_u64())
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A sparse candidate: few set bits make good magics likelier.
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }
}

/// Software PEXT: gathers the bits of `value` selected by `mask` into the low
/// bits of the result, in order.
pub fn pext(value: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut out_bit = 1u64;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if value & lowest != 0 {
            result |= out_bit;
        }
        out_bit <<= 1;
        mask &= mask - 1;
    }
    result
}

/// All subsets of `mask` in increasing order (Carry-Rippler enumeration), so
/// the `i`-th subset has `pext(subset, mask) == i`.
pub fn subsets(mask: u64) -> Vec<u64> {
    let mut all = Vec::with_capacity(1 << mask.count_ones());
    let mut subset = 0u64;
    loop {
        all.push(subset);
        subset = subset.wrapping_sub(mask) & mask;
        if subset == 0 {
            return all;
        }
    }
}

/// Scratch space reused across candidates: `stamp[i] == epoch` marks an index
/// filled by the current candidate, so nothing is cleared between tries.
struct Scratch {
    stamp: Vec<u32>,
    attacks: Vec<u64>,
    epoch: u32,
}

/// Tries `magic` on one square; on success its slice is left in `scratch`.
fn try_magic(magic: u64, shift: u8, occupancies: &[u64], attacks: &[u64], s: &mut Scratch) -> bool {
    s.epoch += 1;
    for (&occ, &attack) in occupancies.iter().zip(attacks) {
        let index = (occ.wrapping_mul(magic) >> shift) as usize;
        if s.stamp[index] != s.epoch {
            s.stamp[index] = s.epoch;
            s.attacks[index] = attack;
        } else if s.attacks[index] != attack {
            return false;
        }
    }
    true
}

/// Searches one square's magic from `rng`, giving up after `limit`
/// candidates. Returns the magic and the number of candidates tried.
fn search_square(
    mask: u64,
    occupancies: &[u64],
    attacks: &[u64],
    rng: &mut CandidateRng,
    limit: u32,
    scratch: &mut Scratch,
) -> Option<(u64, u32)> {
    let shift = (64 - mask.count_ones()) as u8;
    for tried in 1..=limit {
        let magic = rng.sparse();
        // Cheap pre-filter used by strong engines: the high byte of
        // mask * magic must be dense, or many subsets share top bits.
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        if try_magic(magic, shift, occupancies, attacks, scratch) {
            return Some((magic, tried));
        }
    }
    None
}

/// One square's magic search problem: its mask, every occupancy subset and
/// the attacks for each, plus reusable scratch space.
pub struct SquareSearch {
    /// Relevant-occupancy mask.
    pub mask: u64,
    /// Every subset of the mask, in increasing order.
    pub occupancies: Vec<u64>,
    /// Reference attacks for each subset.
    pub attacks: Vec<u64>,
    scratch: Scratch,
    slider: Slider,
    square: usize,
}

impl SquareSearch {
    /// Prepares the search for one slider on one square.
    pub fn new(slider: Slider, square: usize) -> Self {
        let mask = relevant_mask(square, slider.directions());
        let occupancies = subsets(mask);
        let attacks = occupancies
            .iter()
            .map(|&occ| slider_attacks_slow(square, occ, slider.directions()))
            .collect();
        let scratch = new_scratch(occupancies.len());
        SquareSearch {
            mask,
            occupancies,
            attacks,
            scratch,
            slider,
            square,
        }
    }

    /// Searches from one sub-seed of `seed`, giving up after `limit`
    /// candidates; returns the magic and the candidates tried.
    pub fn run(&mut self, seed: u64, sub_seed: u32, limit: u32) -> Option<(u64, u32)> {
        let mut rng = CandidateRng::new(seed, self.slider, self.square, sub_seed);
        search_square(
            self.mask,
            &self.occupancies,
            &self.attacks,
            &mut rng,
            limit,
            &mut self.scratch,
        )
    }
}

fn new_scratch(size: usize) -> Scratch {
    Scratch {
        stamp: vec![0; size],
        attacks: vec![0; size],
        epoch: 0,
    }
}

/// Builds both layouts for one slider.
pub fn generate(slider: Slider, search: MagicSearch) -> SliderTables {
    let mut t = SliderTables {
        masks: [0; 64],
        magics: [0; 64],
        shifts: [0; 64],
        offsets: [0; 64],
        magic_attacks: Vec::new(),
        pext_attacks: Vec::new(),
        candidates: [0; 64],
    };
    for square in 0..64 {
        let mut problem = SquareSearch::new(slider, square);
        let (seed, sub_seed) = match search {
            MagicSearch::Scheduled => (MAGIC_BASE_SEED, schedule::sub_seed(slider, square)),
            MagicSearch::Full(seed) => (seed, 0),
        };
        let (magic, tried) = problem
            .run(seed, sub_seed, u32::MAX)
            .expect("an unbounded magic search always ends");
        let SquareSearch {
            mask,
            occupancies,
            attacks,
            ..
        } = problem;
        let bits = mask.count_ones();

        t.masks[square] = mask;
        t.magics[square] = magic;
        t.shifts[square] = (64 - bits) as u8;
        t.offsets[square] = t.magic_attacks.len() as u32;
        t.candidates[square] = tried;

        let size = 1usize << bits;
        let base = t.magic_attacks.len();
        t.magic_attacks.resize(base + size, 0);
        t.pext_attacks.resize(base + size, 0);
        for (&occ, &attack) in occupancies.iter().zip(&attacks) {
            let magic_index = (occ.wrapping_mul(magic) >> t.shifts[square]) as usize;
            t.magic_attacks[base + magic_index] = attack;
            t.pext_attacks[base + pext(occ, mask) as usize] = attack;
        }
    }
    t
}
