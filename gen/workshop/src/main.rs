//! The `kiln-workshop` binary: the offline tools that make Kiln's data,
//! weights and networks. Command-line conventions are the engine's: `--help`
//! anywhere prints usage and exits 0; a command line that cannot run gets
//! one line on stderr naming the word at fault and exit status 2; a run
//! that fails (a file that cannot be read, an engine that does not start)
//! exits 1.

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use kiln::cli::{ArgError, Program};
use kiln_workshop::{data, datagen, label, plot, spsa, texel, train, wdl};

/// `kiln-workshop --help`.
const USAGE: &str = "\
Kiln's workshop: the offline tools that make the engine's training data,
evaluation weights and network.

usage: kiln-workshop <command> [<arguments>]

commands:
  datagen --out <file> ... self-play training positions
  data <tool> ...          data files: stats, validate, show, merge, shuffle,
                           holdout, subset, sort, import-pgn, convert (to
                           viriformat, from viriformat, to marlinformat for
                           bullet)
  label --data <file> --out <file> --engine <path> ...
                           re-score training positions with another UCI engine
  tune --data <file> --out <params.txt> ...
                           Texel tuning of the evaluation weights
                           (`tune --neutral --out <file>`: the material-only start)
  train --data <file> --out <file.nnue> ...
                           train the network evaluation on the CPU
  wdl --data <file> ...    fit the win/draw/loss model of UCI_ShowWDL to
                           self-play games
  spsa --state <file> ...  SPSA tuning of the search's parameters, the games
                           played by fastchess (resumable)
  plot [--params <params.txt>] [--losses <file>] [--curve <file>] --out <dir>
                           PNG heat maps of the piece-square tables, a
                           loss curve and the network's learning curve
  help [<command>]         this help, or a command's
  version                  version, and the engine's tables and network

  -h, --help               this help (`kiln-workshop <command> --help`: the command's)
  -V, --version            as `kiln-workshop version`

Whole numbers and seeds are decimal or 0x hex; options also take
--option=value.
Exit status: 0 done, 1 failed while running, 2 bad command line.

The engine itself (UCI, XBoard, bench, perft) is the `kiln` binary.";

const HELP_USAGE: &str = "\
usage: kiln-workshop help [<command>]

Prints the usage of kiln-workshop, or of <command>.";

const VERSION_USAGE: &str = "\
usage: kiln-workshop version   (or kiln-workshop --version, kiln-workshop -V)

Prints the version and the engine library's tables seed and fingerprint and
network fingerprint: self-play and the tuner use that engine.";

/// Every command, with its usage text.
const COMMANDS: [(&str, &str); 10] = [
    ("datagen", datagen::USAGE),
    ("data", data::USAGE),
    ("label", label::USAGE),
    ("tune", texel::USAGE),
    ("train", train::USAGE),
    ("wdl", wdl::USAGE),
    ("spsa", spsa::USAGE),
    ("plot", plot::USAGE),
    ("help", HELP_USAGE),
    ("version", VERSION_USAGE),
];

/// The binary's command line: its name, usage and commands.
const PROGRAM: Program = Program {
    name: "kiln-workshop",
    usage: USAGE,
    help_usage: HELP_USAGE,
    commands: &COMMANDS,
};

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let Some(first) = args.next() else {
        eprintln!("kiln-workshop: a command is needed (see 'kiln-workshop --help')");
        return ExitCode::from(2);
    };
    let rest: Vec<OsString> = args.collect();
    match first.to_string_lossy().as_ref() {
        "--help" | "-h" | "help" => PROGRAM.help_command(rest),
        "--version" | "-V" | "version" => version_command(rest),
        "datagen" => datagen_command(rest),
        "data" => data_command(rest),
        "label" => label_command(rest),
        "tune" => tune_command(rest),
        "train" => train_command(rest),
        "wdl" => wdl_command(rest),
        "spsa" => spsa_command(rest),
        "plot" => plot_command(rest),
        other if other.starts_with('-') => {
            PROGRAM.usage_error(None, &ArgError::UnknownOption(other.to_string()))
        }
        other => PROGRAM.usage_error(None, &ArgError::UnknownCommand(other.to_string())),
    }
}

/// Reports a run that failed (exit status 1).
fn failure(command: &str, err: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("kiln-workshop {command}: {err}");
    ExitCode::FAILURE
}

/// `kiln-workshop version`.
fn version_command(args: Vec<OsString>) -> ExitCode {
    let line = format!(
        "kiln-workshop {} (engine {})",
        kiln::build_info::VERSION,
        kiln::cli::build_description()
    );
    PROGRAM.version_command(args, VERSION_USAGE, &line)
}

/// `kiln-workshop datagen ...`: self-play training positions.
fn datagen_command(args: Vec<OsString>) -> ExitCode {
    let options = match PROGRAM.settle("datagen", datagen::USAGE, datagen::Options::parse(args)) {
        Ok(options) => options,
        Err(code) => return code,
    };
    match datagen::run(&options) {
        Ok(n) => {
            eprintln!("kiln-workshop datagen: {} holds {n} positions", options.out);
            ExitCode::SUCCESS
        }
        Err(err) => failure("datagen", &err),
    }
}

