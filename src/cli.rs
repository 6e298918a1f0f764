//! Command-line parsing shared by the commands of `kiln` and of the
//! workshop binary, `kiln-workshop`: options as
//! `--flag value` or `--flag=value`, `-h`/`--help` anywhere, positional
//! arguments, numbers in decimal or `0x` hex, and one error type whose
//! message names the word that was wrong.
//!
//! The words themselves are split by `lexopt`, which also handles `--` and
//! arguments that are not valid UTF-8; this module turns its events into
//! the few cases the commands need.

use std::ffi::OsString;
use std::fmt;

use crate::eval::Evaluation;

/// The commands of the workshop binary, `kiln-workshop`: `kiln <one of
/// them>` says where the command is instead of only that it is unknown.
/// (The workshop sits above the engine library and cannot be named from
/// here; its tests check that this list is its own.)
pub const WORKSHOP_COMMANDS: [&str; 8] = [
    "datagen", "data", "label", "tune", "train", "wdl", "spsa", "plot",
];

/// A command line that cannot be run, in words a user can act on (the
/// caller adds the command's name and a pointer to its `--help`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgError {
    /// A command the binary does not have.
    UnknownCommand(String),
    /// An option the command does not have.
    UnknownOption(String),
    /// An option given without its value.
    MissingValue(String),
    /// A value given to an option that takes none (`--help=yes`).
    UnexpectedValue(String),
    /// A required argument or option that was not given, in usage form
    /// (`<depth>`, `--out <file>`).
    Missing(&'static str),
    /// A positional argument the command does not take.
    UnexpectedArgument(String),
    /// A value that is not a number in the option's range.
    BadNumber {
        /// The option, or the argument's usage name.
        what: String,
        /// What was given.
        text: String,
        /// The range accepted, as the user should read it.
        expected: String,
    },
    /// A value of the wrong form, for instance a malformed FEN.
    BadValue {
        /// The option, or the argument's usage name.
        what: String,
        /// What was given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An argument that is not valid UTF-8 (shown lossily).
    NotUnicode(String),
    /// Two options that exclude each other.
    Conflict(&'static str, &'static str),
    /// An option given without the other option it only modifies
    /// (`--opponent-nodes` without `--opponent`).
    Needs(&'static str, &'static str),
}

impl fmt::Display for ArgError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgError::UnknownCommand(word) => write!(f, "unknown command '{word}'"),
            ArgError::UnknownOption(word) => write!(f, "unknown option '{word}'"),
            ArgError::MissingValue(option) => write!(f, "option '{option}' needs a value"),
            ArgError::UnexpectedValue(option) => write!(f, "option '{option}' takes no value"),
            ArgError::Missing(what) => write!(f, "missing {what}"),
            ArgError::UnexpectedArgument(word) => write!(f, "unexpected argument '{word}'"),
            ArgError::BadNumber {
                what,
                text,
                expected,
            } => write!(f, "bad value '{text}' for {what}: expected {expected}"),
            ArgError::BadValue { what, text, reason } => {
                write!(f, "bad value '{text}' for {what}: {reason}")
            }
            ArgError::NotUnicode(word) => write!(f, "argument '{word}' is not valid UTF-8"),
            ArgError::Conflict(one, other) => {
                write!(f, "options '{one}' and '{other}' cannot be used together")
            }
            ArgError::Needs(option, needed) => {
                write!(f, "option '{option}' needs '{needed}'")
            }
        }
    }
}

impl std::error::Error for ArgError {}

/// What a command line asks for: to run with these settings, or to see the
/// command's usage.
#[derive(Clone, Debug, PartialEq)]
pub enum Parsed<T> {
    /// Run the command.
    Run(T),
    /// Print the command's usage (`-h` or `--help` was given).
    Help,
}

impl<T> Parsed<T> {
    /// The settings, or `None` when help was asked for.
    pub fn run(self) -> Option<T> {
        match self {
            Parsed::Run(value) => Some(value),
            Parsed::Help => None,
        }
    }
}

