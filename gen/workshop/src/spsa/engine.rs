//! What the engine offers to tune, asked over UCI before any game: its
//! spin options, and (Kiln built with the `spsa` feature) OpenBench's SPSA
//! input for every tunable, printed by its `spsa` command; and its bench
//! signature, which tells one build from another.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::schedule::{Parameter, parse_input};
use crate::uci_client::read_lines_on_a_thread;

/// How long the engine may take to answer `uci`, `isready` and `spsa`
/// together.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

/// How long `<engine> bench` may take (Kiln's takes about a second; the
/// field's benches are made to finish within a minute).
const BENCH_TIMEOUT: Duration = Duration::from_secs(120);

/// The most of an engine's answer the probe reads: Kiln's is a few
/// kilobytes, and an engine that prints without end is cut off here
/// rather than filling the memory.
const MOST_ANSWER_BYTES: usize = 1 << 20;

/// Options every game sets itself (`-each`, after the sides' own options,
/// so a tuned value would be overridden): not tunable here.
const SET_FOR_EVERY_GAME: [&str; 2] = ["Hash", "Threads"];

/// Why the engine's offer could not be had or used.
#[derive(Debug)]
pub enum EngineError {
    /// The engine could not be started.
    Start {
        /// The engine.
        engine: PathBuf,
        /// What the operating system said.
        source: io::Error,
    },
    /// The engine did not answer `uci` with `uciok` in time.
    NoHandshake {
        /// The engine.
        engine: PathBuf,
    },
    /// A parameter is not one of the engine's spin options, its range goes
    /// beyond the option's, or every game sets it.
    NotTunable {
        /// The parameter.
        name: String,
        /// Why.
        reason: String,
    },
    /// The engine printed no SPSA input, or input that does not read.
    Input(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Start { engine, source } => {
                write!(f, "cannot start {}: {source}", engine.display())
            }
            EngineError::NoHandshake { engine } => write!(
                f,
                "{} did not answer 'uci' with 'uciok' within {} s",
                engine.display(),
                PROBE_TIMEOUT.as_secs()
            ),
            EngineError::NotTunable { name, reason } => write!(f, "parameter {name}: {reason}"),
            EngineError::Input(reason) => write!(f, "{reason}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A spin option an engine declares: `option name N type spin default D
/// min A max B`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpinOption {
    /// Its name.
    pub name: String,
    /// Its smallest value.
    pub min: i64,
    /// Its largest value.
    pub max: i64,
}

/// Reads a spin option from an `option` line, if it is one.
pub fn spin_option(line: &str) -> Option<SpinOption> {
    let rest = line.strip_prefix("option name ")?;
    let (name, rest) = rest.split_once(" type ")?;
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.first() != Some(&"spin") {
        return None;
    }
    let after = |key: &str| {
        let at = words.iter().position(|w| *w == key)?;
        words.get(at + 1)?.parse::<i64>().ok()
    };
    Some(SpinOption {
        name: name.trim().to_string(),
        min: after("min")?,
        max: after("max")?,
    })
}

/// What an engine says about tuning.
#[derive(Clone, Debug, Default)]
pub struct EngineOffer {
    /// Its `id name`, if it gave one.
    pub id_name: Option<String>,
    /// Every spin option (from the `uci` answer).
    pub spin_options: Vec<SpinOption>,
    /// The SPSA input lines of its `spsa` command (after `readyok`; other
    /// engines print none).
    pub spsa_input: Vec<String>,
}

impl EngineOffer {
    /// Reads an engine's answer to `uci`, `isready`, `spsa`, `quit`.
    fn read(lines: impl IntoIterator<Item = String>) -> (EngineOffer, bool) {
        let mut offer = EngineOffer::default();
        let (mut handshake, mut ready) = (false, false);
        for line in lines {
            let line = line.trim();
            if line == "uciok" {
                handshake = true;
            } else if line == "readyok" {
                ready = true;
            } else if let Some(name) = line.strip_prefix("id name ")
                && !handshake
            {
                offer.id_name = Some(name.trim().to_string());
            } else if !handshake {
                offer.spin_options.extend(spin_option(line));
            } else if ready && line.split(',').count() == 7 {
                offer.spsa_input.push(line.to_string());
            }
        }
        (offer, handshake)
    }

    /// Starts `engine`, sends `uci`, `isready`, `spsa` and `quit`, and
    /// reads what it says until it exits, the time allowed is up or it has
    /// said more than 1 MiB.
    ///
    /// # Errors
    /// The engine cannot be started or does not answer `uci`.
    pub fn probe(engine: &Path) -> Result<EngineOffer, EngineError> {
        let lines = answer_of(engine, &[], b"uci\nisready\nspsa\nquit\n", PROBE_TIMEOUT)?;
        let (offer, handshake) = EngineOffer::read(lines);
        if !handshake {
            return Err(EngineError::NoHandshake {
                engine: engine.to_path_buf(),
            });
        }
        Ok(offer)
    }

    /// The engine's own SPSA input as parameters.
    ///
    /// # Errors
    /// It printed none, or a line that does not read.
    pub fn parameters(&self) -> Result<Vec<Parameter>, EngineError> {
        if self.spsa_input.is_empty() {
            return Err(EngineError::Input(
                "the engine printed no SPSA input for 'spsa' (build Kiln with \
                 `--features spsa`, or give --params <file>)"
                    .to_string(),
            ));
        }
        parse_input(&self.spsa_input.join("\n"))
            .map_err(|err| EngineError::Input(format!("the engine's SPSA input, {err}")))
    }

    /// Checks that every parameter is a spin option of the engine (UCI
    /// option names ignore case), stays inside the option's range, and is
    /// not one that every game sets.
    ///
    /// # Errors
    /// The first parameter that is not tunable.
    pub fn check(&self, parameters: &[Parameter]) -> Result<(), EngineError> {
        for parameter in parameters {
            let not_tunable = |reason: String| EngineError::NotTunable {
                name: parameter.name.clone(),
                reason,
            };
            if SET_FOR_EVERY_GAME
                .iter()
                .any(|name| name.eq_ignore_ascii_case(&parameter.name))
            {
                return Err(not_tunable(
                    "every game sets it (--hash; one thread a game)".to_string(),
                ));
            }
            let Some(option) = self
                .spin_options
                .iter()
                .find(|o| o.name.eq_ignore_ascii_case(&parameter.name))
            else {
                return Err(not_tunable(
                    "the engine has no spin option of that name (Kiln declares its \
                     tunables only when built with `--features spsa`)"
                        .to_string(),
                ));
            };
            if parameter.min < option.min as f64 || parameter.max > option.max as f64 {
                return Err(not_tunable(format!(
                    "range {}..={} goes beyond the option's {}..={}",
                    parameter.min, parameter.max, option.min, option.max
                )));
            }
        }
        Ok(())
    }
}

/// Runs `engine` with `arguments`, writes `input` to it, and reads what it
/// says on its standard output until it exits, `timeout` is up or it has
/// said more than 1 MiB; then the process is ended.
///
/// # Errors
/// The engine cannot be started.
fn answer_of(
    engine: &Path,
    arguments: &[&str],
    input: &[u8],
    timeout: Duration,
) -> Result<Vec<String>, EngineError> {
    let start_error = |source| EngineError::Start {
        engine: engine.to_path_buf(),
        source,
    };
    let mut child = Command::new(engine)
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(start_error)?;
    if let Some(mut pipe) = child.stdin.take() {
        // An engine that exits early closes the pipe; its answer (or the
        // lack of one) says what went wrong. Dropping the pipe closes the
        // engine's input, so one that waits for more reads its end.
        let _ = pipe.write_all(input);
    }
    let deadline = Instant::now() + timeout;
    let mut lines = Vec::new();
    let mut read = 0;
    if let Some(output) = child.stdout.take() {
        let receiver = read_lines_on_a_thread(output).map_err(start_error)?;
        // Until the engine exits, fails, or has said more than an answer
        // holds, or the time is up.
        while let Some(left) = deadline.checked_duration_since(Instant::now())
            && read <= MOST_ANSWER_BYTES
        {
            match receiver.recv_timeout(left) {
                Ok(Ok(line)) => {
                    read += line.len();
                    lines.push(line);
                }
                Ok(Err(_)) | Err(_) => break,
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    Ok(lines)
}

/// The engine's bench signature: the node count that `<engine> bench`
/// prints, the field's fingerprint of a build's search and evaluation
/// (OpenBench reads it the same way). `None` for an engine that prints
/// none within the time allowed.
///
/// # Errors
/// The engine cannot be started.
pub fn bench_signature(engine: &Path) -> Result<Option<u64>, EngineError> {
    let lines = answer_of(engine, &["bench"], b"", BENCH_TIMEOUT)?;
    Ok(bench_nodes(&lines))
}

/// The node count of a bench's output, read as OpenBench reads it: the
/// number in `<n> nodes` (Kiln, Ethereal), `nodes <n>` or `nodes searched
/// <n>` (Stockfish), on the last line that has one.
fn bench_nodes(lines: &[String]) -> Option<u64> {
    lines.iter().rev().find_map(|line| {
        let words: Vec<String> = line
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|word| !word.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let number = |at: usize| words.get(at)?.parse::<u64>().ok();
        let at = words.iter().position(|word| word == "nodes")?;
        let searched = usize::from(words.get(at + 1).is_some_and(|w| w == "searched"));
        at.checked_sub(1)
            .and_then(number)
            .or_else(|| number(at + 1 + searched))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spin_options_read_from_option_lines() {
        assert_eq!(
            spin_option("option name rfp_margin type spin default 75 min 35 max 150"),
            Some(SpinOption {
                name: "rfp_margin".to_string(),
                min: 35,
                max: 150
            })
        );
        assert_eq!(
            spin_option("option name Move Overhead type spin default 10 min 0 max 5000")
                .map(|o| o.name),
            Some("Move Overhead".to_string())
        );
        assert_eq!(
            spin_option("option name Ponder type check default false"),
            None
        );
        assert_eq!(spin_option("id name Kiln"), None);
    }

    fn answer(text: &str) -> (EngineOffer, bool) {
        EngineOffer::read(text.lines().map(String::from))
    }

    #[test]
    fn the_answer_gives_options_before_uciok_and_input_after_readyok() {
        let (offer, handshake) = answer(
            "id name Kiln\n\
             option name Hash type spin default 16 min 1 max 1024\n\
             option name SyzygyPath type string default a,b,c,d,e,f,g\n\
             option name rfp_margin type spin default 75 min 35 max 150\n\
             uciok\n\
             readyok\n\
             rfp_margin, int, 75, 35, 150, 5.75, 0.002\n",
        );
        assert!(handshake);
        assert_eq!(offer.id_name.as_deref(), Some("Kiln"));
        assert_eq!(offer.spin_options.len(), 2);
        assert_eq!(
            offer.spsa_input,
            ["rfp_margin, int, 75, 35, 150, 5.75, 0.002"]
        );
        assert_eq!(offer.parameters().unwrap()[0].name, "rfp_margin");
        let (silent, handshake) = answer("id name Other\n");
        assert!(!handshake);
        assert!(
            silent
                .parameters()
                .unwrap_err()
                .to_string()
                .contains("--features spsa")
        );
    }

    /// A program that writes without end (`yes`) is cut off after
    /// [`MOST_ANSWER_BYTES`], long before the probe's time is up, and is
    /// no engine.
    #[test]
    fn a_program_that_talks_without_end_is_cut_off() {
        let started = Instant::now();
        let error = EngineOffer::probe(Path::new("yes")).unwrap_err();
        assert!(matches!(error, EngineError::NoHandshake { .. }), "{error}");
        assert!(
            started.elapsed() < PROBE_TIMEOUT / 2,
            "{:?}",
            started.elapsed()
        );
    }

    #[test]
    fn the_bench_signature_is_the_last_node_count() {
        let lines = |text: &str| text.lines().map(String::from).collect::<Vec<_>>();
        let kiln = lines(
            "position 1 depth 11: 41224 nodes\n\
             Total time (ms) : 570\n\
             855992 nodes 1501740 nps\n",
        );
        assert_eq!(bench_nodes(&kiln), Some(855_992));
        let stockfish = lines(
            "Total time (ms) : 1500\n\
             Nodes searched  : 2353766\n\
             Nodes/second    : 1569177\n",
        );
        assert_eq!(bench_nodes(&stockfish), Some(2_353_766));
        assert_eq!(bench_nodes(&lines("id name Other\nuciok\n")), None);
    }

    #[test]
    fn a_program_that_prints_no_bench_has_no_signature() {
        assert_eq!(bench_signature(Path::new("true")).unwrap(), None);
        assert!(matches!(
            bench_signature(Path::new("/no/such/engine")),
            Err(EngineError::Start { .. })
        ));
    }

    #[test]
    fn only_the_engine_spin_options_in_range_are_tunable() {
        let (offer, _) = answer(
            "option name Hash type spin default 16 min 1 max 1024\n\
             option name rfp_margin type spin default 75 min 35 max 150\n\
             uciok\n",
        );
        let check = |line: &str| offer.check(&parse_input(line).unwrap());
        assert!(check("RFP_Margin, int, 75, 40, 150, 5, 0.002").is_ok());
        for (line, why) in [
            (
                "rfp_margin, int, 75, 30, 150, 5, 0.002",
                "beyond the option's 35..=150",
            ),
            ("nmp_margin, int, 75, 35, 150, 5, 0.002", "no spin option"),
            ("hash, int, 16, 1, 64, 4, 0.002", "every game sets it"),
        ] {
            let err = check(line).unwrap_err().to_string();
            assert!(err.contains(why), "{line}: {err}");
        }
    }
}
