//! A stand-in for another project embedding `kiln-tables`: it depends on that
//! crate alone and computes position keys and attack sets with it.

#![no_std]
#![forbid(unsafe_code)]

use kiln_tables as t;

/// A minimal position: piece bitboards by colour and kind.
pub struct Position {
    /// `pieces[color][kind]`, colour 0 White, kind 0 pawn … 5 king.
    pub pieces: [[u64; 6]; 2],
    /// True when White is to move.
    pub white_to_move: bool,
    /// Castling rights (bit 0 K, 1 Q, 2 k, 3 q).
    pub castling: u8,
}

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        let white = [0xFF00u64, 0x42, 0x24, 0x81, 0x08, 0x10];
        // Black's pieces are White's mirrored rank for rank.
        let pieces = [white, white.map(u64::swap_bytes)];
        Position {
            pieces,
            white_to_move: true,
            castling: 0b1111,
        }
    }

    /// All occupied squares.
    pub fn occupied(&self) -> u64 {
        self.pieces.iter().flatten().fold(0, |a, &b| a | b)
    }

    /// Zobrist key from scratch.
    pub fn key(&self) -> u64 {
        let mut key = t::zobrist_castling(self.castling);
        if !self.white_to_move {
            key ^= t::zobrist_side();
        }
        for color in 0..2u8 {
            for kind in 0..6u8 {
                let mut bb = self.pieces[color as usize][kind as usize];
                while bb != 0 {
                    key ^= t::zobrist_piece(color, kind, bb.trailing_zeros() as u8);
                    bb &= bb - 1;
                }
            }
        }
        key
    }

    /// Is `square` attacked by `color`?
    pub fn attacked(&self, square: u8, color: u8) -> bool {
        let p = &self.pieces[color as usize];
        let occ = self.occupied();
        t::pawn_attacks(color ^ 1, square) & p[0] != 0
            || t::knight_attacks(square) & p[1] != 0
            || t::bishop_attacks(square, occ) & (p[2] | p[4]) != 0
            || t::rook_attacks(square, occ) & (p[3] | p[4]) != 0
            || t::king_attacks(square) & p[5] != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_key_matches_the_emitted_constant() {
        assert_eq!(Position::start().key(), t::START_KEY);
    }

    #[test]
    fn attacks_in_the_start_position() {
        let p = Position::start();
        assert!(p.attacked(20, 0)); // e3 by White pawns
        assert!(!p.attacked(28, 0)); // e4 by nobody
        assert!(p.attacked(45, 1)); // f6 by the g8 knight
        assert_eq!(t::rook_attacks(0, p.occupied()), (1 << 1) | (1 << 8));
    }
}
