//! The committed per-square sub-seed schedule for the magic search.
//!
//! For each slider and square, the sub-seed (0 … 299) of
//! [`crate::magic::MAGIC_BASE_SEED`] whose candidate stream finds a valid
//! magic soonest. Found once with `kiln-gen schedule`, which also re-checks
//! it; starting from these, the whole magic search tries a few thousand
//! candidates instead of millions.

use crate::magic::Slider;

/// How many sub-seeds per square `kiln-gen schedule` tries.
pub const SUB_SEEDS_TRIED: u32 = 300;

/// Sub-seed per square for rooks (49,389 candidates in all).
pub const ROOK: [u16; 64] = [
    154, 116, 217, 137, 289, 35, 58, 145, 37, 79, 248, 87, 183, 108, 143, 209, 28, 261, 260, 194,
    191, 213, 238, 217, 229, 288, 228, 128, 219, 227, 202, 132, 81, 280, 268, 291, 211, 216, 128,
    262, 23, 196, 88, 1, 51, 86, 3, 35, 101, 115, 33, 186, 26, 61, 273, 178, 297, 263, 174, 22,
    142, 201, 63, 276,
];

/// Sub-seed per square for bishops (3,179 candidates in all).
pub const BISHOP: [u16; 64] = [
    154, 9, 169, 169, 16, 118, 180, 105, 30, 84, 266, 11, 73, 204, 163, 83, 32, 213, 281, 286, 38,
    113, 234, 39, 187, 195, 213, 251, 12, 10, 196, 188, 227, 72, 12, 283, 271, 296, 223, 251, 140,
    119, 7, 182, 160, 83, 240, 272, 168, 3, 147, 176, 104, 29, 97, 55, 276, 273, 0, 32, 140, 177,
    48, 283,
];

/// The committed sub-seed of one slider's square.
pub fn sub_seed(slider: Slider, square: usize) -> u32 {
    u32::from(match slider {
        Slider::Rook => ROOK[square],
        Slider::Bishop => BISHOP[square],
    })
}
