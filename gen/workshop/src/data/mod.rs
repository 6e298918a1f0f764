//! `kiln-workshop data`: tools for training-data files, which move whole
//! games. Game files ([`kiln_format::game`], what self-play writes) and
//! the earlier files of 32-byte position records ([`kiln_format::record`])
//! are told apart by their headers ([`kiln_format::marlin::detect`]).
//!
//! - on game files (`game_tools`): `merge` (round-robin, duplicates dropped),
//!   `shuffle`, `holdout` and `subset` by game (a game's number is its
//!   index in the file: in a shard, the game number of its seed),
//!   `stats`, `validate` (every game replayed) and `show`;
//! - `convert` (`convert`): game files to and from plain viriformat,
//!   and game files or records to files of marlinformat positions, which
//!   bullet reads;
//! - on record files (`records`): `sort`, `holdout`, `subset`, `stats`.
//!
//! Each tool that splits training from held-out data prints the training
//! and held-out positions and the `--holdout` fraction to give the tuner
//! or the trainer, so that exactly the moved games are held out; for game
//! files the positions counted are those the load filter keeps, which are
//! the ones the tuner and the trainer read.

mod convert;
mod game_tools;
mod records;

use std::ffi::OsString;
use std::fmt;
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::Path;

use kiln::cli::{Arg, ArgError, Args, Parsed, unexpected};
use kiln_format::FileError;
use kiln_format::game::GameFileError;
use kiln_format::marlin::{DataKind, detect};
use kiln_format::record::DataError;

use crate::games::ReplayError;
use crate::positions::{LoadFilter, load_filter_usage};

/// Usage text of `kiln-workshop data`.
pub const USAGE: &str = concat!(
    "\
usage: kiln-workshop data <tool> <arguments>

Tools for training-data files, working on whole games. Game files (what
kiln-workshop datagen writes: KILNGAME) and the earlier files of 32-byte
position records (KILNDATA) are told apart by their headers.

  stats <file> [filter]    games, positions, results, plies per game, men on
                           the board and score bands; for game files also the
                           positions the load filter keeps
  validate <file>          replays every game, checking every move; names the
                           first problem (file, byte offset, ply), exit status 1
  show <file> [--games <n>]
                           each position (of the first n games) as a line
                           `<fen> | <move> | <score> | <result>`: the move
                           played (UCI), the score (centipawns, White's view),
                           White's result (1.0, 0.5, 0.0); `# game` lines
                           between games
  merge <out> <in>...      game files: the games one from each input in turn,
                           duplicate games (the same bytes) dropped; the
                           output is not a shard
  shuffle <in> <out> [--seed <n>]
                           game files: the games in a random order, the same
                           from the same seed (default 1); held in memory
  holdout <in> <out> --games <first>-<last> [filter]
                           games first..last moved to the end (game files: a
                           game's number is its index in the file, in a shard
                           its game number; record files: from their markers)
  holdout <in> <out> --like <file> [--fraction <f>] [filter]
                           the games <file> holds out (its last games holding
                           the share f of its positions, default 0.1) moved to
                           the end
  holdout ... --apart <held>
                           game files: the held games written to <held>
                           instead, for the trainer's --held-out <held>
  subset <in> <out> --fraction <f> [--holdout-fraction <h>] [filter]
                           the first share f of the training games, then the
                           held-out games (the last games holding the share h
                           of the positions, default 0.1)
  import-pgn <out> <pgn>...
                           games of PGN files (fastchess and cutechess score
                           comments) as a game file; games without a result
                           or with a move that does not parse are skipped
                           and listed
  sort <in> <out>          record files: the games in game-number order (a
                           game file's games are in order already)
  convert <in> <out> --to viriformat
                           game file to plain viriformat (no header), what
                           viridithas's tools read
  convert <in> <out> --from viriformat
                           plain viriformat to a game file (not a shard)
  convert <in> <out> --to marlinformat [filter]
                           32-byte marlinformat positions, which bullet reads:
                           from a game file, the positions the load filter
                           keeps; from a record file, every position (records
                           hold no moves, so they cannot become games)

The tools that split training from held-out games print the training and
held-out positions and the --holdout fraction that holds out exactly the
moved games; for game files they count the positions the load filter
keeps. The tools that write a file refuse to overwrite their input. Each
tool prints a summary line (show: on stderr).

The load filter ([filter]: game files store every ply, and the filter
chooses the positions read; files of positions are read whole), as
kiln-workshop train and tune take it:
",
    load_filter_usage!(),
    "
  -h, --help               this help"
);

/// The held-out share of positions `--fraction` and `--holdout-fraction`
/// take when not given.
pub const DEFAULT_HOLDOUT: f64 = 0.1;

/// The seed `shuffle` takes when not given.
pub const DEFAULT_SEED: u64 = 1;

/// What `kiln-workshop data` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Options {
    /// PGN games as a game file.
    ImportPgn {
        /// The game file written.
        output: String,
        /// The PGN files read.
        inputs: Vec<String>,
    },
    /// Record files: games in game-number order.
    Sort {
        /// The file read.
        input: String,
        /// The file written.
        output: String,
    },
    /// Some games moved to the end.
    Holdout {
        /// The file read.
        input: String,
        /// The file written.
        output: String,
        /// Which games.
        held: Held,
        /// Where the held games go instead of the end of `output`.
        apart: Option<String>,
        /// Which positions of game files count.
        filter: LoadFilter,
    },
    /// A share of the training games and the whole held-out tail.
    Subset {
        /// The file read.
        input: String,
        /// The file written.
        output: String,
        /// The share of the training games kept (the first ones).
        fraction: f64,
        /// The share of positions held out at the end of the input.
        holdout: f64,
        /// Which positions of game files count.
        filter: LoadFilter,
    },
    /// Counts and histograms.
    Stats {
        /// The file read.
        input: String,
        /// The filter whose kept positions are counted (game files).
        filter: LoadFilter,
    },
    /// Every game replayed.
    Validate {
        /// The file read.
        input: String,
    },
    /// The positions as text.
    Show {
        /// The file read.
        input: String,
        /// Show the first this many games only.
        games: Option<u64>,
    },
    /// Game files' games interleaved, duplicates dropped.
    Merge {
        /// The file written.
        output: String,
        /// The files read.
        inputs: Vec<String>,
    },
    /// A game file's games in a random order.
    Shuffle {
        /// The file read.
        input: String,
        /// The file written.
        output: String,
        /// The seed of the order.
        seed: u64,
    },
    /// One kind of file to another.
    Convert {
        /// The file read.
        input: String,
        /// The file written.
        output: String,
        /// What to write.
        to: Target,
        /// Which positions of a game file become marlinformat positions.
        filter: LoadFilter,
    },
}

/// What `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Plain viriformat, from a game file.
    Viriformat,
    /// A game file, from plain viriformat.
    GamesFromViriformat,
    /// Marlinformat positions, from a game file or a record file.
    Marlinformat,
}

