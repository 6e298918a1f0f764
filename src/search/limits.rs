//! What bounds a search: depth, nodes, time, a mate to find, or nothing
//! (`infinite`). Built by the protocol layer from `go`; the search never sees
//! protocol text.

use std::time::Instant;

use super::strength::Strength;
use kiln_board::Move;

/// A side's clock as given by `go wtime/btime/winc/binc/movestogo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Remaining time in milliseconds.
    pub time: u64,
    /// Increment per move in milliseconds.
    pub increment: u64,
    /// Moves until the next time control, if the control has one.
    pub moves_to_go: Option<u64>,
}

/// The limits of one search. `Default` is an infinite search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration to complete.
    pub depth: Option<i32>,
    /// Stop after about this many nodes.
    pub nodes: Option<u64>,
    /// Search exactly this many milliseconds.
    pub movetime: Option<u64>,
    /// Stop once a mate in at most this many moves is found.
    pub mate: Option<i32>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Search until told to stop (also set while pondering).
    pub infinite: bool,
    /// Start in pondering mode: no time limit until `ponderhit`.
    pub ponder: bool,
    /// Only these root moves are searched (empty: all).
    pub searchmoves: Vec<Move>,
    /// Number of principal variations to search and report (0 or 1: one).
    pub multi_pv: usize,
    /// When the command that started the search arrived: the clock runs
    /// from here, so time spent before the search gets going (joining the
    /// previous search's threads, starting new ones, a busy machine) is
    /// charged to this move's budget. `None`: when the search starts.
    pub received: Option<Instant>,
    /// Play at this rating (`UCI_LimitStrength`); `None`: full strength.
    pub strength: Option<Strength>,
}

impl Limits {
    /// Limits that stop at `depth`.
    pub fn depth(depth: i32) -> Self {
        Self {
            depth: Some(depth),
            ..Self::default()
        }
    }

    /// Whether the search has any bound other than an explicit `stop`.
    pub fn is_bounded(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime.is_some()
                || self.mate.is_some()
                || self.clock.is_some())
    }
}
