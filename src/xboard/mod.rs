//! The XBoard protocol (CECP version 2).
//!
//! `kiln xboard`, or `xboard` as the first line of input, starts a CECP
//! conversation instead of UCI. The engine core is the same: the engine turns
//! `level`/`st`/`sd`/`time` into search [`Limits`](crate::search::limits::Limits)
//! and runs the [`Searcher`](crate::search::Searcher) on its own thread,
//! exactly as the UCI loop does; the search and the board know nothing of
//! either protocol.
//!
//! Unlike UCI, CECP makes the engine a player: it keeps the game, knows its
//! colour and its clock, and announces results by rule ([`outcome`]).
//! The pieces:
//! - [`command`]: GUI line → [`Command`](command::Command), pure parsing;
//! - [`time_control`]: `level`/`st` and the search limits they imply;
//! - [`notation`]: move text (`O-O` castling in Fischer Random), scores and
//!   thinking lines;
//! - [`outcome`]: mate, stalemate and claimable draws;
//! - [`engine`]: the state machine, its threads and its policies (draw
//!   offers, resignation, no pondering).
//!
//! ```no_run
//! // What `kiln xboard` does:
//! kiln::xboard::run_stdio();
//! ```

pub mod command;
pub mod engine;
pub mod notation;
pub mod outcome;
pub mod time_control;

pub use engine::{feature_line, run, run_stdio};
