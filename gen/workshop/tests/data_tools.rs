//! `kiln-workshop data` on game files: each tool on a small file of random
//! games built in a temporary folder, and the binary's exit status and
//! output streams for `validate` and `show`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use kiln::rng::Rng;
use kiln_board::Board;
use kiln_board::{MoveList, generate_all};
use kiln_format::game::{Game, GameReader, GameWriter, HEADER_BYTES, Header, MoveKind, PackedMove};
use kiln_format::marlin::{DataKind, PositionReader, detect};
use kiln_format::record::{self, GameResult};
use kiln_workshop::data::{self, Held, Options, Target};
use kiln_workshop::games::GameBuilder;
use kiln_workshop::positions::{self, LoadFilter};

/// A temporary folder, removed when the test is done with it.
struct Folder(PathBuf);

impl Folder {
    fn new(name: &str) -> Folder {
        let path = std::env::temp_dir().join(format!("kiln-data-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&path).unwrap();
        Folder(path)
    }

    fn file(&self, name: &str) -> String {
        self.0.join(name).to_str().unwrap().to_string()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A game of random legal moves from `start`, at most `plies` long, each
/// ply scored by a number of its own.
fn random_game(seed: u64, plies: usize, start: &Board, result: GameResult) -> Game {
    let mut rng = Rng::new(seed);
    let mut board = start.clone();
    let mut builder = GameBuilder::new(&board);
    for ply in 0..plies {
        let mut moves = MoveList::new();
        generate_all(&board, &mut moves);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.index(moves.len())];
        builder.push(mv, (ply as i32 * 37 + seed as i32) % 900 - 450);
        board.make_move(mv);
    }
    builder.finish(result)
}

/// Game `n` of the tests: random, 20 to 59 plies, the results in turn.
fn game(n: u64) -> Game {
    let result = [GameResult::Win, GameResult::Draw, GameResult::Loss][n as usize % 3];
    random_game(n, 20 + (n as usize * 7) % 40, &Board::startpos(), result)
}

fn write_games(path: &str, games: &[Game], shard_seed: Option<u64>) {
    let header = Header {
        shard_seed,
        recipe: None,
    };
    write_games_with(path, games, header);
}

fn write_games_with(path: &str, games: &[Game], header: Header) {
    let mut writer = GameWriter::create(path, header).unwrap();
    for game in games {
        writer.write_game(game).unwrap();
    }
    writer.flush().unwrap();
}

fn read_games(path: &str) -> (Header, Vec<Game>) {
    let mut reader = GameReader::open(path).unwrap();
    let mut games = Vec::new();
    while let Some(game) = reader.next_game().unwrap() {
        games.push(game);
    }
    (reader.header(), games)
}

fn run(options: &Options) -> Result<String, data::DataToolError> {
    data::run(options, &mut std::io::sink())
}

/// The positions of `games` that `filter` keeps.
fn kept(games: &[Game], filter: &LoadFilter) -> u64 {
    let mut kept = 0;
    for game in games {
        kiln_workshop::games::replay(game, |ply| kept += u64::from(filter.keeps(ply))).unwrap();
    }
    kept
}

#[test]
fn stats_validate_and_show_read_a_game_file() {
    let folder = Folder::new("stats");
    let path = folder.file("shard.games");
    let games: Vec<Game> = (0..3).map(game).collect();
    write_games(&path, &games, Some(11));
    let plies: usize = games.iter().map(|game| game.moves.len()).sum();

    let stats = run(&Options::Stats {
        input: path.clone(),
        filter: LoadFilter::default(),
    })
    .unwrap();
    let kept = kept(&games, &LoadFilter::default());
    assert!(
        stats.contains("a self-play shard of seed 11, its recipe not recorded"),
        "{stats}"
    );
    assert!(
        stats.contains("games      3: White won 1, drew 1, lost 1"),
        "{stats}"
    );
    assert!(
        stats.contains(&format!(
            "positions  {plies}, {kept} kept by the load filter"
        )),
        "{stats}"
    );
    for line in ["plies ", "men ", "|score| "] {
        assert!(stats.contains(line), "{stats}");
    }
    assert!(stats.lines().count() <= 7, "compact: {stats}");
    // A shard that records its recipe shows it, for the records to compare.
    let recorded = folder.file("recorded.games");
    let header = Header {
        shard_seed: Some(12),
        recipe: Some(0x0123_4567_89ab_cdef),
    };
    write_games_with(&recorded, &games[..1], header);
    let stats = run(&Options::Stats {
        input: recorded,
        filter: LoadFilter::default(),
    })
    .unwrap();
    assert!(
        stats.contains("a self-play shard of seed 12, recipe 0123456789abcdef"),
        "{stats}"
    );

    let validated = run(&Options::Validate {
        input: path.clone(),
    })
    .unwrap();
    assert_eq!(
        validated,
        format!("'{path}': 3 games, {plies} positions, every move legal")
    );

    // show: a `# game` line per game, then a line per position whose FEN
    // the board reads back.
    let mut shown = Vec::new();
    let summary = data::run(
        &Options::Show {
            input: path.clone(),
            games: Some(2),
        },
        &mut shown,
    )
    .unwrap();
    let shown = String::from_utf8(shown).unwrap();
    let first_two = games[0].moves.len() + games[1].moves.len();
    assert_eq!(
        summary,
        format!("'{path}': showed 2 games, {first_two} positions")
    );
    assert_eq!(shown.lines().count(), first_two + 2);
    let mut lines = shown.lines();
    assert_eq!(
        lines.next(),
        Some(
            format!(
                "# game 0 at byte 32: {} plies, White's result 1.0",
                games[0].moves.len()
            )
            .as_str()
        )
    );
    let first: Vec<&str> = lines.next().unwrap().split(" | ").collect();
    assert_eq!(first[0], kiln_board::STARTPOS);
    assert_eq!(first[2], games[0].moves[0].1.to_string());
    assert_eq!(first[3], "1.0");
    for line in shown.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 4, "{line}");
        assert!(Board::from_fen(fields[0]).is_ok(), "{line}");
    }
}

#[test]
fn validate_names_the_file_the_game_and_the_ply() {
    let folder = Folder::new("validate");
    let path = folder.file("bad.games");
    let games: Vec<Game> = (0..2).map(game).collect();
    let mut bad = games[1].clone();
    // The third move of the second game, a move no start can make.
    bad.moves[2].0 = PackedMove::new(0, 63, MoveKind::Normal).unwrap();
    write_games(&path, &[games[0].clone(), bad], None);
    let error = run(&Options::Validate {
        input: path.clone(),
    })
    .unwrap_err()
    .to_string();
    let offset = HEADER_BYTES + games[0].to_bytes().len();
    assert!(
        error.starts_with(&format!(
            "'{path}': the game at byte {offset}: ply 3: move "
        )),
        "{error}"
    );

    // A game cut short is a problem too.
    write_games(&path, &games, None);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 2);
    std::fs::write(&path, &bytes).unwrap();
    let error = run(&Options::Validate {
        input: path.clone(),
    })
    .unwrap_err()
    .to_string();
    assert!(
        error.contains(&format!(
            "ends inside the game that starts at byte {offset}"
        )),
        "{error}"
    );
}

