//! `kiln-workshop train`: trains the engine's NNUE evaluation, a
//! (768 → N)×2 → 1 network with squared clipped ReLU, on the CPU; with
//! input buckets, one set of 768 features per bucket of each side's king
//! square, optionally with a factoriser ([`model`]).
//!
//! The data is `kiln-workshop datagen` output ([`data`]): game files,
//! whose positions are chosen as they are read (the load filter,
//! [`crate::positions::LoadFilter`], set by `--min-ply`, `--keep-check`,
//! `--keep-noisy`, `--max-score`, `--min-men`), or files of positions,
//! minus the positions `kiln-workshop tune` skips too. The positions are
//! kept packed in memory, 32 bytes each (6.4 GB for 200 million), not
//! streamed: every epoch shuffles them all ([`data`] has the arithmetic).
//! The network ([`model`]) sees the board from both sides through
//! `eval::nnue::features`, the side to move's accumulator first. Its output
//! times `--scale` is a score in centipawns, turned into an expected result
//! by `sigmoid(K · cp)`, with `K` fitted to the data's own search scores
//! against its game results ([`data::fit_k`]): the network's centipawns then
//! mean what the search's mean. The target blends the game result with the
//! search score, both from the side to move's view, by `--lambda` as in
//! `kiln-workshop tune`; the loss is their mean squared error, minimised by
//! Adam over minibatches ([`optimise`]; `--weight-decay` makes it AdamW)
//! with the weights clipped so that they quantise into 16 bits. The last
//! `--holdout` of the positions are kept out of the fit and their loss
//! printed after each epoch (and written as JSON lines with `--losses`,
//! [`crate::fit::EpochLoss`]). The result is quantised ([`quantise`]) and
//! written in `kiln_format::net`'s format; the integer evaluation of the
//! file is then compared with the float network's on held-out positions.
//!
//! The sigmoid, the fit of `K`, Adam and its step schedule are the
//! tuner's too ([`crate::fit`]).

pub mod checkpoint;
pub mod command_line;
pub mod data;
pub mod model;
pub mod optimise;
pub mod quantise;

pub use command_line::{Options, USAGE};

use std::fmt;
use std::ops::ControlFlow;
use std::time::Instant;

use super::progress::Progress;
use super::trace::BuiltParamsError;
use crate::fit::{self, EpochLoss, LossLog};
use crate::positions::{self, DataError};
use checkpoint::{Checkpoint, CheckpointError, Identity};
use data::{MAX_ACTIVE, Position};
use kiln_format::FileError;
use kiln_format::net::{self as net_file, NetHeader, WriteError};
use model::Network;
use optimise::{Objective, RunState, Schedule};

/// Held-out positions on which the quantised network is compared with the
/// float one.
const CHECK_POSITIONS: usize = 10_000;

/// Why `kiln-workshop train` stopped.
#[derive(Debug)]
pub enum TrainError {
    /// A data file could not be read.
    Data(DataError),
    /// The hand-written evaluation's weights, whose held-out loss is
    /// printed beside the network's, cannot be read.
    BuiltParams(BuiltParamsError),
    /// No position of the data can be trained on.
    NoPositions,
    /// `K` is to be fitted but no position has a search score.
    NoScores,
    /// The network does not fit the file format.
    Write(WriteError),
    /// The network could not be written.
    File(FileError),
    /// The run's checkpoint cannot be read, or belongs to another run.
    Checkpoint(CheckpointError),
    /// Another run writes the same network: two runs on one `--out` would
    /// share its checkpoint and write over each other's epochs.
    Busy {
        /// The network both would write.
        path: String,
    },
    /// The network's copies for this shape and thread count would not fit
    /// in the machine's memory.
    TooLarge {
        /// What they would take, in MiB.
        needed_mib: u64,
        /// The machine's physical memory, in MiB.
        physical_mib: u64,
    },
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Data(error) => error.fmt(f),
            TrainError::BuiltParams(error) => error.fmt(f),
            TrainError::NoScores => {
                f.write_str("no position has a search score to fit K on: give --k")
            }
            TrainError::NoPositions => f.write_str(
                "no usable positions in the data (expected `kiln-workshop datagen` output: game \
                 files, files of positions, or `<fen> | <result> | <score>` lines; with game \
                 files, see the load filter's options)",
            ),
            TrainError::Write(error) => write!(f, "cannot encode the network: {error}"),
            TrainError::File(error) => error.fmt(f),
            TrainError::Checkpoint(error) => error.fmt(f),
            TrainError::Busy { path } => write!(
                f,
                "another kiln-workshop train is writing '{path}' (it holds '{path}.lock'): wait \
                 for it, or give another --out"
            ),
            TrainError::TooLarge {
                needed_mib,
                physical_mib,
            } => write!(
                f,
                "this network shape and --threads need {needed_mib} MiB for the network's copies \
                 (one a thread), more than the machine's {physical_mib} MiB: use fewer threads \
                 or a smaller network"
            ),
        }
    }
}

