//! Lazy SMP: the helper threads of a search, how they spread over the
//! depths and whose result is played. (The thread that runs a whole search
//! for the protocols is [`SearchThread`](crate::protocol::SearchThread).)
//!
//! Lazy SMP: with `Threads` = N, a search runs the main searcher and N - 1
//! helper searchers on the same root position at once. They exchange nothing
//! but the transposition table, which they all read and write without locks
//! (see [`tt`](super::tt)); each keeps its own killers, histories, PV and
//! node count. A helper finds the positions the main thread is about to need
//! and leaves their scores and best moves in the table, so the main thread
//! reaches each depth sooner. To spread the threads over different depths
//! (rather than all repeating the same iteration in lock-step), helpers skip
//! some iterations in a fixed pattern ([`helper_skips`]).
//!
//! Only the main thread watches the clock and `ponderhit`, and only it
//! reports progress. When its iterative deepening ends (limit, time, or
//! `stop`), it raises the helpers' stop flag (at the node that hit a node or
//! time limit, so the helpers do not search on while it unwinds), joins
//! them, and returns the best thread's result ([`pick_result`]).
//!
//! A node limit (`go nodes`) counts every thread's nodes, and every thread
//! enforces it, so that no thread searches on unchecked while another has
//! lost the processor: each thread publishes its count every
//! [`CHECK_EVERY`](super::CHECK_EVERY) nodes (C below), and whichever
//! thread sees the published total reach the limit raises the stop flag.
//! The main thread also checks its exact count plus the helpers' published
//! counts at every node. With N the limit and T threads, a search then ends
//! below N + T × C nodes whatever the scheduler does: the published total
//! is under N + C when the flag goes up, each thread holds under C
//! unpublished nodes then, and each searches on only to its next check (one
//! node for the main thread, the rest of its C for a helper). One-thread
//! searches stop at exactly N.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

use super::limits::Limits;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::tunables::SearchParams;
use super::{Report, SearchResult, SearchShared, Searcher, TbSettings};
use crate::eval::Evaluation;
use crate::syzygy::Tablebases;
use kiln_board::Board;
use kiln_board::MoveList;

/// Stack for every search thread: the recursion keeps a move list per ply.
pub const SEARCH_STACK_BYTES: usize = 32 << 20;

/// A search whose hard time limit is shorter than this (milliseconds)
/// runs without helpers: in a few milliseconds they find little, and
/// starting, scheduling and stopping them on a loaded machine costs about
/// as much as the budget (2-thread self-play at 1+0.01 lost on time when
/// the clock ran low).
pub const HELPERS_MIN_BUDGET_MS: u64 = 50;

/// Cores assumed when the operating system will not tell.
pub const FALLBACK_CORES: usize = 1;

/// Cores the operating system offers this process (at least one).
pub fn available_cores() -> usize {
    thread::available_parallelism().map_or(FALLBACK_CORES, std::num::NonZero::get)
}

/// The state the threads of one search share besides the table: the
/// helpers' stop flag (raised when the search is done), the node counts the
/// threads publish every thousand nodes (for `info nodes` and the node
/// limit), the node limit itself, and each helper's latest completed
/// iteration (for [`pick_result`], so the main thread can decide without
/// waiting for the helpers to stop).
#[derive(Debug, Default)]
pub struct ThreadSync {
    /// Set by the main thread when its search ends, or by any thread that
    /// sees the node limit reached: the helpers stop.
    pub stop: AtomicBool,
    /// The search's node limit, for all threads together.
    pub node_limit: Option<u64>,
    /// Nodes the helpers have searched so far (approximate while running).
    pub helper_nodes: AtomicU64,
    /// The main thread's node count at its latest multiple of
    /// [`CHECK_EVERY`](super::CHECK_EVERY), for the helpers' check of the
    /// node limit.
    pub main_nodes: AtomicU64,
    /// Tablebase probes that answered, by all threads.
    pub tb_hits: AtomicU64,
    /// Latest completed iteration of helper `i + 1` (locked once per
    /// iteration).
    completed: Vec<Mutex<Option<SearchResult>>>,
}

impl ThreadSync {
    /// Fresh state for a search with `helpers` helper threads and
    /// `node_limit`, the nodes all threads may search together.
    pub fn new(helpers: usize, node_limit: Option<u64>) -> Self {
        Self {
            stop: AtomicBool::new(false),
            node_limit,
            helper_nodes: AtomicU64::new(0),
            main_nodes: AtomicU64::new(0),
            tb_hits: AtomicU64::new(0),
            completed: (0..helpers).map(|_| Mutex::new(None)).collect(),
        }
    }

    /// Records the completed iteration `result` of helper `thread_index`.
    pub fn publish(&self, thread_index: usize, result: &SearchResult) {
        let slot = thread_index
            .checked_sub(1)
            .and_then(|i| self.completed.get(i));
        if let Some(Ok(mut slot)) = slot.map(Mutex::lock) {
            *slot = Some(result.clone());
        }
    }

