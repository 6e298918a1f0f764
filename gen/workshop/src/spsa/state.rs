//! The state file of an SPSA tune: its settings, then one line for every
//! finished iteration, appended and synced as soon as the iteration's
//! games are counted, so a tune that is stopped keeps every finished
//! iteration and goes on from the last.
//!
//! ```text
//! kiln-workshop spsa state 1
//! limit clock 5+0.05
//! hash 16
//! iterations 2000
//! pairs-per 8
//! alpha 0.602
//! gamma 0.101
//! a-ratio 0.1
//! seed 1
//! engine Kiln 0.2.0 (tables 82778184884257/0ddc6df4e715dcdc, net 086584763a7948c8)
//! bench 855992
//! book 5c1d2e3f4a5b6c7d
//! parameter rfp_margin, int, 75, 35, 150, 5.75, 0.002
//! parameter lmr_base_centi, int, 75, 35, 150, 5.75, 0.002
//! # iteration wins losses draws forfeits, then rfp_margin lmr_base_centi after the step
//! iteration 1 6 4 6 0 75.91 74.08
//! ```
//!
//! Values are written with Rust's shortest round-trip formatting, so a
//! resumed tune goes on from exactly the numbers it stopped with. An
//! iteration's line without its newline at the end of the file may have
//! been cut short (a value cut short still reads as a number): it is
//! dropped, said so, and the iteration played again. Any other damage is
//! refused with the line's number.
//!
//! One run at a time plays a tune: [`TuneLock`] holds a lock on
//! `<file>.lock` for as long as the run, or a fastchess it started, lives.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use kiln_format::{FileAction, FileError};

use super::limit::Limit;
use super::schedule::{Parameter, Schedule};

/// The first line of every state file (the number is the format's
/// version).
const MAGIC: &str = "kiln-workshop spsa state 1";

/// What a tune is, fixed when it starts: how each game is played, its
/// schedule, its seed and its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// How long each game may take.
    pub limit: Limit,
    /// The engines' hash table, MiB.
    pub hash: u64,
    /// Iterations, game pairs an iteration, and the decay.
    pub schedule: Schedule,
    /// Seeds the perturbations and the choice of openings.
    pub seed: u64,
    /// What is tuned, with the values it started from.
    pub parameters: Vec<Parameter>,
    /// The engine and openings the tune started with.
    pub origin: Origin,
}

/// The engine and the openings a tune's games are played with, recorded
/// when it starts so that a run going on with others is refused. `None` in
/// the files of tunes begun before they were recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// The engine's `id name` (Kiln's names its version, tables and
    /// network).
    pub engine: Option<String>,
    /// The engine's bench signature, the node count of `<engine> bench`:
    /// it tells apart builds whose search or evaluation differ under the
    /// same `id name`.
    pub bench: Option<String>,
    /// The book's fingerprint: 64-bit FNV-1a of its bytes, in hex.
    pub book: Option<String>,
}

/// One finished iteration.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// Its number, from 1.
    pub iteration: u64,
    /// Games the `+` side won.
    pub wins: u64,
    /// Games the `+` side lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost on time, by an illegal move or by an engine that
    /// stopped answering (either side).
    pub forfeits: u64,
    /// Every parameter's value after the iteration's step.
    pub values: Vec<f64>,
}

/// A tune as its file holds it.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Its settings.
    pub settings: Settings,
    /// Its finished iterations, in order.
    pub records: Vec<Record>,
}

impl State {
    /// The parameters' values now: after the last finished iteration, or
    /// the start values.
    pub fn values(&self) -> Vec<f64> {
        match self.records.last() {
            Some(record) => record.values.clone(),
            None => self.settings.parameters.iter().map(|p| p.start).collect(),
        }
    }

    /// Iterations finished.
    pub fn done(&self) -> u64 {
        self.records.len() as u64
    }

