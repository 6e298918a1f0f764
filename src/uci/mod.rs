//! The UCI protocol: command parsing ([`command`]), options ([`options`]),
//! output formatting ([`output`]), the protocol loop ([`engine`]) and the
//! `bench` command ([`bench`](mod@bench)).
//!
//! The search knows nothing of UCI text; this module translates in both
//! directions.

pub mod bench;
pub mod command;
pub mod engine;
pub mod options;
pub mod output;

pub use engine::{Engine, run_stdio};
