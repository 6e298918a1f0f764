//! The `kiln` binary: a UCI engine by default, plus the commands a
//! tournament or OpenBench asks of an engine (`bench`, `perft`, `version`),
//! and UCI input given as arguments (`kiln "genfens 8 seed 1 book None"
//! quit`, as OpenBench's data generation runs engines).
//! The offline tools (self-play data, tuning, training, plots) are the
//! workshop's binary, `kiln-workshop` (gen/workshop), not this one's.
//!
//! The command line follows the usual conventions: `kiln --help`, `kiln
//! help <command>` and `kiln <command> --help` print usage on stdout and
//! exit 0; a command line that cannot run (an unknown command or option, a
//! missing or extra argument, a bad number) gets one line on stderr naming
//! the word at fault and exit status 2; a run that fails (a file that
//! cannot be read, an engine that does not start) exits 1.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use kiln::cli::{Arg, ArgError, Args, Parsed, Program, no_arguments, number, unexpected};
use kiln::eval::Evaluation;
use kiln_board::Board;

/// `kiln --help`.
const USAGE: &str = "\
Kiln, a UCI and XBoard chess engine whose lookup tables are all generated at build time.

usage: kiln [<command> [<arguments>]]
       kiln \"<UCI line>\"...

With no command, Kiln is a UCI engine on stdin/stdout (XBoard/CECP instead
when the first input line is `xboard`). When the first argument starts with
a UCI command (`uci`, `position`, `go`, `genfens`, `quit`...), each argument
is one UCI input line; stdin is read after them unless one is `quit`:
  kiln \"position startpos\" \"go depth 5\" quit
  kiln \"genfens 8 seed 1 book None\" quit    (OpenBench's data generation)

commands:
  xboard                   XBoard/CECP engine on stdin/stdout
  bench [<depth>] [--eval classical|nnue]
                           fixed search of 50 positions; the last line is
                           `<N> nodes <M> nps`
  perft <depth> [<fen>]    moves per first move, then `Nodes searched: <N>`
  help [<command>]         this help, or a command's
  version                  version, tables seed and fingerprint, network
                           fingerprint

  -h, --help               this help (`kiln <command> --help`: the command's)
  -V, --version            as `kiln version`

Whole numbers are decimal or 0x hex; options also take --option=value.
Exit status: 0 done, 1 failed while running, 2 bad command line.

The offline tools (self-play data, data files, the Texel tuner, the network
trainer, the WDL fit, the search tuner, plots) are another binary, the workshop:
  cargo build --release -p kiln-workshop && target/release/kiln-workshop --help";

const XBOARD_USAGE: &str = "\
usage: kiln xboard

Runs Kiln as an XBoard/CECP engine on stdin/stdout (protocol version 2).
Plain `kiln` does the same when the first line it reads is `xboard`.";

const BENCH_USAGE: &str = "\
usage: kiln bench [<depth>] [--eval classical|nnue]

Searches 50 fixed positions to <depth> (1-64, default 10), each from an
empty 16 MiB hash table on one thread, printing a line per position, and
ends with `<N> nodes <M> nps`. The node count is the signature of the
build's search and evaluation: it is the same on every run of one build.

  --eval <name>   the static evaluation: `classical` (hand-written) or
                  `nnue` (the built-in network); default: the default of
                  the UCI option UseNNUE";

const PERFT_USAGE: &str = "\
usage: kiln perft <depth> [<fen>]

Counts the leaf nodes of the move tree of <fen> (default: the start
position) to <depth> (0-64): one `<move>: <count>` line per legal move, then
`Nodes searched: <N>`. The FEN may be one quoted argument or its six fields.";

const HELP_USAGE: &str = "\
usage: kiln help [<command>]

Prints the usage of kiln, or of <command>.";

const VERSION_USAGE: &str = "\
usage: kiln version   (or kiln --version, kiln -V)

Prints `kiln <version> (tables seed <seed> fingerprint <hex>, network
fingerprint <hex>)`: the tables' seed and fingerprint tell which generated
tables the build holds, the network's fingerprint (its file's checksum)
which network.";

