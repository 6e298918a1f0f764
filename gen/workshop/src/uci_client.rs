//! A minimal client for another UCI engine, shared by `kiln-workshop label` (which
//! asks it for scores) and `kiln-workshop datagen --opponent` (which plays against
//! it). Kiln is the GUI here: it starts the other engine as a child process
//! and talks to it over pipes.

use std::fmt;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The score reported for a mate found by the other engine.
pub const MATE_LABEL: i32 = 2_000;

/// How long the engine may take to answer `uci` with `uciok`, or `isready`
/// with `readyok`: a program that is no UCI engine (or a hung one) is an
/// error after this, not a wait for ever.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);
/// How long one search may take to end with `bestmove`. Its length is the
/// caller's `go` (a few thousand nodes, or a labelling depth), which no
/// working engine takes minutes over: an engine that hangs in a search is
/// an error after this, not a job that waits for ever.
const SEARCH_TIMEOUT: Duration = Duration::from_secs(600);
/// How long the engine may take to exit after `quit` before it is killed.
const QUIT_TIMEOUT: Duration = Duration::from_secs(2);
/// Longest line read from the engine; the rest of a longer one arrives as
/// further lines (no UCI line comes near it).
const MAX_LINE_BYTES: u64 = 64 * 1024;
/// Lines the reading thread may hold before the client takes them.
const LINES_AHEAD: usize = 1024;

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
    /// The engine did not send the answer in time (`ANSWER_TIMEOUT`, or
    /// `SEARCH_TIMEOUT` for `bestmove`).
    NoAnswer {
        /// The answer waited for (`uciok`, `readyok`, `bestmove`).
        expected: &'static str,
        /// How long it was waited for.
        waited: Duration,
    },
}

impl fmt::Display for UciClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Start { path, source } => write!(f, "cannot start '{path}': {source}"),
            Self::NoPipes { path } => write!(f, "cannot talk to '{path}'"),
            Self::Write(e) => write!(f, "the engine stopped reading: {e}"),
            Self::Read(e) => write!(f, "cannot read from the engine: {e}"),
            Self::Exited => f.write_str("the engine exited"),
            Self::NoAnswer {
                expected: "bestmove",
                waited,
            } => write!(
                f,
                "the engine sent no 'bestmove' within {} s of 'go' (has it hung?)",
                waited.as_secs()
            ),
            Self::NoAnswer { expected, waited } => write!(
                f,
                "the engine sent no '{expected}' within {} s (is it a UCI engine?)",
                waited.as_secs()
            ),
        }
    }
}

impl std::error::Error for UciClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Start { source, .. } => Some(source),
            Self::Write(e) | Self::Read(e) => Some(e),
            Self::NoPipes { .. } | Self::Exited | Self::NoAnswer { .. } => None,
        }
    }
}

/// A running UCI engine, quit when dropped (killed if it does not exit).
pub struct UciClient {
    child: Child,
    /// `None` once closed, when the client is dropped.
    input: Option<BufWriter<ChildStdin>>,
    /// The engine's output lines, read on a thread of their own so that a
    /// wait for an answer can give up.
    lines: Receiver<io::Result<String>>,
    /// How long `uciok` and `readyok` are waited for.
    answer_timeout: Duration,
    /// How long a search's `bestmove` is waited for.
    search_timeout: Duration,
}

/// One wait for an answer: what is waited for, until when, and for how
/// long in all (for the error).
#[derive(Clone, Copy)]
struct Wait {
    expected: &'static str,
    until: Instant,
    length: Duration,
}

impl Wait {
    fn starting_now(expected: &'static str, length: Duration) -> Wait {
        Wait {
            expected,
            until: Instant::now() + length,
            length,
        }
    }
}

impl UciClient {
    /// Starts `path`, completes the UCI handshake and sets its hash size.
    ///
    /// # Errors
    /// The program cannot be started or does not complete the handshake.
    pub fn start(path: &str, hash_mib: u64) -> Result<UciClient, UciClientError> {
        Self::start_answering_within(path, hash_mib, ANSWER_TIMEOUT)
    }

