//! Minibatch Adam over the training positions, each batch's gradient
//! computed by several threads at once.
//!
//! A batch is cut into one contiguous shard per thread; each thread sums
//! its shard's gradient into its own buffer, and the buffers are added in
//! thread order, so a run is the same from the same seed and thread count.
//! The loss, Adam, its step schedule and the shuffle are the tuner's
//! ([`crate::fit`]), in `f32`.

use std::ops::ControlFlow;
use std::thread;

use super::data::{MAX_ACTIVE, Position};
use super::model::Network;
use crate::fit::{self, Adam};
use kiln::rng::Rng;

/// The largest magnitude of a weight: feature weights then fit an i16
/// after scaling by QA, output weights after scaling by QB (1.98 · 64 =
/// 127, so a clamped activation times an output weight fits 16 bits).
pub const WEIGHT_CLIP: f32 = 1.98;

/// How a network's output becomes a prediction, and what it is compared
/// with.
#[derive(Clone, Copy, Debug)]
pub struct Objective {
    /// Logistic scale per centipawn.
    pub k: f32,
    /// Centipawns per unit of output.
    pub scale: f32,
    /// Weight of the game result in the target.
    pub lambda: f32,
}

impl Objective {
    /// The squared error of the prediction from output `raw` against
    /// `target`, and its derivative by `raw`.
    fn loss(&self, raw: f32, target: f32) -> (f32, f32) {
        fit::squared_error_gradient(self.k * self.scale, raw, target)
    }
}

/// The sum of the losses of `positions`, and with `grad` also the sum of
/// their gradients added to it.
fn shard(
    net: &Network,
    positions: &[Position],
    objective: &Objective,
    mut grad: Option<&mut Network>,
) -> f64 {
    let mut acc = vec![0.0; 2 * net.hidden];
    let (mut us, mut them) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let mut total = 0.0f64;
    for position in positions {
        let count = position.features(&net.kings, &mut us, &mut them);
        let (us, them) = (&us[..count], &them[..count]);
        let raw = net.forward(us, them, &mut acc);
        let target = position.target(objective.lambda, objective.k);
        let (loss, d) = objective.loss(raw, target);
        total += f64::from(loss);
        if let Some(grad) = grad.as_deref_mut() {
            net.backward(us, them, &mut acc, d, grad);
        }
    }
    total
}

/// The mean loss of `positions`, over `threads` threads.
pub fn mean_loss(
    net: &Network,
    positions: &[Position],
    objective: &Objective,
    threads: usize,
) -> f64 {
    if positions.is_empty() {
        return 0.0;
    }
    let size = positions.len().div_ceil(threads.max(1));
    let sums: Vec<f64> = thread::scope(|scope| {
        let handles: Vec<_> = positions
            .chunks(size)
            .map(|chunk| scope.spawn(move || shard(net, chunk, objective, None)))
            .collect();
        handles.into_iter().map(join).collect()
    });
    sums.iter().sum::<f64>() / positions.len() as f64
}

