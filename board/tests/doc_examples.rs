//! Guard for "docs with an example on every public item": every
//! public item declared in `board/src` must carry a doc comment with a code
//! fence (a doc-test, which `cargo test` then compiles and runs).
//!
//! The scan is line-based and relies on rustfmt's layout:
//!
//! - An item is a line that starts, after indentation, with `pub fn`,
//!   `pub const fn` (and other `fn` qualifiers: `unsafe`, `async`,
//!   `extern`), `pub struct`, `pub enum`, `pub union`, `pub trait`,
//!   `pub const`, `pub static`, `pub type` or `pub mod`. `pub(crate)` and
//!   other restricted visibilities, `pub use` re-exports and struct fields
//!   (`pub name: Type`) are not items here. Inside a `pub trait` block its
//!   `fn`, `type` and `const` lines are items too.
//! - Its doc block is the run of `///` lines right above it, skipping
//!   attribute lines (`#[...]`, also spread over several lines); it passes
//!   when one of them opens a fence (`` ``` ``).
//! - `pub mod name;` is documented by the module's own `//!` block: that
//!   block (at the top of `name.rs` or `name/mod.rs`) must hold a fence.
//!   An inline `pub mod name { ... }` needs `///` docs like any item.
//! - Inline modules that are not `pub` (`mod tests { ... }` under
//!   `#[cfg(test)]`, `pub(crate) mod ...`) are skipped up to their closing
//!   brace at the same indentation: nothing in them is public API. (The
//!   scan does not stop at the test module: public items may follow it.)
//!
//! The test fails listing `file:line item` for each public item without an
//! example.

use std::fs;
use std::path::{Path, PathBuf};

