//! `kiln-workshop wdl`: fits the win/draw/loss model of `UCI_ShowWDL`
//! ([`kiln::protocol::wdl`]) to Kiln's own games.
//!
//! The input is `kiln-workshop datagen` output: each line holds a position, the
//! result of the self-play game it came from and the score of the search
//! that chose the move there. The fit maximises the likelihood of the
//! results under the model (a three-way outcome, so the draws teach as
//! much as the decisive games) by full-batch Adam over the eight
//! coefficients of `a` and `b`. Every tenth position is held out and its
//! loss reported beside the training loss. The output is the fitted
//! [`WdlModel`] as Rust source for `protocol/wdl.rs`, and a table of
//! predicted against observed outcomes by score that shows how well it
//! fits.

use std::ffi::OsString;
use std::fmt::{self, Write as _};

use kiln::cli::{ArgError, Parsed, for_each_option};
use kiln::protocol::wdl::{FITTED, WdlModel, material};

use crate::fit::Adam;
use crate::positions::{self, DataError};

/// Usage text of `kiln-workshop wdl`.
pub const USAGE: &str = "\
usage: kiln-workshop wdl --data <file> [--data <file> ...] [options]

Fits the win/draw/loss model that `UCI_ShowWDL` reports to self-play games
(`kiln-workshop datagen` output: the game's result and Kiln's own search score of
each position), and prints the fitted model as Rust source for
src/protocol/wdl.rs with a table of predicted and observed outcomes.

  --data <file>            training data (repeatable): game files (through
                           the default load filter, as `kiln-workshop train`
                           reads them), files of positions, or
                           `<fen> | <result> | <score>` lines
  --iterations <n>         optimiser steps over all positions (default 30000)
  -h, --help               this help

Whole numbers are decimal or 0x hex; options also take --option=value.";

/// What to fit; see [`USAGE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Input files.
    pub data: Vec<String>,
    /// Full-batch optimiser steps.
    pub iterations: u64,
}

impl Options {
    /// Parses the arguments after `wdl`.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut options = Options {
            data: Vec::new(),
            iterations: 30_000,
        };
        let parsed = for_each_option(args, |flag, args| {
            match flag {
                "--data" => options.data.push(args.value(flag)?),
                "--iterations" => options.iterations = args.number(flag, 1, 1_000_000)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if parsed == Parsed::Help {
            return Ok(Parsed::Help);
        }
        if options.data.is_empty() {
            return Err(ArgError::Missing("--data <file>"));
        }
        Ok(Parsed::Run(options))
    }
}

/// The result of a game, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    Win,
    Draw,
    Loss,
}

/// One position: White's score in pawns, the material count, the result.
#[derive(Clone, Copy, Debug)]
struct Sample {
    pawns: f64,
    material: u32,
    outcome: Outcome,
}

/// What `kiln-workshop wdl` found.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The fitted model, in centipawns.
    pub model: WdlModel,
    /// Positions fitted on.
    pub training: usize,
    /// Positions held out.
    pub held_out: usize,
    /// Lines or records that could not be used (malformed, or without a
    /// score).
    pub skipped: u64,
    /// Mean negative log-likelihood of the training positions.
    pub training_loss: f64,
    /// The same on the held-out positions.
    pub held_out_loss: f64,
    /// The built-in model's ([`FITTED`]) on the held-out positions: a refit
    /// is worth its rebuild when this is clearly above `held_out_loss`.
    pub built_in_loss: f64,
    /// Predicted against observed outcomes by score band.
    pub calibration: String,
}

