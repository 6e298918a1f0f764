//! The CECP engine: game state, engine state and the event loop.
//!
//! CECP is stateful: the engine keeps the game, knows which side it plays,
//! runs its own clock and announces results. Three threads cooperate:
//! - an input thread turns stdin into `Event::Line`s (lossy UTF-8,
//!   bounded line length, so no input can panic or exhaust memory);
//! - a search thread, one per search, owns the searcher while it runs
//!   (a [`SearchThread`], shared with the UCI loop; with `cores` above one
//!   it runs the Lazy SMP helpers itself) and posts `Event::SearchDone`
//!   when it ends;
//! - the engine thread handles both kinds of event in arrival order.
//!
//! Only the engine thread changes the board or writes `move`, so a move
//! is always applied before any command the GUI sends in reply to it. The
//! search thread writes thinking lines, always before its `SearchDone`.
//! Cancelling a search (on `force`, `new`, `undo`…) sets its stop flag and
//! joins it; its `SearchDone` arrives later with a stale id and is ignored.

use std::fmt;
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

use super::command::{Command, CommandError, parse};
use super::notation::{move_text, parse_move, thinking_line};
use super::outcome::Outcome;
use super::time_control::TimeControl;
use crate::eval::score::{Score, is_mate};
use crate::eval::{Evaluation, USE_NNUE_DEFAULT};
use crate::protocol::options::{THREADS, hash_limit_reason, hash_mib};
use crate::protocol::{LineReader, SearchFailed, SearchThread, first_legal_move, send};
use crate::search::limits::Limits;
use crate::search::{SearchResult, SearchShared};
use kiln_board::{Board, Color, FenError, Move};
use kiln_board::{MoveList, count_legal, generate_all};

/// Least clock reserve for the pipe, XBoard and the operating system; the
/// measured lag replaces it when larger.
const MOVE_OVERHEAD_MS: u64 = 50;
/// Largest lag sample believed (a GUI that stalled for seconds once should
/// not make every later move a blitz move).
const MAX_LAG_MS: u64 = 2_000;
/// Longer input lines are cut here (the longest real command, `setboard`,
/// is under 100 bytes).
const MAX_LINE_BYTES: usize = 16 * 1024;
/// Longest piece of GUI input echoed back in an error message.
const MAX_ECHO_CHARS: usize = 80;

/// Resignation (only with `option Resign=1`): the engine resigns when its
/// last [`RESIGN_AFTER`] searches all scored at or below this, or when it
/// sees itself mated.
const RESIGN_SCORE: Score = -800;
/// See [`RESIGN_SCORE`].
const RESIGN_AFTER: usize = 3;
/// Draw offers are accepted when nobody can force mate any more, or from
/// move [`DRAW_ACCEPT_FROM_MOVE`] on when the last [`DRAW_ACCEPT_STABLE`]
/// search scores all lie within this many centipawns of zero.
const DRAW_ACCEPT_SCORE: Score = 15;
/// See [`DRAW_ACCEPT_SCORE`].
const DRAW_ACCEPT_FROM_MOVE: u16 = 40;
/// See [`DRAW_ACCEPT_SCORE`].
const DRAW_ACCEPT_STABLE: usize = 3;
/// A repetition or fifty-move draw reached by the opponent's move is a
/// claim, not an obligation: the engine plays on instead when its last
/// score was above this.
const CLAIM_UNLESS_ABOVE: Score = 100;

/// The `feature` reply to `protover 2`.
pub fn feature_line() -> String {
    format!(
        "feature myname=\"Kiln {}\" setboard=1 usermove=1 ping=1 playother=1 draw=1 \
         reuse=1 sigint=0 sigterm=0 colors=0 analyze=1 memory=1 smp=1 nps=0 debug=1 \
         egt=\"syzygy\" variants=\"normal,fischerandom\" option=\"Resign -check 0\" \
         option=\"UseNNUE -check {}\" done=1",
        crate::build_info::VERSION,
        u8::from(USE_NNUE_DEFAULT)
    )
}

