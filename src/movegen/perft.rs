//! Perft: counting the leaf nodes of the legal move tree, the standard
//! correctness and speed test for move generation.
//!
//! The last ply is bulk-counted: at depth 1 the legal moves are counted
//! with bitboard population counts ([`count_legal`]) instead of being made.
//! No hash table is used.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
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

/// Subtrees this shallow are counted without looking at the stop flag:
/// they take milliseconds, and the plain count stays free of the check.
const UNCHECKED_DEPTH: u32 = 3;

/// [`perft`] that gives up (returns `None`) once `stop` is set, looking at
/// it before every subtree deeper than [`UNCHECKED_DEPTH`].
fn perft_until(board: &mut Board, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= UNCHECKED_DEPTH {
        return Some(perft(board, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        board.make_move(mv);
        let counted = perft_until(board, depth - 1, stop);
        board.unmake_move();
        nodes += counted?;
    }
    Some(nodes)
}

/// Perft with a divide: prints `move: count` for every root move (UCI
/// notation; castling as king-takes-rook when `chess960`), a blank line,
/// the time and speed, and `Nodes searched: N` last. Returns the total.
///
/// This is what `kiln perft <depth> [fen]` prints.
pub fn divide(
    board: &mut Board,
    depth: u32,
    chess960: bool,
    out: &mut impl Write,
) -> io::Result<u64> {
    let never = AtomicBool::new(false);
    let total = divide_until(board, depth, chess960, out, &never)?;
    Ok(total.unwrap_or_default())
}

/// [`divide`] that can be abandoned: once `stop` is set it stops counting,
/// prints nothing more and returns `Ok(None)`; the root moves counted so far
/// have been printed. UCI's `go perft` runs this, so that `stop` ends a perft
/// that would take hours.
pub fn divide_until(
    board: &mut Board,
    depth: u32,
    chess960: bool,
    out: &mut impl Write,
    stop: &AtomicBool,
) -> io::Result<Option<u64>> {
    let start = Instant::now();
    let mut total = 0;
    if depth == 0 {
        total = 1;
    } else {
        let mut moves = MoveList::new();
        generate_all(board, &mut moves);
        for &mv in moves.iter() {
            board.make_move(mv);
            let counted = perft_until(board, depth - 1, stop);
            board.unmake_move();
            let Some(nodes) = counted else {
                out.flush()?;
                return Ok(None);
            };
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
    Ok(Some(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stopped_divide_prints_no_total() {
        let stop = AtomicBool::new(true);
        let mut out = Vec::new();
        let counted = divide_until(&mut Board::startpos(), 5, false, &mut out, &stop);
        assert_eq!(counted.ok(), Some(None));
        assert!(!String::from_utf8_lossy(&out).contains("Nodes searched"));
    }

    #[test]
    fn an_unstopped_divide_counts_as_perft() {
        let stop = AtomicBool::new(false);
        let mut out = Vec::new();
        let counted = divide_until(&mut Board::startpos(), 5, false, &mut out, &stop);
        assert_eq!(counted.ok(), Some(Some(4_865_609)));
        assert!(String::from_utf8_lossy(&out).ends_with("Nodes searched: 4865609\n"));
    }
}
