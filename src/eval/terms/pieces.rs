//! The pieces: mobility, outposts, bishop lines and pawns, rooks on open
//! files, the 7th rank and the king's ring, queen infiltration, trapped
//! pieces and the bishop pair. The piece loop here also gathers the squares
//! each side attacks ([`Attacks`]) and the king-zone attack tally that
//! king safety scores.

use super::king_safety::KingAttack;
use super::*;
use crate::eval::masks::forward;
use crate::eval::masks::{
    CENTRE, diagonal_reach, distance, file_mask, king_ring, pawn_attacks, pawn_double_attacks,
    rank_mask, relative_rank,
};
use kiln_board::{Bitboard, Board, CastlingRights, attacks};

/// First weight of each piece kind's mobility table, indexed by the number
/// of reachable squares (pawns and kings have none: never looked up).
const MOBILITY: [usize; 6] = [
    usize::MAX,
    KNIGHT_MOBILITY,
    BISHOP_MOBILITY,
    ROOK_MOBILITY,
    QUEEN_MOBILITY,
    usize::MAX,
];

/// The piece terms of `us` that need only the board: the bishop pair and,
/// piece by piece, mobility, outposts, bishop and rook lines, queen
/// infiltration. Returns the squares `us` attacks and its attack tally on
/// the enemy king zone.
#[inline(always)]
pub(super) fn pieces<S: Sink>(board: &Board, us: Color, sink: &mut S) -> (Attacks, KingAttack) {
    let them = !us;
    let occupied = board.occupied();
    let our_pawns = board.pieces(us, PieceKind::Pawn);
    let their_pawns = board.pieces(them, PieceKind::Pawn);
    let our_king = board.king_square(us);
    let their_king = board.king_square(them);

    if board.pieces(us, PieceKind::Bishop).more_than_one() {
        sink.add(us, BISHOP_PAIR, 1);
    }

    // Mobility, rook files, outposts, attacks on the enemy king zone.
    let our_pawn_attacks = pawn_attacks(our_pawns, us);
    let our_ring = king_ring(our_king as u8);
    let mut attacked = Attacks {
        pawns: our_pawn_attacks,
        all: our_pawn_attacks | our_ring,
        twice: (our_pawn_attacks & our_ring) | pawn_double_attacks(our_pawns, us),
        ..Attacks::default()
    };
    let area = !board.color_bb(us).0 & !pawn_attacks(their_pawns, them);
    let own = board.color_bb(us).0;
    let pawns_both = our_pawns.0 | their_pawns.0;
    let queens_both = board.pieces(us, PieceKind::Queen).0 | board.pieces(them, PieceKind::Queen).0;
    // Every square an enemy pawn attacks now or could attack after moving
    // on; outposts are the squares on relative ranks 4-6 outside it that
    // our pawns defend.
    let their_span = {
        let mut f = pawn_attacks(their_pawns, them);
        for shift in [8, 16, 32] {
            f |= match them {
                Color::White => f << shift,
                Color::Black => f >> shift,
            };
        }
        f
    };
    let outposts = match us {
        Color::White => 0x0000_FFFF_FF00_0000u64,
        Color::Black => 0x0000_00FF_FFFF_0000u64,
    } & our_pawn_attacks
        & !their_span;
    let king_zone = Bitboard(king_ring(their_king as u8)).with(their_king);
    let mut king_attack = KingAttack::default();
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let k = kind.index();
        for sq in board.pieces(us, kind) {
            let seen = attacks::piece(kind, us, sq, occupied);
            attacked.twice |= attacked.all & seen.0;
            attacked.all |= seen.0;
            match kind {
                PieceKind::Knight | PieceKind::Bishop => {
                    attacked.minors |= seen.0;
                    if kind == PieceKind::Knight {
                        attacked.knights |= seen.0;
                    } else {
                        attacked.bishops |= seen.0;
                    }
                    // Outpost: on the enemy's half (relative ranks 4-6),
                    // defended by a pawn, and no enemy pawn can ever chase
                    // it away.
                    if outposts & (1u64 << sq as u8) != 0 {
                        let outpost = if kind == PieceKind::Knight {
                            KNIGHT_OUTPOST
                        } else {
                            BISHOP_OUTPOST
                        };
                        sink.add(us, outpost, 1);
                        // No enemy knight, nor bishop of its colour, can
                        // ever trade it off.
                        let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
                            Bitboard::LIGHT_SQUARES
                        } else {
                            Bitboard::DARK_SQUARES
                        };
                        let contesters = board.pieces(them, PieceKind::Knight)
                            | (board.pieces(them, PieceKind::Bishop) & colour);
                        if contesters.is_empty() {
                            sink.add(us, UNCONTESTED_OUTPOST, 1);
                        }
                    } else if kind == PieceKind::Knight && seen.0 & outposts & !own != 0 {
                        sink.add(us, REACHABLE_OUTPOST, 1);
                    }
                    if kind == PieceKind::Bishop {
                        // Through the pawns only: the lines it will open.
                        let lines = diagonal_reach(sq as u8, pawns_both);
                        if lines & king_zone.0 != 0 {
                            sink.add(us, BISHOP_ON_KING_RING, 1);
                        }
                        if (lines & CENTRE).count_ones() >= 2 {
                            sink.add(us, LONG_DIAGONAL_BISHOP, 1);
                        }
                        let xray = diagonal_reach(sq as u8, 0) & their_pawns.0;
                        sink.add(us, BISHOP_XRAY_PAWNS, xray.count_ones() as i32);
                    }
                }
                PieceKind::Rook => {
                    // Rooks that defend each other (counted once per pair:
                    // the second sees the first).
                    if attacked.rooks & (1u64 << sq as u8) != 0 {
                        sink.add(us, CONNECTED_ROOKS, 1);
                    }
                    attacked.rooks |= seen.0;
                    let file = file_mask(sq.file().index() as u8);
                    if file & king_zone.0 != 0 {
                        sink.add(us, ROOK_ON_KING_RING, 1);
                    }
                    if file & queens_both != 0 {
                        sink.add(us, ROOK_ON_QUEEN_FILE, 1);
                    }
                }
                PieceKind::Queen => {
                    attacked.queens |= seen.0;
                    // Deep in their half where no pawn of theirs can ever
                    // chase it away.
                    if relative_rank(sq, us) >= 4 && their_span & (1u64 << sq as u8) == 0 {
                        sink.add(us, QUEEN_INFILTRATION, 1);
                    }
                }
                _ => {}
            }
            let reach = (seen.0 & area).count_ones() as usize;
            sink.add(us, MOBILITY[k] + reach, 1);
            king_attack.add(kind, seen, king_zone);
            if kind == PieceKind::Rook {
                if reach <= 3 {
                    // Boxed in on the king's wing, between the king and the
                    // edge (Kf1 with Rh1): it waits for the king to move,
                    // and for good once the king can no longer castle.
                    let king_file = our_king.file().index();
                    let file = sq.file().index();
                    if (king_file < 4) == (file < king_file) {
                        let stuck = if !board
                            .castling_rights()
                            .intersection(CastlingRights::of(us))
                            .is_empty()
                        {
                            1
                        } else {
                            2
                        };
                        sink.add(us, TRAPPED_ROOK, stuck);
                    }
                }
                // On the 7th rank, where it eats pawns or cuts the king off.
                if relative_rank(sq, us) == 6 {
                    let seventh = rank_mask(sq.rank().index() as u8);
                    if relative_rank(their_king, us) == 7 || (seventh & their_pawns.0) != 0 {
                        sink.add(us, ROOK_ON_SEVENTH, 1);
                    }
                }
                let file = Bitboard(file_mask(sq.file().index() as u8));
                // An own pawn on its file that cannot move: the file will
                // not open soon.
                if file.0 & our_pawns.0 & forward(occupied.0, them) != 0 {
                    sink.add(us, ROOK_CLOSED_FILE, 1);
                }
                if (file & our_pawns).is_empty() {
                    let open = (file & their_pawns).is_empty();
                    sink.add(
                        us,
                        if open {
                            ROOK_OPEN_FILE
                        } else {
                            ROOK_SEMI_OPEN_FILE
                        },
                        1,
                    );
                }
            }
        }
    }
    (attacked, king_attack)
}

