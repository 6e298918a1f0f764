//! Kiln: a UCI/XBoard chess engine whose lookup tables are all generated at
//! build time.
//!
//! Data flows one way: `kiln-tables` → `kiln-board` (the board and legal
//! move generation, its own crate) → the leaf modules ([`prefetch`],
//! [`rng`]) → [`opening`] → [`eval`] →
//! [`syzygy`] → [`search`] → [`protocol`] (what both protocols share) →
//! [`uci`] / [`xboard`] / [`cli`] (the binary's command line);
//! `tests/layers.rs` fails when a module imports from its own layer or a
//! higher one. No module computes a lookup table at runtime; every table is
//! a `static` emitted by a build script. (The late-move-reduction table is
//! search state, not a lookup table: each searcher builds its own from its
//! tunable parameters, so that SPSA can tune them.)
//!
//! The workshop (`kiln-workshop`: self-play data, the Texel tuner, the
//! network trainer) is another crate, built on this library; nothing of it
//! is compiled into the engine.

#![deny(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod cli;
pub mod eval;
pub mod opening;
pub mod prefetch;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod syzygy;
pub mod uci;
pub mod xboard;

/// Identification of the tables baked into this binary.
pub mod build_info {
    /// The engine version from `Cargo.toml`.
    pub const VERSION: &str = env!("CARGO_PKG_VERSION");
    /// Seed the Zobrist keys (and, with a full search, the magics) came from.
    pub const SEED: u64 = kiln_tables::SEED;
    /// 64-bit FNV-1a fingerprint over every generated chess table.
    pub const FINGERPRINT: u64 = kiln_tables::FINGERPRINT;
}
