//! The trainer's positions: read from `kiln-workshop datagen` files, kept compact
//! (the 32-byte record of each position beside its result and score), and
//! turned into the network's active features on the fly.
//!
//! The same positions are skipped as in `kiln-workshop tune`
//! ([`texel::is_trainable`]): draws by rule and the endgames that the
//! engine's endgame table evaluates itself.

use std::time::Instant;

use crate::fit::{self, sigmoid};
use crate::positions::{self, DataError, DataPosition, GameResult, RECORD_BYTES};
use crate::progress::Progress;
use crate::texel::{self, Sample};
use crate::trace::{self, BuiltParamsError};
use kiln::board::{Color, Square};
use kiln::eval::nnue::features;

/// At most this many pieces stand on a board (both kings and 30 others).
pub const MAX_ACTIVE: usize = 32;

/// Positions the logistic scale `K` is fitted on, and the hand-written
/// evaluation's reference loss computed on.
const K_FIT_POSITIONS: usize = 100_000;

/// A training position: 48 bytes.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// The board as [`positions::encode`] writes it (its score and result
    /// bytes unused: those are the fields below).
    record: [u8; RECORD_BYTES],
    /// The game's result from White's side: 0, ½ or 1.
    white_result: f32,
    /// The search score in centipawns from White's side, if the data has
    /// one.
    white_score: Option<f32>,
    /// Whether [`Position::features`] gives the mirrored position's
    /// features (set only on a mirrorable position).
    mirrored: bool,
}

impl Position {
    /// The position of `data`, or `None` for one with no record
    /// (Chess960 castling rights).
    pub fn new(data: &DataPosition) -> Option<Position> {
        let result = if data.result > 0.75 {
            GameResult::Win
        } else if data.result > 0.25 {
            GameResult::Draw
        } else {
            GameResult::Loss
        };
        let score = data.white_score.unwrap_or(0.0);
        let record = positions::encode(&data.board, score.round() as i32, result).ok()?;
        Some(Position {
            record,
            white_result: result.white_score() as f32,
            white_score: data.white_score.map(|s| s as f32),
            mirrored: false,
        })
    }

    /// Whether the position may be mirrored left to right: neither side
    /// has a castling right, which is the only thing in chess that tells
    /// the a-file from the h-file.
    pub fn is_mirrorable(&self) -> bool {
        !positions::has_castling_rights(&self.record)
    }

    /// Makes [`Position::features`] give the features of the position
    /// mirrored left to right (`true`) or of the position itself; a
    /// position that is not mirrorable stays as it is.
    pub fn set_mirrored(&mut self, mirrored: bool) {
        self.mirrored = mirrored && self.is_mirrorable();
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        positions::side_to_move(&self.record)
    }

    /// The active features from the side to move's perspective (`us`)
    /// and the other side's (`them`); returns how many of each.
    pub fn features(&self, us: &mut [u16; MAX_ACTIVE], them: &mut [u16; MAX_ACTIVE]) -> usize {
        let stm = self.side_to_move();
        let mut count = 0;
        for (piece, square) in positions::pieces(&self.record).take(MAX_ACTIVE) {
            let square = if self.mirrored {
                Square::new(square.file().flip(), square.rank())
            } else {
                square
            };
            us[count] = features::index(stm, piece, square) as u16;
            them[count] = features::index(!stm, piece, square) as u16;
            count += 1;
        }
        count
    }

    /// The training target from the side to move's view: the game result
    /// blended with the search score turned into an expected result,
    /// `lambda · result + (1 − lambda) · sigmoid(k · score)` as in
    /// `kiln-workshop tune` (the result alone where the data has no score).
    pub fn target(&self, lambda: f32, k: f32) -> f32 {
        let white = match self.white_score {
            Some(score) if lambda < 1.0 => {
                lambda * self.white_result + (1.0 - lambda) * sigmoid(k * score)
            }
            _ => self.white_result,
        };
        match self.side_to_move() {
            Color::White => white,
            Color::Black => 1.0 - white,
        }
    }
}

/// The positions of the data files, in file order.
pub struct Loaded {
    /// Every usable position.
    pub positions: Vec<Position>,
    /// Lines or records that could not be read.
    pub bad: u64,
    /// Positions left out: draws by rule, endgame-table endgames, and
    /// positions with no record.
    pub skipped: u64,
}

/// Reads every position of `paths`.
pub fn load(paths: &[String]) -> Result<Loaded, DataError> {
    let start = Instant::now();
    let mut loaded = Loaded {
        positions: Vec::new(),
        bad: 0,
        skipped: 0,
    };
    let mut meter = Progress::new("train loading", "positions", None);
    for path in paths {
        loaded.bad += positions::read_positions(path, |data| {
            if !texel::is_trainable(&data.board) {
                loaded.skipped += 1;
                return true;
            }
            let Some(position) = Position::new(&data) else {
                loaded.skipped += 1;
                return true;
            };
            loaded.positions.push(position);
            if loaded.positions.len().is_multiple_of(4096) {
                meter.update(loaded.positions.len() as u64, "");
            }
            true
        })?;
    }
    meter.update(loaded.positions.len() as u64, "");
    meter.finish();
    eprintln!(
        "train: loaded {} positions ({:.1} s), {} skipped, {} bad",
        loaded.positions.len(),
        start.elapsed().as_secs_f64(),
        loaded.skipped,
        loaded.bad
    );
    Ok(loaded)
}