#[test]
fn merge_interleaves_the_inputs_and_drops_duplicates() {
    let folder = Folder::new("merge");
    let (a, b, out) = (
        folder.file("a.games"),
        folder.file("b.games"),
        folder.file("out.games"),
    );
    let games: Vec<Game> = (0..5).map(game).collect();
    write_games(
        &a,
        &[games[0].clone(), games[1].clone(), games[2].clone()],
        Some(1),
    );
    write_games(
        &b,
        &[
            games[3].clone(),
            games[1].clone(),
            games[4].clone(),
            games[4].clone(),
        ],
        Some(2),
    );
    let summary = run(&Options::Merge {
        output: out.clone(),
        inputs: vec![a.clone(), b.clone()],
    })
    .unwrap();
    let (header, merged) = read_games(&out);
    assert_eq!(header.shard_seed, None);
    // a0 b0 a1 (b1 = a1 dropped) a2 b2 (b3 = b2 dropped).
    let expected = [0, 3, 1, 2, 4].map(|n| games[n].clone());
    assert_eq!(merged, expected);
    let positions: usize = expected.iter().map(|game| game.moves.len()).sum();
    assert_eq!(
        summary,
        format!(
            "merged 2 files into '{out}': 5 games, {positions} positions; 2 duplicate games dropped"
        )
    );
    // The output may not be an input.
    assert!(matches!(
        run(&Options::Merge {
            output: a.clone(),
            inputs: vec![a.clone(), b.clone()],
        }),
        Err(data::DataToolError::SameFile { .. })
    ));
}