/// Something for the engine thread to handle.
#[derive(Debug)]
enum Event {
    /// A line from the GUI, and when it arrived.
    Line(String, Instant),
    /// The first [`MAX_LINE_BYTES`] of a longer line: refused, not run.
    LineTooLong(String),
    /// End of input (or a read error).
    Eof,
    /// The search with this id has decided its move (the result) and is
    /// ending; joining it may wait a moment for Lazy SMP helpers to stop.
    SearchDone(u64, SearchResult),
}

/// Which side, if any, the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `force`: the engine only records moves.
    Force,
    /// The engine plays this colour.
    Play(Color),
    /// `analyze`: search the position until told otherwise.
    Analyze,
}

/// What a running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TaskKind {
    /// Choosing the engine's move.
    Think,
    /// Analysis mode: no move is played.
    Analyze,
}

/// A running search (its thread is in [`Engine::search`]).
#[derive(Debug)]
struct Task {
    id: u64,
    kind: TaskKind,
    started: Instant,
}

/// The latest finished iteration, for the `.` status command.
#[derive(Clone, Debug, Default)]
struct Progress {
    depth: i32,
    nodes: u64,
    best: Option<String>,
}

/// The state of one CECP connection.
#[derive(Debug)]
struct Engine {
    board: Board,
    /// Fischer Random: castling is written `O-O` / `O-O-O`.
    frc: bool,
    /// False after a rejected `setboard`: moves are refused until the next
    /// `new` or good `setboard`, as the protocol suggests.
    position_valid: bool,
    mode: Mode,
    /// A result has been announced or received: the engine does not move.
    game_over: bool,
    time_control: TimeControl,
    depth_limit: Option<i32>,
    /// The engine's clock in milliseconds (from `time`, else kept here).
    own_ms: u64,
    /// The engine's moves in this game, counting its last one, as of that
    /// move (for the clock's credit when the next `time` reading comes).
    moves_made: u32,
    /// The clock before the engine's last move and the time its search took,
    /// until the next `time` reading turns them into a lag sample.
    last_move_clock: Option<(u64, u64)>,
    /// Time per move that the GUI charges beyond the search (a decaying
    /// maximum of the samples), in milliseconds.
    lag_ms: u64,
    post: Arc<AtomicBool>,
    /// `hard`/`easy`: recorded only, since Kiln does not ponder.
    ponder: bool,
    resign_enabled: bool,
    hash_mib: u64,
    /// A `memory` request that arrived while the searcher was busy.
    pending_hash: Option<u64>,
    /// A `cores` request that arrived while the searcher was busy.
    pending_threads: Option<usize>,
    /// The searcher, on its search thread while a search runs.
    search: SearchThread,
    task: Option<Task>,
    next_task_id: u64,
    events: Sender<Event>,
    /// When the line being handled arrived: a search it starts is charged
    /// from then, not from when the engine got to it (the time the line
    /// waited behind a search's ending is on the GUI's clock too).
    line_arrived: Option<Instant>,
    /// `ping`s received while the engine was thinking about its move:
    /// answered after the move, as the protocol requires.
    deferred_pongs: Vec<String>,
    /// Scores of the engine's own searches this game, latest last.
    scores: Vec<Score>,
    /// The opponent has offered a draw that the next move may accept.
    draw_offered: bool,
    /// The reply the last search expected, with the key of the position it
    /// answers: the `hint` for the user.
    expected_reply: Option<(u64, Move)>,
    progress: Arc<Mutex<Progress>>,
    /// Legal moves at the root of the current analysis.
    root_moves: usize,
}

