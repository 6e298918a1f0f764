//! Perft suites: the Chess Programming Wiki's standard positions, Chess960
//! positions and tricky special-move positions (data files in `tests/data/`,
//! each naming its source).
//!
//! The default run checks every position up to the depth whose count is at
//! most [`QUICK_LIMIT`] nodes (a few seconds in all). The full published
//! depths run with `cargo test --release --test perft -- --ignored`.

use kiln::board::Board;
use kiln::movegen::perft::{divide, perft};

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
