//! `kiln-gen`: generate, write, check and describe Kiln's tables.
//!
//! ```text
//! kiln-gen [--seed N] [--full-magic-search] [--out FILE] [--format rust|c] [--check FILE]
//! kiln-gen schedule
//! kiln-gen --version
//! ```

#![forbid(unsafe_code)]

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use kiln_gen::emit::{self, Layouts};
use kiln_gen::magic::{MagicSearch, Slider, SquareSearch};
use kiln_gen::{Config, schedule};

const USAGE: &str = "\
usage: kiln-gen [--seed N] [--full-magic-search] [--out FILE] [--format rust|c] [--check FILE]
       kiln-gen schedule
       kiln-gen --version

Generates Kiln's chess tables from a seed and prints a report: seed,
fingerprint, table sizes, time per stage and the Zobrist key-quality checks.

  --seed N               seed (decimal or 0x-hex); default: the built-in seed
  --full-magic-search    search magics from the seed instead of the committed
                         per-square schedule (slower, different magics)
  --out FILE             write the tables to FILE (a Rust module, or a C header)
  --format rust|c        format for --out and --check (default: rust)
  --check FILE           exit 1 when FILE differs from what the seed generates
  schedule               search the best magic sub-seed of every square (about
                         a minute) and compare with the committed schedule
  -h, --help             this help
  -V, --version          the version and the built-in seed

Options also take --option=value. Exit status: 0 done, 1 failed or --check
found a difference, 2 bad command line.";

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum Format {
    Rust,
    C,
}

#[derive(Debug, PartialEq, Eq)]
struct Options {
    seed: u64,
    full_magic_search: bool,
    out: Option<String>,
    check: Option<String>,
    format: Format,
}

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    /// Generate (and write or check) the tables.
    Generate(Options),
    /// Search the magic schedule.
    Schedule,
    /// Print the usage.
    Help,
    /// Print the version.
    Version,
}

/// A command line that cannot run; the message names the word at fault.
/// (Parsed by hand: this crate builds Kiln's tables, and its build graph
/// stays as small as it can be.)
#[derive(Debug, PartialEq, Eq)]
enum ArgError {
    /// An option or argument `kiln-gen` does not have.
    Unknown(String),
    /// An option given without its value.
    MissingValue(&'static str),
    /// A value given to an option that takes none.
    UnexpectedValue(String),
    /// A seed that is not a 64-bit number.
    BadSeed(String),
    /// A `--format` other than `rust` or `c`.
    BadFormat(String),
    /// An argument after `schedule`, which takes none.
    AfterSchedule(String),
}

impl std::fmt::Display for ArgError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgError::Unknown(word) => write!(f, "unknown argument '{word}'"),
            ArgError::MissingValue(option) => write!(f, "option '{option}' needs a value"),
            ArgError::UnexpectedValue(option) => write!(f, "option '{option}' takes no value"),
            ArgError::BadSeed(text) => write!(
                f,
                "bad value '{text}' for --seed: expected a 64-bit number, decimal or 0x hex"
            ),
            ArgError::BadFormat(text) => {
                write!(f, "bad value '{text}' for --format: expected rust or c")
            }
            ArgError::AfterSchedule(word) => {
                write!(
                    f,
                    "unexpected argument '{word}': schedule takes no arguments"
                )
            }
        }
    }
}

fn parse_args(args: &[String]) -> Result<Command, ArgError> {
    if args.first().map(String::as_str) == Some("schedule") {
        return match args.get(1).map(String::as_str) {
            None => Ok(Command::Schedule),
            Some("-h" | "--help") => Ok(Command::Help),
            Some(word) => Err(ArgError::AfterSchedule(word.to_string())),
        };
    }
    let mut options = Options {
        seed: kiln_gen::DEFAULT_SEED,
        full_magic_search: false,
        out: None,
        check: None,
        format: Format::Rust,
    };
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        // `--option=value` is the same as `--option value`.
        let (name, mut attached) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        if attached.is_some() && matches!(name, "--help" | "--version" | "--full-magic-search") {
            return Err(ArgError::UnexpectedValue(name.to_string()));
        }
        let mut value = |option: &'static str| {
            attached
                .take()
                .or_else(|| iter.next().cloned())
                .ok_or(ArgError::MissingValue(option))
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--seed" => {
                let text = value("--seed")?;
                options.seed = kiln_gen::parse_seed(&text).map_err(|_| ArgError::BadSeed(text))?;
            }
            "--full-magic-search" => options.full_magic_search = true,
            "--out" => options.out = Some(value("--out")?),
            "--check" => options.check = Some(value("--check")?),
            "--format" => {
                let text = value("--format")?;
                options.format = match text.as_str() {
                    "rust" | "rs" => Format::Rust,
                    "c" | "h" => Format::C,
                    _ => return Err(ArgError::BadFormat(text)),
                }
            }
            _ => return Err(ArgError::Unknown(arg.clone())),
        }
    }
    Ok(Command::Generate(options))
}