impl std::error::Error for TrainError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TrainError::Data(error) => Some(error),
            TrainError::BuiltParams(error) => Some(error),
            TrainError::Write(error) => Some(error),
            TrainError::File(error) => Some(error),
            TrainError::Checkpoint(error) => Some(error),
            TrainError::NoPositions
            | TrainError::NoScores
            | TrainError::Busy { .. }
            | TrainError::TooLarge { .. } => None,
        }
    }
}

impl From<DataError> for TrainError {
    fn from(error: DataError) -> Self {
        TrainError::Data(error)
    }
}

/// Refuses a run whose network copies would not fit in `physical_mib`
/// (when known): the network, Adam's two moments, a gradient a thread and
/// one more. An allocation that fails aborts the process with no message
/// a user can act on; the positions, which grow with the data given, are
/// not counted.
fn check_memory(options: &Options, physical_mib: Option<u64>) -> Result<(), TrainError> {
    let parameters = model::Network::parameter_count(
        options.hidden,
        options.king_buckets,
        options.buckets,
        options.factorise,
    ) as u64;
    let copies = options.threads as u64 + 4;
    let needed_mib = parameters
        .saturating_mul(std::mem::size_of::<f32>() as u64)
        .saturating_mul(copies)
        >> 20;
    match physical_mib {
        Some(physical_mib) if needed_mib > physical_mib => Err(TrainError::TooLarge {
            needed_mib,
            physical_mib,
        }),
        _ => Ok(()),
    }
}

/// Takes the lock of `out` ([`crate::lock_file`]), refused while another
/// run holds it.
fn lock_output(out: &str) -> Result<std::fs::File, TrainError> {
    crate::lock_file::try_lock_beside(std::path::Path::new(out))
        .map_err(TrainError::File)?
        .ok_or_else(|| TrainError::Busy { path: out.into() })
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Positions trained on.
    pub training: usize,
    /// Positions held out.
    pub held_out: usize,
    /// The logistic scale used.
    pub k: f64,
    /// The held-out loss before training, then after each epoch (empty
    /// without held-out positions).
    pub held_out_loss: Vec<f64>,
    /// The mean batch loss of each epoch.
    pub training_loss: Vec<f64>,
    /// The hand-written evaluation's loss on (the first) held-out
    /// positions, with the same `K` and targets.
    pub hand_written_loss: Option<f64>,
    /// Mean absolute difference in centipawns between the float network
    /// and the written file's integer evaluation on held-out positions.
    pub quantisation_error: f64,
    /// The file's fingerprint.
    pub fingerprint: u64,
}

