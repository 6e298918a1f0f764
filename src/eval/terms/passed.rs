//! Passed pawns beyond their rank bonus (which the pawn-structure pass
//! gives): blocked or free stop squares, a safe path, the kings' race to
//! the stop and queening squares, the rule of the square, and rooks behind
//! them.

use super::*;
use crate::eval::masks::forward;
use crate::eval::masks::{
    distance, file_mask, forward_file, passed_span, ranks_ahead, relative_rank,
};
use kiln_board::{Board, Square};

/// The passed-pawn terms of `us` (attacks `ours`) against the other side
/// (attacks `theirs`), for the passers the pawn-structure pass found.
#[inline(always)]
pub(super) fn passed_pawns<S: Sink>(
    board: &Board,
    us: Color,
    pawns: &PawnInfo,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let them = !us;
    let occupied = board.occupied();
    let their_pawns = board.pieces(them, PieceKind::Pawn);
    let our_king = board.king_square(us);
    let their_king = board.king_square(them);

    // Passed pawns: a blocked stop square, and the kings' race to it.
    let their_pieces_gone =
        (board.color_bb(them).0 & !their_pawns.0 & !board.pieces(them, PieceKind::King).0) == 0;
    for sq in pawns.passed[us.index()] {
        let stop = match us {
            Color::White => Square::from_index(sq as u8 + 8),
            Color::Black => (sq as u8).checked_sub(8).and_then(Square::from_index),
        };
        if let Some(stop) = stop {
            if occupied.contains(stop) {
                sink.add(us, PASSED_BLOCKED, 1);
                if board.color_bb(them).contains(stop) {
                    sink.add(us, PASSED_BLOCKED_BY_ENEMY, 1);
                }
            }
            let their_distance = i32::from(distance(their_king as u8, stop as u8));
            let our_distance = i32::from(distance(our_king as u8, stop as u8));
            let rank = relative_rank(sq, us) as i32;
            sink.add(
                us,
                PASSED_KING_DISTANCE,
                (their_distance - our_distance).clamp(-4, 4) * rank,
            );
            // Each king's own distance too, by rank: how much it matters
            // grows as the pawn comes closer.
            sink.add(us, PASSED_ENEMY_KING + rank as usize, their_distance);
            sink.add(us, PASSED_OWN_KING + rank as usize, our_distance);
            // Rule of the square: with only pawns left to them, a passer
            // whose path is clear and whose queening square their king
            // cannot reach in time promotes.
            if their_pieces_gone {
                let path = forward_file(us, sq as u8);
                let queening = match us {
                    Color::White => 56 + sq.file().index() as u8,
                    Color::Black => sq.file().index() as u8,
                };
                // A pawn on its second rank moves two squares at once.
                let pawn_moves = (7 - rank).min(5);
                let tempo = i32::from(board.side_to_move() == them);
                let king_moves = i32::from(distance(their_king as u8, queening)) - tempo;
                if path & occupied.0 == 0 && pawn_moves < king_moves {
                    sink.add(us, UNSTOPPABLE_PASSER, 1);
                }
            }
        }
    }

    let occupied = occupied.0;
    let rooks = board.pieces(us, PieceKind::Rook).0;
    for sq in pawns.passed[us.index()] {
        // A passed pawn whose stop square is empty and not attacked can
        // move on at once; worth more the further it has come.
        let stop = forward(1u64 << sq as u8, us);
        if stop & (occupied | theirs.all) == 0 {
            sink.add(us, PASSED_FREE, relative_rank(sq, us) as i32);
        }
        // The whole way to the queening square out of the enemy's reach.
        let path = forward_file(us, sq as u8);
        if path & theirs.all == 0 {
            sink.add(us, PASSED_PATH_SAFE, relative_rank(sq, us) as i32);
        }
        // Not even the neighbouring files ahead hold an enemy man or an
        // enemy attack: nothing can come to stop it.
        let span = passed_span(us, sq as u8);
        if span & (theirs.all | board.color_bb(!us).0) == 0 {
            sink.add(us, PASSED_SPAN_FREE, relative_rank(sq, us) as i32);
        }
        // Its stop square is covered: a blockader can be driven off.
        if stop & ours.all != 0 {
            sink.add(us, PASSED_STOP_DEFENDED, relative_rank(sq, us) as i32);
        }
        // A rook behind it pushes it on and keeps guarding it.
        let file = file_mask(sq.file().index() as u8);
        let behind = file & !ranks_ahead(us, sq) & !(1u64 << sq as u8);
        if rooks & behind != 0 {
            sink.add(us, ROOK_BEHIND_PASSER, 1);
        }
    }
}
