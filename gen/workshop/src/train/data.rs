//! The trainer's positions: read from data files of any kind
//! ([`positions::read_positions_filtered`]: game files through the load
//! filter, files of marlinformat positions, the earlier 32-byte records,
//! text lines), kept packed in memory, and turned into the network's
//! active features on the fly.
//!
//! Each position is kept as the 32 bytes of a marlinformat position
//! ([`PackedPosition`]: the men, the side to move, castling rooks, clocks,
//! the score and the result), with the last byte, which the format leaves
//! free, holding two flags: whether there is a score, and whether the
//! position is trained mirrored. The data is packed in memory, not
//! streamed: every epoch shuffles all of it. At 32 bytes a position
//! ([`POSITION_BYTES`], checked at compile time), 200 million positions
//! take 6.4 GB. The vector of them grows by doubling, so it ends with room
//! for at most 2^28 = 268 million (8.6 GB of address space, of which only
//! the 6.4 GB written is ever touched), and the last reallocation holds
//! the old block (2^27 positions, 4.3 GB) beside the new one while it
//! copies: at most 12.9 GB at that moment, then 6.4 GB and the held-out
//! tail's copy (10 %, 0.64 GB), well within a 24 GiB machine. Measured: 9.06
//! million positions loaded with a peak resident size of 364 MB, 40 bytes
//! a position with everything else the process holds.
//!
//! The same positions are skipped as in `kiln-workshop tune`
//! ([`texel::is_trainable`]): draws by rule and the endgames that the
//! engine's endgame table evaluates itself.

use std::time::Instant;

use crate::fit::{self, sigmoid};
use crate::games;
use crate::positions::{self, DataError, LoadFilter};
use crate::progress::Progress;
use crate::texel::{self, Sample};
use crate::trace::{self, BuiltParamsError};
use kiln::eval::nnue::features::View;
use kiln_board::{Board, Color, ColoredPiece, PieceKind, Square};
use kiln_format::game::PackedPosition;
use kiln_format::net::KingBuckets;
use kiln_format::record::GameResult;

/// At most this many pieces stand on a board (both kings and 30 others).
pub const MAX_ACTIVE: usize = 32;

/// Positions the logistic scale `K` is fitted on, and the hand-written
/// evaluation's reference loss computed on.
const K_FIT_POSITIONS: usize = 100_000;

/// The byte of a packed position the trainer keeps its flags in (the
/// format's extra byte).
const FLAGS: usize = 31;
/// Flag: the position has a search score.
const HAS_SCORE: u8 = 1;
/// Flag: [`Position::features`] gives the mirrored position's features.
const MIRRORED: u8 = 2;

/// A training position: a marlinformat position, 32 bytes.
#[derive(Clone, Copy, Debug)]
pub struct Position {
    /// The position, its score (bytes 28..30), its result (30) and the
    /// trainer's flags (31).
    packed: PackedPosition,
}

/// The memory a position takes, which sets how many fit in memory.
pub const POSITION_BYTES: usize = std::mem::size_of::<Position>();
const _: () = assert!(POSITION_BYTES == 32, "a training position is 32 bytes");

impl Position {
    /// The position of `board`, with White's result (0, ½ or 1) and
    /// White's search score in centipawns if there is one (rounded and
    /// saturated to the i16 range, as data files store scores).
    pub fn new(board: &Board, white_result: f64, white_score: Option<f64>) -> Position {
        let result = if white_result > 0.75 {
            GameResult::Win
        } else if white_result > 0.25 {
            GameResult::Draw
        } else {
            GameResult::Loss
        };
        let score = white_score.map_or(0, |score| {
            score
                .round()
                .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16
        });
        let mut packed = PackedPosition::pack(&games::fields(board), score, result)
            // A board always has two kings and at most 32 men on distinct
            // squares, with rooks behind its castling rights.
            .unwrap_or_else(|error| unreachable!("a board that does not pack: {error}"));
        packed.0[FLAGS] = if white_score.is_some() { HAS_SCORE } else { 0 };
        Position { packed }
    }

    /// The game's result from White's side: 0, ½ or 1.
    fn white_result(&self) -> f32 {
        f32::from(self.packed.0[30].min(2)) / 2.0
    }

    /// The search score in centipawns from White's side, if the data has
    /// one.
    fn white_score(&self) -> Option<f32> {
        (self.packed.0[FLAGS] & HAS_SCORE != 0).then(|| f32::from(self.packed.white_score()))
    }

    /// The position's 32 bytes as the trainer holds them.
    pub fn bytes(&self) -> &[u8; POSITION_BYTES] {
        &self.packed.0
    }

