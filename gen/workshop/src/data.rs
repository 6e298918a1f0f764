//! `kiln-workshop data`: tools for binary training-data files, which work
//! on whole games (a game's positions and its end-of-game marker, as
//! [`kiln_format::record`] stores them):
//!
//! - `sort`: the games in game-number order, which is the file one thread
//!   of self-play writes (several threads write games as they finish);
//! - `holdout`: some games moved to the end of the file, where the tuner and
//!   the trainer take their held-out positions from (`--holdout`): a range
//!   of game numbers, or the games another file holds out;
//! - `subset`: a share of the training games, with the held-out tail kept
//!   whole, for learning curves;
//! - `stats`: games, positions and results.
//!
//! Each tool that writes a file prints the training and held-out positions
//! and the `--holdout` fraction to give the tuner or the trainer, so that
//! exactly the moved games are held out. Records after the last
//! end-of-game marker (a game cut short when self-play was killed) are left
//! out of every output and counted in `stats`.

use std::ffi::OsString;
use std::fmt;
use std::ops::RangeInclusive;

use kiln::cli::{Arg, ArgError, Args, Parsed, unexpected};
use kiln_format::FileError;
use kiln_format::record::{self, DataError, Game, GameResult, RECORD_BYTES};

/// Usage text of `kiln-workshop data`.
pub const USAGE: &str = "\
usage: kiln-workshop data <tool> <arguments>

Tools for binary training-data files (kiln-workshop datagen's format),
working on whole games:

  sort <in> <out>          the games in game-number order
  holdout <in> <out> --games <first>-<last>
                           games first..last (by number) moved to the end
  holdout <in> <out> --like <file> [--fraction <f>]
                           the games <file> holds out (its last games
                           holding the share f of its positions, default
                           0.1) moved to the end
  subset <in> <out> --fraction <f> [--holdout-fraction <h>]
                           the first share f of the training games, then the
                           held-out games (the last games holding the share
                           h of the positions, default 0.1)
  stats <file>             games, positions, results, seeds

The tools that write a file print its training and held-out positions and
the --holdout fraction that holds out exactly the moved games.

  -h, --help               this help";

/// The held-out share of positions `--fraction` and `--holdout-fraction`
/// take when not given.
pub const DEFAULT_HOLDOUT: f64 = 0.1;

/// What `kiln-workshop data` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Options {
    /// Games in game-number order.
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
    },
    /// Counts.
    Stats {
        /// The file read.
        input: String,
    },
}

/// Which games `holdout` moves to the end.
#[derive(Clone, Debug, PartialEq)]
pub enum Held {
    /// Game numbers in this range.
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
        let (mut games, mut like, mut fraction, mut holdout) = (None, None, None, None);
        while let Some(arg) = args.next_arg()? {
            match arg {
                Arg::Help => return Ok(Parsed::Help),
                Arg::Value(value) => values.push(value),
                Arg::Option(option) => match option.as_str() {
                    "--games" => games = Some(game_range(&args.value("--games")?)?),
                    "--like" => like = Some(args.value("--like")?),
                    "--fraction" => fraction = Some(args.fraction("--fraction", 0.0, 1.0)?),
                    "--holdout-fraction" => {
                        holdout = Some(args.fraction("--holdout-fraction", 0.0, 1.0)?);
                    }
                    _ => return Err(ArgError::UnknownOption(option)),
                },
            }
        }
        let mut values = values.into_iter();
        let tool = values.next().ok_or(ArgError::Missing("<tool>"))?;
        let mut file = |usage| values.next().ok_or(ArgError::Missing(usage));
        let refuse = |given: bool, option: &str| {
            if given {
                Err(ArgError::UnknownOption(option.to_string()))
            } else {
                Ok(())
            }
        };
        let options = match tool.as_str() {
            "sort" | "stats" => {
                refuse(games.is_some(), "--games")?;
                refuse(like.is_some(), "--like")?;
                refuse(fraction.is_some(), "--fraction")?;
                refuse(holdout.is_some(), "--holdout-fraction")?;
                if tool == "sort" {
                    Options::Sort {
                        input: file("<in>")?,
                        output: file("<out>")?,
                    }
                } else {
                    Options::Stats {
                        input: file("<file>")?,
                    }
                }
            }
            "holdout" => {
                refuse(holdout.is_some(), "--holdout-fraction")?;
                let held = match (games, like) {
                    (Some(range), None) => {
                        refuse(fraction.is_some(), "--fraction")?;
                        Held::Numbers(range)
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
                }
            }
            "subset" => {
                refuse(games.is_some(), "--games")?;
                refuse(like.is_some(), "--like")?;
                Options::Subset {
                    input: file("<in>")?,
                    output: file("<out>")?,
                    fraction: fraction.ok_or(ArgError::Missing("--fraction <f>"))?,
                    holdout: holdout.unwrap_or(DEFAULT_HOLDOUT),
                }
            }
            _ => return Err(ArgError::UnknownCommand(format!("data {tool}"))),
        };
        if let Some(extra) = values.next() {
            return Err(unexpected(Arg::Value(extra)));
        }
        Ok(Parsed::Run(options))
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
}

impl fmt::Display for DataToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataToolError::Read(error) => error.fmt(f),
            DataToolError::Write(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for DataToolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DataToolError::Read(error) => Some(error),
            DataToolError::Write(error) => Some(error),
        }
    }
}

