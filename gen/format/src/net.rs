//! Kiln's network file format (`.nnue`): a (768·K → N)×2 → 1 network with
//! integer weights, K input buckets (one set of feature weights per group
//! of squares of the perspective's own king, optionally seen with the
//! files mirrored) and B output buckets (one set of output weights per
//! band of piece count), shared by the engine's build script (which checks
//! and embeds the file), the trainer (which writes it) and anything that
//! loads one at run time.
//!
//! ```text
//! header   0..8    magic "KILNNNUE"
//!          8..10   format version, u16 little-endian (3 or 2; version 1 is read too)
//!         10       activation, u8: 1 = squared clipped ReLU, clamp(x, 0, QA)²
//!         11       output buckets B, u8 (1 to 31; version 1: always 0, read as 1)
//!         12..16   inputs, u32 (768)
//!         16..20   hidden size N, u32 (a multiple of 16, at most 4096)
//!         20..24   QA, u32: feature-transformer scale (255)
//!         24..28   QB, u32: output-layer scale (64)
//!         28..32   output scale, u32: centipawns per unit of the network's output
//!         32..64   description: ASCII, zero-padded (the data it was trained on)
//! king map 64..128 version 3 only: u8 [64], one byte per square of the
//!                  perspective's own king (a1 = 0 … h8 = 63, as that side
//!                  sees the board): bits 0..6 its input bucket, bit 7 set
//!                  when that side sees the files mirrored (a↔h)
//! body            feature weights, i16 [K][768][N]: feature f's N weights together
//!                 feature biases, i16 [N]
//!                 output weights, i16 [B][2N]: per bucket, the first N read
//!                 the side to move's accumulator, the next N the other side's
//!                 output biases, i32 [B]
//! trailer         checksum, u64: 64-bit FNV-1a of every byte before it
//! ```
//!
//! All numbers are little-endian. The checksum is also the network's
//! fingerprint, which the engine prints beside its tables' fingerprint.
//! Version 3 is the version with a king map; a network without input
//! buckets or mirroring (K = 1, every map byte zero) is written as version
//! 2, byte for byte as before the map existed. Versions 1 and 2 read as
//! that trivial map.
//!
//! The evaluation of a position, in integers (the engine's and the
//! trainer's quantised check agree on it exactly):
//!
//! ```text
//! acc[p][i] = bias[i] + Σ weight[f][i] over the active features f of perspective p,
//!             f = 768 · bucket(p's king) + (p's feature of the piece, squares
//!             mirrored a↔h when p's king's map byte says so)
//! b         = (pieces on the board − 2) · B / 31                         (the output bucket)
//! sum       = Σ act(acc[us][i])·out[b][i] + Σ act(acc[them][i])·out[b][N + i]   (i32, wrapping)
//! eval      = (sum / QA + out_bias[b]) · scale / (QA · QB)                (centipawns, side to move)
//! ```
//!
//! The last line is computed in `i64` (`sum / QA` times a scale of 400 can
//! pass `i32`), and both divisions truncate toward zero.
//!
//! How a piece on a square becomes a feature index is the engine's
//! (`kiln::eval::nnue::features`), not this crate's: the workshop's trainer
//! calls the same function through the engine library.

use std::fmt;

/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"KILNNNUE";
/// The newest format version, which this module writes for networks with
/// input buckets or mirroring ([`KingBuckets`]); networks without are
/// written as [`VERSION_WITHOUT_KING_MAP`]. It reads both and 1, the
/// version before output buckets.
pub const VERSION: u16 = 3;
/// The version of a network without a king map.
pub const VERSION_WITHOUT_KING_MAP: u16 = 2;
/// The activation code of the squared clipped ReLU.
pub const ACTIVATION_SCRELU: u8 = 1;
/// Input features of one input bucket: 2 colours × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;
/// The most input buckets a king map may name.
pub const MAX_INPUT_BUCKETS: usize = 64;
/// Bytes of the king map (version 3).
pub const KING_MAP_BYTES: usize = 64;
/// The bit of a king-map byte that says the perspective sees the files
/// mirrored.
pub const KING_MAP_MIRROR: u8 = 0x80;
/// Bytes of the header.
pub const HEADER_BYTES: usize = 64;
/// Bytes of the description field.
pub const DESCRIPTION_BYTES: usize = 32;
/// The largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 4096;
/// The most output buckets a file may declare: a board holds 2 to 32 men,
/// 31 counts, so more would leave buckets that no position reaches.
pub const MAX_BUCKETS: usize = 31;

