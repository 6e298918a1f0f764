//! Draw rules: fifty moves, repetition and material.
//!
//! Repetition walks the key history (the state stack) backwards two plies
//! at a time, and stops at the last irreversible move (capture or pawn move,
//! which reset the half-move clock) or null move, since no position before
//! it can recur. Positions are equal when their keys are; en passant enters
//! the key only when a capture is possible, which is FIDE's notion of "the
//! same position".
//!
//! Material comes in two rules, as in the Rustic book:
//! - [`Board::is_insufficient_material`] is FIDE's *claim* rule: no sequence
//!   of legal moves can mate (K v K, K+minor v K, bishops all on one square
//!   colour). K+N v K+N is not a claimable draw: a helpmate exists.
//! - [`Board::can_force_mate`] is the search's rule: with no queen, rook or
//!   pawn, mate can be forced only with the bishop pair, bishop and knight,
//!   or three knights on one side. When it is false the search may score
//!   the position as a draw.

use super::Bitboard;
use super::Color;
use super::PieceKind;
use super::board::Board;

impl Board {
    /// Half-move clock at which the fifty-move rule applies (50 moves each).
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// let board: Board = "4k3/8/8/8/8/8/8/4K2R w - - 100 80".parse()?;
    /// assert_eq!(board.halfmove_clock(), Board::FIFTY_MOVE_PLIES);
    /// assert!(board.is_fifty_move_draw());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub const FIFTY_MOVE_PLIES: u16 = 100;

