//! Move and score text as CECP writes them.
//!
//! Moves are coordinate notation (`e2e4`, `e7e8q`). Castling is the king's
//! two-square move in standard chess (`e1g1`) but `O-O` / `O-O-O` in
//! Fischer Random, where a king step can look the same as castling; both
//! directions follow that rule, and incoming king-takes-rook (`e1h1`) is
//! accepted too. Scores are centipawns from the engine's side, with mates
//! as `100000 + N` (mate in N moves) and `-100000 - N` (mated in N).

use core::fmt::Write as _;

use crate::eval::score::{Score, is_mate, mate_in_moves};
use crate::search::Report;
use crate::search::tt::Bound;
use kiln_board::{Board, Move};
use kiln_board::{MoveList, generate_all, parse_uci_move};

/// The text of `mv` for the GUI; `frc` selects `O-O` castling.
pub fn move_text(mv: Move, frc: bool) -> String {
    if frc && mv.is_castle() {
        // Castling is stored king-takes-rook: the rook's side names it.
        if mv.to().file() > mv.from().file() {
            "O-O".to_string()
        } else {
            "O-O-O".to_string()
        }
    } else {
        mv.to_uci(false)
    }
}

/// Finds the legal move written `text`: coordinate notation, `O-O` /
/// `O-O-O` (also with zeros) or king-takes-rook castling. Returns `None`
/// when the text is malformed or the move is not legal here.
pub fn parse_move(board: &Board, text: &str) -> Option<Move> {
    let kingside = match text {
        "O-O" | "0-0" => Some(true),
        "O-O-O" | "0-0-0" => Some(false),
        _ => None,
    };
    if let Some(kingside) = kingside {
        let mut moves = MoveList::new();
        generate_all(board, &mut moves);
        return moves
            .iter()
            .copied()
            .find(|mv| mv.is_castle() && (mv.to().file() > mv.from().file()) == kingside);
    }
    // Some interfaces send the promotion piece in upper case.
    let lowered = text.to_ascii_lowercase();
    parse_uci_move(board, &lowered).ok()
}

/// A score as CECP's thinking output writes it.
pub fn score_value(score: Score) -> i64 {
    if is_mate(score) {
        let moves = i64::from(mate_in_moves(score));
        if score > 0 {
            100_000 + moves
        } else {
            -100_000 + moves
        }
    } else {
        i64::from(score)
    }
}

/// One line of thinking output: `ply score time nodes pv`, time in
/// centiseconds. A fail-low ends the PV with `?`, a fail-high with `!`.
pub fn thinking_line(report: &Report, frc: bool) -> String {
    let mut line = format!(
        "{} {} {} {}",
        report.depth,
        score_value(report.score),
        report.elapsed.as_millis() / 10,
        report.nodes
    );
    for mv in &report.pv {
        let _ = write!(line, " {}", move_text(*mv, frc));
    }
    match report.bound {
        Some(Bound::Upper) => line.push('?'),
        Some(Bound::Lower) => line.push('!'),
        _ => {}
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::MATE;
    use std::time::Duration;

    #[test]
    fn castling_both_ways() {
        let board = Board::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("valid FEN");
        let short = parse_move(&board, "e1g1").expect("legal");
        assert_eq!(parse_move(&board, "O-O"), Some(short));
        assert_eq!(parse_move(&board, "e1h1"), Some(short));
        assert_eq!(move_text(short, false), "e1g1");
        assert_eq!(move_text(short, true), "O-O");
        let long = parse_move(&board, "0-0-0").expect("legal");
        assert_eq!(move_text(long, true), "O-O-O");
        assert_eq!(move_text(long, false), "e1c1");
        assert_eq!(parse_move(&board, "e1e3"), None);
        assert_eq!(parse_move(&board, "zz"), None);
    }

    #[test]
    fn frc_castling_next_to_the_king() {
        // King b1, rooks a1 and h1: long castling puts the king on c1, which
        // would read as a plain king step in coordinate notation.
        let board = Board::from_fen("r5kr/8/8/8/8/8/8/RK5R w HAha - 0 1").expect("valid FEN");
        let long = parse_move(&board, "O-O-O").expect("legal");
        assert!(long.is_castle());
        assert_eq!(move_text(long, true), "O-O-O");
        let step = parse_move(&board, "b1c1").expect("legal");
        assert!(!step.is_castle());
    }

    #[test]
    fn promotion_case() {
        let board = Board::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").expect("valid FEN");
        let mv = parse_move(&board, "e7e8Q").expect("legal");
        assert_eq!(move_text(mv, false), "e7e8q");
    }

    #[test]
    fn scores_and_lines() {
        assert_eq!(score_value(35), 35);
        assert_eq!(score_value(MATE - 3), 100_002);
        assert_eq!(score_value(-(MATE - 2)), -100_001);
        let board = Board::startpos();
        let e4 = parse_move(&board, "e2e4").expect("legal");
        let report = Report {
            depth: 5,
            seldepth: 9,
            multipv: 1,
            score: -12,
            bound: Some(Bound::Lower),
            nodes: 4321,
            elapsed: Duration::from_millis(1234),
            hashfull: 0,
            tb_hits: 0,
            pv: vec![e4],
        };
        assert_eq!(thinking_line(&report, false), "5 -12 123 4321 e2e4!");
    }
}
