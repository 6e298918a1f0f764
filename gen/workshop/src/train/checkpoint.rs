//! Where a `kiln-workshop train` run stands after each epoch, kept in
//! `<out>.checkpoint` so that a run killed part-way goes on from its last
//! finished epoch when the same command is given again.
//!
//! A checkpoint holds the float network, the Adam state of each of its
//! parts and each finished epoch's losses. It does not hold the order of
//! the positions: every epoch's shuffle and mirroring draws follow from
//! the seed alone, so the resumed run draws the finished epochs' again
//! without training on them, and writes the same network, byte for byte,
//! as a run that was never stopped.
//!
//! A checkpoint belongs to one run: the settings that shape the training
//! ([`Identity::settings`]) and the positions loaded, counted and hashed,
//! are part of it, and a run with other settings or data refuses it
//! rather than mixing two runs.
//!
//! The file, little-endian:
//!
//! ```text
//! magic            b"KILNCKPT"
//! version          u32 (1)
//! settings         u32 length, then that many bytes of UTF-8
//! positions        u64: training and held-out positions loaded
//! data hash        u64: FNV-1a of every position's 32 bytes, in load order
//! epochs           u32: finished epochs, then for each: the mean training
//!                  loss (f64), a held-out flag (u8) and loss (f64)
//! parts            u32 count, then for each part of the network: u64
//!                  length n, n weights, n first and n second moment
//!                  estimates (f32 each), Adam's steps (i32)
//! trailer          u64: FNV-1a of every byte before it
//! ```

use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use super::data::Position;
use super::model::Network;
use crate::fit::{Adam, EpochLoss};
use kiln_format::net::{FNV1A64_START, fnv1a64, fnv1a64_continue};
use kiln_format::{FileAction, FileError};

/// The first bytes of a checkpoint.
const MAGIC: &[u8; 8] = b"KILNCKPT";
/// The layout written.
const VERSION: u32 = 1;

/// The file that keeps the state of a run writing the network `out`.
pub fn path_for(out: &str) -> PathBuf {
    PathBuf::from(format!("{out}.checkpoint"))
}

/// Removes the checkpoint at `path`, and what a run killed while writing
/// it left beside it: nothing of a finished run stays behind. Files that
/// are not there are no error.
pub fn remove(path: &Path) -> std::io::Result<()> {
    for file in [kiln_format::partial_path(path), path.to_path_buf()] {
        match fs::remove_file(&file) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(error),
            _ => {}
        }
    }
    Ok(())
}

/// What a checkpoint belongs to: the run's settings and data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// `name=value` pairs, space-separated, of every setting that shapes
    /// the training.
    pub settings: String,
    /// Training and held-out positions loaded.
    pub positions: u64,
    /// FNV-1a of their bytes in load order (training, then held out).
    pub data_hash: u64,
}

impl Identity {
    /// The identity of a run on `training` then `held_out` positions with
    /// `settings`.
    pub fn new(settings: String, training: &[Position], held_out: &[Position]) -> Identity {
        let data_hash = training
            .iter()
            .chain(held_out)
            .fold(FNV1A64_START, |hash, position| {
                fnv1a64_continue(hash, position.bytes())
            });
        Identity {
            settings,
            positions: (training.len() + held_out.len()) as u64,
            data_hash,
        }
    }

    /// Why a checkpoint of `self` cannot go on as a run of `now`, if not.
    fn mismatch(&self, now: &Identity) -> Option<String> {
        if self.settings != now.settings {
            let then: Vec<&str> = self.settings.split(' ').collect();
            let differing = now
                .settings
                .split(' ')
                .zip(&then)
                .find(|(now, then)| now != *then);
            return Some(match differing {
                Some((now, then)) => format!("it was written with {then}, this run has {now}"),
                None => format!(
                    "its settings '{}' are not this run's '{}'",
                    self.settings, now.settings
                ),
            });
        }
        if self.positions != now.positions || self.data_hash != now.data_hash {
            return Some(format!(
                "it was written on other data ({} positions, hash {:016x}; this run loaded {}, \
                 hash {:016x})",
                self.positions, self.data_hash, now.positions, now.data_hash
            ));
        }
        None
    }
}

/// A run's state after its last finished epoch.
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The run it belongs to.
    pub identity: Identity,
    /// Each finished epoch's losses, from epoch 1.
    pub epochs: Vec<EpochLoss>,
    /// The network's parts, in the order of [`Network::parts`].
    pub parts: Vec<Vec<f32>>,
    /// The optimiser of each part.
    pub optimisers: Vec<Adam<f32>>,
}

