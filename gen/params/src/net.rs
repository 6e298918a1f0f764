//! Kiln's network file format (`.nnue`): a (768 → N)×2 → 1 network with
//! integer weights, shared by the engine's build script (which checks and
//! embeds the file), the trainer (which writes it) and anything that loads
//! one at run time.
//!
//! ```text
//! header   0..8    magic "KILNNNUE"
//!          8..10   format version, u16 little-endian (1)
//!         10..12   activation, u16: 1 = squared clipped ReLU, clamp(x, 0, QA)²
//!         12..16   inputs, u32 (768)
//!         16..20   hidden size N, u32 (a multiple of 16, at most 4096)
//!         20..24   QA, u32: feature-transformer scale (255)
//!         24..28   QB, u32: output-layer scale (64)
//!         28..32   output scale, u32: centipawns per unit of the network's output
//!         32..64   description: ASCII, zero-padded (the data it was trained on)
//! body            feature weights, i16 [768][N]: feature f's N weights together
//!                 feature biases, i16 [N]
//!                 output weights, i16 [2N]: the first N read the side to
//!                 move's accumulator, the next N the other side's
//!                 output bias, i32
//! trailer         checksum, u64: 64-bit FNV-1a of every byte before it
//! ```
//!
//! All numbers are little-endian. The checksum is also the network's
//! fingerprint, which the engine prints beside its tables' fingerprint.
//!
//! The evaluation of a position, in integers (the engine's and the
//! trainer's quantised check agree on it exactly):
//!
//! ```text
//! acc[p][i] = bias[i] + Σ weight[f][i] over the active features f of perspective p
//! sum       = Σ act(acc[us][i])·out[i] + Σ act(acc[them][i])·out[N + i]   (i32, wrapping)
//! eval      = (sum / QA + out_bias) · scale / (QA · QB)                   (centipawns, side to move)
//! ```
//!
//! The last line is computed in `i64` (`sum / QA` times a scale of 400 can
//! pass `i32`), and both divisions truncate toward zero.
//!
//! How a piece on a square becomes a feature index is the engine's
//! (`kiln::eval::nnue::features`), not this crate's: the trainer is part of
//! the engine and uses the same function.

use std::fmt;

/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"KILNNNUE";
/// The format version this module reads and writes.
pub const VERSION: u16 = 1;
/// The activation code of the squared clipped ReLU.
pub const ACTIVATION_SCRELU: u16 = 1;
/// Input features: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 64;
/// Bytes of the description field.
pub const DESCRIPTION_BYTES: usize = 32;
/// The largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 4096;

/// What a network file's header says, checked against its size and
/// checksum by [`parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetHeader {
    /// Hidden size N: neurons per perspective.
    pub hidden: usize,
    /// Feature-transformer quantisation scale.
    pub qa: i32,
    /// Output-layer quantisation scale.
    pub qb: i32,
    /// Centipawns per unit of the network's output.
    pub scale: i32,
    /// What the network was trained on (ASCII, at most 32 bytes).
    pub description: String,
}

impl NetHeader {
    /// The size in bytes of a file with this header.
    pub fn file_size(&self) -> usize {
        file_size(self.hidden)
    }
}

/// The size in bytes of a network file with `hidden` neurons per
/// perspective.
pub const fn file_size(hidden: usize) -> usize {
    HEADER_BYTES + 2 * INPUTS * hidden + 2 * hidden + 2 * 2 * hidden + 4 + 8
}

/// Byte offsets of the body's parts in a file with `hidden` neurons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Start of the feature weights.
    pub feature_weights: usize,
    /// Start of the feature biases.
    pub feature_biases: usize,
    /// Start of the output weights.
    pub output_weights: usize,
    /// Start of the output bias.
    pub output_bias: usize,
    /// Start of the checksum.
    pub checksum: usize,
}

/// Where each part of a file with `hidden` neurons starts.
pub const fn layout(hidden: usize) -> Layout {
    let feature_weights = HEADER_BYTES;
    let feature_biases = feature_weights + 2 * INPUTS * hidden;
    let output_weights = feature_biases + 2 * hidden;
    let output_bias = output_weights + 2 * 2 * hidden;
    Layout {
        feature_weights,
        feature_biases,
        output_weights,
        output_bias,
        checksum: output_bias + 4,
    }
}

/// 64-bit FNV-1a of `bytes`: the checksum and fingerprint of a network.
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < bytes.len() {
        hash ^= bytes[i] as u64;
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        i += 1;
    }
    hash
}

