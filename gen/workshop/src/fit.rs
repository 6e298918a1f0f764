//! The training core that the Texel tuner ([`crate::texel`]) and the
//! network trainer ([`crate::train`]) share, written once:
//!
//! - [`sigmoid`], and the squared error of `sigmoid(k · x)` against a
//!   target with its derivative ([`squared_error`],
//!   [`squared_error_gradient`]): how a score in centipawns becomes an
//!   expected result, and what both fits minimise;
//! - [`fit_k`]: the scale `K` at which scores best predict results;
//! - [`Adam`] and its step schedule ([`step_size`]), with the shuffle of
//!   the training positions between epochs ([`shuffle`]) and the size of
//!   the held-out share ([`held_out_count`]);
//! - [`EpochLoss`]: the loss of each epoch as one line of JSON, written by
//!   `--losses` ([`LossLog`]) and read back by `kiln-workshop plot`
//!   ([`read_losses`]).
//!
//! The tuner works in `f64` (a few thousand weights, where precision is
//! free) and the trainer in `f32` (a network of a hundred thousand
//! weights, where memory and speed count), so the arithmetic is generic
//! over [`Float`]; each type computes exactly what its tool computed
//! before the two shared this module.

use std::fmt;
use std::fs::File;
use std::io::Write;
use std::ops::{Add, Div, Mul, Neg, Sub};
use std::path::{Path, PathBuf};

use kiln::rng::Rng;
use kiln_format::{FileAction, FileError};

/// The floating-point types the training core computes in: `f64` (the
/// tuner) and `f32` (the trainer).
pub trait Float:
    Copy
    + PartialOrd
    + fmt::Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// The value of this type nearest to `x`.
    fn from_f64(x: f64) -> Self;
    /// `e^self`.
    fn exp(self) -> Self;
    /// The square root.
    fn sqrt(self) -> Self;
    /// `self^n`.
    fn powi(self, n: i32) -> Self;
}