/// The result of a scoped thread, passing its panic on.
fn join<T>(handle: thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Settings of a training run.
#[derive(Clone, Copy, Debug)]
pub struct Schedule {
    /// Passes over the data.
    pub epochs: u32,
    /// Positions per step.
    pub batch: usize,
    /// Step size of the first epoch, falling linearly to `lr_end` of it
    /// by the last.
    pub lr: f32,
    /// The last epoch's step size as a share of the first's.
    pub lr_end: f32,
    /// Threads per batch.
    pub threads: usize,
    /// Seed of the shuffles.
    pub seed: u64,
    /// Each epoch, mirror a random half of the mirrorable positions left
    /// to right ([`Position::set_mirrored`]).
    pub mirror: bool,
    /// Decoupled weight decay (AdamW): after each step every weight (not
    /// the biases) shrinks by the share `step size × weight_decay`.
    pub weight_decay: f32,
}

/// After each epoch: its number (from 1), the mean loss of its batches
/// (each measured before its step), the network and the optimisers;
/// `Break` stops the run there.
pub type EpochDone<'a> = dyn FnMut(u32, f64, &Network, &[Adam<f32>]) -> ControlFlow<()> + 'a;

/// After each batch: positions done in this epoch.
pub type BatchDone<'a> = dyn FnMut(u64) + 'a;

/// Where a run stands between epochs: the epochs finished and the Adam
/// optimiser of each part of the network (their steps go in lockstep; the
/// parts are separate vectors, in the order of [`Network::parts`]).
#[derive(Clone, Debug)]
pub struct RunState {
    /// Epochs already trained.
    pub epochs_done: u32,
    /// One optimiser per part of the network.
    pub optimisers: Vec<Adam<f32>>,
}

impl RunState {
    /// The state of a run on `net` before its first step.
    pub fn start(net: &Network) -> RunState {
        RunState {
            epochs_done: 0,
            optimisers: net
                .parts()
                .iter()
                .map(|part| Adam::new(part.len()))
                .collect(),
        }
    }
}

/// Trains `net` on `positions` (shuffled in place) from where `state`
/// stands to the last epoch, or until `epoch_done` breaks. The epochs
/// already done are not trained again, but their shuffles and mirroring
/// draws are drawn again, so that a resumed run sees each later epoch's
/// positions in the order an unbroken run would.
pub fn train(
    net: &mut Network,
    positions: &mut [Position],
    objective: &Objective,
    schedule: &Schedule,
    state: &mut RunState,
    batch_done: &mut BatchDone,
    epoch_done: &mut EpochDone,
) {
    let threads = schedule.threads.max(1);
    let mut grads: Vec<Network> = (0..threads)
        .map(|_| Network::zeros(net.hidden, net.kings, net.buckets, net.factoriser))
        .collect();
    let mut rng = Rng::new(schedule.seed ^ 0x5DEE_CE66_D1CE_5EED);
    for epoch in 0..schedule.epochs {
        let lr = fit::step_size_falling_to(schedule.lr, schedule.lr_end, epoch, schedule.epochs);
        fit::shuffle(positions, &mut rng);
        // A fresh half each epoch, drawn only for the positions that can
        // be mirrored, so the draws too follow from the seed alone.
        if schedule.mirror {
            for position in positions.iter_mut().filter(|p| p.is_mirrorable()) {
                position.set_mirrored(rng.below(2) == 1);
            }
        }
        if epoch < state.epochs_done {
            continue;
        }
        let mut loss_sum = 0.0;
        let mut done = 0u64;
        for batch in positions.chunks(schedule.batch.max(1)) {
            let size = batch.len().div_ceil(threads);
            let net_now: &Network = net;
            let losses: Vec<f64> = thread::scope(|scope| {
                let handles: Vec<_> = batch
                    .chunks(size)
                    .zip(grads.iter_mut())
                    .map(|(chunk, grad)| {
                        scope.spawn(move || {
                            grad.clear();
                            shard(net_now, chunk, objective, Some(grad))
                        })
                    })
                    .collect();
                handles.into_iter().map(join).collect()
            });
            let used = batch.chunks(size).count();
            let (first, rest) = grads.split_at_mut(1);
            for other in &rest[..used - 1] {
                first[0].add(other);
            }
            loss_sum += losses.iter().sum::<f64>();
            let inv = 1.0 / batch.len() as f32;
            let parts = net.parts_mut().into_iter().zip(first[0].parts());
            for ((w, g), optimiser) in parts.zip(state.optimisers.iter_mut()) {
                optimiser.step(lr, w, |i, _| Some(g[i] * inv));
            }
            if schedule.weight_decay > 0.0 {
                let keep = 1.0 - lr * schedule.weight_decay;
                for weights in [&mut net.feature_weights, &mut net.output_weights] {
                    weights.iter_mut().for_each(|w| *w *= keep);
                }
            }
            net.clip(WEIGHT_CLIP);
            done += batch.len() as u64;
            batch_done(done);
        }
        state.epochs_done = epoch + 1;
        let loss = loss_sum / positions.len().max(1) as f64;
        if epoch_done(epoch + 1, loss, net, &state.optimisers).is_break() {
            return;
        }
    }
}
