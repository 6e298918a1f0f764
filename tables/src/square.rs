//! Files, ranks and squares, with their algebraic names.

use core::fmt;
use core::str::FromStr;

use crate::{Bitboard, Color, ParseError};

/// A file (column of the board), `a` to `h`.
///
/// ```
/// use kiln_tables::File;
///
/// assert_eq!(File::E as u8, 4);
/// assert_eq!(File::new(4), Some(File::E));
/// assert_eq!(File::new(8), None);
/// assert_eq!("e".parse::<File>(), Ok(File::E));
/// assert_eq!(File::E.to_string(), "e");
/// assert_eq!(File::ALL.iter().filter(|f| **f >= File::E).count(), 4);
/// ```
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum File {
    /// The a-file.
    A,
    /// The b-file.
    B,
    /// The c-file.
    C,
    /// The d-file.
    D,
    /// The e-file.
    E,
    /// The f-file.
    F,
    /// The g-file.
    G,
    /// The h-file.
    H,
}

impl File {
    /// Every file, from a to h.
    ///
    /// ```
    /// use kiln_tables::File;
    ///
    /// let names: String = File::ALL.iter().map(|f| f.to_char()).collect();
    /// assert_eq!(names, "abcdefgh");
    /// ```
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

    /// The file with `index` 0 (a) to 7 (h); `None` above 7. The same as
    /// [`File::from_index`]. ([`Square::new`] is different: it takes a
    /// `File` and a [`Rank`], already checked, and cannot fail.)
    ///
    /// ```
    /// use kiln_tables::File;
    ///
    /// const H: Option<File> = File::new(7);
    /// assert_eq!(H, Some(File::H));
    /// assert_eq!(File::new(7), File::from_index(7));
    /// ```
    #[inline]
    pub const fn new(index: u8) -> Option<File> {
        if index < 8 {
            Some(File::ALL[index as usize])
        } else {
            None
        }
    }

    /// The file with `index` 0 (a) to 7 (h); `None` above 7: the inverse of
    /// [`File::index`], named as [`Square::from_index`], [`Rank::from_index`],
    /// [`Color::from_index`] and [`PieceKind::from_index`](crate::PieceKind::from_index)
    /// are. [`File::new`] is the same function.
    ///
    /// ```
    /// use kiln_tables::File;
    ///
    /// assert_eq!(File::from_index(4), Some(File::E));
    /// assert_eq!(File::from_index(8), None);
    /// assert!(File::ALL.iter().all(|f| File::from_index(f.index() as u8) == Some(*f)));
    /// ```
    #[inline]
    pub const fn from_index(index: u8) -> Option<File> {
        File::new(index)
    }

    /// The index, 0 (a) to 7 (h), for indexing arrays.
    ///
    /// ```
    /// use kiln_tables::File;
    ///
    /// assert_eq!(File::C.index(), 2);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file mirrored left to right (a ↔ h).
    ///
    /// ```
    /// use kiln_tables::File;
    ///
    /// assert_eq!(File::B.flip(), File::G);
    /// ```
    #[inline]
    pub const fn flip(self) -> File {
        File::ALL[7 - self as usize]
    }

    /// The file's letter, `'a'` to `'h'`.
    ///
    /// ```
    /// use kiln_tables::File;
    ///
    /// assert_eq!(File::D.to_char(), 'd');
    /// ```
    #[inline]
    pub const fn to_char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The file named by a lower-case letter `'a'` to `'h'`.
    ///
    /// ```
    /// use kiln_tables::File;
    ///
    /// assert_eq!(File::from_char('g'), Some(File::G));
    /// assert_eq!(File::from_char('G'), None);
    /// ```
    #[inline]
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::ALL[(c as u8 - b'a') as usize]),
            _ => None,
        }
    }
}

/// A rank (row of the board), `1` to `8`, counted from White's side.
///
/// ```
/// use kiln_tables::{Color, Rank};
///
/// assert_eq!(Rank::Fourth as u8, 3);
/// assert_eq!("4".parse::<Rank>(), Ok(Rank::Fourth));
/// assert_eq!(Rank::Fourth.to_string(), "4");
/// // Black's second rank is the seventh.
/// assert_eq!(Rank::Second.relative_to(Color::Black), Rank::Seventh);
/// ```
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// The first rank (White's back rank).
    First,
    /// The second rank.
    Second,
    /// The third rank.
    Third,
    /// The fourth rank.
    Fourth,
    /// The fifth rank.
    Fifth,
    /// The sixth rank.
    Sixth,
    /// The seventh rank.
    Seventh,
    /// The eighth rank (Black's back rank).
    Eighth,
}

