//! The UCI protocol loop.
//!
//! The loop reads stdin line by line (a [`LineReader`]: invalid UTF-8 is
//! replaced, never fatal), parses each line with
//! [`command::parse`](super::command::parse) and acts on it. A `go` moves
//! the searcher onto a search thread (a [`SearchThread`], shared with
//! XBoard) together with a copy of the board; the loop keeps reading, so
//! `isready`, `stop`, `ponderhit` and `quit` are answered while the search
//! runs. The
//! searcher comes back when the thread is joined, which happens only when a
//! command needs it. With `Threads` above one, that search thread runs the
//! Lazy SMP helpers itself; this loop sees one search either way.
//!
//! Every problem with the input is reported as `info string …` and leaves the
//! engine's state as it was; nothing on stdin can make the loop panic.

use std::io::{self, BufRead};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread;
use std::time::{Duration, Instant};

use super::command::{GenfensParams, GoParams, PositionBase, UciCommand, UciError, parse};
use super::genfens::{self, GenfensError};
use super::options::{Effect, Options};
use super::output;
use crate::eval::explain::explain;
use crate::protocol::{
    LineReader, SearchFailed, SearchThread, display, first_legal_move, send, wdl,
};
use crate::search::limits::{Clock, Limits};
use crate::search::threads::SEARCH_STACK_BYTES;
use crate::search::{SearchResult, SearchShared};
use kiln_board;
use kiln_board::{Board, Color, Move};

/// Writes `info string <message>`, one line per line of the message.
pub fn info_string(message: &str) {
    for line in message.lines() {
        send(&format!("info string {line}"));
    }
}

/// The state of a UCI connection.
#[derive(Debug)]
pub struct Engine {
    board: Board,
    options: Options,
    /// The searcher, on its search thread while a search runs.
    search: SearchThread,
    /// Perfts still counting, benches still searching and `genfens` runs
    /// still drawing, each on its own thread.
    jobs: Vec<BackgroundJob>,
    debug: bool,
}

/// A `go perft`, a `bench` or a `genfens` running on its own thread.
#[derive(Debug)]
struct BackgroundJob {
    thread: thread::JoinHandle<()>,
    /// Its `stop` is set by `stop`: the job gives up (a perft or a bench
    /// prints no total, `genfens` no more openings). A bench's searches
    /// read the whole of it.
    stop: Arc<SearchShared>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine at the starting position with default options. The hash
    /// table is allocated zeroed (the OS supplies the pages lazily).
    pub fn new() -> Self {
        let options = Options::default();
        Self {
            board: Board::startpos(),
            search: SearchThread::new(options.hash_mb),
            options,
            jobs: Vec::new(),
            debug: false,
        }
    }

    /// Runs the loop until `quit` or the end of `input`.
    pub fn run(&mut self, input: impl BufRead) {
        // UCI lines are not cut: a `position ... moves ...` line grows with
        // the game.
        for line in LineReader::new(input, usize::MAX) {
            if !self.handle_line(&line) {
                break;
            }
        }
        self.stop_search();
        self.finish_jobs();
    }

