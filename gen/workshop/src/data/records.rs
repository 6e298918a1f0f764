//! The data tools on files of the earlier 32-byte position records
//! ([`kiln_format::record`]), which work on whole games: a game's
//! positions and its end-of-game marker. Records after the last marker (a
//! game cut short when self-play was killed) are left out of every output,
//! and every summary says how many.

use kiln_format::record::{self, Game, GameResult, RECORD_BYTES};

use super::{DataToolError, Held, tail_start};

/// The positions of some games.
fn positions(games: &[Game]) -> usize {
    games.iter().map(Game::positions).sum()
}

/// What a summary adds for the `cut` records after the last game's end
/// that a tool left out.
fn cut_short(summary: String, cut: usize) -> String {
    match cut {
        0 => summary,
        n => {
            format!("{summary}; left out {n} records after the last game's end (a game cut short)")
        }
    }
}

/// The positions of each game, for [`tail_start`].
fn sizes(games: &[Game]) -> Vec<u64> {
    games.iter().map(|game| game.positions() as u64).collect()
}

/// `sort`: the games in game-number order.
pub(super) fn sort(input: &str, output: &str) -> Result<String, DataToolError> {
    let (mut games, cut) = record::read_games(input)?;
    // Stable: a number twice (files merged by hand) keeps its order.
    games.sort_by_key(|game| game.number);
    record::write_games(output, &games)?;
    let summary = format!(
        "{} games, {} positions in game-number order",
        games.len(),
        positions(&games)
    );
    Ok(cut_short(summary, cut))
}

/// `holdout`: the held games moved to the end.
pub(super) fn holdout(input: &str, output: &str, held: &Held) -> Result<String, DataToolError> {
    let (games, cut) = record::read_games(input)?;
    let is_held: Box<dyn Fn(&Game) -> bool> = match held {
        Held::Numbers(range) => {
            let range = range.clone();
            Box::new(move |game| range.contains(&game.number))
        }
        Held::Like { file, fraction } => {
            let (other, _) = record::read_games(file)?;
            let mut numbers: Vec<u64> = other[tail_start(&sizes(&other), *fraction)..]
                .iter()
                .map(|game| game.number)
                .collect();
            numbers.sort_unstable();
            Box::new(move |game| numbers.binary_search(&game.number).is_ok())
        }
    };
    let (held, train): (Vec<Game>, Vec<Game>) = games.into_iter().partition(is_held);
    record::write_games(output, train.iter().chain(&held))?;
    let summary = super::split_summary(positions(&train) as u64, positions(&held) as u64, "");
    Ok(cut_short(summary, cut))
}

/// `subset`: the first share of the training games, then the held-out
/// tail.
pub(super) fn subset(
    input: &str,
    output: &str,
    fraction: f64,
    holdout: f64,
) -> Result<String, DataToolError> {
    let (games, cut_records) = record::read_games(input)?;
    let cut = tail_start(&sizes(&games), holdout);
    let (train, held) = games.split_at(cut);
    let keep = &train[..(train.len() as f64 * fraction) as usize];
    record::write_games(output, keep.iter().chain(held))?;
    let summary = super::split_summary(positions(keep) as u64, positions(held) as u64, "");
    Ok(cut_short(summary, cut_records))
}

