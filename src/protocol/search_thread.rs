//! The thread a search runs on, for both protocols: it owns the
//! [`Searcher`] while no search runs, moves it onto a search thread for each
//! search and takes it back when that thread is joined, so the protocol loop
//! stays responsive (`stop`, `isready`, `?`) while a search runs. With
//! `Threads` above one, that thread runs the Lazy SMP helpers itself
//! (see [`threads`](crate::search::threads)); the protocols see one search
//! either way.

use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::{self, JoinHandle};

use super::options::HashShortfall;
use crate::eval::Evaluation;
use crate::search::limits::Limits;
use crate::search::threads::SEARCH_STACK_BYTES;
use crate::search::{Report, SearchResult, SearchShared, Searcher, TbSettings};
use crate::syzygy::Tablebases;
use kiln_board::{Board, Move, MoveList, generate_all, is_legal};

/// A search that could not finish: its thread panicked (a bug, or a
/// damaged tablebase file read by the prober). The move was still given
/// (see [`SearchThread::start`]); the searcher has been replaced by a fresh
/// one, so the transposition table and statistics are lost, and any
/// Syzygy tables were unloaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchFailed {
    /// Whether Syzygy tables were loaded, and so were unloaded: a damaged
    /// table leaves the prober, which exists once per process, failing on
    /// every table it has not opened yet, so each later search would fail
    /// the same way.
    pub tablebases_unloaded: bool,
}

impl std::fmt::Display for SearchFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("internal error: the search thread failed; hash table reset")?;
        if self.tablebases_unloaded {
            f.write_str(
                "; Syzygy tables unloaded (a damaged table file can cause this: \
                 check them, then restart the engine to use them again)",
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for SearchFailed {}

/// The operating system would not start the search thread. The searcher
/// went with it; a fresh one (same hash size and threads) replaces it.
#[derive(Debug)]
pub struct CannotStart(pub io::Error);

impl std::fmt::Display for CannotStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot start the search thread: {}", self.0)
    }
}

impl std::error::Error for CannotStart {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

/// A running search.
#[derive(Debug)]
struct Running {
    handle: JoinHandle<(Searcher, SearchResult)>,
    shared: Arc<SearchShared>,
}

/// The protocol side of searching: owns the [`Searcher`] while no search
/// runs, moves it onto a search thread for each search and takes it back
/// when that thread is joined.
#[derive(Debug)]
pub struct SearchThread {
    /// The searcher while no search runs.
    idle: Option<Searcher>,
    running: Option<Running>,
    /// Hash size, threads, tablebases and evaluation to rebuild the
    /// searcher with if it is lost.
    hash_mib: u64,
    threads: usize,
    tablebases: Option<Arc<Tablebases>>,
    tb_settings: TbSettings,
    evaluation: Evaluation,
    /// A failed search joined where nobody could be told (by
    /// [`searcher`](Self::searcher) or [`start`](Self::start)): given to
    /// the next [`stop`](Self::stop) or [`join`](Self::join) that finds no
    /// search running, so that the protocol still reports it.
    unreported: Option<SearchFailed>,
}

impl SearchThread {
    /// A one-thread searcher with a `hash_mib` MiB table, not yet searching.
    pub fn new(hash_mib: u64) -> Self {
        Self {
            idle: Some(Searcher::new(hash_mib)),
            running: None,
            hash_mib,
            threads: 1,
            tablebases: None,
            tb_settings: TbSettings::default(),
            evaluation: Evaluation::DEFAULT,
            unreported: None,
        }
    }

