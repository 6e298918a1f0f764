//! Perft with a move generator built on nothing but `kiln-tables`
//! (`board.rs`): proof that the crate carries everything an engine needs.
//!
//! ```text
//! cargo run --release -p kiln-tables --example perft -- [DEPTH] [FEN]
//! ```
//!
//! DEPTH defaults to 5 and FEN to the start position; prints the count of
//! each move at the root, the total, and the speed.

use std::process::ExitCode;
use std::time::Instant;

mod board;

use board::{Board, perft};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth = match args.first().map(|d| d.parse::<u32>()) {
        None => 5,
        Some(Ok(depth)) if depth >= 1 => depth,
        Some(_) => {
            eprintln!("usage: perft [DEPTH >= 1] [FEN]");
            return ExitCode::from(2);
        }
    };
    let fen = if args.len() > 1 {
        args[1..].join(" ")
    } else {
        START.to_string()
    };
    let board = match Board::from_fen(&fen) {
        Ok(board) => board,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::from(2);
        }
    };

    let start = Instant::now();
    let mut total = 0;
    for &mv in board.legal_moves().as_slice() {
        let nodes = perft(&board.play(mv), depth - 1);
        println!("{mv}: {nodes}");
        total += nodes;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!();
    println!(
        "depth {depth}: {total} nodes in {seconds:.3} s ({:.1} Mnps)",
        total as f64 / seconds / 1e6
    );
    ExitCode::SUCCESS
}