impl From<DataError> for DataToolError {
    fn from(error: DataError) -> Self {
        DataToolError::Read(error)
    }
}

impl From<FileError> for DataToolError {
    fn from(error: FileError) -> Self {
        DataToolError::Write(error)
    }
}

/// The positions of some games.
fn positions(games: &[Game]) -> usize {
    games.iter().map(Game::positions).sum()
}

/// The index of the first held-out game: the held-out games are the last
/// ones, from the first game that starts once `1 - fraction` of the
/// positions are behind.
pub fn tail_start(games: &[Game], fraction: f64) -> usize {
    let threshold = (1.0 - fraction) * positions(games) as f64;
    let mut done = 0;
    for (index, game) in games.iter().enumerate() {
        if done as f64 >= threshold {
            return index;
        }
        done += game.positions();
    }
    games.len()
}

/// The line a tool that wrote a file prints: its training and held-out
/// positions and the `--holdout` fraction that holds out the last ones.
pub fn split_summary(train: &[Game], held: &[Game]) -> String {
    let (train, held) = (positions(train), positions(held));
    let all = (train + held).max(1);
    format!(
        "{train} training and {held} held-out positions: --holdout {:.6}",
        held as f64 / all as f64
    )
}

/// Runs a data tool; returns what it prints.
///
/// # Errors
/// A [`DataToolError`] when a file cannot be read or written.
pub fn run(options: &Options) -> Result<String, DataToolError> {
    match options {
        Options::Sort { input, output } => {
            let (mut games, _) = record::read_games(input)?;
            // Stable: a number twice (files merged by hand) keeps its order.
            games.sort_by_key(|game| game.number);
            record::write_games(output, &games)?;
            Ok(format!(
                "{} games, {} positions in game-number order",
                games.len(),
                positions(&games)
            ))
        }
        Options::Holdout {
            input,
            output,
            held,
        } => {
            let (games, _) = record::read_games(input)?;
            let is_held: Box<dyn Fn(&Game) -> bool> = match held {
                Held::Numbers(range) => {
                    let range = range.clone();
                    Box::new(move |game| range.contains(&game.number))
                }
                Held::Like { file, fraction } => {
                    let (other, _) = record::read_games(file)?;
                    let mut numbers: Vec<u64> = other[tail_start(&other, *fraction)..]
                        .iter()
                        .map(|game| game.number)
                        .collect();
                    numbers.sort_unstable();
                    Box::new(move |game| numbers.binary_search(&game.number).is_ok())
                }
            };
            let (held, train): (Vec<Game>, Vec<Game>) = games.into_iter().partition(is_held);
            record::write_games(output, train.iter().chain(&held))?;
            Ok(split_summary(&train, &held))
        }
        Options::Subset {
            input,
            output,
            fraction,
            holdout,
        } => {
            let (games, _) = record::read_games(input)?;
            let cut = tail_start(&games, *holdout);
            let (train, held) = games.split_at(cut);
            let keep = &train[..(train.len() as f64 * fraction) as usize];
            record::write_games(output, keep.iter().chain(held))?;
            Ok(split_summary(keep, held))
        }
        Options::Stats { input } => {
            let (games, cut_short) = record::read_games(input)?;
            Ok(stats(&games, cut_short))
        }
    }
}