/// The output bucket of a position with `pieces` men on the board (kings
/// included, 2 to 32) in a network of `buckets` buckets: the range of piece
/// counts cut into `buckets` bands of near-equal width, from 0 for the
/// barest endgames to `buckets − 1` for the start position.
pub const fn output_bucket(pieces: usize, buckets: usize) -> usize {
    let pieces = if pieces < 2 {
        2
    } else if pieces > 32 {
        32
    } else {
        pieces
    };
    (pieces - 2) * buckets / 31
}

/// Which input bucket each square of a perspective's own king selects,
/// and whether that perspective then sees the files mirrored: the
/// version-3 king map. Square indices are as the perspective sees the
/// board (a1 = 0 … h8 = 63; Black's view is the board flipped top to
/// bottom), so one map serves both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KingBuckets {
    map: [u8; KING_MAP_BYTES],
}

impl KingBuckets {
    /// One bucket, no mirroring: the network of format versions 1 and 2.
    pub const NONE: KingBuckets = KingBuckets {
        map: [0; KING_MAP_BYTES],
    };

    /// The map of `bytes` (one per king square: the bucket, plus
    /// [`KING_MAP_MIRROR`] where the files are seen mirrored), if it is
    /// one: buckets below [`MAX_INPUT_BUCKETS`], every bucket from 0 to
    /// the largest named by some square. A `const fn`, so that a map
    /// built into a program is checked when it compiles.
    pub const fn from_bytes(bytes: [u8; KING_MAP_BYTES]) -> Result<KingBuckets, KingMapFault> {
        let mut used = [false; MAX_INPUT_BUCKETS];
        let mut square = 0;
        while square < KING_MAP_BYTES {
            let bucket = (bytes[square] & !KING_MAP_MIRROR) as usize;
            if bucket >= MAX_INPUT_BUCKETS {
                return Err(KingMapFault::TooLarge { square, bucket });
            }
            used[bucket] = true;
            square += 1;
        }
        let mut count = 0;
        while count < MAX_INPUT_BUCKETS && used[count] {
            count += 1;
        }
        let mut bucket = count;
        while bucket < MAX_INPUT_BUCKETS {
            if used[bucket] {
                return Err(KingMapFault::Gap {
                    used: bucket,
                    missing: count,
                });
            }
            bucket += 1;
        }
        Ok(KingBuckets { map: bytes })
    }

    /// The map with `bucket_of_square[s]` for each square `s` of files a
    /// to d (four a rank, rank 1 first: 32 entries), mirrored onto files
    /// e to h, where the perspective sees the files mirrored so that its
    /// king is always on files a to d: the usual layout.
    pub fn mirrored_halves(bucket_of_square: &[u8; 32]) -> Result<KingBuckets, KingMapFault> {
        let mut bytes = [0u8; KING_MAP_BYTES];
        for (square, byte) in bytes.iter_mut().enumerate() {
            let (rank, file) = (square / 8, square % 8);
            *byte = if file < 4 {
                bucket_of_square[rank * 4 + file]
            } else {
                bucket_of_square[rank * 4 + 7 - file] | KING_MAP_MIRROR
            };
        }
        KingBuckets::from_bytes(bytes)
    }

    /// The map's 64 bytes, as the file stores them.
    pub const fn bytes(&self) -> [u8; KING_MAP_BYTES] {
        self.map
    }

    /// How many input buckets the map names (K).
    pub fn count(&self) -> usize {
        self.map
            .iter()
            .map(|&b| usize::from(b & !KING_MAP_MIRROR) + 1)
            .max()
            .unwrap_or(1)
    }