/// Runs `kiln-workshop train`: trains (going on from `<out>.checkpoint`
/// where an earlier run of the same command left one), writes the
/// network, and removes the checkpoint.
pub fn run(options: &Options) -> Result<Summary, TrainError> {
    // Held until the network is written and the checkpoint removed.
    let _lock = lock_output(&options.out)?;
    // Created before the long load, so that a path that cannot be written
    // fails at once. The records start at epoch 1: an epoch's training
    // loss is the mean of its batches' losses as they are met, which has
    // no value before the first batch.
    let mut losses = LossLog::create(options.losses.as_deref()).map_err(TrainError::File)?;
    let trained = train_network(options, &mut losses, None)?;
    let Trained {
        net,
        training,
        holdout,
        k,
        held_out_loss,
        training_loss,
        hand_written,
    } = trained;
    let held = holdout.len();

    let (header, weights, size, fingerprint) = write_network(options, &net, training.len() + held)?;
    // The network is written: the run is over and its checkpoint goes.
    let checkpoint_path = checkpoint::path_for(&options.out);
    if let Err(error) = checkpoint::remove(&checkpoint_path) {
        eprintln!(
            "train: cannot remove '{}' ({error}); delete it before training another network \
             to the same file",
            checkpoint_path.display()
        );
    }

    // The quantised network against the float one.
    let check = if holdout.is_empty() {
        &training
    } else {
        &holdout
    };
    let check = &check[..check.len().min(CHECK_POSITIONS)];
    let quantisation_error = quantisation_error(&net, &header, &weights, check);
    say!(
        "wrote {} ({} bytes, fingerprint {fingerprint:016x}); quantised vs float: mean |difference| {quantisation_error:.3} cp over {} positions",
        options.out,
        size,
        check.len()
    );
    // A failed write of the losses is reported only now: the network,
    // which the run was for, is written all the same.
    losses.finish().map_err(TrainError::File)?;
    Ok(Summary {
        training: training.len(),
        held_out: held,
        k,
        held_out_loss,
        training_loss,
        hand_written_loss: hand_written,
        quantisation_error,
        fingerprint,
    })
}

/// The float network at the end of a run's training, with what it was
/// trained and measured on.
struct Trained {
    net: Network,
    training: Vec<Position>,
    holdout: Vec<Position>,
    k: f64,
    /// The held-out loss before training, then after each epoch.
    held_out_loss: Vec<f64>,
    training_loss: Vec<f64>,
    hand_written: Option<f64>,
}

