//! The six kinds of piece.

use core::fmt;
use core::str::FromStr;

use crate::{Color, ParseError};

/// A kind of piece, without its colour: pawn (0) to king (5), the order of
/// the Zobrist tables. Written as its lower-case letter (`p n b r q k`).
///
/// ```
/// use kiln_tables::{Color, Piece};
///
/// assert_eq!(Piece::Queen as u8, 4);
/// assert_eq!("N".parse::<Piece>(), Ok(Piece::Knight));
/// assert_eq!(Piece::Knight.to_string(), "n");
/// assert_eq!(Piece::Knight.fen_char(Color::White), 'N');
/// ```
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Piece {
    /// A pawn.
    Pawn,
    /// A knight.
    Knight,
    /// A bishop.
    Bishop,
    /// A rook.
    Rook,
    /// A queen.
    Queen,
    /// A king.
    King,
}

impl Piece {
    /// Every kind, pawn to king.
    ///
    /// ```
    /// use kiln_tables::Piece;
    ///
    /// let letters: String = Piece::ALL.iter().map(|p| p.to_char()).collect();
    /// assert_eq!(letters, "pnbrqk");
    /// ```
    pub const ALL: [Piece; 6] = [
        Piece::Pawn,
        Piece::Knight,
        Piece::Bishop,
        Piece::Rook,
        Piece::Queen,
        Piece::King,
    ];

    /// The kind with `index` 0 (pawn) to 5 (king); `None` above 5. The same
    /// as [`Piece::from_index`].
    ///
    /// ```
    /// use kiln_tables::Piece;
    ///
    /// assert_eq!(Piece::new(5), Some(Piece::King));
    /// assert_eq!(Piece::new(6), None);
    /// ```
    #[inline]
    pub const fn new(index: u8) -> Option<Piece> {
        if index < 6 {
            Some(Piece::ALL[index as usize])
        } else {
            None
        }
    }

    /// The kind with `index` 0 (pawn) to 5 (king); `None` above 5: the
    /// inverse of [`Piece::index`], as
    /// [`Square::from_index`](crate::Square::from_index) is for squares.
    /// [`Piece::new`] is the same function.
    ///
    /// ```
    /// use kiln_tables::Piece;
    ///
    /// assert_eq!(Piece::from_index(1), Some(Piece::Knight));
    /// assert_eq!(Piece::from_index(6), None);
    /// assert!(Piece::ALL.iter().all(|p| Piece::from_index(p.index() as u8) == Some(*p)));
    /// ```
    #[inline]
    pub const fn from_index(index: u8) -> Option<Piece> {
        Piece::new(index)
    }

    /// The index, 0 (pawn) to 5 (king), for indexing arrays.
    ///
    /// ```
    /// use kiln_tables::Piece;
    ///
    /// let values = [100, 320, 330, 500, 900, 0];
    /// assert_eq!(values[Piece::Rook.index()], 500);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter: `'p'`, `'n'`, `'b'`, `'r'`, `'q'` or `'k'`.
    ///
    /// ```
    /// use kiln_tables::Piece;
    ///
    /// assert_eq!(Piece::Bishop.to_char(), 'b');
    /// ```
    #[inline]
    pub const fn to_char(self) -> char {
        match self {
            Piece::Pawn => 'p',
            Piece::Knight => 'n',
            Piece::Bishop => 'b',
            Piece::Rook => 'r',
            Piece::Queen => 'q',
            Piece::King => 'k',
        }
    }

    /// The FEN letter of this kind for `color`: upper case for White.
    ///
    /// ```
    /// use kiln_tables::{Color, Piece};
    ///
    /// assert_eq!(Piece::King.fen_char(Color::White), 'K');
    /// assert_eq!(Piece::King.fen_char(Color::Black), 'k');
    /// ```
    #[inline]
    pub const fn fen_char(self, color: Color) -> char {
        match color {
            Color::White => self.to_char().to_ascii_uppercase(),
            Color::Black => self.to_char(),
        }
    }

    /// The colour and kind of a FEN letter (`'P'` White pawn … `'k'` Black
    /// king).
    ///
    /// ```
    /// use kiln_tables::{Color, Piece};
    ///
    /// assert_eq!(Piece::from_fen_char('q'), Some((Color::Black, Piece::Queen)));
    /// assert_eq!(Piece::from_fen_char('Q'), Some((Color::White, Piece::Queen)));
    /// assert_eq!(Piece::from_fen_char('x'), None);
    /// ```
    #[inline]
    pub const fn from_fen_char(c: char) -> Option<(Color, Piece)> {
        let piece = match c.to_ascii_lowercase() {
            'p' => Piece::Pawn,
            'n' => Piece::Knight,
            'b' => Piece::Bishop,
            'r' => Piece::Rook,
            'q' => Piece::Queen,
            'k' => Piece::King,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some((color, piece))
    }
}

impl fmt::Display for Piece {
    /// Writes the lower-case letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl FromStr for Piece {
    type Err = ParseError;

    /// Parses one piece letter, in either case (`"n"` and `"N"` are both a
    /// knight; the case is not kept).
    fn from_str(s: &str) -> Result<Piece, ParseError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => match Piece::from_fen_char(c) {
                Some((_, piece)) => Ok(piece),
                None => Err(ParseError::Piece),
            },
            _ => Err(ParseError::Piece),
        }
    }
}
