//! `kiln bench`: a fixed set of varied positions searched to a fixed depth
//! with a fresh hash table and one thread. The total node count is a
//! signature of the search and evaluation: any change to either changes it,
//! and it must be the same on every run of the same build.

use std::time::Instant;

use crate::eval::Evaluation;
use crate::search::limits::Limits;
use crate::search::{SearchShared, Searcher};
use kiln_board::Board;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Default depth of `kiln bench`.
pub const DEFAULT_DEPTH: u64 = 10;

/// Hash size used by `bench` regardless of the `Hash` option, so the node
/// count does not depend on the engine's settings.
pub const BENCH_HASH_MIB: u64 = 16;

/// The bench positions: openings, middlegames with tactics, endgames of
/// every kind, and a checkmated and a stalemated side.
pub const POSITIONS: [&str; 50] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3k2r/2pb1ppp/2pp1q2/p7/1nP1B3/1P2P3/P2N1PPP/R2QK2R w KQkq a6 0 14",
    "4rrk1/2p1b1p1/p1p3q1/4p3/2P2n1p/1P1NR2P/PB3PP1/3R1QK1 b - - 2 24",
    "r3qbrk/6p1/2b2pPp/p3pP1Q/PpPpP2P/3P1B2/2PB3K/R5R1 w - - 16 42",
    "6k1/1R3p2/6p1/2Bp3p/3P2q1/P7/1P2rQ1K/5R2 b - - 4 44",
    "8/8/1p2k1p1/3p3p/1p1P1P1P/1P2PK2/8/8 w - - 3 54",
    "7r/2p3k1/1p1p1qp1/1P1Bp3/p1P2r1P/P7/4R3/Q4RK1 w - - 0 36",
    "r1bq1rk1/pp2b1pp/n1pp1n2/3P1p2/2P1p3/2N1P2N/PP2BPPP/R1BQ1RK1 b - - 2 10",
    "3r3k/2r4p/1p1b3q/p4P2/P2Pp3/1B2P3/3BQ1RP/6K1 w - - 3 87",
    "2r4r/1p4k1/1Pnp4/3Qb1pq/8/4BpPp/5P2/2RR1BK1 w - - 0 42",
    "4q1bk/6b1/7p/p1p4p/PNPpP2P/KN4P1/3Q4/4R3 b - - 0 37",
    "2q3r1/1r2pk2/pp3pp1/2pP3p/P1Pb1BbP/1P4Q1/R3NPP1/4R1K1 w - - 2 34",
    "1r2r2k/1b4q1/pp5p/2pPp1p1/P3Pn2/1P1B1Q1P/2R3P1/4BR1K b - - 1 37",
    "r3kbbr/pp1n1p1P/3ppnp1/q5N1/1P1pP3/P1N1B3/2P1QP2/R3KB1R b KQkq b3 0 17",
    "8/6pk/2b1Rp2/3r4/1R1B2PP/P5K1/8/2r5 b - - 16 42",
    "1r4k1/4ppb1/2n1b1qp/pB4p1/1n1BP1P1/7P/2PNQPK1/3RN3 w - - 8 29",
    "8/p2B4/PkP5/4p1pK/4Pb1p/5P2/8/8 w - - 29 68",
    "3r4/ppq1ppkp/4bnp1/2pN4/2P1P3/1P4P1/PQ3PBP/R4K2 b - - 2 20",
    "5rr1/4n2k/4q2P/P1P2n2/3B1p2/4pP2/2N1P3/1RR1K2Q w - - 1 49",
    "1r5k/2pq2p1/3p3p/p1pP4/4QP2/PP1R3P/6PK/8 w - - 1 51",
    "q5k1/5ppp/1r3bn1/1B6/P1N2P2/BQ2P1P1/5K1P/8 b - - 2 34",
    "r1b2k1r/5n2/p4q2/1ppn1Pp1/3pp1p1/NP2P3/P1PPBK2/1RQN2R1 w - - 0 22",
    "r1bqk2r/pppp1ppp/5n2/4b3/4P3/P1N5/1PP2PPP/R1BQKB1R w KQkq - 0 5",
    "r1bqr1k1/pp1p1ppp/2p5/8/3N1Q2/P2BB3/1PP2PPP/R3K2n b Q - 1 12",
    "r1bq2k1/p4r1p/1pp2pp1/3p4/1P1B3Q/P2B1N2/2P3PP/4R1K1 b - - 2 19",
    "r4qk1/6r1/1p4p1/2ppBbN1/1p5Q/P7/2P3PP/5RK1 w - - 2 25",
    "r7/6k1/1p6/2pp1p2/7Q/8/p1P2K1P/8 w - - 0 32",
    "r3k2r/ppp1pp1p/2nqb1pn/3p4/4P3/2PP4/PP1NBPPP/R2QK1NR w KQkq - 1 5",
    "3r1rk1/1pp1pn1p/p1n1q1p1/3p4/Q3P3/2P5/PP1NBPPP/4RRK1 w - - 0 12",
    "8/1p2pk1p/p1p1r1p1/3n4/8/5R2/PP3PPP/4R1K1 b - - 3 27",
    "8/8/1p1kp1p1/p1pr1n1p/P6P/1R4P1/1P3PK1/1R6 b - - 15 45",
    "8/5k2/1p4p1/p1pK3p/P2n1P1P/6P1/1P6/4R3 b - - 14 63",
    "1rb1rn1k/p3q1bp/2p3p1/2p1p3/2P1P2N/PP1RQNP1/1B3P2/4R1K1 b - - 4 23",
    "r2qr1k1/pb1nbppp/1pn1p3/2ppP3/3P4/2PB1NN1/PP3PPP/R1BQR1K1 w - - 4 12",
    "2r2k2/8/4P1R1/1p6/8/P4K1N/7b/2B5 b - - 0 55",
    "6k1/5pp1/8/2bKP2P/2P5/p4PNb/B7/8 b - - 1 44",
    "r1b2rk1/p1q1ppbp/6p1/2Q5/8/4BP2/PPP3PP/2KR1B1R b - - 2 14",
    "rnbqkb1r/pppppppp/5n2/8/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2",
    "8/8/8/8/5kp1/P7/8/1K1N4 w - - 0 1",
    "8/8/8/5N2/8/p7/8/2NK3k w - - 0 1",
    "8/3k4/8/8/8/4B3/4KB2/2B5 w - - 0 1",
    "8/8/1P6/5pr1/8/4R3/7k/2K5 w - - 0 1",
    "8/R7/2q5/8/6k1/8/1P5p/K6R w - - 0 124",
    "6k1/6pp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
    "7k/7P/6K1/8/3B4/8/8/8 b - - 0 1",
];

