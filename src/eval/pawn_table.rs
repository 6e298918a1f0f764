//! The pawn hash table: a small per-thread cache of the pawn-structure
//! terms and the pawns' piece-square entries, keyed by the board's pawn key.
//!
//! [`terms::pawn_structure`] and the pawns' piece-square sum depend on the
//! two pawn bitboards alone, and pawns move rarely, so most evaluations meet
//! a pawn structure seen before. Each search thread owns one table (no
//! sharing, no locking); an entry keeps the full 64-bit key, the packed
//! White-minus-Black score and the passed pawns the piece terms need.
//!
//! A fresh table is all zeros, which is also the correct entry for key 0
//! (no pawns: no pawn terms, no passed pawns).

use super::terms::{self, Packed, PawnInfo};
use kiln_board::{Board, Color, PieceKind};

/// One cached pawn structure.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    key: u64,
    /// Pawn terms plus the pawns' piece-square entries, packed.
    packed: i32,
    info: PawnInfo,
}

/// A per-thread pawn hash table (see the module documentation).
#[derive(Clone, Debug)]
pub struct PawnTable {
    entries: Vec<Entry>,
}

impl PawnTable {
    /// Entries in a table from [`PawnTable::new`] (a power of two; 4 Ki
    /// entries of 32 bytes is 128 KiB, which stays in a core's L2 cache:
    /// a search meets far fewer pawn structures than that).
    pub const ENTRIES: usize = 1 << 12;

    /// An empty table.
    pub fn new() -> Self {
        PawnTable {
            entries: vec![Entry::default(); Self::ENTRIES],
        }
    }

    /// The packed pawn-structure score plus the pawns' piece-square
    /// entries (White minus Black), and the pawn info of `board`, from the
    /// table or computed and stored.
    #[inline]
    pub fn probe(&mut self, board: &Board) -> (i32, PawnInfo) {
        let key = board.pawn_key().0;
        let index = (key as usize) & (self.entries.len() - 1);
        let entry = &mut self.entries[index];
        if entry.key != key {
            let mut sink = Packed::default();
            let info = terms::pawn_structure(
                board.pieces(Color::White, PieceKind::Pawn),
                board.pieces(Color::Black, PieceKind::Pawn),
                &mut sink,
            );
            *entry = Entry {
                key,
                packed: sink
                    .white_minus_black()
                    .wrapping_add(super::evaluate::pawn_psqt_sum(board)),
                info,
            };
        }
        (entry.packed, entry.info)
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, evaluate_with};
    use kiln_board::{MoveList, generate_all};

    #[test]
    fn cached_evaluation_equals_the_uncached_one() {
        // A tiny table so that entries are overwritten and keys collide on
        // their index.
        let mut table = PawnTable {
            entries: vec![Entry::default(); 4],
        };
        let mut big = PawnTable::new();
        for fen in [
            kiln_board::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let mut board = Board::from_fen(fen).expect("valid FEN");
            // A deterministic walk: always the move at a varying index.
            for ply in 0..80usize {
                let expected = evaluate(&board);
                assert_eq!(evaluate_with(&board, &mut table), expected, "{board}");
                assert_eq!(evaluate_with(&board, &mut big), expected, "{board}");
                assert_eq!(evaluate_with(&board, &mut big), expected, "{board} (hit)");
                let mut moves = MoveList::new();
                generate_all(&board, &mut moves);
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves[(ply * 7 + 3) % moves.len()]);
            }
        }
        table.clear();
        assert!(table.entries.iter().all(|e| e.key == 0 && e.packed == 0));
    }
}
