//! Kiln computes no table at runtime: no lazily initialised statics, no
//! mutable statics, no thread-local caches anywhere in the workspace's
//! sources. Tables are `static`s emitted by build scripts.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir` (`target` folders left out). A folder that
/// cannot be read fails the test: a scan that silently skipped one would
/// pass without looking.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", dir.display()))
            .path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_lazy_or_mutable_statics_in_any_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "board", "gen", "tables", "benches", "tests"] {
        rust_files(&root.join(dir), &mut files);
    }
    files.push(root.join("build.rs"));
    assert!(files.len() > 10, "found only {} files", files.len());
    // Spelled in pieces so that this file does not match itself.
    let forbidden = [
        ["lazy", "_static"].concat(),
        ["Once", "Lock"].concat(),
        ["Lazy", "Lock"].concat(),
        ["Once", "Cell"].concat(),
        ["static", " mut "].concat(),
        ["thread", "_local!"].concat(),
    ];
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", file.display()));
        for (n, line) in text.lines().enumerate() {
            for word in &forbidden {
                if line.contains(word.as_str()) {
                    found.push(format!("{}:{}: {}", file.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "runtime initialisation found:\n{}",
        found.join("\n")
    );
}
