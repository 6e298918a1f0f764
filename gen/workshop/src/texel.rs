//! `kiln-workshop tune`: Texel tuning of every evaluation weight.
//!
//! Each training position is traced once ([`super::trace`]) into the counts
//! of the weights it uses; its evaluation is then linear in the weights, so
//! the loss and its gradient are cheap. The loss is the mean squared error
//! between the game result (optionally blended with the search score) and
//! `sigmoid(K × eval)`: first `K` is fitted to the current weights, then
//! Adam descends over all `(mg, eg)` weights (material, piece-square tables
//! and terms; the phase weights and king-attack units stay as they are) in shuffled mini-batches, with a small L2 pull towards the
//! starting weights or the neutral ones (`--reg`, `--reg-towards`) so that
//! weights few games use cannot simply memorise those games. The last
//! `--holdout` of the positions (whole games) are kept out of the fit and
//! their loss is printed beside the training loss (and written as JSON
//! lines with `--losses`, [`fit::EpochLoss`]). Positions that the endgame
//! table evaluates itself are skipped; its scale factors multiply the
//! endgame half as in the engine. The result is written in the format of
//! `src/eval/params.txt`, keeping its comments and layout.
//!
//! The sigmoid, the fit of `K`, Adam and its step schedule are the network
//! trainer's too ([`crate::fit`]).

use std::ffi::OsString;
use std::fmt;
use std::time::Instant;

use super::neutral;
use super::progress;
use super::trace::{self, BuiltParamsError, MATERIAL, Trace, WEIGHTS};
use crate::fit::{self, Adam, EpochLoss, LossLog, sigmoid};
use crate::positions::{self, DataError, LoadFilter, Seen};
use kiln::cli::{ArgError, Parsed, for_each_option};
use kiln::eval::endgame::{self, SCALE_NORMAL, Verdict};
use kiln::eval::psqt::PHASE_MAX;
use kiln::rng::Rng;
use kiln_board::{Board, PieceKind};
use kiln_format::params as params_file;
use kiln_format::{FileAction, FileError};

