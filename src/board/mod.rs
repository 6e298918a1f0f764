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
#[allow(clippy::module_inception)]
mod board;
mod castling;
mod draw;
mod fen;
mod make_move;
mod material;
mod moves;
mod piece;
pub mod zobrist;

pub use board::Board;
pub use castling::CastleSide;
pub use fen::{FenError, STARTPOS};
pub use material::Material;
pub use moves::{Move, MoveFlag};
pub use piece::ColoredPiece;
pub use zobrist::Key;

// The squares, files, ranks, sides, piece kinds and square sets of
// `kiln-tables` are the engine's own: one definition serves the tables and
// the board. The tables crate has no coloured piece, so it calls the six
// kinds `Piece`; the engine reads them as `PieceKind`, and a kind with its
// colour is a `ColoredPiece`, so that no name means two things.
pub use kiln_tables::{
    Bitboard, CastlingRights, Color, File, ParseError, Piece as PieceKind, Rank, Square, Squares,
};