    /// Whether this is [`KingBuckets::NONE`]: one bucket, never mirrored.
    pub fn is_none(&self) -> bool {
        *self == KingBuckets::NONE
    }

    /// The input bucket of a king on `square` (as its side sees the board).
    pub const fn bucket(&self, square: usize) -> usize {
        (self.map[square] & !KING_MAP_MIRROR) as usize
    }

    /// Whether a side whose king stands on `square` (as it sees the board)
    /// sees the files mirrored.
    pub const fn mirrored(&self, square: usize) -> bool {
        self.map[square] & KING_MAP_MIRROR != 0
    }
}

/// Why 64 bytes are not a king map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingMapFault {
    /// A square names a bucket of [`MAX_INPUT_BUCKETS`] or more.
    TooLarge {
        /// The king square (as its side sees the board).
        square: usize,
        /// The bucket it names.
        bucket: usize,
    },
    /// A bucket is named but a smaller one is not.
    Gap {
        /// A bucket some square names.
        used: usize,
        /// A smaller bucket no square names.
        missing: usize,
    },
    /// A version-3 file whose map is one bucket without mirroring: such a
    /// network is written as version 2.
    Trivial,
}

impl fmt::Display for KingMapFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KingMapFault::TooLarge { square, bucket } => write!(
                f,
                "square {square} names input bucket {bucket}; at most {MAX_INPUT_BUCKETS} buckets"
            ),
            KingMapFault::Gap { used, missing } => {
                write!(
                    f,
                    "input bucket {used} is named but bucket {missing} is not"
                )
            }
            KingMapFault::Trivial => {
                write!(
                    f,
                    "one bucket and no mirroring in a version-3 file (that is version 2)"
                )
            }
        }
    }
}

impl Default for KingBuckets {
    fn default() -> KingBuckets {
        KingBuckets::NONE
    }
}

/// What a network file's header says, checked against its size and
/// checksum by [`parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetHeader {
    /// Hidden size N: neurons per perspective.
    pub hidden: usize,
    /// Input buckets by the perspective's king square, and mirroring
    /// ([`KingBuckets::NONE`] for versions 1 and 2).
    pub king_buckets: KingBuckets,
    /// Output buckets B.
    pub buckets: usize,
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
        self.layout().checksum + 8
    }

    /// The format version a file with this header has: [`VERSION`] with
    /// a king map, [`VERSION_WITHOUT_KING_MAP`] without.
    pub fn version(&self) -> u16 {
        if self.king_buckets.is_none() {
            VERSION_WITHOUT_KING_MAP
        } else {
            VERSION
        }
    }

    /// Where each part of a file with this header starts.
    pub fn layout(&self) -> Layout {
        let map = if self.king_buckets.is_none() {
            0
        } else {
            KING_MAP_BYTES
        };
        layout(map, self.king_buckets.count(), self.hidden, self.buckets)
    }

    /// Feature weights in the file: K · 768 · N.
    pub fn feature_weight_count(&self) -> usize {
        self.king_buckets.count() * INPUTS * self.hidden
    }
}

/// Byte offsets of the parts of a network file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Start of the king map (version 3; equal to `feature_weights` when
    /// the file has none).
    pub king_map: usize,
    /// Start of the feature weights.
    pub feature_weights: usize,
    /// Start of the feature biases.
    pub feature_biases: usize,
    /// Start of the output weights.
    pub output_weights: usize,
    /// Start of the output biases.
    pub output_biases: usize,
    /// Start of the checksum.
    pub checksum: usize,
}

/// Where each part of a file starts, with `map_bytes` of king map, K =
/// `input_buckets`, N = `hidden` and B = `buckets`.
const fn layout(map_bytes: usize, input_buckets: usize, hidden: usize, buckets: usize) -> Layout {
    let king_map = HEADER_BYTES;
    let feature_weights = king_map + map_bytes;
    let feature_biases = feature_weights + 2 * input_buckets * INPUTS * hidden;
    let output_weights = feature_biases + 2 * hidden;
    let output_biases = output_weights + 2 * 2 * hidden * buckets;
    Layout {
        king_map,
        feature_weights,
        feature_biases,
        output_weights,
        output_biases,
        checksum: output_biases + 4 * buckets,
    }
}