/// Usage text of `kiln-workshop tune`.
pub const USAGE: &str = concat!(
    "\
usage: kiln-workshop tune --data <file> [--data <file>...] --out <params.txt> [options]
       kiln-workshop tune --neutral --out <params.txt>

Texel tuning of the evaluation weights (src/eval/params.txt) on training
data (`kiln-workshop datagen` game files, files of positions, or
`kiln-workshop label` lines). Prints `epoch N loss X held-out Y`
on stdout after each epoch, then writes the tuned weights in
the format of src/eval/params.txt. With --losses the losses also go to a
file as JSON lines, which `kiln-workshop plot --losses` draws.

  --data <file>            training positions (repeat for several files)
  --header <text>          first line of the written file, after '# ' (default:
                           the built file's); name the generation it holds
  --neutral                write the neutral start instead of tuning: the
                           built file with material 100/300/300/500/900 and
                           every other weight 0 (phase weights and king-attack
                           units kept); build an engine from it to fit from
                           neutral, since the fit starts from the built weights
  --out <params.txt>       where to write the tuned weights
  --epochs <n>             passes over the data (default 40)
  --batch <n>              positions per Adam step (default 16384)
  --lr <x>                 step size in centipawns, falling to a tenth (default 0.5)
  --lambda <x>             weight of the game result against the score, 0-1 (default 1)
  --reg <x>                L2 pull towards the anchor weights (default 1e-7)
  --reg-towards <anchor>   start: the weights the fit starts from (default);
                           neutral: material 100/300/300/500/900 and every
                           other weight 0, a ridge that keeps correlated
                           terms from growing large opposite weights
  --holdout <x>            share of positions held out of the fit, 0-0.5 (default 0.05)
  --limit <n>              use at most n positions
  --seed <n>               seed of the shuffles (default 1)
  --losses <file.jsonl>    also write each epoch's losses there, one JSON object
                           a line: {\"epoch\":N,\"loss\":X,\"held_out\":Y}, epoch 0
                           the starting weights, written as each epoch ends
  -h, --help               this help

Game files store every ply; the load filter chooses the positions tuned on
(files of positions are read whole):
",
    crate::positions::load_filter_usage!(),
    "
Whole numbers and seeds are decimal or 0x hex; options also take
--option=value."
);

/// Tuning settings; see [`USAGE`].
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Training files (`<fen> | <result> | <score>` lines, as `datagen` writes).
    pub data: Vec<String>,
    /// Where to write the tuned parameter file.
    pub out: String,
    /// The first line of the written file, after `# ` (else the built
    /// file's first line is kept).
    pub header: Option<String>,
    /// Write the neutral starting point ([`super::neutral`]) to `out`
    /// instead of tuning; no data is read.
    pub neutral: bool,
    /// Passes over the data.
    pub epochs: u32,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam step size in centipawns in the first epoch; it falls linearly to
    /// a tenth of this by the last.
    pub lr: f64,
    /// Weight of the game result in the target (1 = result only, 0 = the
    /// search score only).
    pub lambda: f64,
    /// L2 pull of every weight towards its anchor (per cp²): keeps weights
    /// that few games use from fitting those games' results.
    pub reg: f64,
    /// What `reg` pulls towards.
    pub reg_towards: RegAnchor,
    /// Fraction of the positions (the last ones loaded: whole games, unseen
    /// by the fit) held out to measure the loss on.
    pub holdout: f64,
    /// Use at most this many positions (from the start of the files).
    pub limit: Option<usize>,
    /// Seed of the shuffles.
    pub seed: u64,
    /// Where to write the losses of each epoch as JSON lines
    /// ([`fit::EpochLoss`]), if anywhere.
    pub losses: Option<String>,
    /// Which positions of game files are tuned on.
    pub filter: LoadFilter,
}

/// The options of `tune` that only a fit reads (the load filter's among
/// them): given with `--neutral`, they would be silently dropped.
const FIT_ONLY_OPTIONS: [&str; 16] = [
    "--data",
    "--epochs",
    "--batch",
    "--lr",
    "--lambda",
    "--reg",
    "--reg-towards",
    "--holdout",
    "--limit",
    "--seed",
    "--losses",
    "--min-ply",
    "--keep-check",
    "--keep-noisy",
    "--max-score",
    "--min-men",
];

impl Options {
    /// Parses the arguments after `tune`.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut o = Options {
            data: Vec::new(),
            out: String::new(),
            header: None,
            neutral: false,
            epochs: 40,
            batch: 16_384,
            lr: 0.5,
            lambda: 1.0,
            reg: 1e-7,
            reg_towards: RegAnchor::Start,
            holdout: 0.05,
            limit: None,
            seed: 1,
            losses: None,
            filter: LoadFilter::default(),
        };
        let mut out = None;
        // The first option given that only a fit reads: `--neutral` writes
        // the neutral start without fitting, so it refuses them.
        let mut fit_only = None;
        let parsed = for_each_option(args, |flag, args| {
            if let Some(&name) = FIT_ONLY_OPTIONS.iter().find(|&&name| name == flag) {
                fit_only.get_or_insert(name);
            }
            match flag {
                "--data" => o.data.push(args.value(flag)?),
                "--out" => out = Some(args.value(flag)?),
                "--neutral" => o.neutral = true,
                "--header" => {
                    let text = args.value(flag)?;
                    if text.contains(['\n', '\r']) {
                        return Err(ArgError::BadValue {
                            what: flag.to_string(),
                            text,
                            reason: "a header is one line".to_string(),
                        });
                    }
                    o.header = Some(text);
                }
                "--epochs" => o.epochs = args.number(flag, 0, 100_000)? as u32,
                "--batch" => o.batch = args.number(flag, 1, 100_000_000)? as usize,
                "--lr" => o.lr = args.fraction(flag, 1e-6, 1000.0)?,
                "--lambda" => o.lambda = args.fraction(flag, 0.0, 1.0)?,
                "--reg" => o.reg = args.fraction(flag, 0.0, 1.0)?,
                "--reg-towards" => {
                    let text = args.value(flag)?;
                    o.reg_towards = match text.as_str() {
                        "start" => RegAnchor::Start,
                        "neutral" => RegAnchor::Neutral,
                        _ => {
                            return Err(ArgError::BadValue {
                                what: flag.to_string(),
                                text,
                                reason: "expected start or neutral".to_string(),
                            });
                        }
                    };
                }
                "--holdout" => o.holdout = args.fraction(flag, 0.0, 0.5)?,
                "--limit" => o.limit = Some(args.number(flag, 1, u64::MAX)? as usize),
                "--seed" => o.seed = args.number(flag, 0, u64::MAX)?,
                "--losses" => o.losses = Some(args.value(flag)?),
                _ => return o.filter.option(flag, args),
            }
            Ok(true)
        })?;
        if parsed == Parsed::Help {
            return Ok(Parsed::Help);
        }
        o.out = out.ok_or(ArgError::Missing("--out <params.txt>"))?;
        if o.neutral
            && let Some(name) = fit_only
        {
            return Err(ArgError::Conflict("--neutral", name));
        }
        if o.data.is_empty() && !o.neutral {
            return Err(ArgError::Missing("--data <file>"));
        }
        Ok(Parsed::Run(o))
    }
}