impl Engine {
    fn new(events: Sender<Event>) -> Self {
        let time_control = TimeControl::default();
        Self {
            board: Board::startpos(),
            frc: false,
            position_valid: true,
            mode: Mode::Play(Color::Black),
            game_over: false,
            own_ms: time_control.initial_ms(),
            time_control,
            depth_limit: None,
            moves_made: 0,
            last_move_clock: None,
            lag_ms: 0,
            post: Arc::new(AtomicBool::new(false)),
            ponder: false,
            resign_enabled: false,
            hash_mib: hash_mib().default,
            pending_hash: None,
            pending_threads: None,
            search: SearchThread::new(hash_mib().default),
            task: None,
            next_task_id: 0,
            events,
            line_arrived: None,
            deferred_pongs: Vec::new(),
            scores: Vec::new(),
            draw_offered: false,
            expected_reply: None,
            progress: Arc::new(Mutex::new(Progress::default())),
            root_moves: 0,
        }
    }

    /// Handles events until `quit` or the end of input.
    fn run(&mut self, events: &Receiver<Event>) {
        while let Ok(event) = events.recv() {
            match event {
                Event::Line(line, arrived) => {
                    self.line_arrived = Some(arrived);
                    let go_on = self.handle_line(&line);
                    self.line_arrived = None;
                    if !go_on {
                        break;
                    }
                }
                Event::LineTooLong(start) => reply_error(
                    &format_args!("line longer than {MAX_LINE_BYTES} bytes"),
                    &start,
                ),
                Event::SearchDone(id, result) => self.search_done(id, result),
                Event::Eof => {
                    // Input ended while the engine was choosing a move
                    // (`go` piped from a script): finish it and play it.
                    while self.thinking() {
                        match events.recv() {
                            Ok(Event::SearchDone(id, result)) => self.search_done(id, result),
                            Ok(_) => {}
                            Err(_) => break,
                        }
                    }
                    break;
                }
            }
        }
        self.cancel_task();
    }

    /// Handles one line; returns `false` on `quit`.
    fn handle_line(&mut self, line: &str) -> bool {
        let command = match parse(line) {
            Ok(command) => command,
            Err(CommandError::Empty) => return true,
            Err(error) => {
                reply_error(&error, line);
                return true;
            }
        };
        match command {
            Command::Xboard | Command::FeatureReply | Command::Ignored => {}
            Command::Protover(version) => {
                if version >= 2 {
                    send(&feature_line());
                }
            }
            Command::New => self.new_game(),
            Command::Variant(name) => match name.as_str() {
                "normal" => self.frc = false,
                "fischerandom" => self.frc = true,
                _ => reply_error(&Refused::UnsupportedVariant, line),
            },
            Command::Quit => return false,
            Command::Force => {
                self.cancel_task();
                self.mode = Mode::Force;
            }
            Command::Go => {
                if self.thinking() {
                    return true;
                }
                if !self.position_valid {
                    reply_error(&Refused::NoValidPosition, line);
                    return true;
                }
                self.cancel_task();
                self.mode = Mode::Play(self.board.side_to_move());
                self.start_thinking();
            }
            Command::PlayOther => {
                self.cancel_task();
                self.mode = Mode::Play(!self.board.side_to_move());
            }
            Command::TimeControl(time_control) => {
                self.time_control = time_control;
                self.own_ms = time_control.initial_ms();
                self.moves_made = 0;
                self.last_move_clock = None;
            }
            Command::Depth(depth) => self.depth_limit = Some(depth.max(1)),
            Command::Time(ms) => self.clock_reading(ms),
            // The opponent's clock plays no part in Kiln's time management.
            Command::OpponentTime(_) => {}
            Command::UserMove(text) => self.user_move(&text),
            Command::MoveNow => {
                if self.thinking() {
                    self.search.move_now();
                }
            }
            Command::Ping(n) => {
                if self.thinking() {
                    self.deferred_pongs.push(n);
                } else {
                    send(&format!("pong {n}"));
                }
            }
            Command::Draw => self.draw_offered = true,
            Command::Result(_) => {
                self.cancel_task();
                self.game_over = true;
                self.draw_offered = false;
            }
            Command::SetBoard(fen) => self.set_board(&fen, line),
            Command::Undo => self.take_back(1, line),
            Command::Remove => self.take_back(2, line),
            Command::Ponder(on) => self.ponder = on,
            Command::Post(on) => self.post.store(on, Ordering::Relaxed),
            Command::Analyze => {
                self.cancel_task();
                self.mode = Mode::Analyze;
                self.start_analysis();
            }
            Command::Exit => {
                if self.mode == Mode::Analyze {
                    self.cancel_task();
                    self.mode = Mode::Force;
                }
            }
            Command::Status => self.status(),
            Command::Hint => self.hint(),
            Command::Memory(mib) => self.set_hash(mib),
            Command::Cores(cores) => self.set_cores(cores),
            Command::EgtPath { kind, path } => self.set_egt_path(&kind, &path),
            Command::EngineOption { name, value } => self.set_option(&name, value.as_deref(), line),
        }
        true
    }