/// Why bytes are not a network file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// Shorter than a header.
    TooShort(usize),
    /// The first eight bytes are not [`MAGIC`].
    BadMagic,
    /// A version this module does not read.
    Version(u16),
    /// An activation this module does not know.
    Activation(u16),
    /// An input count other than [`INPUTS`].
    Inputs(u32),
    /// A hidden size that is zero, not a multiple of 16 or above [`MAX_HIDDEN`].
    Hidden(u32),
    /// A scale that is zero or too large to compute with.
    Scale(&'static str, u32),
    /// The description is not ASCII.
    Description,
    /// The size does not match the header: `(expected, found)`.
    Size(usize, usize),
    /// The stored checksum does not match the bytes: `(stored, computed)`.
    Checksum(u64, u64),
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::TooShort(n) => {
                write!(f, "{n} bytes: shorter than a {HEADER_BYTES}-byte header")
            }
            NetError::BadMagic => write!(f, "not a Kiln network (no \"KILNNNUE\" magic)"),
            NetError::Version(v) => write!(f, "format version {v}; this build reads {VERSION}"),
            NetError::Activation(a) => write!(f, "unknown activation {a}"),
            NetError::Inputs(n) => write!(f, "{n} inputs; the format has {INPUTS}"),
            NetError::Hidden(n) => {
                write!(
                    f,
                    "hidden size {n}: must be a multiple of 16 from 16 to {MAX_HIDDEN}"
                )
            }
            NetError::Scale(name, v) => write!(f, "{name} {v} out of range"),
            NetError::Description => write!(f, "the description is not ASCII"),
            NetError::Size(expected, found) => {
                write!(f, "{found} bytes; the header asks for {expected}")
            }
            NetError::Checksum(stored, computed) => write!(
                f,
                "checksum {stored:016x} stored, {computed:016x} computed: the file is damaged"
            ),
        }
    }
}

impl std::error::Error for NetError {}

fn u16_at(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Checks a whole network file (header, size, checksum) and returns its
/// header and fingerprint.
pub fn parse(bytes: &[u8]) -> Result<(NetHeader, u64), NetError> {
    if bytes.len() < HEADER_BYTES {
        return Err(NetError::TooShort(bytes.len()));
    }
    if bytes[..8] != MAGIC {
        return Err(NetError::BadMagic);
    }
    let version = u16_at(bytes, 8);
    if version != VERSION {
        return Err(NetError::Version(version));
    }
    let activation = u16_at(bytes, 10);
    if activation != ACTIVATION_SCRELU {
        return Err(NetError::Activation(activation));
    }
    let inputs = u32_at(bytes, 12);
    if inputs as usize != INPUTS {
        return Err(NetError::Inputs(inputs));
    }
    let hidden = u32_at(bytes, 16);
    if hidden == 0 || !hidden.is_multiple_of(16) || hidden as usize > MAX_HIDDEN {
        return Err(NetError::Hidden(hidden));
    }
    let scale_in = |name: &'static str, at: usize, max: u32| {
        let v = u32_at(bytes, at);
        if v == 0 || v > max {
            Err(NetError::Scale(name, v))
        } else {
            Ok(v as i32)
        }
    };
    // QA ≤ 255 keeps act(x)·weight inside an i16 product (the SIMD path
    // multiplies clamped values by weights in 16 bits).
    let qa = scale_in("QA", 20, 255)?;
    let qb = scale_in("QB", 24, 1024)?;
    let scale = scale_in("output scale", 28, 10_000)?;
    let raw = &bytes[32..HEADER_BYTES];
    let end = raw
        .iter()
        .position(|&b| b == 0)
        .unwrap_or(DESCRIPTION_BYTES);
    if !raw[..end].is_ascii() || raw[end..].iter().any(|&b| b != 0) {
        return Err(NetError::Description);
    }
    let description = String::from_utf8_lossy(&raw[..end]).into_owned();
    let header = NetHeader {
        hidden: hidden as usize,
        qa,
        qb,
        scale,
        description,
    };
    let expected = header.file_size();
    if bytes.len() != expected {
        return Err(NetError::Size(expected, bytes.len()));
    }
    let at = layout(header.hidden).checksum;
    let stored = u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
    let computed = fnv1a64(&bytes[..at]);
    if stored != computed {
        return Err(NetError::Checksum(stored, computed));
    }
    Ok((header, computed))
}

/// A network's integer weights, as the trainer produces them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetWeights {
    /// `[768][N]`, feature-major.
    pub feature_weights: Vec<i16>,
    /// `[N]`.
    pub feature_biases: Vec<i16>,
    /// `[2N]`: side to move's half, then the other side's.
    pub output_weights: Vec<i16>,
    /// The output bias.
    pub output_bias: i32,
}

