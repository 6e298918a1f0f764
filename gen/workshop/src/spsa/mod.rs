//! `kiln-workshop spsa`: tunes the search's parameters by SPSA on one
//! machine, the way OpenBench tunes them on many.
//!
//! Each iteration perturbs every parameter at once (OpenBench's schedule,
//! [`schedule`]), has fastchess play the engine with `θ + c·δ` against the
//! engine with `θ − c·δ` for a few game pairs ([`games`], under a
//! [`limit`]), and moves `θ` toward the side that scored. Before any game
//! the engine is asked what it can tune ([`engine`]). The tune lives in a
//! state file ([`state`]): each finished iteration is appended and synced
//! at once, so a tune that is stopped (killed, or `--stop-after`) loses at
//! most the iteration in play and goes on from its last finished one when
//! the same command is run again; a lock keeps a second run off it.
//!
//! The engine is Kiln built with the cargo feature `spsa`, which declares
//! every search tunable as a UCI spin option and prints OpenBench's SPSA
//! input for them on `spsa` (`src/search/tunables.rs`); that input is the
//! default set of parameters. docs/search.md says how a tune is run and
//! its values written back.

pub mod engine;
pub mod games;
pub mod limit;
pub mod schedule;
pub mod state;

use std::ffi::OsString;
use std::fmt::{self, Write as _};
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use kiln::cli::{ArgError, Parsed, for_each_option};
use kiln::protocol::options::{HASH_CEILING_MIB, hash_mib};
use kiln_format::{FileAction, FileError};

use crate::progress::human_duration;

use engine::{EngineError, EngineOffer, bench_signature};
use games::{Arena, GamesError};
use limit::Limit;
use schedule::{Parameter, Perturbation, Schedule, parse_input};
use state::{Origin, Record, Settings, StateError, StateFile, TuneLock};

/// `kiln-workshop spsa --help`.
pub const USAGE: &str = "\
usage: kiln-workshop spsa --state <file> --engine <path> --fastchess <path> --book <file> [options]
       kiln-workshop spsa --state <file> --show

Tunes search parameters by SPSA as OpenBench does, with fastchess playing
the games here. The state file is the tune: it is started when it does not
exist, and otherwise goes on from its last finished iteration (run the same
command again after a stop). Every finished iteration is kept.

  --state <file>       the tune's state file (fastchess works in <file>.games/)
  --engine <path>      the engine: Kiln built with `cargo build --release --features spsa`
  --fastchess <path>   the fastchess binary (`make fastchess`)
  --book <file>        openings, EPD or PGN
  --concurrency <n>    games played at once (default 1; at most the hardware threads)
  --stop-after <n>     stop after n more iterations (default: at the end of the tune)
  --show               print the tune so far and its values; play nothing

What the tune is, fixed when it starts (given again, each must match the file):
  --params <file>      OpenBench SPSA input, one 'name, int, start, min, max,
                       c_end, r_end' a line (default: the engine's own input
                       for every tunable, from its `spsa` command)
  --tc <tc>            time control, fastchess's form (default 8+0.08)
  --nodes <n>          a fixed number of nodes a move instead of a clock
  --hash <MiB>         each engine's hash (default 16)
  --iterations <n>     iterations in the tune (default 1000)
  --pairs-per <n>      game pairs an iteration (default 8)
  --alpha <x>          learning-rate decay (default 0.602)
  --gamma <x>          perturbation decay (default 0.101)
  --a-ratio <x>        stability constant A as a fraction of the iterations (default 0.1)
  --seed <n>           perturbations and openings (default 1)";

/// What fixes a tune, as given on the command line (`None`: not given).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TuneOptions {
    /// `--params`.
    pub params: Option<String>,
    /// `--tc` or `--nodes`.
    pub limit: Option<Limit>,
    /// `--hash`.
    pub hash: Option<u64>,
    /// `--iterations`.
    pub iterations: Option<u64>,
    /// `--pairs-per`.
    pub pairs_per: Option<u64>,
    /// `--alpha`.
    pub alpha: Option<f64>,
    /// `--gamma`.
    pub gamma: Option<f64>,
    /// `--a-ratio`.
    pub a_ratio: Option<f64>,
    /// `--seed`.
    pub seed: Option<u64>,
}

