//! The evaluation explained in text (the `eval` command): material and
//! piece-square tables, the piece count, each term group for both sides,
//! and the final score.

use super::psqt::PHASE_MAX;
use super::score::{eg, mg};
use super::{blend, evaluate, evaluate_white, phase, psqt_sum, term_breakdown};
use kiln_board::{Board, Color, PieceKind};

/// The lines that explain the evaluation of `board`.
pub fn explain(board: &Board) -> Vec<String> {
    let packed = psqt_sum(board);
    let phase = phase(board);
    let white = evaluate_white(board);
    let mut lines = vec![format!(
        "PSQT+material (White): mg {} eg {}; phase {}/{}",
        mg(packed),
        eg(packed),
        phase,
        PHASE_MAX
    )];
    let mut material = String::from("Pieces (White-Black):");
    for kind in PieceKind::ALL {
        let w = board.pieces(Color::White, kind).count();
        let b = board.pieces(Color::Black, kind).count();
        material.push_str(&format!(" {kind:?} {w}-{b}"));
    }
    lines.push(material);
    // Term groups, each side from its own point of view, blended by the
    // phase like the total (which also applies the endgame table's scaling,
    // not shown per term).
    for share in term_breakdown(board) {
        lines.push(format!(
            "Term {}: White mg {} eg {} ({}), Black mg {} eg {} ({})",
            share.name,
            mg(share.white),
            eg(share.white),
            blend(share.white, phase),
            mg(share.black),
            eg(share.black),
            blend(share.black, phase),
        ));
    }
    // The network's verdict too, whichever evaluation `UseNNUE` picks.
    lines.push(format!(
        "NNUE evaluation: {} (side to move; network {:016x}, {:?})",
        super::nnue::evaluate_fresh(board),
        super::nnue::network::FINGERPRINT,
        super::nnue::network::DESCRIPTION,
    ));
    lines.push(format!(
        "Final evaluation: {} (White's view), {} (side to move)",
        white,
        evaluate(board)
    ));
    lines
}
