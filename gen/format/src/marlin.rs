//! Files of positions in marlinformat, the position format of the field:
//! 32-byte packed positions ([`PackedPosition`], as a game file's start
//! positions are stored), one after another with no header, each with its
//! search score (centipawns, White's view) and its game's result. This is
//! the file bullet's marlinformat loader reads, and what viridithas's tools
//! write when they unpack games into positions.
//!
//! ```text
//! position 0..32   a PackedPosition (see [`crate::game`]): occupancy, men,
//!                  side to move and en-passant square, clocks, score i16
//!                  (White's view), result for White (0 loss, 1 draw,
//!                  2 win), extra byte (0)
//! ```
//!
//! With no header, a file of positions is told from the other data files
//! by its first bytes ([`detect`]): a game file starts with `KILNGAME`, a
//! file of the earlier 32-byte records with `KILNDATA`, and text lines
//! never hold a result byte of 0, 1 or 2 where a packed position has it.
//! A plain viriformat file (games without the game file's header) also
//! starts with a packed position; it is read as positions, and fails at
//! its first move. [`crate::game::read_viriformat`] turns it into a game
//! file.
//!
//! The earlier records ([`crate::record`]) hold positions without their
//! moves, so they convert to positions ([`from_record`]), never to games.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::file_error::{FileAction, FileError};
use crate::game::{self, GameFileError, PACKED_BYTES, PackedPosition, PositionFields};
use crate::record::{self, BadRecord, DataError, RECORD_BYTES};

/// Bytes a position takes in a file of positions.
pub const POSITION_BYTES: usize = PACKED_BYTES;

/// What a training-data file holds, as its first bytes tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// A game file ([`crate::game`]): `KILNGAME`, then whole games.
    Games,
    /// The earlier position records ([`crate::record`]): `KILNDATA`, then
    /// 32-byte records with end-of-game markers.
    Records,
    /// Marlinformat positions (this module): no header, 32 bytes each.
    Marlinformat,
    /// Anything else: text lines (`<fen> | <result> | <score>`).
    Text,
}

impl DataKind {
    /// The kind in words, for messages.
    pub fn name(self) -> &'static str {
        match self {
            DataKind::Games => "a game file",
            DataKind::Records => "a file of 32-byte position records (KILNDATA)",
            DataKind::Marlinformat => "a file of marlinformat positions",
            DataKind::Text => "a text file",
        }
    }
}

