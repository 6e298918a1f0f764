//! Keeping a second process off a file that a long job writes: an
//! exclusive lock on a file beside it, `<file>.lock`, held while the job
//! runs and released by the system when the job ends however it ends. The
//! lock is on a file of its own, left in place, because a lock on the
//! written file itself is mandatory on some systems (it would refuse the
//! job's own writes through another handle), and removing the lock file
//! could let two jobs lock two files of one name.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use kiln_format::{FileAction, FileError};

/// The lock file of `path`: `<path>.lock`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut lock = path.as_os_str().to_owned();
    lock.push(".lock");
    PathBuf::from(lock)
}

/// Takes the exclusive lock of `path` ([`lock_path`], created if need
/// be), held while the returned file is open; `None` when another process
/// holds it.
///
/// # Errors
/// A [`FileError`] when the lock file cannot be opened or locked.
pub fn try_lock_beside(path: &Path) -> Result<Option<File>, FileError> {
    let lock = lock_path(path);
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map_err(FileError::on(FileAction::Create, &lock))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(source)) => Err(FileError::on(FileAction::Lock, &lock)(source)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_kept_off_until_the_first_lets_go() {
        let dir = std::env::temp_dir().join(format!("kiln-workshop-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("shard.games");
        let first = try_lock_beside(&path).unwrap().expect("the lock");
        assert!(try_lock_beside(&path).unwrap().is_none(), "held");
        drop(first);
        assert!(try_lock_beside(&path).unwrap().is_some(), "released");
        assert!(lock_path(&path).ends_with("shard.games.lock"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