/// The weights `--reg` pulls towards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegAnchor {
    /// The weights the fit starts from (the binary's built weights).
    Start,
    /// The neutral start ([`neutral::neutral`]): material only.
    Neutral,
}

/// One training position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// Weight counts and phase.
    pub trace: Trace,
    /// The target in `[0, 1]` from White's view.
    pub target: f32,
    /// The game result from White's view (the target with `--lambda 1`).
    pub result: f32,
}

/// Whether a position teaches the weights anything: positions without
/// pawns and with at most one piece besides the kings are draws by rule
/// whatever the weights say, and positions with a specialised endgame
/// evaluation do not use the weights.
pub fn is_trainable(board: &Board) -> bool {
    let pieces = board.occupied().count() - 2;
    // A specialised endgame evaluation replaces the weighted sum: nothing
    // to learn there for the weights.
    (pieces > 1 || board.kind_bb(PieceKind::Pawn).any())
        && !matches!(endgame::probe(board), Verdict::Exact(_))
}

/// Loads and traces the training positions; returns them and the number
/// of lines that could not be parsed.
pub fn load(options: &Options, k_score: f64) -> Result<(Vec<Sample>, u64), DataError> {
    let files: Vec<&str> = options.data.iter().map(String::as_str).collect();
    positions::check_filter_applies(&files, &options.filter)?;
    let mut samples = Vec::new();
    let mut bad = 0;
    let limit = options.limit.unwrap_or(usize::MAX);
    let start = Instant::now();
    let mut meter = progress::Progress::new(
        "tune loading",
        "positions",
        options.limit.map(|limit| limit as u64),
    );
    let mut read = 0u64;
    for path in &options.data {
        if samples.len() >= limit {
            break;
        }
        let counts = positions::read_positions_filtered(path, &options.filter, |position| {
            read += 1;
            if read.is_multiple_of(4096) {
                meter.update(samples.len() as u64, "");
            }
            let Seen {
                board,
                result,
                white_score,
            } = position;
            if !is_trainable(board) {
                return true;
            }
            let target = match white_score {
                Some(score) if options.lambda < 1.0 => {
                    options.lambda * result + (1.0 - options.lambda) * sigmoid(k_score * score)
                }
                _ => result,
            };
            samples.push(Sample {
                trace: trace::trace(board),
                target: target as f32,
                result: result as f32,
            });
            samples.len() < limit
        })?;
        bad += counts.bad;
    }
    meter.update(samples.len() as u64, "");
    meter.finish();
    eprintln!(
        "tune: loaded {} positions ({:.0} s), {bad} bad lines",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    Ok((samples, bad))
}

/// The evaluation of a sample with real-valued weights (no rounding).
fn evaluate(trace: &Trace, w: &[[f64; 2]]) -> f64 {
    evaluate_with_scale(trace, w).0
}

/// The evaluation of a sample and the factor its endgame half was scaled
/// by (the endgame table's, chosen by the half's sign as the engine does).
fn evaluate_with_scale(trace: &Trace, w: &[[f64; 2]]) -> (f64, f64) {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &trace.counts {
        let [m, e] = w[usize::from(i)];
        mg += m * f64::from(c);
        eg += e * f64::from(c);
    }
    let scale = match trace.eg_scale {
        Some([white, black]) => {
            f64::from(if eg > 0.0 { white } else { black }) / f64::from(SCALE_NORMAL)
        }
        None => 1.0,
    };
    let phase = f64::from(trace.phase) / f64::from(PHASE_MAX);
    (mg * phase + eg * scale * (1.0 - phase), scale)
}

/// Mean squared error of `sigmoid(k × eval)` against the targets.
pub fn loss(samples: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| fit::squared_error(k, evaluate(&s.trace, w), f64::from(s.target)))
        .sum();
    sum / samples.len().max(1) as f64
}

