//! Castling rights as four bits, with the sides of the board they refer to.
//!
//! The bit layout matches `kiln-tables`: 1 White short (king side), 2 White
//! long (queen side), 4 Black short, 8 Black long. Which rook a right refers
//! to is stored on the [`Board`](super::Board), so Chess960 positions (king
//! and rooks on any files) need no special case.

use super::Color;
use super::{File, Rank, Square};

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

/// A set of castling rights (4 bits).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);
    /// White may castle short.
    pub const WHITE_SHORT: u8 = 1;
    /// White may castle long.
    pub const WHITE_LONG: u8 = 2;
    /// Black may castle short.
    pub const BLACK_SHORT: u8 = 4;
    /// Black may castle long.
    pub const BLACK_LONG: u8 = 8;

    /// The bit of one right.
    #[inline(always)]
    pub const fn bit(color: Color, side: CastleSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    /// Both bits of `color`.
    #[inline(always)]
    pub const fn color_bits(color: Color) -> u8 {
        3 << (color as u8 * 2)
    }

    /// True when `color` may still castle to `side`.
    #[inline(always)]
    pub const fn has(self, color: Color, side: CastleSide) -> bool {
        self.0 & CastlingRights::bit(color, side) != 0
    }

    /// True when `color` has any castling right left.
    #[inline(always)]
    pub const fn has_any(self, color: Color) -> bool {
        self.0 & CastlingRights::color_bits(color) != 0
    }

    /// The raw four bits.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// True when no right is left.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}
