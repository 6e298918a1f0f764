//! The move picker: hands out the moves of a node best-first.
//!
//! Order: the transposition-table move; captures and promotions that do not
//! lose material (by SEE), most valuable victim first (MVV-LVA, a table from
//! the root build script); the two killer moves of the ply; the counter-move
//! to the opponent's last move; the other quiet moves by history score (see
//! [`history`](super::history)); last the captures that lose material.
//!
//! The picker works in stages and generates lazily: the TT move (checked
//! for legality first) is tried before any move is generated, captures are
//! generated before quiet moves, and each stage does one selection step per
//! move handed out, so a node that cuts off early pays for little
//! generation, SEE or sorting.

use super::history::{Heuristics, HistoryKeys, opponent_attacks};
use super::see::see_ge;
use arrayvec::ArrayVec;
use kiln_board::{Board, Move, PieceKind};
use kiln_board::{MoveList, generate_noisy, generate_noisy_or_evasions, generate_quiets, is_legal};

include!(concat!(env!("OUT_DIR"), "/mvv_lva.rs"));

const TT_MOVE: i32 = 2_000_000_000;
const GOOD_NOISY: i32 = 1_000_000_000;
const KILLER_1: i32 = 900_000_000;
const KILLER_2: i32 = 800_000_000;
const COUNTER: i32 = 700_000_000;
const BAD_NOISY: i32 = -1_000_000_000;

/// Where a picked move came from; pruning and reductions treat the kinds
/// differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    /// The transposition-table move.
    TtMove,
    /// A capture or promotion that does not lose material by SEE.
    GoodNoisy,
    /// A killer move or the counter-move: a quiet move that refuted a
    /// similar position.
    Refutation,
    /// Any other quiet move.
    Quiet,
    /// A capture that loses material by SEE, or an under-promotion.
    BadNoisy,
}

impl MoveKind {
    /// The TT move or a capture that does not lose material: exempt from
    /// SEE pruning.
    pub fn is_good(self) -> bool {
        matches!(self, MoveKind::TtMove | MoveKind::GoodNoisy)
    }
}

/// A move handed out by the [`MovePicker`].
#[derive(Clone, Copy, Debug)]
pub struct Picked {
    /// The move (always legal).
    pub mv: Move,
    /// Which stage produced it.
    pub kind: MoveKind,
    /// Its history score when `kind` is [`MoveKind::Quiet`] (0 otherwise).
    pub history: i32,
}

/// The picker's stages, in the order they run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    Killer1,
    Killer2,
    Counter,
    GenerateQuiets,
    Quiets,
    BadNoisy,
    /// Quiescence: the TT move, if it is noisy (or any evasion in check).
    QsTtMove,
    /// Quiescence: generate captures and promotions (all evasions in check).
    QsGenerate,
    /// Quiescence: hand them out, best MVV-LVA first.
    QsNoisy,
    /// A given list (the root's), scored once up front.
    List,
    Done,
}

/// Hands out the moves of a node best-first, generating them in stages so a
/// node that cuts off early pays only for what it used: the TT move is
/// checked for legality and tried before anything is generated; captures
/// and promotions are generated next and only their SEE of the ones handed
/// out is computed; quiet moves are generated (and their history looked up)
/// only once no capture or refutation has cut off.
#[derive(Debug)]
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    /// The continuation keys of the node (see [`HistoryKeys::keys`]).
    keys: [Option<usize>; 2],
    /// The squares the opponent attacks, once something has needed them
    /// (see [`MovePicker::history_keys`]).
    threats: Option<u64>,
    moves: MoveList,
    /// The scores of `moves`, index for index (written as each stage
    /// generates its moves, so never longer than `moves`).
    scores: ArrayVec<i32, { MoveList::CAPACITY }>,
    /// Next move of the current stage to hand out.
    next: usize,
    /// End of the current stage's moves in `moves`.
    end: usize,
    /// Losing captures are moved to `moves[..bad_end]` as the good-capture
    /// stage meets them (their slots are free by then).
    bad_end: usize,
}

