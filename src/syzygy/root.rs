//! Ranking the root moves by the tables (Stockfish's `root_probe` and
//! `root_probe_wdl`): the search then looks only at the moves that keep
//! the best outcome.
//!
//! With DTZ tables each move gets its distance to zeroing `dtz` counted
//! from the root, and a rank: wins rank highest, the shorter the higher;
//! draws rank 0; losses rank equally low unless a fifty-move draw is in
//! sight, when the longer ranks higher. Without DTZ tables the WDL value
//! of each move ranks it.
//!
//! One departure from Stockfish: it ranks every win the fifty-move rule
//! cannot spoil the same (and lets the search choose among them) until a
//! position repeats. Kiln always keeps only the shortest wins. Along such
//! moves DTZ falls every ply, so no position can recur: an arbiter that
//! awards a draw as soon as the side to move *could* reach a third
//! occurrence (python-chess's `claim_draw`, which `match.py` uses) never
//! gets the chance, and Kiln's evaluation, which does not know how to make
//! progress in every endgame, is never asked to.

use super::tablebases::{Tablebases, Wdl};
use crate::eval::score::{Score, TB_WIN};
use kiln_board::count_legal;
use kiln_board::{Board, Move};

/// The rank of an immediate win (Stockfish's `MAX_DTZ`); a win `n` plies
/// from zeroing (clock included) ranks `MAX_RANK - n`.
const MAX_RANK: i32 = 1 << 18;

/// The root moves ranked by the tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootRanking {
    /// Every move with its rank, best first (ties keep their order).
    pub moves: Vec<(Move, i32)>,
    /// The score to report while the search keeps to the best moves.
    pub score: Score,
    /// Whether DTZ tables ranked the moves (otherwise WDL tables did).
    pub by_dtz: bool,
}

impl RootRanking {
    /// The moves of the best rank: the ones that keep the best outcome.
    pub fn best_moves(&self) -> Vec<Move> {
        let best = self.moves.first().map_or(0, |&(_, rank)| rank);
        self.moves
            .iter()
            .take_while(|&&(_, rank)| rank == best)
            .map(|&(mv, _)| mv)
            .collect()
    }
}

/// Ranks `moves` (legal moves of `board`, which must be covered by the
/// tables) with DTZ tables, or WDL tables where DTZ is missing. `rule50`:
/// whether the fifty-move rule counts (`Syzygy50MoveRule`). `None` when
/// the tables cannot answer for every move.
pub fn rank_root_moves(
    tables: &Tablebases,
    board: &mut Board,
    moves: &[Move],
    rule50: bool,
) -> Option<RootRanking> {
    if moves.is_empty() || !tables.covers(board) {
        return None;
    }
    let mut ranking = rank_by_dtz(tables, board, moves, rule50)
        .or_else(|| rank_by_wdl(tables, board, moves, rule50))?;
    ranking
        .moves
        .sort_by_key(|&(_, rank)| std::cmp::Reverse(rank));
    Some(ranking)
}

fn rank_by_dtz(
    tables: &Tablebases,
    board: &mut Board,
    moves: &[Move],
    rule50: bool,
) -> Option<RootRanking> {
    let (_, probed) = tables.probe_dtz(board)?;
    let clock = i32::from(board.halfmove_clock());
    let bound = if rule50 { MAX_RANK - 100 } else { 1 };
    let mut ranked = Vec::with_capacity(moves.len());
    for &mv in moves {
        let entry = probed
            .iter()
            .find(|m| m.from == mv.from() && m.to == mv.to() && m.promotion == mv.promotion())?;
        board.make_move(mv);
        // A move into a third occurrence (or past the fifty-move limit) is
        // a draw whatever the tables say.
        let drawn = board.is_repetition(2)
            || (board.is_fifty_move_draw() && !(board.in_check() && count_legal(board) == 0));
        board.unmake_move();
        let dtz = if drawn { 0 } else { entry.dtz };
        let rank = if dtz > 0 {
            MAX_RANK - (dtz + clock)
        } else if dtz < 0 {
            if -dtz * 2 + clock < 100 {
                -MAX_RANK
            } else {
                -MAX_RANK + (-dtz + clock)
            }
        } else {
            0
        };
        ranked.push((mv, rank));
    }
    let best = ranked.iter().map(|&(_, rank)| rank).max()?;
    Some(RootRanking {
        moves: ranked,
        score: score_of_rank(best, bound),
        by_dtz: true,
    })
}