    /// Starts searching `board` within `limits` on a new thread; a running
    /// search is stopped first and its result dropped. The thread calls
    /// `report` for every progress report and `finish` with the result as
    /// soon as the move is decided (before Lazy SMP helpers have been
    /// joined, see [`Searcher::search_then`]), before it can be joined.
    ///
    /// `finish` is called exactly once, even if the search panics: then
    /// with the best move of the last line reported, or the first legal
    /// move if none was, so that a GUI waiting for the move gets one at
    /// once instead of losing on time. The panic itself reaches
    /// [`join`](Self::join) as [`SearchFailed`].
    ///
    /// # Errors
    /// [`CannotStart`]: the thread could not be created.
    pub fn start(
        &mut self,
        mut board: Board,
        limits: Limits,
        move_overhead: u64,
        shared: Arc<SearchShared>,
        mut report: impl FnMut(&Report) + Send + 'static,
        finish: impl FnOnce(&SearchResult) + Send + 'static,
    ) -> Result<(), CannotStart> {
        let mut finish = Some(finish);
        self.stop_keeping_failure();
        let mut searcher = self.take_searcher();
        let thread_shared = Arc::clone(&shared);
        let handle = thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let root = board.clone();
                let mut reported_best = Move::NULL;
                // The searcher and the board are not looked at again after a
                // panic (the searcher is replaced when the thread is
                // joined), so what the unwinding left half-done is dropped.
                let searched = panic::catch_unwind(AssertUnwindSafe(|| {
                    searcher.search_then(
                        &mut board,
                        &limits,
                        move_overhead,
                        thread_shared,
                        &mut |line| {
                            if line.multipv == 1 {
                                reported_best = line.pv.first().copied().unwrap_or(Move::NULL);
                            }
                            report(line);
                        },
                        &mut |decided| {
                            if let Some(finish) = finish.take() {
                                finish(decided);
                            }
                        },
                    )
                }));
                match searched {
                    Ok(result) => (searcher, result),
                    Err(payload) => {
                        if let Some(finish) = finish.take() {
                            finish(&fallback_result(&root, reported_best));
                        }
                        panic::resume_unwind(payload)
                    }
                }
            })
            .map_err(CannotStart)?;
        self.running = Some(Running { handle, shared });
        Ok(())
    }

    /// Whether a search thread exists (running, or finished but not yet
    /// joined).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the search thread has finished and can be joined without
    /// waiting.
    pub fn is_finished(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished())
    }

    /// The running search's flags.
    pub fn shared(&self) -> Option<&Arc<SearchShared>> {
        self.running.as_ref().map(|r| &r.shared)
    }

    /// `ponderhit`: the running search stops pondering and starts its
    /// clock.
    pub fn ponderhit(&self) {
        if let Some(shared) = self.shared() {
            // Only a pondering search has a clock to start; `pondering` is
            // released after `ponderhit`, so a search that sees it cleared
            // sees the clock's restart too (see `Searcher::clock_running`).
            if shared.pondering.load(Ordering::Acquire) {
                shared.ponderhit.store(true, Ordering::Relaxed);
                shared.pondering.store(false, Ordering::Release);
            }
        }
    }

    /// Asks the running search to stop and play the best move found so far,
    /// without waiting for it (its thread still has to be joined).
    pub fn move_now(&self) {
        if let Some(shared) = self.shared() {
            shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Tells the running search to stop (also ending pondering) and joins
    /// it. `None` when no search was running (and no failure is still to
    /// be reported).
    pub fn stop(&mut self) -> Option<Result<SearchResult, SearchFailed>> {
        let Some(running) = self.running.as_ref() else {
            return self.unreported.take().map(Err);
        };
        running.shared.stop.store(true, Ordering::Relaxed);
        running.shared.pondering.store(false, Ordering::Relaxed);
        self.join()
    }

    /// Waits for the running search to end by itself and takes the
    /// searcher back. `None` when no search was running.
    pub fn join(&mut self) -> Option<Result<SearchResult, SearchFailed>> {
        let Some(running) = self.running.take() else {
            return self.unreported.take().map(Err);
        };
        Some(match running.handle.join() {
            Ok((searcher, result)) => {
                self.idle = Some(searcher);
                Ok(result)
            }
            Err(_) => {
                // A panic in the search is a bug or a damaged table; keep
                // the protocol alive with a fresh searcher rather than dying
                // with it, and without tables that may fail it again.
                let tablebases_unloaded = self.tablebases.take().is_some();
                self.idle = Some(self.fresh_searcher());
                Err(SearchFailed {
                    tablebases_unloaded,
                })
            }
        })
    }

    /// Stops any running search, dropping its result but keeping a
    /// failure for the protocol to report.
    fn stop_keeping_failure(&mut self) {
        if self.running.is_none() {
            return;
        }
        if let Some(Err(failure)) = self.stop() {
            self.unreported = Some(failure);
        }
    }

    /// The searcher, stopping any running search first (its result is
    /// dropped; a failure is kept to be reported).
    pub fn searcher(&mut self) -> &mut Searcher {
        self.stop_keeping_failure();
        let searcher = self.take_searcher();
        self.idle.insert(searcher)
    }

    /// Loads the Syzygy tables of `path` (`SyzygyPath`; stopping any
    /// search), replacing those in use, and returns what was found and
    /// what was left out, for the user. The old tables are released by
    /// every thread first: the prober exists once per process.
    pub fn load_tablebases(&mut self, path: &str) -> Vec<String> {
        self.tablebases = None;
        self.searcher().set_tablebases(None);
        let loaded = Tablebases::load(path);
        self.tablebases = loaded.tables.map(Arc::new);
        let tables = self.tablebases.clone();
        self.searcher().set_tablebases(tables);
        loaded.messages
    }

    /// Sets the tablebase options (stopping any search).
    pub fn set_tb_settings(&mut self, settings: TbSettings) {
        self.tb_settings = settings;
        self.searcher().set_tb_settings(settings);
    }

    /// Chooses the static evaluation (`UseNNUE`; stopping any search).
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        self.evaluation = evaluation;
        self.searcher().set_evaluation(evaluation);
    }

    /// Resizes the hash table to `mib` MiB (stopping any search).
    ///
    /// # Errors
    /// That much memory could not be had: the table is smaller (the
    /// [`HashShortfall`] says how big).
    pub fn resize_hash(&mut self, mib: u64) -> Result<(), HashShortfall> {
        self.hash_mib = mib;
        let got = self.searcher().resize_hash(mib);
        if got < mib {
            return Err(HashShortfall {
                requested: mib,
                got,
            });
        }
        Ok(())
    }

    /// Sets the number of search threads (stopping any search).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
        let threads = self.threads;
        self.searcher().set_threads(threads);
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    fn take_searcher(&mut self) -> Searcher {
        match self.idle.take() {
            Some(searcher) => searcher,
            None => self.fresh_searcher(),
        }
    }

    /// A searcher with the hash size, threads and tablebases asked for.
    fn fresh_searcher(&self) -> Searcher {
        let mut searcher = Searcher::new(self.hash_mib);
        searcher.set_threads(self.threads);
        searcher.set_tablebases(self.tablebases.clone());
        searcher.set_tb_settings(self.tb_settings);
        searcher.set_evaluation(self.evaluation);
        searcher
    }
}