/// One word (or `--option=value` pair) of a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// An option as the user spelt it without any `=value` (`--out`, `-x`);
    /// its value, if it takes one, comes from [`Args::value`].
    Option(String),
    /// `-h` or `--help`.
    Help,
    /// A positional argument.
    Value(String),
}

/// The arguments of one command, read word by word.
pub struct Args {
    parser: lexopt::Parser,
}

impl Args {
    /// Reads `args` (without the program and command names).
    pub fn new<I>(args: I) -> Args
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        Args {
            parser: lexopt::Parser::from_args(args),
        }
    }

    /// The next word, or `None` at the end.
    pub fn next_arg(&mut self) -> Result<Option<Arg>, ArgError> {
        let arg = match self.parser.next() {
            Ok(None) => return Ok(None),
            Ok(Some(arg)) => arg,
            Err(err) => return Err(from_lexopt(err)),
        };
        let arg = match arg {
            lexopt::Arg::Short('h') | lexopt::Arg::Long("help") => Arg::Help,
            lexopt::Arg::Short(c) => Arg::Option(format!("-{c}")),
            lexopt::Arg::Long(name) => Arg::Option(format!("--{name}")),
            lexopt::Arg::Value(value) => Arg::Value(unicode(value)?),
        };
        // Help takes no value; the caller stops at it, so a value given to
        // it is caught here or never.
        if arg == Arg::Help && self.parser.optional_value().is_some() {
            return Err(ArgError::UnexpectedValue("--help".to_string()));
        }
        Ok(Some(arg))
    }

    /// The value of `option`, just returned by [`Args::next_arg`]: after `=`,
    /// or the next word. A next word that is itself an option (`--out
    /// --games 3`) is taken as the value missing, which is what the user
    /// meant far more often than a file named `--games`.
    pub fn value(&mut self, option: &str) -> Result<String, ArgError> {
        if let Some(attached) = self.parser.optional_value() {
            return unicode(attached);
        }
        match self.parser.value() {
            Ok(value) if value.to_string_lossy().starts_with("--") => {
                Err(ArgError::MissingValue(option.to_string()))
            }
            Ok(value) => unicode(value),
            Err(err) => Err(from_lexopt(err)),
        }
    }

    /// The value of `option` as a whole number in `min..=max` (decimal or
    /// `0x` hex).
    pub fn number(&mut self, option: &str, min: u64, max: u64) -> Result<u64, ArgError> {
        number(option, &self.value(option)?, min, max)
    }

    /// The value of `option` as a static evaluation's name (`classical`
    /// or `nnue`).
    pub fn evaluation(&mut self, option: &str) -> Result<Evaluation, ArgError> {
        let name = self.value(option)?;
        Evaluation::from_name(&name).ok_or_else(|| ArgError::BadValue {
            what: option.to_string(),
            text: name,
            reason: "expected `classical` or `nnue`".to_string(),
        })
    }

    /// The value of `option` as a real number in `min..=max`.
    pub fn fraction(&mut self, option: &str, min: f64, max: f64) -> Result<f64, ArgError> {
        let text = self.value(option)?;
        match text.parse::<f64>() {
            Ok(x) if (min..=max).contains(&x) => Ok(x),
            _ => Err(ArgError::BadNumber {
                what: option.to_string(),
                text,
                expected: format!("a number {min}-{max}"),
            }),
        }
    }
}

/// The error for a word a command does not take: an unknown option, or an
/// unexpected positional argument.
pub fn unexpected(arg: Arg) -> ArgError {
    match arg {
        Arg::Option(option) => ArgError::UnknownOption(option),
        Arg::Value(value) => ArgError::UnexpectedArgument(value),
        Arg::Help => ArgError::UnknownOption("--help".to_string()),
    }
}

