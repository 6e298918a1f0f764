//! Game results by rule, as a CECP engine must announce them.
//!
//! Under CECP the engine, not the GUI, knows the rules: after every move it
//! plays or receives it says `1-0 {White mates}`, `1/2-1/2 {Stalemate}` and
//! so on. Draws are the ones a player may *claim* under FIDE rules:
//! threefold repetition, fifty moves, and the dead positions of the claim
//! rule ([`Board::is_insufficient_material`]: K v K, K+minor v K, bishops
//! all on one colour). Checkmate is tested first, since a mate on the
//! hundredth quiet ply still wins.

use core::fmt;

use kiln_board::count_legal;
use kiln_board::{Board, Color};

/// How a game ended by rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The side to move is checkmated.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// The position has occurred three times.
    Repetition,
    /// A hundred plies without a capture or pawn move.
    FiftyMoves,
    /// Neither side can mate by any sequence of legal moves.
    InsufficientMaterial,
}

impl Outcome {
    /// The result of the game in `board`'s position, if it is over or a
    /// draw can be claimed.
    pub fn of(board: &Board) -> Option<Outcome> {
        if count_legal(board) == 0 {
            return Some(if board.in_check() {
                Outcome::Checkmate {
                    winner: !board.side_to_move(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if board.is_repetition(2) {
            Some(Outcome::Repetition)
        } else if board.is_fifty_move_draw() {
            Some(Outcome::FiftyMoves)
        } else if board.is_insufficient_material() {
            Some(Outcome::InsufficientMaterial)
        } else {
            None
        }
    }

    /// Whether the game is drawn.
    pub fn is_draw(&self) -> bool {
        !matches!(self, Outcome::Checkmate { .. })
    }

    /// Whether the game is over without anyone's choice (mate, stalemate,
    /// dead position) rather than by a claim a player may decline.
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            Outcome::Checkmate { .. } | Outcome::Stalemate | Outcome::InsufficientMaterial
        )
    }
}

impl fmt::Display for Outcome {
    /// The `RESULT {COMMENT}` line the engine sends.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::Checkmate {
                winner: Color::White,
            } => "1-0 {White mates}",
            Outcome::Checkmate {
                winner: Color::Black,
            } => "0-1 {Black mates}",
            Outcome::Stalemate => "1/2-1/2 {Stalemate}",
            Outcome::Repetition => "1/2-1/2 {Draw by repetition}",
            Outcome::FiftyMoves => "1/2-1/2 {Draw by fifty move rule}",
            Outcome::InsufficientMaterial => "1/2-1/2 {Insufficient material}",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::parse_uci_move;

    fn outcome(fen: &str) -> Option<Outcome> {
        Outcome::of(&Board::from_fen(fen).expect("valid FEN"))
    }

    #[test]
    fn finished_games() {
        assert_eq!(Outcome::of(&Board::startpos()), None);
        let mate = outcome("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(
            mate,
            Some(Outcome::Checkmate {
                winner: Color::Black
            })
        );
        assert_eq!(
            mate.map(|o| o.to_string()),
            Some("0-1 {Black mates}".into())
        );
        assert_eq!(
            outcome("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some(Outcome::Stalemate)
        );
        assert_eq!(
            outcome("8/8/4k3/8/8/3NK3/8/8 w - - 0 1"),
            Some(Outcome::InsufficientMaterial)
        );
        assert_eq!(outcome("8/8/4k3/8/8/3NK3/4n3/8 w - - 0 1"), None);
        assert_eq!(
            outcome("8/8/4k3/8/8/3RK3/8/8 w - - 100 80"),
            Some(Outcome::FiftyMoves)
        );
        // Mate on the hundredth ply wins.
        assert_eq!(
            outcome("7k/7Q/6K1/8/8/8/8/8 b - - 100 80"),
            Some(Outcome::Checkmate {
                winner: Color::White
            })
        );
    }

    #[test]
    fn threefold_repetition() {
        let mut board = Board::startpos();
        for _ in 0..2 {
            for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
                assert_eq!(Outcome::of(&board), None);
                let mv = parse_uci_move(&board, text).expect("legal");
                board.make_move(mv);
            }
        }
        assert_eq!(Outcome::of(&board), Some(Outcome::Repetition));
        assert!(Outcome::Repetition.is_draw() && !Outcome::Repetition.is_final());
    }
}