/// The first legal move of `board` in generation order, if any: what is
/// played when no search can choose (a search that failed, or a thread
/// that would not start).
pub fn first_legal_move(board: &Board) -> Option<Move> {
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    moves.iter().next().copied()
}

/// The move given when a search panicked before deciding: `reported_best`
/// (the last reported line's first move) if it is legal at `root`, else the
/// first legal move, else none (`Move::NULL`: the game is over).
fn fallback_result(root: &Board, reported_best: Move) -> SearchResult {
    let best = if !reported_best.is_null() && is_legal(root, reported_best) {
        reported_best
    } else {
        first_legal_move(root).unwrap_or(Move::NULL)
    };
    SearchResult {
        best,
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Starts a 300 ms search of `board` (helpers, whose limit is only the
    /// main thread's word, search until told to stop) whose progress
    /// reports panic from
    /// the `panic_at`-th on (never when `None`); returns the moves `finish`
    /// was given, in order, once the thread has been joined, and how the
    /// join went.
    fn search_reporting(
        thread: &mut SearchThread,
        board: &Board,
        panic_at: Option<usize>,
    ) -> (Vec<Move>, Option<Result<SearchResult, SearchFailed>>) {
        let (sender, moves) = mpsc::channel();
        let mut reports = 0;
        thread
            .start(
                board.clone(),
                // A depth, not a time: a starved machine must still see
                // the reports the test counts.
                Limits::depth(8),
                0,
                Arc::new(SearchShared::new(false)),
                move |_| {
                    reports += 1;
                    if panic_at.is_some_and(|at| reports >= at) {
                        panic!("a report failed (deliberately, in a test)");
                    }
                },
                move |decided| {
                    let _ = sender.send(decided.best);
                },
            )
            .expect("a search thread");
        let joined = thread.join();
        (moves.try_iter().collect(), joined)
    }

    #[test]
    fn a_panicking_search_still_gives_one_legal_move_and_the_next_search_works() {
        let board =
            Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .expect("a FEN");
        // With helper threads too: they must stop when the main thread
        // panics, or the search thread would wait for them for ever.
        for threads in [1, 2] {
            let mut thread = SearchThread::new(1);
            thread.set_threads(threads);
            for panic_at in [1, 3] {
                let (moves, joined) = search_reporting(&mut thread, &board, Some(panic_at));
                let case = format!("{threads} threads, panic at report {panic_at}");
                let failed = SearchFailed {
                    tablebases_unloaded: false,
                };
                assert_eq!(joined, Some(Err(failed)), "{case}");
                assert_eq!(moves.len(), 1, "one move for the GUI: {moves:?}, {case}");
                assert!(
                    is_legal(&board, moves[0]),
                    "{:?} is legal, {case}",
                    moves[0]
                );
            }
            let (moves, joined) = search_reporting(&mut thread, &board, None);
            assert!(matches!(joined, Some(Ok(_))), "the fresh searcher searches");
            assert_eq!(moves.len(), 1);
            assert!(is_legal(&board, moves[0]));
        }
    }

    /// A failure joined where it could not be told (a new game or an
    /// option set after the failed search) is kept for the next `stop` or
    /// `join`, once.
    #[test]
    fn a_failure_joined_by_the_way_is_still_reported() {
        let board = Board::startpos();
        let mut thread = SearchThread::new(1);
        thread
            .start(
                board,
                Limits::depth(4),
                0,
                Arc::new(SearchShared::new(false)),
                |_| panic!("a report failed (deliberately, in a test)"),
                |_| {},
            )
            .expect("a search thread");
        while !thread.is_finished() {
            thread::sleep(std::time::Duration::from_millis(1));
        }
        thread.searcher().new_game();
        let failed = SearchFailed {
            tablebases_unloaded: false,
        };
        assert_eq!(thread.stop(), Some(Err(failed)));
        assert_eq!(thread.stop(), None);
        assert_eq!(thread.join(), None);
    }

    #[test]
    fn the_fallback_is_the_reported_move_when_legal_and_else_a_legal_one() {
        let board = Board::startpos();
        let mut moves = MoveList::new();
        generate_all(&board, &mut moves);
        let last = *moves.iter().last().expect("moves");
        assert_eq!(fallback_result(&board, last).best, last);
        let first = *moves.iter().next().expect("moves");
        assert_eq!(fallback_result(&board, Move::NULL).best, first);
        let mated =
            Board::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .expect("a FEN");
        assert!(fallback_result(&mated, Move::NULL).best.is_null());
        // A move legal elsewhere but not here is not played.
        assert_eq!(fallback_result(&mated, last).best, Move::NULL);
    }
}
