//! A minimal client for another UCI engine, shared by `kiln label` (which
//! asks it for scores) and `kiln datagen --opponent` (which plays against
//! it).

use std::io::{BufRead, BufReader, BufWriter, Write};
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

/// A running UCI engine, quit when dropped.
pub struct UciEngine {
    child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl UciEngine {
    /// Starts `path`, completes the UCI handshake and sets its hash size.
    pub fn start(path: &str, hash_mib: u64) -> Result<UciEngine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{path}': {e}"))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(format!("cannot talk to '{path}'"));
        };
        let mut engine = UciEngine {
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
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.wait_for("readyok")
    }

    /// Sends `position` (the full command, e.g. `position fen ... moves
    /// ...`) and `go` (e.g. `go depth 6`), and reads until `bestmove`.
    pub fn search(&mut self, position: &str, go: &str) -> Result<Reply, String> {
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

    fn send(&mut self, command: &str) -> Result<(), String> {
        writeln!(self.input, "{command}")
            .and_then(|()| self.input.flush())
            .map_err(|e| format!("the engine stopped reading: {e}"))
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        match self.output.read_line(&mut line) {
            Ok(0) => Err("the engine exited".into()),
            Ok(_) => Ok(line),
            Err(e) => Err(format!("cannot read from the engine: {e}")),
        }
    }

    fn wait_for(&mut self, token: &str) -> Result<(), String> {
        while self.read_line()?.split_whitespace().next() != Some(token) {}
        Ok(())
    }
}

impl Drop for UciEngine {
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
        assert!(UciEngine::start("/nonexistent/engine", 1).is_err());
    }
}