impl Rank {
    /// Every rank, from the first to the eighth.
    ///
    /// ```
    /// use kiln_tables::Rank;
    ///
    /// let names: String = Rank::ALL.iter().map(|r| r.to_char()).collect();
    /// assert_eq!(names, "12345678");
    /// ```
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

    /// The rank with `index` 0 (first rank) to 7 (eighth); `None` above 7.
    /// The same as [`Rank::from_index`].
    ///
    /// ```
    /// use kiln_tables::Rank;
    ///
    /// assert_eq!(Rank::new(0), Some(Rank::First));
    /// assert_eq!(Rank::new(8), None);
    /// ```
    #[inline]
    pub const fn new(index: u8) -> Option<Rank> {
        if index < 8 {
            Some(Rank::ALL[index as usize])
        } else {
            None
        }
    }

    /// The rank with `index` 0 (first rank) to 7 (eighth); `None` above 7:
    /// the inverse of [`Rank::index`], as [`File::from_index`] and
    /// [`Square::from_index`] are for theirs. [`Rank::new`] is the same
    /// function.
    ///
    /// ```
    /// use kiln_tables::Rank;
    ///
    /// assert_eq!(Rank::from_index(3), Some(Rank::Fourth));
    /// assert_eq!(Rank::from_index(8), None);
    /// assert!(Rank::ALL.iter().all(|r| Rank::from_index(r.index() as u8) == Some(*r)));
    /// ```
    #[inline]
    pub const fn from_index(index: u8) -> Option<Rank> {
        Rank::new(index)
    }

    /// The index, 0 (first rank) to 7 (eighth), for indexing arrays.
    ///
    /// ```
    /// use kiln_tables::Rank;
    ///
    /// assert_eq!(Rank::Eighth.index(), 7);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The rank mirrored top to bottom (1 ↔ 8).
    ///
    /// ```
    /// use kiln_tables::Rank;
    ///
    /// assert_eq!(Rank::Third.flip(), Rank::Sixth);
    /// ```
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank::ALL[7 - self as usize]
    }

    /// The rank as `color` counts it: itself for White, flipped for Black.
    ///
    /// ```
    /// use kiln_tables::{Color, Rank};
    ///
    /// // Pawns promote on their eighth rank.
    /// assert_eq!(Rank::Eighth.relative_to(Color::White), Rank::Eighth);
    /// assert_eq!(Rank::Eighth.relative_to(Color::Black), Rank::First);
    /// ```
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// The rank's digit, `'1'` to `'8'`.
    ///
    /// ```
    /// use kiln_tables::Rank;
    ///
    /// assert_eq!(Rank::Fifth.to_char(), '5');
    /// ```
    #[inline]
    pub const fn to_char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank named by a digit `'1'` to `'8'`.
    ///
    /// ```
    /// use kiln_tables::Rank;
    ///
    /// assert_eq!(Rank::from_char('8'), Some(Rank::Eighth));
    /// assert_eq!(Rank::from_char('9'), None);
    /// ```
    #[inline]
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::ALL[(c as u8 - b'1') as usize]),
            _ => None,
        }
    }
}

macro_rules! squares {
    ($($name:ident)*) => {
        /// A square of the board, `A1` (index 0), `B1` (1), … `H8` (63):
        /// `index = rank * 8 + file`, the layout of every table here.
        ///
        /// ```
        /// use kiln_tables::{File, Rank, Square};
        ///
        /// const E4: Square = Square::new(File::E, Rank::Fourth);
        /// assert_eq!(E4, Square::E4);
        /// assert_eq!(E4 as u8, 28);
        /// assert_eq!(Square::from_index(28), Some(E4));
        /// assert_eq!(Square::from_index(64), None);
        /// assert_eq!("e4".parse::<Square>(), Ok(E4));
        /// assert_eq!(E4.to_string(), "e4");
        /// assert_eq!((E4.file(), E4.rank()), (File::E, Rank::Fourth));
        /// ```
        #[repr(u8)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[rustfmt::skip]
        pub enum Square {
            $(
                #[doc = concat!("The square ", stringify!($name), ".")]
                $name,
            )*
        }

        impl Square {
            /// Every square in index order: A1, B1, … H1, A2, … H8.
            ///
            /// ```
            /// use kiln_tables::Square;
            ///
            /// assert_eq!(Square::ALL.len(), 64);
            /// assert!(Square::ALL.iter().enumerate().all(|(i, s)| s.index() == i));
            /// ```
            #[rustfmt::skip]
            pub const ALL: [Square; 64] = [$(Square::$name),*];
        }
    };
}

