//! What the two protocols share: reading the GUI's lines ([`input`]),
//! running the search on its own thread ([`search_thread`]), the options
//! both expose ([`options`]: hash size and threads, the hash bounded by the
//! machine's [`memory`]), the text commands that print a position
//! ([`display`]), perft with a divide ([`perft`]), and the win/draw/loss
//! model of the scores they report ([`wdl`]).
//!
//! The protocol modules ([`uci`](crate::uci), [`xboard`](crate::xboard))
//! keep only what is theirs: their command syntax, their output format and
//! their policies (UCI waits for `stop` in `infinite` mode; XBoard keeps the
//! game and the clock and plays its own moves).

pub mod display;
pub mod input;
pub mod memory;
pub mod options;
pub mod perft;
pub mod search_thread;
pub mod wdl;

use std::io::{self, Write};

pub use input::LineReader;
pub use search_thread::{CannotStart, SearchFailed, SearchThread, first_legal_move};

/// Writes one line to stdout and flushes it. Errors (a closed pipe) are
/// ignored: the GUI has gone, and `quit` or the end of input will follow.
pub fn send(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}
