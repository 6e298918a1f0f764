//! Sets of squares as 64-bit masks.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::Square;

/// A set of squares: bit `n` of the `u64` is set when the square with index
/// `n` ([`Square::index`]) is in the set. The field is public, so the set
/// converts to and from a plain `u64` for free; every lookup returns one.
///
/// Iterating yields the squares from A1 towards H8.
///
/// ```
/// use kiln_tables::{Bitboard, Square, knight_attacks};
///
/// const K: Bitboard = knight_attacks(Square::G1);
/// assert_eq!(K, Square::E2.bitboard() | Square::F3.bitboard() | Square::H3.bitboard());
/// assert_eq!(K.0, 0x0000_0000_00a0_1000);
/// assert_eq!(Bitboard::from(Square::E2), Square::E2.bitboard());
/// let squares: Vec<Square> = K.into_iter().collect();
/// assert_eq!(squares, [Square::E2, Square::F3, Square::H3]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No squares.
    ///
    /// ```
    /// use kiln_tables::Bitboard;
    ///
    /// assert!(Bitboard::EMPTY.is_empty());
    /// ```
    pub const EMPTY: Bitboard = Bitboard(0);

    /// All 64 squares.
    ///
    /// ```
    /// use kiln_tables::Bitboard;
    ///
    /// assert_eq!(Bitboard::FULL.count(), 64);
    /// ```
    pub const FULL: Bitboard = Bitboard(!0);

    /// The 32 light squares: h1, a2, … (b1 is light, a1 dark).
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard::LIGHT_SQUARES.count(), 32);
    /// assert!(Bitboard::LIGHT_SQUARES.contains(Square::H1));
    /// assert!(Bitboard::LIGHT_SQUARES.contains(Square::D1));
    /// ```
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);

    /// The 32 dark squares: a1, c1, … h8.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard::DARK_SQUARES, !Bitboard::LIGHT_SQUARES);
    /// assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
    /// assert!(Bitboard::DARK_SQUARES.contains(Square::H8));
    /// ```
    pub const DARK_SQUARES: Bitboard = Bitboard(!0x55aa_55aa_55aa_55aa);

    /// True when the set holds no square.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square};
    ///
    /// assert!(!Square::A1.bitboard().is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when the set holds at least one square: `!self.is_empty()`.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square, knight_attacks};
    ///
    /// // A knight on g1 attacks something on f3.
    /// assert!((knight_attacks(Square::G1) & Square::F3.bitboard()).any());
    /// assert!(!Bitboard::EMPTY.any());
    /// ```
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True when the set holds two squares or more (a double check, two
    /// bishops), without counting them all.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square};
    ///
    /// assert!(!Square::E1.bitboard().more_than_one());
    /// assert!(Bitboard::EMPTY.with(Square::E1).with(Square::E8).more_than_one());
    /// assert!(!Bitboard::EMPTY.more_than_one());
    /// ```
    #[inline]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The number of squares in the set.
    ///
    /// ```
    /// use kiln_tables::{Square, king_attacks};
    ///
    /// assert_eq!(king_attacks(Square::A1).count(), 3);
    /// ```
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `square` is in the set.
    ///
    /// ```
    /// use kiln_tables::{Square, knight_attacks};
    ///
    /// assert!(knight_attacks(Square::G1).contains(Square::F3));
    /// assert!(!knight_attacks(Square::G1).contains(Square::G3));
    /// ```
    #[inline]
    pub const fn contains(self, square: Square) -> bool {
        self.0 & (1 << square as u8) != 0
    }

    /// The set with `square` added.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square};
    ///
    /// const CORNERS: Bitboard = Bitboard::EMPTY.with(Square::A1).with(Square::H8);
    /// assert_eq!(CORNERS.count(), 2);
    /// ```
    #[inline]
    pub const fn with(self, square: Square) -> Bitboard {
        Bitboard(self.0 | 1 << square as u8)
    }

    /// The set with `square` removed.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square};
    ///
    /// assert_eq!(Bitboard::FULL.without(Square::E4).count(), 63);
    /// ```
    #[inline]
    pub const fn without(self, square: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << square as u8))
    }

    /// The lowest square of the set (nearest A1), or `None` when empty.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square, rank_mask, Rank};
    ///
    /// assert_eq!(rank_mask(Rank::Second).first(), Some(Square::A2));
    /// assert_eq!(Bitboard::EMPTY.first(), None);
    /// ```
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_masked(self.0.trailing_zeros()))
        }
    }
}

impl From<Square> for Bitboard {
    /// The set holding only `square`.
    #[inline]
    fn from(square: Square) -> Bitboard {
        square.bitboard()
    }
}

impl fmt::Debug for Bitboard {
    /// Writes `Bitboard(0x…)` with all 16 hex digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl BitAndAssign for Bitboard {
    #[inline]
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    #[inline]
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

impl BitXorAssign for Bitboard {
    #[inline]
    fn bitxor_assign(&mut self, rhs: Bitboard) {
        self.0 ^= rhs.0;
    }
}

/// The squares of a [`Bitboard`], from A1 towards H8.
///
/// ```
/// use kiln_tables::{Bitboard, Square};
///
/// let mut squares = Bitboard::EMPTY.with(Square::D4).with(Square::B2).into_iter();
/// assert_eq!(squares.next(), Some(Square::B2));
/// assert_eq!(squares.len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Squares(u64);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
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

    #[inline]
    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}