    /// True when 100 plies have passed without a capture or pawn move. (A
    /// checkmate delivered on that ply still wins: check for mate first.)
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board: Board = "4k3/8/8/8/8/8/8/4K2R w - - 99 80".parse()?;
    /// assert!(!board.is_fifty_move_draw());
    /// board.make_move(Move::new(Square::H1, Square::H2, MoveFlag::Quiet));
    /// assert!(board.is_fifty_move_draw());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline]
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmove >= Self::FIFTY_MOVE_PLIES
    }

    /// Number of earlier occurrences of the current position since the last
    /// irreversible or null move.
    ///
    /// ```
    /// use kiln_board::{Board, parse_uci_move};
    ///
    /// let mut board = Board::startpos();
    /// assert_eq!(board.repetition_count(), 0);
    /// for round in 1..=2 {
    ///     // Both knights out and back: the start position again.
    ///     for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///         board.make_move(parse_uci_move(&board, text)?);
    ///     }
    ///     assert_eq!(board.repetition_count(), round);
    /// }
    /// // A pawn move is irreversible: nothing before it counts.
    /// board.make_move(parse_uci_move(&board, "e2e4")?);
    /// assert_eq!(board.repetition_count(), 0);
    /// # Ok::<(), kiln_board::UciMoveError>(())
    /// ```
    pub fn repetition_count(&self) -> usize {
        self.repetitions(usize::MAX)
    }

    /// True when the current position occurred at least `count` times
    /// before: `is_repetition(2)` is FIDE's threefold repetition (claimable),
    /// `is_repetition(1)` a twofold repetition.
    ///
    /// ```
    /// use kiln_board::{Board, parse_uci_move};
    ///
    /// let mut board = Board::startpos();
    /// let play = |board: &mut Board, moves: &str| -> Result<(), kiln_board::UciMoveError> {
    ///     for text in moves.split_whitespace() {
    ///         board.make_move(parse_uci_move(board, text)?);
    ///     }
    ///     Ok(())
    /// };
    /// play(&mut board, "g1f3 g8f6 f3g1 f6g8")?;
    /// // The start position, for the second time: twofold, not yet threefold.
    /// assert!(board.is_repetition(1) && !board.is_repetition(2));
    /// play(&mut board, "g1f3 g8f6 f3g1 f6g8")?;
    /// // The third time: FIDE's threefold repetition.
    /// assert!(board.is_repetition(2));
    /// # Ok::<(), kiln_board::UciMoveError>(())
    /// ```
    #[inline]
    pub fn is_repetition(&self, count: usize) -> bool {
        self.repetitions(count) >= count
    }

    /// The search's repetition rule: true when the current position
    /// occurred before at all, in the tree or in the game.
    ///
    /// Why a single earlier occurrence, even before the root: arbiters that
    /// claim threefold repetition for the side to move (python-chess's
    /// `outcome(claim_draw=True)`, which `match.py` uses) end the game as
    /// soon as either side *could* move into a third occurrence. A winning
    /// side that allows second occurrences hands the other side (or the
    /// arbiter, on its own behalf) that claim. Inside the tree the rule is
    /// the usual one: the side that wants a repetition can repeat it again.
    ///
    /// ```
    /// use kiln_board::{Board, parse_uci_move};
    ///
    /// let mut board = Board::startpos();
    /// for text in ["g1f3", "g8f6", "f3g1"] {
    ///     board.make_move(parse_uci_move(&board, text)?);
    /// }
    /// assert!(!board.is_search_repetition());
    /// board.make_move(parse_uci_move(&board, "f6g8")?);
    /// assert!(board.is_search_repetition());
    /// # Ok::<(), kiln_board::UciMoveError>(())
    /// ```
    #[inline]
    pub fn is_search_repetition(&self) -> bool {
        self.is_repetition(1)
    }

    /// Counts earlier occurrences, stopping at `stop` of them.
    #[inline]
    fn repetitions(&self, stop: usize) -> usize {
        let len = self.history.len();
        let window = (self.halfmove.min(self.plies_from_null) as usize).min(len);
        let mut count = 0;
        let mut back = 4;
        // Two plies back is the same side to move but cannot be the same
        // position (a move changed it and the opponent's only undid one
        // piece); start at four.
        while back <= window {
            let ply = len - back;
            if self.history[ply].key == self.key {
                count += 1;
                if count >= stop {
                    return count;
                }
            }
            back += 2;
        }
        count
    }

    /// FIDE's insufficient-material rule: true when neither side can mate
    /// by any sequence of legal moves (K v K, K+B or K+N v K, and any
    /// number of bishops all on squares of one colour). A claimable draw.
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// let insufficient = |fen: &str| -> Result<bool, kiln_board::FenError> {
    ///     Ok(Board::from_fen(fen)?.is_insufficient_material())
    /// };
    /// // King and bishop against king.
    /// assert!(insufficient("4k3/8/8/8/8/8/8/4KB2 w - - 0 1")?);
    /// // Bishops on light squares only (c8 and f1).
    /// assert!(insufficient("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1")?);
    /// // Knight against knight: a helpmate exists, no claim.
    /// assert!(!insufficient("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1")?);
    /// assert!(!insufficient("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")?);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.kind_bb(PieceKind::Pawn)
            | self.kind_bb(PieceKind::Rook)
            | self.kind_bb(PieceKind::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.kind_bb(PieceKind::Knight);
        let bishops = self.kind_bb(PieceKind::Bishop);
        let minors = (knights | bishops).count();
        if minors <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    /// True when some side still has the material to force mate: any queen,
    /// rook or pawn on the board, or one side with the bishop pair (bishops
    /// on both square colours), bishop and knight, or three knights.
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// let can_mate = |fen: &str| -> Result<bool, kiln_board::FenError> {
    ///     Ok(Board::from_fen(fen)?.can_force_mate())
    /// };
    /// // Bishop and knight mate; two knights cannot force it.
    /// assert!(can_mate("4k3/8/8/8/8/8/8/3NKB2 w - - 0 1")?);
    /// assert!(!can_mate("4k3/8/8/8/8/8/8/3NKN2 w - - 0 1")?);
    /// // Knight against knight is no claimable draw, but nobody can force mate.
    /// let board: Board = "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1".parse()?;
    /// assert!(!board.is_insufficient_material() && !board.can_force_mate());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn can_force_mate(&self) -> bool {
        let heavy = self.kind_bb(PieceKind::Pawn)
            | self.kind_bb(PieceKind::Rook)
            | self.kind_bb(PieceKind::Queen);
        if heavy.any() {
            return true;
        }
        Color::ALL.into_iter().any(|color| {
            let bishops = self.pieces(color, PieceKind::Bishop);
            let knights = self.pieces(color, PieceKind::Knight);
            let pair = (bishops & Bitboard::LIGHT_SQUARES).any()
                && (bishops & Bitboard::DARK_SQUARES).any();
            pair || (bishops.any() && knights.any()) || knights.count() >= 3
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Move, MoveFlag, Square};

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect("valid FEN")
    }

    /// Plays moves written in UCI notation. These tests need only quiet
    /// moves and double pushes, so the move is built here (the full parser
    /// is move generation's, a layer above the board).
    fn play(board: &mut Board, moves: &str) {
        for text in moves.split_whitespace() {
            let from: Square = text[..2].parse().expect("a square");
            let to: Square = text[2..4].parse().expect("a square");
            assert!(board.piece_on(to).is_none(), "{text} is not a quiet move");
            let piece = board.piece_on(from).expect("a piece to move");
            let two_ranks = from.rank().index().abs_diff(to.rank().index()) == 2;
            let flag = if piece.kind() == PieceKind::Pawn && two_ranks {
                MoveFlag::DoublePush
            } else {
                MoveFlag::Quiet
            };
            board.make_move(Move::new(from, to, flag));
        }
    }

    #[test]
    fn fifty_move_rule() {
        assert!(!board("4k3/8/8/8/8/8/8/4K2R w - - 99 80").is_fifty_move_draw());
        let mut b = board("4k3/8/8/8/8/8/8/4K2R w - - 99 80");
        play(&mut b, "h1h2");
        assert!(b.is_fifty_move_draw());
        b.unmake_move();
        play(&mut b, "e1e2");
        assert!(b.is_fifty_move_draw());
    }

    #[test]
    fn threefold_by_knight_shuffle() {
        let mut b = Board::startpos();
        assert_eq!(b.repetition_count(), 0);
        play(&mut b, "g1f3 g8f6 f3g1 f6g8");
        assert!(b.is_repetition(1) && !b.is_repetition(2));
        assert_eq!(b.repetition_count(), 1);
        play(&mut b, "g1f3 g8f6 f3g1 f6g8");
        assert!(b.is_repetition(2));
        assert_eq!(b.repetition_count(), 2);
    }

    #[test]
    fn repetition_stops_at_irreversible_moves() {
        let mut b = Board::startpos();
        play(&mut b, "g1f3 g8f6 f3g1 f6g8 e2e4 e7e5");
        assert_eq!(b.repetition_count(), 0);
        play(&mut b, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(b.repetition_count(), 1);
    }

    #[test]
    fn lost_castling_rights_make_a_different_position() {
        let mut b = board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        play(&mut b, "e1e2 e8e7 e2e1 e7e8");
        assert_eq!(b.repetition_count(), 0);
        play(&mut b, "e1e2 e8e7 e2e1 e7e8");
        assert_eq!(b.repetition_count(), 1);
    }

    #[test]
    fn en_passant_counts_only_when_capturable() {
        // After d7d5 the d6 square is usable by the e5 pawn: the position
        // differs from the same placement reached later without it.
        let mut b = board("4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
        play(&mut b, "d7d5");
        assert_eq!(b.en_passant(), Some(Square::D6));
        play(&mut b, "e1e2 e8e7 e2e1 e7e8");
        assert_eq!(b.repetition_count(), 0);
        // Without a pawn that could capture, a double push changes nothing
        // in the key: the shuffle repeats the position right after it.
        let mut b = board("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1");
        play(&mut b, "d7d5 e1e2 e8e7 e2e1 e7e8");
        assert_eq!(b.repetition_count(), 1);
    }

    #[test]
    fn search_repetition_is_any_earlier_occurrence() {
        // One earlier occurrence is a draw for the search, whether it was
        // played in the game or only in the tree: a second one is still
        // short of FIDE's threefold.
        let mut b = Board::startpos();
        play(&mut b, "g1f3 g8f6 f3g1 f6g8");
        assert!(b.is_search_repetition());
        assert!(!b.is_repetition(2));
        play(&mut b, "e2e4 e7e5 g1f3 g8f6 f3g1 f6g8");
        assert!(b.is_search_repetition());
        // A position seen only once is not.
        let mut b = Board::startpos();
        play(&mut b, "g1f3 g8f6 f3g1");
        assert!(!b.is_search_repetition());
    }

    #[test]
    fn null_move_cuts_the_repetition_window() {
        // Black to move with kings e2 and e8 occurs before the null move
        // and again after it (White triangulates); the null move is not a
        // real move, so the earlier occurrence does not count.
        let mut b = board("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
        play(&mut b, "e1e2");
        let before = b.key();
        b.make_null();
        play(&mut b, "e2d2 e8d8 d2e2 d8e8 e2d2 e8d8 d2d1 d8e8 d1e2");
        assert_eq!(b.key(), before);
        assert_eq!(b.repetition_count(), 0);
    }

    #[test]
    fn insufficient_material_claims() {
        for fen in [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KB2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
            "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
            "2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1",
        ] {
            assert!(board(fen).is_insufficient_material(), "{fen}");
            assert!(!board(fen).can_force_mate(), "{fen}");
        }
        for fen in [
            "4k3/8/8/8/8/8/8/4KBB1 w - - 0 1",
            "3bk3/8/8/8/8/8/8/4KB2 w - - 0 1",
            "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",
            "4k3/8/8/8/8/8/8/3NKB2 w - - 0 1",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
        ] {
            assert!(!board(fen).is_insufficient_material(), "{fen}");
        }
    }

    #[test]
    fn cannot_force_mate() {
        // Helpmates exist (no FIDE claim) but no mate can be forced.
        for fen in [
            "4kn2/8/8/8/8/8/8/4KN2 w - - 0 1",
            "3bk3/8/8/8/8/8/8/4KB2 w - - 0 1",
            "4k3/8/8/8/8/8/8/3NKN2 w - - 0 1",
        ] {
            assert!(!board(fen).is_insufficient_material(), "{fen}");
            assert!(!board(fen).can_force_mate(), "{fen}");
        }
        for fen in [
            "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1",
            "4k3/8/8/8/8/8/8/3NKB2 w - - 0 1",
            "4k3/8/8/8/8/8/8/2NNKN2 w - - 0 1",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
            "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
        ] {
            assert!(board(fen).can_force_mate(), "{fen}");
        }
    }
}
