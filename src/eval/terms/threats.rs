//! Threats: enemy pieces attacked by pawns, minors and rooks, hanging and
//! weakly defended men, restricted squares, pins on the king, attacks on
//! the queen, and safe pawn pushes that would attack a piece.

use super::*;
use crate::eval::masks::forward;
use crate::eval::masks::{
    between, diagonal_reach, king_ring, knight_reach, pawn_attacks, straight_reach,
};
use kiln_board::{Bitboard, Board};

/// Threats by `us` (attacks `ours`) on the pieces of the other side
/// (attacks `theirs`): pieces attacked by pawns, rooks and queens attacked
/// by minor pieces, queens attacked by rooks, and pieces attacked but not
/// defended at all.
#[inline(always)]
pub(super) fn threats<S: Sink>(
    board: &Board,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let them = !us;
    let their = |kind| board.pieces(them, kind).0;
    let pieces = board.color_bb(them).0 & !their(PieceKind::Pawn) & !their(PieceKind::King);
    sink.add(
        us,
        THREAT_BY_PAWN,
        (ours.pawns & pieces).count_ones() as i32,
    );
    // The same from a pawn that is defended or not attacked: the threat
    // cannot be answered by taking the pawn.
    let our_pawns = board.pieces(us, PieceKind::Pawn).0;
    let safe_pawns = our_pawns & (ours.all | !theirs.all);
    sink.add(
        us,
        THREAT_BY_SAFE_PAWN,
        (pawn_attacks(Bitboard(safe_pawns), us) & pieces).count_ones() as i32,
    );
    sink.add(
        us,
        THREAT_BY_ROOK,
        (ours.rooks & their(PieceKind::Queen)).count_ones() as i32,
    );
    sink.add(
        us,
        HANGING,
        (ours.all & pieces & !theirs.all).count_ones() as i32,
    );
    // Squares both sides attack where they are not strongly defended (by
    // a pawn, or twice when we do not attack twice): their pieces cannot
    // safely go there.
    let strong = theirs.pawns | (theirs.twice & !ours.twice);
    sink.add(
        us,
        RESTRICTED,
        (theirs.all & ours.all & !strong).count_ones() as i32,
    );
    // By attacker and victim: their men attacked by our knights and
    // bishops (pieces even when strongly defended, a trade offer at least;
    // pawns only when weak), and weak ones attacked by our rooks. Weak
    // pawns are the endgame's usual targets.
    let men = board.color_bb(them).0 & !their(PieceKind::King);
    let weak = men & !strong & ours.all;
    let minor_targets = pieces | weak;
    for kind in [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let victims = their(kind);
        let k = kind.index();
        sink.add(
            us,
            MINOR_THREAT + k,
            (ours.minors & minor_targets & victims).count_ones() as i32,
        );
        sink.add(
            us,
            ROOK_THREAT + k,
            (ours.rooks & weak & victims).count_ones() as i32,
        );
    }
    // Their pawns we attack and they do not defend at all.
    sink.add(
        us,
        HANGING_PAWN,
        (ours.all & their(PieceKind::Pawn) & !theirs.all).count_ones() as i32,
    );
    // Their men pinned to their king by our sliders: they cannot move,
    // and they are targets.
    let king = board.king_square(them) as u8;
    let occupied = board.occupied().0;
    let queens_ours = board.pieces(us, PieceKind::Queen).0;
    let snipers = (diagonal_reach(king, 0) & (board.pieces(us, PieceKind::Bishop).0 | queens_ours))
        | (straight_reach(king, 0) & (board.pieces(us, PieceKind::Rook).0 | queens_ours));
    let pinned = Bitboard(snipers)
        .into_iter()
        .filter(|sniper| {
            let between = between(king, *sniper as u8) & occupied;
            between & (between.wrapping_sub(1)) == 0 && between & men != 0
        })
        .count();
    sink.add(us, PIN_ON_KING, pinned as i32);
    // Their men we attack that only their queen defends: the queen is tied
    // to them, or trades itself for a pawn.
    let king_guard = king_ring(board.king_square(them) as u8);
    let others = theirs.pawns | theirs.minors | theirs.rooks | king_guard;
    sink.add(
        us,
        WEAK_QUEEN_DEFENCE,
        (men & ours.all & theirs.queens & !others).count_ones() as i32,
    );
    // Their knights and bishops we attack with a minor or a rook where no
    // pawn of theirs defends them: a trade on our terms or a tempo gained.
    let minors = their(PieceKind::Knight) | their(PieceKind::Bishop);
    let loose = minors & !theirs.pawns;
    sink.add(
        us,
        THREAT_MINOR_ON_MINOR,
        (ours.minors & loose).count_ones() as i32,
    );
    sink.add(
        us,
        THREAT_ROOK_ON_MINOR,
        (ours.rooks & loose).count_ones() as i32,
    );
    // Their men next to our king that nothing defends.
    let our_king_ring = king_ring(board.king_square(us) as u8);
    sink.add(
        us,
        THREAT_BY_KING,
        (our_king_ring & men & !theirs.all).count_ones() as i32,
    );
    // Squares from which a knight or slider of ours could attack their
    // queen next move, that their pawns do not guard and we are not
    // standing on (sliders: only squares we attack twice, so the slider
    // would be defended there).
    let queens = their(PieceKind::Queen);
    if queens != 0 {
        let queen = queens.trailing_zeros() as u8;
        let occupied = board.occupied().0;
        let open = !board.color_bb(us).0 & !theirs.pawns;
        let knight = knight_reach(queen) & ours.knights & open;
        let sliders = (diagonal_reach(queen, occupied) & ours.bishops)
            | (straight_reach(queen, occupied) & ours.rooks);
        sink.add(us, KNIGHT_ON_QUEEN, knight.count_ones() as i32);
        sink.add(
            us,
            SLIDER_ON_QUEEN,
            (sliders & open & ours.twice).count_ones() as i32,
        );
        // Our bishop or rook lined up with their queen behind exactly one
        // man: a pin on the queen or a discovered attack on it.
        let snipers = (diagonal_reach(queen, 0) & board.pieces(us, PieceKind::Bishop).0)
            | (straight_reach(queen, 0) & board.pieces(us, PieceKind::Rook).0);
        let lined_up = Bitboard(snipers)
            .into_iter()
            .any(|sniper| (between(queen, sniper as u8) & occupied).count_ones() == 1);
        if lined_up {
            sink.add(us, QUEEN_XRAY, 1);
        }
    }
}

/// Safe pawn pushes of `us` (attacks `ours`) that would attack an enemy
/// piece next move (the other side's attacks `theirs`).
#[inline(always)]
pub(super) fn pawn_push_threats<S: Sink>(
    board: &Board,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let them = !us;
    let occupied = board.occupied().0;
    let our_pawns = board.pieces(us, PieceKind::Pawn).0;
    let push = forward(our_pawns, us) & !occupied;
    let safe_push = push & !theirs.pawns & (ours.all | !theirs.all);
    let targets = board.color_bb(them).0
        & !board.pieces(them, PieceKind::Pawn).0
        & !board.pieces(them, PieceKind::King).0;
    sink.add(
        us,
        THREAT_PAWN_PUSH,
        (pawn_attacks(Bitboard(safe_push), us) & targets).count_ones() as i32,
    );
}
