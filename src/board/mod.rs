//! Board representation: the types vocabulary, position state, FEN, make/unmake,
//! Zobrist keys and draw rules.
//!
//! ```
//! use kiln::board::{Board, Color, PieceKind, Square};
//!
//! let board = Board::startpos();
//! assert_eq!(board.side_to_move(), Color::White);
//! assert_eq!(board.pieces(Color::White, PieceKind::Pawn).count(), 8);
//! assert!(board.piece_on(Square::E1).is_some());
//! ```

pub mod attacks;
mod bitboard;
#[allow(clippy::module_inception)]
mod board;
mod castling;
mod draw;
mod fen;
mod make_move;
mod material;
mod moves;
mod piece;
mod square;
pub mod zobrist;

pub use bitboard::{Bitboard, Squares};
pub use board::Board;
pub use castling::{CastleSide, CastlingRights};
pub use fen::{FenError, STARTPOS};
pub use material::Material;
pub use moves::{Move, MoveFlag};
pub use piece::{Color, Piece, PieceKind};
pub use square::{File, Rank, Square, SquareParseError};
pub use zobrist::Key;
