//! One iteration's games: fastchess plays the two perturbed engines
//! against each other, and the PGN it writes is counted from the `plus`
//! side's view.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufReader, Read};
use std::path::PathBuf;
use std::process::{Command, Stdio};

use kiln_format::record::GameResult;

use super::schedule::Perturbation;
use super::state::{Settings, TuneLock};
use crate::pgn::{GameSummary, summarise_games};

/// The name fastchess gives the engine playing `θ + c·δ`.
pub const PLUS: &str = "plus";
/// The name fastchess gives the engine playing `θ − c·δ`.
pub const MINUS: &str = "minus";

/// Why the games could not be played or counted.
#[derive(Debug)]
pub enum GamesError {
    /// A program could not be started, or its files not read or written.
    Io {
        /// What was being done.
        what: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// fastchess failed, or its PGN does not hold the games asked for.
    Match {
        /// What went wrong.
        reason: String,
        /// The end of fastchess's output.
        output_tail: String,
    },
}

impl fmt::Display for GamesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GamesError::Io { what, source } => write!(f, "{what}: {source}"),
            GamesError::Match {
                reason,
                output_tail,
            } => {
                write!(f, "{reason}")?;
                if !output_tail.is_empty() {
                    write!(f, "\nfastchess's output ended:\n{output_tail}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for GamesError {}

fn io_error(what: impl Into<String>) -> impl FnOnce(io::Error) -> GamesError {
    let what = what.into();
    move |source| GamesError::Io { what, source }
}

/// Where and with what an iteration's games are played.
#[derive(Clone, Debug)]
pub struct Arena {
    /// The fastchess binary.
    pub fastchess: PathBuf,
    /// The engine (both sides).
    pub engine: PathBuf,
    /// The opening book, EPD or PGN.
    pub book: PathBuf,
    /// Games played at once.
    pub concurrency: u64,
    /// fastchess's working directory (made before the first iteration):
    /// its PGN, its log and the `config.json` it leaves behind.
    pub directory: PathBuf,
}

/// What one iteration's games gave the `+` side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u64,
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost on time, by an illegal move or by an engine that stopped
    /// answering (either side).
    pub forfeits: u64,
}

impl Arena {
    /// The PGN of the latest iteration.
    pub fn pgn(&self) -> PathBuf {
        self.directory.join("games.pgn")
    }

    /// fastchess's output for the latest iteration.
    pub fn log(&self) -> PathBuf {
        self.directory.join("fastchess.log")
    }

    /// fastchess's command line for `perturbation` under `settings`.
    pub fn arguments(&self, settings: &Settings, perturbation: &Perturbation) -> Vec<String> {
        let side = |name: &str, values: &[i64]| {
            let mut words = vec![
                "-engine".to_string(),
                format!("cmd={}", self.engine.display()),
                format!("name={name}"),
            ];
            for (parameter, value) in settings.parameters.iter().zip(values) {
                words.push(format!("option.{}={value}", parameter.name));
            }
            words
        };
        let format = match self.book.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("pgn") => "pgn",
            _ => "epd",
        };
        let mut words = side(PLUS, &perturbation.plus);
        words.extend(side(MINUS, &perturbation.minus));
        words.extend(["-each".to_string(), "proto=uci".to_string()]);
        words.extend(settings.limit.fastchess_words());
        words.push(format!("option.Hash={}", settings.hash));
        words.push("option.Threads=1".to_string());
        // A new draw of openings each iteration, the same draw when an
        // iteration is played again.
        let opening_seed =
            settings.seed ^ perturbation.iteration.wrapping_mul(0xA24B_AED4_963E_E407);
        words.extend([
            "-openings".to_string(),
            format!("file={}", self.book.display()),
            format!("format={format}"),
            "order=random".to_string(),
            "-srand".to_string(),
            opening_seed.to_string(),
            "-games".to_string(),
            "2".to_string(),
            "-rounds".to_string(),
            settings.schedule.pairs_per.to_string(),
            "-concurrency".to_string(),
            self.concurrency.to_string(),
            // OpenBench's adjudication: a side 4 pawns down for 3 moves
            // resigns; within 10 cp for 8 moves after move 40 is a draw.
            "-resign".to_string(),
            "movecount=3".to_string(),
            "score=400".to_string(),
            "-draw".to_string(),
            "movenumber=40".to_string(),
            "movecount=8".to_string(),
            "score=10".to_string(),
            "-recover".to_string(),
            "-pgnout".to_string(),
            format!("file={}", self.pgn().display()),
            "append=false".to_string(),
        ]);
        words
    }

    /// Plays `perturbation`'s games and counts them.
    ///
    /// # Errors
    /// fastchess cannot be started or fails, or its PGN does not hold
    /// every game asked for.
    pub fn play(
        &self,
        settings: &Settings,
        perturbation: &Perturbation,
        lock: &TuneLock,
    ) -> Result<Tally, GamesError> {
        // A PGN left by an earlier iteration must not be counted again.
        match fs::remove_file(self.pgn()) {
            Err(err) if err.kind() != io::ErrorKind::NotFound => {
                return Err(io_error(format!("removing {}", self.pgn().display()))(err));
            }
            _ => {}
        }
        let log = File::create(self.log())
            .map_err(io_error(format!("creating {}", self.log().display())))?;
        let log_err = log
            .try_clone()
            .map_err(io_error(format!("opening {}", self.log().display())))?;
        // fastchess reads nothing on its standard input; given the lock
        // file there, it holds the tune's lock until it exits, even if this
        // run is killed first and leaves it playing.
        let lock_handle = lock
            .share()
            .map_err(io_error("sharing the tune's lock with fastchess"))?;
        let status = Command::new(&self.fastchess)
            .args(self.arguments(settings, perturbation))
            .current_dir(&self.directory)
            .stdin(Stdio::from(lock_handle))
            .stdout(log)
            .stderr(log_err)
            .status()
            .map_err(io_error(format!("starting {}", self.fastchess.display())))?;
        if !status.success() {
            return Err(GamesError::Match {
                reason: format!("fastchess exited with {status}"),
                output_tail: self.log_tail(),
            });
        }
        let pgn = File::open(self.pgn()).map_err(|err| GamesError::Match {
            reason: format!("fastchess wrote no {}: {err}", self.pgn().display()),
            output_tail: self.log_tail(),
        })?;
        let games = summarise_games(BufReader::new(pgn))
            .map_err(io_error(format!("reading {}", self.pgn().display())))?;
        let tally = tally_games(&games).map_err(|reason| GamesError::Match {
            reason,
            output_tail: String::new(),
        })?;
        let played = tally.wins + tally.losses + tally.draws;
        if played != 2 * settings.schedule.pairs_per {
            return Err(GamesError::Match {
                reason: format!(
                    "{} holds {played} finished games, not the {} asked for",
                    self.pgn().display(),
                    2 * settings.schedule.pairs_per
                ),
                output_tail: self.log_tail(),
            });
        }
        Ok(tally)
    }

    /// The last lines of fastchess's log.
    fn log_tail(&self) -> String {
        let mut text = String::new();
        if let Ok(mut file) = File::open(self.log()) {
            let _ = file.read_to_string(&mut text);
        }
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(15)..].join("\n")
    }
}

/// Counts games between [`PLUS`] and [`MINUS`] from the `+` side's view.
fn tally_games(games: &[GameSummary]) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for (index, game) in games.iter().enumerate() {
        let plus_is_white = match (game.white.as_deref(), game.black.as_deref()) {
            (Some(PLUS), Some(MINUS)) => true,
            (Some(MINUS), Some(PLUS)) => false,
            (white, black) => {
                return Err(format!(
                    "game {} is {} against {}, not {PLUS} against {MINUS}",
                    index + 1,
                    white.unwrap_or("?"),
                    black.unwrap_or("?")
                ));
            }
        };
        let Some(result) = game.result else {
            // Unfinished: fastchess was stopped. Not counted; the caller
            // sees too few games.
            continue;
        };
        match (result, plus_is_white) {
            (GameResult::Draw, _) => tally.draws += 1,
            (GameResult::Win, true) | (GameResult::Loss, false) => tally.wins += 1,
            (GameResult::Win, false) | (GameResult::Loss, true) => tally.losses += 1,
        }
        if matches!(
            game.termination.as_deref(),
            Some("time forfeit" | "illegal move" | "abandoned")
        ) {
            tally.forfeits += 1;
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spsa::limit::Limit;
    use crate::spsa::schedule::{Schedule, parse_input};
    use crate::spsa::state::Origin;

    fn game(white: &str, black: &str, result: Option<GameResult>, end: &str) -> GameSummary {
        GameSummary {
            white: Some(white.to_string()),
            black: Some(black.to_string()),
            result,
            termination: Some(end.to_string()),
        }
    }

    #[test]
    fn games_count_from_the_plus_side() {
        let games = [
            game(PLUS, MINUS, Some(GameResult::Win), "normal"),
            game(MINUS, PLUS, Some(GameResult::Win), "adjudication"),
            game(MINUS, PLUS, Some(GameResult::Loss), "time forfeit"),
            game(PLUS, MINUS, Some(GameResult::Draw), "normal"),
            game(PLUS, MINUS, None, "interrupt"),
        ];
        assert_eq!(
            tally_games(&games),
            Ok(Tally {
                wins: 2,
                losses: 1,
                draws: 1,
                forfeits: 1
            })
        );
        let stranger = [game("kiln", MINUS, Some(GameResult::Win), "normal")];
        assert!(
            tally_games(&stranger)
                .unwrap_err()
                .contains("kiln against minus")
        );
    }

    #[test]
    fn each_side_gets_its_values_and_the_iteration_its_openings() {
        let settings = Settings {
            limit: Limit::Nodes(2000),
            hash: 8,
            schedule: Schedule::with_defaults(10, 3),
            seed: 5,
            parameters: parse_input("a, int, 5, 0, 10, 1, 0.002\nb, int, 50, 0, 100, 5, 0.002")
                .unwrap(),
            origin: Origin::default(),
        };
        let arena = Arena {
            fastchess: PathBuf::from("fastchess"),
            engine: PathBuf::from("/engines/kiln"),
            book: PathBuf::from("book.pgn"),
            concurrency: 2,
            directory: PathBuf::from("tune.spsa.games"),
        };
        let values = [5.0, 50.0];
        let one = Perturbation::draw(&settings.schedule, &settings.parameters, &values, 5, 1);
        let words = arena.arguments(&settings, &one).join(" ");
        let plus = format!(
            "-engine cmd=/engines/kiln name=plus option.a={} option.b={} ",
            one.plus[0], one.plus[1]
        );
        let minus = format!(
            "-engine cmd=/engines/kiln name=minus option.a={} option.b={} ",
            one.minus[0], one.minus[1]
        );
        assert!(words.starts_with(&plus), "{words}");
        assert!(words.contains(&minus), "{words}");
        for part in [
            "-each proto=uci tc=inf nodes=2000 option.Hash=8 option.Threads=1",
            "format=pgn order=random",
            "-games 2 -rounds 3 -concurrency 2",
            "-pgnout file=tune.spsa.games/games.pgn append=false",
        ] {
            assert!(words.contains(part), "{part}: {words}");
        }
        let srand = |words: &[String]| {
            let at = words.iter().position(|w| w == "-srand").unwrap();
            words[at + 1].clone()
        };
        let two = Perturbation::draw(&settings.schedule, &settings.parameters, &values, 5, 2);
        assert_ne!(
            srand(&arena.arguments(&settings, &one)),
            srand(&arena.arguments(&settings, &two))
        );
        assert_eq!(
            srand(&arena.arguments(&settings, &one)),
            srand(&arena.arguments(&settings, &one))
        );
    }
}
