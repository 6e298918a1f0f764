//! Score vocabulary: centipawn scores, mate and draw constants, and the packed
//! middlegame/endgame pair used by the piece-square tables.
//!
//! Mate scores sit far above any evaluation: a side that mates in `n` plies
//! from the root scores `MATE - n`, so shorter mates score higher, and every
//! score with an absolute value of at least [`MATE_BOUND`] is a mate score.
//!
//! Tablebase wins and losses form a band of their own just below the mates
//! (as in Stockfish): a tablebase win found `n` plies from the root scores
//! [`TB_WIN`]` - n`, every score from [`TB_BOUND`] up to (not including)
//! [`MATE_BOUND`] is one, and static evaluations stay below the band. They
//! are printed as centipawns, never as mates: the tables say who wins, not
//! in how many moves.

/// A score in centipawns. The search's and the evaluation's entry points
/// score from the side to move's point of view; the parts of the
/// evaluation that work for White (`evaluate_white`, the endgame
/// verdicts) say so where they do.
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
/// The score of a tablebase win at the root (a band below the mates).
pub const TB_WIN: Score = MATE_BOUND - 1;
/// Scores from this magnitude up to [`MATE_BOUND`] are tablebase wins or
/// losses.
pub const TB_BOUND: Score = TB_WIN - MAX_PLY;
/// Static evaluations are clamped inside ±this, away from tablebase and
/// mate scores.
pub const MAX_EVAL: Score = TB_BOUND - 1;

/// Whether `score` announces a mate (for either side).
pub const fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Whether `score` is a tablebase win or loss (not a mate).
pub const fn is_tb_score(score: Score) -> bool {
    score.abs() >= TB_BOUND && score.abs() < MATE_BOUND
}

/// Whether `score` is decided: a mate or a tablebase win or loss.
pub const fn is_decisive(score: Score) -> bool {
    score.abs() >= TB_BOUND
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
/// parameter file in `kiln-format` (the build script packs with it).
pub use kiln_format::params::{eg, mg, pack};

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

    #[test]
    fn tablebase_band_lies_between_evaluations_and_mates() {
        assert!(is_tb_score(TB_WIN) && is_tb_score(-(TB_WIN - 5)));
        assert!(is_tb_score(TB_BOUND) && !is_tb_score(MAX_EVAL));
        assert!(!is_tb_score(MATE_BOUND) && !is_mate(TB_WIN));
        assert!(is_decisive(TB_BOUND) && is_decisive(-MATE) && !is_decisive(MAX_EVAL));
    }
}