    /// The helpers' latest completed iterations.
    pub fn completed(&self) -> Vec<SearchResult> {
        self.completed
            .iter()
            .filter_map(|slot| slot.lock().ok().and_then(|r| r.clone()))
            .collect()
    }
}

/// Skip pattern of the helpers (as in Stockfish 7-9's Lazy SMP): helper
/// `i` uses row `(i - 1) % 20`, and skips iteration `depth` when
/// `(depth + game_ply + phase) / size` is odd. Helpers 1 and 2 each search
/// every other depth (opposite halves), helpers 3-6 skip two of every
/// four, and so on, so at any
/// moment the threads are spread over the current depth and the next ones.
const SKIP_SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
/// See [`SKIP_SIZE`].
const SKIP_PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether search thread `thread_index` (0 = main, never skips) leaves out
/// iteration `depth` at game ply `game_ply`.
pub fn helper_skips(thread_index: usize, depth: i32, game_ply: usize) -> bool {
    if thread_index == 0 {
        return false;
    }
    let row = (thread_index - 1) % SKIP_SIZE.len();
    let ply = i32::try_from(game_ply % 1024).unwrap_or(0);
    (depth + ply + SKIP_PHASE[row]) / SKIP_SIZE[row] % 2 == 1
}

/// The result to play: the main thread's, unless a helper completed a
/// deeper iteration *and* scored it higher (the rule of Stockfish 8).
///
/// A deeper completed iteration has seen more; requiring the better score
/// too keeps a helper's deeper but gloomier (or merely different) result
/// from overriding the main thread, whose time management chose to stop
/// there. With one thread this is simply the main thread's result.
pub fn pick_result(main: SearchResult, helpers: &[SearchResult]) -> SearchResult {
    let mut best = main;
    for result in helpers {
        if !result.best.is_null() && result.depth > best.depth && result.score > best.score {
            best = result.clone();
        }
    }
    best
}

/// What every helper of one search starts from.
struct Launch<'a> {
    root: &'a Board,
    limits: &'a Limits,
    start: Instant,
    tt: &'a Arc<TranspositionTable>,
    sync: &'a Arc<ThreadSync>,
    shared: &'a Arc<SearchShared>,
    /// The finished helpers' nodes, summed.
    nodes: &'a AtomicU64,
    /// The root moves as the tablebases ranked them.
    root_moves: &'a MoveList,
    /// The tablebases and their probing rules, as the main thread has them.
    tablebases: &'a Option<Arc<Tablebases>>,
    tb_settings: TbSettings,
    tb_cardinality: u32,
    /// The main thread's static evaluation.
    evaluation: Evaluation,
    /// The main thread's tunables.
    params: &'a SearchParams,
}

/// Starts the helpers in `slots`, numbered from `first`, as a tree: the
/// first gets a thread, which starts each half of the rest the same way
/// before it searches. The main thread starts one thread and searches at
/// once, and on a machine with a core per thread a thousand helpers start
/// in ten generations, in parallel, rather than one after another. (Where
/// the threads far outnumber the cores, each new thread waits its turn
/// among those already searching: on two cores, about 500 of 1023 helpers
/// were running after 8 s.) None starts once the main thread's search is
/// over; a helper that cannot get a thread is left out, with the helpers
/// it would have started.
fn launch_helpers<'scope>(
    scope: &'scope thread::Scope<'scope, '_>,
    slots: &'scope mut [Option<Searcher>],
    first: usize,
    launch: &'scope Launch<'scope>,
) {
    let Some((slot, rest)) = slots.split_first_mut() else {
        return;
    };
    if launch.sync.stop.load(Ordering::Relaxed) {
        return;
    }
    let (left, right) = rest.split_at_mut(rest.len() / 2);
    let right_first = first + 1 + left.len();
    let _ = thread::Builder::new()
        .name(format!("search-helper-{first}"))
        .stack_size(SEARCH_STACK_BYTES)
        .spawn_scoped(scope, move || {
            launch_helpers(scope, left, first + 1, launch);
            launch_helpers(scope, right, right_first, launch);
            let helper = slot.get_or_insert_with(|| {
                Searcher::with_table(Arc::clone(launch.tt), first, *launch.params)
            });
            helper.sync = Arc::clone(launch.sync);
            helper.tt = Arc::clone(launch.tt);
            helper.total_nodes = 0;
            let mut board = launch.root.clone();
            let time = TimeManager::unlimited(launch.start);
            helper.prepare(
                &board,
                launch.limits.clone(),
                time,
                Arc::clone(launch.shared),
            );
            helper.root_moves = launch.root_moves.clone();
            helper.tablebases.clone_from(launch.tablebases);
            helper.tb_settings = launch.tb_settings;
            helper.tb_cardinality = launch.tb_cardinality;
            helper.set_evaluation(launch.evaluation);
            helper.iterate(&mut board, launch.start, &mut |_| {});
            launch.nodes.fetch_add(helper.nodes, Ordering::Relaxed);
        });
}