/// Every command, with its usage text.
const COMMANDS: [(&str, &str); 5] = [
    ("xboard", XBOARD_USAGE),
    ("bench", BENCH_USAGE),
    ("perft", PERFT_USAGE),
    ("help", HELP_USAGE),
    ("version", VERSION_USAGE),
];

/// The binary's command line: its name, usage and commands.
const PROGRAM: Program = Program {
    name: "kiln",
    usage: USAGE,
    help_usage: HELP_USAGE,
    commands: &COMMANDS,
};

fn main() -> ExitCode {
    if let Some(missing) = missing_cpu_feature() {
        eprintln!(
            "kiln: this build needs the CPU feature '{missing}', which this CPU lacks; \
             rebuild with RUSTFLAGS=\"-C target-cpu=x86-64\" for older CPUs"
        );
        return ExitCode::FAILURE;
    }
    let mut args = std::env::args_os().skip(1);
    let Some(first) = args.next() else {
        run_protocol();
        return ExitCode::SUCCESS;
    };
    let rest: Vec<OsString> = args.collect();
    match first.to_string_lossy().as_ref() {
        "--help" | "-h" | "help" => PROGRAM.help_command(rest),
        "--version" | "-V" | "version" => version_command(rest),
        "xboard" => xboard_command(rest),
        "bench" => bench_command(rest),
        "perft" => perft_command(rest),
        line if starts_with_uci_command(line) => {
            run_uci_arguments(first, rest);
            ExitCode::SUCCESS
        }
        tool if kiln::cli::WORKSHOP_COMMANDS.contains(&tool) => {
            eprintln!(
                "kiln: '{tool}' is a command of the workshop binary: kiln-workshop {tool} \
                 (cargo build --release -p kiln-workshop)"
            );
            ExitCode::from(2)
        }
        other if other.starts_with('-') => {
            PROGRAM.usage_error(None, &ArgError::UnknownOption(other.to_string()))
        }
        other => PROGRAM.usage_error(None, &ArgError::UnknownCommand(other.to_string())),
    }
}

/// `kiln --version`.
fn version_command(args: Vec<OsString>) -> ExitCode {
    let line = format!(
        "kiln {} ({})",
        kiln::build_info::VERSION,
        kiln::cli::build_description()
    );
    PROGRAM.version_command(args, VERSION_USAGE, &line)
}

