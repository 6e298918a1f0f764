//! Every file format of Kiln's that crosses a process boundary, read and
//! written in one place: the engine's build script, the engine and the
//! workshop (`kiln-workshop`) all go through this crate, so a file one of
//! them writes is exactly what another reads.
//!
//! - [`params`]: the evaluation parameter file `src/eval/params.txt` (text),
//!   and the packed `S(mg, eg)` form its weights are compiled into;
//! - [`net`]: the network file (`.nnue`);
//! - [`game`]: training data as whole self-play games (viriformat with a
//!   header), the format self-play writes;
//! - [`marlin`]: files of marlinformat positions (32 bytes each, no
//!   header), the field's position format, which bullet reads, and how a
//!   data file's kind is told from its first bytes;
//! - [`record`]: the earlier training data, a file of positions (32 bytes
//!   each) with their search scores and game results;
//! - [`FileError`]: the error for a file the system would not let a reader
//!   or writer open, read, create or write.
//!
//! The crate depends on `std` only and knows nothing of the engine's board:
//! positions are stored and read as plain squares and piece codes, and the
//! workshop turns them into boards.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod atomic_write;
mod file_error;
pub mod game;
pub mod marlin;
pub mod net;
pub mod params;
pub mod record;

pub use atomic_write::{partial_path, write_atomically};
pub use file_error::{FileAction, FileError};
