//! Finding the table files of a `SyzygyPath` before the prober sees it.
//!
//! The prober (`pyrrhic_rs`) must not be started on a path without tables
//! (it would refuse every later start in the process), splits its path on
//! `:` only, and reads whatever file carries a table's name. So the engine
//! reads the directories itself first: each must exist and be readable,
//! and each file named like a table (`KQvKR.rtbw`, `KPvK.rtbz`, …) must be
//! a whole Syzygy file (its magic number first, a size of 16 mod 64, as
//! Stockfish checks). A directory with a damaged file is left out whole,
//! since the prober would read that file before a good copy elsewhere.
//! What was left out and why is returned for `info string`.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The separator of directories in `SyzygyPath`: `;` on Windows (where `:`
/// follows a drive letter), `:` elsewhere, as in Stockfish.
pub const SEPARATOR: char = if cfg!(windows) { ';' } else { ':' };

/// The first bytes of a WDL file (`.rtbw`).
const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
/// The first bytes of a DTZ file (`.rtbz`).
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];
/// The most pieces (kings included) of any Syzygy table: a file named for
/// more is not one, whatever its first bytes.
const MOST_PIECES: usize = 7;

/// The directories of a `SyzygyPath` that hold usable tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableFiles {
    /// Directories to hand to the prober, in the order given.
    pub dirs: Vec<PathBuf>,
    /// WDL files found in them.
    pub wdl: usize,
    /// DTZ files found in them.
    pub dtz: usize,
    /// Pieces (kings included) of the largest WDL table.
    pub max_pieces: u32,
}

/// Why a directory of `SyzygyPath` is not used.
#[derive(Debug)]
pub enum PathProblem {
    /// It cannot be read (it does not exist, or may not be listed).
    Unreadable(PathBuf, io::Error),
    /// It is not a directory.
    NotADirectory(PathBuf),
    /// A table file in it cannot be read or is not a Syzygy table.
    BadTable {
        /// The file.
        file: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// Its name cannot be given to the prober (it contains the prober's
    /// separator `:` or a NUL byte, or is not Unicode).
    UnusableName(PathBuf),
    /// It holds no table files.
    NoTables(PathBuf),
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable(dir, e) => {
                write!(f, "Syzygy directory {} cannot be read ({e})", dir.display())
            }
            Self::NotADirectory(dir) => {
                write!(f, "Syzygy path {} is not a directory", dir.display())
            }
            Self::BadTable { file, why } => write!(
                f,
                "Syzygy file {} {why}; its directory is not used",
                file.display()
            ),
            Self::UnusableName(dir) => write!(
                f,
                "Syzygy directory {} has a ':' (or NUL) in its name, which the prober cannot take; use a path without one",
                dir.display()
            ),
            Self::NoTables(dir) => {
                write!(f, "Syzygy directory {} holds no tables", dir.display())
            }
        }
    }
}

/// The directories named in `path` (`<empty>` and empty entries name none).
pub fn split_path(path: &str) -> Vec<PathBuf> {
    let path = path.trim();
    if path.is_empty() || path == "<empty>" {
        return Vec::new();
    }
    path.split(SEPARATOR)
        .map(str::trim)
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .collect()
}

/// Reads the directories of `path` and checks their table files; returns
/// the usable directories and what is wrong with the others.
pub fn scan(path: &str) -> (TableFiles, Vec<PathProblem>) {
    let mut found = TableFiles::default();
    let mut problems = Vec::new();
    for dir in split_path(path) {
        match scan_dir(&dir) {
            Ok(tables) if tables.wdl + tables.dtz > 0 => {
                found.wdl += tables.wdl;
                found.dtz += tables.dtz;
                found.max_pieces = found.max_pieces.max(tables.max_pieces);
                found.dirs.push(dir);
            }
            Ok(_) => problems.push(PathProblem::NoTables(dir)),
            Err(problem) => problems.push(problem),
        }
    }
    (found, problems)
}