    /// Whether a search for the engine's move is running.
    fn thinking(&self) -> bool {
        self.task
            .as_ref()
            .is_some_and(|t| t.kind == TaskKind::Think)
    }

    fn new_game(&mut self) {
        self.cancel_task();
        self.board = Board::startpos();
        self.frc = false;
        self.position_valid = true;
        self.game_over = false;
        if self.mode != Mode::Analyze {
            self.mode = Mode::Play(Color::Black);
        }
        self.depth_limit = None;
        self.own_ms = self.time_control.initial_ms();
        self.moves_made = 0;
        self.last_move_clock = None;
        self.scores.clear();
        self.draw_offered = false;
        self.search.searcher().new_game();
        if self.mode == Mode::Analyze {
            self.start_analysis();
        }
    }

    fn set_board(&mut self, fen: &str, line: &str) {
        self.cancel_task();
        match Board::from_fen(fen) {
            Ok(board) => {
                self.board = board;
                self.last_move_clock = None;
                self.position_valid = true;
                self.game_over = false;
                self.scores.clear();
                self.draw_offered = false;
            }
            Err(error) => {
                self.position_valid = false;
                send("tellusererror Illegal position");
                reply_error(&Refused::IllegalPosition(error), line);
            }
        }
        if self.mode == Mode::Analyze {
            self.start_analysis();
        }
    }

    fn user_move(&mut self, text: &str) {
        let shown = clip(text);
        if !self.position_valid {
            send(&format!("Illegal move (no valid position): {shown}"));
            return;
        }
        if self.thinking() {
            send(&format!("Illegal move (engine is on move): {shown}"));
            return;
        }
        let Some(mv) = parse_move(&self.board, text) else {
            send(&format!("Illegal move: {shown}"));
            return;
        };
        self.cancel_task();
        self.board.make_move(mv);
        if self.mode == Mode::Analyze {
            self.start_analysis();
        } else {
            self.start_thinking();
        }
    }

    /// `undo` (1) and `remove` (2).
    fn take_back(&mut self, plies: usize, line: &str) {
        self.cancel_task();
        if !self.position_valid {
            reply_error(&Refused::NoValidPosition, line);
        } else if self.board.game_ply() < plies {
            reply_error(&Refused::NoMoveToTakeBack, line);
        } else {
            for _ in 0..plies {
                self.board.unmake_move();
            }
            self.last_move_clock = None;
            self.game_over = false;
            self.draw_offered = false;
        }
        if self.mode == Mode::Analyze {
            self.start_analysis();
        }
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        match (name, value) {
            ("Resign", Some("0")) => self.resign_enabled = false,
            ("Resign", Some("1")) => self.resign_enabled = true,
            ("Resign", _) => reply_error(&Refused::BadOptionValue, line),
            ("UseNNUE", Some(value @ ("0" | "1"))) => {
                if self.task.is_some() {
                    send("# UseNNUE: not while thinking; send it again when idle");
                } else {
                    let evaluation = Evaluation::from_use_nnue(value == "1");
                    self.search.set_evaluation(evaluation);
                }
            }
            ("UseNNUE", _) => reply_error(&Refused::BadOptionValue, line),
            _ => reply_error(&Refused::UnknownOption, line),
        }
    }