/// Where `us`'s bishops and knights stand: bishops hemmed in by their own
/// pawns (worse with a blocked centre), minor pieces sheltered behind a
/// pawn, and minor pieces far from their own king.
#[inline(always)]
pub(super) fn minor_placement<S: Sink>(board: &Board, us: Color, sink: &mut S) {
    let occupied = board.occupied().0;
    let our_pawns = board.pieces(us, PieceKind::Pawn).0;
    let king = board.king_square(us) as u8;
    let centre_files = 0x3C3C_3C3C_3C3C_3C3Cu64;
    let blocked_centre = (our_pawns & centre_files & forward(occupied, !us)).count_ones() as i32;
    for sq in board.pieces(us, PieceKind::Bishop) {
        let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
            Bitboard::LIGHT_SQUARES.0
        } else {
            Bitboard::DARK_SQUARES.0
        };
        let same_colour = (our_pawns & colour).count_ones() as i32;
        sink.add(us, BISHOP_OWN_PAWNS, same_colour);
        // Worse when our centre is blocked: those pawns will not move off
        // the bishop's colour.
        sink.add(
            us,
            BISHOP_PAWNS_BLOCKED_CENTRE,
            same_colour * blocked_centre,
        );
    }
    let minors = board.pieces(us, PieceKind::Knight) | board.pieces(us, PieceKind::Bishop);
    sink.add(
        us,
        MINOR_BEHIND_PAWN,
        (forward(minors.0, us) & our_pawns).count_ones() as i32,
    );
    for sq in minors {
        let far = i32::from(distance(king, sq as u8));
        sink.add(us, MINOR_KING_DISTANCE, far);
    }
}

