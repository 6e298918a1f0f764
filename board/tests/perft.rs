//! Perft suites: the Chess Programming Wiki's standard positions, Chess960
//! positions and tricky special-move positions (data files in `tests/data/`,
//! each naming its source).
//!
//! The default run checks every position up to the depth whose count is at
//! most [`QUICK_LIMIT`] nodes (a few seconds in all). The full published
//! depths run with `cargo test --release -p kiln-board --test perft -- --ignored`.

use kiln_board::{Board, perft};

/// Largest expected count checked in the default (non-ignored) run.
const QUICK_LIMIT: u64 = 20_000_000;

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn load(text: &str) -> Vec<Case> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().expect("a FEN").trim().to_string();
            let counts = parts
                .map(|part| {
                    let (depth, count) = part.trim().split_once(' ').expect("`Dn count`");
                    let depth = depth.trim_start_matches('D').parse().expect("depth");
                    (depth, count.trim().parse().expect("count"))
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

fn run(text: &str, wanted: impl Fn(u64) -> bool) {
    let mut checked = 0;
    for case in load(text) {
        let mut board = Board::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        // FEN round trip: the emitted FEN parses back to the same position.
        let again = Board::from_fen(&board.to_fen()).expect("emitted FEN parses");
        assert_eq!(again, board, "FEN round trip of {}", case.fen);
        for &(depth, expected) in &case.counts {
            if wanted(expected) {
                assert_eq!(
                    perft(&mut board, depth),
                    expected,
                    "perft({depth}) of {}",
                    case.fen
                );
                checked += 1;
            }
        }
        assert_eq!(board, again, "perft left the board changed");
    }
    assert!(checked > 0);
}

const STANDARD: &str = include_str!("data/perft-standard.epd");
const CHESS960: &str = include_str!("data/chess960.epd");
const TRICKY: &str = include_str!("data/tricky.epd");

#[test]
fn standard_positions_quick() {
    run(STANDARD, |n| n <= QUICK_LIMIT);
}

#[test]
fn chess960_positions_quick() {
    run(CHESS960, |n| n <= QUICK_LIMIT);
}

#[test]
fn tricky_positions() {
    run(TRICKY, |_| true);
}

#[test]
#[ignore = "full depths: minutes; run with --release -- --ignored"]
fn standard_positions_full() {
    run(STANDARD, |n| n > QUICK_LIMIT);
}

#[test]
#[ignore = "full depths: minutes; run with --release -- --ignored"]
fn chess960_positions_full() {
    run(CHESS960, |n| n > QUICK_LIMIT);
}
