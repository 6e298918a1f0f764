//! Where the search consults the Syzygy tables.
//!
//! - At the root, before any helper starts: when the root position is in
//!   the tables, the moves are ranked by them
//!   ([`rank_root_moves`](crate::syzygy::rank_root_moves)) and only the
//!   best-ranked are searched; the reported score is the tables' verdict.
//!   When DTZ ranked them, or the root is not won, the tables are not
//!   probed further in this search (the root ranking already decides the
//!   outcome; in-search probes would only flatten the scores the search
//!   needs to make progress), as in Stockfish.
//! - Inside the tree (not at the root): a WDL probe right after a capture
//!   or pawn move (half-move clock 0, so the fifty-move rule counts from
//!   here), with at most `SyzygyProbeLimit` pieces, and at
//!   `SyzygyProbeDepth` or deeper when the count equals the limit. A win or
//!   loss scores in the tablebase band ([`wdl_score`]) and is a bound, an
//!   exact score for the rest; the node returns it when it decides the
//!   window and stores it in the transposition table. The clock is checked
//!   before each probe, which may wait on the disk.
//!
//! With no tables loaded nothing here runs: the search is unchanged.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::Searcher;
use crate::eval::score::Score;
use crate::syzygy::{Tablebases, Wdl, rank_root_moves, wdl_score};
use kiln_board::{Board, CastlingRights};

/// The tablebase options (`SyzygyProbeDepth`, `Syzygy50MoveRule`,
/// `SyzygyProbeLimit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TbSettings {
    /// Least remaining depth at which a position with exactly
    /// `probe_limit` pieces is probed (fewer pieces are probed at any
    /// depth).
    pub probe_depth: i32,
    /// Whether the fifty-move rule counts: a win it spoils is a draw.
    pub rule50: bool,
    /// Most pieces (kings included) of a position probed in the search.
    pub probe_limit: u32,
}

impl TbSettings {
    /// The options' defaults (Stockfish's): probe from depth 1, count the
    /// fifty-move rule, probe up to seven men.
    pub const DEFAULT: TbSettings = TbSettings {
        probe_depth: 1,
        rule50: true,
        probe_limit: 7,
    };
}

impl Default for TbSettings {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Searcher {
    /// Gives every thread the tables (`None` drops them: every thread's
    /// handle goes, so a new path can be loaded).
    pub fn set_tablebases(&mut self, tables: Option<Arc<Tablebases>>) {
        // Helpers not built yet get the tables from the main thread when
        // their first search starts.
        for helper in self.helpers.iter_mut().flatten() {
            helper.tablebases.clone_from(&tables);
        }
        self.tablebases = tables;
    }

    /// The tables in use, if any.
    pub fn tablebases(&self) -> Option<&Arc<Tablebases>> {
        self.tablebases.as_ref()
    }

    /// Sets the tablebase options.
    pub fn set_tb_settings(&mut self, settings: TbSettings) {
        self.tb_settings = settings;
    }

    /// The tablebase options in use.
    pub fn tb_settings(&self) -> TbSettings {
        self.tb_settings
    }

    /// Tablebase hits of the current (or last) search, all threads.
    pub(super) fn tb_hits(&self) -> u64 {
        self.sync.tb_hits.load(Ordering::Relaxed)
    }

    /// Ranks the prepared root moves by the tables and keeps the best;
    /// decides whether the tree is probed. Main thread, before the helpers
    /// start (the root probe is not thread-safe).
    pub(super) fn rank_root_by_tablebases(&mut self, board: &mut Board) {
        self.tb_cardinality = 0;
        self.root_tb_score = None;
        let Some(tables) = self.tablebases.clone() else {
            return;
        };
        self.tb_cardinality = tables.max_pieces().min(self.tb_settings.probe_limit);
        if board.occupied().count() > self.tb_cardinality {
            return;
        }
        let root_moves: Vec<_> = self.root_moves.iter().copied().collect();
        let Some(ranking) = rank_root_moves(&tables, board, &root_moves, self.tb_settings.rule50)
        else {
            return;
        };
        self.sync
            .tb_hits
            .fetch_add(root_moves.len() as u64, Ordering::Relaxed);
        self.root_moves = kiln_board::MoveList::new();
        for mv in ranking.best_moves() {
            self.root_moves.push(mv);
        }
        self.root_tb_score = Some(ranking.score);
        if ranking.by_dtz || ranking.score <= 0 {
            self.tb_cardinality = 0;
        }
    }

    /// The WDL value of a node inside the tree, when the rules above say
    /// to probe it and the tables know it (counted as a hit).
    pub(super) fn probe_tablebases(&mut self, board: &Board, depth: i32) -> Option<Wdl> {
        if self.tb_cardinality == 0 || board.halfmove_clock() != 0 {
            return None;
        }
        let pieces = board.occupied().count();
        if pieces > self.tb_cardinality
            || (pieces == self.tb_cardinality && depth < self.tb_settings.probe_depth)
            || board.castling_rights() != CastlingRights::NONE
        {
            return None;
        }
        // Each probe may read the disk: look at the clock first (a few
        // nanoseconds beside a probe's microseconds), not only every
        // `CHECK_EVERY` nodes.
        if self.poll_now() {
            return None;
        }
        let wdl = self.tablebases.as_ref()?.probe_wdl(board)?;
        self.sync.tb_hits.fetch_add(1, Ordering::Relaxed);
        Some(wdl)
    }

    /// The score of a probed node at `ply`.
    pub(super) fn tablebase_score(&self, wdl: Wdl, ply: usize) -> Score {
        wdl_score(wdl, ply, self.tb_settings.rule50)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::*;
    use crate::search::limits::Limits;
    use crate::search::time::TimeManager;

    /// A probe waits for the disk, so a search past its hard limit must
    /// not make another before its next regular poll.
    #[test]
    fn no_probe_is_made_past_the_hard_limit() {
        let mut searcher = Searcher::new(1);
        let limits = Limits {
            movetime: Some(1),
            ..Limits::default()
        };
        let started = Instant::now()
            .checked_sub(Duration::from_millis(50))
            .expect("the clock runs far enough back");
        searcher.time = TimeManager::new(&searcher.params, &limits, 0, 1, started);
        // The position qualifies for a probe: three pieces, half-move clock 0.
        searcher.tb_cardinality = 5;
        let board = Board::from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 0 80").expect("a legal FEN");
        assert!(!searcher.stopped);
        assert_eq!(searcher.probe_tablebases(&board, 1), None);
        assert!(searcher.stopped, "the clock was not read before the probe");
        assert!(
            searcher.sync.stop.load(Ordering::Relaxed),
            "the helpers were not told"
        );
    }

    #[test]
    fn a_search_within_its_time_is_not_stopped_by_the_check() {
        let mut searcher = Searcher::new(1);
        let limits = Limits {
            movetime: Some(60_000),
            ..Limits::default()
        };
        searcher.time = TimeManager::new(&searcher.params, &limits, 0, 1, Instant::now());
        assert!(!searcher.poll_now());
        assert!(!searcher.sync.stop.load(Ordering::Relaxed));
    }
}