/// Stockfish's display score of a rank: a win or loss within the rule
/// (`dtz + clock <= 100`) is a
/// tablebase score; a spoiled one is a small edge that grows as the win
/// comes nearer (3 to 49 centipawns).
fn score_of_rank(rank: i32, bound: i32) -> Score {
    if rank >= bound {
        TB_WIN - 1
    } else if rank > 0 {
        (rank - (MAX_RANK - 200)).max(3) * 100 / 200
    } else if rank == 0 {
        0
    } else if rank > -bound {
        (rank + (MAX_RANK - 200)).min(-3) * 100 / 200
    } else {
        -(TB_WIN - 1)
    }
}

fn rank_by_wdl(
    tables: &Tablebases,
    board: &mut Board,
    moves: &[Move],
    rule50: bool,
) -> Option<RootRanking> {
    const RANK: [i32; 5] = [-MAX_RANK, -MAX_RANK + 101, 0, MAX_RANK - 101, MAX_RANK];
    let mut ranked = Vec::with_capacity(moves.len());
    let mut best = i32::MIN;
    for &mv in moves {
        board.make_move(mv);
        let value = if board.is_repetition(2) {
            Some(0)
        } else {
            tables.probe_wdl(board).map(|wdl| -wdl.value())
        };
        board.unmake_move();
        let value = value?;
        ranked.push((mv, RANK[(value + 2) as usize]));
        best = best.max(value);
    }
    let shown = if rule50 { best } else { best.signum() * 2 };
    let score = match shown {
        2 => TB_WIN - 1,
        1 => 2,
        0 => 0,
        -1 => -2,
        _ => -(TB_WIN - 1),
    };
    Some(RootRanking {
        moves: ranked,
        score,
        by_dtz: false,
    })
}

/// A [`Wdl`] as the search scores it at `ply` from the root: wins and
/// losses (cursed ones too when the fifty-move rule is off) in the
/// tablebase band, spoiled ones as ±2, draws 0 (Stockfish's scheme).
pub fn wdl_score(wdl: Wdl, ply: usize, rule50: bool) -> Score {
    let draw_score = i32::from(rule50);
    let v = wdl.value();
    if v < -draw_score {
        -TB_WIN + ply as Score
    } else if v > draw_score {
        TB_WIN - ply as Score
    } else {
        2 * v * draw_score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_of_ranks_follow_stockfish() {
        let bound = MAX_RANK - 100;
        assert_eq!(score_of_rank(MAX_RANK, bound), TB_WIN - 1);
        assert_eq!(score_of_rank(MAX_RANK - 150, bound), 25);
        assert_eq!(score_of_rank(MAX_RANK - 400, bound), 1);
        assert_eq!(score_of_rank(0, bound), 0);
        assert_eq!(score_of_rank(-MAX_RANK, bound), -(TB_WIN - 1));
        assert_eq!(score_of_rank(MAX_RANK - 150, 1), TB_WIN - 1);
    }

    #[test]
    fn wdl_scores_are_in_the_tablebase_band() {
        assert_eq!(wdl_score(Wdl::Win, 3, true), TB_WIN - 3);
        assert_eq!(wdl_score(Wdl::Loss, 4, true), -TB_WIN + 4);
        assert_eq!(wdl_score(Wdl::CursedWin, 3, true), 2);
        assert_eq!(wdl_score(Wdl::BlessedLoss, 3, true), -2);
        assert_eq!(wdl_score(Wdl::CursedWin, 3, false), TB_WIN - 3);
        assert_eq!(wdl_score(Wdl::Draw, 3, false), 0);
    }
}