#[test]
fn shuffle_is_the_same_from_the_same_seed() {
    let folder = Folder::new("shuffle");
    let path = folder.file("in.games");
    let games: Vec<Game> = (0..8).map(game).collect();
    write_games(&path, &games, Some(3));
    let shuffled = |seed, name: &str| {
        let out = folder.file(name);
        let summary = run(&Options::Shuffle {
            input: path.clone(),
            output: out.clone(),
            seed,
        })
        .unwrap();
        assert!(summary.starts_with("shuffled 8 games ("), "{summary}");
        let (header, games) = read_games(&out);
        assert_eq!(header.shard_seed, None);
        games
    };
    let one = shuffled(1, "one.games");
    assert_eq!(shuffled(1, "again.games"), one);
    let two = shuffled(2, "two.games");
    assert_ne!(one, two);
    assert_ne!(one, games);
    let mut sorted = one.clone();
    sorted.sort_by_key(Game::to_bytes);
    let mut expected = games.clone();
    expected.sort_by_key(Game::to_bytes);
    assert_eq!(sorted, expected);
}

#[test]
fn holdout_and_subset_move_whole_games() {
    let folder = Folder::new("holdout");
    let path = folder.file("in.games");
    let games: Vec<Game> = (0..5).map(game).collect();
    write_games(&path, &games, Some(9));
    let filter = LoadFilter::default();
    let kept_of = |numbers: &[usize]| -> u64 {
        numbers
            .iter()
            .map(|&n| kept(std::slice::from_ref(&games[n]), &filter))
            .sum()
    };

    let held = folder.file("held.games");
    let summary = run(&Options::Holdout {
        input: path.clone(),
        output: held.clone(),
        held: Held::Numbers(1..=2),
        apart: None,
        filter: filter.clone(),
    })
    .unwrap();
    assert_eq!(
        read_games(&held).1,
        [0, 3, 4, 1, 2].map(|n| games[n].clone())
    );
    let (train, out) = (kept_of(&[0, 3, 4]), kept_of(&[1, 2]));
    assert_eq!(
        summary,
        format!(
            "{train} training and {out} held-out positions (kept by the load filter): --holdout {:.6}",
            out as f64 / (train + out) as f64
        )
    );

    // --apart: the held games in a file of their own, in order.
    let (training, apart) = (folder.file("training.games"), folder.file("apart.games"));
    let summary = run(&Options::Holdout {
        input: path.clone(),
        output: training.clone(),
        held: Held::Numbers(1..=2),
        apart: Some(apart.clone()),
        filter: filter.clone(),
    })
    .unwrap();
    assert_eq!(read_games(&training).1, [0, 3, 4].map(|n| games[n].clone()));
    assert_eq!(read_games(&apart).1, [1, 2].map(|n| games[n].clone()));
    assert_eq!(
        summary,
        format!(
            "{train} training positions in {training}, {out} held out in {apart} (kept by the load filter): --held-out {apart}"
        )
    );

    // --like finds held.games's held-out games by their bytes, whatever
    // their order in the input: shuffle it first.
    let shuffled = folder.file("shuffled.games");
    run(&Options::Shuffle {
        input: path.clone(),
        output: shuffled.clone(),
        seed: 5,
    })
    .unwrap();
    let fraction = out as f64 / (train + out) as f64;
    let like = folder.file("like.games");
    run(&Options::Holdout {
        input: shuffled.clone(),
        output: like.clone(),
        held: Held::Like {
            file: held.clone(),
            fraction,
        },
        apart: None,
        filter: filter.clone(),
    })
    .unwrap();
    let like = read_games(&like).1;
    let mut tail = like[3..].to_vec();
    tail.sort_by_key(Game::to_bytes);
    let mut expected = vec![games[1].clone(), games[2].clone()];
    expected.sort_by_key(Game::to_bytes);
    assert_eq!(tail, expected);

    // subset: half of the training games, then the held-out tail.
    let subset = folder.file("subset.games");
    let summary = run(&Options::Subset {
        input: held.clone(),
        output: subset.clone(),
        fraction: 0.5,
        holdout: fraction,
        filter: filter.clone(),
    })
    .unwrap();
    assert_eq!(read_games(&subset).1, [0, 1, 2].map(|n| games[n].clone()));
    assert!(
        summary.starts_with(&format!("{} training and {out} held-out", kept_of(&[0]))),
        "{summary}"
    );
}

