//! Material imbalance: what a piece is worth beside other material.

use super::*;
use kiln_board::Board;

/// Material imbalance of `us`: what a piece is worth beside other material.
/// For every pair of kinds (pawn, knight, bishop, rook, queen), our count of
/// the first times our count of the second (the second no later in that
/// order; pawn times pawn is left out), and our count of the first times
/// their count of an earlier kind: knights gain with pawns on the board,
/// rooks and queens get in each other's way, a queen against minor pieces
/// is not a queen against rooks.
#[inline(always)]
pub(super) fn imbalance<S: Sink>(board: &Board, us: Color, sink: &mut S) {
    const KINDS: [PieceKind; 5] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ];
    let ours = KINDS.map(|kind| board.pieces(us, kind).count() as i32);
    let theirs = KINDS.map(|kind| board.pieces(!us, kind).count() as i32);
    let mut own = IMBALANCE_OURS;
    let mut other = IMBALANCE_THEIRS;
    for (first, &count) in ours.iter().enumerate().skip(1) {
        for &second in &ours[..=first] {
            sink.add(us, own, count * second);
            own += 1;
        }
        for &second in &theirs[..first] {
            sink.add(us, other, count * second);
            other += 1;
        }
    }
}
