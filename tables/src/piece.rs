//! The six kinds of piece.

use core::fmt;
use core::str::FromStr;

use crate::{Color, ParseError};

/// A kind of piece, without its colour: pawn (0) to king (5), the order of
/// the Zobrist tables. Written as its lower-case letter (`p n b r q k`).
///
/// ```
/// use kiln_tables::{Color, PieceKind};
///
/// assert_eq!(PieceKind::Queen as u8, 4);
/// assert_eq!("N".parse::<PieceKind>(), Ok(PieceKind::Knight));
/// assert_eq!(PieceKind::Knight.to_string(), "n");
/// assert_eq!(PieceKind::Knight.fen_char(Color::White), 'N');
/// ```
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PieceKind {
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

impl PieceKind {
    /// Every kind, pawn to king.
    ///
    /// ```
    /// use kiln_tables::PieceKind;
    ///
    /// let letters: String = PieceKind::ALL.iter().map(|p| p.to_char()).collect();
    /// assert_eq!(letters, "pnbrqk");
    /// ```
    pub const ALL: [PieceKind; 6] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];

    /// The kind with `index` 0 (pawn) to 5 (king); `None` above 5. The same
    /// as [`PieceKind::from_index`].
    ///
    /// ```
    /// use kiln_tables::PieceKind;
    ///
    /// assert_eq!(PieceKind::new(5), Some(PieceKind::King));
    /// assert_eq!(PieceKind::new(6), None);
    /// ```
    #[inline]
    pub const fn new(index: u8) -> Option<PieceKind> {
        if index < 6 {
            Some(PieceKind::ALL[index as usize])
        } else {
            None
        }
    }

    /// The kind with `index` 0 (pawn) to 5 (king); `None` above 5: the
    /// inverse of [`PieceKind::index`], as
    /// [`Square::from_index`](crate::Square::from_index) is for squares.
    /// [`PieceKind::new`] is the same function.
    ///
    /// ```
    /// use kiln_tables::PieceKind;
    ///
    /// assert_eq!(PieceKind::from_index(1), Some(PieceKind::Knight));
    /// assert_eq!(PieceKind::from_index(6), None);
    /// assert!(PieceKind::ALL.iter().all(|p| PieceKind::from_index(p.index() as u8) == Some(*p)));
    /// ```
    #[inline]
    pub const fn from_index(index: u8) -> Option<PieceKind> {
        PieceKind::new(index)
    }

    /// The index, 0 (pawn) to 5 (king), for indexing arrays.
    ///
    /// ```
    /// use kiln_tables::PieceKind;
    ///
    /// let values = [100, 320, 330, 500, 900, 0];
    /// assert_eq!(values[PieceKind::Rook.index()], 500);
    /// ```
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter: `'p'`, `'n'`, `'b'`, `'r'`, `'q'` or `'k'`.
    ///
    /// ```
    /// use kiln_tables::PieceKind;
    ///
    /// assert_eq!(PieceKind::Bishop.to_char(), 'b');
    /// ```
    #[inline]
    pub const fn to_char(self) -> char {
        match self {
            PieceKind::Pawn => 'p',
            PieceKind::Knight => 'n',
            PieceKind::Bishop => 'b',
            PieceKind::Rook => 'r',
            PieceKind::Queen => 'q',
            PieceKind::King => 'k',
        }
    }

    /// The FEN letter of this kind for `color`: upper case for White.
    ///
    /// ```
    /// use kiln_tables::{Color, PieceKind};
    ///
    /// assert_eq!(PieceKind::King.fen_char(Color::White), 'K');
    /// assert_eq!(PieceKind::King.fen_char(Color::Black), 'k');
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
    /// use kiln_tables::{Color, PieceKind};
    ///
    /// assert_eq!(PieceKind::from_fen_char('q'), Some((Color::Black, PieceKind::Queen)));
    /// assert_eq!(PieceKind::from_fen_char('Q'), Some((Color::White, PieceKind::Queen)));
    /// assert_eq!(PieceKind::from_fen_char('x'), None);
    /// ```
    #[inline]
    pub const fn from_fen_char(c: char) -> Option<(Color, PieceKind)> {
        let piece = match c.to_ascii_lowercase() {
            'p' => PieceKind::Pawn,
            'n' => PieceKind::Knight,
            'b' => PieceKind::Bishop,
            'r' => PieceKind::Rook,
            'q' => PieceKind::Queen,
            'k' => PieceKind::King,
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

impl fmt::Display for PieceKind {
    /// Writes the lower-case letter.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

impl FromStr for PieceKind {
    type Err = ParseError;

    /// Parses one piece letter, in either case (`"n"` and `"N"` are both a
    /// knight; the case is not kept).
    fn from_str(s: &str) -> Result<PieceKind, ParseError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => match PieceKind::from_fen_char(c) {
                Some((_, piece)) => Ok(piece),
                None => Err(ParseError::PieceKind),
            },
            _ => Err(ParseError::PieceKind),
        }
    }
}