/// `kiln xboard`.
fn xboard_command(args: Vec<OsString>) -> ExitCode {
    match PROGRAM.settle("xboard", XBOARD_USAGE, no_arguments(args)) {
        Ok(()) => {
            kiln::xboard::run_stdio();
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

/// The first CPU feature the build was compiled for that this CPU lacks.
/// Checked before any engine code runs, so that an old CPU gets a message
/// instead of an illegal-instruction crash.
fn missing_cpu_feature() -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! require {
            ($($feature:tt),*) => {
                $(
                    #[cfg(target_feature = $feature)]
                    if !std::arch::is_x86_feature_detected!($feature) {
                        return Some($feature);
                    }
                )*
            };
        }
        require!("popcnt", "sse4.2", "ssse3", "sse4.1", "bmi2");
    }
    None
}

/// Speaks UCI, unless the first non-blank input line is `xboard`: then
/// CECP, as XBoard expects of an engine started without arguments.
fn run_protocol() {
    use std::io::{BufRead, BufReader, Cursor, Read};
    let mut first = Vec::new();
    loop {
        let start = first.len();
        // Stdin is buffered globally, so what is not read here stays there
        // for the protocol loop.
        match std::io::stdin().lock().read_until(b'\n', &mut first) {
            Ok(n) if n > 0 && first[start..].iter().all(u8::is_ascii_whitespace) => continue,
            _ => break,
        }
    }
    let is_xboard = first.trim_ascii() == b"xboard";
    let input = Cursor::new(first);
    if is_xboard {
        kiln::xboard::run(input.chain(BufReader::new(std::io::stdin())));
    } else {
        kiln::uci::Engine::new().run(input.chain(std::io::stdin().lock()));
    }
}

/// Whether a first argument is a UCI input line rather than one of kiln's
/// commands: its first word is a UCI command keyword (as written, so
/// `kiln Quit` stays an unknown command). Kiln's own commands (`bench` and
/// `perft` are UCI keywords too) are matched before this is asked.
fn starts_with_uci_command(argument: &str) -> bool {
    argument
        .split_whitespace()
        .next()
        .is_some_and(kiln::uci::command::is_command)
}

/// Speaks UCI with the arguments as its first input lines, one line each,
/// then stdin: OpenBench runs `kiln "genfens N seed S book B" quit`, and a
/// `quit` among the arguments ends the engine before stdin is read.
fn run_uci_arguments(first: OsString, rest: Vec<OsString>) {
    use std::io::{Cursor, Read};
    let mut lines = String::new();
    for argument in std::iter::once(first).chain(rest) {
        lines.push_str(&argument.to_string_lossy());
        lines.push('\n');
    }
    let input = Cursor::new(lines.into_bytes());
    kiln::uci::Engine::new().run(input.chain(std::io::stdin().lock()));
}

/// `kiln bench [depth]`: fixed positions to a fixed depth; the last line is
/// `<nodes> nodes <nps> nps`.
fn bench_command(args: Vec<OsString>) -> ExitCode {
    match PROGRAM.settle("bench", BENCH_USAGE, parse_bench(args)) {
        Ok((depth, evaluation)) => {
            // A reader that leaves early (`kiln bench | head`) is no failure:
            // the bench runs on, its lines dropped, instead of panicking.
            let mut out = std::io::stdout();
            kiln::uci::bench::run_with(depth, evaluation, &mut |line| {
                let _ = writeln!(out, "{line}");
            });
            ExitCode::SUCCESS
        }
        Err(code) => code,
    }
}

/// The depth `kiln bench` was given, if any, and the evaluation.
fn parse_bench(args: Vec<OsString>) -> Result<Parsed<(Option<u64>, Evaluation)>, ArgError> {
    let mut args = Args::new(args);
    let mut depth = None;
    let mut evaluation = Evaluation::DEFAULT;
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Help => return Ok(Parsed::Help),
            Arg::Option(option) if option == "--eval" => evaluation = args.evaluation("--eval")?,
            Arg::Value(text) if depth.is_none() => depth = Some(number("<depth>", &text, 1, 64)?),
            other => return Err(unexpected(other)),
        }
    }
    Ok(Parsed::Run((depth, evaluation)))
}