/// The `K` at which the current weights' evaluations best predict the
/// targets ([`fit::fit_k`]).
pub fn fit_k(samples: &[Sample], w: &[[f64; 2]]) -> f64 {
    let evals: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| (evaluate(&s.trace, w), f64::from(s.target)))
        .collect();
    fit::fit_k(&evals)
}

/// Which weights the tuner may change: not the king's material (both
/// sides always have one) nor weights no position uses.
fn tunable(samples: &[Sample]) -> Vec<bool> {
    let mut used = vec![false; WEIGHTS];
    for s in samples {
        for &(i, _) in &s.trace.counts {
            used[usize::from(i)] = true;
        }
    }
    used[MATERIAL + PieceKind::King.index()] = false;
    used
}

/// Called after each epoch with its number, the training loss and the
/// weights.
pub type Progress<'a> = dyn FnMut(u32, f64, &[[f64; 2]]) + 'a;

/// Adam over mini-batches from `start`, with `options.reg` pulling each
/// weight towards `anchor`; returns the tuned weights and the loss after
/// each epoch (the first entry is the starting loss).
pub fn adam(
    samples: &mut [Sample],
    start: &[[f64; 2]],
    anchor: &[[f64; 2]],
    k: f64,
    options: &Options,
    progress: &mut Progress,
) -> (Vec<[f64; 2]>, Vec<f64>) {
    let mut w = start.to_vec();
    let tunable = tunable(samples);
    // The (mg, eg) pairs side by side: Adam sees one flat slice, whose
    // parameter `i` is half `i % 2` of weight `i / 2`.
    let mut optimiser = Adam::<f64>::new(2 * w.len());
    let anchor = anchor.as_flattened();
    let mut rng = Rng::new(options.seed);
    let mut curve = vec![loss(samples, &w, k)];
    let mut gradient = vec![[0.0f64; 2]; WEIGHTS];
    for epoch in 0..options.epochs {
        let lr = fit::step_size(options.lr, epoch, options.epochs);
        fit::shuffle(samples, &mut rng);
        for batch in samples.chunks(options.batch.max(1)) {
            gradient.iter_mut().for_each(|g| *g = [0.0; 2]);
            for s in batch {
                let phase = f64::from(s.trace.phase) / f64::from(PHASE_MAX);
                let (eval, scale) = evaluate_with_scale(&s.trace, &w);
                let (_, d) = fit::squared_error_gradient(k, eval, f64::from(s.target));
                let (dm, de) = (d * phase, d * scale * (1.0 - phase));
                for &(i, c) in &s.trace.counts {
                    let g = &mut gradient[usize::from(i)];
                    g[0] += dm * f64::from(c);
                    g[1] += de * f64::from(c);
                }
            }
            let n = batch.len() as f64;
            let gradient = gradient.as_flattened();
            optimiser.step(lr, w.as_flattened_mut(), |i, wi| {
                tunable[i / 2].then(|| gradient[i] / n + 2.0 * options.reg * (wi - anchor[i]))
            });
        }
        let l = loss(samples, &w, k);
        curve.push(l);
        progress(epoch + 1, l, &w);
    }
    (w, curve)
}

