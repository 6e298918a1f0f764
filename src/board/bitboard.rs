//! The `Bitboard` newtype: a set of squares in one `u64`, bit `n` for square
//! `n` (A1 = bit 0).

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::Square;

/// A set of squares, one bit per square (A1 = bit 0, H8 = bit 63).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The b-file.
    pub const FILE_B: Bitboard = Bitboard(0x0101_0101_0101_0101 << 1);
    /// The c-file.
    pub const FILE_C: Bitboard = Bitboard(0x0101_0101_0101_0101 << 2);
    /// The d-file.
    pub const FILE_D: Bitboard = Bitboard(0x0101_0101_0101_0101 << 3);
    /// The e-file.
    pub const FILE_E: Bitboard = Bitboard(0x0101_0101_0101_0101 << 4);
    /// The f-file.
    pub const FILE_F: Bitboard = Bitboard(0x0101_0101_0101_0101 << 5);
    /// The g-file.
    pub const FILE_G: Bitboard = Bitboard(0x0101_0101_0101_0101 << 6);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x0101_0101_0101_0101 << 7);
    /// The first rank.
    pub const RANK_1: Bitboard = Bitboard(0xff);
    /// The second rank.
    pub const RANK_2: Bitboard = Bitboard(0xff << 8);
    /// The third rank.
    pub const RANK_3: Bitboard = Bitboard(0xff << 16);
    /// The fourth rank.
    pub const RANK_4: Bitboard = Bitboard(0xff << 24);
    /// The fifth rank.
    pub const RANK_5: Bitboard = Bitboard(0xff << 32);
    /// The sixth rank.
    pub const RANK_6: Bitboard = Bitboard(0xff << 40);
    /// The seventh rank.
    pub const RANK_7: Bitboard = Bitboard(0xff << 48);
    /// The eighth rank.
    pub const RANK_8: Bitboard = Bitboard(0xff << 56);
    /// The light squares (h1, a2, …).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The dark squares (a1, b2, …).
    pub const DARK_SQUARES: Bitboard = Bitboard(!0x55aa_55aa_55aa_55aa);

    /// True when no square is in the set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when at least one square is in the set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// True when `square` is in the set.
    #[inline(always)]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1u64 << square as u32) != 0
    }

    /// The lowest square of the set, if any.
    #[inline(always)]
    pub const fn lsb(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros()))
        }
    }

    /// The set with `square` added.
    #[inline(always)]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | (1u64 << square as u32))
    }

    /// The set with `square` removed.
    #[inline(always)]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1u64 << square as u32))
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $atr:ident $af:ident $op:tt),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    )*};
}

bit_ops!(
    BitAnd bitand BitAndAssign bitand_assign &,
    BitOr bitor BitOrAssign bitor_assign |,
    BitXor bitxor BitXorAssign bitxor_assign ^
);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(square: Square) -> Bitboard {
        square.bitboard()
    }
}

/// Iterator over the squares of a bitboard, lowest first.
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let square = Square::from_index_masked(self.0.trailing_zeros());
        self.0 &= self.0 - 1;
        Some(square)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

impl fmt::Display for Bitboard {
    /// Draws the set as an 8×8 grid, eighth rank on top (`X` = in the set).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let bit = self.0 >> (rank * 8 + file) & 1;
                f.write_str(if bit == 1 { "X" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}
