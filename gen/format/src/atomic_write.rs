//! Writing a file whole or not at all: what a killed writer, or a machine
//! that stops, must never leave half-written (a network, a training
//! checkpoint, a tune's state).

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{FileAction, FileError};

/// The file `bytes` go to before [`write_atomically`] renames it to `path`:
/// `<path>.partial`. One left behind by a killed writer is overwritten by
/// the next write.
pub fn partial_path(path: &Path) -> PathBuf {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    PathBuf::from(partial)
}

/// Writes `bytes` to `path` so that it holds either what it held before or
/// all of `bytes`: to [`partial_path`], synced to the disk, then renamed
/// over `path`, and the folder synced so the rename lasts too (where the
/// system allows a folder to be synced).
///
/// # Errors
/// A [`FileError`] naming the file that could not be created or written.
pub fn write_atomically(path: impl AsRef<Path>, bytes: &[u8]) -> Result<(), FileError> {
    let path = path.as_ref();
    let partial = partial_path(path);
    let mut file = File::create(&partial).map_err(FileError::on(FileAction::Create, &partial))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(FileError::on(FileAction::Write, &partial))?;
    fs::rename(&partial, path).map_err(FileError::on(FileAction::Write, path))?;
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    // Best effort: not every system opens a folder as a file.
    if let Ok(folder) = File::open(folder) {
        let _ = folder.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_replaced_whole_and_nothing_is_left_beside_it() {
        let dir = std::env::temp_dir().join(format!("kiln-format-atomic-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("out.nnue");
        write_atomically(&path, b"first").unwrap();
        // A partial file left by a killed writer is written over.
        fs::write(partial_path(&path), b"half").unwrap();
        write_atomically(&path, b"second, longer").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second, longer");
        assert!(!partial_path(&path).exists());
        let error = write_atomically(dir.join("no such folder").join("x"), b"x").unwrap_err();
        assert!(error.to_string().contains("no such folder"), "{error}");
        fs::remove_dir_all(&dir).unwrap();
    }
}
