//! King safety: attacks on the king zone (units and attackers), weak
//! squares next to the king, attacks on its wing, safe checks, open files
//! at the king, the pawn shield and storm, a pawnless wing, and the king's
//! distance to its pawns.

use super::*;
use crate::eval::masks::{
    adjacent_files, diagonal_reach, distance, file_mask, king_flank, king_ring, knight_reach,
    passed_span, rank_mask, straight_reach,
};
use kiln_board::{Bitboard, Board};

/// What one side's pieces do against the enemy king zone (the king's
/// square and ring), gathered in the piece loop.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct KingAttack {
    /// Attack units: per piece, its kind's units times the zone squares it
    /// attacks.
    units: i32,
    /// Pieces attacking at least one zone square.
    attackers: i32,
}

impl KingAttack {
    /// Counts a piece of `kind` attacking `seen`, against `zone`.
    #[inline(always)]
    pub(super) fn add(&mut self, kind: PieceKind, seen: Bitboard, zone: Bitboard) {
        let zone_hits = (seen & zone).count() as i32;
        if zone_hits > 0 {
            self.units += KING_ATTACK_UNITS[kind.index()] * zone_hits;
            self.attackers += 1;
        }
    }
}

/// The enemy king zone's danger from `us`'s pieces (`attack`), and the
/// safety of `us`'s own king: open files, a pawnless wing, the distance to
/// its pawns, the pawn shield and the enemy's pawn storm.
#[inline(always)]
pub(super) fn king_safety<S: Sink>(board: &Board, us: Color, attack: KingAttack, sink: &mut S) {
    let them = !us;
    let our_pawns = board.pieces(us, PieceKind::Pawn);
    let their_pawns = board.pieces(them, PieceKind::Pawn);
    let our_king = board.king_square(us);

    // One attacker is rarely dangerous; several together grow quickly with
    // the attack units (a table by units, so it stays linear for tuning).
    let KingAttack { units, attackers } = attack;
    if attackers >= 2 {
        let last = KING_DANGER_LEN - 1;
        sink.add(us, KING_DANGER + (units as usize).min(last), 1);
        // Without a queen the same units are worth much less.
        if board.pieces(us, PieceKind::Queen).is_empty() {
            sink.add(us, KING_DANGER_NO_QUEEN, units.min(last as i32));
        }
    }
    if attackers > 0 {
        sink.add(
            us,
            KING_ATTACKERS + (attackers as usize).min(KING_ATTACKERS_LEN - 1),
            1,
        );
    }

    // Open files at our king: no own pawn on the king's file or a
    // neighbouring one is a highway for enemy rooks and queens.
    let king_file = our_king.file().index() as u8;
    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let mask = Bitboard(file_mask(file));
        if (mask & our_pawns).is_empty() {
            let open = (mask & their_pawns).is_empty();
            sink.add(
                us,
                if open {
                    KING_OPEN_FILE
                } else {
                    KING_SEMI_OPEN_FILE
                },
                1,
            );
        }
    }

    // No pawn of either side on the king's wing: nothing to hide behind
    // and nothing for the king to do there in the endgame.
    if king_flank(king_file) & (our_pawns.0 | their_pawns.0) == 0 {
        sink.add(us, PAWNLESS_FLANK, 1);
    }

    // In the endgame the king belongs near its pawns: the distance to the
    // nearest one.
    if let Some(nearest) = our_pawns
        .into_iter()
        .map(|p| distance(our_king as u8, p as u8))
        .min()
    {
        sink.add(us, KING_PAWN_DISTANCE, i32::from(nearest));
    }

    // Pawn shield: our pawns on the two ranks in front of our king.
    let rank = our_king.rank().index();
    let shield_ranks = match us {
        Color::White => [rank + 1, rank + 2],
        Color::Black => [rank.wrapping_sub(1), rank.wrapping_sub(2)],
    };
    let shield_mask = shield_ranks
        .iter()
        .filter(|&&r| r < 8)
        .fold(0u64, |m, &r| m | rank_mask(r as u8));
    let front = passed_span(us, our_king as u8) & shield_mask;
    sink.add(us, PAWN_SHIELD, (front & our_pawns.0).count_ones() as i32);

    // Pawn storm: enemy pawns already on our third or fourth rank in front
    // of our king open lines against it.
    let storm_ranks = match us {
        Color::White => rank_mask(2) | rank_mask(3),
        Color::Black => rank_mask(5) | rank_mask(4),
    };
    let king_files = adjacent_files(king_file) | file_mask(king_file);
    sink.add(
        us,
        PAWN_STORM,
        (king_files & storm_ranks & their_pawns.0).count_ones() as i32,
    );
}

/// Pressure of `us` (attacks `ours`) on the enemy king (the other side's
/// attacks `theirs`): weak squares of its zone and attacks on its wing.
#[inline(always)]
pub(super) fn king_pressure<S: Sink>(
    board: &Board,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let them = !us;

    // King-zone squares we attack that only their king or queen (or
    // nothing) defends: where a check or a mate lands.
    let their_king = board.king_square(them) as u8;
    let zone = king_ring(their_king);
    let solid = theirs.pawns | theirs.minors | theirs.rooks;
    sink.add(
        us,
        KING_ZONE_WEAK,
        (zone & ours.all & !solid).count_ones() as i32,
    );

    // Attacks on the enemy king's wing, in its camp (its first five
    // ranks): the ground an attack is built on, even before it reaches
    // the king zone. Squares attacked twice count again.
    let camp = match them {
        Color::White => 0x0000_00FF_FFFF_FFFFu64,
        Color::Black => 0xFFFF_FFFF_FF00_0000u64,
    };
    let flank = king_flank(board.king_square(them).file().index() as u8) & camp;
    sink.add(
        us,
        FLANK_ATTACK,
        (flank & ours.all).count_ones() as i32 + (flank & ours.twice).count_ones() as i32,
    );
}

/// Safe checks by `us` (attacks `ours`): squares from which one of our
/// pieces could check the enemy king, which that piece reaches, which we do
/// not occupy and which the enemy does not defend at all. A king that can be
/// checked safely is one forcing move away from trouble, whether or not
/// pieces crowd its zone yet.
#[inline(always)]
pub(super) fn safe_checks<S: Sink>(
    board: &Board,
    us: Color,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let king = board.king_square(!us) as u8;
    let occupied = board.occupied().0;
    let safe = !board.color_bb(us).0 & !theirs.all;
    let diagonal = diagonal_reach(king, occupied);
    let straight = straight_reach(king, occupied);
    let knight = knight_reach(king) & ours.knights & safe;
    let bishop = diagonal & ours.bishops & safe;
    let rook = straight & ours.rooks & safe;
    let queen = (diagonal | straight) & ours.queens & safe;
    sink.add(us, SAFE_CHECK_KNIGHT, knight.count_ones() as i32);
    sink.add(us, SAFE_CHECK_BISHOP, bishop.count_ones() as i32);
    sink.add(us, SAFE_CHECK_ROOK, rook.count_ones() as i32);
    sink.add(us, SAFE_CHECK_QUEEN, queen.count_ones() as i32);
}
