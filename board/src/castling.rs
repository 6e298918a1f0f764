//! The sides of the board a castling move goes to, and the right each
//! side is for a colour in `kiln-tables`' [`CastlingRights`] (1 White
//! short, 2 White long, 4 Black short, 8 Black long). Which rook a right
//! refers to is stored on the [`Board`](super::Board), so Chess960
//! positions (king and rooks on any files) need no special case.

use super::{CastlingRights, Color, File, Rank, Square};

/// The side of the board a castling move goes to.
///
/// ```
/// use kiln_board::{Board, CastleSide, Color, Move, MoveFlag, Square};
///
/// // Castling is stored king-takes-rook; the side follows from the rook.
/// let board: Board = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1".parse()?;
/// let long = Move::new(Square::E1, Square::A1, MoveFlag::Castle);
/// assert_eq!(long.castle_side(), CastleSide::Long);
/// assert_eq!(board.castling_rook(Color::White, CastleSide::Long), Some(Square::A1));
/// assert_eq!(CastleSide::Long.king_destination(Square::E1.rank()), Square::C1);
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastleSide {
    /// Towards the h-file: the king ends on g1/g8, the rook on f1/f8.
    Short = 0,
    /// Towards the a-file: the king ends on c1/c8, the rook on d1/d8.
    Long = 1,
}

impl CastleSide {
    /// Both sides, short first.
    ///
    /// ```
    /// use kiln_board::{Board, CastleSide, Color, Square};
    ///
    /// let board = Board::startpos();
    /// let rooks = CastleSide::ALL.map(|side| board.castling_rook(Color::Black, side));
    /// assert_eq!(rooks, [Some(Square::H8), Some(Square::A8)]);
    /// ```
    pub const ALL: [CastleSide; 2] = [CastleSide::Short, CastleSide::Long];

    /// 0 for short, 1 for long.
    ///
    /// ```
    /// use kiln_board::CastleSide;
    ///
    /// assert_eq!(CastleSide::Short.index(), 0);
    /// assert_eq!(CastleSide::Long.index(), 1);
    /// assert!(CastleSide::ALL.iter().enumerate().all(|(i, side)| side.index() == i));
    /// ```
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The right of `color` to castle to this side.
    ///
    /// ```
    /// use kiln_board::{Board, CastleSide, CastlingRights, Color};
    ///
    /// assert_eq!(CastleSide::Short.right(Color::Black), CastlingRights::BLACK_SHORT);
    /// let board: Board = "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1".parse()?;
    /// assert!(board.castling_rights().contains(CastleSide::Short.right(Color::White)));
    /// assert!(!board.castling_rights().contains(CastleSide::Long.right(Color::White)));
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    pub const fn right(self, color: Color) -> CastlingRights {
        match (color, self) {
            (Color::White, CastleSide::Short) => CastlingRights::WHITE_SHORT,
            (Color::White, CastleSide::Long) => CastlingRights::WHITE_LONG,
            (Color::Black, CastleSide::Short) => CastlingRights::BLACK_SHORT,
            (Color::Black, CastleSide::Long) => CastlingRights::BLACK_LONG,
        }
    }

    /// Where the king ends up on `rank` (g- or c-file, in Chess960 too).
    ///
    /// ```
    /// use kiln_board::{CastleSide, Rank, Square};
    ///
    /// assert_eq!(CastleSide::Short.king_destination(Rank::First), Square::G1);
    /// assert_eq!(CastleSide::Long.king_destination(Rank::Eighth), Square::C8);
    /// ```
    #[inline(always)]
    pub const fn king_destination(self, rank: Rank) -> Square {
        match self {
            CastleSide::Short => Square::new(File::G, rank),
            CastleSide::Long => Square::new(File::C, rank),
        }
    }

    /// Where the rook ends up on `rank` (f- or d-file, in Chess960 too).
    ///
    /// ```
    /// use kiln_board::{CastleSide, Rank, Square};
    ///
    /// assert_eq!(CastleSide::Short.rook_destination(Rank::First), Square::F1);
    /// assert_eq!(CastleSide::Long.rook_destination(Rank::Eighth), Square::D8);
    /// ```
    #[inline(always)]
    pub const fn rook_destination(self, rank: Rank) -> Square {
        match self {
            CastleSide::Short => Square::new(File::F, rank),
            CastleSide::Long => Square::new(File::D, rank),
        }
    }
}
