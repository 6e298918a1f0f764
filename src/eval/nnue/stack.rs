//! A search thread's accumulators, one per position of the board's
//! history, brought up to date lazily from the board itself.
//!
//! The board knows nothing of the network: it only keeps its history
//! (each move with the pieces it took off and put on, and the key before
//! it). Entry `i` of the stack holds the accumulator of the position after
//! `i` moves of that history, tagged with the position's key. To evaluate,
//! the stack looks for the nearest ancestor whose entry still carries that
//! ancestor's key and replays forward what each later move changed
//! ([`HistoryEntry::changes`](kiln_board::HistoryEntry::changes)); with no
//! such ancestor within [`MAX_REPLAY`] moves (the root of a search, a new
//! position) it builds the accumulator from scratch. Make and unmake cost nothing extra, so
//! perft and the classical evaluation are untouched, and a position the
//! search never evaluates is never updated.

use super::accumulator::Accumulator;
use kiln_board::Board;

/// The most moves replayed from an ancestor: a full refresh adds about
/// 30 columns per half, a move changes two to four, so beyond this a
/// refresh is as cheap.
pub const MAX_REPLAY: usize = 8;

#[derive(Clone, Debug)]
struct Entry {
    /// The key of the position `acc` was computed for; meaningful only
    /// when `filled`.
    key: u64,
    filled: bool,
    acc: Accumulator,
}

/// One search thread's accumulator stack.
#[derive(Clone, Debug, Default)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
}

/// The key of the position after `ply` moves of `board`'s history.
#[inline(always)]
fn key_at(board: &Board, ply: usize) -> u64 {
    match board.history().get(ply) {
        Some(entry) => entry.key_before().0,
        None => board.key().0,
    }
}

impl AccumulatorStack {
    /// An empty stack: the first evaluation refreshes.
    pub fn new() -> AccumulatorStack {
        AccumulatorStack::default()
    }

    /// The accumulator of `board`'s current position.
    pub fn update(&mut self, board: &Board) -> &Accumulator {
        let len = board.history().len();
        if self.entries.len() <= len {
            let blank = Entry {
                key: 0,
                filled: false,
                acc: Accumulator::EMPTY,
            };
            self.entries.resize(len + 1 + 64, blank);
        }
        let oldest = len.saturating_sub(MAX_REPLAY);
        let ancestor = (oldest..=len)
            .rev()
            .find(|&ply| self.entries[ply].filled && self.entries[ply].key == key_at(board, ply));
        match ancestor {
            Some(ply) if ply == len => {}
            Some(ply) => self.replay(board, ply),
            None => {
                let entry = &mut self.entries[len];
                entry.acc = Accumulator::refresh(board);
                entry.key = board.key().0;
                entry.filled = true;
            }
        }
        let acc = &self.entries[len].acc;
        debug_assert!(
            *acc == Accumulator::refresh(board),
            "incremental accumulator differs from a refresh in {}",
            board.to_fen()
        );
        acc
    }

    /// Brings entries `from + 1 ..= len` up to date from entry `from`, by
    /// what each move of the board's history changed.
    fn replay(&mut self, board: &Board, from: usize) {
        let history = board.history();
        for ply in from..history.len() {
            // The child is written straight from its parent, no copy
            // between (the entries are neighbours in one vector).
            let (done, rest) = self.entries.split_at_mut(ply + 1);
            let next = &mut rest[0];
            next.acc.apply_from(&done[ply].acc, &history[ply].changes());
            next.key = key_at(board, ply + 1);
            next.filled = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::simd::{output_sum, output_sum_scalar};
    use crate::rng::Rng;
    use kiln_board::{MoveList, generate_all};

    /// Castling both ways (standard and Chess960), en passant and
    /// promotions with and without capture all turn up in these games.
    const STARTS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    /// Checks the stack against a refresh, and the AVX2 output layer
    /// against the scalar one, on `board`.
    fn check(stack: &mut AccumulatorStack, board: &Board) {
        let fresh = Accumulator::refresh(board);
        assert_eq!(*stack.update(board), fresh, "{}", board.to_fen());
        let bucket = crate::eval::nnue::bucket(board);
        for us in kiln_board::Color::ALL {
            let (a, b) = (fresh.half(us), fresh.half(!us));
            assert_eq!(
                output_sum(a, b, bucket),
                output_sum_scalar(a, b, bucket),
                "{}",
                board.to_fen()
            );
        }
    }

    #[test]
    fn incremental_accumulators_match_a_refresh_after_every_make_and_unmake() {
        let mut rng = Rng::new(0x4e4e_5545);
        let mut stack = AccumulatorStack::new();
        let mut moves = MoveList::new();
        for fen in STARTS {
            for _ in 0..12 {
                let mut board = Board::from_fen(fen).expect("test FEN");
                let mut made = Vec::new();
                for _ in 0..160 {
                    moves.clear();
                    generate_all(&board, &mut moves);
                    let back = !made.is_empty() && (moves.is_empty() || rng.below(4) == 0);
                    if back {
                        match made.pop() {
                            Some(true) => board.unmake_null(),
                            _ => board.unmake_move(),
                        }
                    } else if moves.is_empty() {
                        break;
                    } else if !board.in_check() && rng.below(12) == 0 {
                        board.make_null();
                        made.push(true);
                    } else {
                        board.make_move(moves[rng.index(moves.len())]);
                        made.push(false);
                    }
                    // Skipping some positions makes the stack replay
                    // several moves, as when the search skips evaluations.
                    if rng.below(3) != 0 {
                        check(&mut stack, &board);
                    }
                }
            }
        }
    }

    #[test]
    fn a_new_position_at_the_same_ply_is_refreshed() {
        let mut stack = AccumulatorStack::new();
        for fen in STARTS {
            let board = Board::from_fen(fen).expect("test FEN");
            check(&mut stack, &board);
        }
    }
}
