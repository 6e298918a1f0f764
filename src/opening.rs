//! Random legal plies: how openings are varied, by OpenBench's `genfens`
//! and by the workshop's self-play alike, so that both draw moves the same
//! way from the same generator.

use kiln_board::{Board, MoveList, generate_all};

use crate::rng::Rng;

/// Plays `plies` legal moves on `board`, each drawn uniformly from the
/// legal moves with `rng`. Returns `false` (the board then stands where
/// the side to move ran out of moves) when a position on the way has no
/// legal move.
///
/// ```
/// use kiln_board::Board;
/// use kiln::opening::play_random_plies;
/// use kiln::rng::Rng;
///
/// let mut board = Board::startpos();
/// assert!(play_random_plies(&mut board, 8, &mut Rng::new(3)));
/// assert_eq!(board.fullmove_number(), 5);
/// ```
pub fn play_random_plies(board: &mut Board, plies: u32, rng: &mut Rng) -> bool {
    let mut moves = MoveList::new();
    for _ in 0..plies {
        moves.clear();
        generate_all(board, &mut moves);
        if moves.is_empty() {
            return false;
        }
        board.make_move(moves[rng.index(moves.len())]);
    }
    true
}