/// Loads the data and trains the network, from the run's checkpoint if
/// it has one, writing the checkpoint after every epoch; with
/// `stop_after`, stops after that epoch as a killed run would (for the
/// tests of resuming).
fn train_network(
    options: &Options,
    losses: &mut LossLog,
    stop_after: Option<u32>,
) -> Result<Trained, TrainError> {
    let files: Vec<&str> = options
        .data
        .iter()
        .chain(&options.held_out)
        .map(String::as_str)
        .collect();
    positions::check_filter_applies(&files, &options.filter)?;
    check_memory(options, kiln::protocol::memory::physical_mib())?;
    let loaded = data::load(&options.data, &options.filter)?;
    let mut positions = loaded.positions;
    if positions.is_empty() {
        return Err(TrainError::NoPositions);
    }
    // The held-out positions go last: the positions of the --held-out
    // files, or else the last share of the data (whole games but the
    // first of them), as in `kiln-workshop tune`.
    let held = if options.held_out.is_empty() {
        fit::held_out_count(positions.len(), options.holdout)
    } else {
        let held_out = data::load(&options.held_out, &options.filter)?.positions;
        let count = held_out.len();
        positions.extend(held_out);
        count
    };
    let holdout = positions.split_off(positions.len() - held);
    let k = match options.k {
        Some(k) => k,
        None => data::fit_k(&positions).ok_or(TrainError::NoScores)?,
    };
    let objective = Objective {
        k: k as f32,
        scale: options.scale as f32,
        lambda: options.lambda as f32,
    };
    let threads = options.threads;
    let mut net = Network::random(
        options.hidden,
        options.king_buckets,
        options.buckets,
        options.factorise,
        options.seed,
    );
    // The held-out loss of a network, when there are held-out positions.
    let held_out = |net: &Network| {
        (!holdout.is_empty()).then(|| optimise::mean_loss(net, &holdout, &objective, threads))
    };
    let mut held_out_loss: Vec<f64> = held_out(&net).into_iter().collect();
    let hand_written = if holdout.is_empty() {
        None
    } else {
        Some(
            data::hand_written_loss(&holdout, objective.lambda, objective.k)
                .map_err(TrainError::BuiltParams)?,
        )
    };
    say!(
        "K {k:.6}, {} training and {held} held-out positions, hidden {}, input buckets {}{}, output buckets {}",
        positions.len(),
        options.hidden,
        options.king_buckets.count(),
        match (options.king_buckets.is_none(), options.factorise) {
            (true, _) => "",
            (false, false) => " (king map)",
            (false, true) => " (king map, factorised)",
        },
        options.buckets
    );
    if let Some(loss) = hand_written {
        say!("hand-written evaluation: held-out {loss:.6}");
    }
    if let Some(loss) = held_out_loss.first() {
        say!("epoch 0 held-out {loss:.6}");
    }

    // Where an earlier run of the same command stopped, if one did.
    // The split is part of the run: the same positions divided otherwise
    // (another --holdout, a file moved to --held-out) are another run.
    let settings = format!("{} held-out={}", settings(options, k), holdout.len());
    let identity = Identity::new(settings, &positions, &holdout);
    let checkpoint_path = checkpoint::path_for(&options.out);
    let mut state = RunState::start(&net);
    let mut epochs: Vec<EpochLoss> = Vec::new();
    if let Some(saved) =
        Checkpoint::load(&checkpoint_path, &identity).map_err(TrainError::Checkpoint)?
    {
        let corrupt = |why: &str| {
            TrainError::Checkpoint(CheckpointError::Corrupt {
                path: checkpoint_path.clone(),
                why: why.into(),
            })
        };
        if saved.epochs.len() > options.epochs as usize
            || saved.optimisers.len() != state.optimisers.len()
        {
            return Err(corrupt("more epochs or parts than this run has"));
        }
        saved
            .restore_into(&mut net)
            .ok_or_else(|| corrupt("its network is not this run's shape"))?;
        say!(
            "resuming from '{}': {} of {} epochs done",
            checkpoint_path.display(),
            saved.epochs.len(),
            options.epochs
        );
        for epoch in &saved.epochs {
            let h = epoch
                .held_out
                .map_or(String::new(), |h| format!(" held-out {h:.6}"));
            say!(
                "epoch {} loss {:.6}{h} (from the checkpoint)",
                epoch.epoch,
                epoch.loss
            );
            losses.record(*epoch);
        }
        state = RunState {
            epochs_done: saved.epochs.len() as u32,
            optimisers: saved.optimisers,
        };
        epochs = saved.epochs;
    }

    // The meter counts this run's epochs: a resumed run's rate and time
    // left are its own.
    let per_epoch = positions.len() as u64;
    let first_epoch = state.epochs_done;
    let mut meter = Progress::new(
        "train",
        "positions",
        Some(per_epoch * u64::from(options.epochs - first_epoch)),
    );
    let epochs_done = std::cell::Cell::new(u64::from(first_epoch));
    let start = Instant::now();
    let mut epoch_start = Instant::now();
    let schedule = Schedule {
        epochs: options.epochs,
        batch: options.batch,
        lr: options.lr as f32,
        lr_end: options.lr_end as f32,
        threads,
        seed: options.seed,
        mirror: options.mirror,
        weight_decay: options.weight_decay as f32,
    };
    // A checkpoint that cannot be written is reported once; the run goes
    // on without it.
    let mut checkpointing = true;
    let meter_cell = std::cell::RefCell::new(&mut meter);
    optimise::train(
        &mut net,
        &mut positions,
        &objective,
        &schedule,
        &mut state,
        &mut |done| {
            meter_cell.borrow_mut().update(
                (epochs_done.get() - u64::from(first_epoch)) * per_epoch + done,
                &format!("epoch {}", epochs_done.get() + 1),
            );
        },
        &mut |epoch, loss, net, optimisers| {
            let seconds = epoch_start.elapsed().as_secs_f64();
            let held_out = held_out(net);
            let h = held_out.map_or(String::new(), |h| format!(" held-out {h:.6}"));
            meter_cell.borrow().suspend(|| {
                say!("epoch {epoch} loss {loss:.6}{h} ({seconds:.1} s)");
            });
            let record = EpochLoss {
                epoch,
                loss,
                held_out,
            };
            losses.record(record);
            epochs.push(record);
            if checkpointing {
                let checkpoint = Checkpoint::capture(&identity, &epochs, net, optimisers);
                if let Err(error) = checkpoint.save(&checkpoint_path) {
                    meter_cell.borrow().suspend(|| {
                        eprintln!("train: {error}; going on without a checkpoint");
                    });
                    checkpointing = false;
                }
            }
            epochs_done.set(u64::from(epoch));
            epoch_start = Instant::now();
            if stop_after == Some(epoch) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        },
    );
    meter.finish();
    eprintln!("train: {:.1} s", start.elapsed().as_secs_f64());
    held_out_loss.extend(epochs.iter().filter_map(|epoch| epoch.held_out));
    Ok(Trained {
        net,
        training: positions,
        holdout,
        k,
        held_out_loss,
        training_loss: epochs.iter().map(|epoch| epoch.loss).collect(),
        hand_written,
    })
}

