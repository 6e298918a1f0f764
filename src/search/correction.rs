//! Correction history: how far the static evaluation has been from the
//! search's verdict in positions with the same pawn structure.
//!
//! The hand-crafted evaluation is systematically wrong in some structures
//! (a blocked centre it overrates, a pawn storm it underrates). After each
//! node whose result says which way the evaluation erred, a share of the
//! difference between the search score and the corrected static evaluation
//! is added to an entry kept per side to move and pawn-hash slot; later
//! static evaluations of positions with that pawn structure are shifted by
//! it.
//! Pruning decisions that rest on the static evaluation (reverse futility,
//! null move, futility, stand pat) become more accurate.
//!
//! The same average is also kept by the placement of each side's pieces
//! (the non-pawn key of White and of Black), which catches errors the pawns
//! do not explain: a misplaced piece, an exposed king. The correction
//! applied is the pawn entry plus the mean of the two non-pawn entries.

use super::tunables::{CORRECTION_GRAIN, SearchParams};
use crate::eval::score::{MAX_EVAL, Score};
use kiln_board::{Board, Color, Key};

/// Slots per side to move (a power of two).
const SLOTS: usize = 16_384;

/// A per-thread table of evaluation corrections, indexed by side to move
/// and pawn key, and by side to move and each colour's non-pawn key.
#[derive(Debug, Clone)]
pub struct CorrectionHistory {
    /// Average (search score − static evaluation) in 1/`CORRECTION_GRAIN`
    /// centipawns, by pawn structure.
    entries: Vec<i32>,
    /// The same, `[colour]` by that colour's non-pawn placement.
    non_pawn: [Vec<i32>; 2],
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        Self::new()
    }
}

impl CorrectionHistory {
    /// An empty table (no correction anywhere).
    pub fn new() -> Self {
        Self {
            entries: vec![0; 2 * SLOTS],
            non_pawn: [vec![0; 2 * SLOTS], vec![0; 2 * SLOTS]],
        }
    }

    /// Forgets every correction (a new game).
    pub fn clear(&mut self) {
        self.entries.fill(0);
        for table in &mut self.non_pawn {
            table.fill(0);
        }
    }

    /// The slot of `key` in the half of a table for `board`'s side to move.
    fn slot(board: &Board, key: Key) -> usize {
        board.side_to_move().index() * SLOTS + (key.0 as usize & (SLOTS - 1))
    }

    fn index(board: &Board) -> usize {
        Self::slot(board, board.pawn_key())
    }

    fn non_pawn_index(board: &Board, color: Color) -> usize {
        Self::slot(board, board.non_pawn_key(color))
    }

    /// `static_eval` of `board` shifted by the correction of its pawn
    /// structure plus the mean correction of the two sides' non-pawn
    /// placements, kept clear of the mate range.
    pub fn corrected(&self, board: &Board, static_eval: Score) -> Score {
        let non_pawn = self.non_pawn[0][Self::non_pawn_index(board, Color::White)]
            + self.non_pawn[1][Self::non_pawn_index(board, Color::Black)];
        let correction = (self.entries[Self::index(board)] + non_pawn / 2) / CORRECTION_GRAIN;
        (static_eval + correction).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// Adds a share of `score − static_eval` of a node searched `depth`
    /// plies deep to the entries of its pawn structure and of each side's
    /// non-pawn placement; deeper results weigh more (up to
    /// `correction_max_weight` of `params`), and each entry stays within
    /// `correction_limit_cp`.
    ///
    /// `static_eval` is the already corrected evaluation, so what is added
    /// is the error the tables have not yet explained: the entries stop
    /// moving once the correction covers the whole error. (Blending each
    /// entry towards that remainder instead, as a running average, settles
    /// where the entry equals the remainder, which covers only two thirds
    /// of a steady error with three tables.)
    /// The share is worked out in `i64`: a search score and an evaluation
    /// can lie 60,000 cp apart, and at a tuned maximum weight above about
    /// 130 their product with the grain would pass `i32`.
    pub fn update(
        &mut self,
        params: &SearchParams,
        board: &Board,
        depth: i32,
        static_eval: Score,
        score: Score,
    ) {
        let target = i64::from(score - static_eval) * i64::from(CORRECTION_GRAIN);
        let weight = i64::from(((depth + 1) * (depth + 1)).min(params.correction_max_weight));
        let limit = params.correction_limit_cp * CORRECTION_GRAIN;
        let share = target * weight / 256;
        let add_share = |entry: &mut i32| {
            let sum = (i64::from(*entry) + share).clamp(i64::from(-limit), i64::from(limit));
            // Within ±limit, an i32.
            *entry = i32::try_from(sum).unwrap_or(0);
        };
        add_share(&mut self.entries[Self::index(board)]);
        add_share(&mut self.non_pawn[0][Self::non_pawn_index(board, Color::White)]);
        add_share(&mut self.non_pawn[1][Self::non_pawn_index(board, Color::Black)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::STARTPOS;

    #[test]
    fn corrections_move_towards_the_search_and_stay_bounded() {
        let board = Board::from_fen(STARTPOS).expect("start position");
        let mut history = CorrectionHistory::new();
        let params = SearchParams::DEFAULT;
        assert_eq!(history.corrected(&board, 20), 20);
        // As in the search, each update sees the corrected evaluation, so
        // the tables learn what is left of the error: the correction closes
        // in on the whole 40 cp error (within the limits) and does not
        // overshoot it. (A running average of the remainder would stop at
        // two thirds, 47.)
        for _ in 0..1_000 {
            let corrected = history.corrected(&board, 20);
            history.update(&params, &board, 10, corrected, 60);
        }
        let corrected = history.corrected(&board, 20);
        assert!((58..=60).contains(&corrected), "{corrected}");
        // Each of the three entries is clamped; the pawn entry plus the mean
        // of the two non-pawn entries is at most twice the limit.
        for _ in 0..10_000 {
            history.update(&params, &board, 20, 0, 30_000);
        }
        let largest = 2 * params.correction_limit_cp;
        assert_eq!(history.corrected(&board, 0), largest);
        history.clear();
        assert_eq!(history.corrected(&board, 20), 20);
    }

    /// The largest weight the tunables allow and the widest gap between a
    /// mate score and an evaluation: no overflow, the entries at their
    /// limits.
    #[test]
    fn the_widest_error_at_the_largest_weight_stays_in_range() {
        let board = Board::from_fen(STARTPOS).expect("start position");
        let mut history = CorrectionHistory::new();
        let params = SearchParams {
            correction_max_weight: 256,
            ..SearchParams::DEFAULT
        };
        history.update(&params, &board, 60, -31_000, 31_000);
        assert_eq!(history.corrected(&board, 0), 2 * params.correction_limit_cp);
        history.update(&params, &board, 60, 31_000, -31_000);
        history.update(&params, &board, 60, 31_000, -31_000);
        assert_eq!(
            history.corrected(&board, 0),
            -2 * params.correction_limit_cp
        );
    }
}
