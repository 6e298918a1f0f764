//! The float network in integers, as the file stores it, and the integer
//! evaluation of `kiln_params::net`'s module doc, to check how far
//! rounding moves the network's verdicts.

use super::model::Network;
use kiln_params::net::{NetHeader, NetWeights};

/// Feature-transformer scale: an activation of 1 is QA.
pub const QA: i32 = 255;
/// Output-layer scale: an output weight of 1 is QB.
pub const QB: i32 = 64;

/// `x · scale` rounded to the nearest i16 (saturating).
fn to_i16(x: f32, scale: i32) -> i16 {
    (x * scale as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

/// The network's weights in integers: feature weights and biases times
/// QA, output weights times QB, the output bias times QA·QB.
pub fn quantise(net: &Network) -> NetWeights {
    NetWeights {
        feature_weights: net.feature_weights.iter().map(|&w| to_i16(w, QA)).collect(),
        feature_biases: net.feature_biases.iter().map(|&w| to_i16(w, QA)).collect(),
        output_weights: net.output_weights.iter().map(|&w| to_i16(w, QB)).collect(),
        output_bias: (f64::from(net.output_bias) * f64::from(QA * QB))
            .round()
            .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32,
    }
}

/// The integer evaluation in centipawns (side to move) of the position
/// with active features `us` and `them`, exactly as in `kiln_params::net`'s
/// module doc: `acc = bias + Σ weight`, `sum = Σ clamp(acc, 0, QA)²·out`
/// (i32, wrapping), `eval = (sum / QA + out_bias) · scale / (QA·QB)`.
pub fn evaluate(header: &NetHeader, weights: &NetWeights, us: &[u16], them: &[u16]) -> i32 {
    let n = header.hidden;
    let mut sum = 0i32;
    for (half, features) in [(0, us), (1, them)] {
        let mut acc: Vec<i32> = weights
            .feature_biases
            .iter()
            .map(|&b| i32::from(b))
            .collect();
        for &f in features {
            let column = &weights.feature_weights[usize::from(f) * n..][..n];
            for (a, &w) in acc.iter_mut().zip(column) {
                *a += i32::from(w);
            }
        }
        let out = &weights.output_weights[half * n..][..n];
        for (&a, &w) in acc.iter().zip(out) {
            let c = a.clamp(0, header.qa);
            sum = sum.wrapping_add(c * c * i32::from(w));
        }
    }
    let eval = i64::from(sum / header.qa + weights.output_bias) * i64::from(header.scale)
        / i64::from(header.qa * header.qb);
    eval as i32
}
