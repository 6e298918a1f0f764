//! Evaluation terms beyond the piece-square tables: pawn structure (doubled,
//! isolated and passed pawns), piece mobility, rooks on open files, the
//! bishop pair, and king safety (pawn shield and attacks on the king zone).
//!
//! Every weight comes from `src/eval/params.txt` through the root build
//! script, packed as `S(mg, eg)` like the piece-square tables; this module
//! only counts. Each side is scored from its own point of view; the caller
//! subtracts Black's from White's.

use crate::board::{Bitboard, Board, Color, PieceKind, Square};
use crate::eval::score::{eg, mg, pack};
use crate::movegen::attacks;

include!(concat!(env!("OUT_DIR"), "/eval_terms.rs"));

/// Squares attacked by the pawns of `color`.
fn pawn_attacks(pawns: Bitboard, color: Color) -> u64 {
    let p = pawns.0;
    let not_a = !Bitboard::FILE_A.0;
    let not_h = !Bitboard::FILE_H.0;
    match color {
        Color::White => ((p << 7) & not_h) | ((p << 9) & not_a),
        Color::Black => ((p >> 9) & not_h) | ((p >> 7) & not_a),
    }
}

/// `packed * num / den` for each half (packed values may be multiplied but
/// not divided directly: the halves would bleed into each other).
fn scale(packed: i32, num: i32, den: i32) -> i32 {
    pack(mg(packed) * num / den, eg(packed) * num / den)
}

/// The rank of `square` seen from `color`'s side (0 = its first rank).
fn relative_rank(square: Square, color: Color) -> usize {
    match color {
        Color::White => square.rank().index(),
        Color::Black => 7 - square.rank().index(),
    }
}

/// All the terms of this module for `us`, packed, from `us`'s point of view.
pub fn side_terms(board: &Board, us: Color) -> i32 {
    let them = !us;
    let c = us as u8;
    let occupied = board.occupied();
    let our_pawns = board.pieces(us, PieceKind::Pawn);
    let their_pawns = board.pieces(them, PieceKind::Pawn);
    let our_king = board.king_square(us);
    let their_king = board.king_square(them);
    let mut score = 0i32;

    if board.pieces(us, PieceKind::Bishop).more_than_one() {
        score += BISHOP_PAIR;
    }

    // Pawn structure.
    for sq in our_pawns {
        let s = sq.raw();
        let ahead_on_file = Bitboard(kiln_tables::forward_file(c, s));
        if (ahead_on_file & our_pawns).any() {
            score += DOUBLED_PAWN;
        }
        if (Bitboard(kiln_tables::adjacent_files(sq.file().index() as u8)) & our_pawns).is_empty() {
            score += ISOLATED_PAWN;
        }
        let passed = (Bitboard(kiln_tables::passed_pawn_mask(c, s)) & their_pawns).is_empty()
            && (ahead_on_file & our_pawns).is_empty();
        if passed {
            let rank = relative_rank(sq, us);
            score += PASSED_PAWN[rank];
            let stop = match us {
                Color::White => Square::try_from_index(sq.index() + 8),
                Color::Black => sq.index().checked_sub(8).and_then(Square::try_from_index),
            };
            if let Some(stop) = stop {
                if occupied.contains(stop) {
                    score += PASSED_BLOCKED;
                }
                let theirs = i32::from(kiln_tables::distance(their_king.raw(), stop.raw()));
                let ours = i32::from(kiln_tables::distance(our_king.raw(), stop.raw()));
                score += scale(
                    PASSED_KING_DISTANCE,
                    (theirs - ours).clamp(-4, 4) * rank as i32,
                    4,
                );
            }
        }
    }

    // Pieces: mobility, rook files, attacks on the enemy king zone.
    let area = !board.color_bb(us).0 & !pawn_attacks(their_pawns, them);
    let king_zone = Bitboard(kiln_tables::king_attacks(their_king.raw())).with(their_king);
    let mut units = 0i32;
    let mut attackers = 0;
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let k = kind.index();
        for sq in board.pieces(us, kind) {
            let seen = attacks::piece(kind, us, sq, occupied);
            let reach = (seen.0 & area).count_ones() as i32;
            score += MOBILITY[k] * (reach - MOBILITY_CENTER[k]);
            let zone_hits = (seen & king_zone).count() as i32;
            if zone_hits > 0 {
                units += KING_ATTACK_UNITS[k] * zone_hits;
                attackers += 1;
            }
            if kind == PieceKind::Rook {
                let file = Bitboard(kiln_tables::file_mask(sq.file().index() as u8));
                if (file & our_pawns).is_empty() {
                    score += if (file & their_pawns).is_empty() {
                        ROOK_OPEN_FILE
                    } else {
                        ROOK_SEMI_OPEN_FILE
                    };
                }
            }
        }
    }
    // One attacker is rarely dangerous; several together grow quadratically.
    if attackers >= 2 {
        let mg = (units * units * mg(KING_DANGER) / 64).min(600);
        let eg = units * eg(KING_DANGER) / 8;
        score += pack(mg, eg);
    }

    // Open files at our king: no own pawn on the king's file or a
    // neighbouring one is a highway for enemy rooks and queens.
    let king_file = our_king.file().index() as u8;
    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let mask = Bitboard(kiln_tables::file_mask(file));
        if (mask & our_pawns).is_empty() {
            score += if (mask & their_pawns).is_empty() {
                KING_OPEN_FILE
            } else {
                KING_SEMI_OPEN_FILE
            };
        }
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
        .fold(0u64, |m, &r| m | kiln_tables::rank_mask(r as u8));
    let front = kiln_tables::passed_pawn_mask(c, our_king.raw()) & shield_mask;
    score += PAWN_SHIELD * (front & our_pawns.0).count_ones() as i32;

    score
}
