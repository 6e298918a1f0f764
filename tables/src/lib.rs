//! Chess lookup tables generated at build time: fancy-magic (and PEXT) slider
//! attacks, knight, king and pawn attacks, `between` and `line`, file, rank
//! and passed-pawn masks, distances, castling-rights masks, the square
//! mirror and Zobrist keys, behind a small typed vocabulary.
//!
//! Every table is a `static` array written by this crate's build script
//! (which runs the [`kiln-gen`](https://docs.rs/kiln-gen) generator) and
//! `include!`d; nothing is computed or initialised at runtime, and every
//! lookup is a `const fn`.
//!
//! # The vocabulary
//!
//! [`Square`] (`A1` = 0 … `H8` = 63), [`File`], [`Rank`], [`Color`] and
//! [`PieceKind`] (the six kinds, without colour) are `#[repr(u8)]` enums with
//! `ALL` arrays for iteration, `index()` and its inverse, the const
//! `from_index(u8) -> Option<_>`, and `Display` / `FromStr` for their
//! algebraic names. For `File`, `Rank`, `Color` and `PieceKind`, `new` is the
//! same function as `from_index`; [`Square::new`] instead builds a square
//! from a `File` and a `Rank` and cannot fail. `Square`, `File`, `Rank` and `Color` have
//! `flip` (the mirrored square, file or rank; the other colour); `PieceKind`,
//! having no colour, has none. A [`Bitboard`] is a set of squares, a public
//! `u64` with bit `n` for the square of index `n`. [`CastlingRights`] holds
//! the four castling bits. Parsing fails with a [`ParseError`] that says
//! what was expected.
//!
//! ```
//! use kiln_tables::{Color, File, PieceKind, Rank, Square};
//!
//! let e4: Square = "e4".parse()?;
//! assert_eq!(e4, Square::new(File::E, Rank::Fourth));
//! assert_eq!(e4.flip(), Square::E5);
//! assert_eq!(Square::from_index(e4 as u8 + 8), Some(Square::E5));
//! assert_eq!(Color::White.flip(), Color::Black);
//! assert_eq!(PieceKind::Knight.fen_char(Color::White), 'N');
//! assert_eq!(Square::ALL.iter().filter(|s| s.rank() == Rank::Eighth).count(), 8);
//! # Ok::<(), kiln_tables::ParseError>(())
//! ```
//!
//! The integer functions these wrap are in [`raw`], for engines that bring
//! their own square and piece types.
//!
//! # Attacks
//!
//! Lookups take typed arguments, so they cannot be given an out-of-range
//! square or arguments in the wrong order, and they work in constants:
//!
//! ```
//! use kiln_tables::{Bitboard, Color, Square, bishop_attacks, knight_attacks, pawn_attacks,
//!     rook_attacks};
//!
//! const K: Bitboard = knight_attacks(Square::G1);
//! assert_eq!(K, Square::E2.bitboard() | Square::F3.bitboard() | Square::H3.bitboard());
//!
//! // Is the White king on e1 in check? Look from the king with each piece's
//! // move and intersect with the enemy pieces that move that way.
//! let black_rooks = Square::E8.bitboard();
//! let black_bishops = Square::B4.bitboard();
//! let black_pawns = Square::F2.bitboard();
//! let occupied = black_rooks | black_bishops | black_pawns | Square::E1.bitboard()
//!     | Square::E5.bitboard(); // a White piece blocks the rook
//! let king = Square::E1;
//! let checkers = (rook_attacks(king, occupied) & black_rooks)
//!     | (bishop_attacks(king, occupied) & black_bishops)
//!     | (pawn_attacks(Color::White, king) & black_pawns);
//! assert_eq!(checkers.into_iter().collect::<Vec<_>>(), [Square::F2, Square::B4]);
//! ```
//!
//! # Zobrist hashing
//!
//! The key of a position is the XOR of
//!
//! - [`zobrist_piece`] for every piece on the board;
//! - [`zobrist_castling`] of its castling rights, always exactly one such
//!   key: the empty set ([`CastlingRights::NONE`]) has a key of its own;
//! - [`zobrist_en_passant`] of the en-passant file, only when a pawn of the
//!   side to move stands next to the pawn that has just advanced two squares,
//!   so that it could capture en passant (pins are not considered). A FEN's
//!   en-passant field alone is not the test: it may name a square no pawn
//!   can capture on, and a position with such a square is the same position
//!   (for repetitions) as without it. This is the rule Kiln's engine keeps,
//!   and the Polyglot book format's;
//! - [`zobrist_side`] when Black is to move.
//!
//! A move updates it by XORing out what it removes and XORing in what it
//! adds. [`START_KEY`] is the key of the start position: its 32 pieces and
//! all four castling rights; White is to move and there is no en-passant
//! file, so neither of those keys is in it:
//!
//! ```
//! use kiln_tables::{CastlingRights, PieceKind, START_KEY, Square, zobrist_castling, zobrist_piece,
//!     zobrist_side};
//!
//! /// The key of a FEN piece placement, White to move, all castling rights.
//! fn key(placement: &str) -> u64 {
//!     let mut key = zobrist_castling(CastlingRights::ALL);
//!     for (row, text) in placement.split('/').enumerate() {
//!         let mut file = 0;
//!         for c in text.chars() {
//!             if let Some(empty) = c.to_digit(10) {
//!                 file += empty as u8;
//!             } else if let Some((color, piece)) = PieceKind::from_fen_char(c) {
//!                 let square = Square::from_index((7 - row as u8) * 8 + file).unwrap();
//!                 key ^= zobrist_piece(color, piece, square);
//!                 file += 1;
//!             }
//!         }
//!     }
//!     key
//! }
//!
//! let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
//! assert_eq!(start, START_KEY);
//!
//! // 1. e4, incrementally: the pawn leaves e2, arrives on e4, Black to move.
//! let white = kiln_tables::Color::White;
//! let after_e4 = start
//!     ^ zobrist_piece(white, PieceKind::Pawn, Square::E2)
//!     ^ zobrist_piece(white, PieceKind::Pawn, Square::E4)
//!     ^ zobrist_side();
//! // (No en-passant key: no Black pawn can take on e3.)
//! assert_eq!(after_e4, key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR") ^ zobrist_side());
//!
//! // 1... d5 2. e5 f5: now the pawn on e5 could take on f6, so the key holds
//! // the f-file's en-passant key until White's next move XORs it out.
//! use kiln_tables::{Color, File, zobrist_en_passant};
//! let step = |color, from, to| {
//!     zobrist_piece(color, PieceKind::Pawn, from)
//!         ^ zobrist_piece(color, PieceKind::Pawn, to)
//!         ^ zobrist_side()
//! };
//! let after_f5 = after_e4
//!     ^ step(Color::Black, Square::D7, Square::D5)
//!     ^ step(Color::White, Square::E4, Square::E5)
//!     ^ step(Color::Black, Square::F7, Square::F5)
//!     ^ zobrist_en_passant(File::F);
//! let placement = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR";
//! assert_eq!(after_f5, key(placement) ^ zobrist_en_passant(File::F)); // White to move
//! ```
//!
//! # Choosing the keys: `KILN_SEED` and the fingerprint
//!
//! The Zobrist keys are drawn from [`SEED`], which is
//! `kiln_gen::DEFAULT_SEED` unless the environment variable `KILN_SEED`
//! (decimal or `0x…` hexadecimal) is set when this crate is built. A crate
//! that depends on `kiln-tables` picks its own keys by building with the
//! variable set; the build script reruns whenever it changes:
//!
//! ```sh
//! KILN_SEED=12345 cargo build          # once
//! ```
//!
//! or for every build of that project, in its `.cargo/config.toml`:
//!
//! ```toml
//! [env]
//! KILN_SEED = "12345"
//! ```
//!
//! [`FINGERPRINT`] is a 64-bit FNV-1a hash over every generated table, the
//! keys included. Two builds with the same fingerprint carry the same
//! tables, so an embedder that stores keys (an opening book, a transposition
//! table on disk) can record it and refuse data made with other tables:
//!
//! ```
//! /// What a file written with these tables starts with.
//! fn header() -> [u8; 16] {
//!     let mut h = [0; 16];
//!     h[..8].copy_from_slice(&kiln_tables::SEED.to_le_bytes());
//!     h[8..].copy_from_slice(&kiln_tables::FINGERPRINT.to_le_bytes());
//!     h
//! }
//!
//! fn readable(file_header: [u8; 16]) -> bool {
//!     file_header == header()
//! }
//! assert!(readable(header()));
//! ```
//!
//! Attack tables do not depend on the seed; magics come from a committed
//! schedule unless `KILN_MAGIC_SEARCH=full` asks for a search from the seed.
//!
//! # Other languages: the C header
//!
//! The same tables are available as a C99 header (`static const` arrays
//! with a `KILN_` prefix, plus `KILN_SEED`, `KILN_FINGERPRINT`,
//! `KILN_START_KEY` and `KILN_ZOBRIST_SIDE`), written by the generator's
//! command-line tool:
//!
//! ```sh
//! cargo install kiln-gen               # or, in a checkout: cargo run -p kiln-gen --
//! kiln-gen --seed 12345 --format c --out kiln_tables.h
//! kiln-gen --seed 12345 --format c --check kiln_tables.h   # exit 1 if stale
//! ```
//!
//! A header and a Rust build from the same seed carry the same fingerprint.
//!
//! # `no_std`, no `unsafe`, no runtime work
//!
//! The crate is `#![no_std]` and `#![forbid(unsafe_code)]`, has no runtime
//! dependencies and allocates nothing: it builds for bare-metal targets and
//! links into any binary, and every table is ready in the binary's read-only
//! data. Only the build script needs `std` (it runs on the host).
//!
//! # Slider lookups: magic or PEXT
//!
//! [`rook_attacks`] and [`bishop_attacks`] use fancy magic bitboards, which
//! run on every target. When the *target* has BMI2 (for example with
//! `RUSTFLAGS="-C target-cpu=native"` on a CPU that has it), `raw::pext` is
//! compiled in too, with the same attacks laid out for
//! `index = pext(occupied, mask) + offset`. Executing the `pext` instruction
//! needs an `unsafe` call in Rust, which this crate forbids, so the caller
//! computes the index (see `raw::pext`: on docs.rs, which builds these docs
//! with BMI2 enabled, or in a local `cargo doc` with
//! `RUSTFLAGS="-C target-feature=+bmi2" RUSTDOCFLAGS="-C target-feature=+bmi2"`).