/// Which games `holdout` moves to the end.
#[derive(Clone, Debug, PartialEq)]
pub enum Held {
    /// Game numbers in this range (in a game file, indices).
    Numbers(RangeInclusive<u64>),
    /// The games another file holds out: its last games that hold this
    /// share of its positions.
    Like {
        /// The other file.
        file: String,
        /// The share of its positions held out.
        fraction: f64,
    },
}

impl Options {
    /// Parses the arguments after `data`.
    ///
    /// # Errors
    /// An [`ArgError`] naming the word that cannot be used.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut args = Args::new(args);
        let mut values = Vec::new();
        // Options are read whatever the tool, then refused by the tools
        // that do not take them: `given` lists each one met.
        let mut given: Vec<String> = Vec::new();
        let (mut games, mut like, mut fraction, mut holdout) = (None, None, None, None);
        let (mut seed, mut to, mut from, mut apart) = (None, None, None, None);
        let mut filter = LoadFilter::default();
        while let Some(arg) = args.next_arg()? {
            match arg {
                Arg::Help => return Ok(Parsed::Help),
                Arg::Value(value) => values.push(value),
                Arg::Option(option) => {
                    match option.as_str() {
                        "--games" => games = Some(args.value("--games")?),
                        "--like" => like = Some(args.value("--like")?),
                        "--fraction" => fraction = Some(args.fraction("--fraction", 0.0, 1.0)?),
                        "--holdout-fraction" => {
                            holdout = Some(args.fraction("--holdout-fraction", 0.0, 1.0)?);
                        }
                        "--seed" => seed = Some(args.number("--seed", 0, u64::MAX)?),
                        "--to" => to = Some(args.value("--to")?),
                        "--from" => from = Some(args.value("--from")?),
                        "--apart" => apart = Some(args.value("--apart")?),
                        flag => {
                            if !filter.option(flag, &mut args)? {
                                return Err(ArgError::UnknownOption(option));
                            }
                        }
                    }
                    given.push(option);
                }
            }
        }
        let mut values = values.into_iter();
        let tool = values.next().ok_or(ArgError::Missing("<tool>"))?;
        let filtered = [
            "--min-ply",
            "--keep-check",
            "--keep-noisy",
            "--max-score",
            "--min-men",
        ];
        let takes: &[&str] = match tool.as_str() {
            "holdout" => &["--games", "--like", "--fraction", "--apart"],
            "subset" => &["--fraction", "--holdout-fraction"],
            "show" => &["--games"],
            "shuffle" => &["--seed"],
            "convert" => &["--to", "--from"],
            _ => &[],
        };
        let takes_filter = matches!(tool.as_str(), "holdout" | "subset" | "stats" | "convert");
        let taken =
            |option: &str| takes.contains(&option) || (takes_filter && filtered.contains(&option));
        if let Some(other) = given.iter().find(|option| !taken(option)) {
            return Err(ArgError::UnknownOption(other.clone()));
        }
        let mut file = |usage| values.next().ok_or(ArgError::Missing(usage));
        let options = match tool.as_str() {
            "sort" => Options::Sort {
                input: file("<in>")?,
                output: file("<out>")?,
            },
            "stats" => Options::Stats {
                input: file("<file>")?,
                filter,
            },
            "validate" => Options::Validate {
                input: file("<file>")?,
            },
            "show" => Options::Show {
                input: file("<file>")?,
                games: games
                    .map(|text| kiln::cli::number("--games", &text, 1, u64::MAX))
                    .transpose()?,
            },
            "shuffle" => Options::Shuffle {
                input: file("<in>")?,
                output: file("<out>")?,
                seed: seed.unwrap_or(DEFAULT_SEED),
            },
            "merge" => {
                let output = file("<out>")?;
                let inputs: Vec<String> = values.by_ref().collect();
                if inputs.is_empty() {
                    return Err(ArgError::Missing("<in>..."));
                }
                Options::Merge { output, inputs }
            }
            "import-pgn" => {
                let output = file("<out>")?;
                let inputs: Vec<String> = values.by_ref().collect();
                if inputs.is_empty() {
                    return Err(ArgError::Missing("<pgn>..."));
                }
                Options::ImportPgn { output, inputs }
            }
            "holdout" => {
                let held = match (games, like) {
                    (Some(range), None) => {
                        if fraction.is_some() {
                            return Err(ArgError::UnknownOption("--fraction".into()));
                        }
                        Held::Numbers(game_range(&range)?)
                    }
                    (None, Some(file)) => Held::Like {
                        file,
                        fraction: fraction.unwrap_or(DEFAULT_HOLDOUT),
                    },
                    (Some(_), Some(_)) => {
                        return Err(ArgError::Conflict("--games", "--like"));
                    }
                    (None, None) => {
                        return Err(ArgError::Missing("--games <first>-<last> or --like <file>"));
                    }
                };
                Options::Holdout {
                    input: file("<in>")?,
                    output: file("<out>")?,
                    held,
                    apart,
                    filter,
                }
            }
            "subset" => Options::Subset {
                input: file("<in>")?,
                output: file("<out>")?,
                fraction: fraction.ok_or(ArgError::Missing("--fraction <f>"))?,
                holdout: holdout.unwrap_or(DEFAULT_HOLDOUT),
                filter,
            },
            "convert" => {
                let bad = |what: &str, text: String, reason: &str| ArgError::BadValue {
                    what: what.to_string(),
                    text,
                    reason: reason.to_string(),
                };
                let to = match (from, to) {
                    (Some(from), _) if from != "viriformat" => {
                        return Err(bad(
                            "--from",
                            from,
                            "only viriformat: the other kinds are told by their headers",
                        ));
                    }
                    (Some(_), None) => Target::GamesFromViriformat,
                    (Some(_), Some(to)) if to == "games" => Target::GamesFromViriformat,
                    (Some(_), Some(to)) => {
                        return Err(bad("--to", to, "viriformat converts to games only"));
                    }
                    (None, Some(to)) => match to.as_str() {
                        "viriformat" => Target::Viriformat,
                        "marlinformat" => Target::Marlinformat,
                        "games" => {
                            return Err(bad(
                                "--to",
                                to,
                                "games come from viriformat (--from viriformat); files of \
                                 positions hold no moves",
                            ));
                        }
                        _ => return Err(bad("--to", to, "expected viriformat or marlinformat")),
                    },
                    (None, None) => {
                        return Err(ArgError::Missing("--to <kind> or --from viriformat"));
                    }
                };
                let filter_given = given.iter().find(|o| filtered.contains(&o.as_str()));
                if let (false, Some(option)) = (to == Target::Marlinformat, filter_given) {
                    return Err(ArgError::UnknownOption(option.clone()));
                }
                Options::Convert {
                    input: file("<in>")?,
                    output: file("<out>")?,
                    to,
                    filter,
                }
            }
            _ => return Err(ArgError::UnknownCommand(format!("data {tool}"))),
        };
        if let Some(extra) = values.next() {
            return Err(unexpected(Arg::Value(extra)));
        }
        Ok(Parsed::Run(options))
    }

    /// Whether the tool writes data to its output (`show`), so that its
    /// summary belongs on stderr.
    pub fn summary_on_stderr(&self) -> bool {
        matches!(self, Options::Show { .. })
    }
}

