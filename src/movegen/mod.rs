//! Legal move generation, move encoding and perft.
//!
//! ```
//! use kiln::board::Board;
//! use kiln::movegen::{generate_all, MoveList};
//!
//! let mut board = Board::startpos();
//! let mut moves = MoveList::new();
//! generate_all(&board, &mut moves);
//! assert_eq!(moves.len(), 20);
//! board.make_move(moves[0]);
//! board.unmake_move();
//! assert_eq!(board, Board::startpos());
//! ```

mod generate;
mod move_list;
pub mod perft;
mod random;
mod uci_move;

pub use crate::board::{Move, MoveFlag};
pub(crate) use generate::forward;
pub use generate::{
    count_legal, generate_all, generate_captures, generate_noisy, generate_quiets, has_legal_move,
    is_legal,
};
pub use move_list::MoveList;
pub use random::play_random_plies;
pub use uci_move::{MoveParseError, parse_uci_move};
