//! The data tools on game files ([`kiln_format::game`]), and `stats`,
//! `validate` and `show` on files of positions too. Game files are read
//! a game at a time (`shuffle` alone holds every game in memory, to
//! reorder them); the tools that move games make two passes over their
//! input rather than hold games. A game cut short at the end of a file (a
//! self-play run killed while writing it) is left out of every output and
//! named in the summary; `validate` reports it as a problem.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;

use kiln::rng::Rng;
use kiln_format::game::{Game, GameFileError, GameReader, GameWriter, Header};
use kiln_format::marlin::{DataKind, PositionReader};
use kiln_format::record::{self, DataError, GameResult, Reader};

use super::{DataToolError, Held, kind_of, split_summary, tail_start, wrong_kind};
use crate::games::{self as replay, Ply};
use crate::positions::{self, LoadFilter};

/// A game of a game file, with where it is.
pub(super) struct Found {
    /// Its index in the file (in a shard, its game number).
    pub index: u64,
    /// The byte offset it starts at.
    pub offset: u64,
    /// The game.
    pub game: Game,
}

/// Refuses a file that is not a game file.
pub(super) fn require_games(path: &str, tool: &str) -> Result<(), DataToolError> {
    match kind_of(path)? {
        DataKind::Games => Ok(()),
        kind => Err(wrong_kind(path, kind, &format!("{tool} reads game files"))),
    }
}

/// Hands each whole game of a game file to `each` until it returns
/// `false`; returns the file's header and whether it ends with a game
/// cut short.
pub(super) fn each_game(
    path: &str,
    mut each: impl FnMut(Found) -> Result<bool, DataToolError>,
) -> Result<(Header, bool), DataToolError> {
    let mut reader = GameReader::open(path)?;
    let header = reader.header();
    let mut index = 0;
    loop {
        let offset = reader.offset();
        match reader.next_game() {
            Ok(Some(game)) => {
                if !each(Found {
                    index,
                    offset,
                    game,
                })? {
                    return Ok((header, false));
                }
                index += 1;
            }
            Ok(None) => return Ok((header, false)),
            Err(GameFileError::Truncated { .. }) => return Ok((header, true)),
            Err(error) => return Err(error.into()),
        }
    }
}

/// Replays a game of `path`, handing each ply to `each`; a game that does
/// not replay is an error naming the file, the game's offset and the ply.
pub(super) fn replay_game(
    path: &str,
    found: &Found,
    each: impl FnMut(&Ply),
) -> Result<GameResult, DataToolError> {
    replay::replay(&found.game, each).map_err(|error| DataToolError::Replay {
        path: path.to_string(),
        offset: found.offset,
        error,
    })
}

/// The positions of a game that `filter` keeps.
fn kept(path: &str, found: &Found, filter: &LoadFilter) -> Result<u64, DataToolError> {
    let mut kept = 0;
    replay_game(path, found, |ply| kept += u64::from(filter.keeps(ply)))?;
    Ok(kept)
}

/// The words a summary ends with when a file ended with a game cut short.
fn cut_note(cut: bool, path: &str) -> String {
    if cut {
        format!("; a game cut short at the end of '{path}' left out")
    } else {
        String::new()
    }
}

/// A game's identity, to find duplicates: 128 bits of hash of its bytes
/// (two 64-bit SipHashes of the bytes behind different prefixes). Two
/// different games among a billion share one with a chance near 10^-21,
/// and the set of them takes 16 bytes a game rather than the games' bytes.
fn game_key(game: &Game) -> u128 {
    let bytes = game.to_bytes();
    let half = |prefix: u8| {
        let mut hasher = DefaultHasher::new();
        prefix.hash(&mut hasher);
        bytes.hash(&mut hasher);
        hasher.finish()
    };
    u128::from(half(0)) << 64 | u128::from(half(1))
}

/// What the tools that split games say they counted.
const KEPT: &str = " (kept by the load filter)";