/// The hand-written evaluation's weights, as `kiln-workshop tune` reads them.
fn built_weights() -> Result<Vec<[f64; 2]>, BuiltParamsError> {
    Ok(trace::as_real(&trace::weights_of(&trace::built_params()?)))
}

/// The `K` at which Kiln's own search scores in the data best predict
/// the game results (`sigmoid(K · score)` against the result, mean squared
/// error, [`fit::fit_k`] as in the tuner), over the
/// first positions that have a score; `None` if none has. Fitted on the
/// data's own scores rather than on the hand-written evaluation, so that
/// nothing but Kiln's games and searches shapes the network, and its
/// centipawns are the search's.
pub fn fit_k(positions: &[Position]) -> Option<f64> {
    let pairs: Vec<(f64, f64)> = positions
        .iter()
        .filter_map(|p| Some((f64::from(p.white_score?), f64::from(p.white_result))))
        .take(K_FIT_POSITIONS)
        .collect();
    if pairs.is_empty() {
        return None;
    }
    Some(fit::fit_k(&pairs))
}

/// The hand-written evaluation's mean loss on the first of `positions`
/// (at most as many as `K` is fitted on) against the trainer's targets:
/// the figure the network's held-out loss is to beat.
pub fn hand_written_loss(
    positions: &[Position],
    lambda: f32,
    k: f32,
) -> Result<f64, BuiltParamsError> {
    let samples: Vec<Sample> = positions
        .iter()
        .take(K_FIT_POSITIONS)
        .filter_map(|position| {
            let Ok(positions::Record::Position { board, .. }) = positions::decode(&position.record)
            else {
                return None;
            };
            // The target from White's side, as the tuner's samples hold it.
            let target = match position.side_to_move() {
                Color::White => position.target(lambda, k),
                Color::Black => 1.0 - position.target(lambda, k),
            };
            Some(Sample {
                trace: trace::trace(&board),
                target,
                result: position.white_result,
            })
        })
        .collect();
    Ok(texel::loss(&samples, &built_weights()?, f64::from(k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln::board::{Board, ColoredPiece};

    #[test]
    fn features_and_targets_follow_the_side_to_move() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
        let data = DataPosition {
            board: board.clone(),
            result: 1.0,
            white_score: Some(300.0),
        };
        let position = Position::new(&data).unwrap();
        let (mut us, mut them) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
        assert_eq!(position.features(&mut us, &mut them), 3);
        let rook = ColoredPiece::new(Color::White, kiln::board::PieceKind::Rook);
        let a1 = "a1".parse().unwrap();
        assert_eq!(usize::from(us[0]), features::index(Color::Black, rook, a1));
        assert_eq!(
            usize::from(them[0]),
            features::index(Color::White, rook, a1)
        );
        // Black to move in a game White won: the target is low.
        assert_eq!(position.target(1.0, 0.01), 0.0);
        let blended = position.target(0.5, 0.01);
        assert!((blended - 0.5 * (1.0 - sigmoid(3.0))).abs() < 1e-6);
        let unscored = Position::new(&DataPosition {
            white_score: None,
            ..data
        })
        .unwrap();
        assert_eq!(unscored.target(0.5, 0.01), 0.0);
    }

    /// A position without castling rights, mirrored, has exactly the
    /// features of the board mirrored left to right; one with a castling
    /// right is never mirrored.
    #[test]
    fn mirrored_features_are_those_of_the_mirrored_board() {
        let position = |fen: &str| {
            Position::new(&DataPosition {
                board: Board::from_fen(fen).unwrap(),
                result: 0.5,
                white_score: Some(10.0),
            })
            .unwrap()
        };
        let sorted = |position: &Position| {
            let (mut us, mut them) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
            let count = position.features(&mut us, &mut them);
            let (mut us, mut them) = (us[..count].to_vec(), them[..count].to_vec());
            us.sort_unstable();
            them.sort_unstable();
            (us, them)
        };
        let mut original = position("r4rk1/pp3ppp/2n1b3/3p4/3P4/2NB1N2/PP3PPP/R4RK1 b - - 3 14");
        let mirror = position("1kr4r/ppp3pp/3b1n2/4p3/4P3/2N1BN2/PPP3PP/1KR4R b - - 3 14");
        assert!(original.is_mirrorable());
        assert_ne!(sorted(&original), sorted(&mirror));
        original.set_mirrored(true);
        assert_eq!(sorted(&original), sorted(&mirror));
        original.set_mirrored(false);
        assert_ne!(sorted(&original), sorted(&mirror));

        let mut castling = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert!(!castling.is_mirrorable());
        let before = sorted(&castling);
        castling.set_mirrored(true);
        assert_eq!(sorted(&castling), before);
    }
}