impl MovePicker {
    /// A picker for an interior node of the main search; `keys` are the
    /// node's continuation keys (see [`HistoryKeys::keys`]).
    pub fn new(
        board: &Board,
        tt_move: Move,
        heuristics: &Heuristics,
        ply: usize,
        keys: [Option<usize>; 2],
    ) -> Self {
        Self {
            stage: Stage::TtMove,
            tt_move,
            killers: heuristics.killers(ply),
            counter: heuristics.counter(board),
            keys,
            threats: None,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            end: 0,
            bad_end: 0,
        }
    }

    /// A picker for quiescence: the TT move if noisy, then captures and
    /// promotions by MVV-LVA (SEE is left to the caller, as a pruning test);
    /// every evasion when `in_check`.
    pub fn new_qsearch(tt_move: Move, in_check: bool) -> Self {
        let tt_move = if in_check || !tt_move.is_quiet() {
            tt_move
        } else {
            Move::NULL
        };
        Self {
            stage: Stage::QsTtMove,
            tt_move,
            killers: [Move::NULL; 2],
            counter: Move::NULL,
            keys: [None; 2],
            threats: None,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            end: 0,
            bad_end: 0,
        }
    }

    /// A picker over a given list of legal moves (the root's), every move
    /// scored up front.
    pub fn from_list(
        board: &Board,
        moves: MoveList,
        tt_move: Move,
        heuristics: &Heuristics,
        ply: usize,
        keys: [Option<usize>; 2],
    ) -> Self {
        let mut picker = Self::new(board, tt_move, heuristics, ply, keys);
        let conts = picker.history_keys(board);
        picker.stage = Stage::List;
        picker.end = moves.len();
        picker.moves = moves;
        let killers = picker.killers;
        let counter = picker.counter;
        picker.scores.clear();
        picker.scores.extend(picker.moves.iter().map(|&mv| {
            if mv == tt_move {
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
                heuristics.history(board, mv, &conts)
            }
        }));
        picker
    }

    /// The node's history keys (`board` is the position the picker was made
    /// for). The opponent's attacks in them cost a pass over its pieces, so
    /// they are found on the first call only: nodes that cut off before any
    /// quiet move is scored or rewarded never pay for them.
    pub fn history_keys(&mut self, board: &Board) -> HistoryKeys {
        let threats = *self.threats.get_or_insert_with(|| opponent_attacks(board));
        HistoryKeys {
            keys: self.keys,
            threats,
        }
    }

