//! The output of a run: a self-play shard, its games written in game order
//! by the threads that play them.
//!
//! Threads take game numbers in turn and play them in parallel; a finished
//! game waits in a small reorder buffer until every earlier game is
//! written, then is written and flushed. A thread does not start a game
//! more than [`WINDOW_PER_THREAD`] × threads ahead of the first game not
//! yet written, which bounds the buffer, and so what a kill can lose.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use super::DatagenError;
use super::options::Options;
use super::play::{Setup, opponent_color, play_game};
use crate::uci_client::UciClient;
use kiln_board::Color;
use kiln_format::game::{Game, GameFileError, GameReader, GameWriter, Header};

/// Games a thread may run ahead of the first game not yet written, per
/// thread: room for a long game to finish while the others go on.
const WINDOW_PER_THREAD: u64 = 4;

/// What the output file held when the run started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Held {
    /// Whole games.
    pub games: u64,
    /// Their positions (plies).
    pub positions: u64,
}

/// How often the output is synced to the disk while games are written.
const SYNC_INTERVAL: Duration = Duration::from_secs(10);

/// The lock of `--out` ([`crate::lock_file`]), held for the whole run: a
/// second run on the same file would cut it back under the first
/// (resuming drops a game cut short) and write its games over the first
/// run's.
pub(super) struct OutputLock {
    _file: std::fs::File,
}

/// Takes the lock of `--out`.
///
/// # Errors
/// [`DatagenError::Busy`] when another run holds it; the lock file cannot
/// be opened or locked.
pub(super) fn lock_output(options: &Options) -> Result<OutputLock, DatagenError> {
    match crate::lock_file::try_lock_beside(std::path::Path::new(&options.out))? {
        Some(file) => Ok(OutputLock { _file: file }),
        None => Err(DatagenError::Busy {
            path: options.out.clone(),
        }),
    }
}

/// Opens `--out`: continued when it holds games of this seed (a game cut
/// short at its end dropped), else created with the header of this seed's
/// shard; returns the writer and what the file holds.
///
/// # Errors
/// The file cannot be read or written, holds corrupt games, or holds
/// something other than this seed's games and `--overwrite` is not given.
pub(super) fn open_output(options: &Options) -> Result<(GameWriter, Held), DatagenError> {
    let path = &options.out;
    // An empty file (a shell's `>`, a kill before the header) holds nothing
    // to keep.
    let holds_bytes = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
    if holds_bytes && !options.overwrite {
        let not_resumable = |detail: String| DatagenError::NotResumable {
            path: path.clone(),
            detail,
        };
        let header = match GameReader::open(path) {
            Ok(reader) => reader.header(),
            Err(GameFileError::Corrupt { detail, .. }) => return Err(not_resumable(detail)),
            Err(error) => return Err(DatagenError::Output(error)),
        };
        match header.shard_seed {
            Some(seed) if seed == options.seed => {
                if let Some(recipe) = header.recipe {
                    let ours = options.recipe()?;
                    if recipe != ours {
                        return Err(not_resumable(format!(
                            "it was begun with other self-play settings, another network or \
                             an engine that searches differently (recipe {recipe:016x}, this \
                             run's {ours:016x}): give the command it was begun with, with its \
                             engine, or another --out"
                        )));
                    }
                }
            }
            Some(seed) => {
                return Err(not_resumable(format!(
                    "it holds the games of seed {seed}, not {}",
                    options.seed
                )));
            }
            None => {
                return Err(not_resumable(
                    "its games are not a self-play shard (merged or converted)".into(),
                ));
            }
        }
        let (writer, found) = GameWriter::resume(path).map_err(DatagenError::Output)?;
        let held = Held {
            games: found.games,
            positions: found.positions,
        };
        return Ok((writer, held));
    }
    let header = Header {
        shard_seed: Some(options.seed),
        recipe: Some(options.recipe()?),
    };
    let mut writer = GameWriter::create(path, header)?;
    // The header on disk at once: a run killed, or a machine stopped,
    // before its first game leaves a file the next run continues.
    writer.sync()?;
    Ok((writer, Held::default()))
}

/// The games of a run and where they stand, shared by its threads.
pub(super) struct Shard {
    state: Mutex<State>,
    /// Signalled when a game is written or the run ends.
    changed: Condvar,
    /// Set when the run has what it needs or failed: games in progress
    /// stop.
    pub abort: AtomicBool,
    /// Games in the file (for progress).
    pub games: AtomicU64,
    /// Positions in the file (for progress).
    pub positions: AtomicU64,
    /// With an opponent: games written by this run, and Kiln's half
    /// points in them.
    pub opponent_games: AtomicU64,
    /// See [`opponent_games`](Self::opponent_games).
    pub kiln_half_points: AtomicU64,
    /// Most games started ahead of the first not yet written.
    window: u64,
    /// Stop once the file holds this many games...
    target_games: Option<u64>,
    /// ...or this many positions.
    target_positions: Option<u64>,
    /// Whether an opponent plays (Kiln's score is counted).
    opponent: bool,
}

/// The part of a [`Shard`] behind its lock.
struct State {
    /// The next game number to hand out.
    next_to_play: u64,
    /// The game number the file needs next.
    next_to_write: u64,
    /// Finished games waiting for an earlier one.
    waiting: BTreeMap<u64, Game>,
    writer: GameWriter,
    /// Positions in the file.
    positions: u64,
    /// The run is over: its targets are reached, or it failed.
    over: bool,
    /// Why it failed (the first reason).
    error: Option<DatagenError>,
    /// When the file was last synced to the disk.
    synced: Instant,
}

