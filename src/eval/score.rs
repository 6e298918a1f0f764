//! Score vocabulary: centipawn scores, mate and draw constants, and the packed
//! middlegame/endgame pair used by the piece-square tables.
//!
//! Mate scores sit far above any evaluation: a side that mates in `n` plies
//! from the root scores `MATE - n`, so shorter mates score higher, and every
//! score with an absolute value of at least [`MATE_BOUND`] is a mate score.

/// A score in centipawns from the side to move's point of view.
pub type Score = i32;

/// The deepest ply the search can reach.
pub const MAX_PLY: i32 = 128;
/// The score of delivering mate at the root (mate in 0 plies).
pub const MATE: Score = 32_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: Score = MATE - MAX_PLY;
/// Larger than any real score: the initial alpha-beta window.
pub const INFINITE: Score = 32_001;
/// The score of a draw.
pub const DRAW: Score = 0;
/// Static evaluations are clamped inside ±this, away from mate scores.
pub const MAX_EVAL: Score = MATE_BOUND - 1;

/// Whether `score` announces a mate (for either side).
pub const fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Moves (not plies) to mate for a mate score: positive when the side to
/// move mates, negative when it is mated, as UCI's `score mate` wants.
pub const fn mate_in_moves(score: Score) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}

/// The packed `S(mg, eg)` form of the weight tables, defined with the
/// parameter file in `kiln-params` (the build script packs with it).
pub use kiln_params::{eg, mg, pack};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_distances() {
        assert_eq!(mate_in_moves(MATE - 1), 1);
        assert_eq!(mate_in_moves(MATE - 3), 2);
        assert_eq!(mate_in_moves(-(MATE - 2)), -1);
        assert_eq!(mate_in_moves(-MATE), 0);
        assert!(is_mate(MATE - 100) && !is_mate(MAX_EVAL));
    }
}