/// Every setting that shapes the training, as `name=value` pairs: what a
/// checkpoint must share with the run that goes on from it. (The data and
/// the load filter are checked through the positions themselves; the
/// output path, the description and the losses file shape nothing.)
fn settings(options: &Options, k: f64) -> String {
    let kings: String = options
        .king_buckets
        .bytes()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!(
        "hidden={} buckets={} kings={kings} factorise={} epochs={} batch={} lr={:?} \
         lr-end={:?} weight-decay={:?} lambda={:?} k={k:?} scale={} mirror={} threads={} seed={}",
        options.hidden,
        options.buckets,
        options.factorise,
        options.epochs,
        options.batch,
        options.lr,
        options.lr_end,
        options.weight_decay,
        options.lambda,
        options.scale,
        options.mirror,
        options.threads,
        options.seed,
    )
}

/// Quantises `net` and writes it to `--out`; returns the header, the
/// integer weights, the file's size and its fingerprint.
fn write_network(
    options: &Options,
    net: &Network,
    positions: usize,
) -> Result<(NetHeader, net_file::NetWeights, usize, u64), TrainError> {
    let description = options
        .description
        .clone()
        .unwrap_or_else(|| format!("trained on {positions} positions"));
    let header = NetHeader {
        hidden: options.hidden,
        king_buckets: options.king_buckets,
        buckets: options.buckets,
        qa: quantise::QA,
        qb: quantise::QB,
        scale: options.scale as i32,
        description,
    };
    let weights = quantise::quantise(net);
    let bytes = net_file::write(&header, &weights).map_err(TrainError::Write)?;
    // The format's own reader checks what was written and names its
    // fingerprint.
    let (_, fingerprint) = net_file::parse(&bytes)
        .map_err(|error| TrainError::Write(WriteError(error.to_string())))?;
    // Whole or not at all, and on the disk before the checkpoint that
    // could make it again is removed.
    kiln_format::write_atomically(&options.out, &bytes).map_err(TrainError::File)?;
    Ok((header, weights, bytes.len(), fingerprint))
}

