//! `MoveList`: a fixed-capacity list of moves on the stack.

use core::ops::{Deref, DerefMut};

use arrayvec::ArrayVec;

use crate::Move;

/// A list of up to [`MoveList::CAPACITY`] moves, stored inline (no heap).
///
/// 256 exceeds the most legal moves any reachable position has (218), and
/// the FEN parser rejects material no game can reach; a push beyond capacity
/// is dropped (and asserted in debug builds) rather than panicking.
///
/// Derefs to `[Move]`, so slices' methods (`iter`, `len`, `sort_by_key`,
/// indexing, `contains`, `swap`) all work.
///
/// ```
/// use kiln_board::{Board, MoveList, generate_all};
///
/// let board = Board::startpos();
/// let mut moves = MoveList::new();
/// generate_all(&board, &mut moves);
/// // Slice methods through `Deref`.
/// assert_eq!(moves.len(), 20);
/// moves.sort_by_key(|mv| mv.to_uci(false));
/// assert_eq!(moves[0].to_uci(false), "a2a3");
/// assert!(moves.iter().any(|mv| mv.is_double_push()));
/// ```
#[derive(Clone)]
pub struct MoveList {
    // An `ArrayVec` rather than a zeroed array and a length: a new list
    // writes nothing to its slots, and one is made at every node searched.
    moves: ArrayVec<Move, { MoveList::CAPACITY }>,
}

impl MoveList {
    /// Maximum number of moves.
    ///
    /// ```
    /// use kiln_board::{Board, MoveList, generate_all};
    ///
    /// // The position with the most legal moves known (218) fits.
    /// let board: Board = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1".parse()?;
    /// let mut moves = MoveList::new();
    /// generate_all(&board, &mut moves);
    /// assert_eq!(moves.len(), 218);
    /// assert!(moves.len() < MoveList::CAPACITY);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub const CAPACITY: usize = 256;

    /// An empty list.
    ///
    /// ```
    /// use kiln_board::MoveList;
    ///
    /// let moves = MoveList::new();
    /// assert!(moves.is_empty());
    /// assert_eq!(moves.as_slice(), MoveList::default().as_slice());
    /// ```
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: ArrayVec::new(),
        }
    }

    /// Appends `mv` (dropped if the list is full, see the type's docs).
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, MoveList, Square};
    ///
    /// let mut moves = MoveList::new();
    /// let e4 = Move::new(Square::E2, Square::E4, MoveFlag::DoublePush);
    /// moves.push(e4);
    /// assert_eq!(moves.as_slice(), [e4]);
    /// ```
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        let pushed = self.moves.try_push(mv);
        debug_assert!(pushed.is_ok(), "MoveList overflow");
    }

    /// Removes every move.
    ///
    /// ```
    /// use kiln_board::{Board, MoveList, generate_all};
    ///
    /// let mut moves = MoveList::new();
    /// generate_all(&Board::startpos(), &mut moves);
    /// moves.clear();
    /// assert!(moves.is_empty());
    /// ```
    #[inline(always)]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Shortens the list to `len` moves (no effect if it is shorter).
    ///
    /// ```
    /// use kiln_board::{Board, MoveList, generate_all};
    ///
    /// let mut moves = MoveList::new();
    /// generate_all(&Board::startpos(), &mut moves);
    /// let first = moves[0];
    /// moves.truncate(1);
    /// assert_eq!(moves.as_slice(), [first]);
    /// moves.truncate(5);
    /// assert_eq!(moves.len(), 1);
    /// ```
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.moves.truncate(len);
    }

    /// Removes the move at `index`, replacing it with the last one (O(1),
    /// does not keep the order). Returns it.
    ///
    /// # Panics
    /// Panics if `index` is out of bounds.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, MoveList, Square};
    ///
    /// let a = Move::new(Square::E2, Square::E3, MoveFlag::Quiet);
    /// let b = Move::new(Square::D2, Square::D3, MoveFlag::Quiet);
    /// let c = Move::new(Square::C2, Square::C3, MoveFlag::Quiet);
    /// let mut moves = MoveList::new();
    /// for mv in [a, b, c] {
    ///     moves.push(mv);
    /// }
    /// assert_eq!(moves.swap_remove(0), a);
    /// assert_eq!(moves.as_slice(), [c, b]);
    /// ```
    #[inline]
    pub fn swap_remove(&mut self, index: usize) -> Move {
        self.moves.swap_remove(index)
    }

    /// The moves as a slice.
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveList, generate_all};
    ///
    /// let mut moves = MoveList::new();
    /// generate_all(&Board::startpos(), &mut moves);
    /// let slice: &[Move] = moves.as_slice();
    /// assert_eq!(slice.len(), 20);
    /// ```
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves as a mutable slice (for sorting in place).
    ///
    /// ```
    /// use kiln_board::{Board, MoveList, generate_all};
    ///
    /// let board: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
    /// let mut moves = MoveList::new();
    /// generate_all(&board, &mut moves);
    /// // Captures first.
    /// moves.as_mut_slice().sort_by_key(|mv| !mv.is_capture());
    /// assert_eq!(moves.iter().take_while(|mv| mv.is_capture()).count(), 8);
    /// assert!(moves[8..].iter().all(|mv| !mv.is_capture()));
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl core::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    #[inline(always)]
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl DerefMut for MoveList {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [Move] {
        self.as_mut_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
