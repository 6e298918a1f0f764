//! Limited strength through the library: a weak setting still never throws
//! away a queen or a rook for nothing, its choices vary from move to move,
//! and a fresh searcher repeats them exactly.

use std::sync::Arc;

use kiln::eval::score::Score;
use kiln::search::limits::Limits;
use kiln::search::strength::{ELO_MIN, Strength};
use kiln::search::{SearchShared, Searcher};
use kiln_board::{Board, Move};
use kiln_board::{MoveList, generate_all};

/// Positions with an obvious way to lose heavy material: a queen attacked
/// by a pawn, a queen that could take a pawn the king defends, a rook that
/// could take a defended pawn.
const TRAPS: [&str; 3] = [
    "6k1/5pp1/7p/4p3/3Q4/8/5PPP/6K1 w - - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5Q2/PPPP1PPP/RNB1KBNR w KQkq - 0 3",
    "6k1/5pp1/4p2p/8/8/8/5PPP/4R1K1 w - - 0 1",
];

/// The most a limited choice may lose against the best move, by a full
/// search's reckoning: less than a rook.
const WORST_LOSS: Score = 450;

fn limited(elo: u32) -> Limits {
    Limits {
        strength: Some(Strength::new(elo)),
        ..Limits::default()
    }
}

fn best_move(searcher: &mut Searcher, board: &Board, limits: &Limits) -> (Move, Score) {
    let result = searcher.search(
        &mut board.clone(),
        limits,
        0,
        Arc::new(SearchShared::default()),
        &mut |_| {},
    );
    (result.best, result.score)
}

/// Every legal move of `board` with its full-strength score at depth 6.
fn reference_scores(board: &Board) -> Vec<(Move, Score)> {
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    let mut searcher = Searcher::new(16);
    moves
        .iter()
        .map(|&mv| {
            let limits = Limits {
                depth: Some(6),
                searchmoves: vec![mv],
                ..Limits::default()
            };
            searcher.new_game();
            best_move(&mut searcher, board, &limits)
        })
        .collect()
}

#[test]
fn the_weakest_setting_never_gives_away_heavy_material() {
    for fen in TRAPS {
        let board = Board::from_fen(fen).expect("valid FEN");
        let reference = reference_scores(&board);
        let best = reference.iter().map(|r| r.1).max().expect("legal moves");
        let mut searcher = Searcher::new(16);
        let mut chosen = Vec::new();
        for _ in 0..40 {
            let (mv, _) = best_move(&mut searcher, &board, &limited(ELO_MIN));
            let score = reference
                .iter()
                .find(|r| r.0 == mv)
                .map(|r| r.1)
                .unwrap_or_else(|| panic!("{fen}: illegal move {}", mv.to_uci(false)));
            assert!(
                score >= best - WORST_LOSS,
                "{fen}: {} scores {score}, the best {best}",
                mv.to_uci(false)
            );
            if !chosen.contains(&mv) {
                chosen.push(mv);
            }
        }
        assert!(
            chosen.len() > 1,
            "{fen}: always {}",
            chosen[0].to_uci(false)
        );
    }
}

#[test]
fn a_fresh_searcher_repeats_its_choices() {
    let play = || {
        let mut searcher = Searcher::new(16);
        let mut board = Board::startpos();
        let mut moves = Vec::new();
        for ply in 0..16 {
            let elo = if ply % 2 == 0 { 900 } else { 1700 };
            let (mv, _) = best_move(&mut searcher, &board, &limited(elo));
            let mut legal = MoveList::new();
            generate_all(&board, &mut legal);
            assert!(legal.contains(&mv), "illegal {}", mv.to_uci(false));
            board.make_move(mv);
            moves.push(mv);
        }
        moves
    };
    assert_eq!(play(), play());
}
