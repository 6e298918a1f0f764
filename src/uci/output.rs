//! Formatting of engine → GUI lines: `info`, `bestmove`, `id`.

use std::fmt::Write as _;

use crate::eval::score::{Score, is_mate, mate_in_moves};
use crate::protocol::wdl;
use crate::search::Report;
use crate::search::tt::Bound;
use kiln_board::Move;

/// The `id name` line: version plus the seed and fingerprint of the tables
/// and the network's fingerprint.
pub fn id_name() -> String {
    format!(
        "id name Kiln {} (tables {}/{:016x}, net {:016x})",
        crate::build_info::VERSION,
        crate::build_info::SEED,
        crate::build_info::FINGERPRINT,
        crate::eval::nnue::network::FINGERPRINT
    )
}

/// `cp <n>` or `mate <n>` for a score.
pub fn score(score: Score) -> String {
    if is_mate(score) {
        format!("mate {}", mate_in_moves(score))
    } else {
        format!("cp {score}")
    }
}

/// How `info` lines are written for one search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct InfoStyle {
    /// Castling moves as king-takes-rook (`UCI_Chess960`).
    pub chess960: bool,
    /// With `UCI_ShowWDL`: the root position's material count
    /// ([`wdl::material`]), which the win/draw/loss odds depend on.
    pub wdl_material: Option<u32>,
}

/// One `info` line for a search report.
pub fn info(report: &Report, style: InfoStyle) -> String {
    let ms = report.elapsed.as_millis();
    let nps = (u128::from(report.nodes) * 1000)
        .checked_div(ms)
        .unwrap_or(0);
    let mut line = format!(
        "info depth {} seldepth {} multipv {} score {}",
        report.depth,
        report.seldepth,
        report.multipv,
        score(report.score)
    );
    if let Some(material) = style.wdl_material {
        let odds = wdl::FITTED.per_mille(report.score, material);
        let _ = write!(line, " wdl {} {} {}", odds.win, odds.draw, odds.loss);
    }
    match report.bound {
        Some(Bound::Lower) => line.push_str(" lowerbound"),
        Some(Bound::Upper) => line.push_str(" upperbound"),
        _ => {}
    }
    let _ = write!(
        line,
        " nodes {} nps {} hashfull {} tbhits {} time {}",
        report.nodes, nps, report.hashfull, report.tb_hits, ms
    );
    if !report.pv.is_empty() {
        line.push_str(" pv");
        for mv in &report.pv {
            let _ = write!(line, " {}", mv.to_uci(style.chess960));
        }
    }
    line
}

/// The `bestmove` line; `0000` when there is no move.
pub fn bestmove(best: Move, ponder: Option<Move>, chess960: bool) -> String {
    if best.is_null() {
        return "bestmove 0000".to_string();
    }
    match ponder.filter(|m| !m.is_null()) {
        Some(p) => format!(
            "bestmove {} ponder {}",
            best.to_uci(chess960),
            p.to_uci(chess960)
        ),
        None => format!("bestmove {}", best.to_uci(chess960)),
    }
}
