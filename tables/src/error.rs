//! The error of every parser in this crate.

use core::fmt;

/// Why a name could not be parsed; each variant says what was expected.
///
/// ```
/// use kiln_tables::{ParseError, Square};
///
/// let err = "e9".parse::<Square>().unwrap_err();
/// assert_eq!(err, ParseError::Square);
/// assert_eq!(
///     err.to_string(),
///     "expected a square: a file letter a-h then a rank digit 1-8, such as e4"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseError {
    /// Not a file letter `a` to `h`.
    File,
    /// Not a rank digit `1` to `8`.
    Rank,
    /// Not a square name `a1` to `h8`.
    Square,
    /// Not a colour, `w` or `b`.
    Color,
    /// Not a piece letter.
    PieceKind,
    /// Not a FEN castling field.
    Castling,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseError::File => "expected a file: one lower-case letter a-h",
            ParseError::Rank => "expected a rank: one digit 1-8",
            ParseError::Square => {
                "expected a square: a file letter a-h then a rank digit 1-8, such as e4"
            }
            ParseError::Color => "expected a colour: w or b",
            ParseError::PieceKind => "expected a piece letter: one of p n b r q k (either case)",
            ParseError::Castling => {
                "expected castling rights: - or some of K Q k q, in that order, each once"
            }
        })
    }
}

impl core::error::Error for ParseError {}
