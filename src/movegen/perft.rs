//! Perft: counting the leaf nodes of the legal move tree, the standard
//! correctness and speed test for move generation.
//!
//! The last ply is bulk-counted: at depth 1 the legal moves are counted
//! with bitboard population counts ([`count_legal`]) instead of being made.
//! No hash table is used.

use std::io::{self, Write};
use std::time::Instant;

use crate::board::Board;

use super::generate::{count_legal, generate_all};
use super::move_list::MoveList;

/// Number of leaf nodes `depth` plies below the position (1 at depth 0).
pub fn perft(board: &mut Board, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(board),
        _ => {
            let mut moves = MoveList::new();
            generate_all(board, &mut moves);
            let mut nodes = 0;
            for &mv in moves.iter() {
                board.make_move(mv);
                nodes += perft(board, depth - 1);
                board.unmake_move();
            }
            nodes
        }
    }
}

/// Perft with a divide: prints `move: count` for every root move (UCI
/// notation; castling as king-takes-rook when `chess960`), a blank line,
/// the time and speed, and `Nodes searched: N` last. Returns the total.
///
/// This is what `kiln perft <depth> [fen]` and UCI `go perft <depth>` print.
pub fn divide(
    board: &mut Board,
    depth: u32,
    chess960: bool,
    out: &mut impl Write,
) -> io::Result<u64> {
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        let mut moves = MoveList::new();
        generate_all(board, &mut moves);
        for &mv in moves.iter() {
            board.make_move(mv);
            let nodes = perft(board, depth - 1);
            board.unmake_move();
            total += nodes;
            writeln!(out, "{}: {}", mv.to_uci(chess960), nodes)?;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (total as f64 / secs) as u64
    } else {
        0
    };
    writeln!(out)?;
    writeln!(out, "Time: {:.3} s, {} nps", secs, nps)?;
    writeln!(out, "Nodes searched: {total}")?;
    out.flush()?;
    Ok(total)
}