/// The tables of one directory, or why it cannot be used.
fn scan_dir(dir: &Path) -> Result<TableFiles, PathProblem> {
    let usable = dir
        .to_str()
        .is_some_and(|name| !name.contains(':') && !name.contains('\0'));
    if !usable {
        return Err(PathProblem::UnusableName(dir.to_path_buf()));
    }
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(_) if dir.exists() && !dir.is_dir() => {
            return Err(PathProblem::NotADirectory(dir.to_path_buf()));
        }
        Err(e) => return Err(PathProblem::Unreadable(dir.to_path_buf(), e)),
    };
    let mut tables = TableFiles::default();
    for entry in entries {
        let entry = entry.map_err(|e| PathProblem::Unreadable(dir.to_path_buf(), e))?;
        let file = entry.path();
        let Some((pieces, magic)) = table_name(&entry.file_name().to_string_lossy()) else {
            continue;
        };
        check_table(&file, magic).map_err(|why| PathProblem::BadTable {
            file: file.clone(),
            why,
        })?;
        if magic == WDL_MAGIC {
            tables.wdl += 1;
            tables.max_pieces = tables.max_pieces.max(pieces);
        } else {
            tables.dtz += 1;
        }
    }
    Ok(tables)
}

/// For a file named like a Syzygy table (`KRPvKB.rtbw`): its piece count
/// and the magic number it must start with.
fn table_name(name: &str) -> Option<(u32, [u8; 4])> {
    let (stem, magic) = if let Some(stem) = name.strip_suffix(".rtbw") {
        (stem, WDL_MAGIC)
    } else {
        (name.strip_suffix(".rtbz")?, DTZ_MAGIC)
    };
    let (white, black) = stem.split_once('v')?;
    let side =
        |s: &str| s.starts_with('K') && s[1..].chars().all(|c| "QRBNP".contains(c)) && s.len() <= 7;
    let pieces = white.len() + black.len();
    (side(white) && side(black) && pieces <= MOST_PIECES).then_some((pieces as u32, magic))
}

/// Whether `file` reads as a whole table: the right magic number and a size
/// of 16 mod 64.
fn check_table(file: &Path, magic: [u8; 4]) -> Result<(), String> {
    let mut f = File::open(file).map_err(|e| format!("cannot be read ({e})"))?;
    let size = f
        .metadata()
        .map_err(|e| format!("cannot be read ({e})"))?
        .len();
    let mut head = [0u8; 4];
    f.read_exact(&mut head)
        .map_err(|e| format!("cannot be read ({e})"))?;
    if head != magic {
        return Err("is not a Syzygy table (wrong magic number)".to_string());
    }
    if size % 64 != 16 {
        return Err(format!("is truncated or damaged (size {size} bytes)"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_like_stockfish() {
        assert!(split_path("<empty>").is_empty());
        assert!(split_path("  ").is_empty());
        let sep = SEPARATOR;
        assert_eq!(
            split_path(&format!("a{sep}{sep} b ")),
            vec![PathBuf::from("a"), PathBuf::from("b")]
        );
    }

    #[test]
    fn table_names_give_piece_counts() {
        assert_eq!(table_name("KQvK.rtbw"), Some((3, WDL_MAGIC)));
        assert_eq!(table_name("KRPvKB.rtbz"), Some((5, DTZ_MAGIC)));
        assert_eq!(table_name("KQvK.rtbm"), None);
        assert_eq!(table_name("README.rtbw"), None);
        assert_eq!(table_name("SOURCE.txt"), None);
        // Seven men at most: more would let positions no table holds be
        // probed.
        assert_eq!(table_name("KQRRvKQR.rtbw"), Some((7, WDL_MAGIC)));
        assert_eq!(table_name("KQQQQQQvKQQQQQQ.rtbw"), None);
        assert_eq!(table_name("KQRRvKQRB.rtbw"), None);
    }

    #[test]
    fn damaged_tables_and_missing_directories_are_reported() {
        let dir = std::env::temp_dir().join(format!("kiln-syzygy-scan-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("KQvK.rtbw"), [0u8; 80]).unwrap();
        let missing = dir.join("missing");
        let path = format!("{}{SEPARATOR}{}", dir.display(), missing.display());
        let (found, problems) = scan(&path);
        assert!(found.dirs.is_empty());
        assert_eq!(problems.len(), 2);
        assert!(problems[0].to_string().contains("wrong magic number"));
        assert!(problems[1].to_string().contains("cannot be read"));
        let mut whole = WDL_MAGIC.to_vec();
        whole.resize(80, 0);
        fs::write(dir.join("KQvK.rtbw"), whole).unwrap();
        let (found, problems) = scan(&dir.display().to_string());
        assert!(problems.is_empty());
        assert_eq!((found.wdl, found.dtz, found.max_pieces), (1, 0, 3));
        fs::remove_dir_all(&dir).unwrap();
    }
}