/// What `stats` prints.
fn stats(games: &[Game], cut_short: usize) -> String {
    let mut results = [0usize; 3];
    let mut seeds: Vec<u64> = Vec::new();
    for game in games {
        let result = game
            .records
            .last()
            .and_then(|marker| GameResult::from_byte(marker[RECORD_BYTES - 2]));
        if let Some(result) = result {
            results[result as usize] += 1;
        }
        if !seeds.contains(&game.seed) {
            seeds.push(game.seed);
        }
    }
    let (first, last) = (
        games.iter().map(|game| game.number).min(),
        games.iter().map(|game| game.number).max(),
    );
    let numbers = match (first, last) {
        (Some(first), Some(last)) => format!("numbers {first}-{last}"),
        _ => "none".to_string(),
    };
    let count = games.len().max(1) as f64;
    format!(
        "games      {} ({numbers})\n\
         positions  {} ({:.1} a game)\n\
         results    White won {}, drew {}, lost {}\n\
         seeds      {}\n\
         cut short  {cut_short} records after the last game's end",
        games.len(),
        positions(games),
        positions(games) as f64 / count,
        results[GameResult::Win as usize],
        results[GameResult::Draw as usize],
        results[GameResult::Loss as usize],
        seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_args as args;
    use kiln::board::Board;

    /// A game of `positions` start positions and a marker.
    fn game(number: u64, positions: usize) -> Game {
        let record = crate::positions::encode(&Board::startpos(), 0, GameResult::Draw).unwrap();
        let mut records = vec![record; positions];
        records.push(record::game_marker(number, 5, GameResult::Win));
        Game {
            number,
            seed: 5,
            records,
        }
    }

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
                held: Held::Numbers(28123..=31249)
            }))
        );
        assert_eq!(
            run("holdout a b --like c"),
            Ok(Some(Options::Holdout {
                input: "a".into(),
                output: "b".into(),
                held: Held::Like {
                    file: "c".into(),
                    fraction: DEFAULT_HOLDOUT
                }
            }))
        );
        assert_eq!(
            run("subset a b --fraction 0.5"),
            Ok(Some(Options::Subset {
                input: "a".into(),
                output: "b".into(),
                fraction: 0.5,
                holdout: DEFAULT_HOLDOUT
            }))
        );
        assert_eq!(
            run("stats a"),
            Ok(Some(Options::Stats { input: "a".into() }))
        );
        assert_eq!(run("--help"), Ok(None));
        assert_eq!(run(""), Err(ArgError::Missing("<tool>")));
        assert_eq!(run("sort a"), Err(ArgError::Missing("<out>")));
        assert!(run("sort a b c").is_err());
        assert!(run("shuffle a b").is_err());
        assert!(run("holdout a b").is_err());
        assert!(run("holdout a b --games 9-3").is_err());
        assert!(run("holdout a b --games 3").is_err());
        assert!(run("holdout a b --games 1-2 --like c").is_err());
        assert!(run("subset a b").is_err());
        assert!(run("subset a b --fraction 2").is_err());
        assert!(run("sort a b --games 1-2").is_err());
    }

    #[test]
    fn the_tail_starts_where_the_held_out_share_of_positions_begins() {
        let games: Vec<Game> = (0..10).map(|n| game(n, 10)).collect();
        assert_eq!(tail_start(&games, 0.1), 9);
        assert_eq!(tail_start(&games, 0.25), 8);
        assert_eq!(tail_start(&games, 0.0), 10);
        assert_eq!(
            split_summary(&games[..9], &games[9..]),
            "90 training and 10 held-out positions: --holdout 0.100000"
        );
    }

    #[test]
    fn tools_move_whole_games() {
        let dir = std::env::temp_dir().join(format!("kiln-data-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
        let games: Vec<Game> = [3, 0, 2, 1, 4]
            .into_iter()
            .map(|n| game(n, 2 + n as usize))
            .collect();
        record::write_games(path("in.bin"), &games).unwrap();
        let numbers = |file: &str| -> Vec<u64> {
            record::read_games(path(file))
                .unwrap()
                .0
                .iter()
                .map(|game| game.number)
                .collect()
        };

        let sort = Options::Sort {
            input: path("in.bin"),
            output: path("sorted.bin"),
        };
        assert_eq!(
            run(&sort).unwrap(),
            "5 games, 20 positions in game-number order"
        );
        assert_eq!(numbers("sorted.bin"), [0, 1, 2, 3, 4]);

        let holdout = Options::Holdout {
            input: path("sorted.bin"),
            output: path("held.bin"),
            held: Held::Numbers(1..=2),
        };
        assert_eq!(
            run(&holdout).unwrap(),
            "13 training and 7 held-out positions: --holdout 0.350000"
        );
        assert_eq!(numbers("held.bin"), [0, 3, 4, 1, 2]);

        // held.bin's last 35 % of positions are games 1 and 2.
        let like = Options::Holdout {
            input: path("in.bin"),
            output: path("like.bin"),
            held: Held::Like {
                file: path("held.bin"),
                fraction: 0.35,
            },
        };
        run(&like).unwrap();
        assert_eq!(numbers("like.bin"), [3, 0, 4, 2, 1]);

        let subset = Options::Subset {
            input: path("held.bin"),
            output: path("subset.bin"),
            fraction: 0.5,
            holdout: 0.35,
        };
        assert_eq!(
            run(&subset).unwrap(),
            "2 training and 7 held-out positions: --holdout 0.777778"
        );
        assert_eq!(numbers("subset.bin"), [0, 1, 2]);

        let stats = run(&Options::Stats {
            input: path("in.bin"),
        })
        .unwrap();
        assert!(stats.starts_with("games      5 (numbers 0-4)\npositions  20 (4.0 a game)"));
        assert!(stats.contains("White won 5, drew 0, lost 0"), "{stats}");

        let missing = run(&Options::Stats {
            input: path("none.bin"),
        });
        assert!(missing.unwrap_err().to_string().contains("none.bin"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