#[test]
fn convert_to_viriformat_and_back_and_to_marlinformat() {
    let folder = Folder::new("convert");
    let path = folder.file("in.games");
    let mut games: Vec<Game> = (0..3).map(game).collect();
    let chess960 =
        Board::from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
            .unwrap();
    games.push(random_game(40, 50, &chess960, GameResult::Draw));
    write_games(&path, &games, Some(2));
    let convert = |input: &str, output: &str, to| {
        run(&Options::Convert {
            input: input.to_string(),
            output: output.to_string(),
            to,
            filter: LoadFilter::default(),
        })
    };

    let raw = folder.file("raw.vf");
    convert(&path, &raw, Target::Viriformat).unwrap();
    assert_eq!(
        std::fs::metadata(&raw).unwrap().len() + HEADER_BYTES as u64,
        std::fs::metadata(&path).unwrap().len()
    );
    let back = folder.file("back.games");
    let summary = convert(&raw, &back, Target::GamesFromViriformat).unwrap();
    assert!(summary.contains("the 4 games of"), "{summary}");
    assert_eq!(read_games(&back), (Header::NOT_A_SHARD, games.clone()));

    // To marlinformat: the positions the load filter keeps, as the game
    // file's reader hands them on.
    let mf = folder.file("positions.mf");
    let summary = convert(&path, &mf, Target::Marlinformat).unwrap();
    assert_eq!(detect(&mf).unwrap(), DataKind::Marlinformat);
    let from_games = read_all(&path);
    let from_positions = read_all(&mf);
    assert_eq!(
        from_games.len() as u64,
        kept(&games, &LoadFilter::default())
    );
    assert_eq!(from_positions, from_games);
    assert!(
        summary.starts_with(&format!(
            "wrote {} positions of the 4 games",
            from_games.len()
        )),
        "{summary}"
    );
    let stats = run(&Options::Stats {
        input: mf.clone(),
        filter: LoadFilter::default(),
    })
    .unwrap();
    assert!(
        stats.contains(&format!("positions  {}: ", from_games.len())),
        "{stats}"
    );
    assert!(run(&Options::Validate { input: mf.clone() }).is_ok());

    // The earlier records become positions too (never games).
    let records = folder.file("records.bin");
    let boards: Vec<Board> = from_games
        .iter()
        .take(5)
        .map(|(fen, _, _)| Board::from_fen(fen).unwrap())
        .collect();
    let mut bytes = record::header().to_vec();
    for (board, (_, _, score)) in boards.iter().zip(&from_games) {
        bytes.extend(positions::encode(board, score.unwrap() as i32, GameResult::Win).unwrap());
    }
    bytes.extend(record::game_marker(0, 1, GameResult::Win));
    // A game cut short: left out.
    bytes.extend(positions::encode(&boards[0], 0, GameResult::Draw).unwrap());
    std::fs::write(&records, &bytes).unwrap();
    let from_records = folder.file("records.mf");
    let summary = convert(&records, &from_records, Target::Marlinformat).unwrap();
    assert!(
        summary.contains("(1 records after the last game's end left out)"),
        "{summary}"
    );
    // The load filter chooses positions of games: given for records, whose
    // positions were chosen when written, it is refused, not unused.
    let min_ply_20 = LoadFilter {
        min_ply: 20,
        ..LoadFilter::default()
    };
    let error = run(&Options::Stats {
        input: records.clone(),
        filter: min_ply_20.clone(),
    })
    .unwrap_err()
    .to_string();
    assert!(error.contains("the load-filter options"), "{error}");
    assert!(
        run(&Options::Convert {
            input: records.clone(),
            output: folder.file("filtered.mf"),
            to: Target::Marlinformat,
            filter: min_ply_20.clone(),
        })
        .is_err()
    );
    assert!(positions::check_filter_applies(&[&records], &min_ply_20).is_err());
    assert!(positions::check_filter_applies(&[&records], &LoadFilter::default()).is_ok());
    assert!(positions::check_filter_applies(&[&records, &path], &min_ply_20).is_ok());

    // Every tool on records says what it left out, and validate refuses a
    // file that ends in a cut record, whole or partial.
    let sorted = run(&Options::Sort {
        input: records.clone(),
        output: folder.file("sorted.bin"),
    })
    .unwrap();
    assert!(
        sorted.ends_with("; left out 1 records after the last game's end (a game cut short)"),
        "{sorted}"
    );
    let validated = run(&Options::Validate {
        input: records.clone(),
    });
    assert!(validated.is_err(), "{validated:?}");
    let partial = folder.file("partial.bin");
    let whole_game = bytes.len() - record::RECORD_BYTES;
    std::fs::write(&partial, &bytes[..whole_game + 7]).unwrap();
    let error = run(&Options::Validate {
        input: partial.clone(),
    })
    .unwrap_err()
    .to_string();
    assert!(error.contains("7 bytes of a record cut short"), "{error}");
    std::fs::write(&partial, &bytes[..whole_game]).unwrap();
    assert!(run(&Options::Validate { input: partial }).is_ok());

    let mut reader = PositionReader::open(&from_records).unwrap();
    for (board, (_, _, score)) in boards.iter().zip(&from_games) {
        let packed = reader.next_position().unwrap().unwrap();
        assert_eq!(packed.fen(), board.to_fen());
        assert_eq!(Some(f64::from(packed.white_score())), *score);
        assert_eq!(packed.result(), Some(GameResult::Win));
    }
    assert_eq!(reader.next_position().unwrap(), None);
    assert!(convert(&records, &folder.file("x"), Target::Viriformat).is_err());
    assert!(convert(&mf, &folder.file("x"), Target::Marlinformat).is_err());
    assert!(
        convert(&path, &path, Target::Viriformat).is_err(),
        "in place"
    );
}

