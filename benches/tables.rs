//! Table lookups (magic vs PEXT vs ray walk) and full generation time.
//!
//! `cargo bench --bench tables`; the PEXT group runs only when the build
//! targets BMI2 (`RUSTFLAGS="-C target-cpu=native"`).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use kiln_gen::emit::{self, Layouts};
use kiln_gen::geometry::{BISHOP_DIRECTIONS, ROOK_DIRECTIONS, slider_attacks_slow};

/// A fixed sample of (square, occupancy) pairs from a xorshift stream, so
/// every lookup method sees the same inputs.
fn sample() -> Vec<(u8, u64)> {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..1024)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            ((x % 64) as u8, x.rotate_left(11) & x.rotate_left(29))
        })
        .collect()
}

fn lookups(c: &mut Criterion) {
    let inputs = sample();
    let mut group = c.benchmark_group("slider lookups (1024 rook + 1024 bishop)");
    group.bench_function("magic", |b| {
        b.iter(|| {
            inputs.iter().fold(0u64, |acc, &(s, occ)| {
                acc ^ kiln_tables::raw::rook_attacks(black_box(s), black_box(occ))
                    ^ kiln_tables::raw::bishop_attacks(black_box(s), black_box(occ))
            })
        })
    });
    #[cfg(target_feature = "bmi2")]
    group.bench_function("pext", |b| {
        use kiln_tables::raw::pext;
        b.iter(|| {
            inputs.iter().fold(0u64, |acc, &(s, occ)| {
                let (s, occ) = (black_box(s), black_box(occ));
                let rook_mask = pext::ROOK_MASKS[s as usize];
                let bishop_mask = pext::BISHOP_MASKS[s as usize];
                // SAFETY: compiled only when the target has BMI2.
                let (ri, bi) = unsafe {
                    (
                        core::arch::x86_64::_pext_u64(occ, rook_mask),
                        core::arch::x86_64::_pext_u64(occ, bishop_mask),
                    )
                };
                acc ^ pext::rook_attacks_at(s, ri) ^ pext::bishop_attacks_at(s, bi)
            })
        })
    });
    group.bench_function("ray walk", |b| {
        b.iter(|| {
            inputs.iter().fold(0u64, |acc, &(s, occ)| {
                let (s, occ) = (black_box(s) as usize, black_box(occ));
                acc ^ slider_attacks_slow(s, occ, &ROOK_DIRECTIONS)
                    ^ slider_attacks_slow(s, occ, &BISHOP_DIRECTIONS)
            })
        })
    });
    group.finish();
}

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("generation");
    group.sample_size(20);
    group.bench_function("generate (default seed, scheduled magics)", |b| {
        b.iter(|| kiln_gen::generate(black_box(&kiln_gen::Config::default())))
    });
    group.bench_function("generate + emit Rust (magic layout)", |b| {
        b.iter(|| {
            let t = kiln_gen::generate(black_box(&kiln_gen::Config::default()));
            emit::rust(&t, Layouts::Magic).len()
        })
    });
    group.finish();
}

criterion_group!(benches, lookups, generation);
criterion_main!(benches);
