//! Move ordering: the heuristics that remember which moves were good
//! (killers, history, counter-moves) and the move picker that hands out the
//! moves of a node best-first.
//!
//! Order: the transposition-table move; captures and promotions that do not
//! lose material (by SEE), most valuable victim first (MVV-LVA, a table from
//! the root build script); the two killer moves of the ply; the counter-move
//! to the opponent's last move; the other quiet moves by history score; last
//! the captures that lose material.
//!
//! The picker scores the whole list once and then does a selection step per
//! move, so a node that cuts off after one or two moves pays for little
//! sorting.

use super::params::HISTORY_MAX;
use super::see::see_ge;
use crate::board::{Board, Move, PieceKind};
use crate::eval::score::MAX_PLY;
use crate::movegen::MoveList;

include!(concat!(env!("OUT_DIR"), "/mvv_lva.rs"));

const TT_MOVE: i32 = 2_000_000_000;
const GOOD_NOISY: i32 = 1_000_000_000;
const KILLER_1: i32 = 900_000_000;
const KILLER_2: i32 = 800_000_000;
const COUNTER: i32 = 700_000_000;
const BAD_NOISY: i32 = -1_000_000_000;

/// Quiet-move statistics shared by every node of a search (and kept between
/// the searches of a game).
#[derive(Debug)]
pub struct Heuristics {
    /// Two killer moves per ply: quiet moves that caused a cut-off at the
    /// same ply in a sibling node.
    killers: Vec<[Move; 2]>,
    /// Butterfly history `[colour][from][to]`, kept within ±`HISTORY_MAX`.
    history: Vec<i32>,
    /// The quiet move that refuted each `[piece][to]` of the previous move.
    counters: Vec<Move>,
    /// Continuation history `[previous piece][previous to][piece][to]`: how
    /// good a quiet move was right after a given move (one ply earlier) or
    /// after our own previous move (two plies earlier).
    continuation: Vec<i32>,
}

/// Number of `[piece][to]` keys (12 coloured pieces × 64 squares).
pub const PIECE_TO: usize = 12 * 64;

/// The continuation keys of a node: the `[piece][to]` of the moves made one
/// and two plies earlier (`None` at the root or after a null move).
pub type Continuations = [Option<usize>; 2];

/// The `[piece][to]` key of `mv` in `board` (before it is made).
pub fn piece_to(board: &Board, mv: Move) -> Option<usize> {
    board
        .piece_on(mv.from())
        .map(|p| p.index() * 64 + mv.to().index())
}

impl Default for Heuristics {
    fn default() -> Self {
        Self::new()
    }
}

impl Heuristics {
    /// Empty statistics (zeroed allocations, no loops).
    pub fn new() -> Self {
        Self {
            killers: vec![[Move::NULL; 2]; MAX_PLY as usize + 8],
            history: vec![0; 2 * 64 * 64],
            counters: vec![Move::NULL; 12 * 64],
            continuation: vec![0; PIECE_TO * PIECE_TO],
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Self::new();
    }

    /// Forgets the killers only (a new search: the plies mean other positions).
    pub fn clear_killers(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [Move::NULL; 2]);
    }

    /// The killers of `ply`.
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    fn history_index(board: &Board, mv: Move) -> usize {
        board.side_to_move().index() * 4096 + mv.from().index() * 64 + mv.to().index()
    }

    /// The history score of a quiet move: butterfly history plus both
    /// continuation histories.
    pub fn history(&self, board: &Board, mv: Move, conts: &Continuations) -> i32 {
        let mut score = self.history[Self::history_index(board, mv)];
        if let Some(key) = piece_to(board, mv) {
            for prev in conts.iter().flatten() {
                score += self.continuation[prev * PIECE_TO + key];
            }
        }
        score
    }

    fn counter_index(board: &Board) -> Option<usize> {
        let last = board.last_move().filter(|m| !m.is_null())?;
        let piece = board.piece_on(last.to())?;
        Some(piece.index() * 64 + last.to().index())
    }

    /// The remembered reply to the opponent's last move.
    pub fn counter(&self, board: &Board) -> Move {
        Self::counter_index(board).map_or(Move::NULL, |i| self.counters[i])
    }

