//! Network kernels: the output layer, dispatching (AVX2 where the CPU has
//! it) against the portable scalar path, on the accumulators of a few
//! positions, a column update (add then subtract), and the one-pass child
//! update of a quiet move and of a capture, dispatching against portable.
//! The numbers decide whether the AVX2 paths earn their `unsafe`
//! (docs/nnue.md).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kiln::eval::nnue::accumulator::Accumulator;
use kiln::eval::nnue::network::FEATURE_WEIGHTS;
use kiln::eval::nnue::simd;
use kiln_board::{Board, Color};

const SAMPLE: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r3k1/1q3ppp/p3p3/1p1nP3/3P4/P2Q1N2/1P3PPP/2R3K1 b - - 0 25",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
];

fn accumulators() -> Vec<Accumulator> {
    SAMPLE
        .iter()
        .map(|fen| Accumulator::refresh(&Board::from_fen(fen).expect("sample FEN is valid")))
        .collect()
}

fn bench_output(c: &mut Criterion) {
    let accs = accumulators();
    let run = |f: fn(&simd::Half, &simd::Half, usize) -> i32| {
        let mut sum = 0i32;
        for acc in &accs {
            sum = sum.wrapping_add(f(
                black_box(acc.half(Color::White)),
                black_box(acc.half(Color::Black)),
                black_box(0),
            ));
        }
        sum
    };
    c.bench_function("nnue/output/dispatch", |b| b.iter(|| run(simd::output_sum)));
    c.bench_function("nnue/output/scalar", |b| {
        b.iter(|| run(simd::output_sum_scalar))
    });
}

fn bench_update(c: &mut Criterion) {
    let mut acc = accumulators()[0];
    let (a, b) = (&FEATURE_WEIGHTS.0[100], &FEATURE_WEIGHTS.0[200]);
    c.bench_function("nnue/add_sub", |bench| {
        bench.iter(|| {
            let half = &mut acc.values.0[0];
            simd::add(black_box(half), a);
            simd::sub(black_box(half), b);
        })
    });
}

/// The child accumulator half of a quiet move (one column on, one off) and
/// of a capture (one on, two off), as `Accumulator::apply_from` writes it:
/// dispatching (AVX2 where the CPU has it) against the portable path.
fn bench_add_sub_into(c: &mut Criterion) {
    type Update = fn(&mut simd::Half, &simd::Half, &[&simd::Half], &[&simd::Half]);
    let parent = accumulators()[1];
    let mut child = Accumulator::EMPTY;
    let w = &FEATURE_WEIGHTS.0;
    let shapes: [(&str, Vec<&simd::Half>, Vec<&simd::Half>); 2] = [
        ("quiet", vec![&w[100]], vec![&w[200]]),
        ("capture", vec![&w[100]], vec![&w[200], &w[300]]),
    ];
    let paths: [(&str, Update); 2] = [
        ("dispatch", simd::add_sub_into),
        ("scalar", simd::add_sub_into_scalar),
    ];
    for (shape, on, off) in &shapes {
        for (path, update) in paths {
            c.bench_function(&format!("nnue/add_sub_into/{shape}/{path}"), |b| {
                b.iter(|| {
                    update(
                        black_box(&mut child.values.0[0]),
                        black_box(&parent.values.0[0]),
                        black_box(on),
                        black_box(off),
                    )
                })
            });
        }
    }
}

criterion_group!(benches, bench_output, bench_update, bench_add_sub_into);
criterion_main!(benches);
