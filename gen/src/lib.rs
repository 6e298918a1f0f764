//! `kiln-gen`: deterministic generators for every chess table Kiln uses.
//!
//! Everything here is a pure function of one `u64` seed (plus the committed
//! magic schedule): slider attacks by fancy magics and by PEXT, leaper
//! attacks, `BETWEEN`/`LINE`, masks, distances, castling masks, `FLIP`, and
//! Zobrist keys with quality checks. [`generate`] builds the tables,
//! [`emit`] writes them as Rust source (for `include!`) or a C header, and a
//! 64-bit FNV-1a fingerprint identifies the result.
//!
//! Build scripts call this crate; the engine and the `kiln-tables` crate only
//! read what it emitted. Build scripts of dependencies are compiled without
//! optimisation, so generation is kept cheap: see docs/tables.md for measured
//! times.
//!
//! ```
//! let tables = kiln_gen::generate(&kiln_gen::Config::default());
//! assert!(tables.key_quality.passed());
//! let source = kiln_gen::emit::rust(&tables, kiln_gen::emit::Layouts::Both);
//! assert!(source.contains("pub static ROOK_ATTACKS"));
//! ```

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod emit;
#[cfg(feature = "engine")]
pub mod endgames;
mod error;
pub mod fingerprint;
pub mod geometry;
pub mod magic;
#[cfg(feature = "engine")]
pub mod phf_maps;
pub mod schedule;
pub mod zobrist;

use std::time::{Duration, Instant};

pub use error::{BuildScriptError, ConfigError};
use magic::{MagicSearch, Slider, SliderTables};
use zobrist::{KeyQuality, ZobristKeys};

/// Version of the generator, written into every emitted header.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The seed used when none is given (`KILN_SEED` unset).
pub const DEFAULT_SEED: u64 = 0x0000_4B49_4C4E_2021; // "KILN" 2021

/// Environment variable that selects the seed at build time.
pub const SEED_ENV: &str = "KILN_SEED";

/// Environment variable that asks for a full magic search from the seed
/// (`KILN_MAGIC_SEARCH=full`) instead of the committed schedule.
pub const MAGIC_SEARCH_ENV: &str = "KILN_MAGIC_SEARCH";

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Seed of the Zobrist keys (and of the magics with a full search).
    pub seed: u64,
    /// Where magic candidates come from.
    pub magic_search: MagicSearch,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: DEFAULT_SEED,
            magic_search: MagicSearch::Scheduled,
        }
    }
}

impl Config {
    /// The configuration with the given seed and the scheduled magic search.
    pub fn with_seed(seed: u64) -> Self {
        Config {
            seed,
            ..Config::default()
        }
    }

    /// Reads `KILN_SEED` and `KILN_MAGIC_SEARCH` as build scripts see them.
    ///
    /// `KILN_SEED` accepts decimal or `0x`-prefixed hexadecimal; unset or
    /// empty means [`DEFAULT_SEED`]. `KILN_MAGIC_SEARCH` is `scheduled`
    /// (default) or `full`.
    ///
    /// # Errors
    /// A seed that is not a 64-bit number or not UTF-8, or a magic search
    /// other than those two.
    pub fn from_env() -> Result<Config, ConfigError> {
        let seed = match std::env::var(SEED_ENV) {
            Ok(text) if !text.trim().is_empty() => match parse_seed(&text) {
                Ok(seed) => seed,
                Err(source) => return Err(ConfigError::BadSeed { text, source }),
            },
            Ok(_) | Err(std::env::VarError::NotPresent) => DEFAULT_SEED,
            Err(std::env::VarError::NotUnicode(_)) => return Err(ConfigError::SeedNotUnicode),
        };
        let magic_search = match std::env::var(MAGIC_SEARCH_ENV).as_deref() {
            Ok("full") => MagicSearch::Full(seed),
            Ok("scheduled" | "") | Err(_) => MagicSearch::Scheduled,
            Ok(other) => {
                return Err(ConfigError::BadMagicSearch {
                    text: other.to_string(),
                });
            }
        };
        Ok(Config { seed, magic_search })
    }
}

/// Parses a seed written in decimal or as `0x…` hexadecimal.
pub fn parse_seed(text: &str) -> Result<u64, std::num::ParseIntError> {
    let text = text.trim().replace('_', "");
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => text.parse(),
    }
}

