//! Evaluation terms beyond the piece-square tables: pawn structure (doubled,
//! isolated and passed pawns), piece mobility, rooks on open files, the
//! bishop pair, and king safety (pawn shield and attacks on the king zone).
//!
//! Every weight comes from `src/eval/params.txt` through the root build
//! script, packed as `S(mg, eg)` like the piece-square tables; this module
//! only counts, reporting each term to a [`Sink`] as (weight index, count):
//! the engine's sink adds weights, the tuner's records the counts. Each side
//! is scored from its own point of view; the sink subtracts Black's from
//! White's.

use crate::board::{Bitboard, Board, Color, PieceKind, Square};
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

/// The rank of `square` seen from `color`'s side (0 = its first rank).
fn relative_rank(square: Square, color: Color) -> usize {
    match color {
        Color::White => square.rank().index(),
        Color::Black => 7 - square.rank().index(),
    }
}

/// Where the evaluation terms go: each term is reported as a weight index
/// (into [`TERM_WEIGHTS`], named by the generated constants) and a count.
/// The engine's [`Packed`] sink multiplies by the weight at once (the index
/// is usually a constant, so this is one add); the tuner's sink records the
/// counts instead, which is what Texel tuning needs. The term functions are
/// generic over the sink, so each use gets its own monomorphised copy and
/// the engine pays nothing for the tracing.
pub trait Sink {
    /// Adds `count` times weight `index` to `color`'s side.
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// The engine's sink: each side's packed `S(mg, eg)` sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Packed {
    sides: [i32; 2],
}

impl Packed {
    /// White's sum minus Black's, packed.
    #[inline(always)]
    pub fn white_minus_black(&self) -> i32 {
        self.sides[0].wrapping_sub(self.sides[1])
    }

    /// Adds a packed score from White's point of view (for example a cached
    /// [`pawn_structure`] result).
    #[inline(always)]
    pub fn add_white(&mut self, packed: i32) {
        self.sides[0] = self.sides[0].wrapping_add(packed);
    }
}

impl Sink for Packed {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let side = &mut self.sides[color.index()];
        *side = side.wrapping_add(TERM_WEIGHTS[index].wrapping_mul(count));
    }
}

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
        let c = us as u8;
        let (our_pawns, their_pawns) = match us {
            Color::White => (white_pawns, black_pawns),
            Color::Black => (black_pawns, white_pawns),
        };
        for sq in our_pawns {
            let s = sq.raw();
            let ahead_on_file = Bitboard(kiln_tables::forward_file(c, s));
            if (ahead_on_file & our_pawns).any() {
                sink.add(us, DOUBLED_PAWN, 1);
            }
            if (Bitboard(kiln_tables::adjacent_files(sq.file().index() as u8)) & our_pawns)
                .is_empty()
            {
                sink.add(us, ISOLATED_PAWN, 1);
            }
            let passed = (Bitboard(kiln_tables::passed_pawn_mask(c, s)) & their_pawns).is_empty()
                && (ahead_on_file & our_pawns).is_empty();
            if passed {
                sink.add(us, PASSED_PAWN + relative_rank(sq, us), 1);
                info.passed[us.index()] = info.passed[us.index()].with(sq);
            }
        }
    }
    info
}

/// Every term except [`pawn_structure`]'s, for both colours.
pub fn piece_terms<S: Sink>(board: &Board, pawns: &PawnInfo, sink: &mut S) {
    for us in Color::ALL {
        side_terms(board, us, pawns, sink);
    }
}

/// [`piece_terms`] for `us`.
#[inline(always)]
fn side_terms<S: Sink>(board: &Board, us: Color, pawns: &PawnInfo, sink: &mut S) {
    let them = !us;
    let c = us as u8;
    let occupied = board.occupied();
    let our_pawns = board.pieces(us, PieceKind::Pawn);
    let their_pawns = board.pieces(them, PieceKind::Pawn);
    let our_king = board.king_square(us);
    let their_king = board.king_square(them);

    if board.pieces(us, PieceKind::Bishop).more_than_one() {
        sink.add(us, BISHOP_PAIR, 1);
    }

    // Passed pawns: a blocked stop square, and the kings' race to it.
    for sq in pawns.passed[us.index()] {
        let stop = match us {
            Color::White => Square::try_from_index(sq.index() + 8),
            Color::Black => sq.index().checked_sub(8).and_then(Square::try_from_index),
        };
        if let Some(stop) = stop {
            if occupied.contains(stop) {
                sink.add(us, PASSED_BLOCKED, 1);
            }
            let theirs = i32::from(kiln_tables::distance(their_king.raw(), stop.raw()));
            let ours = i32::from(kiln_tables::distance(our_king.raw(), stop.raw()));
            let rank = relative_rank(sq, us) as i32;
            sink.add(
                us,
                PASSED_KING_DISTANCE,
                (theirs - ours).clamp(-4, 4) * rank,
            );
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
            sink.add(us, MOBILITY + k, reach - MOBILITY_CENTER[k]);
            let zone_hits = (seen & king_zone).count() as i32;
            if zone_hits > 0 {
                units += KING_ATTACK_UNITS[k] * zone_hits;
                attackers += 1;
            }
            if kind == PieceKind::Rook {
                let file = Bitboard(kiln_tables::file_mask(sq.file().index() as u8));
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
    // One attacker is rarely dangerous; several together grow quickly with
    // the attack units (a table by units, so it stays linear for tuning).
    if attackers >= 2 {
        let last = KING_DANGER_LEN - 1;
        sink.add(us, KING_DANGER + (units as usize).min(last), 1);
    }

    // Open files at our king: no own pawn on the king's file or a
    // neighbouring one is a highway for enemy rooks and queens.
    let king_file = our_king.file().index() as u8;
    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let mask = Bitboard(kiln_tables::file_mask(file));
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
    sink.add(us, PAWN_SHIELD, (front & our_pawns.0).count_ones() as i32);
}