    fn set_hash(&mut self, mib: u64) {
        let range = hash_mib();
        let mib = if mib > range.max {
            send(&format!(
                "# memory {mib}: using {} MiB, {}",
                range.max,
                hash_limit_reason()
            ));
            range.max
        } else {
            range.clamp(mib)
        };
        if self.task.is_some() {
            self.pending_hash = Some(mib);
            return;
        }
        self.hash_mib = mib;
        if let Err(shortfall) = self.search.resize_hash(mib) {
            send(&format!("# {shortfall}"));
        }
    }

    /// `egtpath syzygy PATH`: loads the Syzygy tables (when no search
    /// runs; the GUI sends it before the first game).
    fn set_egt_path(&mut self, kind: &str, path: &str) {
        if kind != "syzygy" {
            send(&format!(
                "# egtpath {kind}: only syzygy tables are supported"
            ));
        } else if self.task.is_some() {
            send("# egtpath: not while thinking; send it again when idle");
        } else {
            for message in self.search.load_tablebases(path) {
                send(&format!("# {message}"));
            }
        }
    }

    /// `cores N`: search with N threads (Lazy SMP), within the range of
    /// the UCI option `Threads`. Applied when no search runs.
    fn set_cores(&mut self, cores: u64) {
        let range = THREADS;
        let clamped = range.clamp(cores);
        if clamped != cores {
            send(&format!(
                "# cores {cores}: using {clamped} ({}..{})",
                range.min, range.max
            ));
        }
        let threads = usize::try_from(clamped).unwrap_or(1);
        if self.task.is_some() {
            self.pending_threads = Some(threads);
            return;
        }
        self.search.set_threads(threads);
    }

    /// Starts choosing a move if the engine is to move in a live game; if
    /// the game is over by rule, announces the result instead.
    fn start_thinking(&mut self) {
        if self.task.is_some() || self.game_over || !self.position_valid {
            return;
        }
        if self.mode != Mode::Play(self.board.side_to_move()) {
            return;
        }
        if self.announce_outcome() {
            return;
        }
        let limits = self.time_control.limits(
            self.own_ms,
            self.moves_made_by_side_to_move(),
            self.depth_limit,
            self.lag_ms,
        );
        self.spawn(TaskKind::Think, limits);
    }

    fn start_analysis(&mut self) {
        if self.task.is_none() && self.position_valid {
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            self.spawn(TaskKind::Analyze, limits);
        }
    }

    /// Moves the searcher onto a new search thread.
    fn spawn(&mut self, kind: TaskKind, mut limits: Limits) {
        let started = self.line_arrived.unwrap_or_else(Instant::now);
        limits.received = Some(started);
        let id = self.next_task_id;
        self.next_task_id += 1;
        let post = Arc::clone(&self.post);
        let frc = self.frc;
        let events = self.events.clone();
        let progress = Arc::clone(&self.progress);
        if let Ok(mut p) = progress.lock() {
            *p = Progress::default();
        }
        self.root_moves = usize::try_from(count_legal(&self.board)).unwrap_or(0);
        let analysing = kind == TaskKind::Analyze;
        let overhead = MOVE_OVERHEAD_MS.max(self.lag_ms);

        let spawned = self.search.start(
            self.board.clone(),
            limits,
            overhead,
            Arc::new(SearchShared::new(false)),
            move |report| {
                if report.pv.is_empty() {
                    return;
                }
                if report.bound.is_none() {
                    if let Ok(mut p) = progress.lock() {
                        p.depth = report.depth;
                        p.nodes = report.nodes;
                        p.best = report.pv.first().map(|&mv| move_text(mv, frc));
                    }
                }
                // Analysis always shows its thinking: it has no other output.
                if analysing || post.load(Ordering::Relaxed) {
                    send(&thinking_line(report, frc));
                }
            },
            move |result| {
                let _ = events.send(Event::SearchDone(id, result.clone()));
            },
        );
        match spawned {
            Ok(()) => self.task = Some(Task { id, kind, started }),
            Err(error) => {
                send(&format!("# {error}"));
                if kind == TaskKind::Think {
                    self.play(None, 0);
                }
            }
        }
    }

