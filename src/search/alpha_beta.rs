//! The main search: principal variation search (negamax alpha-beta) with
//! transposition-table cut-offs and the usual forward pruning.
//!
//! Scores are from the side to move's point of view. A node is a *PV node*
//! when its window is open (`beta - alpha > 1`); every other node is searched
//! with a null window and only answers "better or worse than alpha".
//!
//! The node runs its steps in this order (the "Step N" comments below):
//! 1 quiescence at the horizon, 2 node count and stop check, 3 draws,
//! 4 mate distance pruning, 5 transposition table (5b tablebases), 6 static evaluation,
//! 7 reverse futility pruning, 8 razoring, 9 null-move pruning (9b its
//! verification), 10 internal iterative reduction, 11 the move loop: 12
//! shallow-depth pruning, 13 singular extension, 14 principal variation
//! search with late-move reductions, 15 beta cut-off; then 16 mate or
//! stalemate, 17 the singular verification's early return, 18 correction
//! history (18b credit for the move that led to a fail-low), 19
//! transposition table store.

use super::history::piece_to;
use super::movepick::{MoveKind, MovePicker, Picked};
use super::see::see_ge;
use super::tt::{Bound, refine_with_tt};
use super::{Searcher, root_move_slot};
use crate::eval::score::{DRAW, INFINITE, MATE, MAX_PLY, Score, TB_BOUND, is_decisive};
use kiln_board::MoveList;
use kiln_board::{Board, Move, PieceKind};