/// `kiln-workshop spsa`'s command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The state file.
    pub state: String,
    /// The engine.
    pub engine: Option<String>,
    /// The fastchess binary.
    pub fastchess: Option<String>,
    /// The opening book.
    pub book: Option<String>,
    /// Games at once.
    pub concurrency: u64,
    /// Iterations to play before stopping (`None`: to the end).
    pub stop_after: Option<u64>,
    /// Print the tune and play nothing.
    pub show: bool,
    /// What fixes the tune.
    pub tune: TuneOptions,
}

/// The default time control.
const DEFAULT_TC: &str = "8+0.08";
/// The default length of a tune.
const DEFAULT_ITERATIONS: u64 = 1_000;
/// The default game pairs an iteration.
const DEFAULT_PAIRS: u64 = 8;
/// The default seed.
const DEFAULT_SEED: u64 = 1;
/// The hash sizes a state file may hold (MiB): the engine's whole range,
/// whatever this machine's memory (`--hash` itself is bounded by it, as
/// the engine's `Hash` is).
const HASH_RANGE: std::ops::RangeInclusive<u64> = 1..=HASH_CEILING_MIB;
/// `--iterations`' range.
const ITERATIONS_RANGE: std::ops::RangeInclusive<u64> = 1..=10_000_000;
/// `--pairs-per`'s range.
const PAIRS_RANGE: std::ops::RangeInclusive<u64> = 1..=100_000;
/// The largest `--alpha` and `--gamma`.
const MAX_EXPONENT: f64 = 10.0;
/// The largest `--a-ratio`.
const MAX_A_RATIO: f64 = 100.0;

impl Options {
    /// Parses the arguments after `spsa`.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut options = Options {
            state: String::new(),
            engine: None,
            fastchess: None,
            book: None,
            concurrency: 1,
            stop_after: None,
            show: false,
            tune: TuneOptions::default(),
        };
        let mut state = None;
        let mut tc = None;
        let mut nodes = None;
        let mut concurrency_given = false;
        let parsed = for_each_option(args, |flag, args| {
            let tune = &mut options.tune;
            match flag {
                "--state" => state = Some(args.value(flag)?),
                "--engine" => options.engine = Some(args.value(flag)?),
                "--fastchess" => options.fastchess = Some(args.value(flag)?),
                "--book" => options.book = Some(args.value(flag)?),
                "--concurrency" => {
                    options.concurrency = args.number(flag, 1, 1024)?;
                    concurrency_given = true;
                }
                "--stop-after" => options.stop_after = Some(args.number(flag, 1, u64::MAX)?),
                "--show" => options.show = true,
                "--params" => tune.params = Some(args.value(flag)?),
                "--tc" => {
                    let text = args.value(flag)?;
                    tc = Some(Limit::clock(&text).map_err(|reason| ArgError::BadValue {
                        what: flag.to_string(),
                        text,
                        reason,
                    })?);
                }
                "--nodes" => nodes = Some(Limit::Nodes(args.number(flag, 1, 1_000_000_000)?)),
                "--hash" => {
                    let range = hash_mib();
                    tune.hash = Some(args.number(flag, range.min, range.max)?);
                }
                "--iterations" => {
                    let (min, max) = (*ITERATIONS_RANGE.start(), *ITERATIONS_RANGE.end());
                    tune.iterations = Some(args.number(flag, min, max)?);
                }
                "--pairs-per" => {
                    let (min, max) = (*PAIRS_RANGE.start(), *PAIRS_RANGE.end());
                    tune.pairs_per = Some(args.number(flag, min, max)?);
                }
                "--alpha" => tune.alpha = Some(args.fraction(flag, 0.0, MAX_EXPONENT)?),
                "--gamma" => tune.gamma = Some(args.fraction(flag, 0.0, MAX_EXPONENT)?),
                "--a-ratio" => tune.a_ratio = Some(args.fraction(flag, 0.0, MAX_A_RATIO)?),
                "--seed" => tune.seed = Some(args.number(flag, 0, u64::MAX)?),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if parsed == Parsed::Help {
            return Ok(Parsed::Help);
        }
        options.state = state.ok_or(ArgError::Missing("--state <file>"))?;
        if tc.is_some() && nodes.is_some() {
            return Err(ArgError::Conflict("--tc", "--nodes"));
        }
        options.tune.limit = tc.or(nodes);
        if options.show {
            // Showing plays nothing: what only playing uses is refused
            // rather than ignored.
            for (given, flag) in [
                (options.engine.is_some(), "--engine"),
                (options.fastchess.is_some(), "--fastchess"),
                (options.book.is_some(), "--book"),
                (options.stop_after.is_some(), "--stop-after"),
                (concurrency_given, "--concurrency"),
            ] {
                if given {
                    return Err(ArgError::Conflict("--show", flag));
                }
            }
        } else {
            if options.engine.is_none() {
                return Err(ArgError::Missing("--engine <path>"));
            }
            if options.fastchess.is_none() {
                return Err(ArgError::Missing("--fastchess <path>"));
            }
            if options.book.is_none() {
                return Err(ArgError::Missing("--book <file>"));
            }
        }
        Ok(Parsed::Run(options))
    }
}

/// Why a tune could not go on.
#[derive(Debug)]
pub enum SpsaError {
    /// The state file.
    State(StateError),
    /// The engine's answer, or what it offers to tune.
    Engine(EngineError),
    /// fastchess or its games.
    Games(GamesError),
    /// More games at once than the machine has hardware threads (fastchess
    /// refuses them: each game would share a core).
    Concurrency {
        /// `--concurrency`.
        asked: u64,
        /// The hardware threads.
        threads: u64,
    },
    /// A file or directory the tune needs could not be found, read or
    /// made.
    File(FileError),
    /// A file given on the command line holds what cannot be used.
    Input {
        /// The path.
        path: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The command line asks for another tune than the state file holds.
    Mismatch {
        /// The option.
        option: &'static str,
        /// What the command line says.
        given: String,
        /// What the file says.
        file: String,
    },
    /// `--show` of a tune that does not exist.
    NoTune(String),
}

impl fmt::Display for SpsaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpsaError::State(err) => write!(f, "{err}"),
            SpsaError::Engine(err) => write!(f, "{err}"),
            SpsaError::Games(err) => write!(f, "{err}"),
            SpsaError::Concurrency { asked, threads } => write!(
                f,
                "--concurrency {asked} is more than this machine's {threads} hardware threads"
            ),
            SpsaError::File(err) => write!(f, "{err}"),
            SpsaError::Input { path, reason } => write!(f, "{path}: {reason}"),
            SpsaError::Mismatch {
                option,
                given,
                file,
            } => write!(
                f,
                "{option} {given} differs from the tune's state file ({file}); a tune \
                 keeps the settings it started with"
            ),
            SpsaError::NoTune(path) => write!(f, "{path}: no such tune"),
        }
    }
}