/// Why `kiln-workshop tune` stopped.
#[derive(Debug)]
pub enum TuneError {
    /// The parameter file the engine was built from cannot be tuned.
    BuiltParams(BuiltParamsError),
    /// A data file could not be read.
    Data(DataError),
    /// The output could not be written.
    File(FileError),
    /// No line of the data is a usable training position.
    NoPositions,
    /// The tuned weights do not fit the parameter file's layout.
    Render(params_file::ParamsError),
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::BuiltParams(error) => error.fmt(f),
            TuneError::File(error) => error.fmt(f),
            TuneError::Data(error) => error.fmt(f),
            TuneError::NoPositions => f.write_str(
                "no usable positions in the data (expected `kiln-workshop datagen` output: binary \
                 records or `<fen> | <result> | <score>` lines)",
            ),
            TuneError::Render(error) => write!(f, "cannot write the tuned weights: {error}"),
        }
    }
}

impl std::error::Error for TuneError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TuneError::BuiltParams(error) => Some(error),
            TuneError::File(error) => Some(error),
            TuneError::Data(error) => Some(error),
            TuneError::Render(error) => Some(error),
            TuneError::NoPositions => None,
        }
    }
}

impl From<DataError> for TuneError {
    fn from(error: DataError) -> Self {
        TuneError::Data(error)
    }
}

impl From<FileError> for TuneError {
    fn from(error: FileError) -> Self {
        TuneError::File(error)
    }
}

/// `text` (a parameter file) with its first line replaced by `# <header>`,
/// or unchanged without a header.
pub fn with_header(text: &str, header: Option<&str>) -> String {
    match header {
        Some(header) => {
            let rest = text.split_once('\n').map_or("", |(_, rest)| rest);
            format!("# {header}\n{rest}")
        }
        None => text.to_string(),
    }
}