/// `kiln-workshop data <tool> ...`: the data-file tools; `show` writes
/// its lines on stdout, and each tool's summary goes to stdout (`show`'s
/// to stderr, so that its stdout is positions only).
fn data_command(args: Vec<OsString>) -> ExitCode {
    let options = match PROGRAM.settle("data", data::USAGE, data::Options::parse(args)) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut ran = data::run(&options, &mut stdout);
    // A reader that has gone (`show ... | head`) is no failure; any other
    // output that could not be written is.
    let flushed = stdout.flush();
    if let (Err(error), true) = (flushed, ran.is_ok())
        && error.kind() != std::io::ErrorKind::BrokenPipe
    {
        ran = Err(data::DataToolError::Output(error));
    }
    drop(stdout);
    match ran {
        Ok(report) if options.summary_on_stderr() => {
            eprintln!("kiln-workshop data: {report}");
            ExitCode::SUCCESS
        }
        Ok(report) => {
            // As above: `stats ... | head` must not panic when head leaves.
            let _ = writeln!(std::io::stdout(), "{report}");
            ExitCode::SUCCESS
        }
        Err(err) => failure("data", &err),
    }
}

/// `kiln-workshop tune ...`: Texel tuning of the evaluation weights.
fn tune_command(args: Vec<OsString>) -> ExitCode {
    let options = match PROGRAM.settle("tune", texel::USAGE, texel::Options::parse(args)) {
        Ok(options) => options,
        Err(code) => return code,
    };
    match texel::run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => failure("tune", &err),
    }
}

/// `kiln-workshop train ...`: the network trained on self-play data; prints
/// the loss per epoch on stdout.
fn train_command(args: Vec<OsString>) -> ExitCode {
    let options = match PROGRAM.settle("train", train::USAGE, train::Options::parse(args)) {
        Ok(options) => options,
        Err(code) => return code,
    };
    match train::run(&options) {
        Ok(_) => ExitCode::SUCCESS,
        Err(err) => failure("train", &err),
    }
}

/// `kiln-workshop label ...`: training positions re-scored by another UCI
/// engine.
fn label_command(args: Vec<OsString>) -> ExitCode {
    let options = match PROGRAM.settle("label", label::USAGE, label::Options::parse(args)) {
        Ok(options) => options,
        Err(code) => return code,
    };
    match label::run(&options) {
        Ok(summary) => {
            let resumed = match summary.resumed {
                0 => String::new(),
                n => format!(" after the {n} it held"),
            };
            if summary.cut_bytes_removed > 0 {
                eprintln!(
                    "kiln-workshop label: {} ended in a line cut short ({} bytes, from a killed run); removed, and its position labelled again",
                    options.out, summary.cut_bytes_removed
                );
            }
            eprintln!(
                "kiln-workshop label: wrote {} positions to {}{resumed} ({} skipped: malformed, or no score)",
                summary.labelled, options.out, summary.skipped
            );
            ExitCode::SUCCESS
        }
        Err(err) => failure("label", &err),
    }
}

/// `kiln-workshop wdl ...`: the win/draw/loss model fitted to self-play
/// games; prints the fit on stdout.
fn wdl_command(args: Vec<OsString>) -> ExitCode {
    let options = match PROGRAM.settle("wdl", wdl::USAGE, wdl::Options::parse(args)) {
        Ok(options) => options,
        Err(code) => return code,
    };
    match wdl::run(&options) {
        Ok(fit) => {
            let _ = write!(std::io::stdout(), "{fit}");
            ExitCode::SUCCESS
        }
        Err(err) => failure("wdl", &err),
    }
}

/// `kiln-workshop spsa ...`: SPSA tuning; progress on stderr, the tune's
/// values on stdout.
fn spsa_command(args: Vec<OsString>) -> ExitCode {
    let options = match PROGRAM.settle("spsa", spsa::USAGE, spsa::Options::parse(args)) {
        Ok(options) => options,
        Err(code) => return code,
    };
    match spsa::run(&options) {
        Ok(report) => {
            let _ = write!(std::io::stdout(), "{report}");
            ExitCode::SUCCESS
        }
        Err(err) => failure("spsa", &err),
    }
}

/// `kiln-workshop plot ...`: PNG pictures of the weights and the curves;
/// prints each file written.
fn plot_command(args: Vec<OsString>) -> ExitCode {
    let options = match PROGRAM.settle("plot", plot::USAGE, plot::Options::parse(args)) {
        Ok(options) => options,
        Err(code) => return code,
    };
    match plot::run(&options) {
        Ok(written) => {
            for path in written {
                let _ = writeln!(std::io::stdout(), "{}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(err) => failure("plot", &err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln::cli::Parsed;

    fn args(text: &str) -> Vec<OsString> {
        text.split_whitespace().map(OsString::from).collect()
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
                usage.starts_with(&format!("usage: kiln-workshop {command}")),
                "{command}"
            );
            assert!(USAGE.contains(&format!("\n  {command}")), "{command}");
        }
        assert_eq!(
            PROGRAM.parse_help(args("bogus")),
            Err(ArgError::UnknownCommand("bogus".into()))
        );
    }

    /// The engine names the workshop's commands to point a user there:
    /// its list is this binary's, less `help` and `version`.
    #[test]
    fn the_engine_knows_the_workshop_commands() {
        let own: Vec<&str> = COMMANDS
            .iter()
            .map(|&(name, _)| name)
            .filter(|name| !["help", "version"].contains(name))
            .collect();
        assert_eq!(own, kiln::cli::WORKSHOP_COMMANDS);
    }
}
