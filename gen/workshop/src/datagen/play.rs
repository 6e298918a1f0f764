//! One game of `kiln-workshop datagen`, from its start to its result: the
//! search of each move under a soft and a hard node limit, the rules that
//! end a game, adjudication by the scores and by the Syzygy tables, and
//! moves of a UCI opponent.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::DatagenError;
use super::opening::{Openings, choose_start, game_rng};
use super::options::Options;
use crate::games::GameBuilder;
use crate::uci_client::{MATE_LABEL, UciClient};
use kiln::eval::score::{MATE_BOUND, Score, is_mate};
use kiln::search::limits::Limits;
use kiln::search::{SearchResult, SearchShared, Searcher};
use kiln::syzygy::{Tablebases, Wdl};
use kiln_board::{Board, Color};
use kiln_board::{MoveList, generate_all, parse_uci_move};
use kiln_format::game::Game;
use kiln_format::record::GameResult;

/// A game is won once this many plies in a row score at least...
const WIN_PLIES: u32 = 4;
/// ...this much for the same side (centipawns).
const WIN_SCORE: Score = 2000;
/// A game is drawn once this many plies in a row score within...
const DRAW_PLIES: u32 = 8;
/// ...this much...
const DRAW_SCORE: Score = 10;
/// ...counting from this ply of the game on (plies after the opening's
/// random moves).
const DRAW_MIN_PLY: usize = 80;
/// Games still running after this many plies are drawn: a cap that only
/// shuffling games the other rules miss reach.
const MAX_PLIES: usize = 400;

/// What every game of a run shares.
pub(super) struct Setup<'a> {
    /// The run's options.
    pub options: &'a Options,
    /// Where games start.
    pub openings: &'a Openings,
    /// The tables to adjudicate by, if any.
    pub tablebases: Option<&'a Tablebases>,
    /// Set when the run has what it needs (or failed): games in progress
    /// stop at their next move.
    pub abort: &'a AtomicBool,
}