/// `<first>-<last>`, both game numbers, first at most last.
fn game_range(text: &str) -> Result<RangeInclusive<u64>, ArgError> {
    let bad = |reason: &str| ArgError::BadValue {
        what: "--games".to_string(),
        text: text.to_string(),
        reason: reason.to_string(),
    };
    let (first, last) = text
        .split_once('-')
        .ok_or_else(|| bad("expected <first>-<last>"))?;
    let first = kiln::cli::number("--games", first, 0, u64::MAX)?;
    let last = kiln::cli::number("--games", last, 0, u64::MAX)?;
    if first > last {
        return Err(bad("the first game is after the last"));
    }
    Ok(first..=last)
}

/// Why a data tool failed.
#[derive(Debug)]
pub enum DataToolError {
    /// A file could not be read or is not training data.
    Read(DataError),
    /// The output could not be written.
    Write(FileError),
    /// Standard output could not be written.
    Output(std::io::Error),
    /// A game that does not replay: a move not legal where it is played,
    /// or a start position that is not one.
    Replay {
        /// The file.
        path: String,
        /// The byte offset of the game.
        offset: u64,
        /// What is wrong, and at which ply.
        error: ReplayError,
    },
    /// A position of a file of positions that is not a legal one.
    BadPosition {
        /// The file.
        path: String,
        /// The byte offset of the position.
        offset: u64,
        /// What is wrong.
        detail: String,
    },
    /// A file of a kind the tool does not take.
    Kind {
        /// The file.
        path: String,
        /// What the tool needs, and what the file is.
        detail: String,
    },
    /// An output that is one of the inputs, which writing it would
    /// destroy.
    SameFile {
        /// The file.
        path: String,
    },
    /// PGN files could not be read or their games written.
    Import(crate::pgn::ImportError),
}

