//! The history tables: statistics that remember which quiet moves were good
//! (killers, butterfly and continuation history, counter-moves), kept
//! between the searches of a game and read by the move picker
//! ([`movepick`](super::movepick)) and the late-move reductions.

use super::tunables::HISTORY_MAX;
use crate::eval::score::MAX_PLY;
use kiln_board::{Board, Move, PieceKind};

/// Quiet-move statistics shared by every node of a search (and kept between
/// the searches of a game).
#[derive(Debug)]
pub struct Heuristics {
    /// Two killer moves per ply: quiet moves that caused a cut-off at the
    /// same ply in a sibling node.
    killers: Vec<[Move; 2]>,
    /// Butterfly history `[colour][from attacked][to attacked][from][to]`,
    /// kept within ±`HISTORY_MAX`.
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

/// What a node's quiet-move statistics are keyed by, besides the move.
/// The picker builds it (see [`MovePicker::history_keys`](super::movepick::MovePicker::history_keys)) only once a
/// quiet move needs it: many nodes cut off before.
#[derive(Clone, Copy, Debug, Default)]
pub struct HistoryKeys {
    /// The `[piece][to]` of the moves made one and two plies earlier
    /// (`None` at the root or after a null move).
    pub keys: [Option<usize>; 2],
    /// Squares the opponent attacks: the butterfly history is kept apart
    /// for moves from and to attacked squares, since whether a move is good
    /// depends much on whether it flees a threat or walks into one.
    pub threats: u64,
}

/// Squares attacked by the side not to move (pawns, pieces and king).
pub fn opponent_attacks(board: &Board) -> u64 {
    use kiln_board::attacks;
    let them = !board.side_to_move();
    let occupied = board.occupied();
    let mut seen = 0u64;
    for kind in PieceKind::ALL {
        for sq in board.pieces(them, kind) {
            seen |= attacks::piece(kind, them, sq, occupied).0;
        }
    }
    seen
}

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
            history: vec![0; 2 * BUTTERFLY_PER_SIDE],
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

    /// Sets the killers of `ply` (tests fill the tables with arbitrary moves).
    #[cfg(test)]
    pub(super) fn set_killers(&mut self, ply: usize, killers: [Move; 2]) {
        self.killers[ply] = killers;
    }

    /// Sets every counter-move slot from `next` (tests only).
    #[cfg(test)]
    pub(super) fn fill_counters(&mut self, mut next: impl FnMut() -> Move) {
        self.counters.iter_mut().for_each(|slot| *slot = next());
    }

    /// The killers of `ply`.
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    fn history_index(board: &Board, mv: Move, threats: u64) -> usize {
        board.side_to_move().index() * BUTTERFLY_PER_SIDE + butterfly_index(mv, threats)
    }

    /// The history score of a quiet move: butterfly history plus both
    /// continuation histories.
    pub fn history(&self, board: &Board, mv: Move, conts: &HistoryKeys) -> i32 {
        self.history_view(board, conts).score(board, mv)
    }

    /// The history tables as seen from one node (see [`HistoryView`]).
    pub(super) fn history_view<'a>(
        &'a self,
        board: &Board,
        conts: &HistoryKeys,
    ) -> HistoryView<'a> {
        let side = board.side_to_move().index() * BUTTERFLY_PER_SIDE;
        let row = |key: Option<usize>| {
            key.map_or(&NO_CONTINUATION, |prev| {
                self.continuation[prev * PIECE_TO..][..PIECE_TO]
                    .try_into()
                    .expect("a continuation row is PIECE_TO long")
            })
        };
        HistoryView {
            butterfly: self.history[side..][..BUTTERFLY_PER_SIDE]
                .try_into()
                .expect("a side's butterfly table is BUTTERFLY_PER_SIDE long"),
            continuation: [row(conts.keys[0]), row(conts.keys[1])],
            threats: conts.threats,
        }
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

    /// Rewards `best` (a quiet move that caused a cut-off at `ply`) by
    /// `bonus` (see [`SearchParams::history_bonus`](super::tunables::SearchParams::history_bonus))
    /// and punishes the quiet moves tried before it as much.
    pub fn update_quiet(
        &mut self,
        board: &Board,
        best: Move,
        tried: &[Move],
        bonus: i32,
        conts: &HistoryKeys,
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
        self.reward(board, best, conts, bonus);
        for &mv in tried.iter().filter(|&&m| m != best) {
            self.reward(board, mv, conts, -bonus);
        }
    }

    /// Rewards a quiet move already made, by its `[piece][to]` key `moved`,
    /// in the continuation histories of the node it was played from (whose
    /// continuation keys are `keys`). The butterfly history is left alone:
    /// its index needs that node's threats, which are no longer at hand.
    pub(super) fn reward_continuation(
        &mut self,
        keys: [Option<usize>; 2],
        moved: usize,
        bonus: i32,
    ) {
        for prev in keys.iter().flatten() {
            gravity(&mut self.continuation[prev * PIECE_TO + moved], bonus);
        }
    }

    pub(super) fn reward(&mut self, board: &Board, mv: Move, conts: &HistoryKeys, bonus: i32) {
        gravity(
            &mut self.history[Self::history_index(board, mv, conts.threats)],
            bonus,
        );
        if let Some(key) = piece_to(board, mv) {
            self.reward_continuation(conts.keys, key, bonus);
        }
    }
}