squares! {
    A1 B1 C1 D1 E1 F1 G1 H1
    A2 B2 C2 D2 E2 F2 G2 H2
    A3 B3 C3 D3 E3 F3 G3 H3
    A4 B4 C4 D4 E4 F4 G4 H4
    A5 B5 C5 D5 E5 F5 G5 H5
    A6 B6 C6 D6 E6 F6 G6 H6
    A7 B7 C7 D7 E7 F7 G7 H7
    A8 B8 C8 D8 E8 F8 G8 H8
}

impl Square {
    /// The square on `file` and `rank`.
    ///
    /// Unlike [`File::new`] and [`Rank::new`], which check an integer index,
    /// this takes the typed coordinates, which are always on the board, so
    /// it cannot fail. From integers, check them on the way in: an index
    /// 0 to 63 with [`Square::from_index`], a file and a rank 0 to 7 with
    /// [`File::new`] and [`Rank::new`].
    ///
    /// ```
    /// use kiln_tables::{File, Rank, Square};
    ///
    /// const G1: Square = Square::new(File::G, Rank::First);
    /// assert_eq!(G1, Square::G1);
    ///
    /// // From integer coordinates, each 0 to 7:
    /// let at = |file: u8, rank: u8| {
    ///     File::new(file).zip(Rank::new(rank)).map(|(file, rank)| Square::new(file, rank))
    /// };
    /// assert_eq!(at(6, 0), Some(Square::G1));
    /// assert_eq!(at(8, 0), None);
    /// // From an index 0 to 63 (rank * 8 + file):
    /// assert_eq!(Square::from_index(6), Some(Square::G1));
    /// ```
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square::from_index_masked(rank as u32 * 8 + file as u32)
    }

    /// The square with `index` 0 (A1) to 63 (H8); `None` above 63: the
    /// inverse of [`Square::index`], like `from_index` on [`File`], [`Rank`],
    /// [`Color`] and [`PieceKind`](crate::PieceKind).
    ///
    /// ```
    /// use kiln_tables::Square;
    ///
    /// assert_eq!(Square::from_index(63), Some(Square::H8));
    /// assert_eq!(Square::from_index(64), None);
    /// assert!(Square::ALL.iter().all(|s| Square::from_index(s.index() as u8) == Some(*s)));
    /// ```
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square::ALL[index as usize])
        } else {
            None
        }
    }

    /// The square with index `index % 64`: a conversion that cannot fail,
    /// for an index already known to be in range (the `trailing_zeros` of a
    /// non-empty set, a six-bit field of a packed move). It compiles to a
    /// single AND: no table load, no branch.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square};
    ///
    /// let set = Bitboard::EMPTY.with(Square::C3).with(Square::F6);
    /// assert_eq!(Square::from_index_masked(set.0.trailing_zeros()), Square::C3);
    /// assert_eq!(Square::from_index_masked(64 + 4), Square::E1);
    /// ```
    #[inline(always)]
    pub const fn from_index_masked(index: u32) -> Square {
        use Square::*;
        // A match rather than `Square::ALL[...]`: the compiler turns the
        // identity mapping into the AND alone, where the array costs a load.
        #[rustfmt::skip]
        let square = match index & 63 {
             0 => A1,  1 => B1,  2 => C1,  3 => D1,  4 => E1,  5 => F1,  6 => G1,  7 => H1,
             8 => A2,  9 => B2, 10 => C2, 11 => D2, 12 => E2, 13 => F2, 14 => G2, 15 => H2,
            16 => A3, 17 => B3, 18 => C3, 19 => D3, 20 => E3, 21 => F3, 22 => G3, 23 => H3,
            24 => A4, 25 => B4, 26 => C4, 27 => D4, 28 => E4, 29 => F4, 30 => G4, 31 => H4,
            32 => A5, 33 => B5, 34 => C5, 35 => D5, 36 => E5, 37 => F5, 38 => G5, 39 => H5,
            40 => A6, 41 => B6, 42 => C6, 43 => D6, 44 => E6, 45 => F6, 46 => G6, 47 => H6,
            48 => A7, 49 => B7, 50 => C7, 51 => D7, 52 => E7, 53 => F7, 54 => G7, 55 => H7,
            56 => A8, 57 => B8, 58 => C8, 59 => D8, 60 => E8, 61 => F8, 62 => G8, _ => H8,
        };
        square
    }

    /// The index, 0 (A1) to 63 (H8), for indexing arrays.
    ///
    /// ```
    /// use kiln_tables::Square;
    ///
    /// let mut seen = [false; 64];
    /// seen[Square::C3.index()] = true;
    /// assert!(seen[18]);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The square's file.
    ///
    /// ```
    /// use kiln_tables::{File, Square};
    ///
    /// assert_eq!(Square::C7.file(), File::C);
    /// ```
    #[inline]
    pub const fn file(self) -> File {
        File::ALL[self as usize % 8]
    }

    /// The square's rank.
    ///
    /// ```
    /// use kiln_tables::{Rank, Square};
    ///
    /// assert_eq!(Square::C7.rank(), Rank::Seventh);
    /// ```
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::ALL[self as usize / 8]
    }

    /// The square mirrored for the other colour (a1 ↔ a8, e2 ↔ e7): the
    /// generated [`FLIP`](crate::raw::FLIP) table, computed as `index ^ 56`.
    ///
    /// ```
    /// use kiln_tables::{Square, raw};
    ///
    /// assert_eq!(Square::E2.flip(), Square::E7);
    /// assert_eq!(Square::E2.flip().flip(), Square::E2);
    /// assert!(Square::ALL.iter().all(|s| s.flip() as u8 == raw::FLIP[s.index()]));
    /// ```
    #[inline]
    pub const fn flip(self) -> Square {
        Square::from_index_masked(self as u32 ^ 56)
    }

    /// True for the light squares (h1 and a2 are light, a1 is dark): the
    /// squares of [`Bitboard::LIGHT_SQUARES`].
    ///
    /// ```
    /// use kiln_tables::Square;
    ///
    /// assert!(Square::H1.is_light() && !Square::A1.is_light());
    /// // Opposite-coloured bishops: one on c1, one on c8.
    /// assert_ne!(Square::C1.is_light(), Square::C8.is_light());
    /// ```
    #[inline]
    pub const fn is_light(self) -> bool {
        Bitboard::LIGHT_SQUARES.contains(self)
    }

    /// The square as `color` sees it: itself for White, flipped for Black.
    ///
    /// ```
    /// use kiln_tables::{Color, Square};
    ///
    /// // Each side's king starts on its own e1.
    /// assert_eq!(Square::E1.relative_to(Color::Black), Square::E8);
    /// ```
    #[inline]
    pub const fn relative_to(self, color: Color) -> Square {
        match color {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// The square `files` to the right and `ranks` up (towards Black),
    /// or `None` off the board.
    ///
    /// ```
    /// use kiln_tables::Square;
    ///
    /// assert_eq!(Square::E2.offset(0, 2), Some(Square::E4));
    /// assert_eq!(Square::H2.offset(1, 0), None);
    /// assert_eq!(Square::H1.offset(i8::MAX, i8::MIN), None);
    /// ```
    #[inline]
    pub const fn offset(self, files: i8, ranks: i8) -> Option<Square> {
        // In i16: any i8 offset from any square fits, none wraps.
        let file = (self as u8 % 8) as i16 + files as i16;
        let rank = (self as u8 / 8) as i16 + ranks as i16;
        if file < 0 || file > 7 || rank < 0 || rank > 7 {
            None
        } else {
            Some(Square::ALL[(rank * 8 + file) as usize])
        }
    }

    /// The bitboard holding only this square.
    ///
    /// ```
    /// use kiln_tables::{Bitboard, Square};
    ///
    /// assert_eq!(Square::B1.bitboard(), Bitboard(1 << 1));
    /// ```
    #[inline]
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self as u8)
    }
}

impl fmt::Display for File {
    /// Writes the letter, `a` to `h`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl fmt::Display for Rank {
    /// Writes the digit, `1` to `8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl fmt::Display for Square {
    /// Writes the algebraic name, `a1` to `h8`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), self.rank())
    }
}

/// The only `char` of `s`, if it has exactly one.
fn single_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

impl FromStr for File {
    type Err = ParseError;

    /// Parses a lower-case file letter, `a` to `h`.
    fn from_str(s: &str) -> Result<File, ParseError> {
        single_char(s)
            .and_then(File::from_char)
            .ok_or(ParseError::File)
    }
}

impl FromStr for Rank {
    type Err = ParseError;

    /// Parses a rank digit, `1` to `8`.
    fn from_str(s: &str) -> Result<Rank, ParseError> {
        single_char(s)
            .and_then(Rank::from_char)
            .ok_or(ParseError::Rank)
    }
}

impl FromStr for Square {
    type Err = ParseError;

    /// Parses a lower-case algebraic name, `a1` to `h8`.
    fn from_str(s: &str) -> Result<Square, ParseError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(file), Some(rank)) => Ok(Square::new(file, rank)),
                _ => Err(ParseError::Square),
            },
            _ => Err(ParseError::Square),
        }
    }
}