impl fmt::Display for DataToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataToolError::Read(error) => error.fmt(f),
            DataToolError::Write(error) => error.fmt(f),
            DataToolError::Output(error) => write!(f, "cannot write the output: {error}"),
            DataToolError::Replay {
                path,
                offset,
                error,
            } => write!(f, "'{path}': the game at byte {offset}: {error}"),
            DataToolError::BadPosition {
                path,
                offset,
                detail,
            } => write!(f, "'{path}': the position at byte {offset}: {detail}"),
            DataToolError::Kind { path, detail } => write!(f, "'{path}': {detail}"),
            DataToolError::Import(error) => error.fmt(f),
            DataToolError::SameFile { path } => {
                write!(f, "'{path}' is both an input and the output")
            }
        }
    }
}

impl std::error::Error for DataToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataToolError::Read(error) => Some(error),
            DataToolError::Write(error) => Some(error),
            DataToolError::Output(error) => Some(error),
            DataToolError::Replay { error, .. } => Some(error),
            DataToolError::Import(error) => Some(error),
            DataToolError::BadPosition { .. }
            | DataToolError::Kind { .. }
            | DataToolError::SameFile { .. } => None,
        }
    }
}

impl From<DataError> for DataToolError {
    fn from(error: DataError) -> Self {
        DataToolError::Read(error)
    }
}