impl Float for f64 {
    #[inline(always)]
    fn from_f64(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn exp(self) -> f64 {
        f64::exp(self)
    }
    #[inline(always)]
    fn sqrt(self) -> f64 {
        f64::sqrt(self)
    }
    #[inline(always)]
    fn powi(self, n: i32) -> f64 {
        f64::powi(self, n)
    }
}

impl Float for f32 {
    #[inline(always)]
    fn from_f64(x: f64) -> f32 {
        x as f32
    }
    #[inline(always)]
    fn exp(self) -> f32 {
        f32::exp(self)
    }
    #[inline(always)]
    fn sqrt(self) -> f32 {
        f32::sqrt(self)
    }
    #[inline(always)]
    fn powi(self, n: i32) -> f32 {
        f32::powi(self, n)
    }
}

/// The logistic function `1 / (1 + e^(−x))`; `sigmoid(k · cp)` is the
/// expected result of a score of `cp` centipawns on the scale `k`.
#[inline(always)]
pub fn sigmoid<F: Float>(x: F) -> F {
    let one = F::from_f64(1.0);
    one / (one + (-x).exp())
}

/// The squared error `(sigmoid(k · x) − target)²` of the expected result
/// of `x` against `target`: the loss of one position in both fits.
#[inline(always)]
pub fn squared_error<F: Float>(k: F, x: F, target: F) -> F {
    let error = sigmoid(k * x) - target;
    error * error
}

/// [`squared_error`] and its derivative by `x`,
/// `2 (p − target) · p (1 − p) · k` with `p = sigmoid(k · x)`.
#[inline(always)]
pub fn squared_error_gradient<F: Float>(k: F, x: F, target: F) -> (F, F) {
    let p = sigmoid(k * x);
    let error = p - target;
    let one = F::from_f64(1.0);
    (error * error, F::from_f64(2.0) * error * p * (one - p) * k)
}

/// The range [`fit_k`] searches, per centipawn: from a logistic curve so
/// flat that ten pawns are barely a win to one so steep that half a pawn
/// nearly is.
pub const K_RANGE: (f64, f64) = (1e-4, 0.05);

/// The `K` in [`K_RANGE`] at which `sigmoid(K · x)` best predicts the
/// targets of `pairs` (`(x, target)`, least summed [`squared_error`]).
/// The search is golden-section over `K`: the loss of a logistic fit is
/// unimodal in its scale, and sixty steps narrow the range far below any
/// difference that matters.
pub fn fit_k(pairs: &[(f64, f64)]) -> f64 {
    let loss_at = |k: f64| {
        pairs
            .iter()
            .map(|&(x, target)| squared_error(k, x, target))
            .sum::<f64>()
    };
    let (mut lo, mut hi) = K_RANGE;
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss_at(a) < loss_at(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Adam's decay of its running mean of the gradient.
pub const BETA1: f64 = 0.9;
/// Adam's decay of its running mean of the squared gradient.
pub const BETA2: f64 = 0.999;
/// Added to the root of the second moment so that a parameter whose
/// gradient has always been zero takes no step rather than 0/0.
pub const EPSILON: f64 = 1e-8;

/// The Adam optimiser over a flat slice of parameters: per parameter, a
/// running mean of its gradient and of the gradient's square, both
/// corrected for their start at zero, and a step of
/// `step size · mean / (√(mean square) + ε)`.
#[derive(Clone, Debug)]
pub struct Adam<F> {
    /// The first moment estimate of each parameter.
    first: Vec<F>,
    /// The second moment estimate of each parameter.
    second: Vec<F>,
    /// Steps taken, for the bias correction.
    steps: i32,
}

impl<F: Float> Adam<F> {
    /// An optimiser of `parameters` parameters, before its first step.
    pub fn new(parameters: usize) -> Adam<F> {
        Adam {
            first: vec![F::from_f64(0.0); parameters],
            second: vec![F::from_f64(0.0); parameters],
            steps: 0,
        }
    }

    /// An optimiser resumed from what [`Adam::state`] gave: `None` when
    /// the two moment estimates differ in length.
    pub fn from_state(first: Vec<F>, second: Vec<F>, steps: i32) -> Option<Adam<F>> {
        (first.len() == second.len()).then_some(Adam {
            first,
            second,
            steps,
        })
    }

    /// The first and second moment estimates and the steps taken: all a
    /// run needs to go on where this optimiser stands.
    pub fn state(&self) -> (&[F], &[F], i32) {
        (&self.first, &self.second, self.steps)
    }

    /// How many parameters this optimiser moves.
    pub fn len(&self) -> usize {
        self.first.len()
    }

    /// Whether it moves none.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }

    /// One step of size `step` over `params` (as many as
    /// [`Adam::len`]). `gradient(i, params[i])` gives parameter `i`'s
    /// gradient; `None` leaves the parameter and its moment estimates as
    /// they are (a parameter held fixed), which lets the caller add terms
    /// that depend on the parameter's value, such as a pull towards an
    /// anchor, without a pass of its own.
    ///
    /// # Panics
    ///
    /// If `params` is not as long as the optimiser: a programming error.
    pub fn step(
        &mut self,
        step: F,
        params: &mut [F],
        mut gradient: impl FnMut(usize, F) -> Option<F>,
    ) {
        assert_eq!(
            params.len(),
            self.first.len(),
            "Adam over {} parameters given {}",
            self.first.len(),
            params.len()
        );
        self.steps += 1;
        let one = F::from_f64(1.0);
        let (beta1, beta2, epsilon) =
            (F::from_f64(BETA1), F::from_f64(BETA2), F::from_f64(EPSILON));
        let correct1 = one - beta1.powi(self.steps);
        let correct2 = one - beta2.powi(self.steps);
        let moments = self.first.iter_mut().zip(self.second.iter_mut());
        for (i, (w, (m, v))) in params.iter_mut().zip(moments).enumerate() {
            let Some(g) = gradient(i, *w) else {
                continue;
            };
            *m = beta1 * *m + (one - beta1) * g;
            *v = beta2 * *v + (one - beta2) * g * g;
            *w = *w - step * (*m / correct1) / ((*v / correct2).sqrt() + epsilon);
        }
    }
}

/// The step size of epoch `epoch` (from 0) of `epochs`: `first` in the
/// first epoch, falling linearly to a tenth of it by the last. Large
/// steps travel far early; small ones then settle the parameters instead
/// of leaving them jittering by a full step around the minimum.
pub fn step_size<F: Float>(first: F, epoch: u32, epochs: u32) -> F {
    step_size_falling_to(first, F::from_f64(0.1), epoch, epochs)
}

/// [`step_size`] falling linearly to `last_share` of `first` by the last
/// epoch instead of a tenth.
pub fn step_size_falling_to<F: Float>(first: F, last_share: F, epoch: u32, epochs: u32) -> F {
    let share =
        F::from_f64(f64::from(epoch)) / F::from_f64(f64::from(epochs.saturating_sub(1).max(1)));
    first * (F::from_f64(1.0) - (F::from_f64(1.0) - last_share) * share)
}

/// Shuffles `items` in place (Fisher-Yates), reproducibly from `rng`.
pub fn shuffle<T>(items: &mut [T], rng: &mut Rng) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// How many of `count` positions a held-out share of `share` (0 to 1)
/// sets aside: never all of them, so that one at least is left to fit.
pub fn held_out_count(count: usize, share: f64) -> usize {
    ((count as f64 * share) as usize).min(count.saturating_sub(1))
}

/// The losses of one epoch, one line of a `--losses` file:
/// `{"epoch":3,"loss":0.031234,"held_out":0.086123}`.
///
/// JSON has no NaN or infinity: a loss that is not finite (a run that
/// diverged) is written `null` and read back as NaN, and a held-out loss
/// that is not finite is written `null` too and so reads back as none.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochLoss {
    /// The epoch, from 1; 0 is the starting point, before any step.
    pub epoch: u32,
    /// The loss on the training positions.
    pub loss: f64,
    /// The loss on the held-out positions, if any are held out.
    pub held_out: Option<f64>,
}

/// `x` as a JSON number, in the fewest digits that read back as `x`
/// (Rust's `Display` of a float never uses an exponent and never prints
/// `NaN` for a finite value), or `null` if it is not finite.
fn json_number(x: f64) -> String {
    if x.is_finite() {
        x.to_string()
    } else {
        "null".to_string()
    }
}

impl fmt::Display for EpochLoss {
    /// The record as one line of JSON, without the newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{{\"epoch\":{},\"loss\":{},\"held_out\":{}}}",
            self.epoch,
            json_number(self.loss),
            self.held_out.map_or("null".to_string(), json_number)
        )
    }
}