/// A public item found by the scan.
#[derive(Debug, PartialEq, Eq)]
struct Item {
    /// 1-based line of the declaration.
    line: usize,
    /// `fn name`, `struct Name`, `mod name;` …
    what: String,
    /// Whether its documentation holds a code fence.
    has_example: bool,
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("readable source directory") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// The identifier at the start of `s` (`from_fen(fen: &str)` → `from_fen`).
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// `fn name`, `struct Name` … when `decl` (a trimmed line after `pub `)
/// declares an item; `None` for a field, a re-export or anything else.
fn item_kind(decl: &str) -> Option<String> {
    let words: Vec<&str> = decl.split_whitespace().collect();
    // `const fn`, `unsafe fn`, `const unsafe fn`, `extern "C" fn`, `async fn`.
    let qualifiers = ["const", "unsafe", "async", "extern", "\"C\""];
    if let Some(at) = words.iter().position(|w| *w == "fn") {
        if words[..at].iter().all(|w| qualifiers.contains(w)) {
            return words.get(at + 1).map(|name| format!("fn {}", ident(name)));
        }
    }
    let keyword = *words.first()?;
    match keyword {
        "struct" | "enum" | "union" | "trait" | "const" | "static" | "type" | "mod" => {
            let mut name = words.get(1).copied().unwrap_or_default();
            if keyword == "static" && name == "mut" {
                name = words.get(2).copied().unwrap_or_default();
            }
            Some(format!("{keyword} {}", ident(name)))
        }
        _ => None,
    }
}

/// Whether the `///` block right above line `at` (attributes skipped)
/// holds a code fence.
fn doc_above_has_fence(lines: &[&str], at: usize) -> bool {
    let mut i = at;
    // Skip attributes, single-line or spread over several lines.
    while i > 0 {
        let above = lines[i - 1].trim();
        if above.starts_with("#[") {
            i -= 1;
        } else if above.ends_with(")]") {
            // The last line of a multi-line attribute: back to its `#[`.
            let mut j = i - 1;
            while j > 0 && !lines[j].trim().starts_with("#[") {
                j -= 1;
            }
            i = j;
        } else {
            break;
        }
    }
    let mut fence = false;
    while i > 0 {
        let above = lines[i - 1].trim();
        let Some(text) = above.strip_prefix("///") else {
            break;
        };
        fence |= text.trim_start().starts_with("```");
        i -= 1;
    }
    fence
}

/// Whether the `//!` block at the top of `source` holds a code fence.
fn module_doc_has_fence(source: &str) -> bool {
    source
        .lines()
        .map(str::trim)
        .take_while(|l| l.starts_with("//!") || l.is_empty())
        .filter_map(|l| l.strip_prefix("//!"))
        .any(|text| text.trim_start().starts_with("```"))
}

/// The public items of one file's `source`; `module_file(name)` reads the
/// file of a `pub mod name;` child, if there is one.
fn scan(source: &str, module_file: impl Fn(&str) -> Option<String>) -> Vec<Item> {
    let lines: Vec<&str> = source.lines().collect();
    let mut items = Vec::new();
    // Indentation of the private inline module being skipped.
    let mut skipping: Option<usize> = None;
    // Indentation of the `pub trait` whose body is being read.
    let mut in_trait: Option<usize> = None;
    for (at, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        let indent = indentation(line);
        if let Some(depth) = skipping {
            if indent == depth && trimmed.starts_with('}') {
                skipping = None;
            }
            continue;
        }
        if let Some(depth) = in_trait {
            if indent == depth && trimmed.starts_with('}') {
                in_trait = None;
                continue;
            }
            let bare = trimmed
                .strip_prefix("unsafe ")
                .or_else(|| trimmed.strip_prefix("async "))
                .unwrap_or(trimmed);
            for keyword in ["fn ", "type ", "const "] {
                if let Some(rest) = bare.strip_prefix(keyword) {
                    items.push(Item {
                        line: at + 1,
                        what: format!("{}{}", keyword, ident(rest)),
                        has_example: doc_above_has_fence(&lines, at),
                    });
                }
            }
            continue;
        }
        // An inline module that is not `pub`: its contents are not public.
        let private_mod = trimmed.starts_with("mod ")
            || (trimmed.starts_with("pub(") && trimmed.contains(") mod "));
        if private_mod && trimmed.ends_with('{') {
            skipping = Some(indent);
            continue;
        }
        let Some(decl) = trimmed.strip_prefix("pub ") else {
            continue;
        };
        let Some(what) = item_kind(decl) else {
            continue;
        };
        let has_example = if what.starts_with("mod ") && trimmed.ends_with(';') {
            let name = what.trim_start_matches("mod ");
            module_file(name).is_some_and(|text| module_doc_has_fence(&text))
        } else {
            doc_above_has_fence(&lines, at)
        };
        if what.starts_with("trait ") && trimmed.ends_with('{') {
            in_trait = Some(indent);
        }
        items.push(Item {
            line: at + 1,
            what: if what.starts_with("mod ") && trimmed.ends_with(';') {
                format!("{what};")
            } else {
                what
            },
            has_example,
        });
    }
    items
}

#[test]
fn every_public_item_has_a_doc_example() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    let mut found = 0;
    for path in rust_files(&src) {
        let source = fs::read_to_string(&path).expect("readable source file");
        // `pub mod name;` in `dir/lib.rs` or `dir/x/mod.rs` lives in
        // `dir/name.rs` or `dir/name/mod.rs`; in `dir/x.rs`, under `dir/x/`.
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let parent = path.parent().expect("a file has a directory");
        let children = if matches!(stem, "lib" | "main" | "mod") {
            parent.to_path_buf()
        } else {
            parent.join(stem)
        };
        let module_file = |name: &str| {
            fs::read_to_string(children.join(format!("{name}.rs")))
                .or_else(|_| fs::read_to_string(children.join(name).join("mod.rs")))
                .ok()
        };
        let shown = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(&path);
        for item in scan(&source, module_file) {
            found += 1;
            if !item.has_example {
                missing.push(format!("{}:{} {}", shown.display(), item.line, item.what));
            }
        }
    }
    // The scan must see the API at all (a layout change must not make the
    // guard pass vacuously).
    assert!(found >= 100, "only {found} public items found in {src:?}");
    assert!(
        missing.is_empty(),
        "{} public item(s) without a doc example (a ``` block in its /// docs):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn the_scan_reads_items_traits_modules_and_skips_tests() {
    let source = r#"//! A module.

/// Documented.
///
/// ```
/// assert!(true);
/// ```
#[inline]
#[cfg_attr(
    feature = "x",
    allow(dead_code)
)]
pub const fn with_example() {}

/// No example.
pub fn without_example() {}

pub(crate) fn restricted() {}
pub use core::fmt;

/// A struct.
pub struct Holder {
    /// A field.
    pub field: u8,
}

/// A trait.
///
/// ```
/// ```
pub trait Sink {
    /// A method without an example.
    fn push(&mut self);
    /// A method with one.
    ///
    /// ```
    /// ```
    fn done(&self) {}
}

pub(crate) mod private {
    pub const HIDDEN: u8 = 0;
}

pub mod child;
pub mod missing;

#[cfg(test)]
mod tests {
    pub fn helper() {}
}

/// After the tests.
pub static AFTER: u8 = 0;
"#;
    let module_file = |name: &str| match name {
        "child" => Some("//! Child.\n//!\n//! ```\n//! ```\n".to_string()),
        _ => None,
    };
    let items: Vec<(String, bool)> = scan(source, module_file)
        .into_iter()
        .map(|item| (item.what, item.has_example))
        .collect();
    let expected = [
        ("fn with_example", true),
        ("fn without_example", false),
        ("struct Holder", false),
        ("trait Sink", true),
        ("fn push", false),
        ("fn done", true),
        ("mod child;", true),
        ("mod missing;", false),
        ("static AFTER", false),
    ];
    let expected: Vec<(String, bool)> = expected
        .iter()
        .map(|&(what, example)| (what.to_string(), example))
        .collect();
    assert_eq!(items, expected);
}