    /// Whether the position may be mirrored left to right: neither side
    /// has a castling right, which is the only thing in chess that tells
    /// the a-file from the h-file.
    pub fn is_mirrorable(&self) -> bool {
        self.packed.castling_rooks().next().is_none()
    }

    /// Makes [`Position::features`] give the features of the position
    /// mirrored left to right (`true`) or of the position itself; a
    /// position that is not mirrorable stays as it is.
    pub fn set_mirrored(&mut self, mirrored: bool) {
        let mirrored = mirrored && self.is_mirrorable();
        let flags = &mut self.packed.0[FLAGS];
        if mirrored {
            *flags |= MIRRORED;
        } else {
            *flags &= !MIRRORED;
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        if self.packed.black_to_move() {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The active features from the side to move's perspective (`us`)
    /// and the other side's (`them`), each side seeing the position as
    /// the king map `kings` says for its king; returns how many of each.
    pub fn features(
        &self,
        kings: &KingBuckets,
        us: &mut [u16; MAX_ACTIVE],
        them: &mut [u16; MAX_ACTIVE],
    ) -> usize {
        let stm = self.side_to_move();
        let mirrored = self.packed.0[FLAGS] & MIRRORED != 0;
        let mut men = [(ColoredPiece::new(Color::White, PieceKind::King), Square::A1); MAX_ACTIVE];
        let mut count = 0;
        // A position without its king (never in Kiln's data) is seen as
        // if the king stood on a1.
        let mut king = [Square::A1; 2];
        for man in self.packed.men().take(MAX_ACTIVE) {
            let (Some(square), Some(&kind)) = (
                Square::from_index(man.square),
                PieceKind::ALL.get(usize::from(man.kind)),
            ) else {
                continue;
            };
            let color = if man.black {
                Color::Black
            } else {
                Color::White
            };
            let square = if mirrored {
                Square::new(square.file().flip(), square.rank())
            } else {
                square
            };
            if kind == PieceKind::King {
                king[color.index()] = square;
            }
            men[count] = (ColoredPiece::new(color, kind), square);
            count += 1;
        }
        let ours = View::new(stm, king[stm.index()], kings);
        let theirs = View::new(!stm, king[(!stm).index()], kings);
        for (i, &(piece, square)) in men[..count].iter().enumerate() {
            us[i] = ours.index(piece, square) as u16;
            them[i] = theirs.index(piece, square) as u16;
        }
        count
    }

    /// The training target from the side to move's view: the game result
    /// blended with the search score turned into an expected result,
    /// `lambda · result + (1 − lambda) · sigmoid(k · score)` as in
    /// `kiln-workshop tune` (the result alone where the data has no score).
    pub fn target(&self, lambda: f32, k: f32) -> f32 {
        let white = match self.white_score() {
            Some(score) if lambda < 1.0 => {
                lambda * self.white_result() + (1.0 - lambda) * sigmoid(k * score)
            }
            _ => self.white_result(),
        };
        match self.side_to_move() {
            Color::White => white,
            Color::Black => 1.0 - white,
        }
    }

    /// The position as a board (unmirrored), if the board's parser takes
    /// it (one packed from a board always is).
    pub fn board(&self) -> Option<Board> {
        games::unpack(&self.packed).ok()
    }
}

/// The positions of the data files, in file order.
pub struct Loaded {
    /// Every usable position.
    pub positions: Vec<Position>,
    /// Lines or records that could not be read.
    pub bad: u64,
    /// Positions of game files the load filter left out.
    pub filtered: u64,
    /// Positions left out as untrainable: draws by rule and
    /// endgame-table endgames.
    pub skipped: u64,
}

/// Reads every position of `paths`, game files through `filter`.
///
/// # Errors
/// A [`DataError`] naming the file that cannot be read.
pub fn load(paths: &[String], filter: &LoadFilter) -> Result<Loaded, DataError> {
    let start = Instant::now();
    let mut loaded = Loaded {
        positions: Vec::new(),
        bad: 0,
        filtered: 0,
        skipped: 0,
    };
    let mut meter = Progress::new("train loading", "positions", None);
    for path in paths {
        let counts = positions::read_positions_filtered(path, filter, |seen| {
            if !texel::is_trainable(seen.board) {
                loaded.skipped += 1;
                return true;
            }
            loaded
                .positions
                .push(Position::new(seen.board, seen.result, seen.white_score));
            if loaded.positions.len().is_multiple_of(1 << 16) {
                meter.update(loaded.positions.len() as u64, "");
            }
            true
        })?;
        loaded.bad += counts.bad;
        loaded.filtered += counts.filtered;
    }
    meter.update(loaded.positions.len() as u64, "");
    meter.finish();
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "train: loaded {} positions ({seconds:.1} s, {:.0} a second, {} bytes each), \
         {} left out by the load filter, {} untrainable, {} bad",
        loaded.positions.len(),
        loaded.positions.len() as f64 / seconds.max(1e-9),
        POSITION_BYTES,
        loaded.filtered,
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
        .filter_map(|p| Some((f64::from(p.white_score()?), f64::from(p.white_result()))))
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
            let board = position.board()?;
            // The target from White's side, as the tuner's samples hold it.
            let target = match position.side_to_move() {
                Color::White => position.target(lambda, k),
                Color::Black => 1.0 - position.target(lambda, k),
            };
            Some(Sample {
                trace: trace::trace(&board),
                target,
                result: position.white_result(),
            })
        })
        .collect();
    Ok(texel::loss(&samples, &built_weights()?, f64::from(k)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::ColoredPiece;

    #[test]
    fn features_and_targets_follow_the_side_to_move() {
        let board = Board::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 0 1").unwrap();
        let position = Position::new(&board, 1.0, Some(300.0));
        let (mut us, mut them) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
        assert_eq!(position.features(&KingBuckets::NONE, &mut us, &mut them), 3);
        let rook = ColoredPiece::new(Color::White, kiln_board::PieceKind::Rook);
        let a1 = "a1".parse().unwrap();
        let none = KingBuckets::NONE;
        let black = View::new(Color::Black, Square::E8, &none);
        let white = View::new(Color::White, Square::E1, &none);
        assert_eq!(usize::from(us[0]), black.index(rook, a1));
        assert_eq!(usize::from(them[0]), white.index(rook, a1));

        // Under a king map each side's features follow its own king:
        // White's king on e1 is mirrored onto d1 (bucket 1), Black's on
        // e8 is on its own e1 as well.
        let mut halves = [3u8; 32];
        halves[..8].copy_from_slice(&[0, 0, 1, 1, 2, 2, 2, 2]);
        let kings = KingBuckets::mirrored_halves(&halves).unwrap();
        assert_eq!(position.features(&kings, &mut us, &mut them), 3);
        let black = View::new(Color::Black, Square::E8, &kings);
        let white = View::new(Color::White, Square::E1, &kings);
        assert_eq!(usize::from(us[0]), black.index(rook, a1));
        assert_eq!(usize::from(them[0]), white.index(rook, a1));
        assert_eq!(usize::from(them[0]), 768 + 3 * 64 + 7);
        // Black to move in a game White won: the target is low.
        assert_eq!(position.target(1.0, 0.01), 0.0);
        let blended = position.target(0.5, 0.01);
        assert!((blended - 0.5 * (1.0 - sigmoid(3.0))).abs() < 1e-6);
        let unscored = Position::new(&board, 1.0, None);
        assert_eq!(unscored.target(0.5, 0.01), 0.0);
    }

    /// A position without castling rights, mirrored, has exactly the
    /// features of the board mirrored left to right; one with a castling
    /// right is never mirrored.
    #[test]
    fn mirrored_features_are_those_of_the_mirrored_board() {
        let position = |fen: &str| Position::new(&Board::from_fen(fen).unwrap(), 0.5, Some(10.0));
        let sorted = |position: &Position| {
            let (mut us, mut them) = ([0; MAX_ACTIVE], [0; MAX_ACTIVE]);
            let count = position.features(&KingBuckets::NONE, &mut us, &mut them);
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

    /// A position keeps what the trainer needs: the board (Chess960
    /// castling and en passant too), the score rounded and saturated, and
    /// whether there was one.
    #[test]
    fn positions_pack_the_board_score_and_result() {
        for fen in [
            "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/8/8/8/8/k7/8/K7 b - - 57 90",
        ] {
            let board = Board::from_fen(fen).unwrap();
            let position = Position::new(&board, 0.5, Some(-40_000.4));
            assert_eq!(position.board(), Some(board), "{fen}");
            assert_eq!(position.white_score(), Some(-32_768.0));
            assert_eq!(position.white_result(), 0.5);
        }
        let board = Board::startpos();
        let position = Position::new(&board, 1.0, Some(12.6));
        assert_eq!(position.white_score(), Some(13.0));
        assert_eq!(Position::new(&board, 0.0, None).white_score(), None);
        assert_eq!(POSITION_BYTES, 32);
    }
}
