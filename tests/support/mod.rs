//! The harness the protocol tests drive the built `kiln` binary with: a
//! child process with piped stdin and stdout, a thread that reads its
//! stdout line by line, and a transcript of both directions for failure
//! messages. The UCI and XBoard helpers live in their own test files;
//! [`openbench`] runs OpenBench's client code on the binary.

pub mod openbench;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// A running `kiln` and everything said to it and by it so far.
pub struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// `> ` lines sent, `< ` lines received, in order.
    transcript: Vec<String>,
}

impl EngineProcess {
    /// Starts `kiln args…`; its stderr goes to `stderr`.
    pub fn start(args: &[&str], stderr: Stdio) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("start kiln");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Self {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    /// Sends `line` and a newline.
    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        self.write(format!("{line}\n").as_bytes());
    }

    /// Sends `bytes` as they are (no newline added).
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript.push(format!("> {} raw bytes", bytes.len()));
        self.write(bytes);
    }

    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .expect("write to kiln");
    }

    /// Reads lines until one satisfies `done` and returns all lines read,
    /// that one last. Panics with the transcript if none comes within
    /// `timeout` or kiln closes its stdout first; `what` names the line
    /// waited for.
    pub fn read_until(
        &mut self,
        timeout: Duration,
        what: &str,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!(
                    "timed out after {timeout:?} waiting for {what}; transcript:\n{}",
                    self.transcript()
                ),
                Err(RecvTimeoutError::Disconnected) => panic!(
                    "kiln closed stdout waiting for {what}; transcript:\n{}",
                    self.transcript()
                ),
            }
        }
    }

    /// Everything sent (`> `) and received (`< `) so far, a line each.
    pub fn transcript(&self) -> String {
        self.transcript.join("\n")
    }

    /// Closes kiln's stdin: end of input.
    pub fn close_input(&mut self) {
        if self.stdin.take().is_some() {
            self.transcript.push("> end of input".to_string());
        }
    }

    /// Closes stdin and waits for kiln to exit; panics with the transcript
    /// if it has not within `timeout`.
    pub fn close_and_wait(&mut self, timeout: Duration) -> ExitStatus {
        self.close_input();
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for kiln") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "kiln did not exit within {timeout:?}; transcript:\n{}",
                self.transcript()
            );
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