/// `kiln perft <depth> [fen]`: divide, then `Nodes searched: N`.
fn perft_command(args: Vec<OsString>) -> ExitCode {
    let (depth, mut board) = match PROGRAM.settle("perft", PERFT_USAGE, parse_perft(args)) {
        Ok(settings) => settings,
        Err(code) => return code,
    };
    // Castling is printed king-takes-rook when the position is not a
    // standard one (the only unambiguous form in Chess960).
    let chess960 = board.is_chess960();
    let mut out = std::io::stdout().lock();
    match kiln::protocol::perft::divide(&mut board, depth, chess960, &mut out) {
        Ok(_) => ExitCode::SUCCESS,
        // The reader left (`kiln perft 6 | head`): nothing more to say.
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("kiln perft: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The depth and position `kiln perft` was given; the FEN may come as one
/// argument or as several (its fields, unquoted).
fn parse_perft(args: Vec<OsString>) -> Result<Parsed<(u32, Board)>, ArgError> {
    let mut args = Args::new(args);
    let mut depth = None;
    let mut fen: Vec<String> = Vec::new();
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Help => return Ok(Parsed::Help),
            Arg::Value(text) if depth.is_none() => depth = Some(number("<depth>", &text, 0, 64)?),
            Arg::Value(field) => fen.push(field),
            other => return Err(unexpected(other)),
        }
    }
    let depth = depth.ok_or(ArgError::Missing("<depth>"))? as u32;
    if fen.is_empty() {
        return Ok(Parsed::Run((depth, Board::startpos())));
    }
    let fen = fen.join(" ");
    match Board::from_fen(&fen) {
        Ok(board) => Ok(Parsed::Run((depth, board))),
        Err(err) => Err(ArgError::BadValue {
            what: "<fen>".to_string(),
            text: fen,
            reason: err.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<OsString> {
        text.split_whitespace().map(OsString::from).collect()
    }

    #[test]
    fn bench_takes_an_optional_depth_and_evaluation_and_nothing_else() {
        let default = Evaluation::DEFAULT;
        assert_eq!(parse_bench(args("")), Ok(Parsed::Run((None, default))));
        assert_eq!(parse_bench(args("7")), Ok(Parsed::Run((Some(7), default))));
        assert_eq!(
            parse_bench(args("0x10")),
            Ok(Parsed::Run((Some(16), default)))
        );
        assert_eq!(
            parse_bench(args("--eval nnue 5")),
            Ok(Parsed::Run((Some(5), Evaluation::Network)))
        );
        assert_eq!(
            parse_bench(args("--eval=classical")),
            Ok(Parsed::Run((None, Evaluation::Classical)))
        );
        assert!(parse_bench(args("--eval fast")).is_err());
        assert!(parse_bench(args("--eval")).is_err());
        assert_eq!(parse_bench(args("--help")), Ok(Parsed::Help));
        assert_eq!(
            parse_bench(args("3 extra")),
            Err(ArgError::UnexpectedArgument("extra".into()))
        );
        assert_eq!(
            parse_bench(args("--depth 3")),
            Err(ArgError::UnknownOption("--depth".into()))
        );
        for bad in ["0", "65", "x", "-1"] {
            assert!(parse_bench(args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn perft_needs_a_depth_and_takes_a_fen_in_one_or_many_words() {
        let run = |text: &str| parse_perft(args(text)).map(Parsed::run);
        let (depth, board) = run("3").unwrap().unwrap();
        assert_eq!((depth, board), (3, Board::startpos()));
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
        let (_, board) = run(&format!("2 {fen}")).unwrap().unwrap();
        assert_eq!(board.to_fen(), fen);
        let (_, one_word) = parse_perft(vec!["1".into(), fen.into()])
            .unwrap()
            .run()
            .unwrap();
        assert_eq!(one_word, board);
        assert_eq!(run(""), Err(ArgError::Missing("<depth>")));
        assert!(matches!(run("x"), Err(ArgError::BadNumber { .. })));
        assert!(matches!(run("65"), Err(ArgError::BadNumber { .. })));
        assert!(matches!(run("2 not a fen"), Err(ArgError::BadValue { .. })));
        assert_eq!(run("-h"), Ok(None));
    }

    #[test]
    fn bench_usage_states_the_bench_settings() {
        use kiln::uci::bench::{BENCH_HASH_MIB, DEFAULT_DEPTH, POSITIONS};
        for fact in [
            format!("{} fixed positions", POSITIONS.len()),
            format!("default {DEFAULT_DEPTH})"),
            format!("{BENCH_HASH_MIB} MiB"),
        ] {
            assert!(BENCH_USAGE.contains(&fact), "{fact}");
        }
    }

    #[test]
    fn help_knows_every_command() {
        assert_eq!(PROGRAM.parse_help(args("")), Ok(Parsed::Run(None)));
        for (command, usage) in COMMANDS {
            assert_eq!(
                PROGRAM.parse_help(args(command)),
                Ok(Parsed::Run(Some(usage)))
            );
            assert!(
                usage.starts_with(&format!("usage: kiln {command}")),
                "{command}"
            );
            assert!(USAGE.contains(&format!("\n  {command}")), "{command}");
        }
        assert_eq!(
            PROGRAM.parse_help(args("bogus")),
            Err(ArgError::UnknownCommand("bogus".into()))
        );
        assert_eq!(
            PROGRAM.parse_help(args("bench extra")),
            Err(ArgError::UnexpectedArgument("extra".into()))
        );
    }

    #[test]
    fn arguments_that_start_with_a_uci_command_are_uci_lines() {
        for line in [
            "genfens 5 seed 1 book None",
            "uci",
            "position startpos moves e2e4",
            "go depth 3",
            "quit",
            " isready",
        ] {
            assert!(starts_with_uci_command(line), "{line}");
        }
        for word in ["bogus", "Quit", "", "  ", "datagen", "--uci"] {
            assert!(!starts_with_uci_command(word), "{word}");
        }
    }
}
