//! Engine-specific build-time tables, written into `OUT_DIR` and `include!`d by
//! the engine (chess tables come from the `kiln-tables` crate):
//!
//! - `uci_keywords.rs`, `uci_options.rs`: `phf` maps from UCI command keywords
//!   (case-sensitive, as the protocol says) and lower-cased option names (UCI
//!   option names are case-insensitive) to the engine's enums (the keyword
//!   `spsa` only with the cargo feature `spsa`);
//! - `psqt.rs`: the evaluation's piece-square tables, parsed from
//!   `src/eval/params.txt` (White's view, printed like a board), with material
//!   folded in, mirrored for Black through the FLIP table and packed as
//!   `S(mg, eg)` so the evaluation does no flipping or unpacking per piece;
//! - `eval_terms.rs`: the other evaluation weights from the same file
//!   (pawn structure, mobility, king safety...), packed the same way into
//!   one array indexed by named constants;
//! - `endgames.rs`: the endgame table, a `phf` map from material signature
//!   to endgame function (listed in `kiln_gen::endgames`);
//! - `mvv_lva.rs`: capture ordering scores.
//!
//! - `nnue_net.rs`: the network (`src/eval/net.nnue`, or the file named by
//!   the `KILN_NET` environment variable), checked by
//!   `kiln_format::net::parse` and emitted as typed `static` arrays aligned
//!   for SIMD loads, with its header and fingerprint as constants: nothing
//!   is parsed or allocated when the engine starts.
//!
//! The parameter file is read with the `kiln-format` crate, which the
//! tuner uses too; nothing here compiles a file of the engine's `src/`.
//! Build scripts run unoptimised, so everything here is small and cheap.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use kiln_format::params::{Params, pack};

const PARAMS_FILE: &str = "src/eval/params.txt";
/// The network built in unless `KILN_NET` names another file.
const NET_FILE: &str = "src/eval/net.nnue";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={PARAMS_FILE}");

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write(&out, "uci_keywords.rs", &keyword_map());
    write(&out, "uci_options.rs", &option_map());
    write(&out, "endgames.rs", &kiln_gen::endgames::source());
    write(&out, "mvv_lva.rs", &mvv_lva());

    let text = fs::read_to_string(PARAMS_FILE)
        .unwrap_or_else(|e| panic!("cannot read {PARAMS_FILE}: {e}"));
    let params = kiln_format::params::parse(&text).unwrap_or_else(|e| panic!("{PARAMS_FILE}: {e}"));
    write(&out, "psqt.rs", &psqt(&params));
    write(&out, "eval_terms.rs", &eval_terms(&params));

    println!("cargo:rerun-if-env-changed=KILN_NET");
    // Set but empty means the default, as for an unset variable (a script's
    // `KILN_NET=$net` with nothing in `$net`), not a file named "".
    let net = env::var("KILN_NET")
        .ok()
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| NET_FILE.to_string());
    println!("cargo:rerun-if-changed={net}");
    let bytes = fs::read(&net).unwrap_or_else(|e| panic!("cannot read network {net}: {e}"));
    write(&out, "nnue_net.rs", &network(&net, &bytes));
}