/// `holdout` on a game file: the held games moved to the end, or written
/// to a file of their own (`apart`).
pub(super) fn holdout(
    input: &str,
    output: &str,
    held: &Held,
    apart: Option<&str>,
    filter: &LoadFilter,
) -> Result<String, DataToolError> {
    let is_held: Box<dyn Fn(&Found) -> bool> = match held {
        Held::Numbers(range) => {
            let range = range.clone();
            Box::new(move |found| range.contains(&found.index))
        }
        Held::Like { file, fraction } => {
            // Games are known by their bytes: the other file may hold them
            // in any order, shuffled or merged.
            require_games(file, "holdout --like on a game file")?;
            let (mut keys, mut sizes) = (Vec::new(), Vec::new());
            each_game(file, |found| {
                sizes.push(kept(file, &found, filter)?);
                keys.push(game_key(&found.game));
                Ok(true)
            })?;
            let held: HashSet<u128> = keys[tail_start(&sizes, *fraction)..]
                .iter()
                .copied()
                .collect();
            Box::new(move |found| held.contains(&game_key(&found.game)))
        }
    };
    let mut writer = GameWriter::create(output, Header::NOT_A_SHARD)?;
    let mut positions = [0u64; 2];
    let mut cut = false;
    if let Some(apart) = apart {
        // One pass, each game to its file.
        let mut held_writer = GameWriter::create(apart, Header::NOT_A_SHARD)?;
        (_, cut) = each_game(input, |found| {
            let pass = is_held(&found);
            positions[usize::from(pass)] += kept(input, &found, filter)?;
            let to = if pass { &mut held_writer } else { &mut writer };
            to.write_game(&found.game)?;
            Ok(true)
        })?;
        writer.flush()?;
        held_writer.flush()?;
        return Ok(format!(
            "{} training positions in {output}, {} held out in {apart}{KEPT}: --held-out {apart}{}",
            positions[0],
            positions[1],
            cut_note(cut, input)
        ));
    }
    // Two passes: the training games, then the held-out ones.
    for pass in [false, true] {
        (_, cut) = each_game(input, |found| {
            if is_held(&found) == pass {
                positions[usize::from(pass)] += kept(input, &found, filter)?;
                writer.write_game(&found.game)?;
            }
            Ok(true)
        })?;
    }
    writer.flush()?;
    Ok(split_summary(positions[0], positions[1], KEPT) + &cut_note(cut, input))
}

/// `subset` on a game file: the first share of the training games, then
/// the held-out tail.
pub(super) fn subset(
    input: &str,
    output: &str,
    fraction: f64,
    holdout: f64,
    filter: &LoadFilter,
) -> Result<String, DataToolError> {
    let mut sizes = Vec::new();
    each_game(input, |found| {
        sizes.push(kept(input, &found, filter)?);
        Ok(true)
    })?;
    let cut = tail_start(&sizes, holdout);
    let keep = (cut as f64 * fraction) as usize;
    let mut writer = GameWriter::create(output, Header::NOT_A_SHARD)?;
    let (_, cut_short) = each_game(input, |found| {
        let index = found.index as usize;
        if index < keep || index >= cut {
            writer.write_game(&found.game)?;
        }
        Ok(true)
    })?;
    writer.flush()?;
    let (train, held) = (sizes[..keep].iter().sum(), sizes[cut..].iter().sum());
    Ok(split_summary(train, held, KEPT) + &cut_note(cut_short, input))
}

/// `merge`: the inputs' games one from each in turn, duplicates dropped.
pub(super) fn merge(output: &str, inputs: &[String]) -> Result<String, DataToolError> {
    let mut readers = Vec::new();
    for input in inputs {
        require_games(input, "merge")?;
        readers.push(GameReader::open(input)?);
    }
    let mut writer = GameWriter::create(output, Header::NOT_A_SHARD)?;
    let mut seen: HashSet<u128> = HashSet::new();
    let (mut games, mut positions, mut dropped) = (0u64, 0u64, 0u64);
    let mut cut: Vec<String> = Vec::new();
    while !readers.is_empty() {
        // One game from each input in turn, so that shards of different
        // seeds (or runs) mix through the whole output.
        let mut next = 0;
        while next < readers.len() {
            match readers[next].next_game() {
                Ok(Some(game)) => {
                    if seen.insert(game_key(&game)) {
                        writer.write_game(&game)?;
                        games += 1;
                        positions += game.moves.len() as u64;
                    } else {
                        dropped += 1;
                    }
                    next += 1;
                }
                Ok(None) => {
                    readers.remove(next);
                }
                Err(GameFileError::Truncated { path, .. }) => {
                    cut.push(path.display().to_string());
                    readers.remove(next);
                }
                Err(error) => return Err(error.into()),
            }
        }
    }
    writer.flush()?;
    let cut = if cut.is_empty() {
        String::new()
    } else {
        format!(
            "; games cut short at the end of {} left out",
            cut.join(", ")
        )
    };
    Ok(format!(
        "merged {} files into '{output}': {games} games, {positions} positions; \
         {dropped} duplicate games dropped{cut}",
        inputs.len()
    ))
}