impl From<GameFileError> for DataToolError {
    fn from(error: GameFileError) -> Self {
        match error {
            GameFileError::File(error) => DataToolError::Read(DataError::File(error)),
            error => DataToolError::Read(error.into()),
        }
    }
}

impl From<FileError> for DataToolError {
    fn from(error: FileError) -> Self {
        DataToolError::Write(error)
    }
}

/// The index of the first held-out game of games of `sizes` positions:
/// the held-out games are the last ones, from the first game that starts
/// once `1 - fraction` of the positions are behind.
pub fn tail_start(sizes: &[u64], fraction: f64) -> usize {
    let threshold = (1.0 - fraction) * sizes.iter().sum::<u64>() as f64;
    let mut done = 0;
    for (index, &size) in sizes.iter().enumerate() {
        if done as f64 >= threshold {
            return index;
        }
        done += size;
    }
    sizes.len()
}

/// The line a tool that wrote a file prints: its training and held-out
/// positions and the `--holdout` fraction that holds out the last ones;
/// `which` says which positions were counted, if not all.
pub fn split_summary(train: u64, held: u64, which: &str) -> String {
    let all = (train + held).max(1);
    format!(
        "{train} training and {held} held-out positions{which}: --holdout {:.6}",
        held as f64 / all as f64
    )
}

/// The kind of a data file.
fn kind_of(path: &str) -> Result<DataKind, DataToolError> {
    detect(path).map_err(|error| DataToolError::Read(DataError::File(error)))
}

/// The error for a file of a kind a tool does not take.
fn wrong_kind(path: &str, kind: DataKind, needs: &str) -> DataToolError {
    DataToolError::Kind {
        path: path.to_string(),
        detail: format!("{needs}; this is {}", kind.name()),
    }
}

/// Refuses load-filter options (`--min-ply`, `--max-score`, …) where they
/// would go unused: they choose positions while a game file is replayed,
/// and a file of positions, or a tool that copies games whole, reads none.
fn unfiltered(path: &str, kind: DataKind, filter: &LoadFilter) -> Result<(), DataToolError> {
    if *filter == LoadFilter::default() {
        return Ok(());
    }
    Err(wrong_kind(
        path,
        kind,
        "the load-filter options choose the positions of a game file as it is replayed, and here none is",
    ))
}

/// Refuses an output that is one of the inputs (the same file, by
/// whatever name): the tools create their output before they are done
/// reading.
fn distinct(inputs: &[&str], output: &str) -> Result<(), DataToolError> {
    let Ok(out) = Path::new(output).canonicalize() else {
        // No such file yet: it cannot be an input.
        return Ok(());
    };
    for input in inputs {
        if Path::new(input)
            .canonicalize()
            .is_ok_and(|path| path == out)
        {
            return Err(DataToolError::SameFile {
                path: output.to_string(),
            });
        }
    }
    Ok(())
}

