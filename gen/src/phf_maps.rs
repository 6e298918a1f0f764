//! Build-time perfect-hash maps (`phf`), emitted as Rust source.
//!
//! The engine dispatches protocol keywords and looks up endgame knowledge by
//! material signature through maps built here, at build time, so lookups cost
//! one hash and one comparison and nothing is built at startup.

/// Rust source for `pub static NAME: phf::Map<&'static str, TYPE>` from
/// `(key, value expression)` pairs. The crate that includes the source must
/// depend on `phf`.
///
/// # Panics
/// On a duplicate key (a bug in the build script's input).
///
/// ```
/// let src = kiln_gen::phf_maps::str_map(
///     "COMMANDS",
///     "Command keywords.",
///     "u8",
///     &[("go", "1"), ("stop", "2")],
/// );
/// assert!(src.starts_with("/// Command keywords.\npub static COMMANDS: phf::Map<&'static str, u8> ="));
/// ```
pub fn str_map(name: &str, doc: &str, value_type: &str, entries: &[(&str, &str)]) -> String {
    let mut map = phf_codegen::Map::new();
    for (key, value) in entries {
        map.entry(*key, *value);
    }
    format!(
        "/// {doc}\npub static {name}: phf::Map<&'static str, {value_type}> = {};\n",
        map.build()
    )
}

/// Rust source for `pub static NAME: phf::Map<u64, TYPE>` (for example,
/// material signatures to endgame rules).
///
/// # Panics
/// On a duplicate key.
pub fn u64_map(name: &str, doc: &str, value_type: &str, entries: &[(u64, &str)]) -> String {
    let mut map = phf_codegen::Map::new();
    for (key, value) in entries {
        map.entry(*key, *value);
    }
    format!(
        "/// {doc}\npub static {name}: phf::Map<u64, {value_type}> = {};\n",
        map.build()
    )
}
