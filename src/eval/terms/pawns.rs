//! Pawn structure: doubled, isolated, backward, connected, supported,
//! phalanx, candidate, blocked and passed pawns, weak unopposed pawns and
//! levers. A pure function of the two pawn bitboards, so the pawn hash
//! table can cache it.

use super::*;
use crate::eval::masks::{
    adjacent_files, forward_file, passed_span, pawn_attacks, rank_mask, ranks_ahead, relative_rank,
};
use kiln_board::Bitboard;

/// What the pawn-structure pass tells the rest of the evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnInfo {
    /// Passed pawns, by colour.
    pub passed: [Bitboard; 2],
}

/// The terms that depend on the pawns alone (doubled, isolated and passed
/// pawns by rank), for both colours: a pure function of the two pawn
/// bitboards, so a pawn hash table can cache its packed result (run it with
/// a fresh [`Packed`]) and the [`PawnInfo`].
pub fn pawn_structure<S: Sink>(
    white_pawns: Bitboard,
    black_pawns: Bitboard,
    sink: &mut S,
) -> PawnInfo {
    let mut info = PawnInfo::default();
    for us in Color::ALL {
        let (our_pawns, their_pawns) = match us {
            Color::White => (white_pawns, black_pawns),
            Color::Black => (black_pawns, white_pawns),
        };
        let our_attacks = pawn_attacks(our_pawns, us);
        let their_attacks = pawn_attacks(their_pawns, !us);
        for sq in our_pawns {
            let s = sq as u8;
            let ahead_on_file = Bitboard(forward_file(us, s));
            if (ahead_on_file & our_pawns).any() {
                sink.add(us, DOUBLED_PAWN, 1);
            }
            let isolated =
                (Bitboard(adjacent_files(sq.file().index() as u8)) & our_pawns).is_empty();
            if isolated {
                sink.add(us, ISOLATED_PAWN, 1);
                // Two isolated pawns on one file: neither can ever be
                // defended by a pawn, and the front one shields nothing.
                if (ahead_on_file & our_pawns).any() {
                    sink.add(us, DOUBLED_ISOLATED, 1);
                }
            }
            let opposed = (ahead_on_file & their_pawns).any();
            let rank = relative_rank(sq, us);
            let adjacent = adjacent_files(sq.file().index() as u8);
            let front_span = passed_span(us, s);
            let passed =
                (front_span & their_pawns.0) == 0 && (ahead_on_file & our_pawns).is_empty();
            if passed {
                sink.add(us, PASSED_PAWN + rank, 1);
                // Central passers are easier to stop, edge ones easier to
                // overlook.
                let file = sq.file().index();
                sink.add(us, PASSED_FILE + file.min(7 - file), 1);
                info.passed[us.index()] = info.passed[us.index()].with(sq);
            }
            // Defended by a pawn, or side by side with one.
            let bit = 1u64 << s;
            let neighbours = adjacent & rank_mask(sq.rank().index() as u8);
            let phalanx = (neighbours & our_pawns.0) != 0;
            if (our_attacks & bit) != 0 || phalanx {
                sink.add(us, CONNECTED_PAWN + rank, 1);
                // A connected pawn facing an enemy pawn on its file cannot
                // use its strength to advance.
                if opposed {
                    sink.add(us, CONNECTED_OPPOSED, 1);
                }
            }
            // Side by side, the pawns control both squares in front.
            if phalanx {
                sink.add(us, PHALANX_PAWN + rank, 1);
            }
            // Per own pawn defending this one (the squares from which an
            // own pawn attacks it are where an enemy pawn would attack
            // from behind).
            let defenders = pawn_attacks(Bitboard(bit), !us) & our_pawns.0;
            sink.add(us, SUPPORTED_PAWN, defenders.count_ones() as i32);
            // Our pawns beside or behind this one on the adjacent files:
            // the ones that can still come up to support it.
            let supporters = adjacent & !ranks_ahead(us, sq) & our_pawns.0;
            let stop = match us {
                Color::White => bit << 8,
                Color::Black => bit >> 8,
            };
            // Backward: no pawn can support it and an enemy pawn holds its
            // stop square (isolated pawns are scored as such instead).
            let backward =
                supporters == 0 && (adjacent & our_pawns.0) != 0 && (stop & their_attacks) != 0;
            if backward {
                sink.add(us, BACKWARD_PAWN, 1);
            }
            // A weak pawn on a file the enemy's rooks can use against it.
            if (isolated || backward) && !opposed {
                sink.add(us, WEAK_UNOPPOSED, 1);
            }
            // Attacked by two enemy pawns and defended by none: it must
            // take or be taken on the enemy's terms.
            let levers = pawn_attacks(Bitboard(bit), us) & their_pawns.0;
            if levers.count_ones() == 2 && (our_attacks & bit) == 0 {
                sink.add(us, WEAK_LEVER, 1);
            }
            // Blocked by an enemy pawn far up the board: a fixed target
            // that also jams its own pieces.
            if (stop & their_pawns.0) != 0 && (4..=5).contains(&rank) {
                sink.add(us, BLOCKED_PAWN + rank - 4, 1);
            }
            // Candidate passer: nothing ahead on its file, and at least as
            // many supporters as enemy pawns guarding its path.
            if !passed && (ahead_on_file & their_pawns).is_empty() {
                let sentries = (front_span & adjacent & their_pawns.0).count_ones();
                if supporters.count_ones() >= sentries {
                    sink.add(us, CANDIDATE_PAWN + rank, 1);
                }
            }
        }
    }
    info
}