/// Runs a data tool; `show` writes its lines to `out`. Returns what the
/// tool reports: a summary line (`stats`: its table).
///
/// # Errors
/// A [`DataToolError`] when a file cannot be read or written, is of a kind
/// the tool does not take, or (`validate`, and every tool that replays
/// games) holds a game that does not replay.
pub fn run(options: &Options, out: &mut dyn Write) -> Result<String, DataToolError> {
    match options {
        Options::Sort { input, output } => {
            distinct(&[input], output)?;
            match kind_of(input)? {
                DataKind::Records => records::sort(input, output),
                kind => Err(wrong_kind(
                    input,
                    kind,
                    "sort reads record files (a game file's games are in order already)",
                )),
            }
        }
        Options::Holdout {
            input,
            output,
            held,
            apart,
            filter,
        } => {
            let mut inputs = vec![input.as_str()];
            if let Held::Like { file, .. } = held {
                inputs.push(file);
            }
            distinct(&inputs, output)?;
            if let Some(apart) = apart {
                distinct(&inputs, apart)?;
                distinct(&[output.as_str()], apart)?;
            }
            match kind_of(input)? {
                DataKind::Records if apart.is_some() => Err(wrong_kind(
                    input,
                    DataKind::Records,
                    "holdout --apart reads game files",
                )),
                DataKind::Records => {
                    unfiltered(input, DataKind::Records, filter)?;
                    records::holdout(input, output, held)
                }
                DataKind::Games => {
                    game_tools::holdout(input, output, held, apart.as_deref(), filter)
                }
                kind => Err(wrong_kind(
                    input,
                    kind,
                    "holdout reads game and record files",
                )),
            }
        }
        Options::Subset {
            input,
            output,
            fraction,
            holdout,
            filter,
        } => {
            distinct(&[input], output)?;
            match kind_of(input)? {
                DataKind::Records => {
                    unfiltered(input, DataKind::Records, filter)?;
                    records::subset(input, output, *fraction, *holdout)
                }
                DataKind::Games => game_tools::subset(input, output, *fraction, *holdout, filter),
                kind => Err(wrong_kind(
                    input,
                    kind,
                    "subset reads game and record files",
                )),
            }
        }
        Options::Stats { input, filter } => match kind_of(input)? {
            DataKind::Records => {
                unfiltered(input, DataKind::Records, filter)?;
                records::stats(input)
            }
            DataKind::Games => game_tools::stats(input, filter),
            DataKind::Marlinformat => {
                unfiltered(input, DataKind::Marlinformat, filter)?;
                game_tools::position_stats(input)
            }
            kind => Err(wrong_kind(input, kind, "stats reads binary data files")),
        },
        Options::Validate { input } => game_tools::validate(input, kind_of(input)?),
        Options::Show { input, games } => game_tools::show(input, kind_of(input)?, *games, out),
        Options::Merge { output, inputs } => {
            let names: Vec<&str> = inputs.iter().map(String::as_str).collect();
            distinct(&names, output)?;
            game_tools::merge(output, inputs)
        }
        Options::ImportPgn { output, inputs } => {
            let names: Vec<&str> = inputs.iter().map(String::as_str).collect();
            distinct(&names, output)?;
            let paths: Vec<std::path::PathBuf> = inputs.iter().map(Into::into).collect();
            let summary =
                crate::pgn::import_pgn(&paths, Path::new(output)).map_err(DataToolError::Import)?;
            Ok(summary.to_string().trim_end().to_string())
        }
        Options::Shuffle {
            input,
            output,
            seed,
        } => {
            distinct(&[input], output)?;
            game_tools::shuffle(input, output, *seed)
        }
        Options::Convert {
            input,
            output,
            to,
            filter,
        } => {
            distinct(&[input], output)?;
            convert::convert(input, output, *to, filter)
        }
    }
}