impl EpochLoss {
    /// Reads one line of a `--losses` file: a JSON object with a whole
    /// `epoch`, a `loss` (a number, or null for one that was not finite)
    /// and optionally a `held_out` loss (a number or null). Other fields
    /// are skipped, so that a later writer may add some.
    pub fn parse(line: &str) -> Result<EpochLoss, LineError> {
        let fields = parse_object(line)?;
        let mut seen: Vec<&str> = Vec::new();
        let (mut epoch, mut loss, mut held_out) = (None, None, None);
        for (key, value) in fields {
            if seen.contains(&key.as_str()) {
                return Err(LineError::Duplicate(key));
            }
            match key.as_str() {
                "epoch" => {
                    seen.push("epoch");
                    epoch = Some(match value {
                        Value::Number(text) if text.bytes().all(|b| b.is_ascii_digit()) => text
                            .parse::<u32>()
                            .map_err(|_| LineError::Field("epoch", WHOLE))?,
                        _ => return Err(LineError::Field("epoch", WHOLE)),
                    });
                }
                "loss" => {
                    seen.push("loss");
                    loss = Some(match value {
                        Value::Number(text) => number(text, "loss")?,
                        Value::Null => f64::NAN,
                        Value::Other(_) => return Err(LineError::Field("loss", NUMBER)),
                    });
                }
                "held_out" => {
                    seen.push("held_out");
                    held_out = match value {
                        Value::Number(text) => Some(number(text, "held_out")?),
                        Value::Null => None,
                        Value::Other(_) => return Err(LineError::Field("held_out", NUMBER)),
                    };
                }
                _ => {}
            }
        }
        Ok(EpochLoss {
            epoch: epoch.ok_or(LineError::Missing("epoch"))?,
            loss: loss.ok_or(LineError::Missing("loss"))?,
            held_out,
        })
    }
}

