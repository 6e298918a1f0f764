//! Castling rights.

use core::fmt;
use core::str::FromStr;

use crate::{Color, ParseError, Square, raw};

/// A set of castling rights: bit 0 White short (`K`), bit 1 White long
/// (`Q`), bit 2 Black short (`k`), bit 3 Black long (`q`), the index of
/// the Zobrist castling keys. Written as in FEN.
///
/// ```
/// use kiln_tables::{CastlingRights, Square};
///
/// let rights: CastlingRights = "KQkq".parse().unwrap();
/// assert_eq!(rights, CastlingRights::ALL);
/// // Moving the h1 rook gives up White's short castling.
/// let after = rights.after_move(Square::H1, Square::H5);
/// assert_eq!(after.to_string(), "Qkq");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights (`-` in FEN).
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert_eq!(CastlingRights::NONE.bits(), 0);
    /// ```
    pub const NONE: CastlingRights = CastlingRights(0);
    /// White may castle short, on the king's side (`K`).
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert_eq!(CastlingRights::WHITE_SHORT.to_string(), "K");
    /// ```
    pub const WHITE_SHORT: CastlingRights = CastlingRights(1);
    /// White may castle long, on the queen's side (`Q`).
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert_eq!(CastlingRights::WHITE_LONG.to_string(), "Q");
    /// ```
    pub const WHITE_LONG: CastlingRights = CastlingRights(2);
    /// Black may castle short (`k`).
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert_eq!(CastlingRights::BLACK_SHORT.to_string(), "k");
    /// ```
    pub const BLACK_SHORT: CastlingRights = CastlingRights(4);
    /// Black may castle long (`q`).
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert_eq!(CastlingRights::BLACK_LONG.to_string(), "q");
    /// ```
    pub const BLACK_LONG: CastlingRights = CastlingRights(8);
    /// All four rights (`KQkq`).
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert_eq!(CastlingRights::ALL.bits(), 15);
    /// ```
    pub const ALL: CastlingRights = CastlingRights(15);

    /// The rights with these `bits` (see the type's docs); `None` when a bit
    /// above bit 3 is set.
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert_eq!(CastlingRights::new(0b0101).map(|r| r.to_string()), Some("Kk".to_string()));
    /// assert_eq!(CastlingRights::new(16), None);
    /// ```
    #[inline]
    pub const fn new(bits: u8) -> Option<CastlingRights> {
        if bits < 16 {
            Some(CastlingRights(bits))
        } else {
            None
        }
    }

    /// Both rights of `color`, short and long.
    ///
    /// ```
    /// use kiln_tables::{CastlingRights, Color};
    ///
    /// assert_eq!(CastlingRights::of(Color::White).to_string(), "KQ");
    /// assert_eq!(CastlingRights::of(Color::Black).to_string(), "kq");
    /// ```
    #[inline]
    pub const fn of(color: Color) -> CastlingRights {
        CastlingRights(3 << (2 * color as u8))
    }

    /// The four bits, 0 to 15.
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert_eq!(CastlingRights::BLACK_SHORT.bits(), 4);
    /// ```
    #[inline]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// True when every right in `other` is in `self`.
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert!(CastlingRights::ALL.contains(CastlingRights::BLACK_LONG));
    /// assert!(!CastlingRights::NONE.contains(CastlingRights::BLACK_LONG));
    /// ```
    #[inline]
    pub const fn contains(self, other: CastlingRights) -> bool {
        self.0 & other.0 == other.0
    }

    /// True when no right is left (`-` in FEN).
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// assert!(CastlingRights::NONE.is_empty());
    /// assert!(!CastlingRights::WHITE_LONG.is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The rights in `self` or in `other`.
    ///
    /// ```
    /// use kiln_tables::CastlingRights;
    ///
    /// const WHITE: CastlingRights = CastlingRights::WHITE_SHORT.union(CastlingRights::WHITE_LONG);
    /// assert_eq!(WHITE.to_string(), "KQ");
    /// ```
    #[inline]
    pub const fn union(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 | other.0)
    }

    /// The rights in both `self` and `other`: with a per-square mask of the
    /// rights that survive a move from or to that square, the rights after
    /// the move (how a Chess960 engine applies masks of its own).
    ///
    /// ```
    /// use kiln_tables::{CastlingRights, Color, Square, castling_rights_mask};
    ///
    /// let after = CastlingRights::ALL.intersection(castling_rights_mask(Square::H8));
    /// assert_eq!(after.to_string(), "KQq");
    /// assert!(CastlingRights::ALL.intersection(CastlingRights::of(Color::Black)).contains(
    ///     CastlingRights::BLACK_SHORT
    /// ));
    /// ```
    #[inline]
    pub const fn intersection(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & other.0)
    }

    /// The rights in `self` that are not in `other`.
    ///
    /// ```
    /// use kiln_tables::{CastlingRights, Color};
    ///
    /// // Black's king moves: Black gives up both rights.
    /// let after = CastlingRights::ALL.difference(CastlingRights::of(Color::Black));
    /// assert_eq!(after.to_string(), "KQ");
    /// ```
    #[inline]
    pub const fn difference(self, other: CastlingRights) -> CastlingRights {
        CastlingRights(self.0 & !other.0)
    }

    /// The rights left after a move from `from` to `to` in standard chess: a
    /// move from or to a king's or rook's starting square gives up the rights
    /// that need it ([`castling_rights_mask`](crate::castling_rights_mask)).
    ///
    /// ```
    /// use kiln_tables::{CastlingRights, Square};
    ///
    /// // The White king moves: White loses both rights.
    /// let after = CastlingRights::ALL.after_move(Square::E1, Square::E2);
    /// assert_eq!(after.to_string(), "kq");
    /// // Capturing on a8 takes away Black's long castling.
    /// assert_eq!(after.after_move(Square::F3, Square::A8).to_string(), "k");
    /// ```
    #[inline]
    pub const fn after_move(self, from: Square, to: Square) -> CastlingRights {
        CastlingRights(
            self.0 & raw::castling_rights_mask(from as u8) & raw::castling_rights_mask(to as u8),
        )
    }
}

const LETTERS: [(CastlingRights, char); 4] = [
    (CastlingRights::WHITE_SHORT, 'K'),
    (CastlingRights::WHITE_LONG, 'Q'),
    (CastlingRights::BLACK_SHORT, 'k'),
    (CastlingRights::BLACK_LONG, 'q'),
];

impl fmt::Display for CastlingRights {
    /// Writes the FEN castling field: `-`, or `K`, `Q`, `k`, `q` in that
    /// order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (right, letter) in LETTERS {
            if self.contains(right) {
                write!(f, "{letter}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for CastlingRights {
    type Err = ParseError;

    /// Parses a standard FEN castling field: `-`, or a non-empty selection
    /// of `KQkq` in that order.
    fn from_str(s: &str) -> Result<CastlingRights, ParseError> {
        if s == "-" {
            return Ok(CastlingRights::NONE);
        }
        let mut rights = CastlingRights::NONE;
        let mut letters = LETTERS.iter();
        for c in s.chars() {
            // Each letter must come after the previous one in KQkq order.
            let (right, _) = letters
                .by_ref()
                .find(|(_, letter)| *letter == c)
                .ok_or(ParseError::Castling)?;
            rights = rights.union(*right);
        }
        if rights == CastlingRights::NONE {
            return Err(ParseError::Castling);
        }
        Ok(rights)
    }
}
