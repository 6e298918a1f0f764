//! The float network in integers, as the file stores it, and the integer
//! evaluation of `kiln_format::net`'s module doc, to check how far
//! rounding moves the network's verdicts.

use super::model::Network;
#[cfg(test)]
use kiln_format::net::KingBuckets;
use kiln_format::net::{NetHeader, NetWeights};

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
/// QA, output weights times QB, the output biases times QA·QB. A
/// factoriser's shared columns are folded into every bucket's first
/// ([`Network::merged`]).
pub fn quantise(net: &Network) -> NetWeights {
    let net = &net.merged();
    NetWeights {
        feature_weights: net.feature_weights.iter().map(|&w| to_i16(w, QA)).collect(),
        feature_biases: net.feature_biases.iter().map(|&w| to_i16(w, QA)).collect(),
        output_weights: net.output_weights.iter().map(|&w| to_i16(w, QB)).collect(),
        output_biases: net
            .output_biases
            .iter()
            .map(|&b| {
                (f64::from(b) * f64::from(QA * QB))
                    .round()
                    .clamp(f64::from(i32::MIN), f64::from(i32::MAX)) as i32
            })
            .collect(),
    }
}

// An independent reference on purpose: the engine's inference (`kiln::eval::nnue`) is tested against it.
/// The integer evaluation in centipawns (side to move) of the position
/// with active features `us` and `them`, exactly as in `kiln_format::net`'s
/// module doc: the bucket `b` from the number of men (`us.len()`),
/// `acc = bias + Σ weight`, `sum = Σ clamp(acc, 0, QA)²·out[b]` (i32,
/// wrapping), `eval = (sum / QA + out_bias[b]) · scale / (QA·QB)`.
pub fn evaluate(header: &NetHeader, weights: &NetWeights, us: &[u16], them: &[u16]) -> i32 {
    let n = header.hidden;
    let bucket = kiln_format::net::output_bucket(us.len(), header.buckets);
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
        let out = &weights.output_weights[bucket * 2 * n + half * n..][..n];
        for (&a, &w) in acc.iter().zip(out) {
            let c = a.clamp(0, header.qa);
            sum = sum.wrapping_add(c * c * i32::from(w));
        }
    }
    let eval = i64::from(sum / header.qa + weights.output_biases[bucket]) * i64::from(header.scale)
        / i64::from(header.qa * header.qb);
    eval as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// With float weights that are already whole multiples of 1/QA and
    /// 1/QB, the integer evaluation is the float network's but for the two
    /// divisions' truncation: the formula, not rounding, is what this tests.
    #[test]
    fn integer_evaluation_matches_the_float_network_on_exact_weights() {
        let hidden = 32;
        let buckets = 8;
        // Two input buckets: features 768..1536 are the second's.
        let mut halves = [1u8; 32];
        halves[..4].copy_from_slice(&[0; 4]);
        let kings = KingBuckets::mirrored_halves(&halves).expect("a king map");
        let mut net = Network::random(hidden, kings, buckets, false, 11);
        for w in net
            .feature_weights
            .iter_mut()
            .chain(&mut net.feature_biases)
        {
            *w = (*w * QA as f32).round() / QA as f32;
        }
        net.feature_biases.iter_mut().for_each(|b| *b += 0.2);
        for w in &mut net.output_weights {
            *w = (*w * 4.0 * QB as f32).round() / QB as f32;
        }
        for (b, bias) in net.output_biases.iter_mut().enumerate() {
            *bias = 0.1 - 0.05 * b as f32;
        }
        let weights = quantise(&net);
        let header = NetHeader {
            hidden,
            king_buckets: kings,
            buckets,
            qa: QA,
            qb: QB,
            scale: 400,
            description: String::new(),
        };
        let mut acc = vec![0.0; 2 * hidden];
        // Twenty-four men: a bucket other than the first.
        let many: Vec<u16> = (0..24).map(|i| i * 31 % 768).collect();
        let many_them: Vec<u16> = many.iter().map(|f| (f + 384) % 768).collect();
        let positions: [(&[u16], &[u16]); 5] = [
            (&[4, 100, 383, 500], &[388, 10, 700]),
            (&[60, 420, 3], &[3, 444, 767, 5, 6]),
            (&[800, 1535, 3], &[1000, 444, 1200]),
            (&[], &[]),
            (&many, &many_them),
        ];
        assert_eq!(kiln_format::net::output_bucket(many.len(), buckets), 5);
        for (us, them) in positions {
            let float = net.forward(us, them, &mut acc) * 400.0;
            let integer = evaluate(&header, &weights, us, them);
            assert!(
                (float - integer as f32).abs() <= 1.0,
                "float {float} integer {integer}"
            );
        }
    }

    /// The engine's inference and this module's integer evaluation agree
    /// exactly on the network built into the engine, read back from its
    /// file: the trainer's quantised check measures what the engine plays.
    #[test]
    fn the_engine_evaluates_its_built_in_network_as_the_trainer_does() {
        use super::super::data::{MAX_ACTIVE, Position};
        use kiln::eval::nnue::{self, network};
        use kiln_board::Board;
        // The engine's build script reads KILN_NET relative to the
        // workspace root, two levels above this crate; empty means unset.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let net = option_env!("KILN_NET").filter(|name| !name.is_empty());
        let path = root.join(net.unwrap_or("src/eval/net.nnue"));
        let bytes = std::fs::read(&path).expect("the built-in network's file");
        let (header, weights, fingerprint) = kiln_format::net::read(&bytes).expect("a network");
        assert_eq!(fingerprint, network::FINGERPRINT, "{}", path.display());
        assert_eq!(header.king_buckets, network::KING_BUCKETS);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R w KQ - 0 8",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R b KQ - 0 8",
            "8/2Q5/4pbk1/7p/p5PP/2p1N3/qrR2P1K/8 b - - 0 39",
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "2r3k1/5ppp/8/8/8/8/5PPP/1R4K1 b - - 0 30",
        ] {
            let board = Board::from_fen(fen).expect("test FEN");
            // The trainer's own path from a position to its features.
            let position = Position::new(&board, 0.5, None);
            let (mut us, mut them) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
            let count = position.features(&header.king_buckets, &mut us, &mut them);
            let trainer = evaluate(&header, &weights, &us[..count], &them[..count]);
            assert_eq!(nnue::evaluate_fresh(&board), trainer, "{fen}");
        }
    }
}