fn main() -> ExitCode {
    let mut args = Vec::new();
    for arg in std::env::args_os().skip(1) {
        match arg.into_string() {
            Ok(arg) => args.push(arg),
            Err(arg) => {
                eprintln!(
                    "kiln-gen: argument '{}' is not valid UTF-8 (see 'kiln-gen --help')",
                    arg.to_string_lossy()
                );
                return ExitCode::from(2);
            }
        }
    }
    let options = match parse_args(&args) {
        Ok(Command::Generate(options)) => options,
        Ok(Command::Schedule) => return find_schedule(),
        Ok(Command::Help) => {
            let _ = writeln!(std::io::stdout(), "{USAGE}");
            return ExitCode::SUCCESS;
        }
        Ok(Command::Version) => {
            println!(
                "kiln-gen {} (built-in seed {})",
                env!("CARGO_PKG_VERSION"),
                kiln_gen::DEFAULT_SEED
            );
            return ExitCode::SUCCESS;
        }
        Err(err) => {
            eprintln!("kiln-gen: {err} (see 'kiln-gen --help')");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("kiln-gen: {err}");
            ExitCode::FAILURE
        }
    }
}

/// A run that could not finish: a file it could not write or read.
#[derive(Debug)]
enum RunError {
    /// `--out` could not be written.
    Write {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// `--check`'s file could not be read.
    Read {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Write { path, source } => write!(f, "cannot write '{path}': {source}"),
            RunError::Read { path, source } => write!(f, "cannot read '{path}': {source}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Write { source, .. } | RunError::Read { source, .. } => Some(source),
        }
    }
}

fn run(options: &Options) -> Result<ExitCode, RunError> {
    let config = Config {
        seed: options.seed,
        magic_search: if options.full_magic_search {
            MagicSearch::Full(options.seed)
        } else {
            MagicSearch::Scheduled
        },
    };
    let start = Instant::now();
    let tables = kiln_gen::generate(&config);
    let render = || match options.format {
        Format::Rust => emit::rust(&tables, Layouts::Both),
        Format::C => emit::c_header(&tables),
    };
    let emit_start = Instant::now();
    let text = render();
    let emit_time = emit_start.elapsed();

    // The report is collected and written once, so that a closed pipe
    // (`kiln-gen | head`) ends quietly instead of panicking in `println!`.
    let mut report = String::new();
    macro_rules! say {
        ($($arg:tt)*) => {{
            use std::fmt::Write as _;
            let _ = writeln!(report, $($arg)*);
        }};
    }

    say!(
        "seed         {} (0x{:016x})",
        tables.config.seed,
        tables.config.seed
    );
    say!("fingerprint  0x{:016x}", tables.fingerprint);
    say!("start key    0x{:016x}", tables.start_key);
    say!(
        "magics       {} ({} rook + {} bishop candidates)",
        match config.magic_search {
            MagicSearch::Scheduled => "committed schedule".to_string(),
            MagicSearch::Full(seed) => format!("full search from seed {seed}"),
        },
        tables
            .rook
            .candidates
            .iter()
            .map(|&c| u64::from(c))
            .sum::<u64>(),
        tables
            .bishop
            .candidates
            .iter()
            .map(|&c| u64::from(c))
            .sum::<u64>(),
    );
    say!("\ntables (bytes):");
    for array in emit::arrays(&tables) {
        let dims: String = array.dims.iter().map(|d| format!("[{d}]")).collect();
        say!("  {:<22} {:>9}  {dims}", array.name, array.bytes());
    }
    say!(
        "  {:<22} {:>9}  (magic layout only)",
        "total",
        emit::total_bytes(&tables, Layouts::Magic)
    );
    say!(
        "  {:<22} {:>9}  (magic + PEXT layouts)",
        "total",
        emit::total_bytes(&tables, Layouts::Both)
    );
    say!("\ntime per stage:");
    for (stage, time) in &tables.timings {
        say!("  {stage:<26} {:>9.3} ms", time.as_secs_f64() * 1e3);
    }
    say!("  {:<26} {:>9.3} ms", "emit", emit_time.as_secs_f64() * 1e3);
    say!(
        "  {:<26} {:>9.3} ms",
        "total",
        start.elapsed().as_secs_f64() * 1e3
    );
    let q = &tables.key_quality;
    say!(
        "\nkey quality: {} keys, {} pair XORs: {} zero, {} duplicate, {} a^b=c, {} a^b=c^d: {}",
        q.keys,
        q.pairs,
        q.zero,
        q.duplicates,
        q.triples,
        q.quads,
        if q.passed() { "passed" } else { "FAILED" }
    );
    if tables.zobrist.stream != 0 {
        say!(
            "(keys from ChaCha stream {}: earlier streams failed the checks)",
            tables.zobrist.stream
        );
    }

    if let Some(path) = &options.out {
        std::fs::write(path, &text).map_err(|source| RunError::Write {
            path: path.clone(),
            source,
        })?;
        say!("\nwrote {path} ({} bytes)", text.len());
    }
    if let Some(path) = &options.check {
        let existing = std::fs::read(path).map_err(|source| RunError::Read {
            path: path.clone(),
            source,
        })?;
        if existing == text.as_bytes() {
            say!("\ncheck: {path} matches seed {}", tables.config.seed);
        } else {
            say!(
                "\ncheck: {path} DIFFERS from what seed {} generates",
                tables.config.seed
            );
            print_report(&report);
            return Ok(ExitCode::FAILURE);
        }
    }
    print_report(&report);
    Ok(ExitCode::SUCCESS)
}

fn print_report(report: &str) {
    let _ = std::io::stdout().lock().write_all(report.as_bytes());
}

/// Finds, for every slider square, the sub-seed below
/// `schedule::SUB_SEEDS_TRIED` that needs the fewest candidates, and compares
/// the result with the committed schedule.
fn find_schedule() -> ExitCode {
    let jobs: Vec<(Slider, usize)> = [Slider::Rook, Slider::Bishop]
        .into_iter()
        .flat_map(|s| (0..64).map(move |sq| (s, sq)))
        .collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let start = Instant::now();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A bar redrawn with `\r` on a terminal, plain lines anywhere else.
    let on_terminal = std::io::stderr().is_terminal();
    let mut results: Vec<(Slider, usize, u32, u32)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = Vec::new();
                    while let Some(&(slider, square)) =
                        jobs.get(next.fetch_add(1, Ordering::Relaxed))
                    {
                        let mut problem = SquareSearch::new(slider, square);
                        let (mut best_sub, mut best) = (0, u32::MAX);
                        for sub in 0..schedule::SUB_SEEDS_TRIED {
                            // Stop each try as soon as it is no better than the best so far.
                            let tried = problem.run(
                                kiln_gen::magic::MAGIC_BASE_SEED,
                                sub,
                                best.saturating_sub(1).max(1),
                            );
                            if let Some((_, n)) = tried.filter(|&(_, n)| n < best) {
                                (best_sub, best) = (sub, n);
                            }
                        }
                        found.push((slider, square, best_sub, best));
                        let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                        if on_terminal {
                            let bar = "#".repeat(finished * 40 / jobs.len());
                            eprint!("\r[{bar:<40}] {finished}/{} squares", jobs.len());
                            let _ = std::io::stderr().flush();
                        } else if finished.is_multiple_of(16) {
                            // A log gets whole lines, a few seconds apart.
                            eprintln!(
                                "kiln-gen schedule: {finished}/{} squares ({:.0} s)",
                                jobs.len(),
                                start.elapsed().as_secs_f64()
                            );
                        }
                    }
                    found
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    if on_terminal {
        eprintln!(" ({:.1} s)", start.elapsed().as_secs_f64());
    }
    results.sort_by_key(|&(slider, square, ..)| (slider == Slider::Bishop, square));
    if results.len() != jobs.len() {
        eprintln!("kiln-gen: a worker thread failed");
        return ExitCode::FAILURE;
    }

    let mut matches = true;
    for slider in [Slider::Rook, Slider::Bishop] {
        let row: Vec<&(Slider, usize, u32, u32)> =
            results.iter().filter(|r| r.0 == slider).collect();
        let total: u64 = row.iter().map(|r| u64::from(r.3)).sum();
        println!(
            "/// Sub-seed per square for {}s ({total} candidates in all).",
            slider.name()
        );
        println!("pub const {}: [u16; 64] = [", slider.name().to_uppercase());
        for chunk in row.chunks(16) {
            let line: Vec<String> = chunk.iter().map(|r| r.2.to_string()).collect();
            println!("    {},", line.join(", "));
        }
        println!("];");
        matches &= row.iter().all(|r| schedule::sub_seed(slider, r.1) == r.2);
    }
    if matches {
        println!("// the committed schedule is this one");
        ExitCode::SUCCESS
    } else {
        println!(
            "// the committed schedule DIFFERS: paste the arrays above into gen/src/schedule.rs"
        );
        ExitCode::FAILURE
    }
}
