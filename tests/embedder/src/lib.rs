//! A stand-in for another project embedding `kiln-tables`: a `#![no_std]`
//! crate that depends on that crate alone and computes position keys and
//! attack sets with it.
//!
//! CI proves that nothing in its dependency graph needs `std`: it builds the
//! crate for a bare-metal target (`thumbv7em-none-eabihf`) when that target
//! is installed, and otherwise as a static library for the host with the
//! `standalone` feature, whose panic handler clashes with `std`'s if any
//! dependency links `std`.

#![no_std]
#![forbid(unsafe_code)]

use kiln_tables::{
    Bitboard, CastlingRights, Color, PieceKind, Square, bishop_attacks, king_attacks,
    knight_attacks, pawn_attacks, rook_attacks, zobrist_castling, zobrist_piece, zobrist_side,
};

/// The panic handler a `#![no_std]` static library or firmware image must
/// provide (a test build links `std`, which has its own).
#[cfg(all(feature = "standalone", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {
        core::hint::spin_loop();
    }
}

/// A minimal position: piece bitboards by colour and kind.
pub struct Position {
    /// `pieces[color][piece]`.
    pub pieces: [[Bitboard; 6]; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// Castling rights.
    pub castling: CastlingRights,
}

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        let white = [0xFF00u64, 0x42, 0x24, 0x81, 0x08, 0x10].map(Bitboard);
        // Black's pieces are White's mirrored rank for rank.
        let black = white.map(|b| Bitboard(b.0.swap_bytes()));
        Position {
            pieces: [white, black],
            side_to_move: Color::White,
            castling: CastlingRights::ALL,
        }
    }

    /// All occupied squares.
    pub fn occupied(&self) -> Bitboard {
        self.pieces
            .iter()
            .flatten()
            .fold(Bitboard::EMPTY, |a, &b| a | b)
    }

    /// Zobrist key from scratch.
    pub fn key(&self) -> u64 {
        let mut key = zobrist_castling(self.castling);
        if self.side_to_move == Color::Black {
            key ^= zobrist_side();
        }
        for color in Color::ALL {
            for piece in PieceKind::ALL {
                for square in self.pieces[color.index()][piece.index()] {
                    key ^= zobrist_piece(color, piece, square);
                }
            }
        }
        key
    }

    /// Is `square` attacked by `color`?
    pub fn attacked(&self, square: Square, color: Color) -> bool {
        let p = &self.pieces[color.index()];
        let occ = self.occupied();
        let [pawns, knights, bishops, rooks, queens, kings] = *p;
        !(pawn_attacks(color.flip(), square) & pawns).is_empty()
            || !(knight_attacks(square) & knights).is_empty()
            || !(bishop_attacks(square, occ) & (bishops | queens)).is_empty()
            || !(rook_attacks(square, occ) & (rooks | queens)).is_empty()
            || !(king_attacks(square) & kings).is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_key_matches_the_emitted_constant() {
        assert_eq!(Position::start().key(), kiln_tables::START_KEY);
    }

    #[test]
    fn attacks_in_the_start_position() {
        let p = Position::start();
        assert!(p.attacked(Square::E3, Color::White));
        assert!(!p.attacked(Square::E4, Color::White));
        assert!(p.attacked(Square::F6, Color::Black)); // by the g8 knight
        assert_eq!(
            rook_attacks(Square::A1, p.occupied()),
            Square::B1.bitboard() | Square::A2.bitboard()
        );
    }
}
