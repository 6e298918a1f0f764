//! Kiln's workshop: the offline tools that make what the engine compiles
//! in, built on the engine library (`kiln`) and the file formats
//! (`kiln-format`), with its own binary, `kiln-workshop`.
//!
//! - [`datagen`]: self-play training data, played by the engine's search;
//! - [`data`]: tools for data files (sort, hold out by game, subset,
//!   stats), and [`positions`], how the training records become boards;
//! - [`label`]: re-scoring positions with another UCI engine (through
//!   [`uci_client`]);
//! - [`trace`], [`texel`], [`neutral`]: the hand-written evaluation as a
//!   linear function of its weights, the Texel tuner that fits them, and
//!   the material-only start;
//! - [`train`]: the network trainer;
//! - [`fit`]: what the tuner and the trainer share (the sigmoid, the fit
//!   of its scale K, the Adam optimiser and its step schedule, the loss
//!   records `plot` reads);
//! - [`wdl`]: the win/draw/loss model of `UCI_ShowWDL`, fitted to games;
//! - [`spsa`]: SPSA tuning of the search's parameters, games played by
//!   fastchess;
//! - [`plot`]: the pictures in docs/img.
//!
//! Self-play generation lives here rather than in the engine behind a
//! feature: it needs the engine's search and nothing of its protocols, and
//! keeping it out leaves the tournament binary without progress bars or
//! file writers (docs/architecture.md).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

/// Writes a result line to stdout, as `println!` does, but a reader that
/// has gone (`train … | head`) only stops seeing the lines: the work and
/// its files go on, where `println!` would panic. Under `cargo test` it is
/// `println!`, whose output the test harness captures.
macro_rules! say {
    ($($arg:tt)*) => {{
        #[cfg(test)]
        println!($($arg)*);
        #[cfg(not(test))]
        {
            use std::io::Write as _;
            let _ = writeln!(std::io::stdout(), $($arg)*);
        }
    }};
}

pub mod data;
pub mod datagen;
pub mod fit;
pub mod games;
pub mod label;
pub mod lock_file;
pub mod neutral;
pub mod pgn;
pub mod plot;
pub mod positions;
mod progress;
pub mod spsa;
pub mod texel;
pub mod trace;
pub mod train;
pub mod uci_client;
pub mod wdl;

/// Splits a command line on whitespace, as the tools' option tests need.
#[cfg(test)]
pub(crate) fn split_args(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}
