//! Coloured pieces: a [`PieceKind`] with its [`Color`].

use core::fmt;

use super::{Color, PieceKind};

/// A piece with its colour: index `color * 6 + kind`.
///
/// ```
/// use kiln_board::{Color, ColoredPiece, PieceKind};
///
/// let piece = ColoredPiece::new(Color::Black, PieceKind::Knight);
/// assert_eq!(piece, ColoredPiece::BlackKnight);
/// assert_eq!(piece.index(), 7);
/// assert_eq!(piece.to_string(), "n");
/// ```
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ColoredPiece {
    /// A white pawn (`P` in FEN).
    WhitePawn,
    /// A white knight (`N` in FEN).
    WhiteKnight,
    /// A white bishop (`B` in FEN).
    WhiteBishop,
    /// A white rook (`R` in FEN).
    WhiteRook,
    /// A white queen (`Q` in FEN).
    WhiteQueen,
    /// A white king (`K` in FEN).
    WhiteKing,
    /// A black pawn (`p` in FEN).
    BlackPawn,
    /// A black knight (`n` in FEN).
    BlackKnight,
    /// A black bishop (`b` in FEN).
    BlackBishop,
    /// A black rook (`r` in FEN).
    BlackRook,
    /// A black queen (`q` in FEN).
    BlackQueen,
    /// A black king (`k` in FEN).
    BlackKing,
}

impl ColoredPiece {
    /// Number of coloured pieces.
    ///
    /// ```
    /// use kiln_board::{Board, ColoredPiece};
    ///
    /// // A count per coloured piece.
    /// let mut counts = [0; ColoredPiece::NUM];
    /// for piece in Board::startpos().mailbox().iter().flatten() {
    ///     counts[piece.index()] += 1;
    /// }
    /// assert_eq!(counts[ColoredPiece::WhitePawn.index()], 8);
    /// assert_eq!(counts[ColoredPiece::BlackQueen.index()], 1);
    /// ```
    pub const NUM: usize = 12;
    /// Every piece, White's first, each side pawn to king.
    ///
    /// ```
    /// use kiln_board::{Color, ColoredPiece};
    ///
    /// assert_eq!(ColoredPiece::ALL.len(), ColoredPiece::NUM);
    /// assert!(ColoredPiece::ALL.iter().enumerate().all(|(i, piece)| piece.index() == i));
    /// assert_eq!(ColoredPiece::ALL.iter().filter(|p| p.color() == Color::Black).count(), 6);
    /// ```
    pub const ALL: [ColoredPiece; 12] = [
        ColoredPiece::WhitePawn,
        ColoredPiece::WhiteKnight,
        ColoredPiece::WhiteBishop,
        ColoredPiece::WhiteRook,
        ColoredPiece::WhiteQueen,
        ColoredPiece::WhiteKing,
        ColoredPiece::BlackPawn,
        ColoredPiece::BlackKnight,
        ColoredPiece::BlackBishop,
        ColoredPiece::BlackRook,
        ColoredPiece::BlackQueen,
        ColoredPiece::BlackKing,
    ];

    /// The piece of `color` and `kind`.
    ///
    /// ```
    /// use kiln_board::{Color, ColoredPiece, PieceKind};
    ///
    /// assert_eq!(ColoredPiece::new(Color::White, PieceKind::Queen), ColoredPiece::WhiteQueen);
    /// assert_eq!(ColoredPiece::new(Color::Black, PieceKind::Pawn), ColoredPiece::BlackPawn);
    /// ```
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> ColoredPiece {
        ColoredPiece::ALL[color as usize * 6 + kind as usize]
    }

    /// `color * 6 + kind`, 0 … 11.
    ///
    /// ```
    /// use kiln_board::ColoredPiece;
    ///
    /// assert_eq!(ColoredPiece::WhitePawn.index(), 0);
    /// assert_eq!(ColoredPiece::BlackPawn.index(), 6);
    /// assert_eq!(ColoredPiece::BlackKing.index(), 11);
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with this index, if it is below 12.
    ///
    /// ```
    /// use kiln_board::ColoredPiece;
    ///
    /// assert_eq!(ColoredPiece::try_from_index(11), Some(ColoredPiece::BlackKing));
    /// assert_eq!(ColoredPiece::try_from_index(12), None);
    /// ```
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<ColoredPiece> {
        if index < 12 {
            Some(ColoredPiece::ALL[index])
        } else {
            None
        }
    }

    /// The piece's colour.
    ///
    /// ```
    /// use kiln_board::{Color, ColoredPiece};
    ///
    /// assert_eq!(ColoredPiece::WhiteKing.color(), Color::White);
    /// assert_eq!(ColoredPiece::BlackPawn.color(), Color::Black);
    /// ```
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    ///
    /// ```
    /// use kiln_board::{ColoredPiece, PieceKind};
    ///
    /// assert_eq!(ColoredPiece::BlackRook.kind(), PieceKind::Rook);
    /// assert_eq!(ColoredPiece::WhiteRook.kind(), PieceKind::Rook);
    /// ```
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[self as usize % 6]
    }

    /// The same kind in the other colour.
    ///
    /// ```
    /// use kiln_board::ColoredPiece;
    ///
    /// assert_eq!(ColoredPiece::WhiteBishop.flip(), ColoredPiece::BlackBishop);
    /// assert_eq!(ColoredPiece::BlackKing.flip(), ColoredPiece::WhiteKing);
    /// assert!(ColoredPiece::ALL.iter().all(|p| p.flip().flip() == *p));
    /// ```
    #[inline]
    pub const fn flip(self) -> ColoredPiece {
        ColoredPiece::ALL[(self as usize + 6) % 12]
    }

    /// FEN letter: upper case for White, lower case for Black.
    ///
    /// ```
    /// use kiln_board::ColoredPiece;
    ///
    /// assert_eq!(ColoredPiece::WhiteKnight.to_char(), 'N');
    /// assert_eq!(ColoredPiece::BlackQueen.to_char(), 'q');
    /// ```
    #[inline]
    pub const fn to_char(self) -> char {
        self.kind().fen_char(self.color())
    }

    /// The piece for a FEN letter (`'P'` White pawn, `'k'` Black king …).
    ///
    /// ```
    /// use kiln_board::ColoredPiece;
    ///
    /// assert_eq!(ColoredPiece::from_char('P'), Some(ColoredPiece::WhitePawn));
    /// assert_eq!(ColoredPiece::from_char('k'), Some(ColoredPiece::BlackKing));
    /// assert_eq!(ColoredPiece::from_char('x'), None);
    /// assert!(ColoredPiece::ALL.iter().all(|p| ColoredPiece::from_char(p.to_char()) == Some(*p)));
    /// ```
    #[inline]
    pub const fn from_char(c: char) -> Option<ColoredPiece> {
        match PieceKind::from_fen_char(c) {
            Some((color, kind)) => Some(ColoredPiece::new(color, kind)),
            None => None,
        }
    }
}

impl fmt::Display for ColoredPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}
