//! Search: iterative deepening, alpha-beta, quiescence, transposition table,
//! move ordering and time management.
//!
//! [`Searcher`] owns everything that lives longer than one search (the
//! transposition table and the move-ordering statistics); the protocol layer
//! moves it onto a search thread for each `go` and gets it back when the
//! search ends ([`SearchThread`](crate::protocol::SearchThread) does this
//! for both protocols), so no lock is needed. [`SearchShared`] holds the few atomics both threads
//! touch: the stop flag and the pondering state.
//!
//! One idea per file:
//! - this file: the [`Searcher`] and its per-search state, the entry point
//!   [`Searcher::search`] and the node bookkeeping every search function
//!   shares (node count, stop polling, evaluation cache, PV table);
//! - `deepening`: iterative deepening, MultiPV and aspiration windows;
//! - `alpha_beta`: the main search node, its steps in order;
//! - `qsearch`: quiescence search;
//! - [`movepick`]: the staged move picker; [`history`]: the statistics it
//!   orders quiet moves by; [`see`]: static exchange evaluation;
//! - [`tt`]: the transposition table; [`correction`]: static-evaluation
//!   corrections;
//! - [`threads`]: Lazy SMP (helpers, their skip pattern, the result vote);
//! - [`time`] and [`limits`]: when to stop; [`tunables`]: every tunable;
//! - `tablebase`: where the Syzygy tables are probed.
//! - [`strength`]: limited strength (`UCI_Elo`), a handicap and a move
//!   choice among the best lines.
//!
//! Lazy SMP: with `Threads` above one, the searcher also owns helper
//! searchers. Each search starts them on their own threads on the same root;
//! they share only the lock-free transposition table (see [`tt`]) and keep
//! their own move-ordering statistics. The helpers' results reach the main
//! thread through the table; the main thread alone reports, watches the
//! clock and decides when the search ends (see [`threads`]).
//!
//! The search knows nothing of UCI text: it reports each finished iteration
//! through a callback with a [`Report`], and returns a [`SearchResult`].

mod alpha_beta;
pub mod correction;
mod deepening;
pub mod history;
pub mod limits;
pub mod movepick;
mod qsearch;
pub mod see;
pub mod strength;
mod tablebase;
pub mod threads;
pub mod time;
pub mod tt;
pub mod tunables;

pub use tablebase::TbSettings;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::eval::eval_cache::EvalCache;
use crate::eval::nnue::stack::AccumulatorStack;
use crate::eval::pawn_table::PawnTable;
use crate::eval::score::{MATE, MAX_PLY, Score};
use crate::eval::{Evaluation, evaluate_with};
use crate::rng::Rng;
use correction::CorrectionHistory;
use history::Heuristics;
use kiln_board::{Board, Move};
use kiln_board::{MoveList, generate_all};
use limits::Limits;
use threads::ThreadSync;
use time::TimeManager;
use tt::{Bound, TranspositionTable};
use tunables::{LmrTable, SearchParams};

/// Flags shared between the protocol thread and the search thread.
#[derive(Debug, Default)]
pub struct SearchShared {
    /// Set to make the search return as soon as possible.
    pub stop: AtomicBool,
    /// Set while the search is pondering (no time limit); cleared by
    /// `ponderhit`, which also sets [`SearchShared::ponderhit`].
    pub pondering: AtomicBool,
    /// Set by `ponderhit`: the clock starts now.
    pub ponderhit: AtomicBool,
}

impl SearchShared {
    /// Fresh flags for a new search.
    pub fn new(pondering: bool) -> Self {
        Self {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            ponderhit: AtomicBool::new(false),
        }
    }
}

/// One line of progress: a finished iteration (or an aspiration fail).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Nominal depth of the iteration.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: i32,
    /// Which principal variation this is (1 = the best).
    pub multipv: usize,
    /// Score from the side to move's point of view.
    pub score: Score,
    /// `Some(Lower)`/`Some(Upper)` for an aspiration fail-high/-low.
    pub bound: Option<Bound>,
    /// Nodes searched so far (by all threads).
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition table fill in permille.
    pub hashfull: u32,
    /// Tablebase probes that answered, by all threads.
    pub tb_hits: u64,
    /// Principal variation (legal moves from the root).
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play (`Move::NULL` when the root has no legal move).
    pub best: Move,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    /// Score of the best move.
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Nodes searched (by all threads).
    pub nodes: u64,
}

