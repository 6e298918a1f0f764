//! Perft with a divide, as `kiln perft <depth> [fen]` and UCI's `go perft`
//! print it: the count under each root move, the time and speed, and the
//! total last. The counting itself is [`kiln_board::perft`]; what is the
//! engine's here is the output and the stop flag a GUI's `stop` sets.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use kiln_board::{Board, MoveList, generate_all, perft};

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

    #[test]
    fn divide_prints_root_moves_and_total_last() {
        let mut board = Board::startpos();
        let mut out = Vec::new();
        let total = divide(&mut board, 2, false, &mut out).expect("write to a Vec");
        let text = String::from_utf8(out).expect("UTF-8");
        assert_eq!(total, 400);
        assert!(text.contains("e2e4: 20\n"), "{text}");
        assert_eq!(text.lines().filter(|l| l.contains(": 20")).count(), 20);
        assert_eq!(text.lines().last(), Some("Nodes searched: 400"));
    }

    #[test]
    fn divide_writes_chess960_castling_as_king_takes_rook() {
        let fen = "1r2k2r/8/8/8/8/8/8/R3K1R1 w GQkb - 0 1";
        let mut board = Board::from_fen(fen).expect("valid");
        let mut out = Vec::new();
        divide(&mut board, 1, true, &mut out).expect("write");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(
            text.contains("e1g1: 1") && text.contains("e1a1: 1"),
            "{text}"
        );
        let mut out = Vec::new();
        divide(&mut board, 1, false, &mut out).expect("write");
        let text = String::from_utf8(out).expect("UTF-8");
        assert!(text.contains("e1c1: 1"), "{text}");
    }
}