impl Searcher {
    /// Lazy SMP: runs the helpers on their own threads while this thread
    /// searches, stops them when this thread's search ends, passes the best
    /// thread's result to `decided`, and returns it once the helpers have
    /// been joined.
    pub(super) fn search_with_helpers(
        &mut self,
        board: &mut Board,
        start: Instant,
        report: &mut dyn FnMut(&Report),
        decided: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        // Helpers search the same root and the same moves, one line only,
        // with no limit of their own: the main thread stops them.
        let helper_limits = Limits {
            depth: self.limits.depth,
            searchmoves: self.limits.searchmoves.clone(),
            infinite: true,
            ..Limits::default()
        };
        let mut helpers = std::mem::take(&mut self.helpers);
        let (tt, sync, shared) = (
            Arc::clone(&self.tt),
            Arc::clone(&self.sync),
            Arc::clone(&self.shared),
        );
        let helper_nodes = AtomicU64::new(0);
        let root = board.clone();
        let params = self.params;
        let (root_moves, tablebases) = (self.root_moves.clone(), self.tablebases.clone());
        let launch = &Launch {
            root_moves: &root_moves,
            tablebases: &tablebases,
            tb_settings: self.tb_settings,
            tb_cardinality: self.tb_cardinality,
            evaluation: self.evaluation,
            params: &params,
            root: &root,
            limits: &helper_limits,
            start,
            tt: &tt,
            sync: &sync,
            shared: &shared,
            nodes: &helper_nodes,
        };
        let slots = helpers.as_mut_slice();
        let multi_pv = self.limits.multi_pv;
        // Leaving the scope joins the helpers; a helper's panic (a bug)
        // then passes on to the protocol layer, which recovers with a
        // fresh searcher.
        let mut result = thread::scope(|scope| {
            // The helpers search until told to stop, and the scope waits
            // for them: should the main thread panic, this stops them as
            // it unwinds, so the panic reaches the protocol layer (which
            // still gives a move) instead of the scope waiting for ever.
            let _stop_helpers = StopOnDrop(&sync.stop);
            launch_helpers(scope, slots, 1, launch);
            let mut result = self.iterate(board, start, report);
            sync.stop.store(true, Ordering::Relaxed);
            // Decide now, from the iterations the helpers have completed,
            // without waiting for them to stop.
            if multi_pv <= 1 {
                let main_best = result.best;
                result = pick_result(result, &sync.completed());
                if result.best != main_best {
                    // A helper's line won: the last `info ... pv` was the
                    // main thread's, so say the chosen line before the
                    // move is played (GUIs and match runners check that
                    // the best move starts the last PV).
                    self.show_result(board, &result, start, report);
                }
            }
            result.nodes = self.nodes_all_threads();
            decided(&result);
            result
        });
        self.total_nodes = self.nodes.saturating_add(helper_nodes.into_inner());
        self.helpers = helpers;
        result.nodes = self.total_nodes;
        result
    }
}

/// Raises its flag when dropped, on the normal path and when unwinding.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::Move;

    fn result(depth: i32, score: i32) -> SearchResult {
        SearchResult {
            best: Move::from_bits(0x0ff0 + depth as u16),
            ponder: None,
            score,
            depth,
            nodes: 0,
        }
    }

    #[test]
    fn deeper_and_better_helper_wins() {
        let main = result(10, 20);
        assert_eq!(pick_result(main.clone(), &[]), main);
        // Deeper but worse, or better but not deeper: the main thread's.
        assert_eq!(pick_result(main.clone(), &[result(11, 10)]), main);
        assert_eq!(pick_result(main.clone(), &[result(10, 90)]), main);
        // Each later thread must beat the best so far on both counts.
        assert_eq!(
            pick_result(main.clone(), &[result(11, 30), result(12, 25)]),
            result(11, 30)
        );
        assert_eq!(
            pick_result(main, &[result(11, 30), result(12, 35)]),
            result(12, 35)
        );
    }

    #[test]
    fn skip_pattern_spreads_helpers() {
        // The main thread searches every depth.
        assert!((1..40).all(|d| !helper_skips(0, d, 0)));
        // Helper 1 searches every other depth, helpers 1 and 2 complement.
        let one: Vec<bool> = (1..9).map(|d| helper_skips(1, d, 0)).collect();
        let two: Vec<bool> = (1..9).map(|d| helper_skips(2, d, 0)).collect();
        assert_eq!(one.iter().filter(|&&s| s).count(), 4);
        assert!(one.iter().zip(&two).all(|(a, b)| a != b));
    }
}
