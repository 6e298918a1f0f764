//! The two sides.

use core::fmt;
use core::ops::Not;
use core::str::FromStr;

use crate::ParseError;

/// A side: White or Black. Written `w` and `b`, as in FEN.
///
/// ```
/// use kiln_tables::Color;
///
/// assert_eq!(Color::Black as u8, 1);
/// assert_eq!(Color::White.flip(), Color::Black);
/// assert_eq!("b".parse::<Color>(), Ok(Color::Black));
/// assert_eq!(Color::White.to_string(), "w");
/// ```
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    /// White, who moves first and starts on ranks 1 and 2.
    White,
    /// Black.
    Black,
}

impl Color {
    /// Both sides, White first.
    ///
    /// ```
    /// use kiln_tables::Color;
    ///
    /// assert_eq!(Color::ALL, [Color::White, Color::Black]);
    /// ```
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The colour with `index` 0 (White) or 1 (Black); `None` otherwise.
    /// The same as [`Color::from_index`].
    ///
    /// ```
    /// use kiln_tables::Color;
    ///
    /// assert_eq!(Color::new(1), Some(Color::Black));
    /// assert_eq!(Color::new(2), None);
    /// ```
    #[inline]
    pub const fn new(index: u8) -> Option<Color> {
        match index {
            0 => Some(Color::White),
            1 => Some(Color::Black),
            _ => None,
        }
    }

    /// The colour with `index` 0 (White) or 1 (Black); `None` otherwise:
    /// the inverse of [`Color::index`], as
    /// [`Square::from_index`](crate::Square::from_index) is for squares.
    /// [`Color::new`] is the same function.
    ///
    /// ```
    /// use kiln_tables::Color;
    ///
    /// assert_eq!(Color::from_index(0), Some(Color::White));
    /// assert_eq!(Color::from_index(Color::Black.index() as u8), Some(Color::Black));
    /// assert_eq!(Color::from_index(2), None);
    /// ```
    #[inline]
    pub const fn from_index(index: u8) -> Option<Color> {
        Color::new(index)
    }

    /// The index, 0 (White) or 1 (Black), for indexing arrays.
    ///
    /// ```
    /// use kiln_tables::Color;
    ///
    /// let material = [39, 38];
    /// assert_eq!(material[Color::Black.index()], 38);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    ///
    /// ```
    /// use kiln_tables::Color;
    ///
    /// assert_eq!(Color::Black.flip(), Color::White);
    /// ```
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The FEN letter, `'w'` or `'b'`.
    ///
    /// ```
    /// use kiln_tables::Color;
    ///
    /// assert_eq!(Color::Black.to_char(), 'b');
    /// ```
    #[inline]
    pub const fn to_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;

    /// The other side, as [`Color::flip`].
    ///
    /// ```
    /// use kiln_tables::Color;
    ///
    /// let us = Color::White;
    /// assert_eq!(!us, Color::Black);
    /// ```
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

impl fmt::Display for Color {
    /// Writes `w` or `b`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl FromStr for Color {
    type Err = ParseError;

    /// Parses `w` or `b`.
    fn from_str(s: &str) -> Result<Color, ParseError> {
        match s {
            "w" => Ok(Color::White),
            "b" => Ok(Color::Black),
            _ => Err(ParseError::Color),
        }
    }
}
