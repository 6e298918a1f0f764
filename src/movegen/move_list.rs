//! `MoveList`: a fixed-capacity list of moves on the stack.

use core::ops::{Deref, DerefMut};

use crate::board::Move;

/// A list of up to [`MoveList::CAPACITY`] moves, stored inline (no heap).
///
/// 256 exceeds the most legal moves any reachable position has (218), and
/// the FEN parser rejects material no game can reach; a push beyond capacity
/// is dropped (and asserted in debug builds) rather than panicking.
///
/// Derefs to `[Move]`, so slices' methods (`iter`, `len`, `sort_by_key`,
/// indexing, `contains`, `swap`) all work.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MoveList::CAPACITY],
    len: usize,
}

impl MoveList {
    /// Maximum number of moves.
    pub const CAPACITY: usize = 256;

    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MoveList::CAPACITY],
            len: 0,
        }
    }

    /// Appends `mv` (dropped if the list is full, see the type's docs).
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MoveList::CAPACITY, "MoveList overflow");
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = mv;
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Shortens the list to `len` moves (no effect if it is shorter).
    #[inline]
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Removes the move at `index`, replacing it with the last one (O(1),
    /// does not keep the order). Returns it.
    ///
    /// # Panics
    /// Panics if `index` is out of bounds.
    #[inline]
    pub fn swap_remove(&mut self, index: usize) -> Move {
        let mv = self[index];
        self.len -= 1;
        self.moves[index] = self.moves[self.len];
        mv
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for sorting in place).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
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