/// Mean absolute difference in centipawns between the float network and
/// the integer evaluation of its quantised weights.
fn quantisation_error(
    net: &Network,
    header: &NetHeader,
    weights: &net_file::NetWeights,
    positions: &[Position],
) -> f64 {
    let mut acc = vec![0.0; 2 * net.hidden];
    let (mut us, mut them) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let total: f64 = positions
        .iter()
        .map(|position| {
            let count = position.features(&net.kings, &mut us, &mut them);
            let (us, them) = (&us[..count], &them[..count]);
            let float = f64::from(net.forward(us, them, &mut acc)) * f64::from(header.scale);
            let integer = f64::from(quantise::evaluate(header, weights, us, them));
            (float - integer).abs()
        })
        .sum();
    total / positions.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::positions::{self, GameResult};
    use kiln::rng::Rng;
    use kiln_board::Board;
    use kiln_board::{MoveList, generate_all};

    /// Material from White's side, in centipawns.
    fn material(board: &Board) -> i32 {
        const VALUES: [i32; 6] = [100, 300, 300, 500, 900, 0];
        board
            .occupied()
            .into_iter()
            .filter_map(|square| board.piece_on(square))
            .map(|piece| {
                let value = VALUES[piece.kind().index()];
                if piece.color().index() == 0 {
                    value
                } else {
                    -value
                }
            })
            .sum()
    }

    /// Random games as a binary data file: every position scored by its
    /// material, each game won by the side ahead in material at its end.
    fn synthetic_data(path: &str, games: u64) -> usize {
        let mut rng = Rng::new(3);
        let mut bytes = positions::header().to_vec();
        let mut count = 0;
        for game in 0..games {
            let mut board = Board::startpos();
            let mut boards = Vec::new();
            for ply in 0..100 {
                let mut moves = MoveList::new();
                generate_all(&board, &mut moves);
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves[rng.index(moves.len())]);
                if ply >= 6 {
                    boards.push(board.clone());
                }
            }
            let result = match material(&board) {
                m if m > 200 => GameResult::Win,
                m if m < -200 => GameResult::Loss,
                _ => GameResult::Draw,
            };
            for b in &boards {
                bytes.extend(positions::encode(b, material(b), result).unwrap());
            }
            count += boards.len();
            bytes.extend(positions::game_marker(game, 3, result));
        }
        std::fs::write(path, bytes).unwrap();
        count
    }

    /// A fresh directory of this test process's own for the test `name`.
    fn scratch_dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("kiln-train-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The path of `name` in `dir`, as the command line takes it.
    fn file_in(dir: &std::path::Path, name: &str) -> String {
        dir.join(name).to_str().unwrap().to_string()
    }

    /// `--held-out <file>` holds out exactly that file's positions: the
    /// same network as the file appended to the data with the share that
    /// holds out its positions.
    #[test]
    fn a_held_out_file_is_the_held_out_set() {
        let dir = scratch_dir("held");
        let path = |name: &str| file_in(&dir, name);
        let (data, held, out) = (path("data.bin"), path("held.bin"), path("net.nnue"));
        synthetic_data(&data, 40);
        synthetic_data(&held, 10);
        let train = |extra: &[&str]| tiny_run(&out, extra);
        let apart = train(&["--data", &data, "--held-out", &held]);
        let total = apart.training + apart.held_out;
        assert!(apart.training > 0 && apart.held_out > 0, "{apart:?}");
        let share = (apart.held_out as f64 + 0.5) / total as f64;
        let share = format!("{share:.12}");
        let appended = train(&["--data", &data, "--data", &held, "--holdout", &share]);
        assert_eq!(appended, apart);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// `--weight-decay` pulls the weights towards zero: the same run with
    /// it writes smaller feature and output weights.
    #[test]
    fn weight_decay_shrinks_the_weights() {
        let dir = std::env::temp_dir().join(format!("kiln-train-decay-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.bin").to_str().unwrap().to_string();
        synthetic_data(&data, 60);
        let size = |decay: &str| {
            let out = dir.join(format!("net-{decay}.nnue"));
            let out = out.to_str().unwrap();
            tiny_run(
                out,
                &["--data", &data, "--lr", "0.005", "--weight-decay", decay],
            );
            let (_, weights, _) = net_file::read(&std::fs::read(out).unwrap()).unwrap();
            let total = |w: &[i16]| w.iter().map(|&w| f64::from(w).abs()).sum::<f64>();
            (
                total(&weights.feature_weights),
                total(&weights.output_weights),
            )
        };
        let (plain, decayed) = (size("0"), size("10"));
        assert!(decayed.0 < 0.8 * plain.0, "{decayed:?} against {plain:?}");
        assert!(decayed.1 < 0.8 * plain.1, "{decayed:?} against {plain:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A run killed after an epoch goes on from its checkpoint when the
    /// same command is given again, and writes the same network, summary
    /// and losses as a run never stopped; the checkpoint is gone once the
    /// network is written. A checkpoint of other settings, or a damaged
    /// one, is refused with the reason rather than used or overwritten.
    #[test]
    fn a_killed_run_goes_on_from_its_checkpoint() {
        let dir = scratch_dir("resume");
        let path = |name: &str| file_in(&dir, name);
        let (data, out, losses_file) = (path("data.bin"), path("net.nnue"), path("losses.jsonl"));
        synthetic_data(&data, 60);
        let options = |epochs: &str| {
            tiny_options(
                &out,
                &[
                    "--data",
                    &data,
                    "--epochs",
                    epochs,
                    "--lr",
                    "0.005",
                    "--holdout",
                    "0.2",
                    "--mirror",
                    "--threads",
                    "2",
                    "--losses",
                    &losses_file,
                ],
            )
        };
        let checkpoint = checkpoint::path_for(&out);
        let unbroken = run(&options("3")).unwrap();
        let (network, losses) = (
            std::fs::read(&out).unwrap(),
            std::fs::read(&losses_file).unwrap(),
        );
        assert!(!checkpoint.exists(), "a finished run leaves no checkpoint");

        // Stopped after each epoch, the last one too (killed before the
        // network was written), and with a half-written checkpoint beside
        // the last whole one, as a kill while saving leaves.
        let half_written = format!("{}.partial", checkpoint.display());
        for stop_after in [1, 2, 3] {
            let mut no_losses = LossLog::create(None).unwrap();
            train_network(&options("3"), &mut no_losses, Some(stop_after)).unwrap();
            assert!(checkpoint.exists(), "a stopped run leaves its checkpoint");
            std::fs::write(&half_written, b"KILNCKPT").unwrap();
            std::fs::remove_file(&out).ok();
            let resumed = run(&options("3")).unwrap();
            assert_eq!(resumed, unbroken, "stopped after epoch {stop_after}");
            assert_eq!(std::fs::read(&out).unwrap(), network);
            assert_eq!(std::fs::read(&losses_file).unwrap(), losses);
            assert!(!checkpoint.exists());
            assert!(!std::path::Path::new(&half_written).exists());
        }

        let mut no_losses = LossLog::create(None).unwrap();
        train_network(&options("3"), &mut no_losses, Some(1)).unwrap();
        let refused = run(&options("4")).expect_err("another run's checkpoint");
        let message = refused.to_string();
        assert!(
            message.contains("epochs=3") && message.contains("epochs=4"),
            "{message}"
        );
        let bytes = std::fs::read(&checkpoint).unwrap();
        std::fs::write(&checkpoint, &bytes[..bytes.len() - 5]).unwrap();
        let refused = run(&options("3")).expect_err("a truncated checkpoint");
        assert!(
            matches!(
                refused,
                TrainError::Checkpoint(CheckpointError::Corrupt { .. })
            ),
            "{refused}"
        );

        // The same positions split otherwise are another run (K given, so
        // that only the split differs).
        std::fs::remove_file(&checkpoint).unwrap();
        let split = |holdout: &str| {
            let args = [
                "--data",
                &data,
                "--epochs",
                "3",
                "--holdout",
                holdout,
                "--k",
                "0.006",
            ];
            tiny_options(&out, &args)
        };
        let mut no_losses = LossLog::create(None).unwrap();
        train_network(&split("0.2"), &mut no_losses, Some(1)).unwrap();
        let refused = run(&split("0.3")).expect_err("another split's checkpoint");
        assert!(refused.to_string().contains("held-out="), "{refused}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Trains a 16-neuron network for two epochs of 256-position batches
    /// on one thread into `out`, with the options `extra` (the data among
    /// them).
    fn tiny_run(out: &str, extra: &[&str]) -> Summary {
        run(&tiny_options(out, extra)).unwrap()
    }

    /// The options of [`tiny_run`]; a setting in `extra` replaces its
    /// default.
    fn tiny_options(out: &str, extra: &[&str]) -> Options {
        let mut args = vec![
            "--out",
            out,
            "--hidden",
            "16",
            "--epochs",
            "2",
            "--batch",
            "256",
            "--threads",
            "1",
        ];
        args.extend_from_slice(extra);
        Options::parse(args.iter().copied()).unwrap().run().unwrap()
    }

    /// Two runs on one `--out` would share its checkpoint: the second is
    /// refused while the first holds the lock, and runs once it lets go.
    #[test]
    fn a_second_run_on_the_same_network_is_refused() {
        let dir = scratch_dir("busy");
        let path = |name: &str| file_in(&dir, name);
        let (data, out) = (path("data.bin"), path("net.nnue"));
        synthetic_data(&data, 10);
        let options = tiny_options(&out, &["--data", &data, "--epochs", "1"]);
        let first = lock_output(&out).unwrap();
        let refused = run(&options).unwrap_err();
        assert!(
            matches!(&refused, TrainError::Busy { path } if *path == out),
            "{refused:?}"
        );
        assert!(refused.to_string().contains("another --out"), "{refused}");
        assert!(!std::path::Path::new(&out).exists(), "nothing written");
        drop(first);
        run(&options).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A shape and thread count whose copies of the network exceed the
    /// machine's memory is refused before anything is allocated.
    #[test]
    fn a_network_too_large_for_the_memory_is_refused() {
        let small = tiny_options("x.nnue", &["--data", "d"]);
        assert!(check_memory(&small, Some(1)).is_ok());
        let huge = tiny_options(
            "x.nnue",
            &["--data", "d", "--hidden", "4096", "--threads", "1024"],
        );
        // 768 × 4096 + … weights, 4 bytes each, 1,028 copies: about 12 GiB.
        let error = check_memory(&huge, Some(8 * 1024)).unwrap_err();
        assert!(
            matches!(error, TrainError::TooLarge { needed_mib, physical_mib: 8192 } if needed_mib > 12_000),
            "{error}"
        );
        assert!(
            check_memory(&huge, None).is_ok(),
            "unknown memory: no check"
        );
    }

    /// A tiny run lowers the held-out loss (the target mostly the
    /// material score, which the features can express: random games'
    /// results alone are memorised, not learnt, from so few games), writes a file that the format's
    /// parser accepts, and is the same again from the same seed.
    #[test]
    fn a_tiny_run_learns_and_writes_a_network() {
        let dir = std::env::temp_dir().join(format!("kiln-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data.bin").to_str().unwrap().to_string();
        let out = dir.join("net.nnue").to_str().unwrap().to_string();
        let losses_file = dir.join("losses.jsonl").to_str().unwrap().to_string();
        let written = synthetic_data(&data, 150);
        assert!(written > 2000, "{written} positions");
        let options = Options::parse([
            "--data",
            &data,
            "--out",
            &out,
            "--hidden",
            "16",
            "--epochs",
            "6",
            "--batch",
            "256",
            "--lr",
            "0.005",
            "--lambda",
            "0",
            "--holdout",
            "0.2",
            "--threads",
            "2",
            "--losses",
            &losses_file,
        ])
        .unwrap()
        .run()
        .unwrap();
        let summary = run(&options).unwrap();
        let losses = &summary.held_out_loss;
        assert_eq!(losses.len(), 7);
        assert!(
            losses[6] < losses[0] * 0.5,
            "held-out loss {losses:?} did not fall"
        );
        assert!(summary.k > 0.0 && summary.held_out > 0);
        assert!(summary.quantisation_error < 10.0, "{summary:?}");
        let bytes = std::fs::read(&out).unwrap();
        let (header, fingerprint) = net_file::parse(&bytes).unwrap();
        assert_eq!((header.hidden, header.scale), (16, 400));
        assert_eq!(fingerprint, summary.fingerprint);
        assert_eq!(
            header.description,
            format!(
                "trained on {} positions",
                summary.training + summary.held_out
            )
        );
        // The losses file holds what the summary does, from epoch 1.
        let records = crate::fit::read_losses(&losses_file).unwrap();
        let expected: Vec<EpochLoss> = (1..)
            .zip(&summary.training_loss)
            .zip(&summary.held_out_loss[1..])
            .map(|((epoch, &loss), &held_out)| EpochLoss {
                epoch,
                loss,
                held_out: Some(held_out),
            })
            .collect();
        assert_eq!(records, expected);
        let again = run(&options).unwrap();
        assert_eq!(again, summary, "same seed and threads, same network");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