    /// Rewards `best` (a quiet move that caused a cut-off at `ply` with
    /// `depth` plies left) and punishes the quiet moves tried before it.
    pub fn update_quiet(
        &mut self,
        board: &Board,
        best: Move,
        tried: &[Move],
        depth: i32,
        conts: &Continuations,
        ply: usize,
    ) {
        let killers = &mut self.killers[ply];
        if killers[0] != best {
            killers[1] = killers[0];
            killers[0] = best;
        }
        if let Some(i) = Self::counter_index(board) {
            self.counters[i] = best;
        }
        let bonus = (depth * depth * 8).min(HISTORY_MAX / 4);
        self.reward(board, best, conts, bonus);
        for &mv in tried.iter().filter(|&&m| m != best) {
            self.reward(board, mv, conts, -bonus);
        }
    }

    fn reward(&mut self, board: &Board, mv: Move, conts: &Continuations, bonus: i32) {
        gravity(&mut self.history[Self::history_index(board, mv)], bonus);
        if let Some(key) = piece_to(board, mv) {
            for prev in conts.iter().flatten() {
                gravity(&mut self.continuation[prev * PIECE_TO + key], bonus);
            }
        }
    }
}

/// Moves `entry` towards ±`HISTORY_MAX` by `bonus`, more slowly the closer it
/// already is, so scores stay bounded and recent results weigh more.
fn gravity(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

/// Hands out the moves of a list best-first.
#[derive(Debug)]
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl MovePicker {
    /// Scores `moves` for a node of the main search.
    pub fn new(
        board: &Board,
        moves: MoveList,
        tt_move: Move,
        heuristics: &Heuristics,
        ply: usize,
        conts: &Continuations,
    ) -> Self {
        let mut scores = [0; 256];
        let killers = heuristics.killers(ply);
        let counter = heuristics.counter(board);
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if mv == tt_move {
                TT_MOVE
            } else if !mv.is_quiet() {
                noisy_score(board, mv)
            } else if mv == killers[0] {
                KILLER_1
            } else if mv == killers[1] {
                KILLER_2
            } else if mv == counter {
                COUNTER
            } else {
                heuristics.history(board, mv, conts)
            };
        }
        Self {
            moves,
            scores,
            next: 0,
        }
    }

    /// Scores captures and promotions for quiescence (MVV-LVA only: SEE is
    /// applied by the caller as a pruning test).
    pub fn new_noisy(board: &Board, moves: MoveList, tt_move: Move) -> Self {
        let mut scores = [0; 256];
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if mv == tt_move {
                TT_MOVE
            } else if mv.is_quiet() {
                // Quiet evasions when in check.
                0
            } else {
                GOOD_NOISY + mvv_lva(board, mv)
            };
        }
        Self {
            moves,
            scores,
            next: 0,
        }
    }

    /// Number of moves in the list.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the list is empty (no legal moves).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best move not yet handed out, with its ordering score.
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        let picked = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(picked)
    }
}

/// Whether an ordering score belongs to a capture or promotion that SEE
/// judged not to lose material (or to the TT move).
pub fn is_good_score(score: i32) -> bool {
    score >= GOOD_NOISY
}

/// Whether an ordering score belongs to a killer or the counter-move: quiet
/// moves that refuted a similar position, reduced less.
pub fn is_refutation_score(score: i32) -> bool {
    (COUNTER..GOOD_NOISY).contains(&score)
}

fn mvv_lva(board: &Board, mv: Move) -> i32 {
    let attacker = board
        .piece_on(mv.from())
        .map_or(PieceKind::Pawn, |p| p.kind());
    let victim = if mv.is_en_passant() {
        PieceKind::Pawn
    } else {
        board
            .piece_on(mv.to())
            .map_or(PieceKind::Pawn, |p| p.kind())
    };
    let promotion = match mv.promotion() {
        Some(PieceKind::Queen) => 64,
        Some(_) => -64,
        None => 0,
    };
    // Castling is stored as king-takes-rook but is quiet; only real captures
    // reach here with a victim.
    let capture = if mv.is_capture() {
        MVV_LVA[victim.index()][attacker.index()]
    } else {
        0
    };
    capture + promotion
}

fn noisy_score(board: &Board, mv: Move) -> i32 {
    let base = mvv_lva(board, mv);
    if mv.promotion().is_some_and(|k| k != PieceKind::Queen) {
        // Under-promotions are almost never best.
        return BAD_NOISY + base;
    }
    if see_ge(board, mv, 0) {
        GOOD_NOISY + base
    } else {
        BAD_NOISY + base
    }
}