/// Checks a whole network file like [`parse`] and returns its weights
/// too.
pub fn read(bytes: &[u8]) -> Result<(NetHeader, NetWeights, u64), NetError> {
    let (header, fingerprint) = parse(bytes)?;
    let at = layout(header.hidden);
    let i16s = |from: usize, to: usize| -> Vec<i16> {
        bytes[from..to]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect()
    };
    let weights = NetWeights {
        feature_weights: i16s(at.feature_weights, at.feature_biases),
        feature_biases: i16s(at.feature_biases, at.output_weights),
        output_weights: i16s(at.output_weights, at.output_bias),
        output_bias: i32::from_le_bytes(
            bytes[at.output_bias..at.checksum]
                .try_into()
                .expect("4 bytes"),
        ),
    };
    Ok((header, weights, fingerprint))
}

/// Why weights cannot be written as a network file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WriteError(pub String);

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WriteError {}

/// The bytes of a network file holding `weights` under `header` (whose
/// hidden size must match the weights), checksum included.
pub fn write(header: &NetHeader, weights: &NetWeights) -> Result<Vec<u8>, WriteError> {
    let n = header.hidden;
    if n == 0 || !n.is_multiple_of(16) || n > MAX_HIDDEN {
        return Err(WriteError(format!(
            "hidden size {n}: must be a multiple of 16 up to {MAX_HIDDEN}"
        )));
    }
    let sizes = [
        ("feature weights", weights.feature_weights.len(), INPUTS * n),
        ("feature biases", weights.feature_biases.len(), n),
        ("output weights", weights.output_weights.len(), 2 * n),
    ];
    for (name, found, expected) in sizes {
        if found != expected {
            return Err(WriteError(format!(
                "{found} {name}; hidden size {n} needs {expected}"
            )));
        }
    }
    if !header.description.is_ascii() || header.description.len() > DESCRIPTION_BYTES {
        return Err(WriteError(format!(
            "description {:?}: at most {DESCRIPTION_BYTES} ASCII bytes",
            header.description
        )));
    }
    let mut bytes = Vec::with_capacity(file_size(n));
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&ACTIVATION_SCRELU.to_le_bytes());
    for value in [
        INPUTS as u32,
        n as u32,
        header.qa as u32,
        header.qb as u32,
        header.scale as u32,
    ] {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    let mut description = [0u8; DESCRIPTION_BYTES];
    description[..header.description.len()].copy_from_slice(header.description.as_bytes());
    bytes.extend_from_slice(&description);
    for part in [
        &weights.feature_weights,
        &weights.feature_biases,
        &weights.output_weights,
    ] {
        for w in part.iter() {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    bytes.extend_from_slice(&weights.output_bias.to_le_bytes());
    let checksum = fnv1a64(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    debug_assert_eq!(bytes.len(), file_size(n));
    parse(&bytes).map_err(|e| WriteError(format!("wrote an unreadable file: {e}")))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> (NetHeader, NetWeights) {
        let n = 16;
        let header = NetHeader {
            hidden: n,
            qa: 255,
            qb: 64,
            scale: 400,
            description: "test".into(),
        };
        let weights = NetWeights {
            feature_weights: (0..INPUTS * n).map(|i| (i % 251) as i16 - 125).collect(),
            feature_biases: (0..n as i16).collect(),
            output_weights: (0..2 * n as i16).map(|i| -i).collect(),
            output_bias: -77,
        };
        (header, weights)
    }

    #[test]
    fn a_written_file_parses_back_with_its_header_and_layout() {
        let (header, weights) = small();
        let bytes = write(&header, &weights).expect("valid weights");
        let (read_header, fingerprint) = parse(&bytes).expect("written file");
        assert_eq!(read_header, header);
        assert_eq!(read(&bytes), Ok((header, weights, fingerprint)));
        assert_eq!(fingerprint, fnv1a64(&bytes[..bytes.len() - 8]));
        let at = layout(16);
        assert_eq!(
            i16::from_le_bytes([bytes[at.feature_biases + 2], bytes[at.feature_biases + 3]]),
            1
        );
        assert_eq!(
            i32::from_le_bytes(bytes[at.output_bias..at.checksum].try_into().unwrap()),
            -77
        );
    }

    #[test]
    fn damage_and_wrong_sizes_are_reported() {
        let (header, weights) = small();
        let bytes = write(&header, &weights).expect("valid weights");
        let mut flipped = bytes.clone();
        flipped[100] ^= 1;
        assert!(matches!(parse(&flipped), Err(NetError::Checksum(..))));
        assert!(matches!(
            parse(&bytes[..bytes.len() - 1]),
            Err(NetError::Size(..))
        ));
        assert!(matches!(parse(&bytes[..10]), Err(NetError::TooShort(10))));
        let mut magic = bytes.clone();
        magic[0] = b'X';
        assert_eq!(parse(&magic), Err(NetError::BadMagic));
        let mut short = weights.clone();
        short.output_weights.pop();
        assert!(write(&header, &short).is_err());
    }
}
