//! Coloured pieces: a [`PieceKind`] with its [`Color`].

use core::fmt;

use super::{Color, PieceKind};

/// A piece with its colour: index `color * 6 + kind`.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Piece {
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

impl Piece {
    /// Number of coloured pieces.
    pub const NUM: usize = 12;
    /// Every piece, White's first, each side pawn to king.
    pub const ALL: [Piece; 12] = [
        Piece::WhitePawn,
        Piece::WhiteKnight,
        Piece::WhiteBishop,
        Piece::WhiteRook,
        Piece::WhiteQueen,
        Piece::WhiteKing,
        Piece::BlackPawn,
        Piece::BlackKnight,
        Piece::BlackBishop,
        Piece::BlackRook,
        Piece::BlackQueen,
        Piece::BlackKing,
    ];

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece::ALL[color as usize * 6 + kind as usize]
    }

    /// `color * 6 + kind`, 0 … 11.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece with this index, if it is below 12.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<Piece> {
        if index < 12 {
            Some(Piece::ALL[index])
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
    pub const fn flip(self) -> Piece {
        Piece::ALL[(self as usize + 6) % 12]
    }

    /// FEN letter: upper case for White, lower case for Black.
    #[inline]
    pub const fn to_char(self) -> char {
        self.kind().fen_char(self.color())
    }

    /// The piece for a FEN letter (`'P'` White pawn, `'k'` Black king …).
    #[inline]
    pub const fn from_char(c: char) -> Option<Piece> {
        match PieceKind::from_fen_char(c) {
            Some((color, kind)) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}