    /// The next move, best first, or `None` when every legal move has been
    /// handed out. `board` must be the position the picker was made for
    /// (restored after each move), `heuristics` the statistics it was made
    /// with.
    pub fn pick(&mut self, board: &Board, heuristics: &Heuristics) -> Option<Picked> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    if is_legal(board, self.tt_move) {
                        return Some(picked(self.tt_move, MoveKind::TtMove));
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::GenerateNoisy => {
                    self.generate_noisy(board);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => {
                    let Some(i) = self.select() else {
                        self.stage = Stage::Killer1;
                        continue;
                    };
                    let mv = self.moves[i];
                    if mv == self.tt_move {
                        continue;
                    }
                    let under_promotion = mv.promotion().is_some_and(|k| k != PieceKind::Queen);
                    if under_promotion || !see_ge(board, mv, 0) {
                        // Deferred: its slot, and every one before it, has
                        // been handed out or deferred already.
                        self.moves[self.bad_end] = mv;
                        self.bad_end += 1;
                        continue;
                    }
                    return Some(picked(mv, MoveKind::GoodNoisy));
                }
                Stage::Killer1 => {
                    self.stage = Stage::Killer2;
                    let killer = self.killers[0];
                    if killer != self.tt_move && killer.is_quiet() && is_legal(board, killer) {
                        return Some(picked(killer, MoveKind::Refutation));
                    }
                }
                Stage::Killer2 => {
                    self.stage = Stage::Counter;
                    let killer = self.killers[1];
                    if killer != self.tt_move
                        && killer != self.killers[0]
                        && killer.is_quiet()
                        && is_legal(board, killer)
                    {
                        return Some(picked(killer, MoveKind::Refutation));
                    }
                }
                Stage::Counter => {
                    self.stage = Stage::GenerateQuiets;
                    let counter = self.counter;
                    if counter != self.tt_move
                        && !self.killers.contains(&counter)
                        && counter.is_quiet()
                        && is_legal(board, counter)
                    {
                        return Some(picked(counter, MoveKind::Refutation));
                    }
                }
                Stage::GenerateQuiets => {
                    self.generate_quiets(board, heuristics);
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    let Some(i) = self.select() else {
                        self.stage = Stage::BadNoisy;
                        self.next = 0;
                        continue;
                    };
                    let mv = self.moves[i];
                    if mv == self.tt_move || self.killers.contains(&mv) || mv == self.counter {
                        continue;
                    }
                    return Some(Picked {
                        mv,
                        kind: MoveKind::Quiet,
                        history: self.scores[i],
                    });
                }
                Stage::BadNoisy => {
                    if self.next >= self.bad_end {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.next += 1;
                    return Some(picked(self.moves[self.next - 1], MoveKind::BadNoisy));
                }
                Stage::QsTtMove => {
                    self.stage = Stage::QsGenerate;
                    if is_legal(board, self.tt_move) {
                        return Some(picked(self.tt_move, MoveKind::TtMove));
                    }
                    self.tt_move = Move::NULL;
                }
                Stage::QsGenerate => {
                    self.generate_qsearch(board);
                    self.stage = Stage::QsNoisy;
                }
                Stage::QsNoisy => {
                    let Some(i) = self.select() else {
                        self.stage = Stage::Done;
                        continue;
                    };
                    let mv = self.moves[i];
                    if mv == self.tt_move {
                        continue;
                    }
                    let kind = if mv.is_quiet() {
                        MoveKind::Quiet
                    } else {
                        MoveKind::GoodNoisy
                    };
                    return Some(picked(mv, kind));
                }
                Stage::List => {
                    let i = self.select()?;
                    let (mv, score) = (self.moves[i], self.scores[i]);
                    let kind = if mv == self.tt_move {
                        MoveKind::TtMove
                    } else if !mv.is_quiet() {
                        if score >= GOOD_NOISY {
                            MoveKind::GoodNoisy
                        } else {
                            MoveKind::BadNoisy
                        }
                    } else if self.killers.contains(&mv) || mv == self.counter {
                        MoveKind::Refutation
                    } else {
                        MoveKind::Quiet
                    };
                    let history = if kind == MoveKind::Quiet { score } else { 0 };
                    return Some(Picked { mv, kind, history });
                }
                Stage::Done => return None,
            }
        }
    }

    // The generation stages are kept out of line: inlined, their set-up
    // (masks, tables) gets hoisted to the top of `pick` and paid on every
    // call.

    /// Generates the captures and promotions, scored by MVV-LVA.
    #[inline(never)]
    fn generate_noisy(&mut self, board: &Board) {
        generate_noisy(board, &mut self.moves);
        self.end = self.moves.len();
        self.scores.clear();
        self.scores
            .extend(self.moves.iter().map(|&mv| mvv_lva(board, mv)));
    }

    /// Generates the quiet moves after the noisy ones (the losing captures
    /// among those are kept at the front), scored by history.
    #[inline(never)]
    fn generate_quiets(&mut self, board: &Board, heuristics: &Heuristics) {
        let start = self.moves.len();
        generate_quiets(board, &mut self.moves);
        self.next = start;
        self.end = self.moves.len();
        let conts = self.history_keys(board);
        let view = heuristics.history_view(board, &conts);
        debug_assert_eq!(self.scores.len(), start, "every noisy move is scored");
        self.scores.truncate(start);
        self.scores
            .extend(self.moves[start..].iter().map(|&mv| view.score(board, mv)));
    }

    /// Generates quiescence's moves: captures and promotions by MVV-LVA, and
    /// when in check the quiet evasions after them.
    #[inline(never)]
    fn generate_qsearch(&mut self, board: &Board) {
        generate_noisy_or_evasions(board, &mut self.moves);
        self.end = self.moves.len();
        self.scores.clear();
        self.scores.extend(self.moves.iter().map(|&mv| {
            if mv.is_quiet() {
                -1
            } else {
                mvv_lva(board, mv)
            }
        }));
    }