    /// Wins, losses, draws and forfeits over all finished iterations
    /// (wins and losses of the `+` sides).
    pub fn totals(&self) -> (u64, u64, u64, u64) {
        self.records.iter().fold((0, 0, 0, 0), |(w, l, d, f), r| {
            // Saturating: the counts come from a file a hand may have edited.
            (
                w.saturating_add(r.wins),
                l.saturating_add(r.losses),
                d.saturating_add(r.draws),
                f.saturating_add(r.forfeits),
            )
        })
    }
}

/// Why a state file could not be used.
#[derive(Debug)]
pub enum StateError {
    /// Reading, writing or locking it (or its lock file) failed.
    File(FileError),
    /// Another run is playing the tune (it holds the lock).
    Busy {
        /// The lock file.
        lock: PathBuf,
    },
    /// Its text is not a state file, or is damaged.
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line at fault, from 1.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::File(err) => write!(f, "{err}"),
            StateError::Busy { lock } => write!(
                f,
                "another run is playing this tune ({} is locked; a killed run's fastchess \
                 may still be finishing its games)",
                lock.display()
            ),
            StateError::Malformed { path, line, reason } => {
                write!(f, "{} line {line}: {reason}", path.display())
            }
        }
    }
}

impl std::error::Error for StateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StateError::File(err) => Some(err),
            StateError::Malformed { .. } | StateError::Busy { .. } => None,
        }
    }
}

impl From<FileError> for StateError {
    fn from(err: FileError) -> Self {
        StateError::File(err)
    }
}

/// The header of a state file for `settings`.
fn header(settings: &Settings) -> String {
    let schedule = &settings.schedule;
    let mut text = format!(
        "{MAGIC}\nlimit {}\nhash {}\niterations {}\npairs-per {}\nalpha {}\ngamma {}\na-ratio {}\nseed {}\n",
        settings.limit.record(),
        settings.hash,
        schedule.iterations,
        schedule.pairs_per,
        schedule.alpha,
        schedule.gamma,
        schedule.a_ratio,
        settings.seed,
    );
    if let Some(engine) = &settings.origin.engine {
        text += &format!("engine {engine}\n");
    }
    if let Some(bench) = &settings.origin.bench {
        text += &format!("bench {bench}\n");
    }
    if let Some(book) = &settings.origin.book {
        text += &format!("book {book}\n");
    }
    for parameter in &settings.parameters {
        text += &format!("parameter {}\n", parameter.input_line());
    }
    let names: Vec<&str> = settings
        .parameters
        .iter()
        .map(|p| p.name.as_str())
        .collect();
    text += &format!(
        "# iteration wins losses draws forfeits, then {} after the step\n",
        names.join(" ")
    );
    text
}

/// A record as its line (with the newline).
fn record_line(record: &Record) -> String {
    let mut line = format!(
        "iteration {} {} {} {} {}",
        record.iteration, record.wins, record.losses, record.draws, record.forfeits
    );
    for value in &record.values {
        line += &format!(" {value}");
    }
    line.push('\n');
    line
}

/// Writes `text` to `path` so that the file is either the old one or the
/// new one, never half of each.
fn write_atomically(path: &Path, text: &str) -> Result<(), StateError> {
    Ok(kiln_format::write_atomically(path, text.as_bytes())?)
}

/// The lock that keeps a second run off a tune: an exclusive lock on
/// `<state file>.lock`, released when the run and every fastchess it
/// started have exited (each fastchess gets the lock file as its standard
/// input, so a fastchess left playing by a killed run still holds it).
#[derive(Debug)]
pub struct TuneLock {
    file: File,
}

impl TuneLock {
    /// Takes the lock of the tune at `state`.
    ///
    /// # Errors
    /// [`StateError::Busy`] when another run holds it; the lock file
    /// cannot be opened.
    pub fn take(state: &Path) -> Result<TuneLock, StateError> {
        match crate::lock_file::try_lock_beside(state)? {
            Some(file) => Ok(TuneLock { file }),
            None => Err(StateError::Busy {
                lock: crate::lock_file::lock_path(state),
            }),
        }
    }

