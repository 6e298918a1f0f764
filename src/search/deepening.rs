//! Iterative deepening and aspiration windows: the search of one thread,
//! from the prepared root to its result. Each iteration searches one ply
//! deeper than the last (every MultiPV line in turn), through a window
//! around the previous score that widens when the score falls outside it,
//! and leaves a complete answer behind should time run out.

use std::cell::Cell;
use std::time::{Duration, Instant};

use super::strength::{self, Handicap, Strength};
use super::threads::helper_skips;
use super::time::{falling_score_scale, node_share_scale};
use super::tt::Bound;
use super::{Report, SearchResult, Searcher, root_move_slot};
use crate::eval::score::{INFINITE, MATE, MAX_PLY, Score, is_decisive, is_mate};
use crate::rng::Rng;
use kiln_board::MoveList;
use kiln_board::{Board, Move};

impl Searcher {
    /// Iterative deepening on the prepared root: the whole search of one
    /// thread.
    pub(super) fn iterate(
        &mut self,
        board: &mut Board,
        start: Instant,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        debug_assert!(
            self.lmr.is_for(&self.params),
            "prepare builds the LMR table"
        );
        let limits = self.limits.clone();
        let max_depth = limits.depth.unwrap_or(MAX_PLY - 1).clamp(1, MAX_PLY - 1);
        let all_root = self.root_moves.clone();
        // Limited strength searches extra lines to choose from, but reports
        // only the lines asked for.
        let handicap = limits.strength.and_then(Strength::handicap);
        let shown = limits.multi_pv.max(1);
        let lines = shown
            .max(handicap.map_or(1, |h| h.lines))
            .clamp(1, all_root.len());
        // The lines of the last iteration that completed all of them.
        let mut complete: Vec<(Move, Option<Move>, Score)> = Vec::new();
        let mut result = SearchResult {
            best: all_root[0],
            ponder: None,
            score: -INFINITE,
            depth: 0,
            nodes: 0,
        };
        // Previous iteration's score of each line, for its aspiration window.
        let mut line_scores = vec![-INFINITE; lines];
        let mut stable_iterations = 0;
        // Sum and count of the best line's scores over the completed
        // iterations so far, for the falling-score factor.
        let mut score_sum: i64 = 0;
        let mut scores_seen: i64 = 0;
        // The first move of the last line 1 shown: the move played must
        // start the last line shown (GUIs and match runners check it).
        let last_shown: Cell<Option<Move>> = Cell::new(None);
        let report = &mut |line: &Report| {
            if line.multipv == 1 {
                last_shown.set(line.pv.first().copied());
            }
            report(line);
        };

        // Step 1. Iterative deepening: each iteration orders the next one
        // through the TT and the history tables, and leaves a complete
        // answer behind should time run out.
        'deepening: for depth in 1..=max_depth {
            if helper_skips(self.thread_index, depth, self.root_ply) && depth < max_depth {
                continue;
            }
            // Step 2. MultiPV: line `k` searches the root without the best
            // moves of lines `0..k`.
            let mut found: Vec<(Move, Option<Move>, Score)> = Vec::with_capacity(lines);
            for (line, line_score) in line_scores.iter_mut().enumerate() {
                self.root_moves = MoveList::new();
                for &mv in all_root
                    .iter()
                    .filter(|m| !found.iter().any(|f| f.0 == **m))
                {
                    self.root_moves.push(mv);
                }
                self.seldepth = 0;
                self.pv_line = line;
                let score = self.aspiration(board, depth, *line_score, start, report);
                // An unfinished line 1 leaves the last depth's result; an
                // unfinished later line keeps this depth's finished line 1.
                if self.stopped && line == 0 && depth > 1 {
                    break 'deepening;
                }
                if self.stopped && line > 0 {
                    break;
                }
                let pv = self.pv[0].clone();
                let best = pv.first().copied().unwrap_or(self.root_moves[0]);
                *line_score = score;
                found.push((best, pv.get(1).copied(), score));
                if line < shown {
                    report(&Report {
                        depth,
                        seldepth: self.seldepth,
                        multipv: line + 1,
                        score: self.shown_score(score),
                        bound: None,
                        nodes: self.nodes_all_threads(),
                        elapsed: start.elapsed(),
                        hashfull: self.tt.hashfull(),
                        tb_hits: self.tb_hits(),
                        pv: Self::reported_pv(board, &pv),
                    });
                }
                if self.stopped {
                    break;
                }
            }
            if found.len() == lines {
                complete.clone_from(&found);
            }
            let Some(&(best, ponder, score)) = found.first() else {
                break;
            };
            stable_iterations = if best == result.best {
                stable_iterations + 1
            } else {
                0
            };
            result = SearchResult {
                best,
                ponder,
                score,
                depth,
                nodes: self.nodes,
            };
            if self.thread_index > 0 {
                self.sync.publish(self.thread_index, &result);
            }
            if self.stopped {
                break;
            }
            // Limited strength: no iteration starts once the budget is
            // spent (none is cut short by it).
            if handicap.is_some_and(|h| self.nodes >= h.nodes) {
                break;
            }
            // A mate seen with this much depth to spare will not get
            // shorter: stop instead of printing the same line up to the
            // maximum depth (infinite and ponder searches then wait).
            if is_mate(score) && depth >= 2 * (MATE - score.abs()) + 4 {
                break;
            }
            if let Some(mate) = limits.mate {
                if is_mate(score) && score > 0 && MATE - score < mate.saturating_mul(2) {
                    break;
                }
            }
            // Step 3. Time: stop early when the best move has been stable
            // for a while or took most of the search, think longer while it
            // keeps changing or its rivals kept the search busy.
            if self.clock_running() {
                let stability = self.params.time_stability(stable_iterations);
                let share = node_share_scale(
                    &self.params,
                    self.root_move_nodes[root_move_slot(best)],
                    self.nodes,
                );
                let falling = if scores_seen == 0 || is_decisive(score) {
                    100
                } else {
                    falling_score_scale(&self.params, score_sum / scores_seen, score)
                };
                let scale = stability * share / 100 * falling / 100;
                let single_reply = all_root.len() == 1 && self.time.soft_ms().is_some();
                if single_reply || self.time.soft_expired(scale) {
                    break;
                }
            }
            if !is_decisive(score) {
                score_sum += i64::from(score);
                scores_seen += 1;
            }
        }
        if let Some(handicap) = handicap {
            self.choose_line(board, &complete, &handicap, &mut result);
        }
        // A line that failed high and then ran out of time, or a limited
        // strength's choice, was not the last line shown: show the move's.
        if last_shown.get().is_some_and(|shown| shown != result.best) && !result.best.is_null() {
            self.show_result(board, &result, start, report);
        }
        result.nodes = self.nodes;
        result
    }

    /// The score to report for a line: the tables' verdict on the root
    /// when they ranked its moves, unless the search found a mate.
    pub(super) fn shown_score(&self, score: Score) -> Score {
        match self.root_tb_score {
            Some(tb) if !is_mate(score) => tb,
            _ => score,
        }
    }

    /// The principal variation as reported: cut after the move that ends
    /// the game by threefold repetition (the game's history counts) or the
    /// fifty-move rule, where the tree's line may run on (its repetition
    /// rule stops at a second occurrence only when the search reaches it,
    /// and a line through the transposition table need not). GUIs and
    /// match runners check that a PV does not continue past a draw.
    pub(super) fn reported_pv(board: &Board, pv: &[Move]) -> Vec<Move> {
        let mut line = board.clone();
        let mut shown = Vec::with_capacity(pv.len());
        for &mv in pv {
            line.make_move(mv);
            shown.push(mv);
            if line.is_repetition(2) || line.is_fifty_move_draw() {
                break;
            }
        }
        shown
    }

    /// Limited strength: replaces the best move of `result` by the one
    /// [`strength::choose`] picks from the `complete` lines (kept when no
    /// iteration completed them all).
    fn choose_line(
        &mut self,
        board: &Board,
        complete: &[(Move, Option<Move>, Score)],
        handicap: &Handicap,
        result: &mut SearchResult,
    ) {
        if complete.is_empty() {
            return;
        }
        let candidates: Vec<(Move, Score)> = complete.iter().map(|l| (l.0, l.2)).collect();
        let mut rng = Rng::new(board.key().0 ^ self.choices.next_u64());
        let chosen = strength::choose(&candidates, handicap, &mut rng);
        if let Some(&(best, ponder, score)) = complete.iter().find(|l| l.0 == chosen) {
            result.best = best;
            result.ponder = ponder;
            result.score = score;
        }
    }

    /// Shows `result`'s line (its move and the expected reply) as line 1:
    /// the line of the move about to be played, where the last line shown
    /// was another's.
    pub(super) fn show_result(
        &self,
        board: &Board,
        result: &SearchResult,
        start: Instant,
        report: &mut dyn FnMut(&Report),
    ) {
        let line: Vec<Move> = std::iter::once(result.best).chain(result.ponder).collect();
        report(&Report {
            depth: result.depth,
            seldepth: self.seldepth.max(result.depth),
            multipv: 1,
            score: self.shown_score(result.score),
            bound: None,
            nodes: self.nodes_all_threads(),
            elapsed: start.elapsed(),
            hashfull: self.tt.hashfull(),
            tb_hits: self.tb_hits(),
            pv: Self::reported_pv(board, &line),
        });
    }

    /// Step 4. Aspiration windows: search a narrow window around the
    /// previous score, widening it on each failure.
    fn aspiration(
        &mut self,
        board: &mut Board,
        depth: i32,
        previous: Score,
        start: Instant,
        report: &mut dyn FnMut(&Report),
    ) -> Score {
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) =
            if depth >= self.params.aspiration_min_depth && !is_decisive(previous) {
                (
                    (previous - delta).max(-INFINITE),
                    (previous + delta).min(INFINITE),
                )
            } else {
                (-INFINITE, INFINITE)
            };
        loop {
            let score = self.negamax(board, alpha, beta, depth, 0, false);
            if self.stopped {
                return score;
            }
            let bound = if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
                Bound::Upper
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
                Bound::Lower
            } else {
                return score;
            };
            if start.elapsed() > Duration::from_secs(1) {
                report(&Report {
                    depth,
                    seldepth: self.seldepth,
                    multipv: self.pv_line + 1,
                    score: self.shown_score(score),
                    bound: Some(bound),
                    nodes: self.nodes_all_threads(),
                    elapsed: start.elapsed(),
                    hashfull: self.tt.hashfull(),
                    tb_hits: self.tb_hits(),
                    pv: Self::reported_pv(board, &self.pv[0]),
                });
            }
            delta += delta / 2;
            if delta > self.params.aspiration_max_delta {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::parse_uci_move;

    /// Plays UCI moves on a board.
    fn play(board: &mut Board, moves: &str) -> Vec<Move> {
        moves
            .split_whitespace()
            .map(|text| {
                let mv = parse_uci_move(board, text).unwrap();
                board.make_move(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn the_reported_pv_ends_at_a_threefold_repetition() {
        let mut board = Board::startpos();
        play(&mut board, "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
        let mut line = board.clone();
        let pv = play(&mut line, "f6g8 g1f3 g8f6");
        // f6g8 brings the start position back a third time.
        assert_eq!(Searcher::reported_pv(&board, &pv), pv[..1]);
        // From the start, the same moves are no repetition yet.
        let start = Board::startpos();
        let mut line = start.clone();
        let pv = play(&mut line, "g1f3 g8f6 f3g1 f6g8");
        assert_eq!(Searcher::reported_pv(&start, &pv), pv);
    }

    #[test]
    fn the_reported_pv_ends_at_the_fifty_move_rule() {
        let board = Board::from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 98 80").unwrap();
        let mut line = board.clone();
        let pv = play(&mut line, "a1a2 e6d6 a2a3");
        assert_eq!(Searcher::reported_pv(&board, &pv), pv[..2]);
    }
}
