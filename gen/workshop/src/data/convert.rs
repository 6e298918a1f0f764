//! `convert`: game files to plain viriformat and back, and game files or
//! the earlier position records to files of marlinformat positions (the
//! field's position format, which bullet reads). The records hold no
//! moves, so they become positions, never games.

use kiln_format::game::{self, PackedPosition};
use kiln_format::marlin::{self as position_file, DataKind, PositionWriter};
use kiln_format::record::Reader;

use super::game_tools::{each_game, replay_game};
use super::{DataToolError, Target, kind_of, unfiltered, wrong_kind};
use crate::games;
use crate::positions::LoadFilter;

/// Runs `convert`; returns its summary.
pub(super) fn convert(
    input: &str,
    output: &str,
    to: Target,
    filter: &LoadFilter,
) -> Result<String, DataToolError> {
    let kind = kind_of(input)?;
    // Only games turned into positions are replayed and filtered.
    if !(to == Target::Marlinformat && kind == DataKind::Games) {
        unfiltered(input, kind, filter)?;
    }
    match (to, kind) {
        (Target::Viriformat, DataKind::Games) => {
            let games = game::write_viriformat(input, output)?;
            Ok(format!(
                "wrote the {games} games of '{input}' to '{output}' as plain viriformat (no header)"
            ))
        }
        (Target::Viriformat, kind) => {
            Err(wrong_kind(input, kind, "--to viriformat reads a game file"))
        }
        // Plain viriformat has no header: what is not one of the kinds
        // with a header is tried as viriformat.
        (Target::GamesFromViriformat, DataKind::Games | DataKind::Records) => Err(wrong_kind(
            input,
            kind,
            "--from viriformat reads plain viriformat (games without a header)",
        )),
        (Target::GamesFromViriformat, _) => {
            let games = game::read_viriformat(input, output)?;
            Ok(format!(
                "wrote the {games} games of '{input}' to '{output}', a game file (not a shard)"
            ))
        }
        (Target::Marlinformat, DataKind::Games) => games_to_positions(input, output, filter),
        (Target::Marlinformat, DataKind::Records) => records_to_positions(input, output),
        (Target::Marlinformat, kind) => Err(wrong_kind(
            input,
            kind,
            "--to marlinformat reads a game file or a record file",
        )),
    }
}

/// A game file's positions that `filter` keeps as marlinformat positions.
fn games_to_positions(
    input: &str,
    output: &str,
    filter: &LoadFilter,
) -> Result<String, DataToolError> {
    let mut writer = PositionWriter::create(output)?;
    let (mut games, mut written, mut left_out) = (0u64, 0u64, 0u64);
    let (_, cut) = each_game(input, |found| {
        let Some(result) = found.game.result() else {
            // `replay_game` reports it.
            replay_game(input, &found, |_| {})?;
            return Ok(true);
        };
        let mut failed = None;
        replay_game(input, &found, |ply| {
            if failed.is_some() {
                return;
            }
            if !filter.keeps(ply) {
                left_out += 1;
                return;
            }
            // A replayed board always packs (two kings, at most 32 men,
            // rooks behind its castling rights).
            let packed = PackedPosition::pack(&games::fields(&ply.board), ply.white_score, result)
                .unwrap_or_else(|error| unreachable!("a board that does not pack: {error}"));
            match writer.write(&packed) {
                Ok(()) => written += 1,
                Err(error) => failed = Some(error),
            }
        })?;
        if let Some(error) = failed {
            return Err(error.into());
        }
        games += 1;
        Ok(true)
    })?;
    writer.flush()?;
    let cut = if cut {
        format!("; a game cut short at the end of '{input}' left out")
    } else {
        String::new()
    };
    Ok(format!(
        "wrote {written} positions of the {games} games of '{input}' to '{output}' as \
         marlinformat; the load filter left out {left_out}{cut}"
    ))
}

/// A record file's positions as marlinformat positions, whole games only.
fn records_to_positions(input: &str, output: &str) -> Result<String, DataToolError> {
    let mut reader = Reader::open(input)?;
    let mut writer = PositionWriter::create(output)?;
    let (mut games, mut written) = (0u64, 0u64);
    // A game's positions wait for its end-of-game marker: the records
    // after the last one are a game cut short.
    let mut game: Vec<PackedPosition> = Vec::new();
    loop {
        let offset = reader.offset();
        let Some(bytes) = reader.next_record()? else {
            break;
        };
        let bad = |detail: String| DataToolError::BadPosition {
            path: input.to_string(),
            offset,
            detail,
        };
        match position_file::from_record(&bytes).map_err(|error| bad(error.to_string()))? {
            Some(packed) => {
                // Legal, as a board sees it.
                games::unpack(&packed).map_err(|error| bad(error.0))?;
                game.push(packed);
            }
            None => {
                for packed in game.drain(..) {
                    writer.write(&packed)?;
                    written += 1;
                }
                games += 1;
            }
        }
    }
    writer.flush()?;
    Ok(format!(
        "wrote the {written} positions of the {games} games of '{input}' to '{output}' as \
         marlinformat ({} records after the last game's end left out)",
        game.len()
    ))
}