/// Tables up to this size (MiB) are cleared on the caller's thread: that
/// takes a few milliseconds, less than a new thread may wait for a core on
/// a busy machine (clearing the bench's 16 MiB table on a thread of its own
/// before each position made `kiln bench 1` take 285 ms instead of 240).
pub const CLEAR_IN_PLACE_MIB: u64 = 64;

/// Drops `table` on a thread of its own: giving back many GiB of touched
/// pages takes the kernel a noticeable fraction of a second (0.25-0.45 s
/// for 16 GiB, measured at `quit`). Where no thread can be had, `spawn`
/// drops the closure and with it the table, here.
fn free_in_background(table: Arc<TranspositionTable>) {
    let _ = thread::Builder::new()
        .name("hash-free".into())
        .spawn(move || drop(table));
}

/// How often (in nodes) the search looks at the clock and the stop flag,
/// and each thread publishes its node count: a search with a node limit
/// ends less than this many nodes a thread past it
/// ([`threads`]).
pub const CHECK_EVERY: u64 = 1024;

/// Slots of [`Searcher::root_move_nodes`]: one per from-to square pair.
const ROOT_MOVE_SLOTS: usize = Move::FROM_TO_COUNT;

/// The slot of `root_move_nodes` for `mv`: its from and to squares (the
/// promotions of one pawn to different pieces share a slot, which only
/// pools their counts).
fn root_move_slot(mv: Move) -> usize {
    mv.from_to_index()
}

/// Per-ply scratch data.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// Static evaluation of the node (for the "improving" test).
    eval: Score,
    /// `[piece][to]` of the move made from this node (`None` for a null
    /// move), the key of the children's continuation histories.
    moved: Option<usize>,
    /// A move this node must skip (set while verifying that the TT move is
    /// singular).
    excluded: Move,
}

/// The search engine: long-lived state plus per-search bookkeeping. The
/// searcher the protocol holds is the main thread; its helpers (one per
/// extra `Threads`) are searchers too.
#[derive(Debug)]
pub struct Searcher {
    /// The transposition table, kept across searches and shared by all
    /// threads.
    tt: Arc<TranspositionTable>,
    /// Whether a search has run on the table since it was allocated or
    /// last cleared: a table no search has written to needs no clearing.
    tt_used: bool,
    /// The thread zeroing the table after `Clear Hash` or a new game; the
    /// next search waits for it (see [`clear_hash`](Self::clear_hash)).
    clearing: Option<JoinHandle<()>>,
    /// Move-ordering statistics, kept across searches of a game (each
    /// thread has its own).
    pub heuristics: Heuristics,
    /// Lazy SMP helpers, a slot per thread beyond the first (none with one
    /// thread; helpers have none). A slot stays empty until the helper's
    /// first search, which builds it on the helper's own thread: setting
    /// 1024 threads costs nothing until they search, and then each thread
    /// sets up its own tables in parallel.
    helpers: Vec<Option<Searcher>>,
    /// 0 for the main thread, 1.. for helpers.
    thread_index: usize,
    /// The current search's stop flag and node count for the helpers.
    sync: Arc<ThreadSync>,
    /// Nodes of all threads in the last search (set when it ends).
    total_nodes: u64,
    shared: Arc<SearchShared>,
    limits: Limits,
    time: TimeManager,
    nodes: u64,
    seldepth: i32,
    stopped: bool,
    frames: Vec<Frame>,
    /// Triangular PV table: `pv[ply]` is the best line from `ply`.
    pv: Vec<Vec<Move>>,
    root_moves: MoveList,
    /// Nodes this thread spent below each root move in this search, by the
    /// move's from and to squares (for time management).
    root_move_nodes: Vec<u64>,
    /// `Board::game_ply` of the root (helper threads stagger their depths
    /// by it).
    root_ply: usize,
    /// While a null-move cut-off is being verified: null moves are off at
    /// plies below this one. Zero otherwise.
    nmp_min_ply: usize,
    /// The MultiPV line the root search is on, from 0 (set by iterative
    /// deepening before each).
    pv_line: usize,
    /// This thread's pawn hash table (never shared between threads).
    pub(crate) pawns: PawnTable,
    /// This thread's cache of static evaluations (never shared).
    evals: EvalCache,
    /// The static evaluation in use.
    evaluation: Evaluation,
    /// This thread's network accumulators (used only with
    /// [`Evaluation::Network`]).
    nnue: AccumulatorStack,
    /// This thread's static-evaluation corrections, kept across the
    /// searches of a game.
    correction: CorrectionHistory,
    /// The Syzygy tables, shared by every thread.
    tablebases: Option<Arc<crate::syzygy::Tablebases>>,
    /// The tablebase options.
    tb_settings: TbSettings,
    /// Most pieces of a position probed inside this search's tree; 0 when
    /// the tree is not probed.
    tb_cardinality: u32,
    /// The tables' verdict on the root, reported instead of the search's
    /// score (unless that is a mate) when the root moves were ranked.
    root_tb_score: Option<Score>,
    /// Seeds each limited-strength move choice (mixed with the position's
    /// key): seeded once, so a fresh searcher repeats its choices.
    choices: Rng,
    /// The search's tunables ([`SearchParams::DEFAULT`] unless set), the
    /// same in every thread of a search.
    params: SearchParams,
    /// The late-move reductions of `params`, built by `prepare` before the
    /// first search and after their constants change (see [`LmrTable`]:
    /// per-searcher state, inside the searcher so that a lookup is one
    /// load).
    lmr: LmrTable,
}