    /// Another handle on the locked file, for a child to hold the lock
    /// with.
    ///
    /// # Errors
    /// The handle cannot be duplicated.
    pub fn share(&self) -> io::Result<File> {
        self.file.try_clone()
    }
}

/// A state file open for appending finished iterations (under its
/// [`TuneLock`]).
#[derive(Debug)]
pub struct StateFile {
    path: PathBuf,
    state: State,
}

impl StateFile {
    /// Starts a new tune's file at `path` (which must not exist yet).
    ///
    /// # Errors
    /// The file exists or cannot be written.
    pub fn create(
        path: &Path,
        settings: Settings,
        _lock: &TuneLock,
    ) -> Result<StateFile, StateError> {
        if path.exists() {
            let exists = io::Error::new(io::ErrorKind::AlreadyExists, "already exists");
            return Err(FileError::on(FileAction::Create, path)(exists).into());
        }
        write_atomically(path, &header(&settings))?;
        Ok(StateFile {
            path: path.to_path_buf(),
            state: State {
                settings,
                records: Vec::new(),
            },
        })
    }

    /// Opens an existing tune's file to go on with it. An iteration's
    /// line cut short at the end is dropped from the file; the returned
    /// note says so.
    ///
    /// # Errors
    /// The file cannot be read or rewritten, or is not a state file.
    pub fn open(path: &Path, _lock: &TuneLock) -> Result<(StateFile, Option<String>), StateError> {
        let text = fs::read_to_string(path).map_err(FileError::on(FileAction::Read, path))?;
        let (state, kept, note) = read(path, &text)?;
        if note.is_some() {
            write_atomically(path, kept)?;
        }
        let file = StateFile {
            path: path.to_path_buf(),
            state,
        };
        Ok((file, note))
    }

    /// The tune as the file holds it.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Appends a finished iteration and syncs it to the disk.
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn append(&mut self, record: Record) -> Result<(), StateError> {
        let mut file = OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(FileError::on(FileAction::Open, &self.path))?;
        file.write_all(record_line(&record).as_bytes())
            .and_then(|()| file.sync_data())
            .map_err(FileError::on(FileAction::Write, &self.path))?;
        self.state.records.push(record);
        Ok(())
    }
}

/// Reads a tune's file without changing it (an iteration's line cut short
/// at the end is left out; the note says so).
///
/// # Errors
/// The file cannot be read or is not a state file.
pub fn load(path: &Path) -> Result<(State, Option<String>), StateError> {
    let text = fs::read_to_string(path).map_err(FileError::on(FileAction::Read, path))?;
    let (state, _, note) = read(path, &text)?;
    Ok((state, note))
}

/// The state in `text`, the part of `text` it comes from, and a note when
/// an unfinished iteration's line at the end was left out.
fn read<'a>(path: &Path, text: &'a str) -> Result<(State, &'a str, Option<String>), StateError> {
    let complete_end = text.rfind('\n').map_or(0, |end| end + 1);
    let (complete, tail) = text.split_at(complete_end);
    let note = if tail.is_empty() {
        None
    } else if tail.starts_with("iteration ") {
        Some(format!(
            "left out the unfinished last line of {} ('{}'): that iteration is played again",
            path.display(),
            tail.chars().take(40).collect::<String>()
        ))
    } else {
        // Only an append can be cut short; anything else is damage.
        return Err(StateError::Malformed {
            path: path.to_path_buf(),
            line: complete.lines().count() + 1,
            reason: "the file ends inside a line that is not an iteration's".to_string(),
        });
    };
    Ok((parse(path, complete)?, complete, note))
}