/// What an `epoch` must be.
const WHOLE: &str = "a whole number 0-4294967295";
/// What a loss must be.
const NUMBER: &str = "a number or null";

/// The float of a JSON number token (already checked to be one).
fn number(text: &str, field: &'static str) -> Result<f64, LineError> {
    text.parse::<f64>()
        .map_err(|_| LineError::Field(field, NUMBER))
}

/// What is wrong with one line of a `--losses` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The line is not a flat JSON object: at byte `column` (from 1)
    /// something else was expected.
    Syntax {
        /// 1-based byte offset in the line.
        column: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// A required field is missing.
    Missing(&'static str),
    /// A field appears twice.
    Duplicate(String),
    /// A field's value is not of its kind.
    Field(&'static str, &'static str),
    /// The epoch does not follow the previous line's: the records of one
    /// run count up.
    Order {
        /// This line's epoch.
        epoch: u32,
        /// The previous record's.
        previous: u32,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Syntax { column, expected } => {
                write!(f, "column {column}: expected {expected}")
            }
            LineError::Missing(field) => write!(f, "no \"{field}\" field"),
            LineError::Duplicate(field) => write!(f, "the \"{field}\" field appears twice"),
            LineError::Field(field, kind) => write!(f, "\"{field}\" is not {kind}"),
            LineError::Order { epoch, previous } => write!(
                f,
                "epoch {epoch} after epoch {previous}: one run's losses at a time, please"
            ),
        }
    }
}

impl std::error::Error for LineError {}

/// Why a `--losses` file could not be read.
#[derive(Debug)]
pub enum LossesError {
    /// The file could not be opened or read.
    File(FileError),
    /// A line is not a loss record.
    Line {
        /// The file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        error: LineError,
    },
}

impl fmt::Display for LossesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LossesError::File(error) => error.fmt(f),
            LossesError::Line { path, line, error } => write!(
                f,
                "{}:{line}: not a loss record ({{\"epoch\":N,\"loss\":X,\"held_out\":Y}}): {error}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for LossesError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LossesError::File(error) => Some(error),
            LossesError::Line { error, .. } => Some(error),
        }
    }
}

/// The records of `text`, the contents of the `--losses` file `path`
/// (named in errors), one per line; blank lines are skipped, and the
/// epochs must count up.
pub fn parse_losses(path: &Path, text: &str) -> Result<Vec<EpochLoss>, LossesError> {
    let mut records: Vec<EpochLoss> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |error| LossesError::Line {
            path: path.to_path_buf(),
            line: n + 1,
            error,
        };
        let record = EpochLoss::parse(line).map_err(bad)?;
        if let Some(last) = records.last()
            && record.epoch <= last.epoch
        {
            return Err(bad(LineError::Order {
                epoch: record.epoch,
                previous: last.epoch,
            }));
        }
        records.push(record);
    }
    Ok(records)
}

/// The records of the `--losses` file `path`.
pub fn read_losses(path: impl AsRef<Path>) -> Result<Vec<EpochLoss>, LossesError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .map_err(|source| LossesError::File(FileError::on(FileAction::Read, path)(source)))?;
    parse_losses(path, &text)
}

