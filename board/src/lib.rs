//! A chess board and legal move generation, on the lookup tables of
//! [`kiln_tables`]: the board and move generator of the Kiln engine.
//!
//! - [`Board`]: bitboards by colour and kind, a mailbox, castling rooks on
//!   any file (Chess960), the en-passant square, both clocks and an
//!   incrementally kept Zobrist [`Key`]; [`make_move`](Board::make_move) and
//!   [`unmake_move`](Board::unmake_move) on a history the board keeps
//!   (repetitions, [`Board::history`]).
//! - FEN, X-FEN and Shredder-FEN in ([`Board::from_fen`], [`FenError`] says
//!   what is wrong and where) and out ([`Board::to_fen`],
//!   [`Board::to_shredder_fen`]).
//! - Legal moves only, generated with check and pin masks into any
//!   [`MoveSink`]: [`generate_all`], [`generate_noisy_or_evasions`],
//!   [`generate_noisy`], [`generate_quiets`]; [`is_legal`] for a move from
//!   elsewhere; [`count_legal`] and [`perft`].
//! - [`Move`] in 16 bits, read from and written as UCI text
//!   ([`parse_uci_move`], [`Move::to_uci`]); castling is king-takes-rook
//!   inside, written either way.
//! - SAN, PGN's move text, in ([`parse_san`], [`SanError`]) and out
//!   ([`Move::san`], [`Move::to_san`]), with minimal disambiguation and
//!   `+` / `#`.
//! - Check, pins, game ends: [`Board::in_check`], [`Board::checkers`],
//!   [`Board::pinned`], [`Board::is_checkmate`], [`Board::is_stalemate`],
//!   [`Board::is_fifty_move_draw`],
//!   [`Board::is_repetition`], [`Board::is_insufficient_material`].
//!
//! `no_std`; the board's history is a `Vec`, so the crate needs `alloc`.
//! Sliding-piece attacks use magic bitboards, or PEXT where the target has
//! BMI2 (`-C target-cpu=native` on a CPU with it): the one `unsafe` in the
//! crate is that instruction.
//! Squares, files, ranks, colours, piece kinds and bitboards are
//! `kiln-tables`' own types, re-exported here; that crate calls a piece
//! kind `Piece`, this one [`PieceKind`], and a kind with its colour is a
//! [`ColoredPiece`].
//!
//! ```
//! use kiln_board::{Board, MoveList, generate_all, parse_uci_move, perft};
//!
//! let mut board: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
//!     .parse()?;
//! let mut moves = MoveList::new();
//! generate_all(&board, &mut moves);
//! assert_eq!(moves.len(), 48);
//!
//! let castle = parse_uci_move(&board, "e1g1")?;
//! board.make_move(castle);
//! assert_eq!(board.to_fen(), "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R4RK1 b kq - 1 1");
//! board.unmake_move();
//! assert_eq!(perft(&mut board, 3), 97_862);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![cfg_attr(not(test), no_std)]
// `unsafe` is denied everywhere but the two `pext` calls of `attacks`,
// compiled only for targets with BMI2 (PEXT slider lookups: 1.2 ns against
// 2.0 ns for magics, docs/tables.md).
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![deny(missing_docs)]

extern crate alloc;

pub mod attacks;
mod board;
mod castling;
mod changes;
mod draw;
mod fen;
mod generate;
mod make_move;
mod material;
mod move_list;
mod moves;
mod perft;
mod piece;
mod san;
mod uci_move;
pub mod zobrist;

pub use board::{Board, HistoryEntry};
pub use castling::CastleSide;
pub use changes::PlacementChanges;
pub use fen::{FenError, STARTPOS};
pub use generate::{
    MoveSink, count_legal, generate_all, generate_noisy, generate_noisy_or_evasions,
    generate_quiets, has_legal_move, is_legal,
};
pub use material::Material;
pub use move_list::MoveList;
pub use moves::{Move, MoveFlag, UciMove};
pub use perft::perft;
pub use piece::ColoredPiece;
pub use san::{SanError, SanMove, parse_san};
pub use uci_move::{UciMoveError, parse_uci_move};
pub use zobrist::Key;

pub use kiln_tables::{
    Bitboard, CastlingRights, Color, File, ParseError, PieceKind, Rank, Square, Squares,
};

/// The README's Rust snippets, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