/// The network file `bytes` (read from `name`, checked and split into its
/// parts by `kiln_format::net::read`) as Rust source: header constants and
/// the weights as aligned `static` arrays.
fn network(name: &str, bytes: &[u8]) -> String {
    use kiln_format::net::{INPUTS, read};
    let (header, weights, fingerprint) =
        read(bytes).unwrap_or_else(|e| panic!("network {name} is not usable: {e}"));
    let n = header.hidden;
    let join = |values: &[i16]| {
        let mut s = String::with_capacity(values.len() * 5);
        for v in values {
            let _ = write!(s, "{v},");
        }
        s
    };
    let outputs = &weights.output_weights;
    let buckets = header.buckets;
    // The AVX2 output layer multiplies a clamped activation (at most QA)
    // by an output weight in 16 bits; it may only do so when no product
    // can leave the i16 range. Known here, once, for the whole network.
    let max_out = outputs
        .iter()
        .map(|w| i32::from(*w).abs())
        .max()
        .unwrap_or(0);
    let fits_i16 = max_out * header.qa <= i32::from(i16::MAX);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/// Neurons per perspective.\n\
         pub const HIDDEN: usize = {n};\n\
         /// Feature-transformer quantisation scale: activations clamp to `0..=QA`.\n\
         pub const QA: i32 = {qa};\n\
         /// Output-layer quantisation scale.\n\
         pub const QB: i32 = {qb};\n\
         /// Centipawns per unit of the network's output.\n\
         pub const SCALE: i32 = {scale};\n\
         /// What the network was trained on, from its header.\n\
         pub const DESCRIPTION: &str = {desc:?};\n\
         /// The network's fingerprint: the FNV-1a checksum of its file.\n\
         pub const FINGERPRINT: u64 = {fingerprint:#018x};\n\
         /// Whether every output weight times `QA` fits an `i16`, which the\n\
         /// AVX2 output layer's 16-bit multiply needs.\n\
         pub const OUTPUT_FITS_I16: bool = {fits_i16};\n\
         /// Input buckets: sets of feature weights, chosen by each\n\
         /// perspective's king square through [`KING_BUCKETS`].\n\
         pub const INPUT_BUCKETS: usize = {input_buckets};\n\
         /// The input bucket of each square of a perspective's own king,\n\
         /// and whether that perspective sees the files mirrored (checked\n\
         /// when the engine compiles).\n\
         pub const KING_BUCKETS: kiln_format::net::KingBuckets =\n\
         match kiln_format::net::KingBuckets::from_bytes({king_map:?}) {{\n\
             Ok(map) => map,\n\
             Err(_) => panic!(\"the network's king map is not one\"),\n\
         }};\n\
         /// Output buckets: sets of output weights, chosen by the number of\n\
         /// men on the board (`kiln_format::net::output_bucket`).\n\
         pub const OUTPUT_BUCKETS: usize = {buckets};\n\
         /// The output bias of each bucket.\n\
         pub const OUTPUT_BIASES: [i32; OUTPUT_BUCKETS] = {biases:?};",
        qa = header.qa,
        qb = header.qb,
        scale = header.scale,
        desc = header.description,
        biases = weights.output_biases,
        input_buckets = header.king_buckets.count(),
        king_map = header.king_buckets.bytes(),
    );
    let _ = writeln!(
        s,
        "/// `FEATURE_WEIGHTS.0[f]`: the {n} weights of feature `f`\n\
         /// ({INPUTS} features a bucket, bucket by bucket).\n\
         pub static FEATURE_WEIGHTS: Aligned<[[i16; HIDDEN]; INPUT_BUCKETS * {INPUTS}]> = Aligned(["
    );
    for column in weights.feature_weights.chunks_exact(n) {
        let _ = writeln!(s, "[{}],", join(column));
    }
    let _ = writeln!(
        s,
        "]);\n\
         /// The accumulator's starting values.\n\
         pub static FEATURE_BIASES: Aligned<[i16; HIDDEN]> = Aligned([{}]);\n\
         /// Output weights of each bucket: the side to move's {n}, then the\n\
         /// other side's.\n\
         pub static OUTPUT_WEIGHTS: Aligned<[[i16; 2 * HIDDEN]; OUTPUT_BUCKETS]> = Aligned([",
        join(&weights.feature_biases),
    );
    for bucket in outputs.chunks_exact(2 * n) {
        let _ = writeln!(s, "[{}],", join(bucket));
    }
    let _ = writeln!(s, "]);");
    s
}

fn write(out: &Path, name: &str, code: &str) {
    let path = out.join(name);
    fs::write(&path, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// UCI command keywords → `Keyword` variants. Commands are case-sensitive in
/// the UCI specification, so the keys are exactly as a GUI sends them.
fn keyword_map() -> String {
    let keywords = [
        ("uci", "Keyword::Uci"),
        ("debug", "Keyword::Debug"),
        ("isready", "Keyword::IsReady"),
        ("setoption", "Keyword::SetOption"),
        ("register", "Keyword::Register"),
        ("ucinewgame", "Keyword::UciNewGame"),
        ("position", "Keyword::Position"),
        ("go", "Keyword::Go"),
        ("stop", "Keyword::Stop"),
        ("ponderhit", "Keyword::PonderHit"),
        ("quit", "Keyword::Quit"),
        ("d", "Keyword::Display"),
        ("eval", "Keyword::Eval"),
        ("perft", "Keyword::Perft"),
        ("bench", "Keyword::Bench"),
        ("genfens", "Keyword::Genfens"),
    ];
    // The `spsa` feature adds a command that prints OpenBench's SPSA input.
    let spsa = [("spsa", "Keyword::Spsa")];
    let spsa = if env::var_os("CARGO_FEATURE_SPSA").is_some() {
        &spsa[..]
    } else {
        &[]
    };
    let keywords: Vec<(&str, &str)> = keywords.iter().chain(spsa).copied().collect();
    kiln_gen::phf_maps::str_map(
        "KEYWORDS",
        "UCI command keywords (case-sensitive) → [`Keyword`].",
        "Keyword",
        &keywords,
    )
}

/// Lower-cased UCI option names → `OptionName` variants (UCI option names
/// are case-insensitive; the engine lower-cases before the lookup).
fn option_map() -> String {
    let options = [
        ("hash", "OptionName::Hash"),
        ("clear hash", "OptionName::ClearHash"),
        ("threads", "OptionName::Threads"),
        ("move overhead", "OptionName::MoveOverhead"),
        ("ponder", "OptionName::Ponder"),
        ("uci_chess960", "OptionName::Chess960"),
        ("multipv", "OptionName::MultiPv"),
        ("uci_showwdl", "OptionName::ShowWdl"),
        ("syzygypath", "OptionName::SyzygyPath"),
        ("syzygyprobedepth", "OptionName::SyzygyProbeDepth"),
        ("syzygy50moverule", "OptionName::Syzygy50MoveRule"),
        ("syzygyprobelimit", "OptionName::SyzygyProbeLimit"),
        ("uci_limitstrength", "OptionName::LimitStrength"),
        ("uci_elo", "OptionName::Elo"),
        ("usennue", "OptionName::UseNnue"),
    ];
    kiln_gen::phf_maps::str_map(
        "OPTION_NAMES",
        "Lower-cased UCI option names → [`OptionName`].",
        "OptionName",
        &options,
    )
}

/// `MVV_LVA[victim][attacker]`: the most valuable victim first, and among
/// equal victims the least valuable attacker first. A king is never a victim.
fn mvv_lva() -> String {
    let mut s = String::from(
        "/// Capture ordering score, `MVV_LVA[victim][attacker]` (piece kinds\n\
         /// pawn..king): higher is searched first.\n\
         pub static MVV_LVA: [[i32; 6]; 6] = [\n",
    );
    for victim in 0..6i32 {
        s.push_str("    [");
        for attacker in 0..6i32 {
            let v = if victim == 5 {
                0
            } else {
                (victim + 1) * 8 - attacker
            };
            let _ = write!(s, "{v}, ");
        }
        s.push_str("],\n");
    }
    s.push_str("];\n");
    s
}

/// The evaluation terms beyond the piece-square tables: one packed
/// `S(mg, eg)` array with every weight, and the index of each term's first
/// weight in it, so the evaluation names a weight by a constant index and
/// the tuner can trace which weights a position uses.
fn eval_terms(p: &Params) -> String {
    let mut s = String::new();
    let mut offset = 0;
    let mut weights = Vec::new();
    let mut names = Vec::new();
    for term in &p.terms {
        let shown: Vec<String> = term
            .values
            .iter()
            .map(|(m, e)| format!("S({m}, {e})"))
            .collect();
        let _ = writeln!(
            s,
            "/// Index of `{}` in [`TERM_WEIGHTS`] ({} weight{}): {}.\n\
             pub const {}: usize = {offset};\n\
             /// Number of weights of `{}`.\n\
             pub const {}_LEN: usize = {};",
            term.name,
            term.values.len(),
            if term.values.len() == 1 { "" } else { "s" },
            if shown.len() <= 8 {
                shown.join(", ")
            } else {
                format!("{}, ...", shown[..8].join(", "))
            },
            term.name,
            term.name,
            term.name,
            term.values.len(),
        );
        names.push(format!(
            "({:?}, {offset}, {})",
            term.name,
            term.values.len()
        ));
        weights.extend(term.values.iter().map(|&(mg, eg)| pack(mg, eg)));
        offset += term.values.len();
    }
    let _ = writeln!(
        s,
        "/// Number of weights in [`TERM_WEIGHTS`].\n\
         pub const TERM_COUNT: usize = {offset};\n\
         /// Every term weight, packed `S(mg, eg)`.\n\
         pub static TERM_WEIGHTS: [i32; TERM_COUNT] = {weights:?};\n\
         /// `(name, first index, length)` of every term group, for the tuner.\n\
         pub static TERM_GROUPS: [(&str, usize, usize); {}] = [{}];\n\
         /// King-attack units per attacked king-zone square, per piece kind.\n\
         pub const KING_ATTACK_UNITS: [i32; 6] = {:?};",
        names.len(),
        names.join(", "),
        p.king_attack,
    );
    s
}

fn psqt(p: &Params) -> String {
    // FLIP mirrors a square vertically (a1 <-> a8): Black's view of White's
    // table. It comes from the generator, like every chess table.
    let flip = kiln_gen::flip_table();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/// Game-phase weight per piece kind (pawn..king).\n\
         pub const PHASE_WEIGHTS: [i32; 6] = {:?};\n\
         /// The phase of the starting position (all pieces on the board).\n\
         pub const PHASE_MAX: i32 = {};\n\
         /// Middlegame material value per piece kind (cp).\n\
         pub const MATERIAL_MG: [i32; 6] = {:?};\n\
         /// Endgame material value per piece kind (cp).\n\
         pub const MATERIAL_EG: [i32; 6] = {:?};",
        p.phase,
        2 * (2 * p.phase[1] + 2 * p.phase[2] + 2 * p.phase[3] + p.phase[4] + 8 * p.phase[0]),
        p.material.map(|m| m.0),
        p.material.map(|m| m.1),
    );
    s.push_str(
        "/// `PSQT[colour][piece][square]`: material plus placement, packed as\n\
         /// `S(mg, eg)`, from White's point of view: Black's entries are mirrored\n\
         /// (FLIP) and negated, so the sum over all pieces is White's score.\n\
         pub static PSQT: [[[i32; 64]; 6]; 2] = [\n",
    );
    for colour in 0..2 {
        s.push_str("    [\n");
        for piece in 0..6 {
            let (mg, eg) = &p.tables[piece];
            let (mat_mg, mat_eg) = p.material[piece];
            s.push_str("        [");
            for (sq, flipped) in flip.iter().enumerate() {
                let white_sq = if colour == 0 {
                    sq
                } else {
                    usize::from(*flipped)
                };
                let sign = if colour == 0 { 1 } else { -1 };
                let v = pack(
                    sign * (mat_mg + mg[white_sq]),
                    sign * (mat_eg + eg[white_sq]),
                );
                let _ = write!(s, "{v}, ");
            }
            s.push_str("],\n");
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    s
}