/// The opponent's colour in game number `game`: Kiln has White in even
/// games, Black in odd ones.
pub(super) fn opponent_color(game: u64) -> Color {
    if game.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

/// Searches `board` for a move: no iteration starts once `soft` nodes are
/// searched, and the search stops at `hard` nodes in any case.
///
/// The engine's [`Limits`] has one node limit, which is hard: the search
/// stops inside an iteration and plays the last complete one's move. The
/// soft limit is its stop flag, raised by the report of each completed
/// iteration once the nodes so far reach it; the next iteration then
/// stops at its first node. Both are counts of the one search thread, so
/// the search, and the game, does not depend on the machine or its load.
pub(super) fn search_move(
    searcher: &mut Searcher,
    board: &mut Board,
    soft: u64,
    hard: u64,
) -> SearchResult {
    let limits = Limits {
        nodes: Some(hard),
        ..Limits::default()
    };
    let shared = Arc::new(SearchShared::default());
    let flags = Arc::clone(&shared);
    searcher.search(board, &limits, 0, shared, &mut |report| {
        // An aspiration fail (`bound`) is not the end of an iteration.
        if report.bound.is_none() && report.multipv == 1 && report.nodes >= soft {
            flags.stop.store(true, Ordering::Relaxed);
        }
    })
}

/// Adjudication from the scores of consecutive plies.
#[derive(Clone, Debug, Default)]
pub(super) struct Adjudicator {
    /// Plies in a row scoring [`WIN_SCORE`] or more for one side...
    win_plies: u32,
    /// ...White (else Black).
    win_white: bool,
    /// Plies in a row from [`DRAW_MIN_PLY`] on scoring within
    /// [`DRAW_SCORE`].
    draw_plies: u32,
}

impl Adjudicator {
    /// Takes the score (White's view; `None`: the mover gave none) of the
    /// search at ply `ply` of the game, and whether it is a mate the
    /// search proved; returns the result once the game is decided.
    pub(super) fn score(
        &mut self,
        ply: usize,
        white_score: Option<Score>,
        proven_mate: bool,
    ) -> Option<GameResult> {
        let Some(score) = white_score else {
            *self = Adjudicator::default();
            return None;
        };
        let white_wins = |white: bool| {
            if white {
                GameResult::Win
            } else {
                GameResult::Loss
            }
        };
        if proven_mate {
            return Some(white_wins(score > 0));
        }
        if score.abs() >= WIN_SCORE {
            let white = score > 0;
            self.win_plies = if self.win_plies > 0 && white == self.win_white {
                self.win_plies + 1
            } else {
                1
            };
            self.win_white = white;
            if self.win_plies >= WIN_PLIES {
                return Some(white_wins(white));
            }
        } else {
            self.win_plies = 0;
        }
        if ply >= DRAW_MIN_PLY && score.abs() <= DRAW_SCORE {
            self.draw_plies += 1;
            if self.draw_plies >= DRAW_PLIES {
                return Some(GameResult::Draw);
            }
        } else {
            self.draw_plies = 0;
        }
        None
    }
}

/// The result the rules or the tables give `board` before a move is
/// searched there, if the game is over.
fn decided(board: &Board, ply: usize, tablebases: Option<&Tablebases>) -> Option<GameResult> {
    let mover_wins = |wins: bool| {
        if wins == (board.side_to_move() == Color::White) {
            GameResult::Win
        } else {
            GameResult::Loss
        }
    };
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    if moves.is_empty() {
        return Some(if board.in_check() {
            mover_wins(false)
        } else {
            GameResult::Draw
        });
    }
    if board.is_fifty_move_draw()
        || board.is_repetition(2)
        || board.is_insufficient_material()
        || ply >= MAX_PLIES
    {
        return Some(GameResult::Draw);
    }
    // The tables answer as if the half-move clock were zero: right only
    // when it is, which it is when a capture first brings the men down to
    // the tables. (Later positions wait for the next capture or pawn move,
    // or the fifty-move rule.)
    let tables = tablebases?;
    if board.halfmove_clock() != 0 || board.occupied().count() > tables.max_pieces() {
        return None;
    }
    match tables.probe_wdl(board)? {
        Wdl::Win => Some(mover_wins(true)),
        Wdl::Loss => Some(mover_wins(false)),
        Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => Some(GameResult::Draw),
    }
}

/// Plays game number `game` (against `opponent` if given) and returns it
/// whole, or `None` when the run was aborted meanwhile.
///
/// # Errors
/// The start cannot be found ([`DatagenError::NoStart`]), or the
/// opponent failed or sent an illegal move.
pub(super) fn play_game(
    setup: &Setup<'_>,
    mut opponent: Option<&mut UciClient>,
    game: u64,
) -> Result<Option<Game>, DatagenError> {
    let options = setup.options;
    // A searcher of its own: nothing of another game (the hash table, the
    // histories, the caches) can change this one, so game `n` is the
    // same whichever thread plays it after whichever games.
    let mut searcher = Searcher::new(options.hash_mib);
    searcher.set_evaluation(options.evaluation);
    let mut rng = game_rng(options.seed, game);
    let mut board = choose_start(
        setup.openings,
        options.random_plies,
        options.max_opening_score,
        &mut searcher,
        &mut rng,
        game,
    )?;
    searcher.new_game();

    let opponent_color = opponent_color(game);
    let start_fen = board.to_fen();
    let mut uci_moves = String::new();
    if let Some(engine) = opponent.as_deref_mut() {
        engine.new_game()?;
    }
    let (soft, hard) = (options.nodes, options.hard_node_limit());
    let mut builder = GameBuilder::new(&board);
    let mut adjudicator = Adjudicator::default();
    let result = loop {
        if setup.abort.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let ply = builder.len();
        if let Some(result) = decided(&board, ply, setup.tablebases) {
            break result;
        }
        // The mover's move and score (its own view), and whether the
        // score is a mate Kiln's search proved.
        let (best, score, proven) = match opponent.as_deref_mut() {
            Some(engine) if board.side_to_move() == opponent_color => {
                let reply = engine.search(
                    &format!("position fen {start_fen} moves{uci_moves}"),
                    &format!("go nodes {}", options.opponent_nodes),
                )?;
                let text = reply.best.ok_or_else(|| DatagenError::OpponentNoMove {
                    fen: board.to_fen(),
                })?;
                let best =
                    parse_uci_move(&board, &text).map_err(|error| DatagenError::OpponentMove {
                        fen: board.to_fen(),
                        text: text.clone(),
                        error,
                    })?;
                // Its mates come as ±MATE_LABEL, which is no centipawn
                // score: stored as mate scores, as a loader filters them.
                let score = reply.score.map(|s| match s {
                    s if s.abs() < MATE_LABEL => s,
                    s if s < 0 => -MATE_BOUND,
                    _ => MATE_BOUND,
                });
                (best, score, false)
            }
            _ => {
                let found = search_move(&mut searcher, &mut board, soft, hard);
                (found.best, Some(found.score), is_mate(found.score))
            }
        };
        let white_score = match board.side_to_move() {
            Color::White => score,
            Color::Black => score.map(|s| -s),
        };
        // A ply the opponent scored not at all is stored as a mate score,
        // which loaders leave out, rather than as a made-up evaluation.
        builder.push(best, white_score.unwrap_or(MATE_BOUND));
        if let Some(result) = adjudicator.score(ply, white_score, proven) {
            break result;
        }
        if opponent.is_some() {
            uci_moves.push(' ');
            uci_moves.push_str(&best.to_uci(false));
        }
        board.make_move(best);
    };
    Ok(Some(builder.finish(result)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::replay;
    use crate::split_args;
    use kiln::cli::Parsed;

    fn options(text: &str) -> Options {
        match Options::parse(split_args(text)) {
            Ok(Parsed::Run(options)) => options,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_soft_limit_ends_the_search_at_an_iteration_end() {
        let mut board = Board::startpos();
        // Soft limit only (the hard one far away).
        let soft = search_move(&mut Searcher::new(1), &mut board, 2000, 10_000_000);
        // It is the search to the same depth, complete, plus the first
        // node or two of the next iteration, which the stop flag ends...
        let to_depth = |depth: i32| {
            Searcher::new(1).search(
                &mut board.clone(),
                &Limits::depth(depth),
                0,
                Arc::new(SearchShared::default()),
                &mut |_| {},
            )
        };
        let full = to_depth(soft.depth);
        assert_eq!((soft.best, soft.score), (full.best, full.score));
        assert!(
            (full.nodes..full.nodes + 4).contains(&soft.nodes),
            "{soft:?} {full:?}"
        );
        // ...the first iteration to end past the soft limit.
        assert!(full.nodes >= 2000, "{full:?}");
        assert!(to_depth(soft.depth - 1).nodes < 2000);
        // The hard limit cuts an iteration short: the move of the last
        // complete one.
        let limit = full.nodes - 1;
        let hard = search_move(&mut Searcher::new(1), &mut board, 2000, limit);
        assert!((limit..limit + 4).contains(&hard.nodes), "{hard:?}");
        assert_eq!(hard.depth, soft.depth - 1, "{hard:?}");
    }

    #[test]
    fn adjudication_needs_agreeing_plies() {
        let mut a = Adjudicator::default();
        // Three plies beyond the win score for White, then four for Black.
        for ply in 0..3 {
            assert_eq!(a.score(ply, Some(2500), false), None);
        }
        for ply in 3..6 {
            assert_eq!(a.score(ply, Some(-2000), false), None);
        }
        assert_eq!(a.score(6, Some(-2100), false), Some(GameResult::Loss));
        // One ply below the win score breaks the run.
        let mut a = Adjudicator::default();
        for (ply, score) in [2500, 2500, 2500, 1999, 2500, 2500, 2500]
            .into_iter()
            .enumerate()
        {
            assert_eq!(a.score(ply, Some(score), false), None);
        }
        assert_eq!(a.score(7, Some(2500), false), Some(GameResult::Win));
        // A missing score breaks the run.
        let mut a = Adjudicator::default();
        for ply in 0..3 {
            assert_eq!(a.score(ply, Some(3000), false), None);
        }
        assert_eq!(a.score(3, None, false), None);
        assert_eq!(a.score(4, Some(3000), false), None);
        // A proven mate ends the game at once.
        assert_eq!(
            Adjudicator::default().score(0, Some(-MATE_BOUND - 3), true),
            Some(GameResult::Loss)
        );
        // Draws: not before ply 80, then eight quiet plies in a row.
        let mut a = Adjudicator::default();
        for ply in 0..80 {
            assert_eq!(a.score(ply, Some(0), false), None);
        }
        for ply in 80..87 {
            assert_eq!(a.score(ply, Some(-10), false), None);
        }
        assert_eq!(a.score(87, Some(11), false), None);
        for ply in 88..95 {
            assert_eq!(a.score(ply, Some(10), false), None);
        }
        assert_eq!(a.score(95, Some(3), false), Some(GameResult::Draw));
    }

    #[test]
    fn rules_end_games() {
        let result = |fen: &str| decided(&Board::from_fen(fen).unwrap(), 10, None);
        assert_eq!(
            result("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"),
            Some(GameResult::Win)
        );
        assert_eq!(
            result("7K/6q1/6k1/8/8/8/8/8 w - - 0 1"),
            Some(GameResult::Loss)
        );
        assert_eq!(
            result("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
            Some(GameResult::Draw)
        );
        assert_eq!(
            result("7k/8/6K1/8/8/8/8/8 b - - 0 1"),
            Some(GameResult::Draw)
        );
        assert_eq!(
            result("7k/8/6K1/8/8/8/8/R7 b - - 100 80"),
            Some(GameResult::Draw)
        );
        assert_eq!(result(kiln_board::STARTPOS), None);
        let start = Board::startpos();
        assert_eq!(decided(&start, MAX_PLIES, None), Some(GameResult::Draw));
    }

    #[test]
    fn games_are_reproducible_and_replay() {
        let options = options("--out unused --games 1 --nodes 300 --seed 5");
        let abort = AtomicBool::new(false);
        let setup = Setup {
            options: &options,
            openings: &Openings::Start,
            tablebases: None,
            abort: &abort,
        };
        let a = play_game(&setup, None, 3).unwrap().unwrap();
        let b = play_game(&setup, None, 3).unwrap().unwrap();
        assert_eq!(a, b, "same seed and game number, same game");
        assert_ne!(a, play_game(&setup, None, 4).unwrap().unwrap());
        let mut plies = 0;
        let result = replay(&a, |ply| {
            assert_eq!(ply.index, plies);
            plies += 1;
        })
        .unwrap();
        assert_eq!(plies, a.moves.len());
        assert!(plies > 0);
        assert_eq!(Some(result), a.result());
        // An aborted run stops the game.
        abort.store(true, Ordering::Relaxed);
        assert_eq!(play_game(&setup, None, 3).unwrap(), None);
    }
}