impl Searcher {
    /// A searcher with a `hash_mib` transposition table.
    pub fn new(hash_mib: u64) -> Self {
        Self::with_table(
            Arc::new(TranspositionTable::new(hash_mib)),
            0,
            SearchParams::DEFAULT,
        )
    }

    /// A searcher for thread `thread_index` on the shared table `tt`,
    /// searching with `params`.
    fn with_table(tt: Arc<TranspositionTable>, thread_index: usize, params: SearchParams) -> Self {
        Self {
            tt,
            tt_used: false,
            clearing: None,
            heuristics: Heuristics::new(),
            helpers: Vec::new(),
            thread_index,
            sync: Arc::new(ThreadSync::default()),
            total_nodes: 0,
            shared: Arc::new(SearchShared::default()),
            limits: Limits::default(),
            time: TimeManager::unlimited(Instant::now()),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            frames: vec![Frame::default(); MAX_PLY as usize + 8],
            pv: vec![Vec::new(); MAX_PLY as usize + 8],
            root_moves: MoveList::new(),
            root_move_nodes: vec![0; ROOT_MOVE_SLOTS],
            root_ply: 0,
            nmp_min_ply: 0,
            pv_line: 0,
            pawns: PawnTable::new(),
            evals: EvalCache::new(),
            evaluation: Evaluation::DEFAULT,
            nnue: AccumulatorStack::new(),
            correction: CorrectionHistory::new(),
            tablebases: None,
            tb_settings: TbSettings::default(),
            tb_cardinality: 0,
            root_tb_score: None,
            choices: Rng::new(0),
            lmr: LmrTable::unbuilt(),
            params,
        }
    }

    /// The search's tunables.
    pub fn params(&self) -> &SearchParams {
        &self.params
    }

    /// Searches with `params` from now on, in this thread and its helpers
    /// (the late-move-reduction table follows at the next search).
    pub fn set_params(&mut self, params: SearchParams) {
        self.params = params;
        for helper in self.helpers.iter_mut().flatten() {
            helper.set_params(params);
        }
    }

    /// Resizes the transposition table to `mib` MiB and returns the size
    /// obtained, which is smaller when that much memory cannot be had. The
    /// old table is let go first (see `replace_table`).
    pub fn resize_hash(&mut self, mib: u64) -> u64 {
        if self.tt.size_mib() != mib {
            self.replace_table(mib);
        }
        self.tt.size_mib()
    }

