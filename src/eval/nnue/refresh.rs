//! The refresh cache: for each way a side can see the board (each
//! [`View`]: input bucket and mirroring), the last accumulator half built
//! for it and the pieces that half holds. A refresh then starts from that
//! half and adds and takes off only the pieces that differ, instead of
//! adding a column for every piece (about 30). Kings that cross into
//! another input bucket make the stack refresh a half; the positions a
//! search visits differ in a few pieces from the last one seen in the
//! same bucket, so this turns a refresh into a handful of column updates
//! (Stockfish calls its version "Finny tables"). Wrapping sums do not
//! depend on the order of the additions, so a cached refresh gives the
//! same bits as one from scratch; the stack's debug check compares them
//! at every evaluation.

use super::accumulator::column;
use super::features::View;
use super::network::FEATURE_BIASES;
use super::simd::{self, Half};
use kiln_board::{Board, Color, ColoredPiece, PieceKind};
use kiln_format::net::KingBuckets;

/// One view's last half and the pieces in it, by colour and kind.
#[derive(Clone, Debug)]
struct Slot {
    half: Half,
    pieces: [[u64; 6]; 2],
}

/// One search thread's refresh cache: a slot for every view of either
/// side under one king map.
#[derive(Clone, Debug)]
pub struct RefreshCache {
    /// `slots[color · 2K + bucket · 2 + mirrored]`.
    slots: Vec<Slot>,
    /// K: the input buckets of the king map.
    buckets: usize,
}

impl RefreshCache {
    /// A cache for the views of the king map `kings`, each slot holding
    /// the biases and no piece.
    pub fn new(kings: &KingBuckets) -> RefreshCache {
        let buckets = kings.count();
        let empty = Slot {
            half: FEATURE_BIASES.0,
            pieces: [[0; 6]; 2],
        };
        RefreshCache {
            slots: vec![empty; 2 * buckets * 2],
            buckets,
        }
    }

    /// Writes into `half` the accumulator half of `view`'s side for
    /// `board`, from the slot of `view`, and leaves the slot holding it.
    ///
    /// # Panics
    /// If `view` belongs to a king map with more buckets than the cache's.
    pub fn refresh(&mut self, board: &Board, view: View, half: &mut Half) {
        let index = view.color().index() * 2 * self.buckets
            + view.bucket() * 2
            + usize::from(view.mirrored());
        let slot = &mut self.slots[index];
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let now = board.pieces(color, kind).0;
                let cached = &mut slot.pieces[color.index()][kind.index()];
                let piece = ColoredPiece::new(color, kind);
                for square in kiln_board::Bitboard(now & !*cached) {
                    simd::add(&mut slot.half, column(view, piece, square));
                }
                for square in kiln_board::Bitboard(*cached & !now) {
                    simd::sub(&mut slot.half, column(view, piece, square));
                }
                *cached = now;
            }
        }
        *half = slot.half;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::accumulator::{Accumulator, view};
    use crate::rng::Rng;
    use kiln_board::{MoveList, generate_all};

    /// Along random games, under a map without buckets and one that
    /// mirrors, a cached refresh of each side equals one from scratch.
    #[test]
    fn a_cached_refresh_equals_one_from_scratch() {
        let mirrored = KingBuckets::mirrored_halves(&[0; 32]).expect("a king map");
        for kings in [KingBuckets::NONE, mirrored] {
            let mut cache = RefreshCache::new(&kings);
            let mut rng = Rng::new(0x005e_fee5);
            let mut moves = MoveList::new();
            for _ in 0..20 {
                let mut board = Board::startpos();
                for _ in 0..120 {
                    moves.clear();
                    generate_all(&board, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    board.make_move(moves[rng.index(moves.len())]);
                    let fresh = Accumulator::refresh_under(&board, &kings);
                    for color in Color::ALL {
                        let mut half = [0; super::super::network::HIDDEN];
                        cache.refresh(&board, view(&board, color, &kings), &mut half);
                        assert_eq!(half, *fresh.half(color), "{}", board.to_fen());
                    }
                }
            }
        }
    }
}
