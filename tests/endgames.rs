//! Endgame knowledge in play: Kiln plays both sides of basic mating endings
//! (KBNvK, KQvK, KRvK) from hard starting positions at a fixed node count per
//! move, and the strong side must deliver mate within the fifty-move rule.
//! KBNvK is the hard one: the lone king has to be driven out of the wrong
//! corner into one of the bishop's colour. Without the table's KBNvK
//! evaluation the first position below ends in a fifty-move draw; KQvK and
//! KRvK are mated even by the normal evaluation, and are here so that the
//! known-win scores do not break that.

use std::sync::Arc;

use kiln::search::limits::Limits;
use kiln::search::{SearchShared, Searcher};
use kiln_board::{Board, Color};
use kiln_board::{MoveList, generate_all};

/// Nodes per move for both sides.
const NODES: u64 = 20_000;

/// How the game ended, after how many moves of the strong side.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Mated { by: Color, moves: u32 },
    Drawn { reason: &'static str, moves: u32 },
}

/// Plays `fen` out with Kiln on both sides until mate, stalemate, a
/// repetition, insufficient material or the fifty-move rule.
fn play_out(fen: &str) -> Outcome {
    let mut board = Board::from_fen(fen).expect("valid test FEN");
    let strong = board.side_to_move();
    let mut searcher = Searcher::new(16);
    let limits = Limits {
        nodes: Some(NODES),
        ..Limits::default()
    };
    let mut moves = 0;
    loop {
        let mut legal = MoveList::new();
        generate_all(&board, &mut legal);
        if legal.is_empty() {
            return if board.in_check() {
                Outcome::Mated {
                    by: !board.side_to_move(),
                    moves,
                }
            } else {
                Outcome::Drawn {
                    reason: "stalemate",
                    moves,
                }
            };
        }
        if board.is_fifty_move_draw() {
            return Outcome::Drawn {
                reason: "fifty-move rule",
                moves,
            };
        }
        if board.is_repetition(3) {
            return Outcome::Drawn {
                reason: "threefold repetition",
                moves,
            };
        }
        if board.is_insufficient_material() {
            return Outcome::Drawn {
                reason: "insufficient material",
                moves,
            };
        }
        if board.side_to_move() == strong {
            moves += 1;
        }
        let result = searcher.search(
            &mut board,
            &limits,
            0,
            Arc::new(SearchShared::default()),
            &mut |_| {},
        );
        assert!(
            legal.contains(&result.best),
            "{fen}: illegal best move {:?} in {board}",
            result.best
        );
        board.make_move(result.best);
    }
}

fn assert_mates(fen: &str, within: u32) {
    let strong = Board::from_fen(fen).expect("valid test FEN").side_to_move();
    let outcome = play_out(fen);
    eprintln!("{fen}: {outcome:?}");
    match outcome {
        Outcome::Mated { by, moves } if by == strong && moves <= within => {}
        other => panic!("{fen}: expected mate by {strong:?} within {within} moves, got {other:?}"),
    }
}

/// KBNvK from the lone king's best defensive setups: in the centre, or in a
/// corner the bishop does not control (both colours, both bishop colours).
#[test]
fn kbnk_mates_within_fifty_moves() {
    for fen in [
        // Light bishop, lone king in the dark (wrong) corner.
        "7k/8/8/8/8/8/8/KBN5 w - - 0 1",
        // Light bishop, lone king in the centre.
        "8/8/8/3k4/8/8/8/4KBN1 w - - 0 1",
        // Black mates: dark bishop, White's king in the light corner h1.
        "kbn5/8/8/8/8/8/8/7K b - - 0 1",
        // Light bishop, pieces scattered, lone king near the wrong corner.
        "8/6k1/8/8/3N4/8/2B5/4K3 w - - 0 1",
        // Dark bishop from its home square, lone king in the centre.
        "8/8/3k4/8/8/8/8/2B1KN2 w - - 0 1",
        // Black mates: light bishop, White's king in the dark corner a1.
        "1nb1k3/8/8/8/8/8/8/K7 b - - 0 1",
    ] {
        assert_mates(fen, 50);
    }
}

/// KQvK and KRvK from the centre: well inside the fifty-move rule.
#[test]
fn kqk_and_krk_mate_quickly() {
    for fen in [
        "8/8/8/4k3/8/8/8/1Q2K3 w - - 0 1",
        "8/8/8/3K4/8/8/8/q6k b - - 0 1",
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        "7r/8/8/3K4/8/8/8/7k b - - 0 1",
    ] {
        assert_mates(fen, 30);
    }
}
