//! Evaluation of a position.

use super::endgame::{self, Verdict};
use super::pawn_table::PawnTable;
use super::psqt::{PHASE_MAX, PHASE_WEIGHTS, PSQT};
use super::score::{MAX_EVAL, Score, eg, mg};
use super::terms::{self, Packed, Sink};
use crate::board::{Board, Color, PieceKind};

/// The packed `S(mg, eg)` sum of the piece-square tables over every piece,
/// from White's point of view, computed from scratch (the board keeps the
/// same sum incrementally: [`Board::psqt`]).
pub fn psqt_sum(board: &Board) -> i32 {
    let mut sum = 0i32;
    for color in Color::ALL {
        for kind in PieceKind::ALL {
            let table = &PSQT[color.index()][kind.index()];
            for square in board.pieces(color, kind) {
                sum = sum.wrapping_add(table[square.index()]);
            }
        }
    }
    sum
}

/// The game phase: `PHASE_MAX` with all pieces on the board, 0 with only
/// kings and pawns (capped at `PHASE_MAX` after promotions).
pub fn phase(board: &Board) -> i32 {
    let phase: i32 = PieceKind::ALL
        .iter()
        .map(|&kind| PHASE_WEIGHTS[kind.index()] * board.kind_bb(kind).count() as i32)
        .sum();
    phase.min(PHASE_MAX)
}

/// Reports every term beyond the piece-square tables to `sink` (the
/// engine's evaluation and the tuner's trace both come from here, so they
/// cannot disagree).
#[inline(always)]
pub fn trace_terms<S: Sink>(board: &Board, sink: &mut S) {
    let pawns = terms::pawn_structure(
        board.pieces(Color::White, PieceKind::Pawn),
        board.pieces(Color::Black, PieceKind::Pawn),
        sink,
    );
    terms::piece_terms(board, &pawns, sink);
}

/// Blends a packed White score by the game phase into centipawns.
#[inline(always)]
pub fn blend(packed: i32, phase: i32) -> Score {
    (mg(packed) * phase + eg(packed) * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The static evaluation from White's point of view.
pub fn evaluate_white(board: &Board) -> Score {
    // ENDGAME HOOK: a specialised endgame evaluation replaces this one.
    match endgame::probe(board) {
        Verdict::Exact(score) => score,
        verdict => normal_white(board, verdict, None),
    }
}

/// The normal evaluation from White's point of view, with the endgame
/// table's scale factor (`verdict`) applied to the endgame half.
/// With a pawn table, the pawn-structure terms come from it.
#[inline(always)]
fn normal_white(board: &Board, verdict: Verdict, pawns: Option<&mut PawnTable>) -> Score {
    debug_assert_eq!(board.psqt(), psqt_sum(board), "incremental PSQT drifted");
    let mut sink = Packed::default();
    match pawns {
        Some(table) => {
            let (packed, info) = table.probe(board);
            sink.add_white(packed);
            terms::piece_terms(board, &info, &mut sink);
        }
        None => trace_terms(board, &mut sink),
    }
    let packed = board.psqt().wrapping_add(sink.white_minus_black());
    let phase = phase(board);
    let eg = verdict.scale_eg(eg(packed));
    (mg(packed) * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// The static evaluation from the side to move's point of view (the tempo
/// bonus is one of the terms), kept inside ±[`MAX_EVAL`] so it can never be
/// mistaken for a mate score.
pub fn evaluate(board: &Board) -> Score {
    from_side_to_move(board, evaluate_white(board))
}

/// [`evaluate`] with the pawn-structure terms cached in `pawns` (the
/// search's per-thread pawn hash table): the same score, faster.
pub fn evaluate_with(board: &Board, pawns: &mut PawnTable) -> Score {
    let white = match endgame::probe(board) {
        Verdict::Exact(score) => score,
        verdict => normal_white(board, verdict, Some(pawns)),
    };
    from_side_to_move(board, white)
}

/// White's score seen from the side to move, clamped.
#[inline(always)]
fn from_side_to_move(board: &Board, white: Score) -> Score {
    let score = match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    };
    score.clamp(-MAX_EVAL, MAX_EVAL)
}
