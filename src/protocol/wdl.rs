//! Win/draw/loss odds for a score, as UCI's `wdl W D L` reports them
//! (`UCI_ShowWDL`).
//!
//! The model is the one Stockfish publishes its scores with, fitted to
//! Kiln's own games: for a score `v` (centipawns, side to move) in a
//! position with material `m`,
//!
//! ```text
//! win  = 1 / (1 + exp((a(m) - v) / b(m)))
//! loss = 1 / (1 + exp((a(m) + v) / b(m)))
//! draw = 1 - win - loss
//! ```
//!
//! where `a` (the score at which a win becomes as likely as not) and `b`
//! (how quickly the odds turn with the score) are cubics in `m / 58`. The
//! material count weighs pawns 1, minor pieces 3, rooks 5 and queens 9,
//! clamped to 17..=78: with less on the board draws are more likely at the
//! same score, and more material moves the odds faster.
//!
//! [`FITTED`] comes from `kiln-workshop wdl` (`kiln_workshop::wdl`) run on Kiln's self-play
//! games; docs/wdl.md gives the data recipe and the fit.

use crate::eval::endgame::MATERIAL_UNITS;
use crate::eval::score::{Score, is_mate};
use kiln_board::{Board, PieceKind};

/// The smallest and largest material count the model distinguishes.
pub const MATERIAL_RANGE: (u32, u32) = (17, 78);

/// The material count the cubics are in units of.
const MATERIAL_SCALE: f64 = 58.0;

/// Coefficients of the model: `a(x)` and `b(x)` with `x = material / 58`,
/// highest power first, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// `a(x) = a[0]·x³ + a[1]·x² + a[2]·x + a[3]`.
    pub a: [f64; 4],
    /// `b(x) = b[0]·x³ + b[1]·x² + b[2]·x + b[3]`.
    pub b: [f64; 4],
}

/// The model fitted to Kiln's own games: 253,367 positions of 3,000
/// self-play games at 10,000 nodes a move (`kiln-workshop datagen --games 3000
/// --nodes 10000 --seed 1`) of the engine with the own-data weights,
/// `kiln-workshop wdl --iterations 30000`; docs/wdl.md.
pub const FITTED: WdlModel = WdlModel {
    a: [-296.791, 850.840, -834.697, 358.932],
    b: [-83.487, 171.187, -82.326, 64.353],
};

/// Win, draw and loss odds in per mille (they add up to 1000).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Odds of a win for the side to move.
    pub win: u32,
    /// Odds of a draw.
    pub draw: u32,
    /// Odds of a loss for the side to move.
    pub loss: u32,
}

/// The material count of `board` (both sides, in the evaluation's
/// [`MATERIAL_UNITS`]: pawn 1, knight and bishop 3, rook 5, queen 9),
/// clamped into [`MATERIAL_RANGE`].
pub fn material(board: &Board) -> u32 {
    let total: u32 = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ]
    .into_iter()
    .map(|kind| MATERIAL_UNITS[kind.index()].unsigned_abs() * board.kind_bb(kind).count())
    .sum();
    total.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1)
}

/// `c[0]·x³ + c[1]·x² + c[2]·x + c[3]`.
fn cubic(c: &[f64; 4], x: f64) -> f64 {
    ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
}

/// `1 / (1 + e^-z)`.
fn logistic(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

impl WdlModel {
    /// The cubics' variable for a material count: `material / 58`, the
    /// count clamped into [`MATERIAL_RANGE`].
    pub fn variable(material: u32) -> f64 {
        f64::from(material.clamp(MATERIAL_RANGE.0, MATERIAL_RANGE.1)) / MATERIAL_SCALE
    }

    /// `a` and `b` at a material count.
    pub fn parameters(&self, material: u32) -> (f64, f64) {
        let x = Self::variable(material);
        // A non-positive spread would turn the odds around; a fitted model
        // keeps b far above this floor.
        (cubic(&self.a, x), cubic(&self.b, x).max(1e-6))
    }

    /// Win, draw and loss probabilities for a centipawn score of the side
    /// to move at a material count.
    pub fn probabilities(&self, centipawns: f64, material: u32) -> (f64, f64, f64) {
        let (a, b) = self.parameters(material);
        let win = logistic((centipawns - a) / b);
        let loss = logistic((-centipawns - a) / b);
        let draw = (1.0 - win - loss).max(0.0);
        (win, draw, loss)
    }

    /// The odds in per mille for a search score (mate scores are certain
    /// wins or losses).
    pub fn per_mille(&self, score: Score, material: u32) -> Wdl {
        if is_mate(score) {
            return if score > 0 {
                Wdl {
                    win: 1000,
                    draw: 0,
                    loss: 0,
                }
            } else {
                Wdl {
                    win: 0,
                    draw: 0,
                    loss: 1000,
                }
            };
        }
        let (win, _, loss) = self.probabilities(f64::from(score), material);
        let win = (win * 1000.0).round() as u32;
        let loss = ((loss * 1000.0).round() as u32).min(1000 - win);
        Wdl {
            win,
            draw: 1000 - win - loss,
            loss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::MATE;
    use kiln_board::STARTPOS;

    #[test]
    fn odds_add_up_and_turn_with_the_score() {
        let mut last_win = 0;
        for score in (-2000..=2000).step_by(50) {
            for material in [0, 17, 40, 78, 200] {
                let wdl = FITTED.per_mille(score, material);
                assert_eq!(wdl.win + wdl.draw + wdl.loss, 1000, "{score} {material}");
            }
            let wdl = FITTED.per_mille(score, 60);
            assert!(wdl.win >= last_win, "win odds fall at {score}");
            last_win = wdl.win;
        }
    }

    #[test]
    fn the_model_is_symmetric() {
        for score in [-700, -90, 0, 35, 400] {
            let us = FITTED.per_mille(score, 50);
            let them = FITTED.per_mille(-score, 50);
            assert_eq!((us.win, us.loss), (them.loss, them.win), "{score}");
        }
    }

    #[test]
    fn mates_are_certain() {
        assert_eq!(FITTED.per_mille(MATE - 3, 40).win, 1000);
        assert_eq!(FITTED.per_mille(-MATE + 4, 40).loss, 1000);
    }

    #[test]
    fn material_of_the_start_position() {
        let board = Board::from_fen(STARTPOS).expect("start position");
        assert_eq!(material(&board), 78);
    }
}