    /// Empties the transposition table (`Clear Hash`, a new game) without
    /// making the caller or the next search wait: a table no search has
    /// written to is already empty, and a small one is zeroed at once (see
    /// [`CLEAR_IN_PLACE_MIB`]).
    ///
    /// A larger one is replaced by a fresh table of the same size from the
    /// allocator, whose pages the kernel zeroes as the searches first touch
    /// them, and the old one is freed on a thread of its own. Zeroing
    /// such a table in place instead costs about a tenth of a second per
    /// GiB, or several seconds per GiB where its pages were never touched
    /// and must be faulted in: measured on a 4 GiB table a one-second
    /// search had used, a `go` sent right after `Clear Hash` waited 7.6 s
    /// for it, on its clock. Fresh pages spread that cost over the searches
    /// and limit it to the pages they reach, as the time checks go on.
    /// (For small tables it is the other way round: over the 50 bench
    /// positions at depth 12 with a new game before each, page faults took
    /// about a third of the search time.)
    ///
    /// Where a second table cannot be had while the first is still held,
    /// the old one is zeroed in place by threads of its own (as many as
    /// there are search threads, up to the number of cores), which the
    /// next search waits for.
    pub fn clear_hash(&mut self) {
        if !self.tt_used {
            return;
        }
        self.tt_used = false;
        if self.tt.size_mib() <= CLEAR_IN_PLACE_MIB {
            self.tt.clear();
            return;
        }
        if let Some(fresh) = self.tt.empty_like() {
            let old = Arc::clone(&self.tt);
            self.share_table(Arc::new(fresh));
            self.clearing = None;
            free_in_background(old);
            return;
        }
        let table = Arc::clone(&self.tt);
        let workers = self.threads().min(threads::available_cores());
        let spawned = thread::Builder::new()
            .name("hash-clear".into())
            .spawn(move || TranspositionTable::clear_shared(&table, workers));
        match spawned {
            Ok(handle) => self.clearing = Some(handle),
            // No thread to be had: zero it here.
            Err(_) => self.tt.clear(),
        }
    }

    /// Waits for the table's background clearing, if one runs.
    fn finish_clearing(&mut self) {
        if let Some(Err(panic)) = self.clearing.take().map(JoinHandle::join) {
            // A bug: pass it on like a search thread's panic.
            std::panic::resume_unwind(panic);
        }
    }

    /// Gives every thread a new, empty table of `mib` MiB, which comes
    /// zeroed from the allocator (no clearing loop). The old table is
    /// released by all threads first and freed on a thread of its own
    /// (giving back many GiB of touched pages takes the kernel a noticeable
    /// fraction of a second); a clearing still running on it stops.
    fn replace_table(&mut self, mib: u64) {
        let old = Arc::clone(&self.tt);
        self.share_table(Arc::new(TranspositionTable::new(1)));
        self.clearing = None;
        free_in_background(old);
        let table = Arc::new(TranspositionTable::new(mib));
        self.share_table(table);
        self.tt_used = false;
    }

    fn share_table(&mut self, table: Arc<TranspositionTable>) {
        for helper in self.helpers.iter_mut().flatten() {
            helper.tt = Arc::clone(&table);
        }
        self.tt = table;
    }

    /// The transposition table shared by all threads.
    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Number of search threads (the main thread plus its helpers).
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Sets the number of search threads (at least one). Existing helpers
    /// keep their statistics; new ones are built by their first search.
    pub fn set_threads(&mut self, threads: usize) {
        self.helpers.resize_with(threads.max(1) - 1, || None);
    }

    /// Chooses the static evaluation of this thread and its helpers. A
    /// thread that changes evaluation starts a new evaluation cache.
    pub fn set_evaluation(&mut self, evaluation: Evaluation) {
        if self.evaluation != evaluation {
            self.evaluation = evaluation;
            self.evals = EvalCache::new();
        }
        for helper in self.helpers.iter_mut().flatten() {
            helper.set_evaluation(evaluation);
        }
    }