#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
// On docs.rs (nightly rustdoc, `--cfg docsrs`), label `raw::pext` with the
// target feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]

mod generated {
    include!(concat!(env!("OUT_DIR"), "/tables.rs"));
}

mod bitboard;
mod castling;
mod color;
mod error;
mod lookups;
mod piece;
pub mod raw;
mod square;

pub use bitboard::{Bitboard, Squares};
pub use castling::CastlingRights;
pub use color::Color;
pub use error::ParseError;
pub use lookups::{
    adjacent_files, between, bishop_attacks, castling_rights_mask, distance, file_mask,
    forward_file, king_attacks, knight_attacks, line, passed_pawn_mask, pawn_attacks, pawn_pushes,
    queen_attacks, rank_mask, rook_attacks, zobrist_castling, zobrist_en_passant, zobrist_piece,
    zobrist_side,
};
pub use piece::PieceKind;
pub use square::{File, Rank, Square};

/// The old name of [`PieceKind`], the name kiln-board gives it: one type,
/// one name in both crates.
#[deprecated(note = "renamed `PieceKind`")]
pub type Piece = PieceKind;

/// The seed the Zobrist keys were drawn from: `KILN_SEED` when this crate
/// was built, else `kiln_gen::DEFAULT_SEED`.
///
/// ```
/// // Build with `KILN_SEED=12345` and this is 12345.
/// println!("Zobrist seed {}", kiln_tables::SEED);
/// ```
pub const SEED: u64 = generated::SEED;

