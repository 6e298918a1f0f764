//! The float network being trained, its forward pass and its gradient.
//!
//! ```text
//! acc_us[i]   = bias[i] + Σ weight[f][i] over the side to move's features f
//! acc_them[i] = the same over the other side's features
//! b           = output_bucket(pieces on the board, B)
//! raw         = Σ screlu(acc_us[i])·out[b][i] + Σ screlu(acc_them[i])·out[b][N + i] + out_bias[b]
//! cp          = raw · scale,   screlu(x) = clamp(x, 0, 1)²
//! ```
//!
//! Only the columns of a position's active features (at most 32 of 768
//! per side) are read in the forward pass and written in the backward
//! pass.
//!
//! With input buckets the network may train a *factoriser*: one more set
//! of 768 feature columns that every bucket shares. A feature then adds
//! its bucket's column and the shared column of the same piece on the same
//! square, so what the buckets have in common is learnt from every
//! position and each bucket's own columns learn only how it differs.
//! [`Network::merged`] folds the shared columns into every bucket's, which
//! gives the same outputs with the file format's shape.

use kiln::rng::Rng;
use kiln_format::net::{INPUTS, KingBuckets, output_bucket};

/// The float weights of a (768·K → N)×2 → 1 network; the same shape also
/// holds a gradient.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Neurons per perspective.
    pub hidden: usize,
    /// The input buckets (K = `kings.count()` sets of feature weights)
    /// and mirroring by each side's king square.
    pub kings: KingBuckets,
    /// Output buckets B.
    pub buckets: usize,
    /// Whether the network trains a factoriser: columns shared by every
    /// input bucket, after the buckets' own.
    pub factoriser: bool,
    /// `[K][768][N]`: feature f's N weights together; with the
    /// factoriser, one more `[768][N]` block, the shared columns.
    pub feature_weights: Vec<f32>,
    /// `[N]`.
    pub feature_biases: Vec<f32>,
    /// `[B][2N]`: per bucket, the side to move's N, then the other side's.
    pub output_weights: Vec<f32>,
    /// `[B]`.
    pub output_biases: Vec<f32>,
}