impl std::error::Error for SpsaError {}

impl From<StateError> for SpsaError {
    fn from(err: StateError) -> Self {
        SpsaError::State(err)
    }
}

impl From<FileError> for SpsaError {
    fn from(err: FileError) -> Self {
        SpsaError::File(err)
    }
}

impl From<EngineError> for SpsaError {
    fn from(err: EngineError) -> Self {
        SpsaError::Engine(err)
    }
}

impl From<GamesError> for SpsaError {
    fn from(err: GamesError) -> Self {
        SpsaError::Games(err)
    }
}

/// An existing path made absolute (fastchess runs in its own directory).
fn absolute(path: impl AsRef<Path>) -> Result<PathBuf, FileError> {
    fs::canonicalize(&path).map_err(FileError::on(FileAction::Open, path))
}

/// The parameters of a `--params` file.
fn read_params(path: &str) -> Result<Vec<Parameter>, SpsaError> {
    let text = fs::read_to_string(path).map_err(FileError::on(FileAction::Read, path))?;
    parse_input(&text).map_err(|err| SpsaError::Input {
        path: path.to_string(),
        reason: err.to_string(),
    })
}

/// The engine and openings of this run: the engine's `id name` and bench
/// signature, the book's fingerprint.
fn origin_of(offer: &EngineOffer, engine: &Path, book: &Path) -> Result<Origin, SpsaError> {
    let bytes = fs::read(book).map_err(FileError::on(FileAction::Read, book))?;
    Ok(Origin {
        engine: offer.id_name.clone(),
        bench: bench_signature(engine)?.map(|nodes| nodes.to_string()),
        book: Some(format!("{:016x}", kiln_format::net::fnv1a64(&bytes))),
    })
}