/// Reads the arguments of a command that takes options only: hands each
/// option's name to `option`, which reads the option's value from the
/// arguments it is given and returns whether it knows the option. Stops
/// at `-h` or `--help`.
pub fn for_each_option<I>(
    args: I,
    mut option: impl FnMut(&str, &mut Args) -> Result<bool, ArgError>,
) -> Result<Parsed<()>, ArgError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let mut args = Args::new(args);
    while let Some(arg) = args.next_arg()? {
        match arg {
            Arg::Help => return Ok(Parsed::Help),
            Arg::Option(name) => {
                if !option(&name, &mut args)? {
                    return Err(ArgError::UnknownOption(name));
                }
            }
            Arg::Value(value) => return Err(ArgError::UnexpectedArgument(value)),
        }
    }
    Ok(Parsed::Run(()))
}

/// Parses the arguments of a command that takes none but `--help`.
pub fn no_arguments<I>(args: I) -> Result<Parsed<()>, ArgError>
where
    I: IntoIterator,
    I::Item: Into<OsString>,
{
    let mut args = Args::new(args);
    match args.next_arg()? {
        None => Ok(Parsed::Run(())),
        Some(Arg::Help) => Ok(Parsed::Help),
        Some(other) => Err(unexpected(other)),
    }
}

/// Parses `text` as a whole number in `min..=max`, in decimal or with a
/// `0x` prefix in hex (seeds and keys are printed in hex); `what` names the
/// option or argument in the error.
pub fn number(what: &str, text: &str, min: u64, max: u64) -> Result<u64, ArgError> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse::<u64>(),
    };
    match parsed {
        // `from_str_radix` and `parse` accept a leading `+`; a number
        // written so is no number a user meant.
        Ok(n) if (min..=max).contains(&n) && !text.contains('+') => Ok(n),
        _ => Err(ArgError::BadNumber {
            what: what.to_string(),
            text: text.to_string(),
            expected: if max == u64::MAX {
                format!("a number {min} or more (decimal or 0x hex)")
            } else {
                format!("a number {min}-{max}")
            },
        }),
    }
}

/// The default a usage text states for `option`: the `x` of `(default
/// x)` on the option's line. Tests compare it with the parser's default, so
/// that the help cannot drift from the code.
///
/// ```
/// let usage = "  --nodes <n>   nodes a move (default 3000)";
/// assert_eq!(kiln::cli::documented_default(usage, "--nodes"), Some("3000"));
/// ```
pub fn documented_default<'a>(usage: &'a str, option: &str) -> Option<&'a str> {
    let line = usage
        .lines()
        .find(|line| line.trim_start().starts_with(&format!("{option} ")))?;
    let start = line.find("(default ")? + "(default ".len();
    let end = start + line[start..].find(')')?;
    Some(&line[start..end])
}

fn unicode(value: OsString) -> Result<String, ArgError> {
    value
        .into_string()
        .map_err(|value| ArgError::NotUnicode(value.to_string_lossy().into_owned()))
}

fn from_lexopt(err: lexopt::Error) -> ArgError {
    match err {
        lexopt::Error::MissingValue { option } => {
            ArgError::MissingValue(option.unwrap_or_default())
        }
        lexopt::Error::UnexpectedOption(option) => ArgError::UnknownOption(option),
        lexopt::Error::UnexpectedArgument(value) => {
            ArgError::UnexpectedArgument(value.to_string_lossy().into_owned())
        }
        lexopt::Error::UnexpectedValue { option, .. } => ArgError::UnexpectedValue(option),
        lexopt::Error::NonUnicodeValue(value) => {
            ArgError::NotUnicode(value.to_string_lossy().into_owned())
        }
        // Raised only by lexopt's own value parsers and by callers, which
        // this module does not use; kept readable all the same.
        other => ArgError::BadValue {
            what: "an argument".to_string(),
            text: String::new(),
            reason: other.to_string(),
        },
    }
}

/// What a build carries, as both binaries' `version` print it: `tables
/// seed <seed> fingerprint <hex>, network fingerprint <hex>`.
pub fn build_description() -> String {
    format!(
        "tables seed {} fingerprint {:016x}, network fingerprint {:016x}",
        crate::build_info::SEED,
        crate::build_info::FINGERPRINT,
        crate::eval::nnue::network::FINGERPRINT
    )
}

