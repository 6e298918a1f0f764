//! What a move did to the placement: the pieces it took off the board and
//! the pieces it put on, read from the board's history. An engine keeps
//! its own incremental state (a network's accumulators, an evaluation's
//! piece-square sums) up to date from these, without touching
//! [`Board::make_move`](crate::Board::make_move).

use crate::{ColoredPiece, HistoryEntry, MoveFlag, PieceKind, Square};

/// Filler for the unused slots.
const NOTHING: (ColoredPiece, Square) = (ColoredPiece::WhitePawn, Square::A1);

/// The pieces one move took off and put on: at most two each way
/// (castling moves king and rook; a capture takes the mover off its square
/// and the victim off its own; a promotion takes a pawn off and puts
/// another piece on). Made by [`HistoryEntry::changes`].
///
/// ```
/// use kiln_board::{Board, ColoredPiece, PlacementChanges, Square, parse_uci_move};
///
/// let mut board: Board = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse()?;
/// board.make_move(parse_uci_move(&board, "e1g1")?);
/// let changes: PlacementChanges = board.history()[0].changes();
/// assert_eq!(
///     changes.removed(),
///     [(ColoredPiece::WhiteKing, Square::E1), (ColoredPiece::WhiteRook, Square::H1)]
/// );
/// assert_eq!(
///     changes.added(),
///     [(ColoredPiece::WhiteKing, Square::G1), (ColoredPiece::WhiteRook, Square::F1)]
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacementChanges {
    removed: [(ColoredPiece, Square); 2],
    removed_len: u8,
    added: [(ColoredPiece, Square); 2],
    added_len: u8,
}

impl PlacementChanges {
    /// No change: what a null move does.
    ///
    /// ```
    /// use kiln_board::PlacementChanges;
    ///
    /// assert!(PlacementChanges::NONE.removed().is_empty());
    /// assert!(PlacementChanges::NONE.added().is_empty());
    /// ```
    pub const NONE: PlacementChanges = PlacementChanges {
        removed: [NOTHING; 2],
        removed_len: 0,
        added: [NOTHING; 2],
        added_len: 0,
    };

    /// The pieces taken off, each with the square it left.
    ///
    /// ```
    /// use kiln_board::{Board, ColoredPiece, Square, parse_uci_move};
    ///
    /// // White's pawn takes the knight on d5.
    /// let mut board: Board = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1".parse()?;
    /// board.make_move(parse_uci_move(&board, "e4d5")?);
    /// assert_eq!(
    ///     board.history()[0].changes().removed(),
    ///     [(ColoredPiece::WhitePawn, Square::E4), (ColoredPiece::BlackKnight, Square::D5)]
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn removed(&self) -> &[(ColoredPiece, Square)] {
        &self.removed[..usize::from(self.removed_len)]
    }

    /// The pieces put on, each with its square.
    ///
    /// ```
    /// use kiln_board::{Board, ColoredPiece, Square, parse_uci_move};
    ///
    /// // A promotion puts a queen on, not the pawn.
    /// let mut board: Board = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1".parse()?;
    /// board.make_move(parse_uci_move(&board, "a7a8q")?);
    /// assert_eq!(board.history()[0].changes().added(), [(ColoredPiece::WhiteQueen, Square::A8)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn added(&self) -> &[(ColoredPiece, Square)] {
        &self.added[..usize::from(self.added_len)]
    }

    #[inline(always)]
    fn remove(&mut self, piece: ColoredPiece, square: Square) {
        self.removed[usize::from(self.removed_len)] = (piece, square);
        self.removed_len += 1;
    }

    #[inline(always)]
    fn add(&mut self, piece: ColoredPiece, square: Square) {
        self.added[usize::from(self.added_len)] = (piece, square);
        self.added_len += 1;
    }
}

impl HistoryEntry {
    /// What this move did to the placement ([`PlacementChanges::NONE`] for
    /// a null move).
    ///
    /// ```
    /// use kiln_board::{Board, ColoredPiece, Square, parse_uci_move};
    ///
    /// // En passant takes the pawn beside the target square off.
    /// let mut board: Board = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1".parse()?;
    /// board.make_move(parse_uci_move(&board, "e5d6")?);
    /// let changes = board.history()[0].changes();
    /// assert_eq!(
    ///     changes.removed(),
    ///     [(ColoredPiece::WhitePawn, Square::E5), (ColoredPiece::BlackPawn, Square::D5)]
    /// );
    /// assert_eq!(changes.added(), [(ColoredPiece::WhitePawn, Square::D6)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn changes(&self) -> PlacementChanges {
        let mut changes = PlacementChanges::NONE;
        let mv = self.mv;
        if mv.is_null() {
            return changes;
        }
        let (from, to) = (mv.from(), mv.to());
        let moved = self.moved;
        let mover = moved.color();
        match mv.flag() {
            MoveFlag::Castle => {
                let rook = ColoredPiece::new(mover, PieceKind::Rook);
                let side = mv.castle_side();
                changes.remove(moved, from);
                changes.remove(rook, to);
                changes.add(moved, side.king_destination(from.rank()));
                changes.add(rook, side.rook_destination(from.rank()));
            }
            MoveFlag::EnPassant => {
                changes.remove(moved, from);
                changes.remove(
                    ColoredPiece::new(!mover, PieceKind::Pawn),
                    Square::from_index_masked(to as u32 ^ 8),
                );
                changes.add(moved, to);
            }
            _ => {
                changes.remove(moved, from);
                if let Some(victim) = self.captured {
                    changes.remove(victim, to);
                }
                let landed = match mv.promotion() {
                    Some(kind) => ColoredPiece::new(mover, kind),
                    None => moved,
                };
                changes.add(landed, to);
            }
        }
        changes
    }
}