impl fmt::Display for Fit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "positions: {} training, {} held out, {} lines skipped",
            self.training, self.held_out, self.skipped
        )?;
        writeln!(
            f,
            "loss (mean negative log-likelihood): training {:.5}, held out {:.5}",
            self.training_loss, self.held_out_loss
        )?;
        writeln!(
            f,
            "the built-in model on the held-out positions: {:.5}",
            self.built_in_loss
        )?;
        writeln!(f)?;
        write!(f, "{}", self.calibration)?;
        writeln!(f)?;
        writeln!(f, "pub const FITTED: WdlModel = WdlModel {{")?;
        let coefficients = |c: &[f64; 4]| {
            c.iter()
                .map(|v| format!("{v:.3}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(f, "    a: [{}],", coefficients(&self.model.a))?;
        writeln!(f, "    b: [{}],", coefficients(&self.model.b))?;
        writeln!(f, "}};")
    }
}

/// Reads the data and fits the model.
///
/// # Errors
/// A [`DataError`] when a file cannot be read.
pub fn run(options: &Options) -> Result<Fit, DataError> {
    let mut samples = Vec::new();
    let (mut skipped, mut no_score) = (0, 0);
    for path in &options.data {
        skipped += positions::read_positions(path, |position| {
            match position.white_score {
                Some(score) => samples.push(Sample {
                    pawns: score / 100.0,
                    material: material(&position.board),
                    outcome: match position.result {
                        r if r > 0.75 => Outcome::Win,
                        r if r < 0.25 => Outcome::Loss,
                        _ => Outcome::Draw,
                    },
                }),
                None => no_score += 1,
            }
            true
        })?;
    }
    skipped += no_score;
    let (training, held_out): (Vec<_>, Vec<_>) = samples
        .iter()
        .enumerate()
        .partition(|(index, _)| index % 10 != 9);
    let training: Vec<Sample> = training.into_iter().map(|(_, s)| *s).collect();
    let held_out: Vec<Sample> = held_out.into_iter().map(|(_, s)| *s).collect();
    let in_pawns = fit(&training, options.iterations);
    let model = scaled(&in_pawns, 100.0);
    Ok(Fit {
        model,
        training: training.len(),
        held_out: held_out.len(),
        skipped,
        training_loss: mean_loss(&in_pawns, &training),
        held_out_loss: mean_loss(&in_pawns, &held_out),
        built_in_loss: mean_loss(&scaled(&FITTED, 0.01), &held_out),
        calibration: calibration(&in_pawns, &samples),
    })
}

/// `model` with its scores in another unit: by 100 from pawns (as it is
/// fitted) to centipawns (as the engine keeps it), by 0.01 back.
fn scaled(model: &WdlModel, by: f64) -> WdlModel {
    WdlModel {
        a: model.a.map(|c| c * by),
        b: model.b.map(|c| c * by),
    }
}

/// Probabilities below this count as this (a certain outcome that did not
/// happen would make the loss infinite).
const FLOOR: f64 = 1e-9;

/// The negative log-likelihood of one sample and its gradient with respect
/// to `a` and `b` (the model in pawns).
fn loss_and_gradient(model: &WdlModel, sample: &Sample) -> (f64, f64, f64) {
    let (a, b) = model.parameters(sample.material);
    let z_win = (sample.pawns - a) / b;
    let z_loss = (-sample.pawns - a) / b;
    let win = 1.0 / (1.0 + (-z_win).exp());
    let loss = 1.0 / (1.0 + (-z_loss).exp());
    // d(win)/da = -win(1-win)/b, d(win)/db = -win(1-win)·z_win/b, and the
    // same for the loss with z_loss.
    let (slope_win, slope_loss) = (win * (1.0 - win), loss * (1.0 - loss));
    match sample.outcome {
        Outcome::Win => (
            -win.max(FLOOR).ln(),
            (1.0 - win) / b,
            (1.0 - win) * z_win / b,
        ),
        Outcome::Loss => (
            -loss.max(FLOOR).ln(),
            (1.0 - loss) / b,
            (1.0 - loss) * z_loss / b,
        ),
        Outcome::Draw => {
            let draw = (1.0 - win - loss).max(FLOOR);
            (
                -draw.ln(),
                -(slope_win + slope_loss) / (b * draw),
                -(slope_win * z_win + slope_loss * z_loss) / (b * draw),
            )
        }
    }
}

/// Mean negative log-likelihood of `samples` under `model` (in pawns).
fn mean_loss(model: &WdlModel, samples: &[Sample]) -> f64 {
    let total: f64 = samples.iter().map(|s| loss_and_gradient(model, s).0).sum();
    total / samples.len().max(1) as f64
}

/// The cubics' powers of `x` for a material count, highest first.
fn powers(material: u32) -> [f64; 4] {
    let x = WdlModel::variable(material);
    [x * x * x, x * x, x, 1.0]
}

/// Full-batch Adam over the eight coefficients, from a flat model (a win
/// is as likely as not at 1.5 pawns, one pawn of spread).
fn fit(samples: &[Sample], iterations: u64) -> WdlModel {
    let mut model = WdlModel {
        a: [0.0, 0.0, 0.0, 1.5],
        b: [0.0, 0.0, 0.0, 1.0],
    };
    let powers: Vec<[f64; 4]> = samples.iter().map(|s| powers(s.material)).collect();
    // The tuner's and the trainer's optimiser, at a fixed step.
    let rate = 0.02;
    let mut adam = Adam::<f64>::new(8);
    let n = samples.len().max(1) as f64;
    for _ in 0..iterations {
        let mut gradient = [0.0f64; 8];
        for (sample, x) in samples.iter().zip(&powers) {
            let (_, d_a, d_b) = loss_and_gradient(&model, sample);
            for k in 0..4 {
                gradient[k] += d_a * x[k];
                gradient[4 + k] += d_b * x[k];
            }
        }
        let mut coefficients = [model.a, model.b].concat();
        adam.step(rate, &mut coefficients, |k, _| Some(gradient[k] / n));
        model.a.copy_from_slice(&coefficients[..4]);
        model.b.copy_from_slice(&coefficients[4..]);
    }
    model
}

/// Observed and predicted outcomes in score bands (White's score).
fn calibration(model: &WdlModel, samples: &[Sample]) -> String {
    const BANDS: [(f64, f64); 9] = [
        (f64::NEG_INFINITY, -3.0),
        (-3.0, -1.5),
        (-1.5, -0.75),
        (-0.75, -0.25),
        (-0.25, 0.25),
        (0.25, 0.75),
        (0.75, 1.5),
        (1.5, 3.0),
        (3.0, f64::INFINITY),
    ];
    let mut table =
        String::from("score band (pawns)  positions  observed W/D/L %     predicted W/D/L %\n");
    for (low, high) in BANDS {
        let band: Vec<&Sample> = samples
            .iter()
            .filter(|s| s.pawns >= low && s.pawns < high)
            .collect();
        if band.is_empty() {
            continue;
        }
        let n = band.len() as f64;
        let share = |outcome| band.iter().filter(|s| s.outcome == outcome).count() as f64 / n;
        let mut predicted = [0.0; 3];
        for s in &band {
            let (w, d, l) = model.probabilities(s.pawns, s.material);
            predicted[0] += w / n;
            predicted[1] += d / n;
            predicted[2] += l / n;
        }
        let _ = writeln!(
            table,
            "[{low:>5}, {high:>5})  {:>9}  {:>5.1} {:>5.1} {:>5.1}     {:>5.1} {:>5.1} {:>5.1}",
            band.len(),
            100.0 * share(Outcome::Win),
            100.0 * share(Outcome::Draw),
            100.0 * share(Outcome::Loss),
            100.0 * predicted[0],
            100.0 * predicted[1],
            100.0 * predicted[2],
        );
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_args;

    /// Samples drawn from a known model (deterministic: outcomes in the
    /// proportions the model gives, at a spread of scores and materials).
    fn samples_from(model: &WdlModel) -> Vec<Sample> {
        let mut samples = Vec::new();
        for material in [20, 40, 60, 78] {
            for centi in (-400..=400).step_by(20) {
                let pawns = f64::from(centi) / 100.0;
                let (w, d, _) = model.probabilities(pawns, material);
                for i in 0..100 {
                    let u = (f64::from(i) + 0.5) / 100.0;
                    let outcome = if u < w {
                        Outcome::Win
                    } else if u < w + d {
                        Outcome::Draw
                    } else {
                        Outcome::Loss
                    };
                    samples.push(Sample {
                        pawns,
                        material,
                        outcome,
                    });
                }
            }
        }
        samples
    }

    #[test]
    fn the_fit_recovers_a_known_model() {
        let truth = WdlModel {
            a: [0.0, 0.0, 0.5, 1.0],
            b: [0.0, 0.0, 0.2, 0.6],
        };
        let samples = samples_from(&truth);
        let fitted = fit(&samples, 1500);
        for material in [20, 40, 60, 78] {
            let (a, b) = fitted.parameters(material);
            let (ta, tb) = truth.parameters(material);
            assert!((a - ta).abs() < 0.05, "a at {material}: {a} vs {ta}");
            assert!((b - tb).abs() < 0.05, "b at {material}: {b} vs {tb}");
        }
        assert!(mean_loss(&fitted, &samples) <= mean_loss(&truth, &samples) + 1e-3);
    }

    #[test]
    fn a_model_scaled_to_centipawns_scores_as_it_does_in_pawns() {
        let in_pawns = WdlModel {
            a: [0.0, 0.0, 0.5, 1.0],
            b: [0.0, 0.0, 0.2, 0.6],
        };
        let in_centipawns = WdlModel {
            a: [0.0, 0.0, 50.0, 100.0],
            b: [0.0, 0.0, 20.0, 60.0],
        };
        assert_eq!(scaled(&in_pawns, 100.0), in_centipawns);
        let samples = samples_from(&in_pawns);
        let loss = mean_loss(&scaled(&in_centipawns, 0.01), &samples);
        assert!((loss - mean_loss(&in_pawns, &samples)).abs() < 1e-12);
    }

    #[test]
    fn options() {
        let parsed = Options::parse(split_args("--data a --data b --iterations 10")).unwrap();
        assert_eq!(
            parsed,
            Parsed::Run(Options {
                data: vec!["a".into(), "b".into()],
                iterations: 10
            })
        );
        assert!(Options::parse(split_args("--iterations 10")).is_err());
        assert!(Options::parse(split_args("--data a --bogus")).is_err());
    }
}