/// Runs the bench at `depth` (default [`DEFAULT_DEPTH`]) with the default
/// evaluation, sending progress lines to `out`; the last line is `<nodes>
/// nodes <nps> nps`. Returns the total node count.
pub fn run(depth: Option<u64>, out: &mut dyn FnMut(&str)) -> u64 {
    run_with(depth, Evaluation::DEFAULT, out)
}

/// [`run`] with the static evaluation `evaluation` (`kiln bench --eval`,
/// or UCI `bench` after `setoption name UseNNUE`): each evaluation has its
/// own node count, and the nps of the two compare their speed.
pub fn run_with(depth: Option<u64>, evaluation: Evaluation, out: &mut dyn FnMut(&str)) -> u64 {
    // Nothing sets this stop flag: the run always ends with its count.
    let shared = Arc::new(SearchShared::default());
    run_until(depth, evaluation, &shared, out).unwrap_or_default()
}

/// [`run_with`], given up when `shared.stop` is set (UCI `stop`): then
/// `None`, and no total is printed (the count of an unfinished bench is
/// no signature).
pub fn run_until(
    depth: Option<u64>,
    evaluation: Evaluation,
    shared: &Arc<SearchShared>,
    out: &mut dyn FnMut(&str),
) -> Option<u64> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).clamp(1, 64) as i32;
    let mut searcher = Searcher::new(BENCH_HASH_MIB);
    searcher.set_evaluation(evaluation);
    let limits = Limits::depth(depth);
    let start = Instant::now();
    let mut total = 0u64;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let mut board = match Board::from_fen(fen) {
            Ok(b) => b,
            Err(e) => {
                out(&format!(
                    "info string bench position {} is invalid: {e}",
                    i + 1
                ));
                continue;
            }
        };
        // Every position starts from an empty table and empty statistics, so
        // each position's count is independent of the ones before it.
        searcher.new_game();
        let result = searcher.search(&mut board, &limits, 0, Arc::clone(shared), &mut |_| {});
        if shared.stop.load(Ordering::Relaxed) {
            return None;
        }
        total += result.nodes;
        out(&format!(
            "position {:2}/{}: {:>10} nodes  bestmove {}  {}",
            i + 1,
            POSITIONS.len(),
            result.nodes,
            if result.best.is_null() {
                "0000".to_string()
            } else {
                result.best.to_uci(false)
            },
            fen
        ));
    }
    let ms = start.elapsed().as_millis().max(1);
    let nps = u128::from(total) * 1000 / ms;
    out(&format!(
        "===========================\nTotal time (ms) : {ms}"
    ));
    out(&format!("{total} nodes {nps} nps"));
    Some(total)
}
