//! Evaluation of a position.

use super::endgame::{self, Verdict};
use super::pawn_table::PawnTable;
use super::psqt::{PHASE_MAX, PHASE_WEIGHTS, PSQT};
use super::score::{MAX_EVAL, Score, eg, mg};
use super::terms::{self, Packed, Sink};
use kiln_board::{Board, Color, PieceKind};

/// The packed `S(mg, eg)` sum of the piece-square tables over every piece,
/// from White's point of view.
pub fn psqt_sum(board: &Board) -> i32 {
    pawn_psqt_sum(board).wrapping_add(piece_psqt_sum(board))
}

/// [`psqt_sum`] over the pawns alone: a function of the pawn structure,
/// which the pawn table caches with the pawn terms.
#[inline(always)]
pub(crate) fn pawn_psqt_sum(board: &Board) -> i32 {
    kinds_psqt_sum(board, &[PieceKind::Pawn])
}

/// [`psqt_sum`] over every piece but the pawns.
#[inline(always)]
fn piece_psqt_sum(board: &Board) -> i32 {
    const PIECES: [PieceKind; 5] = [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
    ];
    kinds_psqt_sum(board, &PIECES)
}

#[inline(always)]
fn kinds_psqt_sum(board: &Board, kinds: &[PieceKind]) -> i32 {
    let mut sum = 0i32;
    for color in Color::ALL {
        for &kind in kinds {
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

/// One evaluation term group's contribution to a position (see
/// [`term_breakdown`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermShare {
    /// The group's name in `src/eval/params.txt`.
    pub name: &'static str,
    /// White's packed `S(mg, eg)` sum over the group's weights.
    pub white: i32,
    /// Black's packed sum (from Black's side: positive is good for Black).
    pub black: i32,
}

/// Every term group that contributes to `board`'s evaluation beyond the
/// piece-square tables, with each side's packed sum, in parameter-file
/// order: what the UCI `eval` command prints, to see which terms disagree
/// with a stronger engine's judgement.
pub fn term_breakdown(board: &Board) -> Vec<TermShare> {
    /// Records each side's count of every term weight.
    struct Counts([Vec<i32>; 2]);
    impl Sink for Counts {
        fn add(&mut self, color: Color, index: usize, count: i32) {
            self.0[color.index()][index] += count;
        }
    }
    let mut counts = Counts([vec![0; terms::TERM_COUNT], vec![0; terms::TERM_COUNT]]);
    trace_terms(board, &mut counts);
    let side_sum = |side: &[i32], start: usize, len: usize| -> i32 {
        (start..start + len).fold(0i32, |sum, i| {
            sum.wrapping_add(terms::TERM_WEIGHTS[i].wrapping_mul(side[i]))
        })
    };
    terms::TERM_GROUPS
        .iter()
        .map(|&(name, start, len)| TermShare {
            name,
            white: side_sum(&counts.0[0], start, len),
            black: side_sum(&counts.0[1], start, len),
        })
        .filter(|share| share.white != 0 || share.black != 0)
        .collect()
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
    let mut sink = Packed::default();
    let psqt = match pawns {
        Some(table) => {
            // The table's score includes the pawns' piece-square entries.
            let (packed, info) = table.probe(board);
            sink.add_white(packed);
            terms::piece_terms(board, &info, &mut sink);
            piece_psqt_sum(board)
        }
        None => {
            trace_terms(board, &mut sink);
            psqt_sum(board)
        }
    };
    let packed = psqt.wrapping_add(sink.white_minus_black());
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
pub(crate) fn from_side_to_move(board: &Board, white: Score) -> Score {
    let score = match board.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    };
    score.clamp(-MAX_EVAL, MAX_EVAL)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn term_breakdown_adds_up_to_the_terms_the_engine_sums() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
            "8/2Q5/4pbk1/7p/p5PP/2p1N3/qrR2P1K/8 b - - 0 39",
        ] {
            let board = Board::from_fen(fen).expect("test FEN");
            let mut engine = Packed::default();
            trace_terms(&board, &mut engine);
            let shares = term_breakdown(&board);
            let total = shares.iter().fold(0i32, |sum, s| {
                sum.wrapping_add(s.white).wrapping_sub(s.black)
            });
            assert_eq!(total, engine.white_minus_black(), "{fen}");
            assert!(shares.iter().all(|s| s.white != 0 || s.black != 0));
            assert!(!shares.is_empty(), "{fen}");
        }
    }
}
