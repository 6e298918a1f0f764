//! The error every reader and writer reports for a file the system would
//! not let it open, read, create or write: which file, what was being done,
//! and the system's own error as the source.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// What a reader or writer was doing to a file when it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    /// Opening an existing file for reading.
    Open,
    /// Reading from it.
    Read,
    /// Creating (or truncating) it for writing.
    Create,
    /// Writing to it.
    Write,
    /// Taking a lock on it.
    Lock,
}

impl FileAction {
    /// The verb of the message: `cannot <verb> '<path>'`.
    fn verb(self) -> &'static str {
        match self {
            FileAction::Open => "open",
            FileAction::Read => "read",
            FileAction::Create => "create",
            FileAction::Write => "write",
            FileAction::Lock => "lock",
        }
    }
}

/// A file operation that failed.
#[derive(Debug)]
pub struct FileError {
    /// What was being done.
    pub action: FileAction,
    /// The file.
    pub path: PathBuf,
    /// What the system said.
    pub source: io::Error,
}

impl FileError {
    /// A `map_err` adapter: the error of `action` on `path`.
    pub fn on(action: FileAction, path: impl AsRef<Path>) -> impl FnOnce(io::Error) -> FileError {
        let path = path.as_ref().to_path_buf();
        move |source| FileError {
            action,
            path,
            source,
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot {} '{}': {}",
            self.action.verb(),
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for FileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_names_the_action_and_the_file() {
        let error = FileError::on(FileAction::Create, "out/x.txt")(io::Error::new(
            io::ErrorKind::NotFound,
            "no such folder",
        ));
        assert_eq!(
            error.to_string(),
            "cannot create 'out/x.txt': no such folder"
        );
        assert!(std::error::Error::source(&error).is_some());
    }
}