/// The squared clipped ReLU.
#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl Network {
    /// The number of weights and biases of a network of this shape (what
    /// [`zeros`](Self::zeros) allocates).
    pub fn parameter_count(
        hidden: usize,
        kings: KingBuckets,
        buckets: usize,
        factoriser: bool,
    ) -> usize {
        let columns = (kings.count() + usize::from(factoriser)) * INPUTS;
        columns * hidden + hidden + 2 * hidden * buckets + buckets
    }

    /// All zeros: an empty gradient.
    pub fn zeros(hidden: usize, kings: KingBuckets, buckets: usize, factoriser: bool) -> Network {
        let columns = (kings.count() + usize::from(factoriser)) * INPUTS;
        Network {
            hidden,
            kings,
            buckets,
            factoriser,
            feature_weights: vec![0.0; columns * hidden],
            feature_biases: vec![0.0; hidden],
            output_weights: vec![0.0; 2 * hidden * buckets],
            output_biases: vec![0.0; buckets],
        }
    }

    /// Starting weights drawn from `seed`: feature weights uniform in
    /// ±0.1 (an accumulator of some 30 features then starts well inside
    /// the activation's range), output weights uniform in ±1/√(2N), biases
    /// zero. With the factoriser only the shared columns are drawn and the
    /// buckets' own start at zero: the network starts as one without
    /// input buckets, and the buckets part only as the data asks.
    pub fn random(
        hidden: usize,
        kings: KingBuckets,
        buckets: usize,
        factoriser: bool,
        seed: u64,
    ) -> Network {
        let mut rng = Rng::new(seed);
        let mut uniform = |range: f64| ((rng.unit() * 2.0 - 1.0) * range) as f32;
        let mut net = Network::zeros(hidden, kings, buckets, factoriser);
        let drawn = if factoriser { net.shared_start() } else { 0 };
        net.feature_weights[drawn..]
            .iter_mut()
            .for_each(|w| *w = uniform(0.1));
        let out = 1.0 / (2.0 * hidden as f64).sqrt();
        net.output_weights
            .iter_mut()
            .for_each(|w| *w = uniform(out));
        net
    }

    /// Where the factoriser's shared columns start in `feature_weights`
    /// (its length without the factoriser).
    fn shared_start(&self) -> usize {
        self.kings.count() * INPUTS * self.hidden
    }

    /// The same network without the factoriser: its shared columns added
    /// to every bucket's own. The outputs are the same (to rounding);
    /// this is the network the file stores.
    pub fn merged(&self) -> Network {
        if !self.factoriser {
            return self.clone();
        }
        let (own, shared) = self.feature_weights.split_at(self.shared_start());
        let feature_weights = own
            .chunks(shared.len())
            .flat_map(|bucket| bucket.iter().zip(shared).map(|(w, s)| w + s))
            .collect();
        Network {
            factoriser: false,
            feature_weights,
            ..self.clone()
        }
    }

    /// Clamps every weight into ±`clip`: the output weights, and the
    /// feature weights as the file will store them, so that a bucket's own
    /// weight plus the shared one stays inside too.
    pub fn clip(&mut self, clip: f32) {
        self.output_weights
            .iter_mut()
            .for_each(|w| *w = w.clamp(-clip, clip));
        let start = self.shared_start();
        let (own, shared) = self.feature_weights.split_at_mut(start);
        if self.factoriser {
            shared.iter_mut().for_each(|s| *s = s.clamp(-clip, clip));
            for bucket in own.chunks_mut(shared.len()) {
                for (w, s) in bucket.iter_mut().zip(shared.iter()) {
                    *w = w.clamp(-clip - s, clip - s);
                }
            }
        } else {
            own.iter_mut().for_each(|w| *w = w.clamp(-clip, clip));
        }
    }

    /// Where the columns of the active feature `f` start: its own, and
    /// with the factoriser the shared column of the same piece on the same
    /// square.
    #[inline(always)]
    fn columns(&self, f: u16) -> impl Iterator<Item = usize> {
        let f = usize::from(f);
        let shared = self
            .factoriser
            .then(|| self.shared_start() + (f % INPUTS) * self.hidden);
        std::iter::once(f * self.hidden).chain(shared)
    }

    /// Every parameter, in a fixed order: feature weights, feature
    /// biases, output weights, output biases.
    pub fn parts_mut(&mut self) -> [&mut [f32]; 4] {
        [
            &mut self.feature_weights,
            &mut self.feature_biases,
            &mut self.output_weights,
            &mut self.output_biases,
        ]
    }

    /// Every parameter, read-only, in the order of [`Network::parts_mut`].
    pub fn parts(&self) -> [&[f32]; 4] {
        [
            &self.feature_weights,
            &self.feature_biases,
            &self.output_weights,
            &self.output_biases,
        ]
    }

    /// Sets every parameter to zero.
    pub fn clear(&mut self) {
        for part in self.parts_mut() {
            part.fill(0.0);
        }
    }

    /// Adds `other` (of the same shape) to this one.
    pub fn add(&mut self, other: &Network) {
        for (mine, theirs) in self.parts_mut().into_iter().zip(other.parts()) {
            for (a, b) in mine.iter_mut().zip(theirs) {
                *a += b;
            }
        }
    }

    /// Fills `acc` (2N: the side to move's N, then the other side's) with
    /// the accumulators of the active features `us` and `them`.
    fn accumulate(&self, us: &[u16], them: &[u16], acc: &mut [f32]) {
        let n = self.hidden;
        let (acc_us, acc_them) = acc.split_at_mut(n);
        for (half, features) in [(acc_us, us), (acc_them, them)] {
            half.copy_from_slice(&self.feature_biases);
            for &f in features {
                for start in self.columns(f) {
                    let column = &self.feature_weights[start..][..n];
                    for (a, w) in half.iter_mut().zip(column) {
                        *a += w;
                    }
                }
            }
        }
    }

    /// The output bucket of a position with active features `us` (one
    /// per man on the board).
    fn bucket(&self, us: &[u16]) -> usize {
        output_bucket(us.len(), self.buckets)
    }

    /// The network's output (before the centipawn scale) for the active
    /// features `us` and `them`; leaves the accumulators in `acc` (2N) for
    /// [`Network::backward`].
    pub fn forward(&self, us: &[u16], them: &[u16], acc: &mut [f32]) -> f32 {
        self.accumulate(us, them, acc);
        let bucket = self.bucket(us);
        let sum: f32 = acc
            .iter()
            .zip(&self.output_weights[bucket * 2 * self.hidden..])
            .map(|(&a, &w)| screlu(a) * w)
            .sum();
        sum + self.output_biases[bucket]
    }

    /// Adds to `grad` the gradient of a loss whose derivative by the
    /// output is `d`, at the position whose forward pass left `acc`
    /// (which this overwrites: it is used up).
    pub fn backward(&self, us: &[u16], them: &[u16], acc: &mut [f32], d: f32, grad: &mut Network) {
        let n = self.hidden;
        let bucket = self.bucket(us);
        grad.output_biases[bucket] += d;
        let outputs = bucket * 2 * n..(bucket + 1) * 2 * n;
        for (g, &a) in grad.output_weights[outputs.clone()]
            .iter_mut()
            .zip(acc.iter())
        {
            *g += d * screlu(a);
        }
        // d loss / d acc, in place of the accumulators: zero where the
        // activation is flat.
        for (a, &w) in acc.iter_mut().zip(&self.output_weights[outputs]) {
            *a = if *a > 0.0 && *a < 1.0 {
                d * w * 2.0 * *a
            } else {
                0.0
            };
        }
        for (delta, features) in [(&acc[..n], us), (&acc[n..], them)] {
            for (g, dl) in grad.feature_biases.iter_mut().zip(delta) {
                *g += dl;
            }
            for &f in features {
                for start in self.columns(f) {
                    let column = &mut grad.feature_weights[start..][..n];
                    for (g, dl) in column.iter_mut().zip(delta) {
                        *g += dl;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The squared error of `sigmoid(raw)` against `target`, and its
    /// derivative by `raw`.
    fn loss(raw: f32, target: f32) -> (f64, f32) {
        let (loss, d) = crate::fit::squared_error_gradient(1.0, raw, target);
        (f64::from(loss), d)
    }

    /// The backward pass against finite differences of the loss, on a
    /// small network with two positions, with one output bucket and with
    /// enough that the two positions use different ones.
    #[test]
    fn gradient_matches_finite_differences() {
        gradient_check(1);
        gradient_check(31);
    }

    /// The same with two input buckets and a factoriser: the shared
    /// columns' gradient is checked with the buckets'.
    #[test]
    fn factorised_gradient_matches_finite_differences() {
        gradient_check_under(8, two_buckets(), true);
    }

    /// A king map of two buckets: the king on the first rank, or not.
    fn two_buckets() -> KingBuckets {
        let mut halves = [1u8; 32];
        halves[..4].fill(0);
        KingBuckets::mirrored_halves(&halves).expect("a king map")
    }

    fn gradient_check(buckets: usize) {
        gradient_check_under(buckets, KingBuckets::NONE, false);
    }

    /// Fixed weights drawn for a test: the factoriser's buckets too (the
    /// training start leaves them at zero).
    fn test_network(
        hidden: usize,
        kings: KingBuckets,
        buckets: usize,
        factoriser: bool,
    ) -> Network {
        let mut net = Network::random(hidden, kings, buckets, factoriser, 7);
        let mut rng = Rng::new(8);
        net.feature_weights
            .iter_mut()
            .filter(|w| **w == 0.0)
            .for_each(|w| *w = ((rng.unit() * 2.0 - 1.0) * 0.05) as f32);
        net
    }

    /// Folding the shared columns into the buckets' leaves every output
    /// as it was, and clipping keeps the folded weights in range.
    #[test]
    fn the_merged_network_gives_the_factorised_ones_outputs() {
        let hidden = 16;
        let mut net = test_network(hidden, two_buckets(), 4, true);
        net.feature_biases.iter_mut().for_each(|b| *b = 0.3);
        let merged = net.merged();
        assert!(!merged.factoriser);
        assert_eq!(merged.feature_weights.len(), 2 * INPUTS * hidden);
        // Features of the second bucket (768..1536) and of the first.
        let positions: [(&[u16], &[u16]); 2] = [
            (&[768 + 4, 768 + 100, 768 + 383], &[388, 10, 700]),
            (&[60, 420], &[768 + 3, 768 + 444]),
        ];
        let mut acc = vec![0.0; 2 * hidden];
        for (us, them) in positions {
            let (a, b) = (
                net.forward(us, them, &mut acc),
                merged.forward(us, them, &mut acc),
            );
            assert!((a - b).abs() < 1e-5, "{a} against {b}");
        }
        let plain = Network::random(hidden, KingBuckets::NONE, 4, false, 7);
        assert_eq!(plain.merged(), plain);

        let mut wide = net.clone();
        wide.feature_weights.iter_mut().for_each(|w| *w *= 100.0);
        wide.clip(1.5);
        let folded = wide.merged();
        assert!(folded.feature_weights.iter().all(|w| w.abs() <= 1.5 + 1e-6));
        // Clipped to the bound, not below it.
        assert!(
            folded
                .feature_weights
                .iter()
                .any(|w| (w.abs() - 1.5).abs() < 1e-6)
        );
    }

    /// With the factoriser the network starts as one without input
    /// buckets: every bucket's own columns are zero.
    #[test]
    fn a_factorised_network_starts_with_its_buckets_alike() {
        let net = Network::random(16, two_buckets(), 1, true, 3);
        let own = 2 * INPUTS * 16;
        assert!(net.feature_weights[..own].iter().all(|&w| w == 0.0));
        assert!(net.feature_weights[own..].iter().all(|&w| w != 0.0));
        let merged = net.merged();
        assert_eq!(
            merged.feature_weights[..INPUTS * 16],
            merged.feature_weights[INPUTS * 16..]
        );
    }

    fn gradient_check_under(buckets: usize, kings: KingBuckets, factoriser: bool) {
        let hidden = 16;
        let mut net = test_network(hidden, kings, buckets, factoriser);
        // Biases that put most neurons inside (0, 1), where the gradient
        // is not zero.
        net.feature_biases
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = 0.3 + 0.02 * i as f32);
        net.output_biases.iter_mut().for_each(|b| *b = 0.1);
        // With two input buckets, the first position's side to move sees
        // its king in the second bucket (features 768..1536).
        let second = if kings.count() > 1 { 768 } else { 0 };
        let positions: [(&[u16], &[u16], f32); 2] = [
            (
                &[4 + second, 100 + second, 383 + second, 500 + second],
                &[388, 10, 700],
                0.8,
            ),
            (&[60, 420], &[3, 444, 767], 0.1),
        ];
        let total = |net: &Network| {
            let mut acc = vec![0.0; 2 * hidden];
            positions
                .iter()
                .map(|&(us, them, t)| loss(net.forward(us, them, &mut acc), t).0)
                .sum::<f64>()
        };
        let mut grad = Network::zeros(hidden, kings, buckets, factoriser);
        let mut acc = vec![0.0; 2 * hidden];
        for &(us, them, t) in &positions {
            let raw = net.forward(us, them, &mut acc);
            net.backward(us, them, &mut acc, loss(raw, t).1, &mut grad);
        }
        let eps = 1e-3f32;
        // Every bias and output weight, and every third weight of some
        // active and some inactive features.
        let mut indices: Vec<(usize, usize)> = Vec::new();
        for f in [4usize, 100, 388, 767, 5, 200] {
            indices.extend((0..hidden).step_by(3).map(|i| (0, f * hidden + i)));
        }
        if kings.count() > 1 {
            // The second bucket's columns, and the shared ones.
            for f in [768 + 4usize, 768 + 100, 768 + 5] {
                indices.extend((0..hidden).step_by(3).map(|i| (0, f * hidden + i)));
            }
        }
        if factoriser {
            let shared = kings.count() * INPUTS;
            for f in [4usize, 100, 388, 767, 5] {
                indices.extend(
                    (0..hidden)
                        .step_by(3)
                        .map(|i| (0, (shared + f) * hidden + i)),
                );
            }
        }
        indices.extend((0..hidden).map(|i| (1, i)));
        indices.extend((0..2 * hidden * buckets).map(|i| (2, i)));
        indices.extend((0..buckets).map(|b| (3, b)));
        let mut checked = 0;
        for (part, i) in indices {
            let mut plus = net.clone();
            plus.parts_mut()[part][i] += eps;
            let mut minus = net.clone();
            minus.parts_mut()[part][i] -= eps;
            let numeric = (total(&plus) - total(&minus)) / (2.0 * f64::from(eps));
            let analytic = f64::from(grad.parts()[part][i]);
            assert!(
                (numeric - analytic).abs() < 1e-4 + 0.02 * analytic.abs(),
                "part {part} index {i}: numeric {numeric} analytic {analytic}"
            );
            checked += usize::from(analytic.abs() > 1e-4);
        }
        assert!(checked > 20, "only {checked} non-zero gradients checked");
    }
}