    /// Moves the best-scored of `moves[next..end]` to `next` and returns
    /// that index (advancing `next`), or `None` when the range is empty.
    /// The first of equal scores wins.
    #[inline(always)]
    fn select(&mut self) -> Option<usize> {
        let scores = self.scores.get(self.next..self.end)?;
        // Two passes: the maximum (a branch-free reduction the compiler
        // vectorises), then its first occurrence. Measured cheaper than one
        // pass keeping the best index.
        let max = scores.iter().fold(i32::MIN, |max, &score| max.max(score));
        let best = scores.iter().position(|&score| score == max)?;
        let (chosen, best) = (self.next, self.next + best);
        self.moves.swap(chosen, best);
        self.scores.swap(chosen, best);
        self.next += 1;
        Some(chosen)
    }
}

fn picked(mv: Move, kind: MoveKind) -> Picked {
    Picked {
        mv,
        kind,
        history: 0,
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::search::history::PIECE_TO;
    use kiln_board::generate_all;

    const STARTS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ];

    /// Random moves from the given starts, with killers, counters, history
    /// and a "TT move" taken from positions seen earlier (so they are often
    /// illegal here): the staged picker must hand out every legal move
    /// exactly once, in stage order, and nothing else.
    #[test]
    fn staged_picker_yields_each_legal_move_once() {
        let mut rng = Rng::new(0x0123_4567_89ab_cdef);
        let mut heuristics = Heuristics::new();
        let mut seen_moves: Vec<Move> = vec![Move::NULL];
        for fen in STARTS {
            let mut board = Board::from_fen(fen).expect("valid FEN");
            for ply in 0..60 {
                let mut all = MoveList::new();
                generate_all(&board, &mut all);
                if all.is_empty() {
                    break;
                }
                let pick_old = |rng: &mut Rng| seen_moves[rng.index(seen_moves.len())];
                let tt_move = if rng.next_u64().is_multiple_of(3) {
                    all[rng.index(all.len())]
                } else {
                    pick_old(&mut rng)
                };
                heuristics.set_killers(ply, [pick_old(&mut rng), pick_old(&mut rng)]);
                heuristics.fill_counters(|| pick_old(&mut rng));
                let conts = HistoryKeys {
                    keys: [Some((rng.next_u64() % PIECE_TO as u64) as usize), None],
                    threats: opponent_attacks(&board),
                };
                for &mv in all.iter().filter(|m| m.is_quiet()) {
                    let bonus = (rng.next_u64() % 2000) as i32 - 1000;
                    heuristics.reward(&board, mv, &conts, bonus);
                }

                let mut picker = MovePicker::new(&board, tt_move, &heuristics, ply, conts.keys);
                let mut got = Vec::new();
                let mut last_rank = 0;
                while let Some(p) = picker.pick(&board, &heuristics) {
                    let rank = match p.kind {
                        MoveKind::TtMove => 0,
                        MoveKind::GoodNoisy => 1,
                        MoveKind::Refutation => 2,
                        MoveKind::Quiet => 3,
                        MoveKind::BadNoisy => 4,
                    };
                    assert!(rank >= last_rank, "{:?} after rank {last_rank}", p.kind);
                    last_rank = rank;
                    assert_eq!(p.kind == MoveKind::TtMove, p.mv == tt_move);
                    got.push(p.mv.bits());
                }
                let mut expected: Vec<u16> = all.iter().map(|m| m.bits()).collect();
                got.sort_unstable();
                expected.sort_unstable();
                assert_eq!(got, expected, "{}", board.to_fen());

                // Quiescence: the noisy moves (all moves in check), once each.
                let mut qs = MovePicker::new_qsearch(tt_move, board.in_check());
                let mut got = Vec::new();
                while let Some(p) = qs.pick(&board, &heuristics) {
                    got.push(p.mv.bits());
                }
                let mut expected: Vec<u16> = all
                    .iter()
                    .filter(|m| board.in_check() || !m.is_quiet())
                    .map(|m| m.bits())
                    .collect();
                got.sort_unstable();
                expected.sort_unstable();
                assert_eq!(got, expected, "quiescence in {}", board.to_fen());

                seen_moves.extend_from_slice(&all);
                board.make_move(all[rng.index(all.len())]);
            }
        }
    }
}
