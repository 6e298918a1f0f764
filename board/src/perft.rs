//! Perft: counting the leaf nodes of the legal move tree, the standard
//! correctness and speed test for move generation.
//!
//! The last ply is bulk-counted: at depth 1 the legal moves are counted
//! with bitboard population counts ([`count_legal`]) instead of being made.
//! No hash table is used.

use crate::Board;
use crate::generate::{count_legal, generate_all};
use crate::move_list::MoveList;

/// The number of leaf nodes `depth` plies below the position (1 at depth
/// 0). The board is left as it was.
///
/// ```
/// use kiln_board::{Board, perft};
///
/// let mut board = Board::startpos();
/// assert_eq!(perft(&mut board, 4), 197_281);
///
/// let mut kiwipete: Board =
///     "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
/// assert_eq!(perft(&mut kiwipete, 3), 97_862);
/// # Ok::<(), kiln_board::FenError>(())
/// ```
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(board),
        _ => {
            let mut moves = MoveList::new();
            generate_all(board, &mut moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                board.make_move(mv);
                nodes += perft(board, depth - 1);
                board.unmake_move();
            }
            nodes
        }
    }
}