/// A binary's command line as its users meet it: its name, its usage text,
/// and each command's usage. Both binaries (`kiln`, `kiln-workshop`)
/// answer help, usage errors and `help <command>` through one of these, so
/// that they follow the same conventions: help on stdout with exit 0, a
/// command line that cannot run as one line on stderr with exit 2.
#[derive(Clone, Copy, Debug)]
pub struct Program {
    /// The binary's name, as the messages print it.
    pub name: &'static str,
    /// `<name> --help`.
    pub usage: &'static str,
    /// `<name> help --help`.
    pub help_usage: &'static str,
    /// Every command with its usage text.
    pub commands: &'static [(&'static str, &'static str)],
}

impl Program {
    /// Prints a usage text on stdout; exit 0.
    pub fn print_usage(usage: &str) -> std::process::ExitCode {
        use std::io::Write;
        // A reader that stops early (`kiln --help | head`) is no failure.
        let _ = writeln!(std::io::stdout(), "{usage}");
        std::process::ExitCode::SUCCESS
    }

    /// Reports a command line that cannot run: one line on stderr naming
    /// what is wrong and where help is; exit status 2. `command` is `None`
    /// for the binary's own arguments.
    pub fn usage_error(&self, command: Option<&str>, err: &ArgError) -> std::process::ExitCode {
        let name = self.name;
        match command {
            Some(command) => {
                eprintln!("{name} {command}: {err} (see '{name} {command} --help')");
            }
            None => eprintln!("{name}: {err} (see '{name} --help')"),
        }
        std::process::ExitCode::from(2)
    }

    /// The settings a command's arguments asked for, or, when there is
    /// nothing to run, the exit code after printing its usage (help) or the
    /// error.
    pub fn settle<T>(
        &self,
        command: &str,
        usage: &str,
        parsed: Result<Parsed<T>, ArgError>,
    ) -> Result<T, std::process::ExitCode> {
        match parsed {
            Ok(Parsed::Run(settings)) => Ok(settings),
            Ok(Parsed::Help) => Err(Program::print_usage(usage)),
            Err(err) => Err(self.usage_error(Some(command), &err)),
        }
    }

    /// `<name> version` (and `--version`, `-V`): prints `line` on stdout,
    /// or `usage` when asked for help; takes no arguments.
    pub fn version_command(
        &self,
        args: Vec<OsString>,
        usage: &str,
        line: &str,
    ) -> std::process::ExitCode {
        match no_arguments(args) {
            Ok(Parsed::Run(())) => Program::print_usage(line),
            Ok(Parsed::Help) => Program::print_usage(usage),
            Err(err) => self.usage_error(None, &err),
        }
    }

    /// `<name> help [<command>]`.
    pub fn help_command(&self, args: Vec<OsString>) -> std::process::ExitCode {
        match self.parse_help(args) {
            Ok(Parsed::Run(None)) => Program::print_usage(self.usage),
            Ok(Parsed::Run(Some(usage))) => Program::print_usage(usage),
            Ok(Parsed::Help) => Program::print_usage(self.help_usage),
            Err(err) => self.usage_error(None, &err),
        }
    }