/// Every position `read_positions` hands on: FEN, result, score.
fn read_all(path: &str) -> Vec<(String, f64, Option<f64>)> {
    let mut all = Vec::new();
    positions::read_positions(path, |position| {
        all.push((
            position.board.to_fen(),
            position.result,
            position.white_score,
        ));
        true
    })
    .unwrap();
    all
}

/// The trainer loads a game file and the marlinformat positions converted
/// from it alike.
#[test]
fn the_trainer_reads_game_files_and_marlinformat() {
    let folder = Folder::new("trainer");
    let path = folder.file("in.games");
    let games: Vec<Game> = (0..4).map(game).collect();
    write_games(&path, &games, None);
    let mf = folder.file("in.mf");
    run(&Options::Convert {
        input: path.clone(),
        output: mf.clone(),
        to: Target::Marlinformat,
        filter: LoadFilter::default(),
    })
    .unwrap();
    let filter = LoadFilter::default();
    let from_games =
        kiln_workshop::train::data::load(std::slice::from_ref(&path), &filter).unwrap();
    let from_positions = kiln_workshop::train::data::load(&[mf], &filter).unwrap();
    assert!(!from_games.positions.is_empty());
    assert_eq!(from_games.positions.len(), from_positions.positions.len());
    assert_eq!(
        from_games.filtered,
        games.iter().map(|g| g.moves.len() as u64).sum::<u64>() - kept(&games, &filter)
    );
    assert_eq!(from_positions.filtered, 0);
    let features = |loaded: &kiln_workshop::train::data::Loaded| -> Vec<(usize, f32)> {
        loaded
            .positions
            .iter()
            .map(|position| {
                let (mut us, mut them) = ([0; 32], [0; 32]);
                (
                    position.features(&kiln_format::net::KingBuckets::NONE, &mut us, &mut them),
                    position.target(0.5, 0.01),
                )
            })
            .collect()
    };
    assert_eq!(features(&from_games), features(&from_positions));
}