impl Shard {
    /// A run writing to `writer`, which holds `held` already.
    pub(super) fn new(writer: GameWriter, held: Held, options: &Options) -> Shard {
        let shard = Shard {
            state: Mutex::new(State {
                next_to_play: held.games,
                next_to_write: held.games,
                waiting: BTreeMap::new(),
                writer,
                positions: held.positions,
                over: false,
                error: None,
                synced: Instant::now(),
            }),
            changed: Condvar::new(),
            abort: AtomicBool::new(false),
            games: AtomicU64::new(held.games),
            positions: AtomicU64::new(held.positions),
            opponent_games: AtomicU64::new(0),
            kiln_half_points: AtomicU64::new(0),
            window: WINDOW_PER_THREAD * options.threads as u64,
            target_games: options.games,
            target_positions: options.positions,
            opponent: options.opponent.is_some(),
        };
        if shard.reached(held.games, held.positions) {
            shard.end();
        }
        shard
    }

    /// Whether a file of `games` games and `positions` positions is what
    /// the run is for.
    fn reached(&self, games: u64, positions: u64) -> bool {
        self.target_games.is_some_and(|g| games >= g)
            || self.target_positions.is_some_and(|p| positions >= p)
    }

    /// The state, even if a thread panicked holding it: every change to
    /// it is complete before anything that could panic.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Ends the run: no game starts, games in progress stop.
    fn end(&self) {
        self.lock().over = true;
        self.abort.store(true, Ordering::Relaxed);
        self.changed.notify_all();
    }

    /// The number of the next game to play, waiting while the reorder
    /// buffer is full; `None` once no more games are needed.
    pub(super) fn take(&self) -> Option<u64> {
        let mut state = self.lock();
        loop {
            if state.over {
                return None;
            }
            let game = state.next_to_play;
            if self.target_games.is_some_and(|g| game >= g) {
                return None;
            }
            if game < state.next_to_write + self.window {
                state.next_to_play += 1;
                return Some(game);
            }
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Hands in game number `number`, played whole, and writes every game
    /// now in order.
    pub(super) fn deliver(&self, number: u64, game: Game) {
        let mut state = self.lock();
        if state.over {
            return;
        }
        state.waiting.insert(number, game);
        let mut written = false;
        loop {
            let next = state.next_to_write;
            let Some(game) = state.waiting.remove(&next) else {
                break;
            };
            if let Err(error) = state.writer.write_game(&game) {
                state.error.get_or_insert(error.into());
                state.over = true;
                break;
            }
            written = true;
            state.next_to_write += 1;
            state.positions += game.moves.len() as u64;
            self.count(next, &game);
            if self.reached(state.next_to_write, state.positions) {
                state.over = true;
                break;
            }
        }
        if written {
            // Every game goes to the operating system at once (a killed run
            // keeps it); to the disk every SYNC_INTERVAL, so that a machine
            // that stops loses seconds of games, not the OS's whole cache.
            let kept = if state.synced.elapsed() >= SYNC_INTERVAL {
                state.synced = Instant::now();
                state.writer.sync()
            } else {
                state.writer.flush()
            };
            if let Err(error) = kept {
                state.error.get_or_insert(error.into());
                state.over = true;
            }
        }
        if state.over {
            self.abort.store(true, Ordering::Relaxed);
        }
        drop(state);
        self.changed.notify_all();
    }

    /// Counts game number `number`, just written, for the progress line.
    fn count(&self, number: u64, game: &Game) {
        self.games.fetch_add(1, Ordering::Relaxed);
        self.positions
            .fetch_add(game.moves.len() as u64, Ordering::Relaxed);
        if let (true, Some(result)) = (self.opponent, game.result()) {
            let white_half_points = result as u64;
            let kiln = match opponent_color(number) {
                Color::Black => white_half_points,
                Color::White => 2 - white_half_points,
            };
            self.kiln_half_points.fetch_add(kiln, Ordering::Relaxed);
            self.opponent_games.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Ends the run with `error` (the first one reported is kept).
    pub(super) fn fail(&self, error: DatagenError) {
        self.lock().error.get_or_insert(error);
        self.end();
    }

    /// The run's outcome once its threads are done: the positions the file
    /// holds, or the first error.
    pub(super) fn finish(self) -> Result<u64, DatagenError> {
        let mut state = self
            .state
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(error) = state.error {
            return Err(error);
        }
        state.writer.sync()?;
        Ok(state.positions)
    }
}

/// Ends the run should its thread panic (a bug), so that no other thread
/// waits forever for the game it was playing.
struct PanicGuard<'a>(&'a Shard);

impl Drop for PanicGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.end();
        }
    }
}

/// One thread of a run: plays the games [`Shard::take`] hands out (against
/// its own opponent engine, if there is one) until none are left.
pub(super) fn worker(shard: &Shard, setup: &Setup<'_>) {
    let _guard = PanicGuard(shard);
    // Started with the thread's first game: a run with nothing left to
    // play starts no engine.
    let mut opponent = None;
    while let Some(number) = shard.take() {
        if let (None, Some(path)) = (&opponent, &setup.options.opponent) {
            match UciClient::start(path, setup.options.hash_mib) {
                Ok(engine) => opponent = Some(engine),
                Err(error) => return shard.fail(error.into()),
            }
        }
        match play_game(setup, opponent.as_mut(), number) {
            Ok(Some(game)) => shard.deliver(number, game),
            Ok(None) => return,
            Err(error) => return shard.fail(error),
        }
    }
}
