//! Move generation benchmarks: legal generation over a fixed sample of
//! positions, make/unmake of every legal move, and perft depth 4 (bulk
//! counted) on the start position and Kiwipete.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kiln_board::Board;
use kiln_board::perft;
use kiln_board::{MoveList, count_legal, generate_all, generate_noisy_or_evasions};

/// A fixed sample: the CPW perft positions and a few middlegames/endgames.
const SAMPLE: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
    "2r3k1/1q3ppp/p3p3/1p1nP3/3P4/P2Q1N2/1P3PPP/2R3K1 b - - 0 25",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

fn boards() -> Vec<Board> {
    SAMPLE
        .iter()
        .map(|fen| Board::from_fen(fen).expect("sample FEN is valid"))
        .collect()
}

fn bench_generation(c: &mut Criterion) {
    let boards = boards();
    c.bench_function("generate_all/sample", |b| {
        b.iter(|| {
            let mut total = 0;
            for board in &boards {
                let mut list = MoveList::new();
                generate_all(black_box(board), &mut list);
                total += list.len();
            }
            total
        })
    });
    c.bench_function("generate_noisy_or_evasions/sample", |b| {
        b.iter(|| {
            let mut total = 0;
            for board in &boards {
                let mut list = MoveList::new();
                generate_noisy_or_evasions(black_box(board), &mut list);
                total += list.len();
            }
            total
        })
    });
    c.bench_function("count_legal/sample", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| count_legal(black_box(board)))
                .sum::<u64>()
        })
    });
}

fn bench_make_unmake(c: &mut Criterion) {
    let mut boards = boards();
    let lists: Vec<MoveList> = boards
        .iter()
        .map(|board| {
            let mut list = MoveList::new();
            generate_all(board, &mut list);
            list
        })
        .collect();
    c.bench_function("make_unmake/sample", |b| {
        b.iter(|| {
            for (board, list) in boards.iter_mut().zip(&lists) {
                for &mv in list.iter() {
                    board.make_move(black_box(mv));
                    board.unmake_move();
                }
            }
        })
    });
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft4");
    group.sample_size(20);
    for (name, fen) in [("startpos", SAMPLE[0]), ("kiwipete", SAMPLE[1])] {
        let mut board = Board::from_fen(fen).expect("valid");
        group.bench_function(name, |b| b.iter(|| perft(black_box(&mut board), 4)));
    }
    group.finish();
}

criterion_group!(benches, bench_generation, bench_make_unmake, bench_perft);
criterion_main!(benches);