/// A `--losses` file being written: each record goes to the system as
/// one write of one whole line (the file is unbuffered), so a run that is
/// killed leaves every epoch it finished.
#[derive(Debug)]
pub struct LossWriter {
    /// The file, for errors.
    path: PathBuf,
    /// The open file.
    file: File,
}

impl LossWriter {
    /// Creates (or empties) `path`.
    pub fn create(path: impl AsRef<Path>) -> Result<LossWriter, FileError> {
        let path = path.as_ref().to_path_buf();
        let file = File::create(&path).map_err(FileError::on(FileAction::Create, &path))?;
        Ok(LossWriter { path, file })
    }

    /// Appends `record` as one line and hands it to the system.
    pub fn write(&mut self, record: &EpochLoss) -> Result<(), FileError> {
        self.file
            .write_all(format!("{record}\n").as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(FileError::on(FileAction::Write, &self.path))
    }
}

/// Where a run's loss records go, if it was asked for them: a
/// [`LossWriter`] that, after a failed write, writes nothing more and keeps
/// the error for [`LossLog::finish`], so that a full disk costs the
/// records and not the hours of fitting still to come.
#[derive(Debug)]
pub struct LossLog {
    /// The file, while writing to it works.
    writer: Option<LossWriter>,
    /// The first failed write.
    error: Option<FileError>,
}

impl LossLog {
    /// Creates `path`, or a log that writes nothing without one.
    pub fn create(path: Option<&str>) -> Result<LossLog, FileError> {
        Ok(LossLog {
            writer: path.map(LossWriter::create).transpose()?,
            error: None,
        })
    }

    /// Writes `record`, if there is a file and no write to it has failed.
    pub fn record(&mut self, record: EpochLoss) {
        if let Some(writer) = &mut self.writer
            && let Err(error) = writer.write(&record)
        {
            self.writer = None;
            self.error = Some(error);
        }
    }

    /// The first write that failed, if any.
    pub fn finish(self) -> Result<(), FileError> {
        self.error.map_or(Ok(()), Err)
    }
}

/// A value in a loss record: only numbers and null matter; any other
/// JSON scalar is recognised so that an unknown field can hold one.
#[derive(Debug, PartialEq)]
enum Value<'a> {
    /// A number, as written.
    Number(&'a str),
    /// `null`.
    Null,
    /// A string, `true` or `false`: what kind, for errors.
    Other(&'static str),
}

/// Reads a flat JSON object, the whole of `line`: its keys and scalar
/// values in order.
fn parse_object(line: &str) -> Result<Vec<(String, Value<'_>)>, LineError> {
    let mut scan = Scanner { text: line, at: 0 };
    let mut fields = Vec::new();
    scan.space();
    scan.expect(b'{', "'{'")?;
    scan.space();
    if !scan.eat(b'}') {
        loop {
            scan.space();
            let key = scan.string()?;
            scan.space();
            scan.expect(b':', "':'")?;
            scan.space();
            let value = scan.value()?;
            fields.push((key, value));
            scan.space();
            if scan.eat(b'}') {
                break;
            }
            scan.expect(b',', "',' or '}'")?;
        }
    }
    scan.space();
    if scan.at < line.len() {
        return Err(scan.error("the end of the line after the object"));
    }
    Ok(fields)
}

/// A cursor over one line of JSON.
struct Scanner<'a> {
    /// The line.
    text: &'a str,
    /// The byte offset of the next byte.
    at: usize,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn error(&self, expected: &'static str) -> LineError {
        LineError::Syntax {
            column: self.at + 1,
            expected,
        }
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.at += 1;
        }
    }

