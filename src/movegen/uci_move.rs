//! Reading moves in UCI long algebraic notation against a position.

use core::fmt;

use crate::board::{Board, PieceKind, Square};

use super::generate::generate_all;
use super::move_list::MoveList;
use crate::board::Move;

/// Why a UCI move text was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// The text is not 4 or 5 characters of the form `e2e4` / `e7e8q`.
    Malformed {
        /// The text given.
        text: String,
    },
    /// The fifth character is not a promotion piece (`n`, `b`, `r`, `q`).
    BadPromotion {
        /// The text given.
        text: String,
    },
    /// The move is well-formed but not legal in the position.
    Illegal {
        /// The text given.
        text: String,
    },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Malformed { text } => write!(
                f,
                "malformed move '{text}': expected from and to squares and an optional \
                 promotion letter, like e2e4 or e7e8q"
            ),
            MoveParseError::BadPromotion { text } => write!(
                f,
                "bad promotion in '{text}': the fifth letter must be n, b, r or q"
            ),
            MoveParseError::Illegal { text } => {
                write!(f, "illegal move '{text}' in this position")
            }
        }
    }
}

impl std::error::Error for MoveParseError {}

/// Finds the legal move written `text` in UCI notation: `e2e4`, `e7e8q`,
/// and castling either as the king's two-square move (`e1g1`) or as
/// king-takes-rook (`e1h1`, the `UCI_Chess960` form); both are accepted in
/// either mode. Where the two readings could clash (a Chess960 king next to
/// its destination, e.g. `b1c1`), an ordinary king move wins.
///
/// ```
/// use kiln::board::Board;
/// use kiln::movegen::parse_uci_move;
///
/// let board = Board::startpos();
/// let mv = parse_uci_move(&board, "e2e4").unwrap();
/// assert_eq!(mv.to_uci(false), "e2e4");
/// assert!(parse_uci_move(&board, "e2e5").is_err());
/// ```
pub fn parse_uci_move(board: &Board, text: &str) -> Result<Move, MoveParseError> {
    let malformed = || MoveParseError::Malformed {
        text: text.to_string(),
    };
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return Err(malformed());
    }
    let from: Square = text[0..2].parse().map_err(|_| malformed())?;
    let to: Square = text[2..4].parse().map_err(|_| malformed())?;
    let promotion = match text.as_bytes().get(4) {
        None => None,
        Some(&c) => match PieceKind::from_char(c as char) {
            Some(
                kind @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
            ) => Some(kind),
            _ => {
                return Err(MoveParseError::BadPromotion {
                    text: text.to_string(),
                });
            }
        },
    };
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    let candidates = moves
        .iter()
        .copied()
        .filter(|mv| mv.from() == from && mv.promotion() == promotion);
    let exact = candidates.clone().find(|mv| mv.to() == to);
    exact
        .or_else(|| {
            candidates
                .clone()
                .find(|mv| mv.is_castle() && mv.castling_king_destination() == to)
        })
        .ok_or_else(|| MoveParseError::Illegal {
            text: text.to_string(),
        })
}
