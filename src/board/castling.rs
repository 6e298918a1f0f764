//! The sides of the board a castling move goes to, and the right each
//! side is for a colour in `kiln-tables`' [`CastlingRights`] (1 White
//! short, 2 White long, 4 Black short, 8 Black long). Which rook a right
//! refers to is stored on the [`Board`](super::Board), so Chess960
//! positions (king and rooks on any files) need no special case.

use super::{CastlingRights, Color, File, Rank, Square};

/// The side of the board a castling move goes to.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastleSide {
    /// Towards the h-file: the king ends on g1/g8, the rook on f1/f8.
    Short = 0,
    /// Towards the a-file: the king ends on c1/c8, the rook on d1/d8.
    Long = 1,
}

impl CastleSide {
    /// Both sides, short first.
    pub const ALL: [CastleSide; 2] = [CastleSide::Short, CastleSide::Long];

    /// 0 for short, 1 for long.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The right of `color` to castle to this side.
    #[inline(always)]
    pub const fn right(self, color: Color) -> CastlingRights {
        match (color, self) {
            (Color::White, CastleSide::Short) => CastlingRights::WHITE_SHORT,
            (Color::White, CastleSide::Long) => CastlingRights::WHITE_LONG,
            (Color::Black, CastleSide::Short) => CastlingRights::BLACK_SHORT,
            (Color::Black, CastleSide::Long) => CastlingRights::BLACK_LONG,
        }
    }

    /// Where the king ends up on `rank` (g- or c-file, in Chess960 too).
    #[inline(always)]
    pub const fn king_destination(self, rank: Rank) -> Square {
        match self {
            CastleSide::Short => Square::new(File::G, rank),
            CastleSide::Long => Square::new(File::C, rank),
        }
    }

    /// Where the rook ends up on `rank` (f- or d-file, in Chess960 too).
    #[inline(always)]
    pub const fn rook_destination(self, rank: Rank) -> Square {
        match self {
            CastleSide::Short => Square::new(File::F, rank),
            CastleSide::Long => Square::new(File::D, rank),
        }
    }
}