    /// Steps over `byte` if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    fn expect(&mut self, byte: u8, expected: &'static str) -> Result<(), LineError> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    /// Steps over the ASCII digits next; returns how many.
    fn digits(&mut self) -> usize {
        let start = self.at;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.at += 1;
        }
        self.at - start
    }

    /// A JSON string, decoded.
    fn string(&mut self) -> Result<String, LineError> {
        self.expect(b'"', "a string")?;
        let mut out = String::new();
        loop {
            let rest = &self.text[self.at..];
            let Some(c) = rest.chars().next() else {
                return Err(self.error("the string's closing '\"'"));
            };
            match c {
                '"' => {
                    self.at += 1;
                    return Ok(out);
                }
                '\\' => {
                    self.at += 1;
                    let escaped = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hex = self.text.get(self.at + 1..self.at + 5);
                            let code = hex
                                .filter(|hex| hex.bytes().all(|b| b.is_ascii_hexdigit()))
                                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                                .ok_or_else(|| self.error("four hex digits after '\\u'"))?;
                            self.at += 4;
                            // A lone half of a surrogate pair stands for
                            // no character; keys never hold one.
                            char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
                        }
                        _ => return Err(self.error("an escape: one of \"\\/bfnrtu")),
                    };
                    self.at += 1;
                    out.push(escaped);
                }
                c if u32::from(c) < 0x20 => {
                    return Err(self.error("no control character inside a string"));
                }
                c => {
                    self.at += c.len_utf8();
                    out.push(c);
                }
            }
        }
    }

    /// A JSON scalar.
    fn value(&mut self) -> Result<Value<'a>, LineError> {
        let rest = &self.text[self.at..];
        for (word, value) in [
            ("null", Value::Null),
            ("true", Value::Other("true")),
            ("false", Value::Other("false")),
        ] {
            if rest.starts_with(word) {
                self.at += word.len();
                return Ok(value);
            }
        }
        match self.peek() {
            Some(b'"') => {
                self.string()?;
                Ok(Value::Other("a string"))
            }
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.error("a number, null, true, false or a string")),
        }
    }

    /// A JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`,
    /// checked here because Rust's float parser takes more (`inf`, `.5`).
    fn number(&mut self) -> Result<Value<'a>, LineError> {
        let start = self.at;
        self.eat(b'-');
        if !self.eat(b'0') && self.digits() == 0 {
            return Err(self.error("a digit"));
        }
        if self.eat(b'.') && self.digits() == 0 {
            return Err(self.error("a digit after the decimal point"));
        }
        if self.eat(b'e') || self.eat(b'E') {
            let _ = self.eat(b'+') || self.eat(b'-');
            if self.digits() == 0 {
                return Err(self.error("a digit in the exponent"));
            }
        }
        Ok(Value::Number(&self.text[start..self.at]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constants in `f32` are the nearest `f32` to each decimal, as
    /// the trainer's literals were: converting through `f64` rounds no
    /// differently.
    #[test]
    fn constants_convert_to_the_nearest_f32() {
        assert_eq!(f32::from_f64(BETA1), 0.9f32);
        assert_eq!(f32::from_f64(BETA2), 0.999f32);
        assert_eq!(f32::from_f64(EPSILON), 1e-8f32);
        assert_eq!(f32::from_f64(0.9), 0.9f32);
    }

    #[test]
    fn sigmoid_and_its_gradient() {
        assert_eq!(sigmoid(0.0f64), 0.5);
        assert!((sigmoid(2.0f32) + sigmoid(-2.0f32) - 1.0).abs() < 1e-6);
        let (k, x, t) = (0.01f64, 130.0, 0.8);
        let (loss, d) = squared_error_gradient(k, x, t);
        assert_eq!(loss, squared_error(k, x, t));
        let h = 1e-4;
        let numeric = (squared_error(k, x + h, t) - squared_error(k, x - h, t)) / (2.0 * h);
        assert!((numeric - d).abs() < 1e-9, "{numeric} {d}");
    }

    /// Adam on `Σ cᵢ (xᵢ − aᵢ)²` reaches the minimum, in both float
    /// types, and a parameter held fixed stays put.
    #[test]
    fn adam_converges_on_a_quadratic() {
        fn run<F: Float>(step: F) -> Vec<F> {
            let target = [3.0, -2.0, 0.5, 10.0];
            let scale = [1.0, 10.0, 0.1, 1.0];
            let mut x = vec![F::from_f64(0.0); 4];
            let mut adam = Adam::new(4);
            assert_eq!((adam.len(), adam.is_empty()), (4, false));
            for epoch in 0..2000 {
                let lr = step_size(step, epoch, 2000);
                adam.step(lr, &mut x, |i, xi| {
                    (i != 3).then(|| F::from_f64(2.0 * scale[i]) * (xi - F::from_f64(target[i])))
                });
            }
            x
        }
        let x = run(0.05f64);
        for (xi, t) in x.iter().zip([3.0, -2.0, 0.5]) {
            assert!((xi - t).abs() < 1e-3, "{x:?}");
        }
        assert_eq!(x[3], 0.0, "held fixed");
        let x = run(0.05f32);
        for (xi, t) in x.iter().zip([3.0, -2.0, 0.5]) {
            assert!((xi - t).abs() < 1e-3, "{x:?}");
        }
        assert_eq!(x[3], 0.0, "held fixed");
    }

    #[test]
    fn the_step_falls_linearly_to_a_tenth() {
        assert_eq!(step_size(1.0f64, 0, 10), 1.0);
        assert!((step_size(1.0f64, 9, 10) - 0.1).abs() < 1e-12);
        assert!((step_size(2.0f32, 5, 11) - 1.1).abs() < 1e-6);
        assert_eq!(step_size(1.0f64, 0, 1), 1.0);
        assert_eq!(step_size_falling_to(2.0f64, 0.01, 0, 8), 2.0);
        assert!((step_size_falling_to(2.0f64, 0.01, 7, 8) - 0.02).abs() < 1e-12);
        assert_eq!(
            step_size_falling_to(1.0f64, 0.1, 3, 8),
            step_size(1.0f64, 3, 8)
        );
        assert_eq!(held_out_count(100, 0.05), 5);
        assert_eq!(held_out_count(1, 0.5), 0);
        assert_eq!(held_out_count(0, 0.5), 0);
    }

    #[test]
    fn shuffles_repeat_from_the_seed() {
        let shuffled = |seed| {
            let mut items: Vec<u32> = (0..50).collect();
            shuffle(&mut items, &mut Rng::new(seed));
            items
        };
        assert_eq!(shuffled(4), shuffled(4));
        assert_ne!(shuffled(4), shuffled(5));
        let mut sorted = shuffled(4);
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<u32>>());
    }

    /// Scores drawn evenly, results drawn as wins with probability
    /// `sigmoid(K · score)` for a known K: the fit finds K again.
    #[test]
    fn k_fit_recovers_a_known_k() {
        let k = 0.0062;
        let mut rng = Rng::new(9);
        let pairs: Vec<(f64, f64)> = (0..40_000)
            .map(|_| {
                let score = rng.unit() * 1600.0 - 800.0;
                let win = rng.unit() < sigmoid(k * score);
                (score, if win { 1.0 } else { 0.0 })
            })
            .collect();
        let fitted = fit_k(&pairs);
        assert!((fitted - k).abs() < 0.0004, "fitted {fitted}, true {k}");
        // Targets that are the expected results themselves: exactly K.
        let exact: Vec<(f64, f64)> = (-40..=40)
            .map(|i| {
                let score = f64::from(i) * 20.0;
                (score, sigmoid(k * score))
            })
            .collect();
        assert!((fit_k(&exact) - k).abs() < 1e-8);
    }

    #[test]
    fn records_round_trip_through_json_lines() {
        let records = [
            EpochLoss {
                epoch: 0,
                loss: 0.031234,
                held_out: Some(0.086123),
            },
            EpochLoss {
                epoch: 1,
                loss: 0.030_000_000_000_000_002,
                held_out: None,
            },
            EpochLoss {
                epoch: 4_000_000_000,
                loss: 1e-9,
                held_out: Some(0.5),
            },
        ];
        assert_eq!(
            records[0].to_string(),
            r#"{"epoch":0,"loss":0.031234,"held_out":0.086123}"#
        );
        assert_eq!(
            records[1].to_string(),
            r#"{"epoch":1,"loss":0.030000000000000002,"held_out":null}"#
        );
        let dir = std::env::temp_dir().join(format!("kiln-fit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("losses.jsonl");
        let mut log = LossLog::create(path.to_str()).unwrap();
        for record in records {
            log.record(record);
        }
        log.finish().unwrap();
        assert_eq!(read_losses(&path).unwrap(), records);
        // Other writers' spacing, field order, extra fields and a missing
        // held-out loss read as well; a non-finite loss is null.
        let text = " { \"held_out\" : 1E-2, \"note\": \"a \\\"b\\\"\", \"loss\":2.5e-1,\"epoch\":7 }\n\n\
                    {\"epoch\":8,\"loss\":null,\"ok\":true,\"lr\":-0.5}\n";
        let read = parse_losses(&path, text).unwrap();
        assert_eq!(
            read[0],
            EpochLoss {
                epoch: 7,
                loss: 0.25,
                held_out: Some(0.01)
            }
        );
        assert!(read[1].loss.is_nan() && read[1].held_out.is_none());
        let diverged = EpochLoss {
            epoch: 2,
            loss: f64::INFINITY,
            held_out: Some(f64::NAN),
        };
        assert_eq!(
            diverged.to_string(),
            r#"{"epoch":2,"loss":null,"held_out":null}"#
        );
        assert!(LossLog::create(None).unwrap().finish().is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_malformed_line_is_an_error_naming_the_line() {
        let path = Path::new("run/losses.jsonl");
        let good = "{\"epoch\":0,\"loss\":0.1}\n";
        for (bad, error) in [
            (
                "epoch 1 loss 0.09 held-out 0.08",
                LineError::Syntax {
                    column: 1,
                    expected: "'{'",
                },
            ),
            ("{\"epoch\":1}", LineError::Missing("loss")),
            ("{\"loss\":0.1}", LineError::Missing("epoch")),
            (
                "{\"epoch\":1.5,\"loss\":0.1}",
                LineError::Field("epoch", WHOLE),
            ),
            (
                "{\"epoch\":-1,\"loss\":0.1}",
                LineError::Field("epoch", WHOLE),
            ),
            (
                "{\"epoch\":1,\"loss\":\"x\"}",
                LineError::Field("loss", NUMBER),
            ),
            (
                "{\"epoch\":1,\"loss\":0.1,\"loss\":0.2}",
                LineError::Duplicate("loss".into()),
            ),
            (
                "{\"epoch\":1,\"loss\":.5}",
                LineError::Syntax {
                    column: 19,
                    expected: "a number, null, true, false or a string",
                },
            ),
            (
                "{\"epoch\":1,\"loss\":0.1",
                LineError::Syntax {
                    column: 22,
                    expected: "',' or '}'",
                },
            ),
            (
                "{\"epoch\":1,\"loss\":0.1} x",
                LineError::Syntax {
                    column: 24,
                    expected: "the end of the line after the object",
                },
            ),
            (
                "{\"epoch\":0,\"loss\":0.1}",
                LineError::Order {
                    epoch: 0,
                    previous: 0,
                },
            ),
        ] {
            let err = parse_losses(path, &format!("{good}{bad}\n")).expect_err(bad);
            let LossesError::Line {
                path: at,
                line,
                error: found,
            } = &err
            else {
                panic!("{err:?}");
            };
            assert_eq!((at.as_path(), *line, found), (path, 2, &error), "{bad}");
            let message = err.to_string();
            assert!(message.starts_with("run/losses.jsonl:2: "), "{message}");
        }
        let err = read_losses("/nonexistent/kiln/losses.jsonl").expect_err("no file");
        assert!(matches!(err, LossesError::File(_)), "{err:?}");
        assert!(err.to_string().contains("/nonexistent/kiln/losses.jsonl"));
    }
}