/// Why a checkpoint could not be used or kept.
#[derive(Debug)]
pub enum CheckpointError {
    /// The file could not be read or written.
    File(FileError),
    /// The file is not a whole checkpoint.
    Corrupt {
        /// The checkpoint.
        path: PathBuf,
        /// What is wrong with it.
        why: String,
    },
    /// The checkpoint belongs to another run.
    OtherRun {
        /// The checkpoint.
        path: PathBuf,
        /// How the runs differ.
        why: String,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::File(error) => error.fmt(f),
            CheckpointError::Corrupt { path, why } => write!(
                f,
                "'{}' is not a usable checkpoint ({why}); delete it to train from the start",
                path.display()
            ),
            CheckpointError::OtherRun { path, why } => write!(
                f,
                "'{}' is the checkpoint of another run: {why}; give that run's command to finish \
                 it, or delete the file to train from the start",
                path.display()
            ),
        }
    }
}

impl std::error::Error for CheckpointError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckpointError::File(error) => Some(error),
            CheckpointError::Corrupt { .. } | CheckpointError::OtherRun { .. } => None,
        }
    }
}

impl Checkpoint {
    /// The state of a run after its epochs `epochs`.
    pub fn capture(
        identity: &Identity,
        epochs: &[EpochLoss],
        net: &Network,
        optimisers: &[Adam<f32>],
    ) -> Checkpoint {
        Checkpoint {
            identity: identity.clone(),
            epochs: epochs.to_vec(),
            parts: net.parts().iter().map(|part| part.to_vec()).collect(),
            optimisers: optimisers.to_vec(),
        }
    }

    /// Puts the saved weights into `net`, which has the run's shape.
    /// `None` if the shapes differ (a checkpoint of the same settings
    /// always fits).
    pub fn restore_into(&self, net: &mut Network) -> Option<()> {
        let parts = net.parts_mut();
        if parts.len() != self.parts.len() {
            return None;
        }
        for (part, saved) in parts.into_iter().zip(&self.parts) {
            if part.len() != saved.len() {
                return None;
            }
            part.copy_from_slice(saved);
        }
        Some(())
    }

    /// The file's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        let settings = self.identity.settings.as_bytes();
        bytes.extend_from_slice(&(settings.len() as u32).to_le_bytes());
        bytes.extend_from_slice(settings);
        bytes.extend_from_slice(&self.identity.positions.to_le_bytes());
        bytes.extend_from_slice(&self.identity.data_hash.to_le_bytes());
        bytes.extend_from_slice(&(self.epochs.len() as u32).to_le_bytes());
        for epoch in &self.epochs {
            bytes.extend_from_slice(&epoch.loss.to_le_bytes());
            bytes.push(u8::from(epoch.held_out.is_some()));
            bytes.extend_from_slice(&epoch.held_out.unwrap_or(0.0).to_le_bytes());
        }
        bytes.extend_from_slice(&(self.parts.len() as u32).to_le_bytes());
        for (part, optimiser) in self.parts.iter().zip(&self.optimisers) {
            let (first, second, steps) = optimiser.state();
            bytes.extend_from_slice(&(part.len() as u64).to_le_bytes());
            for values in [part.as_slice(), first, second] {
                values
                    .iter()
                    .for_each(|v| bytes.extend_from_slice(&v.to_le_bytes()));
            }
            bytes.extend_from_slice(&steps.to_le_bytes());
        }
        let checksum = fnv1a64(&bytes);
        bytes.extend_from_slice(&checksum.to_le_bytes());
        bytes
    }

    /// Reads a checkpoint from `bytes`; the error says what is wrong.
    pub fn decode(bytes: &[u8]) -> Result<Checkpoint, String> {
        let Some(body_len) = bytes.len().checked_sub(8) else {
            return Err(format!(
                "{} bytes, shorter than any checkpoint",
                bytes.len()
            ));
        };
        let (body, trailer) = bytes.split_at(body_len);
        let mut reader = Reader { bytes: body, at: 0 };
        if reader.take(MAGIC.len())? != MAGIC {
            return Err("it does not start with KILNCKPT".into());
        }
        let version = reader.u32()?;
        if version != VERSION {
            return Err(format!(
                "layout version {version}, this workshop reads {VERSION}"
            ));
        }
        let checksum = u64::from_le_bytes(trailer.try_into().map_err(|_| "no trailer")?);
        if checksum != fnv1a64(body) {
            return Err("its checksum does not match: truncated or damaged".into());
        }
        let settings_len = reader.u32()? as usize;
        let settings = std::str::from_utf8(reader.take(settings_len)?)
            .map_err(|_| "its settings are not UTF-8")?
            .to_string();
        let identity = Identity {
            settings,
            positions: reader.u64()?,
            data_hash: reader.u64()?,
        };
        let epoch_count = reader.u32()?;
        let mut epochs = Vec::new();
        for epoch in 1..=epoch_count {
            let loss = reader.f64()?;
            let has_held_out = reader.take(1)?[0] != 0;
            let held_out = reader.f64()?;
            epochs.push(EpochLoss {
                epoch,
                loss,
                held_out: has_held_out.then_some(held_out),
            });
        }
        let part_count = reader.u32()?;
        let (mut parts, mut optimisers) = (Vec::new(), Vec::new());
        for _ in 0..part_count {
            let len = usize::try_from(reader.u64()?).map_err(|_| "a part too long")?;
            let part = reader.f32s(len)?;
            let first = reader.f32s(len)?;
            let second = reader.f32s(len)?;
            let steps = reader.i32()?;
            parts.push(part);
            optimisers
                .push(Adam::from_state(first, second, steps).ok_or("moment estimates differ")?);
        }
        if reader.at != body.len() {
            return Err(format!(
                "{} bytes after the last part",
                body.len() - reader.at
            ));
        }
        Ok(Checkpoint {
            identity,
            epochs,
            parts,
            optimisers,
        })
    }

    /// Writes the checkpoint to `path` whole or not at all: to a file
    /// beside it, synced, then renamed over it, so a run killed while
    /// writing leaves the checkpoint before.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        kiln_format::write_atomically(path, &self.encode())
    }

    /// The checkpoint at `path` if there is one, checked to belong to the
    /// run `identity`.
    pub fn load(path: &Path, identity: &Identity) -> Result<Option<Checkpoint>, CheckpointError> {
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => {
                return Err(CheckpointError::File(
                    FileError::on(FileAction::Read, path)(error),
                ));
            }
        };
        let checkpoint = Checkpoint::decode(&bytes).map_err(|why| CheckpointError::Corrupt {
            path: path.to_path_buf(),
            why,
        })?;
        if let Some(why) = checkpoint.identity.mismatch(identity) {
            return Err(CheckpointError::OtherRun {
                path: path.to_path_buf(),
                why,
            });
        }
        Ok(Some(checkpoint))
    }
}