/// Checks that a tune goes on with the engine and openings it started
/// with, where its file records them.
fn check_origin(run: &Origin, file: &Origin, engine: &Path, book: &Path) -> Result<(), SpsaError> {
    // Each field as the error names it: `given` is `None` where this run's
    // engine does not say it.
    type Describe = fn(Option<&str>) -> String;
    let differs = |option,
                   path: &Path,
                   given: &Option<String>,
                   recorded: &Option<String>,
                   describe: Describe| {
        match (given, recorded) {
            (_, None) => Ok(()),
            (Some(given), Some(recorded)) if given == recorded => Ok(()),
            (given, Some(recorded)) => Err(SpsaError::Mismatch {
                option,
                given: format!("{} ({})", path.display(), describe(given.as_deref())),
                file: describe(Some(recorded)),
            }),
        }
    };
    let id_name: Describe = |value| value.unwrap_or("no id name").to_string();
    let bench: Describe = |value| value.map_or("no bench".to_string(), |n| format!("bench {n}"));
    // A run always has the book's fingerprint.
    let fingerprint: Describe = |value| value.unwrap_or_default().to_string();
    differs("--engine", engine, &run.engine, &file.engine, id_name)?;
    // The same name with another search or evaluation: a rebuild.
    differs("--engine", engine, &run.bench, &file.bench, bench)?;
    differs("--book", book, &run.book, &file.book, fingerprint)
}

/// The settings of a new tune: the command line's, the rest defaults.
fn new_settings(
    tune: &TuneOptions,
    offer: &EngineOffer,
    origin: Origin,
) -> Result<Settings, SpsaError> {
    let parameters = match &tune.params {
        Some(path) => read_params(path)?,
        None => offer.parameters()?,
    };
    let defaults = Schedule::with_defaults(DEFAULT_ITERATIONS, DEFAULT_PAIRS);
    Ok(Settings {
        limit: tune
            .limit
            .clone()
            .unwrap_or_else(|| Limit::Clock(DEFAULT_TC.to_string())),
        hash: tune.hash.unwrap_or(hash_mib().default),
        schedule: Schedule {
            iterations: tune.iterations.unwrap_or(defaults.iterations),
            pairs_per: tune.pairs_per.unwrap_or(defaults.pairs_per),
            alpha: tune.alpha.unwrap_or(defaults.alpha),
            gamma: tune.gamma.unwrap_or(defaults.gamma),
            a_ratio: tune.a_ratio.unwrap_or(defaults.a_ratio),
        },
        seed: tune.seed.unwrap_or(DEFAULT_SEED),
        parameters,
        origin,
    })
}

/// Checks that what the command line says of the tune agrees with its file.
fn check_same(tune: &TuneOptions, settings: &Settings) -> Result<(), SpsaError> {
    fn same<T: PartialEq + fmt::Display>(
        option: &'static str,
        given: Option<T>,
        file: T,
    ) -> Result<(), SpsaError> {
        match given {
            Some(given) if given != file => Err(SpsaError::Mismatch {
                option,
                given: given.to_string(),
                file: file.to_string(),
            }),
            _ => Ok(()),
        }
    }
    let schedule = &settings.schedule;
    same("--tc/--nodes", tune.limit.clone(), settings.limit.clone())?;
    same("--hash", tune.hash, settings.hash)?;
    same("--iterations", tune.iterations, schedule.iterations)?;
    same("--pairs-per", tune.pairs_per, schedule.pairs_per)?;
    same("--alpha", tune.alpha, schedule.alpha)?;
    same("--gamma", tune.gamma, schedule.gamma)?;
    same("--a-ratio", tune.a_ratio, schedule.a_ratio)?;
    same("--seed", tune.seed, settings.seed)?;
    if let Some(path) = &tune.params
        && read_params(path)? != settings.parameters
    {
        return Err(SpsaError::Mismatch {
            option: "--params",
            given: path.clone(),
            file: "other parameters".to_string(),
        });
    }
    Ok(())
}

/// The directory fastchess works in, beside the state file.
fn games_directory(state: &Path) -> PathBuf {
    let mut name = state.as_os_str().to_owned();
    name.push(".games");
    PathBuf::from(name)
}