/// A 64-bit FNV-1a hash over every generated table: equal fingerprints,
/// equal tables. A release of this crate that changes it for the default
/// seed is a breaking change (see the README).
///
/// ```
/// println!("tables {:016x}", kiln_tables::FINGERPRINT);
/// ```
pub const FINGERPRINT: u64 = generated::FINGERPRINT;

/// The Zobrist key of the standard start position: the XOR of the 32
/// pieces' [`zobrist_piece`] keys and `zobrist_castling(CastlingRights::ALL)`.
/// White is to move, so [`zobrist_side`] is not in it, and neither is an
/// en-passant key (the crate docs, under "Zobrist hashing", say when a
/// position's key holds one).
///
/// ```
/// use kiln_tables::{CastlingRights, Color, PieceKind, START_KEY, Square, zobrist_castling,
///     zobrist_piece};
///
/// let back_rank = [
///     PieceKind::Rook, PieceKind::Knight, PieceKind::Bishop, PieceKind::Queen,
///     PieceKind::King, PieceKind::Bishop, PieceKind::Knight, PieceKind::Rook,
/// ];
/// let mut key = zobrist_castling(CastlingRights::ALL);
/// for color in Color::ALL {
///     for (file, piece) in back_rank.into_iter().enumerate() {
///         // White's view of the back rank and the pawn in front of it.
///         let home = Square::from_index(file as u8).unwrap();
///         let pawn = home.offset(0, 1).unwrap();
///         key ^= zobrist_piece(color, piece, home.relative_to(color));
///         key ^= zobrist_piece(color, PieceKind::Pawn, pawn.relative_to(color));
///     }
/// }
/// assert_eq!(key, START_KEY);
/// ```
pub const START_KEY: u64 = generated::START_KEY;

/// The README's Rust snippets, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// Number of squares on the board.
///
/// ```
/// assert_eq!(kiln_tables::SQUARES, kiln_tables::Square::ALL.len());
/// ```
pub const SQUARES: usize = 64;