    /// The usage text `help [<command>]` asks for (`None`: the binary's
    /// own).
    ///
    /// # Errors
    /// An [`ArgError`] for a command the binary does not have or a second
    /// argument.
    pub fn parse_help(
        &self,
        args: Vec<OsString>,
    ) -> Result<Parsed<Option<&'static str>>, ArgError> {
        let mut args = Args::new(args);
        let mut topic = None;
        while let Some(arg) = args.next_arg()? {
            match arg {
                Arg::Help => return Ok(Parsed::Help),
                Arg::Value(name) if topic.is_none() => {
                    let usage = self
                        .commands
                        .iter()
                        .find(|(command, _)| *command == name)
                        .map(|&(_, usage)| usage);
                    topic = Some(usage.ok_or(ArgError::UnknownCommand(name))?);
                }
                other => return Err(unexpected(other)),
            }
        }
        Ok(Parsed::Run(topic))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_args(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn words(text: &str) -> Vec<Result<Option<Arg>, ArgError>> {
        let mut args = Args::new(split_args(text));
        let mut out = Vec::new();
        loop {
            let next = args.next_arg();
            let end = matches!(next, Ok(None) | Err(_));
            out.push(next);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn options_values_and_help_are_told_apart() {
        let mut args = Args::new(split_args("--a 1 --b=two -h pos --help"));
        assert_eq!(args.next_arg(), Ok(Some(Arg::Option("--a".into()))));
        assert_eq!(args.value("--a"), Ok("1".into()));
        assert_eq!(args.next_arg(), Ok(Some(Arg::Option("--b".into()))));
        assert_eq!(args.value("--b"), Ok("two".into()));
        assert_eq!(args.next_arg(), Ok(Some(Arg::Help)));
        assert_eq!(args.next_arg(), Ok(Some(Arg::Value("pos".into()))));
        assert_eq!(args.next_arg(), Ok(Some(Arg::Help)));
        assert_eq!(args.next_arg(), Ok(None));
        assert_eq!(words("").len(), 1);
    }

    #[test]
    fn missing_and_unwanted_values_are_errors() {
        let mut args = Args::new(split_args("--c"));
        args.next_arg().unwrap();
        assert_eq!(args.value("--c"), Err(ArgError::MissingValue("--c".into())));
        let mut args = Args::new(split_args("--out --games 3"));
        args.next_arg().unwrap();
        assert_eq!(
            args.value("--out"),
            Err(ArgError::MissingValue("--out".into()))
        );
        // An option that takes no value, given one.
        assert_eq!(
            words("--help=yes"),
            [Err(ArgError::UnexpectedValue("--help".into()))]
        );
        assert_eq!(
            unexpected(Arg::Value("extra".into())).to_string(),
            "unexpected argument 'extra'"
        );
        assert_eq!(no_arguments(split_args("")), Ok(Parsed::Run(())));
        assert_eq!(no_arguments(split_args("-h")), Ok(Parsed::Help));
        assert_eq!(
            no_arguments(split_args("extra")),
            Err(ArgError::UnexpectedArgument("extra".into()))
        );
        assert_eq!(
            no_arguments(split_args("--x")),
            Err(ArgError::UnknownOption("--x".into()))
        );
    }

    #[test]
    fn numbers_are_decimal_or_hex_and_range_checked() {
        assert_eq!(number("--n", "5", 1, 9), Ok(5));
        assert_eq!(number("--n", "0x10", 0, 99), Ok(16));
        assert_eq!(number("--n", "0XfF", 0, 999), Ok(255));
        assert_eq!(
            number("--seed", "0xffffffffffffffff", 0, u64::MAX),
            Ok(u64::MAX)
        );
        for bad in ["0", "10", "-1", "x", "0x", "+5", "0x+5", "5.0", "", " 5"] {
            assert!(number("--n", bad, 1, 9).is_err(), "{bad:?}");
        }
        assert_eq!(
            number("--depth", "x", 1, 64).unwrap_err().to_string(),
            "bad value 'x' for --depth: expected a number 1-64"
        );
        let mut args = Args::new(split_args("--f 0.25 --f 2 --f NaN --n=0x2a"));
        args.next_arg().unwrap();
        assert_eq!(args.fraction("--f", 0.0, 1.0), Ok(0.25));
        args.next_arg().unwrap();
        assert!(args.fraction("--f", 0.0, 1.0).is_err());
        args.next_arg().unwrap();
        assert!(args.fraction("--f", 0.0, 1.0).is_err());
        args.next_arg().unwrap();
        assert_eq!(args.number("--n", 0, 100), Ok(42));
    }
}