/// Runs `kiln-workshop spsa`: plays iterations until the tune ends or
/// `--stop-after` is reached, or prints the tune (`--show`). Progress goes
/// to stderr; the returned text (the tune's values) to stdout.
///
/// # Errors
/// An [`SpsaError`] when the state file, the engine, fastchess or the
/// command line's files cannot be used.
pub fn run(options: &Options) -> Result<String, SpsaError> {
    let path = Path::new(&options.state);
    if options.show {
        if !path.exists() {
            return Err(SpsaError::NoTune(options.state.clone()));
        }
        // Read only: a running tune may be appending.
        let (state, note) = state::load(path)?;
        if let Some(note) = note {
            eprintln!("kiln-workshop spsa: {note}");
        }
        check_same(&options.tune, &state.settings)?;
        return Ok(report(&state));
    }
    let (Some(engine), Some(fastchess), Some(book)) =
        (&options.engine, &options.fastchess, &options.book)
    else {
        return Err(SpsaError::Input {
            path: options.state.clone(),
            reason: "playing needs --engine, --fastchess and --book".to_string(),
        });
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    if options.concurrency > threads {
        return Err(SpsaError::Concurrency {
            asked: options.concurrency,
            threads,
        });
    }
    let (engine, fastchess, book) = (absolute(engine)?, absolute(fastchess)?, absolute(book)?);
    let offer = EngineOffer::probe(&engine)?;
    let origin = origin_of(&offer, &engine, &book)?;
    // A new tune's parameters are checked before the lock is taken, so
    // that a tune refused at its start leaves no lock file behind.
    let fresh = |offer: &EngineOffer| -> Result<Settings, SpsaError> {
        let settings = new_settings(&options.tune, offer, origin.clone())?;
        offer.check(&settings.parameters)?;
        Ok(settings)
    };
    let new_tune = if path.exists() {
        None
    } else {
        Some(fresh(&offer)?)
    };
    let lock = TuneLock::take(path)?;
    let mut file = if path.exists() {
        let (file, note) = StateFile::open(path, &lock)?;
        if let Some(note) = note {
            eprintln!("kiln-workshop spsa: {note}");
        }
        check_same(&options.tune, &file.state().settings)?;
        check_origin(&origin, &file.state().settings.origin, &engine, &book)?;
        offer.check(&file.state().settings.parameters)?;
        let (done, last) = (
            file.state().done(),
            file.state().settings.schedule.iterations,
        );
        if done < last {
            eprintln!(
                "kiln-workshop spsa: {} goes on after iteration {done} of {last}",
                options.state
            );
        } else {
            eprintln!(
                "kiln-workshop spsa: {} is finished ({done} iterations)",
                options.state
            );
        }
        file
    } else {
        // The state file was there before the lock was taken and is gone now.
        let settings = match new_tune {
            Some(settings) => settings,
            None => fresh(&offer)?,
        };
        eprintln!(
            "kiln-workshop spsa: {} starts: {} parameters, {} iterations of {} pairs, {}",
            options.state,
            settings.parameters.len(),
            settings.schedule.iterations,
            settings.schedule.pairs_per,
            settings.limit
        );
        StateFile::create(path, settings, &lock)?
    };
    let directory = games_directory(path);
    fs::create_dir_all(&directory).map_err(FileError::on(FileAction::Create, &directory))?;
    let arena = Arena {
        engine,
        fastchess,
        book,
        concurrency: options.concurrency,
        directory: absolute(&directory)?,
    };
    let settings = file.state().settings.clone();
    let last = settings.schedule.iterations;
    let mut played = 0u64;
    let start = Instant::now();
    while file.state().done() < last && options.stop_after.is_none_or(|n| played < n) {
        let k = file.state().done() + 1;
        let values = file.state().values();
        let perturbation = Perturbation::draw(
            &settings.schedule,
            &settings.parameters,
            &values,
            settings.seed,
            k,
        );
        let tally = arena.play(&settings, &perturbation, &lock)?;
        let stepped = perturbation.step(
            &settings.schedule,
            &settings.parameters,
            &values,
            tally.wins,
            tally.losses,
        );
        file.append(Record {
            iteration: k,
            wins: tally.wins,
            losses: tally.losses,
            draws: tally.draws,
            forfeits: tally.forfeits,
            values: stepped,
        })?;
        played += 1;
        let per_iteration = start.elapsed().as_secs_f64() / played as f64;
        let (w, l, d, f) = file.state().totals();
        let forfeits = |n: u64| {
            if n > 0 {
                format!(", {n} forfeits")
            } else {
                String::new()
            }
        };
        eprintln!(
            "kiln-workshop spsa: iteration {k}/{last}: plus {}-{}-{} (won-lost-drawn){}; all {w}-{l}-{d}{}; {} an iteration, {} left",
            tally.wins,
            tally.losses,
            tally.draws,
            forfeits(tally.forfeits),
            forfeits(f),
            human_duration(per_iteration),
            human_duration(per_iteration * (last - k) as f64),
        );
    }
    Ok(report(file.state()))
}

/// The tune so far: the totals, a table of every parameter (start, now,
/// range, this point's perturbation and learning rate), and the values
/// rounded, one `name, value` a line as OpenBench prints them.
pub fn report(state: &state::State) -> String {
    let settings = &state.settings;
    let schedule = &settings.schedule;
    let (w, l, d, f) = state.totals();
    let k = (state.done() + 1).min(schedule.iterations);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# {} of {} iterations, {} games ({w} won, {l} lost, {d} drawn by the plus side; {f} forfeits), {}",
        state.done(),
        schedule.iterations,
        w + l + d,
        settings.limit
    );
    let width = settings
        .parameters
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let _ = writeln!(
        text,
        "# {:width$} {:>9} {:>9} {:>7} {:>7} {:>7} {:>9}",
        "name", "start", "now", "min", "max", "c", "r"
    );
    let values = state.values();
    for (parameter, value) in settings.parameters.iter().zip(&values) {
        let _ = writeln!(
            text,
            "# {:width$} {:>9} {:>9.2} {:>7} {:>7} {:>7.2} {:>9.5}",
            parameter.name,
            parameter.start,
            value,
            parameter.min,
            parameter.max,
            schedule.c(parameter, k),
            schedule.r(parameter, k)
        );
    }
    for (parameter, value) in settings.parameters.iter().zip(&values) {
        let _ = writeln!(text, "{}, {}", parameter.name, rounded(parameter, *value));
    }
    text
}