/// `stats`: games, positions, results, seeds.
pub(super) fn stats(input: &str) -> Result<String, DataToolError> {
    let (games, cut_short) = record::read_games(input)?;
    let mut results = [0usize; 3];
    let mut seeds: Vec<u64> = Vec::new();
    for game in &games {
        let result = game
            .records
            .last()
            .and_then(|marker| GameResult::from_byte(marker[RECORD_BYTES - 2]));
        if let Some(result) = result {
            results[result as usize] += 1;
        }
        if !seeds.contains(&game.seed) {
            seeds.push(game.seed);
        }
    }
    let (first, last) = (
        games.iter().map(|game| game.number).min(),
        games.iter().map(|game| game.number).max(),
    );
    let numbers = match (first, last) {
        (Some(first), Some(last)) => format!("numbers {first}-{last}"),
        _ => "none".to_string(),
    };
    let count = games.len().max(1) as f64;
    Ok(format!(
        "games      {} ({numbers})\n\
         positions  {} ({:.1} a game)\n\
         results    White won {}, drew {}, lost {}\n\
         seeds      {}\n\
         cut short  {cut_short} records after the last game's end",
        games.len(),
        positions(&games),
        positions(&games) as f64 / count,
        results[GameResult::Win as usize],
        results[GameResult::Draw as usize],
        results[GameResult::Loss as usize],
        seeds
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::{Options, run_to_string};
    use super::*;
    use kiln_board::Board;

    /// A game of `positions` start positions and a marker.
    fn game(number: u64, positions: usize) -> Game {
        let record = crate::positions::encode(&Board::startpos(), 0, GameResult::Draw).unwrap();
        let mut records = vec![record; positions];
        records.push(record::game_marker(number, 5, GameResult::Win));
        Game {
            number,
            seed: 5,
            records,
        }
    }

    #[test]
    fn the_tail_starts_where_the_held_out_share_of_positions_begins() {
        let games: Vec<Game> = (0..10).map(|n| game(n, 10)).collect();
        assert_eq!(tail_start(&sizes(&games), 0.1), 9);
        assert_eq!(tail_start(&sizes(&games), 0.25), 8);
        assert_eq!(tail_start(&sizes(&games), 0.0), 10);
        assert_eq!(
            super::super::split_summary(90, 10, ""),
            "90 training and 10 held-out positions: --holdout 0.100000"
        );
    }

    #[test]
    fn tools_move_whole_games() {
        let dir = std::env::temp_dir().join(format!("kiln-data-tools-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
        let games: Vec<Game> = [3, 0, 2, 1, 4]
            .into_iter()
            .map(|n| game(n, 2 + n as usize))
            .collect();
        record::write_games(path("in.bin"), &games).unwrap();
        let numbers = |file: &str| -> Vec<u64> {
            record::read_games(path(file))
                .unwrap()
                .0
                .iter()
                .map(|game| game.number)
                .collect()
        };

        let sort = Options::Sort {
            input: path("in.bin"),
            output: path("sorted.bin"),
        };
        assert_eq!(
            run_to_string(&sort).unwrap(),
            "5 games, 20 positions in game-number order"
        );
        assert_eq!(numbers("sorted.bin"), [0, 1, 2, 3, 4]);

        let holdout = Options::Holdout {
            input: path("sorted.bin"),
            output: path("held.bin"),
            held: Held::Numbers(1..=2),
            apart: None,
            filter: Default::default(),
        };
        assert_eq!(
            run_to_string(&holdout).unwrap(),
            "13 training and 7 held-out positions: --holdout 0.350000"
        );
        // Record files have no --apart: the trainer's --holdout share
        // serves them.
        let apart = Options::Holdout {
            input: path("sorted.bin"),
            output: path("training.bin"),
            held: Held::Numbers(1..=2),
            apart: Some(path("apart.bin")),
            filter: Default::default(),
        };
        let error = run_to_string(&apart).unwrap_err().to_string();
        assert!(
            error.contains("holdout --apart reads game files"),
            "{error}"
        );
        assert_eq!(numbers("held.bin"), [0, 3, 4, 1, 2]);

        // held.bin's last 35 % of positions are games 1 and 2.
        let like = Options::Holdout {
            input: path("in.bin"),
            output: path("like.bin"),
            held: Held::Like {
                file: path("held.bin"),
                fraction: 0.35,
            },
            apart: None,
            filter: Default::default(),
        };
        run_to_string(&like).unwrap();
        assert_eq!(numbers("like.bin"), [3, 0, 4, 2, 1]);

        let subset = Options::Subset {
            input: path("held.bin"),
            output: path("subset.bin"),
            fraction: 0.5,
            holdout: 0.35,
            filter: Default::default(),
        };
        assert_eq!(
            run_to_string(&subset).unwrap(),
            "2 training and 7 held-out positions: --holdout 0.777778"
        );
        assert_eq!(numbers("subset.bin"), [0, 1, 2]);

        let stats = run_to_string(&Options::Stats {
            input: path("in.bin"),
            filter: Default::default(),
        })
        .unwrap();
        assert!(stats.starts_with("games      5 (numbers 0-4)\npositions  20 (4.0 a game)"));
        assert!(stats.contains("White won 5, drew 0, lost 0"), "{stats}");

        let missing = run_to_string(&Options::Stats {
            input: path("none.bin"),
            filter: Default::default(),
        });
        assert!(missing.unwrap_err().to_string().contains("none.bin"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
