//! The attack lookups the prober needs, answered by the engine's own
//! tables (`kiln_board::attacks`, which reads kiln-tables): the prober generates
//! moves with them, so its idea of a legal move is the engine's.

use pyrrhic_rs::{Color as PyrrhicColor, EngineAdapter};

use kiln_board::{Bitboard, Color, Square, attacks};

/// Kiln's attack tables behind `pyrrhic_rs`'s [`EngineAdapter`].
#[derive(Clone, Copy, Debug, Default)]
pub struct KilnAttacks;

/// The square of a prober square index (a1 = 0 … h8 = 63, as Kiln's). The
/// prober only asks about squares of pieces on the board.
fn square(index: u64) -> Square {
    Square::from_index_masked(index as u32)
}

impl EngineAdapter for KilnAttacks {
    fn pawn_attacks(color: PyrrhicColor, sq: u64) -> u64 {
        let color = match color {
            PyrrhicColor::White => Color::White,
            PyrrhicColor::Black => Color::Black,
        };
        attacks::pawn(color, square(sq)).0
    }

    fn knight_attacks(sq: u64) -> u64 {
        attacks::knight(square(sq)).0
    }

    fn bishop_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::bishop(square(sq), Bitboard(occupied)).0
    }

    fn rook_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::rook(square(sq), Bitboard(occupied)).0
    }

    fn queen_attacks(sq: u64, occupied: u64) -> u64 {
        attacks::queen(square(sq), Bitboard(occupied)).0
    }

    fn king_attacks(sq: u64) -> u64 {
        attacks::king(square(sq)).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_with_the_engine_tables() {
        assert_eq!(
            KilnAttacks::knight_attacks(0),
            attacks::knight(Square::A1).0
        );
        assert_eq!(
            KilnAttacks::pawn_attacks(PyrrhicColor::Black, 12),
            attacks::pawn(Color::Black, Square::E2).0
        );
        let occupied = Square::E4.bitboard() | Square::B7.bitboard();
        assert_eq!(
            KilnAttacks::queen_attacks(Square::E7 as u64, occupied.0),
            attacks::queen(Square::E7, occupied).0
        );
    }
}
