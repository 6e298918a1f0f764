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
    /// `[K][768][N]`: feature f's N weights together.
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
    /// All zeros: an empty gradient.
    pub fn zeros(hidden: usize, kings: KingBuckets, buckets: usize) -> Network {
        Network {
            hidden,
            kings,
            buckets,
            feature_weights: vec![0.0; kings.count() * INPUTS * hidden],
            feature_biases: vec![0.0; hidden],
            output_weights: vec![0.0; 2 * hidden * buckets],
            output_biases: vec![0.0; buckets],
        }
    }

    /// Starting weights drawn from `seed`: feature weights uniform in
    /// ±0.1 (an accumulator of some 30 features then starts well inside
    /// the activation's range), output weights uniform in ±1/√(2N), biases
    /// zero.
    pub fn random(hidden: usize, kings: KingBuckets, buckets: usize, seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let mut uniform = |range: f64| ((rng.unit() * 2.0 - 1.0) * range) as f32;
        let mut net = Network::zeros(hidden, kings, buckets);
        net.feature_weights
            .iter_mut()
            .for_each(|w| *w = uniform(0.1));
        let out = 1.0 / (2.0 * hidden as f64).sqrt();
        net.output_weights
            .iter_mut()
            .for_each(|w| *w = uniform(out));
        net
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
                let column = &self.feature_weights[usize::from(f) * n..][..n];
                for (a, w) in half.iter_mut().zip(column) {
                    *a += w;
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
                let column = &mut grad.feature_weights[usize::from(f) * n..][..n];
                for (g, dl) in column.iter_mut().zip(delta) {
                    *g += dl;
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

    fn gradient_check(buckets: usize) {
        let hidden = 16;
        let mut net = Network::random(hidden, KingBuckets::NONE, buckets, 7);
        // Biases that put most neurons inside (0, 1), where the gradient
        // is not zero.
        net.feature_biases
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = 0.3 + 0.02 * i as f32);
        net.output_biases.iter_mut().for_each(|b| *b = 0.1);
        let positions: [(&[u16], &[u16], f32); 2] = [
            (&[4, 100, 383, 500], &[388, 10, 700], 0.8),
            (&[60, 420], &[3, 444, 767], 0.1),
        ];
        let total = |net: &Network| {
            let mut acc = vec![0.0; 2 * hidden];
            positions
                .iter()
                .map(|&(us, them, t)| loss(net.forward(us, them, &mut acc), t).0)
                .sum::<f64>()
        };
        let mut grad = Network::zeros(hidden, KingBuckets::NONE, buckets);
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
