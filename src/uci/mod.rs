//! The UCI protocol: command parsing ([`command`]), options ([`options`]),
//! output formatting ([`output`]), the protocol loop ([`engine`]), the
//! `bench` command ([`bench`](mod@bench)) and OpenBench's `genfens`
//! ([`genfens`](mod@genfens)).
//!
//! The search knows nothing of UCI text; this module translates in both
//! directions.

pub mod bench;
pub mod command;
pub mod engine;
pub mod genfens;
pub mod options;
pub mod output;

pub use engine::{Engine, run_stdio};