/// Runs a tool for a test, its output thrown away.
#[cfg(test)]
pub(crate) fn run_to_string(options: &Options) -> Result<String, DataToolError> {
    run(options, &mut std::io::sink())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_args as args;

    #[test]
    fn options_name_each_tool_and_refuse_what_it_does_not_take() {
        let run = |text: &str| Options::parse(args(text)).map(Parsed::run);
        assert_eq!(
            run("sort a b"),
            Ok(Some(Options::Sort {
                input: "a".into(),
                output: "b".into()
            }))
        );
        assert_eq!(
            run("holdout a b --games 28123-31249"),
            Ok(Some(Options::Holdout {
                input: "a".into(),
                output: "b".into(),
                held: Held::Numbers(28123..=31249),
                apart: None,
                filter: LoadFilter::default(),
            }))
        );
        assert_eq!(
            run("holdout a b --games 0-1999 --apart h"),
            Ok(Some(Options::Holdout {
                input: "a".into(),
                output: "b".into(),
                held: Held::Numbers(0..=1999),
                apart: Some("h".into()),
                filter: LoadFilter::default(),
            }))
        );
        assert_eq!(
            run("holdout a b --like c --min-ply 4"),
            Ok(Some(Options::Holdout {
                input: "a".into(),
                output: "b".into(),
                held: Held::Like {
                    file: "c".into(),
                    fraction: DEFAULT_HOLDOUT
                },
                apart: None,
                filter: LoadFilter {
                    min_ply: 4,
                    ..LoadFilter::default()
                },
            }))
        );
        assert_eq!(
            run("subset a b --fraction 0.5"),
            Ok(Some(Options::Subset {
                input: "a".into(),
                output: "b".into(),
                fraction: 0.5,
                holdout: DEFAULT_HOLDOUT,
                filter: LoadFilter::default(),
            }))
        );
        assert_eq!(
            run("stats a --keep-check"),
            Ok(Some(Options::Stats {
                input: "a".into(),
                filter: LoadFilter {
                    keep_check: true,
                    ..LoadFilter::default()
                },
            }))
        );
        assert_eq!(
            run("validate a"),
            Ok(Some(Options::Validate { input: "a".into() }))
        );
        assert_eq!(
            run("show a --games 3"),
            Ok(Some(Options::Show {
                input: "a".into(),
                games: Some(3)
            }))
        );
        assert_eq!(
            run("show a"),
            Ok(Some(Options::Show {
                input: "a".into(),
                games: None
            }))
        );
        assert_eq!(
            run("import-pgn out.games a.pgn b.pgn"),
            Ok(Some(Options::ImportPgn {
                output: "out.games".into(),
                inputs: vec!["a.pgn".into(), "b.pgn".into()]
            }))
        );
        assert_eq!(
            run("import-pgn out.games"),
            Err(ArgError::Missing("<pgn>..."))
        );
        assert!(run("import-pgn out.games a.pgn --min-ply 3").is_err());
        assert_eq!(
            run("merge o a b c"),
            Ok(Some(Options::Merge {
                output: "o".into(),
                inputs: vec!["a".into(), "b".into(), "c".into()]
            }))
        );
        assert_eq!(
            run("shuffle a b"),
            Ok(Some(Options::Shuffle {
                input: "a".into(),
                output: "b".into(),
                seed: DEFAULT_SEED
            }))
        );
        assert_eq!(
            run("shuffle a b --seed 0x10"),
            Ok(Some(Options::Shuffle {
                input: "a".into(),
                output: "b".into(),
                seed: 16
            }))
        );
        let convert = |to| {
            Ok(Some(Options::Convert {
                input: "a".into(),
                output: "b".into(),
                to,
                filter: LoadFilter::default(),
            }))
        };
        assert_eq!(
            run("convert a b --to viriformat"),
            convert(Target::Viriformat)
        );
        assert_eq!(
            run("convert a b --from viriformat"),
            convert(Target::GamesFromViriformat)
        );
        assert_eq!(
            run("convert a b --from viriformat --to games"),
            convert(Target::GamesFromViriformat)
        );
        assert_eq!(
            run("convert a b --to marlinformat"),
            convert(Target::Marlinformat)
        );
        assert_eq!(run("--help"), Ok(None));
        assert_eq!(run(""), Err(ArgError::Missing("<tool>")));
        assert_eq!(run("sort a"), Err(ArgError::Missing("<out>")));
        assert_eq!(run("merge o"), Err(ArgError::Missing("<in>...")));
        assert!(run("sort a b c").is_err());
        assert!(run("frobnicate a b").is_err());
        assert!(run("holdout a b").is_err());
        assert!(run("holdout a b --games 9-3").is_err());
        assert!(run("holdout a b --games 3").is_err());
        assert!(run("holdout a b --games 1-2 --like c").is_err());
        assert!(run("holdout a b --games 1-2 --fraction 0.2").is_err());
        assert!(run("subset a b").is_err());
        assert!(run("subset a b --fraction 2").is_err());
        assert!(run("sort a b --games 1-2").is_err());
        assert!(run("sort a b --min-ply 3").is_err());
        assert!(run("show a --games 0").is_err());
        assert!(run("show a --seed 3").is_err());
        assert!(run("validate a --keep-check").is_err());
        assert!(run("merge o a --seed 1").is_err());
        assert!(run("convert a b").is_err());
        assert!(run("convert a b --to games").is_err());
        assert!(run("convert a b --to bulletformat").is_err());
        assert!(run("convert a b --from marlinformat").is_err());
        assert!(run("convert a b --from viriformat --to marlinformat").is_err());
        assert!(run("convert a b --to viriformat --min-ply 3").is_err());
        assert_eq!(
            run("stats a --frobnicate"),
            Err(ArgError::UnknownOption("--frobnicate".into()))
        );
    }

    #[test]
    fn usage_states_the_defaults() {
        use kiln::cli::documented_default as default;
        let filter = LoadFilter::default();
        assert_eq!(
            default(USAGE, "--min-ply"),
            Some(&*filter.min_ply.to_string())
        );
        assert_eq!(
            default(USAGE, "--min-men"),
            Some(&*filter.min_men.to_string())
        );
        assert!(USAGE.contains(&format!("seed (default {DEFAULT_SEED})")));
        assert!(USAGE.contains(&format!("default {DEFAULT_HOLDOUT}")));
    }
}