/// What kind of training data the file at `path` holds, from its first 32
/// bytes.
///
/// # Errors
/// A [`FileError`] when the file cannot be opened or read.
pub fn detect(path: impl AsRef<Path>) -> Result<DataKind, FileError> {
    let path = path.as_ref();
    let mut file = File::open(path).map_err(FileError::on(FileAction::Open, path))?;
    let mut first = [0u8; POSITION_BYTES];
    let mut filled = 0;
    while filled < first.len() {
        match file.read(&mut first[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(FileError::on(FileAction::Read, path)(error)),
        }
    }
    Ok(if filled >= 8 && first[..8] == game::MAGIC {
        DataKind::Games
    } else if filled >= 8 && first[..8] == record::MAGIC {
        DataKind::Records
    } else if filled == POSITION_BYTES && PackedPosition(first).check().is_ok() {
        // Text has a printable byte or a line break where a packed
        // position keeps its result (0, 1 or 2): text never passes.
        DataKind::Marlinformat
    } else {
        DataKind::Text
    })
}

/// The position of a record of the earlier format as a packed position
/// (castling rooks in their corners, as those records imply), or `None`
/// for an end-of-game marker.
///
/// # Errors
/// A [`BadRecord`] when the bytes are no record, or name a castling right
/// whose rook is not in its corner.
pub fn from_record(bytes: &[u8; RECORD_BYTES]) -> Result<Option<PackedPosition>, BadRecord> {
    let (position, white_score, result) = match record::decode(bytes)? {
        record::Record::GameEnd { .. } => return Ok(None),
        record::Record::Position {
            position,
            white_score,
            result,
        } => (position, white_score, result),
    };
    // Bits 0..4: White short (h1), White long (a1), Black short (h8),
    // Black long (a8).
    let corners = [7u8, 0, 63, 56];
    let castling_rooks = corners
        .into_iter()
        .enumerate()
        .filter(|&(bit, _)| position.castling >> bit & 1 == 1)
        .map(|(_, square)| square)
        .collect();
    let fields = PositionFields {
        men: position.men,
        castling_rooks,
        black_to_move: position.black_to_move,
        en_passant: position.en_passant,
        halfmove_clock: position.halfmove_clock,
        fullmove_number: position.fullmove_number,
    };
    let score = white_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
    PackedPosition::pack(&fields, score, result)
        .map(Some)
        .map_err(|error| BadRecord(error.0))
}

/// Reads the positions of a marlinformat file in order.
pub struct PositionReader {
    reader: BufReader<File>,
    path: String,
    offset: u64,
}

impl PositionReader {
    /// Opens a file of positions.
    ///
    /// # Errors
    /// A [`DataError`] when the file cannot be opened.
    pub fn open(path: impl AsRef<Path>) -> Result<PositionReader, DataError> {
        let path = path.as_ref();
        let file = File::open(path).map_err(FileError::on(FileAction::Open, path))?;
        Ok(PositionReader {
            reader: BufReader::with_capacity(1 << 20, file),
            path: path.display().to_string(),
            offset: 0,
        })
    }

    /// The file's name.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The byte offset of the next position.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next position, checked as far as the format goes
    /// ([`PackedPosition::check`]), or `None` at the end of the file.
    ///
    /// # Errors
    /// A [`DataError`] naming the file and the position's byte offset when
    /// the file cannot be read, a position is not one, or the file ends
    /// inside a position.
    pub fn next_position(&mut self) -> Result<Option<PackedPosition>, DataError> {
        let mut bytes = [0u8; POSITION_BYTES];
        let mut filled = 0;
        while filled < bytes.len() {
            match self.reader.read(&mut bytes[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(FileError::on(FileAction::Read, &self.path)(error).into()),
            }
        }
        let corrupt = |detail: String| DataError::Format {
            path: self.path.clone(),
            detail: format!("at byte {}: {detail}", self.offset),
        };
        match filled {
            0 => return Ok(None),
            POSITION_BYTES => {}
            _ => {
                return Err(corrupt(format!(
                    "the file ends {filled} bytes into a {POSITION_BYTES}-byte position \
                     (a plain viriformat file? `kiln-workshop data convert --from viriformat` \
                     reads those)"
                )));
            }
        }
        let position = PackedPosition(bytes);
        position.check().map_err(|error| corrupt(error.0))?;
        self.offset += POSITION_BYTES as u64;
        Ok(Some(position))
    }
}

/// Writes a file of marlinformat positions.
pub struct PositionWriter {
    writer: BufWriter<File>,
    path: String,
}

impl PositionWriter {
    /// Creates (or truncates) a file of positions.
    ///
    /// # Errors
    /// A [`FileError`] when the file cannot be created.
    pub fn create(path: impl AsRef<Path>) -> Result<PositionWriter, FileError> {
        let path = path.as_ref();
        let file = File::create(path).map_err(FileError::on(FileAction::Create, path))?;
        Ok(PositionWriter {
            writer: BufWriter::with_capacity(1 << 20, file),
            path: path.display().to_string(),
        })
    }

    /// Appends a position (buffered: [`flush`](Self::flush) at the end).
    ///
    /// # Errors
    /// A [`FileError`] when the file cannot be written.
    pub fn write(&mut self, position: &PackedPosition) -> Result<(), FileError> {
        self.writer
            .write_all(&position.0)
            .map_err(FileError::on(FileAction::Write, &self.path))
    }

    /// Writes what is buffered to the file.
    ///
    /// # Errors
    /// A [`FileError`] when the file cannot be written.
    pub fn flush(&mut self) -> Result<(), FileError> {
        self.writer
            .flush()
            .map_err(FileError::on(FileAction::Write, &self.path))
    }
}

/// A game file's errors as the readers of training data report them: the
/// file, and the byte offset of the game at fault.
impl From<GameFileError> for DataError {
    fn from(error: GameFileError) -> Self {
        match error {
            GameFileError::File(error) => DataError::File(error),
            GameFileError::Corrupt {
                path,
                offset,
                detail,
            } => DataError::Format {
                path: path.display().to_string(),
                detail: format!("at byte {offset}: {detail}"),
            },
            GameFileError::Truncated { path, offset } => DataError::Format {
                path: path.display().to_string(),
                detail: format!("ends inside the game that starts at byte {offset} (cut short?)"),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{GameResult, Man, Position};

    fn kings(castling: u8) -> Position {
        let man = |square, black, kind| Man {
            square,
            black,
            kind,
        };
        Position {
            men: vec![
                man(0, false, 3),
                man(4, false, 5),
                man(7, false, 3),
                man(56, true, 3),
                man(60, true, 5),
                man(63, true, 3),
            ],
            black_to_move: true,
            en_passant: None,
            halfmove_clock: 3,
            fullmove_number: 17,
            castling,
        }
    }

    #[test]
    fn records_become_positions_with_their_castling_rooks() {
        let bytes = record::encode(&kings(0b1011), -250, GameResult::Loss).unwrap();
        let packed = from_record(&bytes).unwrap().unwrap();
        assert_eq!(packed.fen(), "r3k2r/8/8/8/8/8/8/R3K2R b KQq - 3 17");
        assert_eq!(packed.castling_rooks().collect::<Vec<_>>(), [0, 7, 56]);
        assert_eq!(
            (packed.white_score(), packed.result()),
            (-250, Some(GameResult::Loss))
        );
        assert_eq!(
            from_record(&record::game_marker(3, 4, GameResult::Win)),
            Ok(None)
        );
        // A right whose rook is not in its corner cannot be packed.
        let mut no_rook = kings(0b0001);
        no_rook.men.retain(|man| man.square != 7);
        let bytes = record::encode(&no_rook, 0, GameResult::Draw).unwrap();
        assert!(from_record(&bytes).is_err());
    }

    #[test]
    fn files_of_positions_write_read_and_are_detected() {
        let dir =
            std::env::temp_dir().join(format!("kiln-format-positions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("data.mf");
        let bytes = record::encode(&kings(0b1111), 31, GameResult::Win).unwrap();
        let packed = from_record(&bytes).unwrap().unwrap();
        let mut writer = PositionWriter::create(&path).unwrap();
        writer.write(&packed).unwrap();
        writer.write(&packed).unwrap();
        writer.flush().unwrap();
        drop(writer);
        assert_eq!(detect(&path).unwrap(), DataKind::Marlinformat);
        let mut reader = PositionReader::open(&path).unwrap();
        assert_eq!(reader.next_position().unwrap(), Some(packed));
        assert_eq!(reader.next_position().unwrap(), Some(packed));
        assert_eq!(reader.next_position().unwrap(), None);
        assert_eq!(reader.offset(), 64);

        // Cut short, and corrupt: the file and the offset are named.
        let mut cut = std::fs::read(&path).unwrap();
        cut.truncate(40);
        std::fs::write(&path, &cut).unwrap();
        let mut reader = PositionReader::open(&path).unwrap();
        reader.next_position().unwrap();
        let error = reader.next_position().unwrap_err().to_string();
        assert!(
            error.contains("data.mf") && error.contains("at byte 32"),
            "{error}"
        );
        cut.truncate(32);
        cut[30] = 7;
        std::fs::write(&path, &cut).unwrap();
        assert_eq!(detect(&path).unwrap(), DataKind::Text);
        let error = PositionReader::open(&path)
            .unwrap()
            .next_position()
            .unwrap_err()
            .to_string();
        assert!(error.contains("at byte 0: result byte 7"), "{error}");

        // The other kinds.
        std::fs::write(
            &path,
            b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 0.5 | 12\n",
        )
        .unwrap();
        assert_eq!(detect(&path).unwrap(), DataKind::Text);
        std::fs::write(&path, record::header()).unwrap();
        assert_eq!(detect(&path).unwrap(), DataKind::Records);
        std::fs::write(&path, game::Header::NOT_A_SHARD.to_bytes()).unwrap();
        assert_eq!(detect(&path).unwrap(), DataKind::Games);
        std::fs::write(&path, b"").unwrap();
        assert_eq!(detect(&path).unwrap(), DataKind::Text);
        assert!(detect(dir.join("none")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