/// Butterfly history entries per side to move: `[from attacked][to
/// attacked][from][to]`.
const BUTTERFLY_PER_SIDE: usize = 4 * Move::FROM_TO_COUNT;

/// The continuation row of a missing key (the root, or after a null move):
/// adds nothing.
static NO_CONTINUATION: [i32; PIECE_TO] = [0; PIECE_TO];

/// The index of quiet move `mv` in its side's butterfly table, given the
/// squares the opponent attacks.
#[inline(always)]
fn butterfly_index(mv: Move, threats: u64) -> usize {
    let from_attacked = (threats >> mv.from().index()) as usize & 1;
    let to_attacked = (threats >> mv.to().index()) as usize & 1;
    (from_attacked * 2 + to_attacked) * Move::FROM_TO_COUNT + mv.from_to_index()
}

/// The history tables seen from one node: its side's butterfly table and
/// the continuation rows of its two history keys (an all-zero row for a
/// missing key), found once so that scoring each quiet move is three loads.
/// The sum is the same as [`Heuristics::history`]'s, which is built on it.
pub(super) struct HistoryView<'a> {
    butterfly: &'a [i32; BUTTERFLY_PER_SIDE],
    continuation: [&'a [i32; PIECE_TO]; 2],
    threats: u64,
}

impl HistoryView<'_> {
    /// The history score of quiet move `mv` of `board`.
    #[inline(always)]
    pub(super) fn score(&self, board: &Board, mv: Move) -> i32 {
        let mut score = self.butterfly[butterfly_index(mv, self.threats)];
        if let Some(key) = piece_to(board, mv) {
            score += self.continuation[0][key] + self.continuation[1][key];
        }
        score
    }
}

/// Moves `entry` towards ±`HISTORY_MAX` by `bonus`, more slowly the closer it
/// already is, so scores stay bounded and recent results weigh more.
fn gravity(entry: &mut i32, bonus: i32) {
    *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Any run of bonuses no larger than `HISTORY_MAX` either way keeps an
    /// entry within ±`HISTORY_MAX` (the bound the move ordering's sums and
    /// the reductions' divisor rely on), with the integer rounding.
    #[test]
    fn gravity_keeps_entries_within_the_history_bound() {
        let mut rng = Rng::new(11);
        let mut seen_near_the_bound = false;
        for run in 0..200 {
            let mut entry = rng.below(2 * HISTORY_MAX as u64 + 1) as i32 - HISTORY_MAX;
            // Some runs push one way with the largest bonus, the rest at random.
            let push = [HISTORY_MAX, -HISTORY_MAX, 0][run % 3];
            for _ in 0..1_000 {
                let bonus = if push != 0 {
                    push
                } else {
                    rng.below(2 * HISTORY_MAX as u64 + 1) as i32 - HISTORY_MAX
                };
                gravity(&mut entry, bonus);
                assert!(
                    entry.abs() <= HISTORY_MAX,
                    "{entry} after a bonus of {bonus}"
                );
                seen_near_the_bound |= entry.abs() >= HISTORY_MAX - 1;
            }
        }
        assert!(seen_near_the_bound, "the runs reached the bound");
    }
}