/// Reads the fields of a checkpoint in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(count)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| format!("it ends inside a field at byte {}", self.at))?;
        let field = &self.bytes[self.at..end];
        self.at = end;
        Ok(field)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        let mut array = [0; N];
        array.copy_from_slice(self.take(N)?);
        Ok(array)
    }

    fn u32(&mut self) -> Result<u32, String> {
        self.array().map(u32::from_le_bytes)
    }

    fn i32(&mut self) -> Result<i32, String> {
        self.array().map(i32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, String> {
        self.array().map(u64::from_le_bytes)
    }

    fn f64(&mut self) -> Result<f64, String> {
        self.array().map(f64::from_le_bytes)
    }

    fn f32s(&mut self, count: usize) -> Result<Vec<f32>, String> {
        let bytes = self.take(count.checked_mul(4).ok_or("a part too long")?)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_format::net::KingBuckets;

    fn sample() -> Checkpoint {
        let net = Network::random(16, KingBuckets::NONE, 2, false, 3);
        let mut optimisers: Vec<Adam<f32>> =
            net.parts().iter().map(|p| Adam::new(p.len())).collect();
        let mut weights = net.parts()[1].to_vec();
        optimisers[1].step(0.01, &mut weights, |i, _| Some(i as f32 - 3.0));
        let identity = Identity {
            settings: "hidden=16 epochs=2".into(),
            positions: 40,
            data_hash: 0x1234,
        };
        let epochs = [EpochLoss {
            epoch: 1,
            loss: 0.25,
            held_out: Some(0.5),
        }];
        Checkpoint::capture(&identity, &epochs, &net, &optimisers)
    }

    #[test]
    fn a_checkpoint_reads_back_as_written() {
        let checkpoint = sample();
        let bytes = checkpoint.encode();
        let read = Checkpoint::decode(&bytes).expect("a checkpoint just written");
        assert_eq!(read.identity, checkpoint.identity);
        assert_eq!(read.epochs, checkpoint.epochs);
        assert_eq!(read.parts, checkpoint.parts);
        for (read, written) in read.optimisers.iter().zip(&checkpoint.optimisers) {
            assert_eq!(read.state(), written.state());
        }
        assert_eq!(read.encode(), bytes);
    }

    #[test]
    fn a_damaged_or_truncated_checkpoint_is_refused() {
        let bytes = sample().encode();
        for cut in [0, 7, 8, 20, bytes.len() / 2, bytes.len() - 1] {
            assert!(Checkpoint::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut flipped = bytes.clone();
        flipped[bytes.len() / 2] ^= 1;
        let error = Checkpoint::decode(&flipped).expect_err("a flipped bit");
        assert!(error.contains("checksum"), "{error}");
        let mut other = bytes;
        other[0] = b'X';
        assert!(Checkpoint::decode(&other).is_err());
    }

    #[test]
    fn another_runs_checkpoint_names_the_difference() {
        let saved = sample().identity;
        let now = Identity {
            settings: "hidden=16 epochs=3".into(),
            ..saved.clone()
        };
        let why = saved.mismatch(&now).expect("other settings");
        assert!(
            why.contains("epochs=2") && why.contains("epochs=3"),
            "{why}"
        );
        let now = Identity {
            data_hash: 0x4321,
            ..saved.clone()
        };
        assert!(
            saved
                .mismatch(&now)
                .expect("other data")
                .contains("other data")
        );
        assert_eq!(saved.mismatch(&saved), None);
    }
}