    /// [`start`](Self::start), with `answer_timeout` for `uciok` and
    /// `readyok`.
    fn start_answering_within(
        path: &str,
        hash_mib: u64,
        answer_timeout: Duration,
    ) -> Result<UciClient, UciClientError> {
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
        let lines = read_lines_on_a_thread(output).map_err(|source| UciClientError::Start {
            path: path.to_string(),
            source,
        })?;
        let mut engine = UciClient {
            child,
            input: Some(BufWriter::new(input)),
            lines,
            answer_timeout,
            search_timeout: SEARCH_TIMEOUT,
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
    /// The engine stopped reading, exited, or sent no `bestmove` within
    /// `SEARCH_TIMEOUT` (ten minutes).
    pub fn search(&mut self, position: &str, go: &str) -> Result<Reply, UciClientError> {
        self.send(position)?;
        self.send(go)?;
        let wait = Wait::starting_now("bestmove", self.search_timeout);
        let mut reply = Reply::default();
        loop {
            let line = self.read_line(wait)?;
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
        let closed = || io::Error::new(io::ErrorKind::BrokenPipe, "input closed");
        let input = self
            .input
            .as_mut()
            .ok_or_else(closed)
            .map_err(UciClientError::Write)?;
        writeln!(input, "{command}")
            .and_then(|()| input.flush())
            .map_err(UciClientError::Write)
    }

    /// The engine's next line, if it comes before `wait` is over.
    fn read_line(&mut self, wait: Wait) -> Result<String, UciClientError> {
        // Checked first: an engine that talks without end always has a
        // line ready, so the receive alone would never time out.
        let received = if Instant::now() >= wait.until {
            Err(RecvTimeoutError::Timeout)
        } else {
            self.lines
                .recv_timeout(wait.until.saturating_duration_since(Instant::now()))
        };
        match received {
            Ok(Ok(line)) => Ok(line),
            Ok(Err(e)) => Err(UciClientError::Read(e)),
            Err(RecvTimeoutError::Disconnected) => Err(UciClientError::Exited),
            Err(RecvTimeoutError::Timeout) => Err(UciClientError::NoAnswer {
                expected: wait.expected,
                waited: wait.length,
            }),
        }
    }

    /// Reads until a line starting with `token`, for at most the answer
    /// timeout.
    fn wait_for(&mut self, token: &'static str) -> Result<(), UciClientError> {
        let wait = Wait::starting_now(token, self.answer_timeout);
        while self.read_line(wait)?.split_whitespace().next() != Some(token) {}
        Ok(())
    }
}

/// Starts a thread that sends each line of an engine's `output` (at most
/// [`MAX_LINE_BYTES`] at a time) until it ends or fails; the receiver
/// sees the end as a disconnection. The channel holds [`LINES_AHEAD`]
/// lines: an engine that writes faster than the client reads waits for
/// it rather than filling memory. Bytes that are not UTF-8 are replaced,
/// not taken for the end of the answer (UCI is ASCII, but an engine's
/// `id author` need not be).
pub(crate) fn read_lines_on_a_thread(
    output: ChildStdout,
) -> io::Result<Receiver<io::Result<String>>> {
    let (sender, receiver) = mpsc::sync_channel(LINES_AHEAD);
    thread::Builder::new()
        .name("uci-client".into())
        .spawn(move || {
            let mut output = BufReader::new(output);
            let mut bytes = Vec::new();
            loop {
                bytes.clear();
                match (&mut output)
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut bytes)
                {
                    Ok(0) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&bytes).into_owned();
                        if sender.send(Ok(line)).is_err() {
                            return;
                        }
                    }
                    Err(error) => {
                        let _ = sender.send(Err(error));
                        return;
                    }
                }
            }
        })?;
    Ok(receiver)
}

