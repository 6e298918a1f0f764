//! Syzygy endgame tablebases: loading them from a `SyzygyPath`, probing
//! WDL (win/draw/loss) and DTZ (distance to zeroing) values, and ranking
//! the root moves by them.
//!
//! Probing is done by the `pyrrhic_rs` crate (MIT), which takes the
//! engine's own attack lookups ([`adapter`]). The search decides where to
//! probe (`search::tablebase`); the protocols load the tables.
//!
//! - [`adapter`]: Kiln's attack tables behind the prober's interface;
//! - [`files`]: the directories of a path and the check of their files;
//! - [`tablebases`]: the loaded tables and the WDL and DTZ probes;
//! - [`root`]: the ranking of the root moves.

pub mod adapter;
pub mod files;
pub mod root;
pub mod tablebases;

pub use files::SEPARATOR;
pub use root::{RootRanking, rank_root_moves, wdl_score};
pub use tablebases::{Loaded, MoveDtz, Tablebases, Wdl};
