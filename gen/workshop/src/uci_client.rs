//! A minimal client for another UCI engine, shared by `kiln-workshop label` (which
//! asks it for scores) and `kiln-workshop datagen --opponent` (which plays against
//! it). Kiln is the GUI here: it starts the other engine as a child process
//! and talks to it over pipes.

use std::fmt;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The score reported for a mate found by the other engine.
pub const MATE_LABEL: i32 = 2_000;

/// What one search of the other engine gave: its move (UCI notation, if it
/// sent one that is not `(none)`) and its last exact score (side to move's
/// view; mates as ±[`MATE_LABEL`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// The `bestmove` it sent.
    pub best: Option<String>,
    /// The score of its last `info` line with an exact score.
    pub score: Option<i32>,
}

/// Why talking to the other engine failed.
#[derive(Debug)]
pub enum UciClientError {
    /// The program could not be started.
    Start {
        /// The program.
        path: String,
        /// What the operating system said.
        source: io::Error,
    },
    /// The program started but its stdin or stdout could not be had.
    NoPipes {
        /// The program.
        path: String,
    },
    /// Writing a command failed: the engine no longer reads its input.
    Write(io::Error),
    /// Reading failed.
    Read(io::Error),
    /// The engine closed its output (it exited or crashed).
    Exited,
}

impl fmt::Display for UciClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Start { path, source } => write!(f, "cannot start '{path}': {source}"),
            Self::NoPipes { path } => write!(f, "cannot talk to '{path}'"),
            Self::Write(e) => write!(f, "the engine stopped reading: {e}"),
            Self::Read(e) => write!(f, "cannot read from the engine: {e}"),
            Self::Exited => f.write_str("the engine exited"),
        }
    }
}

impl std::error::Error for UciClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Start { source, .. } => Some(source),
            Self::Write(e) | Self::Read(e) => Some(e),
            Self::NoPipes { .. } | Self::Exited => None,
        }
    }
}

/// A running UCI engine, quit when dropped.
pub struct UciClient {
    child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl UciClient {
    /// Starts `path`, completes the UCI handshake and sets its hash size.
    ///
    /// # Errors
    /// The program cannot be started or does not complete the handshake.
    pub fn start(path: &str, hash_mib: u64) -> Result<UciClient, UciClientError> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| UciClientError::Start {
                path: path.to_string(),
                source,
            })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(UciClientError::NoPipes {
                path: path.to_string(),
            });
        };
        let mut engine = UciClient {
            child,
            input: BufWriter::new(input),
            output: BufReader::new(output),
        };
        engine.send("uci")?;
        engine.wait_for("uciok")?;
        engine.send(&format!("setoption name Hash value {hash_mib}"))?;
        engine.new_game()?;
        Ok(engine)
    }

    /// Tells the engine a new game starts and waits until it is ready.
    ///
    /// # Errors
    /// The engine stopped reading or exited.
    pub fn new_game(&mut self) -> Result<(), UciClientError> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok")
    }

    /// Sends `position` (the full command, e.g. `position fen ... moves
    /// ...`) and `go` (e.g. `go depth 6`), and reads until `bestmove`.
    ///
    /// # Errors
    /// The engine stopped reading or exited before `bestmove`.
    pub fn search(&mut self, position: &str, go: &str) -> Result<Reply, UciClientError> {
        self.send(position)?;
        self.send(go)?;
        let mut reply = Reply::default();
        loop {
            let line = self.read_line()?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("bestmove") => {
                    reply.best = words
                        .next()
                        .filter(|mv| *mv != "(none)" && *mv != "0000")
                        .map(String::from);
                    return Ok(reply);
                }
                Some("info") => {
                    if let Some(score) = parse_score(&line) {
                        reply.score = Some(score);
                    }
                }
                _ => {}
            }
        }
    }

    fn send(&mut self, command: &str) -> Result<(), UciClientError> {
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .map_err(UciClientError::Write)
    }

    fn read_line(&mut self) -> Result<String, UciClientError> {
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) => Err(UciClientError::Exited),
            Ok(_) => Ok(line),
            Err(e) => Err(UciClientError::Read(e)),
        }
    }

    fn wait_for(&mut self, token: &str) -> Result<(), UciClientError> {
        while self.read_line()?.split_whitespace().next() != Some(token) {}
        Ok(())
    }
}

impl Drop for UciClient {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// The score of a UCI `info` line (side to move's view): centipawns, or
/// ±[`MATE_LABEL`] for a mate; bounds (`lowerbound`/`upperbound`) are not
/// final and are ignored.
pub fn parse_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score")?;
    if words
        .get(at + 3)
        .is_some_and(|w| *w == "lowerbound" || *w == "upperbound")
    {
        return None;
    }
    let value: i32 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        "cp" => Some(value.clamp(-MATE_LABEL, MATE_LABEL)),
        "mate" => Some(if value > 0 { MATE_LABEL } else { -MATE_LABEL }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_read_from_info_lines() {
        assert_eq!(
            parse_score("info depth 6 seldepth 7 multipv 1 score cp -35 nodes 900 pv e2e4"),
            Some(-35)
        );
        assert_eq!(
            parse_score("info depth 9 score mate -3 pv a1a2"),
            Some(-MATE_LABEL)
        );
        assert_eq!(parse_score("info depth 9 score cp 99999"), Some(MATE_LABEL));
        assert_eq!(parse_score("info depth 9 score cp 40 lowerbound"), None);
        assert_eq!(parse_score("info string hello"), None);
        assert_eq!(parse_score("info depth 3 score cp x"), None);
    }

    #[test]
    fn a_missing_engine_is_an_error() {
        let error = UciClient::start("/nonexistent/engine", 1).err();
        assert!(
            matches!(&error, Some(UciClientError::Start { path, .. }) if path == "/nonexistent/engine"),
            "{error:?}"
        );
    }
}
