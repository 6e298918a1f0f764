//! Coloured pieces: a [`PieceKind`] with its [`Color`].

use core::fmt;

use super::{Color, PieceKind};

/// A piece with its colour: index `color * 6 + kind`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum ColoredPiece {
    WhitePawn,
    WhiteKnight,
    WhiteBishop,
    WhiteRook,
    WhiteQueen,
    WhiteKing,
    BlackPawn,
    BlackKnight,
    BlackBishop,
    BlackRook,
    BlackQueen,
    BlackKing,
}

impl ColoredPiece {
    /// Number of coloured pieces.
    pub const NUM: usize = 12;
    /// Every piece, White's first, each side pawn to king.
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
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> ColoredPiece {
        ColoredPiece::ALL[color as usize * 6 + kind as usize]
    }

    /// `color * 6 + kind`, 0 … 11.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with this index, if it is below 12.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<ColoredPiece> {
        if index < 12 {
            Some(ColoredPiece::ALL[index])
        } else {
            None
        }
    }

    /// The piece's colour.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if (self as u8) < 6 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The piece's kind.
    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        PieceKind::ALL[self as usize % 6]
    }

    /// The same kind in the other colour.
    #[inline]
    pub const fn flip(self) -> ColoredPiece {
        ColoredPiece::ALL[(self as usize + 6) % 12]
    }

    /// FEN letter: upper case for White, lower case for Black.
    #[inline]
    pub const fn to_char(self) -> char {
        self.kind().fen_char(self.color())
    }

    /// The piece for a FEN letter (`'P'` White pawn, `'k'` Black king …).
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
