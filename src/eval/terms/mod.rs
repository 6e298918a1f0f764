//! Evaluation terms beyond the piece-square tables: pawn structure (doubled,
//! isolated, backward, connected, candidate, blocked and passed pawns, weak
//! unopposed pawns and levers), piece mobility, outposts, bishop and rook
//! lines, trapped pieces, rooks on open files and the 7th rank, the bishop
//! pair, threats (including restricted squares and attacks on the queen),
//! king safety (pawn shield and storm, attacks on the king zone and wing,
//! safe checks) and the tempo.
//!
//! One file per concern: `pawns` (the pawn structure, cached by the pawn
//! table), `passed`, `pieces` (mobility, outposts, bishops and rooks,
//! trapped pieces), `threats`, `king_safety` and `imbalance`; the endgame
//! table is [`crate::eval::endgame`]. They read the chess tables through the
//! named lookups of `eval::masks`.
//!
//! Every weight comes from `src/eval/params.txt` through the root build
//! script, packed as `S(mg, eg)` like the piece-square tables; these modules
//! only count, reporting each term to a [`Sink`] as (weight index, count):
//! the engine's sink adds weights, the tuner's records the counts. Each side
//! is scored from its own point of view; the sink subtracts Black's from
//! White's.

use kiln_board::{Board, Color, PieceKind};

mod imbalance;
mod king_safety;
mod passed;
mod pawns;
mod pieces;
#[cfg(test)]
mod tests;
mod threats;

pub use pawns::{PawnInfo, pawn_structure};

include!(concat!(env!("OUT_DIR"), "/eval_terms.rs"));

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

/// Squares a side attacks, by kind of attacker.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Attacks {
    /// By pawns.
    pub(super) pawns: u64,
    /// By knights and bishops.
    pub(super) minors: u64,
    /// By knights.
    pub(super) knights: u64,
    /// By bishops.
    pub(super) bishops: u64,
    /// By rooks.
    pub(super) rooks: u64,
    /// By queens.
    pub(super) queens: u64,
    /// By any piece, pawn or the king.
    pub(super) all: u64,
    /// By at least two of them.
    pub(super) twice: u64,
}

/// Every term except [`pawn_structure`]'s, for both colours, and the tempo
/// bonus of the side to move.
///
/// Each term is called once per colour with the colour a constant: inlined,
/// every `match` on it folds away (a loop over the colours measured +10 %
/// instructions in the evaluation).
pub fn piece_terms<S: Sink>(board: &Board, pawns: &PawnInfo, sink: &mut S) {
    use Color::{Black, White};
    let (white, white_king_attack) = pieces::pieces(board, White, sink);
    let (black, black_king_attack) = pieces::pieces(board, Black, sink);
    king_safety::king_safety(board, White, white_king_attack, sink);
    king_safety::king_safety(board, Black, black_king_attack, sink);
    threats::threats(board, White, &white, &black, sink);
    threats::threats(board, Black, &black, &white, sink);
    king_safety::safe_checks(board, White, &white, &black, sink);
    king_safety::safe_checks(board, Black, &black, &white, sink);
    passed::passed_pawns(board, White, pawns, &white, &black, sink);
    passed::passed_pawns(board, Black, pawns, &black, &white, sink);
    pieces::minor_placement(board, White, sink);
    pieces::minor_placement(board, Black, sink);
    king_safety::king_pressure(board, White, &white, &black, sink);
    king_safety::king_pressure(board, Black, &black, &white, sink);
    threats::pawn_push_threats(board, White, &white, &black, sink);
    threats::pawn_push_threats(board, Black, &black, &white, sink);
    pieces::trapped_minors(board, White, &black, sink);
    pieces::trapped_minors(board, Black, &white, sink);
    imbalance::imbalance(board, White, sink);
    imbalance::imbalance(board, Black, sink);
    sink.add(board.side_to_move(), TEMPO, 1);
}