    /// Handles one line; returns `false` on `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        let command = match parse(line) {
            Ok(c) => c,
            Err(UciError::Empty) => return true,
            Err(e) => {
                info_string(&e.to_string());
                return true;
            }
        };
        match command {
            UciCommand::Uci => {
                send(&output::id_name());
                send("id author The Kiln developers");
                for line in Options::declarations().lines() {
                    send(line);
                }
                send("uciok");
            }
            UciCommand::Debug(on) => self.debug = on,
            UciCommand::IsReady => {
                self.reap_finished();
                send("readyok");
            }
            UciCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            UciCommand::Register => info_string("no registration needed"),
            UciCommand::UciNewGame => self.search.searcher().new_game(),
            UciCommand::Position { base, moves } => self.set_position(&base, &moves),
            UciCommand::Go(go) => self.go(&go),
            UciCommand::Stop => {
                self.stop_search();
                self.stop_jobs();
            }
            UciCommand::PonderHit => self.search.ponderhit(),
            UciCommand::Quit => return false,
            UciCommand::Display => self.display(),
            UciCommand::Eval => self.eval(),
            UciCommand::Perft(depth) => self.perft(depth),
            UciCommand::Bench(depth) => self.bench(depth),
            UciCommand::Genfens(params) => self.genfens(params),
            #[cfg(feature = "spsa")]
            UciCommand::Spsa => {
                for line in self.options.spsa_lines() {
                    send(&line);
                }
            }
        }
        true
    }

    /// Joins the search thread if it has finished, recovering the searcher,
    /// and reports a failed search not reported yet.
    fn reap_finished(&mut self) {
        if self.search.is_finished() || !self.search.is_running() {
            report_failure(self.search.join());
        }
    }

    /// Stops a running search (its thread prints `bestmove`) and waits for it.
    fn stop_search(&mut self) {
        report_failure(self.search.stop());
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        match self.options.set(name, value) {
            Ok(applied) => {
                if let Some(note) = applied.note {
                    info_string(&note.to_string());
                }
                match applied.effect {
                    Effect::None => {}
                    Effect::ClearHash => self.search.searcher().clear_hash(),
                    Effect::SetThreads(threads) => self.search.set_threads(threads),
                    Effect::LoadTablebases(path) => {
                        for message in self.search.load_tablebases(&path) {
                            info_string(&message);
                        }
                    }
                    Effect::TablebaseSettings => self.search.set_tb_settings(self.options.tb),
                    Effect::SetEvaluation(evaluation) => self.search.set_evaluation(evaluation),
                    #[cfg(feature = "spsa")]
                    Effect::SearchParams => self.search.searcher().set_params(self.options.search),
                    Effect::ResizeHash(mib) => {
                        if let Err(shortfall) = self.search.resize_hash(mib) {
                            info_string(&shortfall.to_string());
                        }
                    }
                }
            }
            Err(error) => info_string(&error.to_string()),
        }
    }

    fn set_position(&mut self, base: &PositionBase, moves: &[String]) {
        let mut board = match base {
            PositionBase::StartPos => Board::startpos(),
            PositionBase::Fen(fen) => match Board::from_fen(fen) {
                Ok(b) => b,
                Err(e) => {
                    info_string(&format!("invalid FEN ({e}); position unchanged"));
                    return;
                }
            },
        };
        for (i, text) in moves.iter().enumerate() {
            match kiln_board::parse_uci_move(&board, text) {
                Ok(mv) => board.make_move(mv),
                Err(e) => {
                    let shown: String = text.chars().take(16).collect();
                    info_string(&format!(
                        "illegal move '{shown}' (move {} of the list: {e}); position set to the last legal one: {}",
                        i + 1,
                        board.to_fen()
                    ));
                    break;
                }
            }
        }
        self.board = board;
    }

    fn limits(&self, go: &GoParams) -> Limits {
        let to_i32 = |v: u64| i32::try_from(v).unwrap_or(i32::MAX);
        let (time, inc) = match self.board.side_to_move() {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        // A clock given for the other side only (or an increment or
        // moves-to-go alone) is a game on the clock whose side to move has
        // no time left to speak of: move at once rather than search until a
        // `stop` that never comes.
        let any_clock = [go.wtime, go.btime, go.winc, go.binc, go.movestogo]
            .iter()
            .any(Option::is_some);
        if time.is_none() && any_clock {
            info_string("go: no time given for the side to move; moving at once");
        }
        let clock = (time.is_some() || any_clock).then(|| Clock {
            time: time.unwrap_or(0),
            increment: inc.unwrap_or(0),
            moves_to_go: go.movestogo,
        });
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match kiln_board::parse_uci_move(&self.board, text) {
                Ok(mv) => searchmoves.push(mv),
                Err(e) => {
                    let shown: String = text.chars().take(16).collect();
                    info_string(&format!("searchmoves: ignoring '{shown}' ({e})"));
                }
            }
        }
        let mut limits = Limits {
            depth: go.depth.map(to_i32),
            nodes: go.nodes,
            movetime: go.movetime,
            mate: go.mate.map(to_i32),
            clock,
            infinite: go.infinite,
            ponder: go.ponder,
            searchmoves,
            multi_pv: usize::try_from(self.options.multi_pv).unwrap_or(1),
            received: None,
            strength: self.options.strength(),
        };
        if !limits.is_bounded() {
            // A bare `go` (or only `ponder`) searches until `stop`.
            limits.infinite = true;
        }
        limits
    }

    fn go(&mut self, go: &GoParams) {
        let received = Instant::now();
        for problem in &go.problems {
            info_string(&format!("go: {problem}; left out"));
        }
        if let Some(depth) = go.perft {
            self.perft(depth);
            return;
        }
        // A `go` during a search ends that search first (it sends its own
        // `bestmove`).
        self.stop_search();
        let mut limits = self.limits(go);
        limits.received = Some(received);
        // What was left out may have been the limit: a bare `go` searches
        // until `stop`, but one whose only limit was malformed is refused.
        if !go.problems.is_empty() && !limits.is_bounded() && !go.infinite && !go.ponder {
            info_string("go: no usable limit left; not searching");
            return;
        }
        // The options hold the tunables: a searcher that replaced a failed
        // one gets them too.
        #[cfg(feature = "spsa")]
        self.search.searcher().set_params(self.options.search);
        if self.debug {
            let params = *self.search.searcher().params();
            let (soft, hard) = crate::search::time::budget(
                &params,
                &limits,
                self.options.move_overhead,
                u64::from(self.board.fullmove_number()),
            );
            info_string(&format!(
                "limits {limits:?}; time soft {soft:?} hard {hard:?} ms"
            ));
        }
        let shared = Arc::new(SearchShared::new(go.ponder));
        let waiting = Arc::clone(&shared);
        let chess960 = self.options.chess960;
        let style = output::InfoStyle {
            chess960,
            wdl_material: self.options.show_wdl.then(|| wdl::material(&self.board)),
        };
        let infinite = limits.infinite;
        let waits = limits.infinite || limits.ponder;
        let started = self.search.start(
            self.board.clone(),
            limits,
            self.options.move_overhead,
            shared,
            move |r| send(&output::info(r, style)),
            move |result| {
                // UCI: in `infinite` and `ponder` mode the best move is only
                // sent after `stop` (or `ponderhit`).
                if waits {
                    while !waiting.stop.load(Ordering::Relaxed)
                        && (infinite || waiting.pondering.load(Ordering::Relaxed))
                    {
                        thread::sleep(Duration::from_millis(1));
                    }
                }
                send(&output::bestmove(result.best, result.ponder, chess960));
            },
        );
        if let Err(e) = started {
            // No search, but a move all the same: a null move forfeits the
            // game in most match runners.
            info_string(&format!("{e}; playing the first legal move"));
            send(&output::bestmove(
                first_legal_move(&self.board).unwrap_or(Move::NULL),
                None,
                chess960,
            ));
        }
    }

    /// Runs perft on its own thread so the loop stays responsive (a deep
    /// perft can take hours): `stop` abandons it, while `quit` and the end
    /// of input wait for its count, as a GUI or script that sends
    /// `go perft` and then `quit` expects. The output is collected and sent
    /// when it is complete, without holding stdout.
    fn perft(&mut self, depth: u64) {
        self.stop_search();
        self.jobs.retain(|job| !job.thread.is_finished());
        let depth = depth.min(64) as u32;
        let mut board = self.board.clone();
        let chess960 = self.options.chess960;
        self.start_job("perft", move |shared| {
            let mut out = Vec::new();
            let result = crate::protocol::perft::divide_until(
                &mut board,
                depth,
                chess960,
                &mut out,
                &shared.stop,
            );
            for line in String::from_utf8_lossy(&out).lines() {
                send(line);
            }
            match result {
                Ok(Some(_)) => {}
                Ok(None) => info_string("perft stopped"),
                Err(e) => info_string(&format!("perft failed: {e}")),
            }
        });
    }

    /// Runs `work` on a thread of its own named `name` (with a search's
    /// stack: a bench and `genfens` search), as a job that `stop` ends
    /// through the flags it is given and `quit` waits for.
    fn start_job(&mut self, name: &str, work: impl FnOnce(&Arc<SearchShared>) + Send + 'static) {
        let stop = Arc::new(SearchShared::default());
        let shared = Arc::clone(&stop);
        let spawned = thread::Builder::new()
            .name(name.into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || work(&shared));
        match spawned {
            Ok(thread) => self.jobs.push(BackgroundJob { thread, stop }),
            Err(e) => info_string(&format!("cannot start {name}: {e}")),
        }
    }

    /// `bench`: the bench of `kiln bench` on its own thread, like perft, so
    /// that `isready` is answered meanwhile and `stop` abandons it (a deep
    /// one can run for hours); `quit` waits for its count. It honours
    /// `UseNNUE`, so one UCI connection can compare the two evaluations'
    /// speed.
    fn bench(&mut self, depth: Option<u64>) {
        self.stop_search();
        self.jobs.retain(|job| !job.thread.is_finished());
        let evaluation = self.options.chosen_evaluation();
        self.start_job("bench", move |shared| {
            let finished =
                super::bench::run_until(depth, evaluation, shared, &mut |line| send(line));
            if finished.is_none() {
                info_string("bench stopped");
            }
        });
    }

    /// `genfens`: openings for OpenBench ([`genfens`](mod@genfens)), one
    /// `info string genfens <fen>` line each, printed as they are found.
    /// Like perft it runs on its own thread, so `isready` is answered
    /// meanwhile; `stop` abandons it and `quit` (OpenBench's next argument)
    /// waits for it. It searches with a searcher of its own, so the
    /// engine's table and settings are neither used nor disturbed. Skipped
    /// book lines are told on stderr, as `info string` lines.
    fn genfens(&mut self, params: GenfensParams) {
        self.jobs.retain(|job| !job.thread.is_finished());
        // On stderr, like genfens's other warnings. OpenBench reads stdout
        // and stderr together and takes every line that starts with `info
        // string genfens ` for an opening, so this one must not. A mistyped
        // `seed` or `book` lands here.
        if !params.extra.is_empty() {
            eprintln!(
                "info string unused genfens words (it takes seed and book): {}",
                params.extra.join(" ")
            );
        }
        self.start_job("genfens", move |shared| {
            let result = genfens::generate(
                &params,
                &shared.stop,
                &mut |fen| send(&format!("info string genfens {fen}")),
                &mut |warning| eprintln!("info string {warning}"),
            );
            match result {
                Ok(_) => {}
                Err(e @ GenfensError::Stopped { .. }) => info_string(&e.to_string()),
                Err(e) => info_string(&format!("error: {e}")),
            }
        });
    }

    /// `stop`: every running perft, bench and `genfens` gives up; waits
    /// for their threads.
    fn stop_jobs(&mut self) {
        for job in &self.jobs {
            job.stop.stop.store(true, Ordering::Relaxed);
        }
        self.finish_jobs();
    }

    /// Waits for every running perft and bench to print its count and every
    /// `genfens` its openings.
    fn finish_jobs(&mut self) {
        for job in self.jobs.drain(..) {
            if job.thread.join().is_err() {
                info_string("internal error: a perft, bench or genfens thread panicked");
            }
        }
    }

    /// `d`: the board, its FEN, key, checkers and legal move count.
    fn display(&self) {
        for line in display::board_diagram(&self.board) {
            send(&line);
        }
    }

    /// `eval`: the evaluation explained term by term.
    fn eval(&self) {
        for line in explain(&self.board) {
            send(&line);
        }
    }
}

/// Tells the GUI about a search that failed (its thread panicked). Its
/// `bestmove` has gone out already, from the search thread
/// ([`SearchThread::start`](crate::protocol::search_thread::SearchThread::start));
/// the engine goes on with a fresh searcher.
fn report_failure(joined: Option<Result<SearchResult, SearchFailed>>) {
    if let Some(Err(failure)) = joined {
        info_string(&failure.to_string());
    }
}

/// Runs a UCI engine on stdin until `quit` or EOF.
pub fn run_stdio() {
    let stdin = io::stdin();
    Engine::new().run(stdin.lock());
}