fn workshop(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kiln-workshop"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("kiln-workshop runs")
}

#[test]
fn the_binary_exits_1_on_a_bad_file_and_keeps_shows_stdout_for_positions() {
    let folder = Folder::new("binary");
    let path = folder.file("in.games");
    let games: Vec<Game> = (0..2).map(game).collect();
    write_games(&path, &games, None);
    let out = workshop(&["data", "show", &path, "--games", "1"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), games[0].moves.len() + 1);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.starts_with("kiln-workshop data: "), "{stderr}");
    assert!(stderr.contains("showed 1 games"), "{stderr}");

    let out = workshop(&["data", "validate", &path]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("every move legal"));

    let mut bytes = std::fs::read(&path).unwrap();
    bytes[HEADER_BYTES + 30] = 5; // the first game's result byte
    std::fs::write(&path, &bytes).unwrap();
    let out = workshop(&["data", "validate", &path]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&path) && stderr.contains("at byte 32: result byte 5"),
        "{stderr}"
    );
    assert!(Path::new(&path).exists());
}

/// Writes a large game file of random games for timing the trainer's
/// load, not run by default (`KILN_GAMES_OUT` defaults to
/// `kiln-large.games` in the system's temporary folder):
///
/// ```text
/// KILN_GAMES_OUT=big.games KILN_GAMES=50000 \
///     cargo test --release -p kiln-workshop --test data_tools -- --ignored large
/// kiln-workshop train --data big.games --out x.nnue --epochs 1 --hidden 16
/// ```
#[test]
#[ignore = "writes a large file for timing; run by hand"]
fn large_game_file_for_load_timing() {
    let path = std::env::var_os("KILN_GAMES_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("kiln-large.games"));
    let count: u64 = match std::env::var("KILN_GAMES") {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("KILN_GAMES must be a whole number, not {text:?}")),
        Err(_) => 10_000,
    };
    let mut writer = GameWriter::create(&path, Header::NOT_A_SHARD).unwrap();
    let mut plies = 0;
    for n in 0..count {
        let result = [GameResult::Win, GameResult::Draw, GameResult::Loss][n as usize % 3];
        let game = random_game(n, 200, &Board::startpos(), result);
        plies += game.moves.len();
        writer.write_game(&game).unwrap();
    }
    writer.flush().unwrap();
    eprintln!("wrote {count} games, {plies} plies to {}", path.display());
}
