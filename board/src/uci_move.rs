//! Reading moves in UCI long algebraic notation against a position.

use alloc::string::{String, ToString};
use core::fmt;

use crate::{Board, PieceKind, Square};

use super::generate::generate_all;
use super::move_list::MoveList;
use crate::Move;

/// Why a UCI move text was rejected.
///
/// ```
/// use kiln_board::{Board, UciMoveError, parse_uci_move};
///
/// let board = Board::startpos();
/// assert_eq!(
///     parse_uci_move(&board, "e2-e4"),
///     Err(UciMoveError::Malformed { text: "e2-e4".into() })
/// );
/// assert_eq!(
///     parse_uci_move(&board, "e2e4k"),
///     Err(UciMoveError::BadPromotion { text: "e2e4k".into() })
/// );
/// let err = parse_uci_move(&board, "e1e2").unwrap_err();
/// assert_eq!(err, UciMoveError::Illegal { text: "e1e2".into() });
/// assert_eq!(err.to_string(), "illegal move 'e1e2' in this position");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum UciMoveError {
    /// The text is not 4 or 5 characters of the form `e2e4` / `e7e8q`.
    Malformed {
        /// The text given.
        text: String,
    },
    /// The fifth character is not a promotion piece (`n`, `b`, `r`, `q`;
    /// upper case is read too).
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

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Malformed { text } => write!(
                f,
                "malformed move '{text}': expected from and to squares and an optional \
                 promotion letter, like e2e4 or e7e8q"
            ),
            UciMoveError::BadPromotion { text } => write!(
                f,
                "bad promotion in '{text}': the fifth letter must be n, b, r or q"
            ),
            UciMoveError::Illegal { text } => {
                write!(f, "illegal move '{text}' in this position")
            }
        }
    }
}

impl core::error::Error for UciMoveError {}

/// Finds the legal move written `text` in UCI notation: `e2e4`, `e7e8q`,
/// and castling either as the king's two-square move (`e1g1`) or as
/// king-takes-rook (`e1h1`, the `UCI_Chess960` form); both are accepted in
/// either mode. Where the two readings could clash (a Chess960 king next to
/// its destination, e.g. `b1c1`), an ordinary king move wins.
///
/// ```
/// use kiln_board::Board;
/// use kiln_board::parse_uci_move;
///
/// let board = Board::startpos();
/// let mv = parse_uci_move(&board, "e2e4").unwrap();
/// assert_eq!(mv.to_uci(false), "e2e4");
/// assert!(parse_uci_move(&board, "e2e5").is_err());
/// ```
///
/// # Errors
/// A [`UciMoveError`]: the text is not a move's form, names no
/// promotion piece where one is needed, or is no legal move here.
pub fn parse_uci_move(board: &Board, text: &str) -> Result<Move, UciMoveError> {
    let malformed = || UciMoveError::Malformed {
        text: text.to_string(),
    };
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return Err(malformed());
    }
    let from: Square = text[0..2].parse().map_err(|_| malformed())?;
    let to: Square = text[2..4].parse().map_err(|_| malformed())?;
    let promotion = match text.as_bytes().get(4) {
        None => None,
        Some(&c) => match PieceKind::from_fen_char(c as char) {
            Some((
                _,
                kind @ (PieceKind::Knight | PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen),
            )) => Some(kind),
            _ => {
                return Err(UciMoveError::BadPromotion {
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
        .ok_or_else(|| UciMoveError::Illegal {
            text: text.to_string(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MoveFlag;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect("valid FEN")
    }

    #[test]
    fn ordinary_moves_and_flags() {
        let b = Board::startpos();
        let mv = parse_uci_move(&b, "e2e4").expect("legal");
        assert_eq!(mv.flag(), MoveFlag::DoublePush);
        assert_eq!(
            parse_uci_move(&b, "g1f3").expect("legal").flag(),
            MoveFlag::Quiet
        );
        let b = board("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        assert_eq!(
            parse_uci_move(&b, "e5d6").expect("legal").flag(),
            MoveFlag::EnPassant
        );
    }

    #[test]
    fn promotions() {
        let b = board("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        let q = parse_uci_move(&b, "a7a8q").expect("legal");
        assert_eq!(q.promotion(), Some(PieceKind::Queen));
        assert!(!q.is_capture());
        let n = parse_uci_move(&b, "a7b8n").expect("legal");
        assert_eq!(n.promotion(), Some(PieceKind::Knight));
        assert!(n.is_capture());
        assert_eq!(n.to_uci(false), "a7b8n");
        assert_eq!(
            parse_uci_move(&b, "a7a8"),
            Err(UciMoveError::Illegal {
                text: "a7a8".into()
            })
        );
        assert_eq!(
            parse_uci_move(&b, "a7a8k"),
            Err(UciMoveError::BadPromotion {
                text: "a7a8k".into()
            })
        );
        assert_eq!(
            parse_uci_move(&b, "a7a8x"),
            Err(UciMoveError::BadPromotion {
                text: "a7a8x".into()
            })
        );
    }

    #[test]
    fn castling_in_both_notations() {
        let b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        for (text, king_takes_rook) in [("e1g1", "e1h1"), ("e1c1", "e1a1")] {
            let a = parse_uci_move(&b, text).expect("legal");
            let c = parse_uci_move(&b, king_takes_rook).expect("legal");
            assert_eq!(a, c);
            assert!(a.is_castle());
            assert_eq!(a.to_uci(false), text);
            assert_eq!(a.to_uci(true), king_takes_rook);
        }
    }

    #[test]
    fn chess960_king_step_beats_castling_reading() {
        // King b1, rook a1 with the long right: "b1c1" is an ordinary king
        // move; castling (king to c1) must be written b1a1.
        let b = board("4k3/8/8/8/8/8/8/RK6 w A - 0 1");
        let step = parse_uci_move(&b, "b1c1").expect("legal");
        assert!(!step.is_castle());
        let castle = parse_uci_move(&b, "b1a1").expect("legal");
        assert!(castle.is_castle());
        assert_eq!(castle.to_uci(false), "b1c1");
    }

    #[test]
    fn malformed_and_illegal() {
        let b = Board::startpos();
        for text in [
            "", "e2", "e2e", "e2e4qq", "i2e4", "e0e4", "E2E4", "e2 e4", "é2e4",
        ] {
            assert_eq!(
                parse_uci_move(&b, text),
                Err(UciMoveError::Malformed { text: text.into() }),
                "{text}"
            );
        }
        for text in ["e2e5", "e7e5", "e1g1", "a1a1", "0000"] {
            assert!(parse_uci_move(&b, text).is_err(), "{text}");
        }
        assert_eq!(
            parse_uci_move(&b, "e2e5"),
            Err(UciMoveError::Illegal {
                text: "e2e5".into()
            })
        );
        // Moving into check is illegal.
        let b = board("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1");
        assert!(parse_uci_move(&b, "e1d2").is_err());
        assert!(parse_uci_move(&b, "e1e2").is_ok());
        assert!(
            UciMoveError::Illegal {
                text: "e2e5".into()
            }
            .to_string()
            .contains("illegal")
        );
    }
}