/// Reads a state file's text.
fn parse(path: &Path, text: &str) -> Result<State, StateError> {
    let malformed = |line: usize, reason: String| StateError::Malformed {
        path: path.to_path_buf(),
        line,
        reason,
    };
    let mut lines = text.lines().enumerate().map(|(i, line)| (i + 1, line));
    match lines.next() {
        Some((_, MAGIC)) => {}
        _ => return Err(malformed(1, format!("not a state file (no '{MAGIC}')"))),
    }
    let mut field = |key: &str| -> Result<(usize, &str), StateError> {
        let Some((n, line)) = lines.next() else {
            return Err(malformed(0, format!("ends before '{key}'")));
        };
        match line
            .strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
        {
            Some(value) => Ok((n, value)),
            None => Err(malformed(n, format!("expected '{key} ...'"))),
        }
    };
    // The command line's ranges hold here too: a file edited by hand must
    // not start a tune the command line would refuse.
    let whole = |(n, text): (usize, &str), range: RangeInclusive<u64>| match text.parse::<u64>() {
        Ok(x) if range.contains(&x) => Ok(x),
        _ => Err(malformed(
            n,
            format!(
                "'{text}' is not a whole number in {}..={}",
                range.start(),
                range.end()
            ),
        )),
    };
    let real = |(n, text): (usize, &str), max: f64| match text.parse::<f64>() {
        Ok(x) if (0.0..=max).contains(&x) => Ok(x),
        _ => Err(malformed(
            n,
            format!("'{text}' is not a number in 0..={max}"),
        )),
    };
    let (limit_line, limit_text) = field("limit")?;
    let limit = Limit::from_record(limit_text)
        .ok_or_else(|| malformed(limit_line, format!("'{limit_text}' is not a limit")))?;
    let hash = whole(field("hash")?, super::HASH_RANGE)?;
    let iterations = whole(field("iterations")?, super::ITERATIONS_RANGE)?;
    let pairs_per = whole(field("pairs-per")?, super::PAIRS_RANGE)?;
    let alpha = real(field("alpha")?, super::MAX_EXPONENT)?;
    let gamma = real(field("gamma")?, super::MAX_EXPONENT)?;
    let a_ratio = real(field("a-ratio")?, super::MAX_A_RATIO)?;
    let seed = whole(field("seed")?, 0..=u64::MAX)?;
    let mut parameters = Vec::new();
    let mut records = Vec::new();
    let mut origin = Origin::default();
    for (n, line) in lines {
        let origin_field = match line.split_once(' ') {
            Some(("engine", value)) => Some((&mut origin.engine, value)),
            Some(("bench", value)) => Some((&mut origin.bench, value)),
            Some(("book", value)) => Some((&mut origin.book, value)),
            _ => None,
        };
        if let Some((field, value)) = origin_field {
            if !parameters.is_empty() || field.is_some() {
                return Err(malformed(n, format!("'{line}' out of place or repeated")));
            }
            *field = Some(value.to_string());
        } else if let Some(input) = line.strip_prefix("parameter ") {
            if !records.is_empty() {
                return Err(malformed(n, "a parameter after the iterations".to_string()));
            }
            parameters.push(Parameter::parse(input).map_err(|reason| malformed(n, reason))?);
        } else if line.starts_with('#') || line.trim().is_empty() {
            continue;
        } else if let Some(rest) = line.strip_prefix("iteration ") {
            let words: Vec<&str> = rest.split_whitespace().collect();
            if words.len() != 5 + parameters.len() {
                return Err(malformed(
                    n,
                    format!(
                        "{} numbers where an iteration has {}",
                        words.len(),
                        5 + parameters.len()
                    ),
                ));
            }
            let count = |i: usize| -> Result<u64, StateError> {
                words[i]
                    .parse()
                    .map_err(|_| malformed(n, format!("'{}' is not a count", words[i])))
            };
            let record = Record {
                iteration: count(0)?,
                wins: count(1)?,
                losses: count(2)?,
                draws: count(3)?,
                forfeits: count(4)?,
                values: words[5..]
                    .iter()
                    .map(|w| match w.parse::<f64>() {
                        Ok(x) if x.is_finite() => Ok(x),
                        _ => Err(malformed(n, format!("'{w}' is not a value"))),
                    })
                    .collect::<Result<_, _>>()?,
            };
            if record.iteration != records.len() as u64 + 1 {
                return Err(malformed(
                    n,
                    format!(
                        "iteration {} where {} comes next",
                        record.iteration,
                        records.len() + 1
                    ),
                ));
            }
            records.push(record);
        } else {
            return Err(malformed(n, format!("unexpected line '{line}'")));
        }
    }
    if parameters.is_empty() {
        return Err(malformed(0, "no parameters".to_string()));
    }
    let schedule = Schedule {
        iterations,
        pairs_per,
        alpha,
        gamma,
        a_ratio,
    };
    if records.len() as u64 > iterations {
        return Err(malformed(
            0,
            format!("{} iterations in a tune of {iterations}", records.len()),
        ));
    }
    Ok(State {
        settings: Settings {
            limit,
            hash,
            schedule,
            seed,
            parameters,
            origin,
        },
        records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings {
            limit: Limit::clock("5+0.05").unwrap(),
            hash: 16,
            schedule: Schedule::with_defaults(20, 4),
            seed: 11,
            parameters: vec![
                Parameter::parse("rfp_margin, int, 75, 35, 150, 5.75, 0.002").unwrap(),
                Parameter::parse("lmr_base_centi, int, 75, 35, 150, 5.75, 0.002").unwrap(),
            ],
            origin: Origin {
                engine: Some("Kiln 0.2.0 (net 086584763a7948c8)".to_string()),
                bench: Some("855992".to_string()),
                book: Some("cbf29ce484222325".to_string()),
            },
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("kiln-spsa-state-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir.join("tune.spsa")
    }

    fn record(iteration: u64, values: Vec<f64>) -> Record {
        Record {
            iteration,
            wins: 3,
            losses: 2,
            draws: 3,
            forfeits: 0,
            values,
        }
    }

    #[test]
    fn a_tune_survives_its_file_exactly() {
        let path = scratch("round-trip");
        let lock = TuneLock::take(&path).unwrap();
        let mut file = StateFile::create(&path, settings(), &lock).unwrap();
        assert!(
            StateFile::create(&path, settings(), &lock).is_err(),
            "no overwrite"
        );
        file.append(record(1, vec![75.1 + 1e-13, 74.0 / 3.0]))
            .unwrap();
        file.append(record(2, vec![76.25, 73.5])).unwrap();
        let (opened, note) = StateFile::open(&path, &lock).unwrap();
        assert_eq!(note, None);
        assert_eq!(opened.state(), file.state());
        assert_eq!(load(&path).unwrap(), (file.state().clone(), None));
        assert_eq!(opened.state().values(), vec![76.25, 73.5]);
        assert_eq!(opened.state().totals(), (6, 4, 6, 0));
        let nodes = Settings {
            limit: Limit::Nodes(3000),
            ..settings()
        };
        let path = scratch("nodes");
        let lock = TuneLock::take(&path).unwrap();
        StateFile::create(&path, nodes.clone(), &lock).unwrap();
        assert_eq!(load(&path).unwrap().0.settings, nodes);
        // A tune begun before the engine, its bench and the book were
        // recorded reads without them.
        let text = fs::read_to_string(&path).unwrap();
        let older: String = text
            .lines()
            .filter(|line| {
                !["engine ", "bench ", "book "]
                    .iter()
                    .any(|field| line.starts_with(field))
            })
            .map(|line| format!("{line}\n"))
            .collect();
        assert_ne!(older, text);
        fs::write(&path, older).unwrap();
        let origin = load(&path).unwrap().0.settings.origin;
        assert_eq!(origin, Origin::default());
    }

    #[test]
    fn a_line_cut_short_is_dropped_and_played_again() {
        let path = scratch("cut");
        let lock = TuneLock::take(&path).unwrap();
        let mut file = StateFile::create(&path, settings(), &lock).unwrap();
        file.append(record(1, vec![75.5, 74.5])).unwrap();
        let whole = fs::read_to_string(&path).unwrap();
        let cut = format!("{whole}iteration 2 1 0");
        fs::write(&path, &cut).unwrap();
        // Showing leaves the file alone...
        let (state, note) = load(&path).unwrap();
        assert!(note.unwrap().contains("iteration 2 1 0"));
        assert_eq!(state.done(), 1);
        assert_eq!(fs::read_to_string(&path).unwrap(), cut);
        // ...going on drops the line.
        let (opened, note) = StateFile::open(&path, &lock).unwrap();
        assert!(note.unwrap().contains("iteration 2 1 0"));
        assert_eq!(opened.state().done(), 1);
        assert_eq!(fs::read_to_string(&path).unwrap(), whole);
        // Only an iteration's line can be cut short by an append.
        let header = &whole[..whole.find("iteration 1").unwrap()];
        fs::write(&path, header.trim_end()).unwrap();
        assert!(matches!(
            load(&path),
            Err(StateError::Malformed { line: 15, .. })
        ));
    }

    #[test]
    fn one_run_at_a_time_plays_a_tune() {
        let path = scratch("lock");
        let lock = TuneLock::take(&path).unwrap();
        assert!(matches!(
            TuneLock::take(&path),
            Err(StateError::Busy { .. })
        ));
        // A shared handle (fastchess's) keeps it after the run lets go.
        let shared = lock.share().unwrap();
        drop(lock);
        assert!(matches!(
            TuneLock::take(&path),
            Err(StateError::Busy { .. })
        ));
        drop(shared);
        assert!(TuneLock::take(&path).is_ok());
    }

    #[test]
    fn damaged_files_name_the_line() {
        let path = scratch("damaged");
        let lock = TuneLock::take(&path).unwrap();
        StateFile::create(&path, settings(), &lock).unwrap();
        let whole = fs::read_to_string(&path).unwrap();
        for (text, line, why) in [
            ("something else\n".to_string(), 1, "not a state file"),
            (whole.replace("hash 16", "hash x"), 3, "not a whole number"),
            (
                whole.replace("pairs-per 4", "pairs-per 0"),
                5,
                "not a whole number",
            ),
            (whole.replace("alpha 0.602", "alpha NaN"), 6, "not a number"),
            (
                whole.replace("limit clock 5+0.05", "limit fast"),
                2,
                "not a limit",
            ),
            (
                format!("{whole}iteration 2 1 1 1 0 75 75\n"),
                16,
                "comes next",
            ),
            (format!("{whole}iteration 1 1 1 1 0 75\n"), 16, "numbers"),
            (
                format!("{whole}iteration 1 1 1 1 0 75 NaN\n"),
                16,
                "not a value",
            ),
            (format!("{whole}bogus\n"), 16, "unexpected"),
            // The engine, its bench and the book come once, before the
            // parameters.
            (
                format!("{whole}book 0000000000000001\n"),
                16,
                "out of place",
            ),
            (
                whole.replace("book cbf", "engine Kiln\nbook cbf"),
                12,
                "repeated",
            ),
            (
                whole.replace("book cbf", "bench 1\nbook cbf"),
                12,
                "repeated",
            ),
        ] {
            fs::write(&path, &text).unwrap();
            match StateFile::open(&path, &lock) {
                Err(StateError::Malformed {
                    line: at, reason, ..
                }) => {
                    assert_eq!(at, line, "{reason}");
                    assert!(reason.contains(why), "{reason}");
                }
                other => panic!("{text}: {other:?}"),
            }
        }
    }
}
