//! The engine's modules form layers, and imports point down only:
//!
//! ```text
//! uci, xboard, cli          protocols and the binary's command line
//!                           (none imports another)
//! protocol                  what both protocols share
//! search
//! syzygy                    tablebase probing
//! eval
//! opening                   random opening plies
//! prefetch, rng,            leaves: import nothing from the crate
//! build_info                (the kiln-board and kiln-tables crates sit
//!                           below everything; Cargo keeps them from
//!                           importing the engine)
//! ```
//!
//! This test reads every file under `src/` and fails when one refers to a
//! module of its own layer or a higher one: through `crate::` (in a `use` or
//! inline, grouped `crate::{...}` paths included) or through `super::`
//! chains that climb out of the file's top-level module. Comments are not
//! code and are skipped. A new top-level module must be added to [`LAYERS`].

use std::fs;
use std::path::{Path, PathBuf};

/// Every top-level module of the crate and its layer: a module may refer to
/// modules of lower layers only. `lib.rs` and `main.rs` are the roots that
/// tie the layers together and are not checked.
const LAYERS: &[(&str, u8)] = &[
    ("build_info", 0),
    ("prefetch", 0),
    ("rng", 0),
    ("opening", 1),
    ("eval", 3),
    ("syzygy", 4),
    ("search", 5),
    ("protocol", 6),
    ("uci", 7),
    ("xboard", 7),
    ("cli", 7),
];

fn layer(module: &str) -> Option<u8> {
    LAYERS
        .iter()
        .find(|(name, _)| *name == module)
        .map(|&(_, rank)| rank)
}

/// The code of a source file with comments and the contents of string
/// literals removed (a path named in a message or a doc comment is not an
/// import). The source has no raw strings; a `'"'` char literal is kept.
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut in_string = false;
    while let Some(c) = rest.chars().next() {
        if in_string {
            if rest.starts_with("\\\\") || rest.starts_with("\\\"") {
                rest = &rest[2..];
                continue;
            }
            if c == '"' {
                in_string = false;
                out.push(c);
            }
        } else if rest.starts_with("//") {
            let end = rest.find('\n').unwrap_or(rest.len());
            rest = &rest[end..];
            continue;
        } else if rest.starts_with("/*") {
            let end = rest.find("*/").map_or(rest.len(), |i| i + 2);
            rest = &rest[end..];
            continue;
        } else if rest.starts_with("'\"'") {
            out.push_str("'\"'");
            rest = &rest[3..];
            continue;
        } else {
            if c == '"' {
                in_string = true;
            }
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier at the start of `text` (after spaces).
fn leading_ident(text: &str) -> &str {
    let text = text.trim_start();
    let end = text.find(|c| !is_ident(c)).unwrap_or(text.len());
    &text[..end]
}

/// The top-level modules named right after `prefix` in `code`: for
/// `crate::eval::psqt` that is `eval`; for `crate::{opening::play_random_plies, eval}`
/// both `opening` and `eval`.
fn named_after(code: &str, prefix: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(i) = code[from..].find(prefix) {
        let at = from + i;
        from = at + prefix.len();
        // Part of a longer identifier (`$crate`, `my_crate::`).
        if code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| is_ident(c) || c == '$')
        {
            continue;
        }
        names_at(&code[from..], &mut found);
    }
    found.retain(|name| !name.is_empty());
    found
}

/// Adds the module names that `rest`, the text right after a path prefix,
/// starts with: one name, or each item of a `{…}` group.
fn names_at(rest: &str, found: &mut Vec<String>) {
    if let Some(group) = rest.strip_prefix('{') {
        let mut depth = 0;
        let mut item_start = true;
        for (j, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => break,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    item_start = true;
                    continue;
                }
                _ => {}
            }
            if item_start && !c.is_whitespace() {
                item_start = false;
                found.push(leading_ident(&group[j..]).to_string());
            }
        }
    } else {
        found.push(leading_ident(rest).to_string());
    }
}

/// Top-level modules a file refers to. `depth` is how many modules deep the
/// file is (`eval/mod.rs` and `rng.rs` 1, `eval/psqt.rs` 2): a chain of
/// that many `super::` reaches the crate root.
fn references(code: &str, depth: usize) -> Vec<String> {
    const LINK: &str = "super::";
    let mut refs = named_after(code, "crate::");
    // Each whole chain of `super::`: one of at least `depth` links may
    // reach the crate root (from an inline module, a longer one does), so
    // the names after the whole chain are checked; only top-level module
    // names are of interest to the caller.
    let mut from = 0;
    while let Some(i) = code[from..].find(LINK) {
        let start = from + i;
        let mut end = start;
        let mut links = 0;
        while code[end..].starts_with(LINK) {
            end += LINK.len();
            links += 1;
        }
        from = end;
        let inside_a_name = code[..start].chars().next_back().is_some_and(is_ident);
        if links >= depth && !inside_a_name {
            names_at(&code[end..], &mut refs);
        }
    }
    refs.retain(|name| !name.is_empty());
    refs
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("readable source directory") {
        let path = entry.expect("readable directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn imports_point_down_the_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    for path in &files {
        let relative = path.strip_prefix(&src).expect("under src/");
        let parts: Vec<&str> = relative
            .iter()
            .map(|p| p.to_str().expect("UTF-8 file name"))
            .collect();
        if parts == ["lib.rs"] || parts == ["main.rs"] {
            continue;
        }
        let module = parts[0].trim_end_matches(".rs");
        let Some(own) = layer(module) else {
            problems.push(format!(
                "{}: top-level module `{module}` has no layer in LAYERS",
                relative.display()
            ));
            continue;
        };
        let depth = parts.len() - usize::from(parts.last() == Some(&"mod.rs"));
        let text = fs::read_to_string(path).expect("readable source file");
        for target in references(&strip_comments(&text), depth) {
            if target == module {
                continue;
            }
            match layer(&target) {
                Some(rank) if rank < own => {}
                Some(rank) => problems.push(format!(
                    "{}: `{module}` (layer {own}) refers to `{target}` (layer {rank})",
                    relative.display()
                )),
                // Items of the crate root that are not modules, or names
                // reached through `super::` from an inline module.
                None => {}
            }
        }
    }
    assert!(
        problems.is_empty(),
        "imports must point down the layers:\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_layer_module_exists() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    for (name, _) in LAYERS {
        assert!(
            lib.contains(&format!("pub mod {name}")),
            "LAYERS names `{name}`, which src/lib.rs does not declare"
        );
    }
}

#[test]
fn the_scanner_finds_every_form_of_path() {
    let code = strip_comments(
        "use crate::eval::psqt;\n\
         // use crate::uci::Engine;\n\
         /// [`crate::tune`]\n\
         let s = \"crate::\\\" crate::uci\"; let q = '\"'; let x = crate::search::Limits::new();\n\
         use crate::{board::Square, movegen::{self, MoveList}, rng};\n\
         use super::super::xboard::Engine;\n\
         use super::attacks;\n\
         mod tests { use super::super::super::{uci::Engine, tune}; }\n\
         /* crate::tune */ let y = $crate::z;",
    );
    let refs = references(&code, 2);
    assert_eq!(
        refs,
        [
            "eval", "search", "board", "movegen", "rng", "xboard", "uci", "tune"
        ],
        "{code}"
    );
}
