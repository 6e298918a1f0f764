//! Static exchange evaluation: does a move win at least a given amount of
//! material once every capture on its destination square has been played
//! out, each side always recapturing with its least valuable piece (and
//! stopping when recapturing would lose)?
//!
//! The swap algorithm follows the exchange without making moves: a running
//! balance flips sign each turn, and sliding attackers hidden behind a piece
//! that has just captured (x-rays) join as the occupancy shrinks. Pins are
//! ignored, which is a common and harmless simplification.

use kiln_board::attacks;
use kiln_board::{Board, Move, PieceKind};

/// Piece values for exchanges (pawn..king); the king is worth "everything".
pub const SEE_VALUES: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

fn value(kind: PieceKind) -> i32 {
    SEE_VALUES[kind.index()]
}

/// Whether `mv` wins at least `threshold` centipawns of material by static
/// exchange. Castling, en passant and promotions are treated as winning
/// nothing (they are rare enough that precision does not pay here).
pub fn see_ge(board: &Board, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() || mv.is_en_passant() || mv.is_promotion() {
        return threshold <= 0;
    }
    let (from, to) = (mv.from(), mv.to());
    let Some(attacker) = board.piece_on(from) else {
        return threshold <= 0;
    };
    let victim_value = board.piece_on(to).map_or(0, |p| value(p.kind()));

    // What we win if the opponent does not recapture.
    let mut swap = victim_value - threshold;
    if swap < 0 {
        return false;
    }
    // What we still hold if the opponent recaptures our piece for free.
    swap = value(attacker.kind()) - swap;
    if swap <= 0 {
        return true;
    }

    let mut occupied = board.occupied() ^ from.bitboard() ^ to.bitboard();
    let mut attackers = board.attackers_to(to, occupied);
    let diagonal = board.kind_bb(PieceKind::Bishop) | board.kind_bb(PieceKind::Queen);
    let straight = board.kind_bb(PieceKind::Rook) | board.kind_bb(PieceKind::Queen);
    let mut side = board.side_to_move();
    let mut result = true;

    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & board.color_bb(side);
        if ours.is_empty() {
            break;
        }
        result = !result;

        let Some((kind, bb)) = PieceKind::ALL
            .iter()
            .map(|&k| (k, ours & board.kind_bb(k)))
            .find(|(_, bb)| !bb.is_empty())
        else {
            break;
        };
        if kind == PieceKind::King {
            // The king may only recapture if the opponent has nothing left
            // attacking the square.
            let theirs = attackers & board.color_bb(!side);
            return if theirs.is_empty() { result } else { !result };
        }
        swap = value(kind) - swap;
        if swap < i32::from(result) {
            break;
        }
        if let Some(sq) = bb.first() {
            occupied ^= sq.bitboard();
        }
        if matches!(kind, PieceKind::Pawn | PieceKind::Bishop | PieceKind::Queen) {
            attackers |= attacks::bishop(to, occupied) & diagonal;
        }
        if matches!(kind, PieceKind::Rook | PieceKind::Queen) {
            attackers |= attacks::rook(to, occupied) & straight;
        }
    }
    result
}