/// Every generated table, plus what is known about how it was made.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The configuration the tables came from.
    pub config: Config,
    /// Rook magic and PEXT layouts.
    pub rook: SliderTables,
    /// Bishop magic and PEXT layouts.
    pub bishop: SliderTables,
    /// Knight attacks per square.
    pub knight_attacks: [u64; 64],
    /// King attacks per square.
    pub king_attacks: [u64; 64],
    /// Pawn captures per colour and square.
    pub pawn_attacks: [[u64; 64]; 2],
    /// Single pawn pushes per colour and square.
    pub pawn_pushes: [[u64; 64]; 2],
    /// Squares strictly between two aligned squares.
    pub between: Box<[[u64; 64]; 64]>,
    /// Edge-to-edge line through two aligned squares.
    pub line: Box<[[u64; 64]; 64]>,
    /// Squares of each file.
    pub file_masks: [u64; 8],
    /// Squares of each rank.
    pub rank_masks: [u64; 8],
    /// Files beside each file.
    pub adjacent_files: [u64; 8],
    /// Squares ahead on the same file, per colour.
    pub forward_file: [[u64; 64]; 2],
    /// Passed-pawn masks per colour.
    pub passed_pawn_masks: [[u64; 64]; 2],
    /// Chebyshev distance.
    pub distance: [[u8; 64]; 64],
    /// Castling rights kept per touched square.
    pub castling_rights_masks: [u8; 64],
    /// White/Black square mirror.
    pub flip: [u8; 64],
    /// Zobrist keys.
    pub zobrist: ZobristKeys,
    /// Key of the standard start position.
    pub start_key: u64,
    /// Results of the key-quality checks.
    pub key_quality: KeyQuality,
    /// FNV-1a fingerprint over every table.
    pub fingerprint: u64,
    /// Time spent per stage.
    pub timings: Vec<(&'static str, Duration)>,
}

/// Generates every table for `config`.
pub fn generate(config: &Config) -> Tables {
    let mut timings = Vec::new();
    let mut clock = Instant::now();
    let mut lap = |name: &'static str, timings: &mut Vec<(&'static str, Duration)>| {
        let now = Instant::now();
        timings.push((name, now - clock));
        clock = now;
    };

    let rook = magic::generate(Slider::Rook, config.magic_search);
    lap("rook magics + PEXT", &mut timings);
    let bishop = magic::generate(Slider::Bishop, config.magic_search);
    lap("bishop magics + PEXT", &mut timings);

    let knight_attacks = geometry::knight_attacks();
    let king_attacks = geometry::king_attacks();
    let pawn_attacks = geometry::pawn_attacks();
    let pawn_pushes = geometry::pawn_pushes();
    let between = geometry::between();
    let line = geometry::line();
    lap("leapers, BETWEEN, LINE", &mut timings);
    let file_masks = geometry::file_masks();
    let rank_masks = geometry::rank_masks();
    let adjacent_files = geometry::adjacent_files();
    let forward_file = geometry::forward_file();
    let passed_pawn_masks = geometry::passed_pawn_masks();
    let distance = geometry::distance();
    let castling_rights_masks = geometry::castling_rights_masks();
    let flip = geometry::flip();
    lap("masks, distance, FLIP", &mut timings);

    let (zobrist, key_quality) = ZobristKeys::generate(config.seed);
    let start_key = zobrist.start_position_key();
    lap("Zobrist keys + quality", &mut timings);

    let mut tables = Tables {
        config: *config,
        rook,
        bishop,
        knight_attacks,
        king_attacks,
        pawn_attacks,
        pawn_pushes,
        between,
        line,
        file_masks,
        rank_masks,
        adjacent_files,
        forward_file,
        passed_pawn_masks,
        distance,
        castling_rights_masks,
        flip,
        zobrist,
        start_key,
        key_quality,
        fingerprint: 0,
        timings: Vec::new(),
    };
    tables.fingerprint = emit::fingerprint(&tables);
    lap("fingerprint", &mut timings);
    tables.timings = timings;
    tables
}

/// The FLIP table on its own, for build scripts that lay out
/// White's-view tables for both colours.
pub fn flip_table() -> [u8; 64] {
    geometry::flip()
}

/// Runs the generator as a build script does: reads the configuration from
/// the environment, prints the `cargo:` lines, and writes the Rust source to
/// `$OUT_DIR/<file_name>`. Slider layouts follow the target: PEXT tables are
/// emitted as well when the target has BMI2.
///
/// # Errors
/// The environment's configuration is invalid, or the file cannot be
/// written.
pub fn run_build_script(file_name: &str) -> Result<Tables, BuildScriptError> {
    println!("cargo:rerun-if-env-changed={SEED_ENV}");
    println!("cargo:rerun-if-env-changed={MAGIC_SEARCH_ENV}");
    let config = Config::from_env()?;
    let tables = generate(&config);
    let target_has_bmi2 = std::env::var("CARGO_CFG_TARGET_FEATURE")
        .map(|features| features.split(',').any(|f| f == "bmi2"))
        .unwrap_or(false);
    let layouts = if target_has_bmi2 {
        emit::Layouts::Both
    } else {
        emit::Layouts::Magic
    };
    let source = emit::rust(&tables, layouts);
    let out_dir = std::env::var_os("OUT_DIR").ok_or(BuildScriptError::NoOutDir)?;
    let path = std::path::Path::new(&out_dir).join(file_name);
    if let Err(source) = std::fs::write(&path, source) {
        return Err(BuildScriptError::Write { path, source });
    }
    Ok(tables)
}