/// 64-bit FNV-1a of `bytes`: the checksum and fingerprint of a network.
pub const fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_continue(FNV1A64_START, bytes)
}

/// FNV-1a's 64-bit offset basis: the hash of no bytes.
pub const FNV1A64_START: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a continued over `bytes` from `hash` (the hash of the bytes
/// before them, or [`FNV1A64_START`]): a hash fed piece by piece.
pub const fn fnv1a64_continue(mut hash: u64, bytes: &[u8]) -> u64 {
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
    Activation(u8),
    /// An output bucket count of zero or above [`MAX_BUCKETS`].
    Buckets(u8),
    /// An input count other than [`INPUTS`].
    Inputs(u32),
    /// A hidden size that is zero, not a multiple of 16 or above [`MAX_HIDDEN`].
    Hidden(u32),
    /// A scale that is zero or too large to compute with.
    Scale(&'static str, u32),
    /// The description is not ASCII.
    Description,
    /// The king map (version 3) is not one.
    KingMap(KingMapFault),
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
            NetError::Version(v) => {
                write!(f, "format version {v}; this build reads 1 to {VERSION}")
            }
            NetError::Activation(a) => write!(f, "unknown activation {a}"),
            NetError::Buckets(b) => {
                write!(f, "{b} output buckets: must be 1 to {MAX_BUCKETS}")
            }
            NetError::Inputs(n) => write!(f, "{n} inputs; the format has {INPUTS}"),
            NetError::Hidden(n) => {
                write!(
                    f,
                    "hidden size {n}: must be a multiple of 16 from 16 to {MAX_HIDDEN}"
                )
            }
            NetError::Scale(name, v) => write!(f, "{name} {v} out of range"),
            NetError::Description => write!(f, "the description is not ASCII"),
            NetError::KingMap(fault) => write!(f, "king map: {fault}"),
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
    if !(1..=VERSION).contains(&version) {
        return Err(NetError::Version(version));
    }
    // Version 1 had a u16 activation here, whose high byte was zero.
    let activation = bytes[10];
    if activation != ACTIVATION_SCRELU {
        return Err(NetError::Activation(activation));
    }
    let buckets = match (version, bytes[11]) {
        (1, 0) => 1,
        (1, high) => return Err(NetError::Activation(high)),
        (_, b) if b == 0 || usize::from(b) > MAX_BUCKETS => return Err(NetError::Buckets(b)),
        (_, b) => usize::from(b),
    };
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
    let king_buckets = if version < VERSION {
        KingBuckets::NONE
    } else {
        let map = bytes
            .get(HEADER_BYTES..HEADER_BYTES + KING_MAP_BYTES)
            .ok_or(NetError::TooShort(bytes.len()))?;
        let map = KingBuckets::from_bytes(map.try_into().expect("64 bytes"))
            .map_err(NetError::KingMap)?;
        if map.is_none() {
            return Err(NetError::KingMap(KingMapFault::Trivial));
        }
        map
    };
    let header = NetHeader {
        hidden: hidden as usize,
        king_buckets,
        buckets,
        qa,
        qb,
        scale,
        description,
    };
    let expected = header.file_size();
    if bytes.len() != expected {
        return Err(NetError::Size(expected, bytes.len()));
    }
    let at = header.layout().checksum;
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
    /// `[K][768][N]`, feature-major.
    pub feature_weights: Vec<i16>,
    /// `[N]`.
    pub feature_biases: Vec<i16>,
    /// `[B][2N]`: per bucket, the side to move's half, then the other
    /// side's.
    pub output_weights: Vec<i16>,
    /// `[B]`.
    pub output_biases: Vec<i32>,
}

/// Checks a whole network file like [`parse`] and returns its weights
/// too.
pub fn read(bytes: &[u8]) -> Result<(NetHeader, NetWeights, u64), NetError> {
    let (header, fingerprint) = parse(bytes)?;
    let at = header.layout();
    let i16s = |from: usize, to: usize| -> Vec<i16> {
        bytes[from..to]
            .chunks_exact(2)
            .map(|pair| i16::from_le_bytes([pair[0], pair[1]]))
            .collect()
    };
    let weights = NetWeights {
        feature_weights: i16s(at.feature_weights, at.feature_biases),
        feature_biases: i16s(at.feature_biases, at.output_weights),
        output_weights: i16s(at.output_weights, at.output_biases),
        output_biases: bytes[at.output_biases..at.checksum]
            .chunks_exact(4)
            .map(|b| i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
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

/// The bytes of a network file (the current [`VERSION`]) holding
/// `weights` under `header` (whose hidden size and bucket count must match
/// the weights), checksum included.
pub fn write(header: &NetHeader, weights: &NetWeights) -> Result<Vec<u8>, WriteError> {
    let n = header.hidden;
    if n == 0 || !n.is_multiple_of(16) || n > MAX_HIDDEN {
        return Err(WriteError(format!(
            "hidden size {n}: must be a multiple of 16 up to {MAX_HIDDEN}"
        )));
    }
    let buckets = header.buckets;
    if buckets == 0 || buckets > MAX_BUCKETS {
        return Err(WriteError(format!(
            "{buckets} output buckets: must be 1 to {MAX_BUCKETS}"
        )));
    }
    let sizes = [
        (
            "feature weights",
            weights.feature_weights.len(),
            header.feature_weight_count(),
        ),
        ("feature biases", weights.feature_biases.len(), n),
        (
            "output weights",
            weights.output_weights.len(),
            2 * n * buckets,
        ),
        ("output biases", weights.output_biases.len(), buckets),
    ];
    for (name, found, expected) in sizes {
        if found != expected {
            return Err(WriteError(format!(
                "{found} {name}; the header needs {expected}"
            )));
        }
    }
    if !header.description.is_ascii() || header.description.len() > DESCRIPTION_BYTES {
        return Err(WriteError(format!(
            "description {:?}: at most {DESCRIPTION_BYTES} ASCII bytes",
            header.description
        )));
    }
    let mut bytes = Vec::with_capacity(header.file_size());
    bytes.extend_from_slice(&MAGIC);
    bytes.extend_from_slice(&header.version().to_le_bytes());
    bytes.push(ACTIVATION_SCRELU);
    bytes.push(buckets as u8);
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
    if !header.king_buckets.is_none() {
        bytes.extend_from_slice(&header.king_buckets.bytes());
    }
    for part in [
        &weights.feature_weights,
        &weights.feature_biases,
        &weights.output_weights,
    ] {
        for w in part.iter() {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
    }
    for bias in &weights.output_biases {
        bytes.extend_from_slice(&bias.to_le_bytes());
    }
    let checksum = fnv1a64(&bytes);
    bytes.extend_from_slice(&checksum.to_le_bytes());
    debug_assert_eq!(bytes.len(), header.file_size());
    parse(&bytes).map_err(|e| WriteError(format!("wrote an unreadable file: {e}")))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// FNV's published 64-bit FNV-1a values (`kiln-gen`'s copy is tested
    /// against the same), whole and fed in two pieces.
    #[test]
    fn fnv1a64_gives_the_published_test_vectors() {
        for (text, hash) in [
            ("", 0xcbf2_9ce4_8422_2325_u64),
            ("a", 0xaf63_dc4c_8601_ec8c),
            ("foobar", 0x8594_4171_f739_67e8),
        ] {
            assert_eq!(fnv1a64(text.as_bytes()), hash, "{text:?}");
            let (head, tail) = text.as_bytes().split_at(text.len() / 2);
            assert_eq!(fnv1a64_continue(fnv1a64(head), tail), hash, "{text:?}");
        }
    }

    fn small() -> (NetHeader, NetWeights) {
        small_with(1)
    }

    fn small_with(buckets: usize) -> (NetHeader, NetWeights) {
        small_kings(KingBuckets::NONE, buckets)
    }

    fn small_kings(king_buckets: KingBuckets, buckets: usize) -> (NetHeader, NetWeights) {
        let n = 16;
        let inputs = king_buckets.count() * INPUTS;
        let header = NetHeader {
            hidden: n,
            king_buckets,
            buckets,
            qa: 255,
            qb: 64,
            scale: 400,
            description: "test".into(),
        };
        let weights = NetWeights {
            feature_weights: (0..inputs * n).map(|i| (i % 251) as i16 - 125).collect(),
            feature_biases: (0..n as i16).collect(),
            output_weights: (0..(2 * n * buckets) as i16).map(|i| -i).collect(),
            output_biases: (0..buckets as i32).map(|b| b - 77).collect(),
        };
        (header, weights)
    }

    #[test]
    fn a_written_file_parses_back_with_its_header_and_layout() {
        let (header, weights) = small();
        let bytes = write(&header, &weights).expect("valid weights");
        let (read_header, fingerprint) = parse(&bytes).expect("written file");
        assert_eq!(read_header, header);
        assert_eq!(read(&bytes), Ok((header.clone(), weights, fingerprint)));
        assert_eq!(fingerprint, fnv1a64(&bytes[..bytes.len() - 8]));
        assert_eq!(u16_at(&bytes, 8), VERSION_WITHOUT_KING_MAP);
        let at = header.layout();
        assert_eq!(at.king_map, at.feature_weights);
        assert_eq!(
            i16::from_le_bytes([bytes[at.feature_biases + 2], bytes[at.feature_biases + 3]]),
            1
        );
        assert_eq!(
            i32::from_le_bytes(bytes[at.output_biases..at.checksum].try_into().unwrap()),
            -77
        );

        let (header, weights) = small_with(8);
        let bytes = write(&header, &weights).expect("valid weights");
        assert_eq!((bytes[10], bytes[11]), (ACTIVATION_SCRELU, 8));
        assert_eq!(bytes.len(), header.file_size());
        let (read_header, read_weights, _) = read(&bytes).expect("written file");
        assert_eq!((read_header, read_weights), (header, weights));
    }

    /// A file of version 1 (no buckets: the byte after the activation is
    /// zero) reads as one bucket; other versions and bucket counts are
    /// refused.
    #[test]
    fn version_one_files_read_as_one_bucket() {
        let (header, weights) = small();
        let mut bytes = write(&header, &weights).expect("valid weights");
        let end = bytes.len() - 8;
        let resum = |bytes: &mut Vec<u8>| {
            let sum = fnv1a64(&bytes[..end]);
            bytes[end..].copy_from_slice(&sum.to_le_bytes());
        };
        bytes[8..12].copy_from_slice(&[1, 0, 1, 0]);
        resum(&mut bytes);
        assert_eq!(read(&bytes).map(|(h, w, _)| (h, w)), Ok((header, weights)));
        bytes[8] = 4;
        resum(&mut bytes);
        assert_eq!(parse(&bytes), Err(NetError::Version(4)));
        bytes[8] = 2;
        bytes[11] = 0;
        resum(&mut bytes);
        assert_eq!(parse(&bytes), Err(NetError::Buckets(0)));
        bytes[11] = 32;
        resum(&mut bytes);
        assert_eq!(parse(&bytes), Err(NetError::Buckets(32)));
    }

    /// The usual layout: four buckets by the king's rank and file, files
    /// e to h mirrored onto d to a.
    fn four_mirrored() -> KingBuckets {
        let mut halves = [3u8; 32];
        halves[..8].copy_from_slice(&[0, 0, 1, 1, 2, 2, 2, 2]);
        KingBuckets::mirrored_halves(&halves).expect("a king map")
    }

    #[test]
    fn a_network_with_a_king_map_is_version_3_and_reads_back() {
        let kings = four_mirrored();
        assert_eq!(kings.count(), 4);
        assert_eq!((kings.bucket(0), kings.mirrored(0)), (0, false));
        assert_eq!((kings.bucket(7), kings.mirrored(7)), (0, true));
        assert_eq!((kings.bucket(5), kings.mirrored(5)), (1, true));
        assert_eq!((kings.bucket(12), kings.mirrored(12)), (2, true));
        assert_eq!((kings.bucket(63), kings.mirrored(63)), (3, true));
        assert_eq!((kings.bucket(56), kings.mirrored(56)), (3, false));
        let (header, weights) = small_kings(kings, 8);
        let bytes = write(&header, &weights).expect("valid weights");
        assert_eq!(u16_at(&bytes, 8), VERSION);
        let at = header.layout();
        assert_eq!(at.feature_weights - at.king_map, KING_MAP_BYTES);
        assert_eq!(bytes[at.king_map..at.feature_weights], kings.bytes());
        assert_eq!(at.feature_biases - at.feature_weights, 2 * 4 * INPUTS * 16);
        assert_eq!(bytes.len(), header.file_size());
        let (read_header, read_weights, _) = read(&bytes).expect("written file");
        assert_eq!(
            (read_header, read_weights),
            (header.clone(), weights.clone())
        );

        // Mirroring alone is a king map too.
        let mirror_only = KingBuckets::mirrored_halves(&[0; 32]).expect("a king map");
        assert_eq!(mirror_only.count(), 1);
        let (header, weights) = small_kings(mirror_only, 1);
        let bytes = write(&header, &weights).expect("valid weights");
        assert_eq!(u16_at(&bytes, 8), VERSION);
        assert_eq!(read(&bytes).expect("written file").0, header);
    }

    #[test]
    fn bad_king_maps_are_refused() {
        let mut gap = [0u8; KING_MAP_BYTES];
        gap[10] = 2;
        assert_eq!(
            KingBuckets::from_bytes(gap),
            Err(KingMapFault::Gap {
                used: 2,
                missing: 1
            })
        );
        let mut too_many = [0u8; KING_MAP_BYTES];
        too_many[3] = MAX_INPUT_BUCKETS as u8;
        assert_eq!(
            KingBuckets::from_bytes(too_many),
            Err(KingMapFault::TooLarge {
                square: 3,
                bucket: MAX_INPUT_BUCKETS
            })
        );
        // A version-3 file whose map is trivial, or whose map is damaged
        // (checksum recomputed), is refused.
        let (header, weights) = small_kings(four_mirrored(), 1);
        let mut bytes = write(&header, &weights).expect("valid weights");
        let end = bytes.len() - 8;
        let map = header.layout().king_map;
        for (damage, fault) in [
            ([0u8; KING_MAP_BYTES], KingMapFault::Trivial),
            (
                gap,
                KingMapFault::Gap {
                    used: 2,
                    missing: 1,
                },
            ),
        ] {
            bytes[map..map + KING_MAP_BYTES].copy_from_slice(&damage);
            let sum = fnv1a64(&bytes[..end]);
            bytes[end..].copy_from_slice(&sum.to_le_bytes());
            assert_eq!(parse(&bytes), Err(NetError::KingMap(fault)));
        }
        // Weights for one bucket under a four-bucket header.
        let (header, _) = small_kings(four_mirrored(), 1);
        let (_, one_bucket) = small_kings(KingBuckets::NONE, 1);
        assert!(write(&header, &one_bucket).is_err());
    }

    #[test]
    fn output_buckets_cover_every_piece_count_in_order() {
        for buckets in 1..=MAX_BUCKETS {
            let all: Vec<usize> = (2..=32).map(|p| output_bucket(p, buckets)).collect();
            assert_eq!(all[0], 0);
            assert_eq!(all[30], buckets - 1);
            assert!(all.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        }
        assert_eq!(output_bucket(5, 8), 0);
        assert_eq!(output_bucket(6, 8), 1);
        assert_eq!(output_bucket(32, 8), 7);
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