/// `shuffle`: the games in a random order, the same from the same seed.
pub(super) fn shuffle(input: &str, output: &str, seed: u64) -> Result<String, DataToolError> {
    require_games(input, "shuffle")?;
    let mut games = Vec::new();
    let (_, cut) = each_game(input, |found| {
        games.push(found.game);
        Ok(true)
    })?;
    crate::fit::shuffle(&mut games, &mut Rng::new(seed));
    let mut writer = GameWriter::create(output, Header::NOT_A_SHARD)?;
    for game in &games {
        writer.write_game(game)?;
    }
    writer.flush()?;
    let positions: usize = games.iter().map(|game| game.moves.len()).sum();
    Ok(format!(
        "shuffled {} games ({positions} positions) into '{output}' with seed {seed}{}",
        games.len(),
        cut_note(cut, input)
    ))
}

/// A histogram of counts in named bins.
struct Histogram {
    /// Each bin's name and count.
    bins: Vec<(&'static str, u64)>,
}

impl Histogram {
    fn new(names: &[&'static str]) -> Histogram {
        Histogram {
            bins: names.iter().map(|&name| (name, 0)).collect(),
        }
    }

    fn add(&mut self, bin: usize) {
        if let Some(slot) = self.bins.get_mut(bin) {
            slot.1 += 1;
        }
    }

    /// The bins as shares: `2-7 1.2%  8-13 4.0%  …`.
    fn line(&self) -> String {
        let all = self
            .bins
            .iter()
            .map(|&(_, count)| count)
            .sum::<u64>()
            .max(1) as f64;
        self.bins
            .iter()
            .map(|&(name, count)| format!("{name} {:.1}%", 100.0 * count as f64 / all))
            .collect::<Vec<_>>()
            .join("  ")
    }
}

/// The men-on-the-board histogram (the game's phase).
fn men_histogram() -> Histogram {
    Histogram::new(&["2-7", "8-13", "14-19", "20-25", "26-32"])
}

/// The bin of a number of men.
fn men_bin(men: u32) -> usize {
    (men.saturating_sub(2) / 6).min(4) as usize
}

/// The score-band histogram (|centipawns|, mates and tablebase wins apart).
fn score_histogram() -> Histogram {
    Histogram::new(&[
        "<50", "50-99", "100-199", "200-399", "400-799", "800+", "mate/TB",
    ])
}

/// The band of a score.
fn score_bin(white_score: i16) -> usize {
    let score = i32::from(white_score).abs();
    if score >= LoadFilter::default().decisive_score {
        return 6;
    }
    [50, 100, 200, 400, 800]
        .iter()
        .position(|&edge| score < edge)
        .unwrap_or(5)
}

/// A game's result in words, White's: `White won`, …
fn results_line(results: &[u64; 3]) -> String {
    format!(
        "White won {}, drew {}, lost {}",
        results[GameResult::Win as usize],
        results[GameResult::Draw as usize],
        results[GameResult::Loss as usize]
    )
}

/// `stats` on a game file.
pub(super) fn stats(input: &str, filter: &LoadFilter) -> Result<String, DataToolError> {
    let mut results = [0u64; 3];
    let (mut games, mut positions, mut kept) = (0u64, 0u64, 0u64);
    let (mut shortest, mut longest) = (u64::MAX, 0u64);
    let mut lengths = Histogram::new(&["<50", "50-99", "100-149", "150-199", "200-299", "300+"]);
    let (mut men, mut scores) = (men_histogram(), score_histogram());
    let (header, cut) = each_game(input, |found| {
        let result = replay_game(input, &found, |ply| {
            kept += u64::from(filter.keeps(ply));
            men.add(men_bin(ply.board.occupied().count()));
            scores.add(score_bin(ply.white_score));
        })?;
        let plies = found.game.moves.len() as u64;
        results[result as usize] += 1;
        games += 1;
        positions += plies;
        shortest = shortest.min(plies);
        longest = longest.max(plies);
        lengths.add(if plies < 200 {
            (plies / 50) as usize
        } else if plies < 300 {
            4
        } else {
            5
        });
        Ok(true)
    })?;
    let kind = match header.shard_seed {
        Some(seed) => match header.recipe {
            Some(recipe) => format!("a self-play shard of seed {seed}, recipe {recipe:016x}"),
            None => format!("a self-play shard of seed {seed}, its recipe not recorded"),
        },
        None => "a game file, not a shard".to_string(),
    };
    let plies = if games == 0 {
        "none".to_string()
    } else {
        format!(
            "{shortest}-{longest} a game (mean {:.1}): {}",
            positions as f64 / games as f64,
            lengths.line()
        )
    };
    let mut table = format!(
        "file       '{input}': {kind}\n\
         games      {games}: {}\n\
         positions  {positions}, {kept} kept by the load filter ({:.1} %)\n\
         plies      {plies}\n\
         men        {}\n\
         |score|    {}",
        results_line(&results),
        100.0 * kept as f64 / positions.max(1) as f64,
        men.line(),
        scores.line()
    );
    if cut {
        table.push_str("\ncut short  a game at the end of the file, left out");
    }
    Ok(table)
}

/// `stats` on a file of marlinformat positions.
pub(super) fn position_stats(input: &str) -> Result<String, DataToolError> {
    let mut reader = PositionReader::open(input)?;
    let mut results = [0u64; 3];
    let mut positions = 0u64;
    let (mut men, mut scores) = (men_histogram(), score_histogram());
    while let Some(packed) = reader.next_position()? {
        positions += 1;
        if let Some(result) = packed.result() {
            results[result as usize] += 1;
        }
        men.add(men_bin(packed.men().count() as u32));
        scores.add(score_bin(packed.white_score()));
    }
    Ok(format!(
        "file       '{input}': marlinformat positions\n\
         positions  {positions}: {} (the positions' games)\n\
         men        {}\n\
         |score|    {}",
        results_line(&results),
        men.line(),
        scores.line()
    ))
}

/// `validate`: every game replayed, every position checked.
pub(super) fn validate(input: &str, kind: DataKind) -> Result<String, DataToolError> {
    match kind {
        DataKind::Games => {
            let mut reader = GameReader::open(input)?;
            let (mut games, mut positions) = (0u64, 0u64);
            loop {
                let offset = reader.offset();
                // A game cut short is a problem here: the file is not
                // what its writer meant to write.
                let Some(game) = reader.next_game()? else {
                    break;
                };
                let found = Found {
                    index: games,
                    offset,
                    game,
                };
                replay_game(input, &found, |_| {})?;
                games += 1;
                positions += found.game.moves.len() as u64;
            }
            Ok(format!(
                "'{input}': {games} games, {positions} positions, every move legal"
            ))
        }
        DataKind::Marlinformat => {
            let mut reader = PositionReader::open(input)?;
            let mut positions = 0u64;
            loop {
                let offset = reader.offset();
                let Some(packed) = reader.next_position()? else {
                    break;
                };
                replay::unpack(&packed).map_err(|error| DataToolError::BadPosition {
                    path: input.to_string(),
                    offset,
                    detail: error.0,
                })?;
                positions += 1;
            }
            Ok(format!("'{input}': {positions} positions, every one legal"))
        }
        DataKind::Records => {
            let mut reader = Reader::open(input)?;
            let (mut games, mut positions, mut after_last) = (0u64, 0u64, 0u64);
            loop {
                let offset = reader.offset();
                let Some(bytes) = reader.next_record()? else {
                    break;
                };
                match positions::decode(&bytes) {
                    Ok(positions::Record::GameEnd { .. }) => {
                        games += 1;
                        positions += after_last;
                        after_last = 0;
                    }
                    Ok(positions::Record::Position { .. }) => after_last += 1,
                    Err(error) => {
                        return Err(DataToolError::BadPosition {
                            path: input.to_string(),
                            offset,
                            detail: error.to_string(),
                        });
                    }
                }
            }
            if after_last > 0 {
                return Err(DataToolError::Read(DataError::Format {
                    path: input.to_string(),
                    detail: format!(
                        "{after_last} records after the last game's end (a game cut short)"
                    ),
                }));
            }
            let partial = reader.partial_record_bytes();
            if partial > 0 {
                return Err(DataToolError::Read(DataError::Format {
                    path: input.to_string(),
                    detail: format!(
                        "{partial} bytes of a record cut short after the last game's end"
                    ),
                }));
            }
            Ok(format!(
                "'{input}': {games} games, {positions} positions, every one legal"
            ))
        }
        DataKind::Text => Err(wrong_kind(
            input,
            kind,
            "validate reads game files and files of positions",
        )),
    }
}

/// Writes a line of `show`'s output; `false` once the reader has gone
/// (`show … | head`), which ends the output without an error.
fn write_line(out: &mut dyn Write, line: &str) -> Result<bool, DataToolError> {
    match writeln!(out, "{line}") {
        Ok(()) => Ok(true),
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(error) => Err(DataToolError::Output(error)),
    }
}

/// White's result as `show` writes it: 1.0, 0.5 or 0.0.
fn result_text(result: GameResult) -> String {
    format!("{:.1}", result.white_points())
}

/// `show`: the positions as text, `<fen> | <move> | <score> | <result>`.
pub(super) fn show(
    input: &str,
    kind: DataKind,
    games: Option<u64>,
    out: &mut dyn Write,
) -> Result<String, DataToolError> {
    let limit = games.unwrap_or(u64::MAX);
    let (mut shown_games, mut shown) = (0u64, 0u64);
    let mut open = true;
    match kind {
        DataKind::Games => {
            each_game(input, |found| {
                if found.index >= limit {
                    return Ok(false);
                }
                let result = found
                    .game
                    .result()
                    .map_or_else(|| "?".to_string(), result_text);
                open = write_line(
                    out,
                    &format!(
                        "# game {} at byte {}: {} plies, White's result {result}",
                        found.index,
                        found.offset,
                        found.game.moves.len()
                    ),
                )?;
                let mut failed = None;
                replay_game(input, &found, |ply| {
                    if !open || failed.is_some() {
                        return;
                    }
                    let line = format!(
                        "{} | {} | {} | {result}",
                        ply.board.to_fen(),
                        ply.mv.to_uci(ply.board.is_chess960()),
                        ply.white_score
                    );
                    match write_line(out, &line) {
                        Ok(still) => open = still,
                        Err(error) => failed = Some(error),
                    }
                    shown += 1;
                })?;
                if let Some(error) = failed {
                    return Err(error);
                }
                shown_games += 1;
                Ok(open)
            })?;
        }
        DataKind::Marlinformat => {
            if games.is_some() {
                return Err(wrong_kind(
                    input,
                    kind,
                    "--games counts the games of a game or record file",
                ));
            }
            let mut reader = PositionReader::open(input)?;
            while let Some(packed) = reader.next_position()? {
                let result = packed.result().map_or_else(|| "?".to_string(), result_text);
                let line = format!("{} | - | {} | {result}", packed.fen(), packed.white_score());
                if !write_line(out, &line)? {
                    break;
                }
                shown += 1;
            }
        }
        DataKind::Records => {
            let mut reader = Reader::open(input)?;
            while open && shown_games < limit {
                let Some(bytes) = reader.next_record()? else {
                    break;
                };
                let line = match record::decode(&bytes) {
                    Ok(record::Record::Position {
                        position,
                        white_score,
                        result,
                    }) => {
                        shown += 1;
                        format!(
                            "{} | - | {white_score} | {}",
                            position.fen(),
                            result_text(result)
                        )
                    }
                    Ok(record::Record::GameEnd { game, seed, result }) => {
                        shown_games += 1;
                        format!(
                            "# the end of game {game} of seed {seed}, White's result {}",
                            result_text(result)
                        )
                    }
                    Err(error) => format!("# at byte {}: {error}", reader.offset() - 32),
                };
                open = write_line(out, &line)?;
            }
        }
        DataKind::Text => {
            return Err(wrong_kind(
                input,
                kind,
                "show reads game files and files of positions (a text file is its own show)",
            ));
        }
    }
    let games = match kind {
        DataKind::Marlinformat => String::new(),
        _ => format!("{shown_games} games, "),
    };
    Ok(format!("'{input}': showed {games}{shown} positions"))
}