    /// A search has posted `SearchDone`: play its move if it was choosing
    /// one, then join it.
    fn search_done(&mut self, id: u64, decided: SearchResult) {
        // A cancelled search's notice comes late, with a stale id.
        let Some(task) = self.task.take_if(|t| t.id == id) else {
            return;
        };
        let elapsed_ms = u64::try_from(task.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        // The move goes out first: the clock is running until it does.
        if task.kind == TaskKind::Think {
            self.play(Some(decided), elapsed_ms);
        }
        let joined = self.search.join();
        let _ = self.reclaimed(joined);
        self.flush_pongs();
    }

    /// Stops the running search, if any, without playing its move.
    fn cancel_task(&mut self) {
        if self.task.take().is_some() {
            let stopped = self.search.stop();
            let _ = self.reclaimed(stopped);
        }
        self.flush_pongs();
    }

    /// After a search thread has been joined: its result (`None` if it
    /// failed), and the `memory`/`cores` requests that waited for it.
    fn reclaimed(
        &mut self,
        joined: Option<Result<SearchResult, SearchFailed>>,
    ) -> Option<SearchResult> {
        let result = match joined {
            Some(Ok(result)) => Some(result),
            Some(Err(failure)) => {
                // A panic in the search is a bug; the game goes on with a
                // fresh searcher.
                send(&format!("# {failure}"));
                None
            }
            None => None,
        };
        if let Some(mib) = self.pending_hash.take() {
            self.set_hash(mib);
        }
        if let Some(threads) = self.pending_threads.take() {
            self.search.set_threads(threads);
        }
        result
    }

    fn flush_pongs(&mut self) {
        for n in self.deferred_pongs.drain(..) {
            send(&format!("pong {n}"));
        }
    }

    /// Plays the engine's move (or resigns), then announces the result if
    /// the move ended the game. Without a search result (a failed search)
    /// the first legal move is played so the game goes on.
    fn play(&mut self, result: Option<SearchResult>, elapsed_ms: u64) {
        if self.game_over || self.mode != Mode::Play(self.board.side_to_move()) {
            return;
        }
        let mut expected = None;
        let best = match result.filter(|r| !r.best.is_null()) {
            Some(result) => {
                // A move given without a finished iteration (a failed
                // search's fallback) has no score: none goes into the
                // resignation, draw and claim decisions.
                if result.depth > 0 {
                    self.scores.push(result.score);
                }
                expected = result.ponder;
                result.best
            }
            None => match first_legal_move(&self.board) {
                Some(mv) => mv,
                None => {
                    if let Some(outcome) = Outcome::of(&self.board) {
                        send(&outcome.to_string());
                    }
                    self.game_over = true;
                    return;
                }
            },
        };
        if self.should_resign() {
            send("resign");
            self.game_over = true;
            return;
        }
        if std::mem::take(&mut self.draw_offered) && self.accepts_draw() {
            send("offer draw");
        }
        self.moves_made = self.moves_made_by_side_to_move().saturating_add(1);
        self.last_move_clock = Some((self.own_ms, elapsed_ms));
        self.own_ms = self
            .time_control
            .clock_after_move(self.own_ms, elapsed_ms, self.moves_made);
        let text = move_text(best, self.frc);
        self.board.make_move(best);
        send(&format!("move {text}"));
        self.expected_reply = expected.map(|mv| (self.board.key().0, mv));
        self.announce_outcome();
    }

    /// The moves the side to move has made in this game (since `new` or
    /// `setboard`), which place it in a conventional control's period. Read
    /// from the board, so takebacks and moves entered in force mode (a
    /// book, the GUI's own moves) count as XBoard counts them; a count kept
    /// by the engine drifted from the GUI's, and a move it thought the last
    /// of a period was given three quarters of the clock.
    fn moves_made_by_side_to_move(&self) -> u32 {
        // Whichever side started, the side to move has made every other
        // ply of the game, rounded down.
        u32::try_from(self.board.game_ply() / 2).unwrap_or(u32::MAX)
    }

    /// `hint`: the reply the engine's last search expected, while that
    /// position is still on the board (otherwise nothing, as allowed).
    fn hint(&self) {
        let Some((key, mv)) = self.expected_reply else {
            return;
        };
        let mut moves = MoveList::new();
        generate_all(&self.board, &mut moves);
        if self.board.key().0 == key && moves.contains(&mv) {
            send(&format!("Hint: {}", move_text(mv, self.frc)));
        }
    }

    /// Announces the result if the game is over by rule, and returns whether
    /// it did. A claimable draw (repetition, fifty moves) is not claimed
    /// while the engine's last score says it is winning: it plays on.
    fn announce_outcome(&mut self) -> bool {
        let Some(outcome) = Outcome::of(&self.board) else {
            return false;
        };
        let winning = self.scores.last().is_some_and(|&s| s > CLAIM_UNLESS_ABOVE);
        if outcome.is_final() || !winning {
            send(&outcome.to_string());
            self.game_over = true;
            return true;
        }
        false
    }

    /// `time N`: the engine's clock. The first reading after an engine move
    /// tells how much the GUI charged for it; whatever the search did not
    /// use is lag, which the next moves budget for.
    fn clock_reading(&mut self, ms: u64) {
        if let Some((before, searched)) = self.last_move_clock.take() {
            if matches!(self.time_control, TimeControl::Level { .. }) {
                let credited =
                    before.saturating_add(self.time_control.credit_after_move(self.moves_made));
                let sample = credited
                    .saturating_sub(ms)
                    .saturating_sub(searched)
                    .min(MAX_LAG_MS);
                self.lag_ms = sample.max(self.lag_ms - self.lag_ms / 8);
            }
        }
        self.own_ms = ms;
    }

    /// Resign (when enabled) once mated, or after [`RESIGN_AFTER`]
    /// searches in a row at or below [`RESIGN_SCORE`].
    fn should_resign(&self) -> bool {
        if !self.resign_enabled {
            return false;
        }
        let mated = self.scores.last().is_some_and(|&s| is_mate(s) && s < 0);
        let recent = self.scores.iter().rev().take(RESIGN_AFTER);
        mated || (self.scores.len() >= RESIGN_AFTER && recent.clone().all(|&s| s <= RESIGN_SCORE))
    }

    /// The draw-offer policy: accept when no side can force mate, or late
    /// in the game when the last few searches all scored close to zero.
    fn accepts_draw(&self) -> bool {
        if !self.board.can_force_mate() {
            return true;
        }
        self.board.fullmove_number() >= DRAW_ACCEPT_FROM_MOVE
            && self.scores.len() >= DRAW_ACCEPT_STABLE
            && self
                .scores
                .iter()
                .rev()
                .take(DRAW_ACCEPT_STABLE)
                .all(|&s| s.abs() <= DRAW_ACCEPT_SCORE)
    }

    /// `.` in analysis mode: `stat01: time nodes ply mvleft mvtot mvname`,
    /// from the latest finished iteration (so no moves are left at its depth).
    fn status(&self) {
        if self.mode != Mode::Analyze {
            return;
        }
        let centis = self
            .task
            .as_ref()
            .map_or(0, |t| t.started.elapsed().as_millis() / 10);
        let progress = self.progress.lock().map(|p| p.clone()).unwrap_or_default();
        let mut line = format!(
            "stat01: {centis} {} {} 0 {}",
            progress.nodes, progress.depth, self.root_moves
        );
        if let Some(best) = progress.best {
            line.push(' ');
            line.push_str(&best);
        }
        send(&line);
    }
}

/// GUI input shortened for echoing.
fn clip(text: &str) -> String {
    text.trim().chars().take(MAX_ECHO_CHARS).collect()
}

/// Why the engine refused a command that parsed (a [`CommandError`] is
/// why one did not).
#[derive(Debug)]
enum Refused {
    /// `variant` with a variant other than `normal` and `fischerandom`.
    UnsupportedVariant,
    /// A command that needs a position after a rejected `setboard`.
    NoValidPosition,
    /// `undo`/`remove` with fewer moves played than asked.
    NoMoveToTakeBack,
    /// `option Resign=` with a value other than 0 or 1.
    BadOptionValue,
    /// `option` with a name the engine did not declare.
    UnknownOption,
    /// `setboard` with a FEN that is not a legal position.
    IllegalPosition(FenError),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnsupportedVariant => f.write_str("unsupported variant"),
            Self::NoValidPosition => f.write_str("no valid position"),
            Self::NoMoveToTakeBack => f.write_str("no move to take back"),
            Self::BadOptionValue => f.write_str("bad option value: expected 0 or 1"),
            Self::UnknownOption => f.write_str("unknown option"),
            Self::IllegalPosition(error) => write!(f, "illegal position: {error}"),
        }
    }
}