/// A value as the engine takes it: the nearest whole number in range.
/// (Halves round away from zero; OpenBench's Python rounds them to even.
/// Only a value exactly halfway differs, by one.)
fn rounded(parameter: &Parameter, value: f64) -> i64 {
    parameter.clip(value.round()) as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_args;

    fn parse(text: &str) -> Result<Parsed<Options>, ArgError> {
        Options::parse(split_args(text))
    }

    #[test]
    fn options_parse_with_defaults_left_to_the_file() {
        let Parsed::Run(options) =
            parse("--state t.spsa --engine k --fastchess f --book b.epd --concurrency 2").unwrap()
        else {
            panic!("help")
        };
        assert_eq!(options.concurrency, 2);
        assert_eq!(options.tune, TuneOptions::default());
        let Parsed::Run(options) = parse(
            "--state t --show --tc 5+0.05 --iterations 50 --pairs-per 4 --alpha 0.7 --seed 0x10",
        )
        .unwrap() else {
            panic!("help")
        };
        assert!(options.show);
        assert_eq!(options.tune.limit, Some(Limit::Clock("5+0.05".to_string())));
        assert_eq!(
            (
                options.tune.iterations,
                options.tune.pairs_per,
                options.tune.seed
            ),
            (Some(50), Some(4), Some(16))
        );
        assert_eq!(options.tune.alpha, Some(0.7));
        assert_eq!(parse("--help").unwrap(), Parsed::Help);
    }

    #[test]
    fn bad_command_lines_say_what_is_missing_or_wrong() {
        assert_eq!(parse("--show"), Err(ArgError::Missing("--state <file>")));
        assert_eq!(
            parse("--state t --fastchess f --book b"),
            Err(ArgError::Missing("--engine <path>"))
        );
        assert_eq!(
            parse("--state t --engine e --book b"),
            Err(ArgError::Missing("--fastchess <path>"))
        );
        assert_eq!(
            parse("--state t --show --tc 5+0.05 --nodes 100"),
            Err(ArgError::Conflict("--tc", "--nodes"))
        );
        assert!(matches!(
            parse("--state t --show --tc fast"),
            Err(ArgError::BadValue { .. })
        ));
        assert!(matches!(
            parse("--state t --show --pairs-per 0"),
            Err(ArgError::BadNumber { .. })
        ));
        assert!(matches!(
            parse("--state t --show --bogus"),
            Err(ArgError::UnknownOption(_))
        ));
        assert_eq!(
            parse("--state t --show --engine e"),
            Err(ArgError::Conflict("--show", "--engine"))
        );
        assert_eq!(
            parse("--state t --show --concurrency 1"),
            Err(ArgError::Conflict("--show", "--concurrency"))
        );
    }

    fn settings() -> Settings {
        Settings {
            limit: Limit::Nodes(1_000),
            hash: 16,
            schedule: Schedule::with_defaults(10, 2),
            seed: 3,
            parameters: parse_input("a, int, 5, 0, 10, 1, 0.002").unwrap(),
            origin: Origin::default(),
        }
    }

    /// A tune goes on only with the engine and book it recorded; a file
    /// that recorded none (begun before they were) takes any.
    #[test]
    fn a_tune_keeps_its_engine_and_book() {
        let (engine, book) = (Path::new("/e/kiln"), Path::new("/b/openings.epd"));
        let recorded = Origin {
            engine: Some("Kiln 0.2.0 (net 1)".to_string()),
            bench: Some("855992".to_string()),
            book: Some("00000000000000aa".to_string()),
        };
        assert!(check_origin(&recorded, &recorded, engine, book).is_ok());
        assert!(check_origin(&recorded, &Origin::default(), engine, book).is_ok());
        let other_net = Origin {
            engine: Some("Kiln 0.2.0 (net 2)".to_string()),
            ..recorded.clone()
        };
        let refused = check_origin(&other_net, &recorded, engine, book)
            .unwrap_err()
            .to_string();
        assert!(
            refused.starts_with("--engine /e/kiln (Kiln 0.2.0 (net 2)) differs")
                && refused.contains("(Kiln 0.2.0 (net 1))"),
            "{refused}"
        );
        let rebuilt = Origin {
            bench: Some("846438".to_string()),
            ..recorded.clone()
        };
        let refused = check_origin(&rebuilt, &recorded, engine, book)
            .unwrap_err()
            .to_string();
        assert!(
            refused.starts_with("--engine /e/kiln (bench 846438) differs")
                && refused.contains("(bench 855992)"),
            "{refused}"
        );
        let other_book = Origin {
            book: Some("00000000000000bb".to_string()),
            ..recorded.clone()
        };
        let refused = check_origin(&other_book, &recorded, engine, book)
            .unwrap_err()
            .to_string();
        assert!(refused.starts_with("--book /b/openings.epd"), "{refused}");
        let nameless = Origin {
            engine: None,
            ..recorded.clone()
        };
        assert!(check_origin(&nameless, &recorded, engine, book).is_err());
    }

    #[test]
    fn a_tune_keeps_the_settings_it_started_with() {
        let file = settings();
        assert!(check_same(&TuneOptions::default(), &file).is_ok());
        let same = TuneOptions {
            limit: Some(Limit::Nodes(1_000)),
            iterations: Some(10),
            seed: Some(3),
            ..TuneOptions::default()
        };
        assert!(check_same(&same, &file).is_ok());
        let other = TuneOptions {
            pairs_per: Some(4),
            ..TuneOptions::default()
        };
        let err = check_same(&other, &file).unwrap_err().to_string();
        assert!(
            err.contains("--pairs-per 4") && err.contains("(2)"),
            "{err}"
        );
    }

    #[test]
    fn the_report_gives_rounded_values_in_range() {
        let mut state = state::State {
            settings: settings(),
            records: Vec::new(),
        };
        assert!(report(&state).ends_with("a, 5\n"), "{}", report(&state));
        state.records.push(Record {
            iteration: 1,
            wins: 2,
            losses: 1,
            draws: 1,
            forfeits: 0,
            values: vec![6.6],
        });
        let text = report(&state);
        assert!(text.starts_with("# 1 of 10 iterations, 4 games (2 won, 1 lost, 1 drawn"));
        assert!(text.ends_with("a, 7\n"), "{text}");
    }
}