/// Squares where a bishop of `color` is shut in by an enemy pawn: a bishop
/// on a7 (h7) behind a pawn on b6 (g6), or on b8 (g8) behind c7 (f7), seen
/// from White. Pairs of (bishop square, enemy pawn square).
const BISHOP_TRAPS: [(u8, u8); 4] = [(48, 41), (55, 46), (57, 50), (62, 53)];

/// Knights and bishops of `us` deep in the enemy camp (relative rank 5 or
/// more) with no way out: every square they reach holds an own piece or is
/// attacked by the other side (attacks `theirs`), unless it holds an enemy
/// piece worth taking (anything but a pawn). Such a piece is usually lost
/// a few moves later for a pawn or two, which material alone does not see:
/// the knight that took a rook in the corner and cannot get back. A bishop
/// on a7/h7 (or b8/g8) behind an enemy pawn that blocks its diagonal counts
/// as trapped too, whatever else it reaches. One with a single way out is
/// counted apart, as cornered: one enemy move from trapped.
#[inline(always)]
pub(super) fn trapped_minors<S: Sink>(board: &Board, us: Color, theirs: &Attacks, sink: &mut S) {
    let them = !us;
    let deep = match us {
        Color::White => 0xFFFF_FFFF_0000_0000u64,
        Color::Black => 0x0000_0000_FFFF_FFFFu64,
    };
    let minors = (board.pieces(us, PieceKind::Knight) | board.pieces(us, PieceKind::Bishop)).0;
    if minors & deep == 0 {
        return;
    }
    let occupied = board.occupied();
    let own = board.color_bb(us).0;
    let prey = board.color_bb(them).0 & !board.pieces(them, PieceKind::Pawn).0;
    let their_pawns = board.pieces(them, PieceKind::Pawn).0;
    let mut trapped = 0;
    let mut cornered = 0;
    for sq in Bitboard(minors & deep) {
        let kind = if board.pieces(us, PieceKind::Knight).contains(sq) {
            PieceKind::Knight
        } else {
            PieceKind::Bishop
        };
        let seen = attacks::piece(kind, us, sq, occupied).0;
        let escape = (seen & !own & !theirs.all) | (seen & prey);
        let shut_in = kind == PieceKind::Bishop
            && BISHOP_TRAPS.iter().any(|&(bishop, pawn)| {
                let (bishop, pawn) = match us {
                    Color::White => (bishop, pawn),
                    Color::Black => (bishop ^ 56, pawn ^ 56),
                };
                sq as u8 == bishop && their_pawns & (1u64 << pawn) != 0
            });
        if escape == 0 || shut_in {
            trapped += 1;
        } else if escape & (escape - 1) == 0 {
            cornered += 1;
        }
    }
    sink.add(us, TRAPPED_MINOR, trapped);
    sink.add(us, CORNERED_MINOR, cornered);
}