impl Searcher {
    /// Searches `board` to `depth` plies inside the window `(alpha, beta)`.
    /// `cut_node` marks nodes expected to fail high (children of a null
    /// window search's first move), which are reduced more.
    pub(super) fn negamax(
        &mut self,
        board: &mut Board,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> Score {
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        let in_check = board.in_check();
        self.pv[ply].clear();

        // Step 1. At the horizon, resolve captures with quiescence
        // search; a check there is answered with every evasion. Checks are
        // not extended: a check that matters is found by the singular
        // extension or by quiescence, and extending every check spent
        // nodes on spite checks (it cost about 25 Elo, see the strength
        // log).
        if depth <= 0 {
            return self.qsearch(board, alpha, beta, ply, in_check);
        }

        // Step 2. Count the node; every so often look at the clock and the
        // stop flag.
        if self.tick() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply as i32);

        if !root {
            // Step 3. Draws by rule.
            if drawn_by_rule(board, in_check) {
                return DRAW;
            }
            if ply >= MAX_PLY as usize - 1 {
                return if in_check {
                    DRAW
                } else {
                    self.static_eval(board)
                };
            }

            // Step 4. Mate distance pruning: even mating right here cannot
            // beat a shorter mate found elsewhere.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 5. Transposition table lookup (not while verifying a
        // singular move: this node then searches a different move set).
        let excluded = self.frames[ply].excluded;
        let key = board.key().0;
        let tt_hit = if excluded.is_null() {
            self.tt.probe(key, ply as i32, board.halfmove_clock())
        } else {
            None
        };
        let tt_move = tt_hit.map_or(Move::NULL, |h| Move::from_bits(h.mv));
        if let Some(hit) = tt_hit {
            if !pv_node && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
        }

        // Step 5b. Tablebases: right after a capture or pawn move, a WDL
        // probe decides the node when its score settles the window (see
        // `tablebase`); never at the root, which the tables ranked already.
        // Otherwise, in a PV node, a win is a floor for the node's score
        // and a loss a ceiling (the search looks for the line, or a mate).
        let mut tb_floor = -INFINITE;
        let mut tb_ceiling = INFINITE;
        if !root && excluded.is_null() {
            if let Some(wdl) = self.probe_tablebases(board, depth) {
                let score = self.tablebase_score(wdl, ply);
                let bound = if score >= TB_BOUND {
                    Bound::Lower
                } else if score <= -TB_BOUND {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                let decided = match bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if decided {
                    let stored_depth = (depth + 6).min(MAX_PLY - 1);
                    self.tt.store(
                        key,
                        Move::NULL.bits(),
                        score,
                        stored_depth,
                        bound,
                        ply as i32,
                    );
                    return score;
                }
                if pv_node && bound == Bound::Lower {
                    tb_floor = score;
                    alpha = alpha.max(score);
                } else if pv_node {
                    tb_ceiling = score;
                }
            }
        }

        // Step 6. Static evaluation, corrected by what searches of this pawn
        // structure found, and refined by the TT score when its bound points
        // the right way.
        let static_eval = if in_check {
            -INFINITE
        } else {
            let raw = self.static_eval(board);
            self.correction.corrected(board, raw)
        };
        let eval = if in_check {
            -INFINITE
        } else {
            refine_with_tt(static_eval, tt_hit)
        };
        self.frames[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.frames[ply - 2].eval;

        if !pv_node && !in_check {
            // Step 7. Reverse futility pruning: far enough above beta that a
            // quiet ply is not going to bring it back down.
            if depth <= self.params.rfp_max_depth
                && !is_decisive(beta)
                && eval - self.params.rfp_margin * (depth - i32::from(improving)) >= beta
            {
                return eval;
            }

            // Step 8. Razoring: hopelessly below alpha at low depth; ask
            // quiescence whether a capture saves it.
            if depth <= self.params.razor_max_depth
                && eval + self.params.razor_margin * depth <= alpha
                && excluded.is_null()
            {
                let score = self.qsearch(board, alpha, alpha + 1, ply, false);
                if score <= alpha {
                    return score;
                }
            }

            // Step 9. Null-move pruning: if passing still leaves us above
            // beta, a real move would too (unsafe in zugzwang, hence the
            // non-pawn material condition).
            if depth >= self.params.nmp_min_depth
                && excluded.is_null()
                && eval >= beta
                && !is_decisive(beta)
                && ply >= self.nmp_min_ply
                && board.last_move().is_some_and(|m| !m.is_null())
                && non_pawn_pieces(board) > 0
            {
                let p = &self.params;
                let r = p.nmp_base_reduction
                    + depth / p.nmp_depth_divisor
                    + ((eval - beta) / p.nmp_eval_divisor).min(p.nmp_eval_max_reduction);
                self.frames[ply].moved = None;
                board.make_null();
                self.prefetch(board.key().0);
                let score =
                    -self.negamax(board, -beta, -beta + 1, depth - 1 - r, ply + 1, !cut_node);
                board.unmake_null();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    let score = if is_decisive(score) { beta } else { score };
                    // Step 9b. Verification: deep, or with zugzwang-prone
                    // material, search this node again (reduced like the
                    // null move) with null moves off for the next plies,
                    // and cut only if that also holds beta.
                    let verify_depth = depth - 1 - r;
                    let needs_verifying =
                        depth >= self.params.nmp_verify_depth || non_pawn_pieces(board) == 1;
                    if self.nmp_min_ply != 0 || verify_depth <= 0 || !needs_verifying {
                        return score;
                    }
                    self.nmp_min_ply = ply + (3 * verify_depth / 4) as usize + 1;
                    let verified = self.negamax(board, beta - 1, beta, verify_depth, ply, false);
                    self.nmp_min_ply = 0;
                    if self.stopped {
                        return 0;
                    }
                    if verified >= beta {
                        return score;
                    }
                }
            }
        }

        // Step 10. Internal iterative reduction: without a TT move this node
        // is probably less important than its depth suggests.
        if depth >= self.params.iir_min_depth && tt_move.is_null() && (pv_node || cut_node) {
            depth -= 1;
        }

        // Step 11. The move loop. Moves come from the staged picker, which
        // generates them only as far as the node needs.
        let keys = self.continuation_keys(ply);
        let mut picker = if root {
            MovePicker::from_list(
                board,
                self.root_moves.clone(),
                tt_move,
                &self.heuristics,
                ply,
                keys,
            )
        } else {
            MovePicker::new(board, tt_move, &self.heuristics, ply, keys)
        };

        let original_alpha = alpha;
        let mut best_score = tb_floor;
        let mut best_move = Move::NULL;
        let mut quiets_tried = MoveList::new();
        let mut searched = 0i32;
        let mut legal = 0i32;
        let futility_base = eval + self.params.futility_base;
        let may_prune = !root && non_pawn_pieces(board) > 0;

        while let Some(Picked { mv, kind, history }) = picker.pick(board, &self.heuristics) {
            legal += 1;
            if mv == excluded {
                continue;
            }
            let quiet = mv.is_quiet();

            // Step 12. Shallow-depth pruning of late moves, once a move that
            // does not get mated is in hand. Checking moves are kept: they
            // are where mates hide.
            if may_prune && best_score > -TB_BOUND {
                if quiet {
                    // Futility and history pruning look at the depth the
                    // move would be searched to after its late-move
                    // reduction, not the node's: a late move is worth
                    // only what its reduced search could find.
                    let p = &self.params;
                    let lmp_limit = p.lmp_base + depth * depth / if improving { 1 } else { 2 };
                    let lmr_depth = (depth - self.lmr.reduction(depth, searched + 1)).max(1);
                    // Whether the move gives check (three attack lookups) is
                    // asked last, only of a move one of the rules would
                    // prune: a move that none of them prunes never needs it.
                    let prunable = !in_check
                        && ((depth <= p.lmp_max_depth && searched >= lmp_limit)
                            || (lmr_depth <= p.futility_max_depth
                                && futility_base + p.futility_per_depth * lmr_depth <= alpha)
                            || (lmr_depth <= p.history_prune_max_depth
                                && kind == MoveKind::Quiet
                                && history < -p.history_prune_margin * lmr_depth)
                            || (depth <= p.see_max_depth
                                && !see_ge(board, mv, p.see_quiet_margin * depth)));
                    if prunable && !gives_check(board, mv) {
                        continue;
                    }
                } else if depth <= self.params.see_max_depth
                    && !kind.is_good()
                    && !see_ge(board, mv, self.params.see_capture_margin * depth * depth)
                {
                    continue;
                }
            }

            // The move will be searched: start loading the child's hash
            // table entries now, so they arrive while the move is made.
            self.prefetch(board.key_after(mv));

            // Step 13. Singular extension: if every other move falls well
            // short of the TT move's score, the TT move is the only good
            // one and deserves a deeper look. If even without it the node
            // beats beta, several moves refute it: cut off at once.
            let mut extension = 0;
            if let Some(hit) =
                tt_hit.filter(|_| !root && mv == tt_move && depth >= self.params.se_min_depth)
            {
                if hit.depth >= depth - self.params.se_tt_depth_margin
                    && hit.bound != Bound::Upper
                    && !is_decisive(hit.score)
                {
                    let singular_beta = hit.score - self.params.se_margin_per_depth * depth;
                    self.frames[ply].excluded = mv;
                    let score = self.negamax(
                        board,
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        cut_node,
                    );
                    self.frames[ply].excluded = Move::NULL;
                    if self.stopped {
                        return 0;
                    }
                    if score < singular_beta {
                        extension = 1;
                    } else if singular_beta >= beta {
                        return singular_beta;
                    }
                }
            }

            // Late-move reductions apply to quiet moves after the first
            // (after the first two at the root; `searched` does not count
            // this move yet). The history score is used only there; the
            // picker looked it up for plain quiet moves, the others' is
            // looked up here when it will be used.
            let reducible =
                quiet && depth >= self.params.lmr_min_depth && searched > i32::from(root);
            let history = if reducible && kind != MoveKind::Quiet {
                self.heuristics
                    .history(board, mv, &picker.history_keys(board))
            } else {
                history
            };
            self.frames[ply].moved = piece_to(board, mv);
            let nodes_before = self.nodes;
            board.make_move(mv);
            searched += 1;
            let mut new_depth = depth - 1 + extension;

            // Step 14. Principal variation search with late-move reductions:
            // the first move gets the full window; later ones must first
            // prove, with a null window (and reduced when quiet and late),
            // that they beat alpha.
            let score = if searched == 1 {
                -self.negamax(
                    board,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !pv_node && !cut_node,
                )
            } else {
                let mut reduction = 0;
                if reducible {
                    reduction = self.lmr.reduction(depth, searched);
                    reduction -= i32::from(pv_node);
                    reduction -= i32::from(kind == MoveKind::Refutation);
                    reduction += i32::from(!improving);
                    reduction += i32::from(cut_node);
                    // Whether the move gave check, asked only here: the
                    // only use, and most moves never get this far.
                    reduction -= i32::from(in_check || board.in_check());
                    reduction -= history / self.params.lmr_history_divisor;
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let new_depth_reduced = new_depth - reduction;
                let mut score =
                    -self.negamax(board, -alpha - 1, -alpha, new_depth_reduced, ply + 1, true);
                if score > alpha && reduction > 0 {
                    // The reduced search beat alpha. How far it beat the
                    // best score so far says how deep to verify: a large
                    // margin earns a ply more than planned, a bare one a
                    // ply less.
                    let deeper = score
                        > best_score
                            + self.params.lmr_deeper_margin
                            + self.params.lmr_deeper_per_ply * reduction;
                    let shallower = score < best_score + new_depth;
                    new_depth += i32::from(deeper) - i32::from(shallower);
                    if new_depth > new_depth_reduced {
                        score =
                            -self.negamax(board, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                    }
                }
                if score > alpha && pv_node {
                    score = -self.negamax(board, -beta, -alpha, new_depth, ply + 1, false);
                }
                score
            };
            board.unmake_move();
            if root {
                self.root_move_nodes[root_move_slot(mv)] += self.nodes - nodes_before;
            }

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
                        // Step 15. Beta cut-off: remember the refutation.
                        if quiet {
                            self.heuristics.update_quiet(
                                board,
                                mv,
                                &quiets_tried,
                                self.params.history_bonus(depth),
                                &picker.history_keys(board),
                                ply,
                            );
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet {
                quiets_tried.push(mv);
            }
        }

        // Step 16. No legal move: checkmate or stalemate.
        if legal == 0 {
            return if in_check { -MATE + ply as i32 } else { DRAW };
        }
        if searched == 0 {
            // Every move was pruned: the node is worth about alpha.
            return alpha;
        }

        // Step 17. A singular verification searched without one move: its
        // result is not this node's, so it is neither learnt from nor stored.
        if !excluded.is_null() {
            return best_score;
        }
        let best_score = best_score.min(tb_ceiling);
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Step 18. Teach the correction history, when the result says which
        // way the static evaluation erred: a fail-high above it or a
        // fail-low below it (or an exact score), decided by a quiet move or
        // none (a capture's gain is tactics, not a misjudged structure).
        if !in_check
            && (best_move.is_null() || best_move.is_quiet())
            && !is_decisive(best_score)
            && bound.beyond(best_score, static_eval)
        {
            self.correction
                .update(&self.params, board, depth, static_eval, best_score);
        }
        // Step 18b. Every move here failed low: the opponent's quiet move
        // that led here was a good one. Credit it in the continuation
        // histories of the node it was played from, as a cut-off there
        // would have.
        if bound == Bound::Upper
            && board
                .last_move()
                .is_some_and(|m| !m.is_null() && m.is_quiet())
        {
            if let Some(moved) = ply.checked_sub(1).and_then(|p| self.frames[p].moved) {
                let keys = self.continuation_keys(ply - 1);
                let bonus = self.params.history_bonus(depth);
                self.heuristics.reward_continuation(keys, moved, bonus);
            }
        }
        // Step 19. Store the result in the transposition table; not at the
        // root of a later MultiPV line, which searched without the better
        // moves (its result is not the root's, as in Stockfish).
        if !(root && self.pv_line > 0) {
            self.tt
                .store(key, best_move.bits(), best_score, depth, bound, ply as i32);
        }
        best_score
    }
}

/// How many pieces other than pawns and king the side to move has (null-move
/// pruning is unsound in pawn endings and risky with one piece, where
/// zugzwang is common).
fn non_pawn_pieces(board: &Board) -> u32 {
    let us = board.side_to_move();
    let pawns_and_king = board.pieces(us, PieceKind::Pawn) | board.pieces(us, PieceKind::King);
    (board.color_bb(us).0 & !pawns_and_king.0).count_ones()
}

/// Whether quiet move `mv` gives check: the moved piece attacks the enemy
/// king from its destination, or leaving its origin opens a slider's line
/// to the king. Castling and en passant (rare) count as checking, which
/// only spares them from pruning.
fn gives_check(board: &Board, mv: Move) -> bool {
    use kiln_board::attacks;
    if mv.is_castle() || mv.is_en_passant() {
        return true;
    }
    let us = board.side_to_move();
    let king = board.king_square(!us);
    let Some(piece) = board.piece_on(mv.from()) else {
        return false;
    };
    let kind = mv.promotion().unwrap_or(piece.kind());
    let occupied = (board.occupied() ^ mv.from().bitboard()) | mv.to().bitboard();
    if attacks::piece(kind, us, mv.to(), occupied).contains(king) {
        return true;
    }
    let queens = board.pieces(us, PieceKind::Queen);
    let diagonal = board.pieces(us, PieceKind::Bishop) | queens;
    let straight = board.pieces(us, PieceKind::Rook) | queens;
    let discovered =
        (attacks::bishop(king, occupied) & diagonal) | (attacks::rook(king, occupied) & straight);
    // The moved piece itself (listed at its origin) was handled above.
    !(discovered & !(mv.from().bitboard() | mv.to().bitboard())).is_empty()
}

/// Whether `board`, a node below the root, is a draw by rule: a repetition
/// (inside the search or of a game position), the fifty-move rule (unless
/// the side to move is mated), or material that cannot mate. The main
/// search and quiescence both ask: the node a depth-1 move leads to is a
/// quiescence node.
pub(super) fn drawn_by_rule(board: &Board, in_check: bool) -> bool {
    board.is_search_repetition()
        || board.is_insufficient_material()
        || (board.is_fifty_move_draw() && !(in_check && kiln_board::count_legal(board) == 0))
}
