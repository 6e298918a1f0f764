//! Search and evaluation throughput.
//!
//! `cargo bench --bench search`: a fixed-depth search of a few bench
//! positions with a fresh table each time, and the static evaluation of
//! every bench position.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use kiln::eval::evaluate;
use kiln::search::limits::Limits;
use kiln::search::{SearchShared, Searcher};
use kiln::uci::bench::POSITIONS;
use kiln_board::Board;

fn boards() -> Vec<Board> {
    POSITIONS
        .iter()
        .filter_map(|fen| Board::from_fen(fen).ok())
        .collect()
}

fn search(c: &mut Criterion) {
    let boards = boards();
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, index) in [("startpos d9", 0), ("kiwipete d7", 1), ("endgame d11", 2)] {
        let depth = match index {
            0 => 9,
            1 => 7,
            _ => 11,
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let mut searcher = Searcher::new(16);
                let mut board = boards[index].clone();
                let result = searcher.search(
                    &mut board,
                    &Limits::depth(depth),
                    0,
                    Arc::new(SearchShared::default()),
                    &mut |_| {},
                );
                black_box(result.nodes)
            })
        });
    }
    group.finish();
}

fn eval(c: &mut Criterion) {
    let boards = boards();
    c.bench_function("evaluate (50 positions)", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| evaluate(black_box(board)))
                .sum::<i32>()
        })
    });
}

criterion_group!(benches, search, eval);
criterion_main!(benches);