/// Runs `kiln-workshop tune`: prints K, the loss curve and the losses before and
/// after (float weights and the rounded integer weights written out).
pub fn run(options: &Options) -> Result<(), TuneError> {
    let mut params = trace::built_params().map_err(TuneError::BuiltParams)?;
    if options.neutral {
        let text = neutral::neutral_text(&params).map_err(TuneError::Render)?;
        std::fs::write(&options.out, with_header(&text, options.header.as_deref()))
            .map_err(FileError::on(FileAction::Write, &options.out))?;
        eprintln!("tune: wrote the neutral start to {}", options.out);
        return Ok(());
    }
    // Created before the long load, so that a path that cannot be written
    // fails at once.
    let mut losses = LossLog::create(options.losses.as_deref())?;
    let start_weights = trace::as_real(&trace::weights_of(&params));
    let anchor = match options.reg_towards {
        RegAnchor::Start => start_weights.clone(),
        RegAnchor::Neutral => trace::as_real(&trace::weights_of(&neutral::neutral(&params))),
    };
    // With --lambda below 1 the search score joins the target, turned into
    // an expected result on a fixed logistic scale of 170 cp per unit.
    let (mut samples, _) = load(options, 1.0 / 170.0)?;
    if samples.is_empty() {
        return Err(TuneError::NoPositions);
    }
    // The last positions (whole games) are held out: the fit never sees
    // them, so their loss shows whether it generalises.
    let held = fit::held_out_count(samples.len(), options.holdout);
    let holdout = samples.split_off(samples.len() - held);
    let holdout_loss = |w: &[[f64; 2]], k: f64| {
        let sum: f64 = holdout
            .iter()
            .map(|s| fit::squared_error(k, evaluate(&s.trace, w), f64::from(s.result)))
            .sum();
        sum / holdout.len().max(1) as f64
    };
    // The held-out loss of a record: none without held-out positions
    // (printed as 0, as it always was).
    let held_out = |loss: f64| (held > 0).then_some(loss);
    let k = fit_k(&samples, &start_weights);
    let before = loss(&samples, &start_weights, k);
    let held_before = holdout_loss(&start_weights, k);
    eprintln!("tune: K = {k:.6} (per cp), loss before = {before:.6}, held-out {held_before:.6}");
    say!(
        "K {k:.6}, {} training and {held} held-out positions",
        samples.len()
    );
    say!("epoch 0 loss {before:.6} held-out {held_before:.6}");
    losses.record(EpochLoss {
        epoch: 0,
        loss: before,
        held_out: held_out(held_before),
    });
    let mut meter = progress::Progress::new("tune", "epochs", Some(u64::from(options.epochs)));
    let (tuned, curve) = adam(
        &mut samples,
        &start_weights,
        &anchor,
        k,
        options,
        &mut |epoch, l, w| {
            let h = holdout_loss(w, k);
            meter.suspend(|| say!("epoch {epoch} loss {l:.6} held-out {h:.6}"));
            losses.record(EpochLoss {
                epoch,
                loss: l,
                held_out: held_out(h),
            });
            meter.update(u64::from(epoch), &format!("loss {l:.6} held-out {h:.6}"));
        },
    );
    meter.finish();
    let rounded: Vec<(i32, i32)> = tuned
        .iter()
        .map(|&[m, e]| (m.round() as i32, e.round() as i32))
        .collect();
    let rounded_f = trace::as_real(&rounded);
    let after = curve.last().copied().unwrap_or(before);
    let after_rounded = loss(&samples, &rounded_f, k);
    let held_after = holdout_loss(&rounded_f, k);
    trace::set_weights(&mut params, &rounded);
    let text = params_file::render(trace::BUILT_PARAMS, &params).map_err(TuneError::Render)?;
    std::fs::write(&options.out, with_header(&text, options.header.as_deref()))
        .map_err(FileError::on(FileAction::Write, &options.out))?;
    say!(
        "loss before {before:.6} after {after:.6} (rounded {after_rounded:.6}); held-out before {held_before:.6} after {held_after:.6}; {} training positions, K {k:.6}",
        samples.len()
    );
    eprintln!("tune: wrote {}", options.out);
    // A failed write of the losses is reported only now: the weights,
    // which the run was for, are written all the same.
    losses.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::split_args as args;

    fn parse(text: &str) -> Result<Options, ArgError> {
        Options::parse(args(text)).map(|parsed| parsed.run().expect("not a help request"))
    }

    #[test]
    fn options_reject_bad_input() {
        assert_eq!(parse("--out x"), Err(ArgError::Missing("--data <file>")));
        assert_eq!(
            parse("--data d"),
            Err(ArgError::Missing("--out <params.txt>"))
        );
        assert!(parse("--data d --out x --lr -1").is_err());
        assert!(parse("--data d --out x --lambda 2").is_err());
        assert!(parse("--data d --out x --epochs x").is_err());
        assert_eq!(
            parse("--data d --out x extra"),
            Err(ArgError::UnexpectedArgument("extra".into()))
        );
        let o = parse("--data d --out x --epochs 3 --seed 9").unwrap();
        assert_eq!((o.epochs, o.seed), (3, 9));
        let o = parse("--data=d --data e --out x --seed=0xff --lr=0.25").unwrap();
        assert_eq!((o.data.len(), o.seed, o.lr), (2, 255, 0.25));
        assert_eq!(o.reg_towards, RegAnchor::Start);
        let o = parse("--data d --out x --reg-towards neutral").unwrap();
        assert_eq!(o.reg_towards, RegAnchor::Neutral);
        assert!(matches!(
            parse("--data d --out x --reg-towards zero"),
            Err(ArgError::BadValue { .. })
        ));
        assert_eq!(Options::parse(args("--help")), Ok(Parsed::Help));
    }

    #[test]
    fn neutral_needs_no_data_and_takes_none() {
        let o = parse("--neutral --out x").unwrap();
        assert!(o.neutral && o.data.is_empty());
        assert_eq!(
            parse("--neutral"),
            Err(ArgError::Missing("--out <params.txt>"))
        );
        assert_eq!(
            parse("--neutral --data d --out x"),
            Err(ArgError::Conflict("--neutral", "--data"))
        );
        assert!(parse("--neutral=yes --out x").is_err());
        let o = parse("--neutral --out x --header=gen-1").unwrap();
        assert_eq!(o.header.as_deref(), Some("gen-1"));
        assert_eq!(with_header("# a\nb\n", Some("c d")), "# c d\nb\n");
        assert_eq!(with_header("# a\nb\n", None), "# a\nb\n");
        assert!(matches!(
            Options::parse(["--data", "d", "--out", "x", "--header", "a\nb"]),
            Err(ArgError::BadValue { .. })
        ));
        assert_eq!(
            parse("--neutral --out x --losses l"),
            Err(ArgError::Conflict("--neutral", "--losses"))
        );
        // Every option of a fit is refused, not dropped; the first is named.
        for option in FIT_ONLY_OPTIONS {
            let value = match option {
                "--keep-check" | "--keep-noisy" => String::new(),
                "--reg-towards" => " neutral".to_string(),
                "--data" | "--losses" => " f".to_string(),
                "--holdout" | "--lambda" | "--reg" => " 0.1".to_string(),
                _ => " 3".to_string(),
            };
            assert_eq!(
                parse(&format!("--out x {option}{value} --neutral --epochs 3")),
                Err(ArgError::Conflict("--neutral", option)),
                "{option}"
            );
        }
    }

    #[test]
    fn usage_states_the_defaults() {
        use kiln::cli::documented_default as default;
        let o = parse("--data d --out x").unwrap();
        let real = |option| default(USAGE, option).and_then(|x| x.parse::<f64>().ok());
        assert_eq!(real("--epochs"), Some(f64::from(o.epochs)));
        assert_eq!(real("--batch"), Some(o.batch as f64));
        assert_eq!(real("--lr"), Some(o.lr));
        assert_eq!(real("--lambda"), Some(o.lambda));
        assert_eq!(real("--reg"), Some(o.reg));
        assert_eq!(real("--holdout"), Some(o.holdout));
        assert_eq!(real("--seed"), Some(o.seed as f64));
        assert_eq!(o.losses, None);
        assert_eq!(default(USAGE, "--losses"), None);
        let o = parse("--data d --out x --losses=l.jsonl").unwrap();
        assert_eq!(o.losses.as_deref(), Some("l.jsonl"));
        // The load filter: its documented defaults, and its options.
        assert_eq!(o.filter, LoadFilter::default());
        assert_eq!(real("--min-ply"), Some(o.filter.min_ply as f64));
        assert_eq!(real("--min-men"), Some(f64::from(o.filter.min_men)));
        let o = parse("--data d --out x --min-ply 20 --keep-noisy --max-score 2000").unwrap();
        assert_eq!(
            (o.filter.min_ply, o.filter.keep_noisy, o.filter.keep_check),
            (20, true, false)
        );
        assert_eq!(o.filter.max_score, Some(2000));
    }

    /// A synthetic set where an extra white knight should win: the tuner
    /// must lower the loss, reproducibly from its seed.
    #[test]
    fn tuner_lowers_the_loss_on_a_synthetic_set() {
        let fens = [
            ("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", 1.0),
            ("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.5),
            ("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.0),
            ("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1", 1.0),
            ("r3k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", 0.0),
            ("4k3/ppp5/8/8/8/8/PPPP4/4K3 w - - 0 1", 1.0),
        ];
        let samples: Vec<Sample> = fens
            .iter()
            .map(|&(fen, r)| Sample {
                trace: trace::trace(&Board::from_fen(fen).unwrap()),
                target: r,
                result: r,
            })
            .collect();
        let w: Vec<[f64; 2]> = trace::weights_of(&trace::built_params().unwrap())
            .iter()
            .map(|&(m, e)| [f64::from(m) * 0.2, f64::from(e) * 0.2])
            .collect();
        let k = 0.01;
        let options = parse("--data d --out x --epochs 50 --batch 2 --lr 2").unwrap();
        let (mut a, mut b) = (samples.clone(), samples.clone());
        let (tuned, curve) = adam(&mut a, &w, &w, k, &options, &mut |_, _, _| {});
        let (again, _) = adam(&mut b, &w, &w, k, &options, &mut |_, _, _| {});
        assert_eq!(tuned, again, "same seed, same result");
        assert!(
            curve.last().unwrap() < &(curve[0] * 0.8),
            "loss {} -> {}",
            curve[0],
            curve.last().unwrap()
        );
        assert!(fit_k(&samples, &w) > 0.0);
    }

    /// A whole run with `--losses` writes one record per epoch, epoch 0
    /// (the starting weights) first, with a held-out loss only when
    /// positions are held out, and the same losses it prints.
    #[test]
    fn a_run_writes_its_losses_as_json_lines() {
        let dir = std::env::temp_dir().join(format!("kiln-tune-losses-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.txt");
        let fens = [
            ("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", "1.0"),
            ("4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", "0.5"),
            ("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", "0.0"),
            ("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1", "1.0"),
            ("r3k3/pppp4/8/8/8/8/PPPP4/4K3 b - - 0 1", "0.0"),
        ];
        let lines: String = (0..8)
            .flat_map(|_| fens.iter().map(|(fen, r)| format!("{fen} | {r} | 0\n")))
            .collect();
        std::fs::write(&data, lines).unwrap();
        let out = dir.join("params.txt");
        let losses = dir.join("losses.jsonl");
        for holdout in ["0", "0.2"] {
            let options = Options::parse([
                "--data",
                data.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--epochs",
                "3",
                "--batch",
                "8",
                "--holdout",
                holdout,
                "--losses",
                losses.to_str().unwrap(),
            ])
            .unwrap()
            .run()
            .unwrap();
            run(&options).unwrap();
            let records = fit::read_losses(&losses).unwrap();
            let epochs: Vec<u32> = records.iter().map(|r| r.epoch).collect();
            assert_eq!(epochs, [0, 1, 2, 3]);
            assert!(records.iter().all(|r| r.loss > 0.0 && r.loss < 0.25));
            let held = holdout != "0";
            assert!(
                records.iter().all(|r| r.held_out.is_some() == held),
                "{records:?}"
            );
        }
        let unwritable = dir.join("no-such-folder").join("losses.jsonl");
        let options = Options::parse([
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--losses",
            unwritable.to_str().unwrap(),
        ])
        .unwrap()
        .run()
        .unwrap();
        let error = run(&options).expect_err("the losses cannot be written");
        assert!(error.to_string().contains("no-such-folder"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn data_lines_parse() {
        let (b, r, s) =
            positions::parse_text_line("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | 1.0 | 523").unwrap();
        assert_eq!((r, s), (1.0, Some(523.0)));
        assert_eq!(b.occupied().count(), 3);
        assert!(positions::parse_text_line("nonsense | 1.0 | 3").is_none());
        assert!(positions::parse_text_line("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | 2.0").is_none());
        let unscored = positions::parse_text_line("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | 0.5");
        assert_eq!(unscored.map(|(_, r, s)| (r, s)), Some((0.5, None)));
        let empty = positions::parse_text_line("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | 0.5 | ");
        assert_eq!(empty.map(|(_, r, s)| (r, s)), Some((0.5, None)));
        // A damaged score is a bad line, not a line without a score.
        for score in ["nan", "inf", "-inf", "12x", "1e999", "3 | 4"] {
            let line = format!("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 | 1.0 | {score}");
            assert!(positions::parse_text_line(&line).is_none(), "{line}");
        }
    }
}
