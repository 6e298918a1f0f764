//! Squares, files and ranks.
//!
//! Squares are numbered A1 = 0, B1 = 1, …, H8 = 63 (`rank * 8 + file`), the
//! same convention as `kiln-tables`, so a `Square` converts to the tables'
//! `u8` with a plain `as u8`.

use core::fmt;
use core::str::FromStr;

use super::bitboard::Bitboard;

/// A file (column) of the board, `A` to `H`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

impl File {
    /// Number of files.
    pub const NUM: usize = 8;
    /// Every file, a to h.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file's index, 0 for the a-file.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file with this index, if it is below 8.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index])
        } else {
            None
        }
    }

    /// The mirrored file (a ↔ h).
    #[inline]
    pub const fn flip(self) -> File {
        File::ALL[7 - self as usize]
    }

    /// All squares of this file.
    #[inline]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << self as u32)
    }

    /// The file's letter, lower case (`'a'` … `'h'`).
    #[inline]
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The file for a letter `'a'` … `'h'` (either case).
    #[inline]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => File::try_from_index(c as usize - 'a' as usize),
            'A'..='H' => File::try_from_index(c as usize - 'A' as usize),
            _ => None,
        }
    }
}

/// A rank (row) of the board, `First` (White's back rank) to `Eighth`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl Rank {
    /// Number of ranks.
    pub const NUM: usize = 8;
    /// Every rank, first to eighth.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank's index, 0 for the first rank.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank with this index, if it is below 8.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index])
        } else {
            None
        }
    }

    /// The rank as seen from the other side (first ↔ eighth).
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }

    /// All squares of this rank.
    #[inline]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(Bitboard::RANK_1.0 << (8 * self as u32))
    }

    /// The rank's digit (`'1'` … `'8'`).
    #[inline]
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank for a digit `'1'` … `'8'`.
    #[inline]
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Rank::try_from_index(c as usize - '1' as usize),
            _ => None,
        }
    }
}

/// A square of the board, A1 = 0 … H8 = 63.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[rustfmt::skip]
#[allow(missing_docs)]
pub enum Square {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// Number of squares.
    pub const NUM: usize = 64;
    /// Every square, A1 first, rank by rank.
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = {
        use Square::*;
        [
            A1, B1, C1, D1, E1, F1, G1, H1,
            A2, B2, C2, D2, E2, F2, G2, H2,
            A3, B3, C3, D3, E3, F3, G3, H3,
            A4, B4, C4, D4, E4, F4, G4, H4,
            A5, B5, C5, D5, E5, F5, G5, H5,
            A6, B6, C6, D6, E6, F6, G6, H6,
            A7, B7, C7, D7, E7, F7, G7, H7,
            A8, B8, C8, D8, E8, F8, G8, H8,
        ]
    };

    /// The square's index, 0 (A1) to 63 (H8).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The square with this index, if it is below 64.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<Square> {
        if index < 64 {
            Some(Square::ALL[index])
        } else {
            None
        }
    }

    /// The square with index `index & 63`: a total conversion for the hot
    /// paths (bitboard scans, move decoding) where the index is known to be
    /// in range.
    #[inline(always)]
    pub const fn from_index_masked(index: u32) -> Square {
        // SAFETY: `Square` is `repr(u8)` with the 64 discriminants 0..=63 and
        // no gaps; `index & 63` is always one of them. (A table lookup would
        // cost a load in move generation's innermost loop.)
        unsafe { core::mem::transmute::<u8, Square>((index & 63) as u8) }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square::from_index_masked(rank as u32 * 8 + file as u32)
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[self as usize & 7]
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize >> 3]
    }

    /// The square mirrored vertically (a1 ↔ a8): the same square seen from
    /// the other side. Equals `kiln_tables::raw::FLIP`.
    #[inline]
    pub const fn flip(self) -> Square {
        Square::from_index_masked(self as u32 ^ 56)
    }

    /// The square as a one-bit bitboard.
    #[inline]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1u64 << self as u32)
    }

    /// The `u8` index used by `kiln-tables`.
    #[inline(always)]
    pub const fn raw(self) -> u8 {
        self as u8
    }

    /// True for light squares (h1 is light, a1 is dark).
    #[inline]
    pub const fn is_light(self) -> bool {
        Bitboard::LIGHT_SQUARES.0 & (1u64 << self as u32) != 0
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().to_char(), self.rank().to_char())
    }
}

/// Error returned when a square name such as `e4` cannot be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareParseError;

impl fmt::Display for SquareParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a square is a file a-h followed by a rank 1-8, like e4")
    }
}

impl std::error::Error for SquareParseError {}

impl FromStr for Square {
    type Err = SquareParseError;

    fn from_str(s: &str) -> Result<Square, SquareParseError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(file), Some(rank)) if f.is_ascii_lowercase() => Ok(Square::new(file, rank)),
                _ => Err(SquareParseError),
            },
            _ => Err(SquareParseError),
        }
    }
}