/// `Error (<reason>): <command>`.
fn reply_error(reason: &dyn fmt::Display, line: &str) {
    send(&format!("Error ({reason}): {}", clip(line)));
}

/// Reads lines into events until end of input.
fn read_lines(input: impl BufRead, events: &Sender<Event>) {
    let mut reader = LineReader::new(input, MAX_LINE_BYTES);
    while let Some(line) = reader.next_line() {
        let event = if reader.last_line_was_cut() {
            Event::LineTooLong(line)
        } else {
            Event::Line(line, Instant::now())
        };
        if events.send(event).is_err() {
            return;
        }
    }
    let _ = events.send(Event::Eof);
}

/// Runs a CECP connection on `input` until `quit` or the end of input.
pub fn run(input: impl BufRead + Send + 'static) {
    let (events, receiver) = mpsc::channel();
    let reader_events = events.clone();
    let reader = thread::Builder::new()
        .name("xboard-input".into())
        .spawn(move || read_lines(input, &reader_events));
    if let Err(error) = reader {
        send(&format!("# cannot start the input thread: {error}"));
        return;
    }
    Engine::new(events).run(&receiver);
}

/// Runs a CECP connection on stdin.
pub fn run_stdio() {
    run(io::BufReader::new(io::stdin()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features() {
        let line = feature_line();
        for feature in [
            "setboard=1",
            "usermove=1",
            "ping=1",
            "sigint=0",
            "sigterm=0",
            "colors=0",
            "analyze=1",
            "memory=1",
            "smp=1",
            "variants=\"normal,fischerandom\"",
            "option=\"UseNNUE -check ",
        ] {
            assert!(line.contains(feature), "{feature}");
        }
        assert!(line.starts_with("feature myname=\"Kiln "));
        assert!(line.ends_with(" done=1"));
    }

    /// The moves that place the side to move in a conventional control's
    /// period come from the game on the board: moves entered in force mode
    /// count, and a takeback takes them back.
    #[test]
    fn the_period_count_follows_the_game_through_force_and_undo() {
        let (events, _receiver) = mpsc::channel();
        let mut engine = Engine::new(events);
        for line in ["new", "force", "level 40 5 0"] {
            assert!(engine.handle_line(line));
        }
        assert_eq!(engine.moves_made_by_side_to_move(), 0);
        for line in ["e2e4", "e7e5", "g1f3"] {
            assert!(engine.handle_line(line));
        }
        // Black to move has made one move of the game, White two.
        assert_eq!(engine.moves_made_by_side_to_move(), 1);
        assert!(engine.handle_line("undo"));
        assert_eq!(engine.moves_made_by_side_to_move(), 1);
        assert!(engine.handle_line("remove"));
        assert_eq!(engine.moves_made_by_side_to_move(), 0);
        assert!(engine.handle_line("setboard 4k3/8/8/8/8/8/8/4K2R b K - 10 40"));
        assert_eq!(engine.moves_made_by_side_to_move(), 0);
    }
}
