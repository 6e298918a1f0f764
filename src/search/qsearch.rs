//! Quiescence search: at the horizon, play out captures and promotions (all
//! evasions when in check) until the position is quiet, so the static
//! evaluation is never taken in the middle of an exchange.

use super::Searcher;
use super::alpha_beta::drawn_by_rule;
use super::movepick::{MovePicker, Picked};
use super::see::{SEE_VALUES, see_ge};
use super::tt::{Bound, refine_with_tt};
use crate::eval::score::{DRAW, INFINITE, MATE, MAX_PLY, Score, is_mate};
use kiln_board::{Board, Move};

impl Searcher {
    /// Quiescence search of `board` inside `(alpha, beta)`; `in_check` must
    /// be `board.in_check()` (every caller has just asked it or knows it).
    pub(super) fn qsearch(
        &mut self,
        board: &mut Board,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        in_check: bool,
    ) -> Score {
        debug_assert_eq!(in_check, board.in_check());
        self.pv[ply].clear();
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as i32);
        // A repetition or the fifty-move rule too, not only dead material:
        // a quiet move at depth 1 (or a quiet evasion here) can repeat a
        // position, and the leaf must score the draw, not the evaluation.
        if ply > 0 && drawn_by_rule(board, in_check) {
            return DRAW;
        }
        if ply >= MAX_PLY as usize - 1 {
            return if in_check {
                DRAW
            } else {
                self.static_eval(board)
            };
        }

        // Step 1. TT cut-off: any stored result is at least as deep as this.
        let pv_node = beta - alpha > 1;
        let key = board.key().0;
        let tt_hit = self.tt.probe(key, ply as i32, board.halfmove_clock());
        if let Some(hit) = tt_hit {
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
            };
            if cut && !pv_node {
                return hit.score;
            }
        }
        let tt_move = tt_hit.map_or(Move::NULL, |h| Move::from_bits(h.mv));

        // Step 2. Stand pat: the side to move may decline every capture
        // (not when in check, where it must answer the check).
        // A stored score whose bound points the right way is a better
        // estimate than the static evaluation (as in the main search).
        let stand_pat = if in_check {
            -INFINITE
        } else {
            let raw = self.static_eval(board);
            let static_eval = self.correction.corrected(board, raw);
            refine_with_tt(static_eval, tt_hit)
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);

        let mut picker = MovePicker::new_qsearch(tt_move, in_check);
        let original_alpha = alpha;
        let mut best_score = stand_pat;
        let mut best_move = Move::NULL;
        let mut legal = 0;
        while let Some(Picked { mv, .. }) = picker.pick(board, &self.heuristics) {
            legal += 1;
            if !in_check {
                // Step 3. Delta pruning: even winning the victim (plus a
                // margin) cannot lift the score to alpha.
                let gain = board
                    .piece_on(mv.to())
                    .map_or(SEE_VALUES[0], |p| SEE_VALUES[p.kind().index()]);
                if !mv.is_promotion() && stand_pat + gain + self.params.delta_margin <= alpha {
                    continue;
                }
                // Step 4. Skip captures that lose material by exchange.
                if !see_ge(board, mv, 0) {
                    continue;
                }
            }
            self.prefetch(board.key_after(mv));
            board.make_move(mv);
            let gives_check = board.in_check();
            let score = -self.qsearch(board, -beta, -alpha, ply + 1, gives_check);
            board.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }

        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha && !is_mate(best_score) {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, best_move.bits(), best_score, 0, bound, ply as i32);
        best_score
    }
}