impl Drop for UciClient {
    /// Sends `quit` and closes the engine's input; an engine that has not
    /// exited `QUIT_TIMEOUT` later is killed, so a hung one cannot hold
    /// the tool.
    fn drop(&mut self) {
        let _ = self.send("quit");
        self.input = None;
        let deadline = Instant::now() + QUIT_TIMEOUT;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => return,
                Ok(None) => thread::sleep(Duration::from_millis(10)),
            }
        }
        let _ = self.child.kill();
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

    /// A program that reads its input and never answers (`cat` echoes
    /// it, `yes` writes without end) is an error once the answer's time is
    /// up, and one that ignores `quit` (`yes`) is killed after
    /// `QUIT_TIMEOUT`, not waited for.
    #[test]
    fn a_program_that_is_no_uci_engine_is_an_error_not_a_hang() {
        let timeout = Duration::from_millis(300);
        for program in ["cat", "yes"] {
            let started = Instant::now();
            let error = UciClient::start_answering_within(program, 1, timeout).err();
            assert!(
                matches!(
                    error,
                    Some(UciClientError::NoAnswer {
                        expected: "uciok",
                        ..
                    })
                ),
                "{program}: {error:?}"
            );
            // The answer's wait and the quit's, with room for a slow machine.
            assert!(started.elapsed() < timeout + QUIT_TIMEOUT + Duration::from_secs(5));
        }
    }

    /// Writes `script` as an executable shell script in a directory of
    /// its own (removed by the caller) and starts it as an engine.
    fn start_script(
        name: &str,
        script: &str,
    ) -> (std::path::PathBuf, Result<UciClient, UciClientError>) {
        let dir = std::env::temp_dir().join(format!("kiln-uci-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("engine.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        // A script just written can be 'busy' for a moment: another test
        // thread's fork may still hold it open for writing (ETXTBSY).
        let mut client = UciClient::start(path.to_str().unwrap(), 1);
        for _ in 0..20 {
            match &client {
                Err(UciClientError::Start { source, .. }) if source.raw_os_error() == Some(26) => {
                    thread::sleep(Duration::from_millis(50));
                    client = UciClient::start(path.to_str().unwrap(), 1);
                }
                _ => break,
            }
        }
        (dir, client)
    }

    /// A line that is not UTF-8 (an `id author` in Latin-1) is read with
    /// its bytes replaced, not taken for a failure: the handshake goes on.
    #[test]
    fn bytes_that_are_not_utf8_do_not_end_the_answer() {
        let script = "printf 'id author Fran\\347ois\\nuciok\\n'; \
                      while read -r line; do [ \"$line\" = isready ] && echo readyok; done";
        let (dir, client) = start_script("latin1", script);
        assert!(client.is_ok(), "{:?}", client.err());
        drop(client);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// An engine that completes the handshake but never ends a search is
    /// an error once the search's time is up, not a wait for ever.
    #[test]
    fn a_search_without_bestmove_is_an_error_not_a_hang() {
        let script = "while read -r line; do case \"$line\" in \
                      uci) echo uciok;; isready) echo readyok;; go*) echo 'info depth 1';; \
                      esac; done";
        let (dir, client) = start_script("hung", script);
        let mut client = client.expect("the handshake completes");
        client.search_timeout = Duration::from_millis(300);
        let started = Instant::now();
        let error = client.search("position startpos", "go depth 5").err();
        assert!(
            matches!(
                error,
                Some(UciClientError::NoAnswer {
                    expected: "bestmove",
                    ..
                })
            ),
            "{error:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(5));
        let message = error.map(|e| e.to_string()).unwrap_or_default();
        assert!(message.contains("no 'bestmove'"), "{message}");
        drop(client);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_program_that_exits_at_once_is_an_error() {
        // Whichever the client meets first: the closed output, or the
        // closed input when it sends `uci`.
        let error = UciClient::start("true", 1).err();
        let exited = match &error {
            Some(UciClientError::Exited) => true,
            Some(UciClientError::Write(e)) => e.kind() == io::ErrorKind::BrokenPipe,
            _ => false,
        };
        assert!(exited, "{error:?}");
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