    /// The static evaluation in use.
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation
    }

    /// Forgets the previous game: empties the TT and every thread's
    /// statistics.
    pub fn new_game(&mut self) {
        self.clear_hash();
        self.heuristics.clear();
        self.correction.clear();
        for helper in self.helpers.iter_mut().flatten() {
            helper.heuristics.clear();
            helper.correction.clear();
        }
    }

    /// Nodes searched by all threads in the last search (during a search:
    /// the main thread's count so far).
    pub fn nodes(&self) -> u64 {
        self.total_nodes.max(self.nodes)
    }

    /// Nodes searched so far by all threads: the main thread's exact count
    /// plus what the helpers have published.
    fn nodes_all_threads(&self) -> u64 {
        self.nodes
            .saturating_add(self.sync.helper_nodes.load(Ordering::Relaxed))
    }

    /// Searches `board` within `limits`, reporting each iteration to
    /// `report`. `move_overhead` is the clock reserve in milliseconds; the
    /// search returns early when `shared.stop` is set.
    pub fn search(
        &mut self,
        board: &mut Board,
        limits: &Limits,
        move_overhead: u64,
        shared: Arc<SearchShared>,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.search_then(board, limits, move_overhead, shared, report, &mut |_| {})
    }

    /// [`search`](Self::search), calling `decided` with the result as soon
    /// as the move is decided: with helper threads, that is before they
    /// have been joined (a helper may take a moment to notice the stop
    /// flag on a loaded machine, and the move must not wait for it). The
    /// result passed to `decided` counts the helpers' nodes as published so
    /// far; the one returned counts them exactly.
    pub fn search_then(
        &mut self,
        board: &mut Board,
        limits: &Limits,
        move_overhead: u64,
        shared: Arc<SearchShared>,
        report: &mut dyn FnMut(&Report),
        decided: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let start = limits.received.unwrap_or_else(Instant::now);
        self.finish_clearing();
        self.tt_used = true;
        let time = TimeManager::new(
            &self.params,
            limits,
            move_overhead,
            u64::from(board.fullmove_number()),
            start,
        );
        self.sync = Arc::new(ThreadSync::new(self.helpers.len(), limits.nodes));
        self.total_nodes = 0;
        self.prepare(board, limits.clone(), time, shared);
        self.rank_root_by_tablebases(board);
        self.tt.new_search();

        let mut all = MoveList::new();
        generate_all(board, &mut all);
        if self.root_moves.is_empty() {
            // Checkmate or stalemate (or no searchmoves legal): nothing to search.
            let score = if board.in_check() && all.is_empty() {
                -MATE
            } else {
                0
            };
            report(&Report {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                bound: None,
                nodes: 0,
                elapsed: start.elapsed(),
                hashfull: self.tt.hashfull(),
                tb_hits: 0,
                pv: Vec::new(),
            });
            let result = SearchResult {
                best: Move::NULL,
                ponder: None,
                score,
                depth: 0,
                nodes: 0,
            };
            decided(&result);
            return result;
        }

        // Helpers cannot pay off in a budget of a few milliseconds, and
        // their scheduling would push the move past it on a busy machine.
        let tiny_budget = self
            .time
            .hard_ms()
            .is_some_and(|ms| ms < threads::HELPERS_MIN_BUDGET_MS);
        // A limited-strength search is small by design and its move choice
        // needs the main thread's MultiPV lines: no helpers.
        let limited = self.limits.strength.is_some();
        if self.helpers.is_empty() || tiny_budget || limited {
            let result = self.iterate(board, start, report);
            self.total_nodes = self.nodes;
            decided(&result);
            return result;
        }
        self.search_with_helpers(board, start, report, decided)
    }

    /// Resets the per-search state of this thread for a search of `board`.
    fn prepare(
        &mut self,
        board: &Board,
        limits: Limits,
        time: TimeManager,
        shared: Arc<SearchShared>,
    ) {
        self.shared = shared;
        self.time = time;
        self.lmr.update(&self.params);
        self.nodes = 0;
        self.root_move_nodes.fill(0);
        self.seldepth = 0;
        self.stopped = false;
        self.root_ply = board.game_ply();
        self.nmp_min_ply = 0;
        self.heuristics.clear_killers();
        let mut all = MoveList::new();
        generate_all(board, &mut all);
        self.root_moves = MoveList::new();
        for &mv in all.iter() {
            if limits.searchmoves.is_empty() || limits.searchmoves.contains(&mv) {
                self.root_moves.push(mv);
            }
        }
        self.limits = limits;
    }

    /// Whether the move's clock runs (the search is not pondering), after
    /// restarting it if `ponderhit` came. `pondering` is read first, with
    /// the ordering `ponderhit` publishes it with: a search that sees the
    /// pondering over also sees the clock's new start, and never measures
    /// the hard limit from the `go ponder` (which would stop it at once).
    fn clock_running(&mut self) -> bool {
        let pondering = self.shared.pondering.load(Ordering::Acquire);
        // Only the main thread keeps the move's clock: a helper (which
        // searches until the main thread stops it) must not take the
        // flag from it.
        if self.thread_index == 0 && self.shared.ponderhit.swap(false, Ordering::AcqRel) {
            self.time.restart(Instant::now());
        }
        !pondering
    }

    /// Counts a node and, every [`CHECK_EVERY`] nodes, checks the stop flag,
    /// the node limit and the clock. Returns whether to stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) || self.limits.nodes.is_some() {
            self.poll();
        }
        self.stopped
    }

    fn poll(&mut self) {
        if self.stop_requested() {
            return;
        }
        if self.thread_index > 0 {
            // A helper polls every CHECK_EVERY nodes: it publishes its
            // progress and enforces the node limit on the published total
            // (see the `threads` module); the clock and `ponderhit` are the
            // main thread's business.
            let helpers = self
                .sync
                .helper_nodes
                .fetch_add(CHECK_EVERY, Ordering::Relaxed)
                .saturating_add(CHECK_EVERY);
            let published = helpers.saturating_add(self.sync.main_nodes.load(Ordering::Relaxed));
            if self.sync.node_limit.is_some_and(|n| published >= n) {
                self.stop_all_threads();
            }
            return;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.sync.main_nodes.store(self.nodes, Ordering::Relaxed);
        }
        let clock_running = self.clock_running();
        let out_of_nodes = self
            .limits
            .nodes
            .is_some_and(|n| self.nodes_all_threads() >= n);
        let out_of_time =
            self.nodes.is_multiple_of(CHECK_EVERY) && clock_running && self.time.hard_expired();
        if out_of_nodes || out_of_time {
            self.stop_all_threads();
        }
    }

    /// Whether this thread is to stop because it stopped already or someone
    /// (the protocol's `stop`, or a thread of this search) raised a stop
    /// flag; records the answer in `stopped`.
    fn stop_requested(&mut self) -> bool {
        if !self.stopped
            && (self.shared.stop.load(Ordering::Relaxed) || self.sync.stop.load(Ordering::Relaxed))
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Stops this thread and raises the flag that stops every thread of the
    /// search. Raised here, not once this thread has unwound: on a busy
    /// machine the unwinding thread can lose the processor for a whole time
    /// slice while the helpers search on past the node limit or the clock.
    fn stop_all_threads(&mut self) {
        self.stopped = true;
        self.sync.stop.store(true, Ordering::Relaxed);
    }

    /// Checks the stop flags and, on the main thread, the hard limit now,
    /// outside the rhythm of [`tick`](Self::tick): before work whose time
    /// the node count does not bound. A tablebase probe can wait on a cold
    /// disk, and the thousand probes between two polls could overrun the
    /// hard limit. Returns whether to stop.
    fn poll_now(&mut self) -> bool {
        if self.stop_requested() {
            return true;
        }
        if self.thread_index == 0 && self.clock_running() && self.time.hard_expired() {
            self.stop_all_threads();
        }
        self.stopped
    }

    /// Starts loading the transposition-table bucket and the evaluation
    /// cache slot of `key`, the position a move is about to reach, which
    /// the child node will probe.
    #[inline(always)]
    fn prefetch(&self, key: u64) {
        self.tt.prefetch(key);
        self.evals.prefetch(key);
    }

    /// The static evaluation of `board` (side to move's view), from this
    /// thread's evaluation cache when the position was evaluated before.
    fn static_eval(&mut self, board: &Board) -> Score {
        let key = board.key().0;
        if let Some(score) = self.evals.probe(key) {
            debug_assert_eq!(score, self.evaluation.fresh(board), "stale cached eval");
            return score;
        }
        let score = match self.evaluation {
            Evaluation::Classical => evaluate_with(board, &mut self.pawns),
            Evaluation::Network => crate::eval::nnue::evaluate(board, &mut self.nnue),
        };
        self.evals.store(key, score);
        score
    }

    /// The continuation keys of the node at `ply` (see
    /// [`history::HistoryKeys::keys`]).
    fn continuation_keys(&self, ply: usize) -> [Option<usize>; 2] {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.frames[p].moved);
        [back(1), back(2)]
    }

    /// Records that `mv` is the best move at `ply`: the PV from here is `mv`
    /// followed by the child's PV.
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}
