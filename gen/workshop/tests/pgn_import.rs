//! PGN import against the real thing: fastchess plays a few games between
//! two Kiln engines from `genfens` openings at fixed nodes, as OpenBench's
//! DATAGEN workloads do, and the PGN it writes is imported into a game
//! file whose games must replay, with one position per ply and every
//! comment's score turned to White's view.
//!
//! Without fastchess's source, `make` or a C++ compiler the test says so
//! and passes without playing (see `fastchess/mod.rs`).

use std::process::Command;
use std::time::{Duration, Instant};

use kiln::eval::score::MATE_BOUND;
use kiln_format::game::GameReader;
use kiln_format::record::GameResult;
use kiln_workshop::games::replay;
use kiln_workshop::pgn::import_pgn;

mod fastchess;
mod support;

use fastchess::{fastchess, genfens, run_with_limit};
use support::engine;

/// Games played: 2 openings, each with both colours.
const GAMES: usize = 4;

/// Nodes a move: a few hundred, as datagen plays, and quick in a debug
/// build.
const NODES: u32 = 400;

/// A game of the PGN text, read here without the module under test: its
/// tags and the text of each move's comment.
struct PgnGame {
    fen: String,
    result: String,
    plies: usize,
    comments: Vec<String>,
}

/// fastchess's games: tags on lines of their own, then movetext in which
/// every move (when `min` is off) has a `{score/depth time…}` comment.
fn read_pgn(text: &str) -> Vec<PgnGame> {
    let mut games = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        let tag = |name: &str| {
            chunk
                .lines()
                .find_map(|line| line.strip_prefix(&format!("[{name} \"")))
                .and_then(|rest| rest.strip_suffix("\"]"))
                .unwrap_or_else(|| panic!("no {name} tag in {chunk}"))
                .to_string()
        };
        let movetext: Vec<&str> = chunk.lines().filter(|l| !l.starts_with('[')).collect();
        let movetext = movetext.join(" ");
        let comments = movetext
            .split('{')
            .skip(1)
            .map(|piece| piece.split('}').next().unwrap_or_default().to_string())
            .collect();
        games.push(PgnGame {
            fen: tag("FEN"),
            result: tag("Result"),
            plies: tag("PlyCount").parse().expect("PlyCount"),
            comments,
        });
    }
    games
}

#[test]
fn fastchess_games_import_with_white_view_scores() {
    let Some(fastchess) = fastchess() else {
        return;
    };
    let engine = engine();
    let dir = std::env::temp_dir().join(format!("kiln-pgn-import-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (book, pgn, games_file) = (
        dir.join("openings.epd"),
        dir.join("games.pgn"),
        dir.join("games.kiln"),
    );
    let openings = genfens(&engine, GAMES / 2);
    std::fs::write(&book, openings.join("\n") + "\n").expect("write openings");

    let start = Instant::now();
    let engine_arg = format!("cmd={}", engine.display());
    let mut command = Command::new(&fastchess);
    // fastchess leaves its config.json (for resuming) in its directory.
    command.current_dir(&dir).args([
        "-engine",
        &engine_arg,
        "name=kiln-a",
        "-engine",
        &engine_arg,
        "name=kiln-b",
        "-each",
        "tc=inf",
        &format!("nodes={NODES}"),
        "proto=uci",
        "option.Hash=8",
        "-openings",
        &format!("file={}", book.display()),
        "format=epd",
        "order=random",
        "-srand",
        "7",
        "-rounds",
        &(GAMES / 2).to_string(),
        "-games",
        "2",
        "-maxmoves",
        "150",
        "-concurrency",
        // fastchess refuses more games at once than hardware threads.
        &std::thread::available_parallelism()
            .map_or(1, |n| n.get().min(2))
            .to_string(),
        "-pgnout",
        &format!("file={}", pgn.display()),
        "notation=san",
        "append=false",
    ]);
    let output = run_with_limit(&mut command, Duration::from_secs(180));
    assert!(output.status.success(), "{output:?}");
    eprintln!("fastchess played {GAMES} games in {:.1?}", start.elapsed());

    let text = std::fs::read_to_string(&pgn).expect("fastchess wrote its PGN");
    let played = read_pgn(&text);
    assert_eq!(played.len(), GAMES, "{text}");

    let summary = import_pgn(std::slice::from_ref(&pgn), &games_file).expect("import");
    eprintln!("{summary}");
    assert_eq!(summary.games_read, GAMES as u64, "{summary}");
    assert_eq!(summary.games_imported, GAMES as u64, "{summary}");
    assert!(summary.skipped.is_empty(), "{summary}");
    // Openings from an EPD have no book moves: every ply has a score.
    assert_eq!(
        (summary.leading_unscored, summary.unscored_plies),
        (0, 0),
        "{summary}"
    );
    let plies: usize = played.iter().map(|game| game.plies).sum();
    assert_eq!(summary.positions, plies as u64, "{summary}");

    let mut reader = GameReader::open(&games_file).expect("open the game file");
    let mut black_moves_checked = 0;
    for (index, pgn_game) in played.iter().enumerate() {
        let game = reader
            .next_game()
            .expect("read a game")
            .expect("one game per PGN game");
        assert_eq!(game.moves.len(), pgn_game.plies, "game {}", index + 1);
        assert_eq!(
            pgn_game.comments.len(),
            pgn_game.plies,
            "game {}",
            index + 1
        );
        let mut start_fen = None;
        let mut movers = Vec::new();
        let result = replay(&game, |ply| {
            if ply.index == 0 {
                start_fen = Some(ply.board.to_fen());
            }
            movers.push(ply.board.side_to_move());
        })
        .unwrap_or_else(|error| panic!("game {} does not replay: {error}", index + 1));
        let expected = match pgn_game.result.as_str() {
            "1-0" => GameResult::Win,
            "0-1" => GameResult::Loss,
            "1/2-1/2" => GameResult::Draw,
            other => panic!("result {other}"),
        };
        assert_eq!(result, expected, "game {}", index + 1);
        // Placement and side to move: the clocks and the en-passant field
        // may be written differently by the two programs.
        let fields = |fen: &str| fen.split(' ').take(2).collect::<Vec<_>>().join(" ");
        assert_eq!(
            fields(start_fen.as_deref().unwrap_or_default()),
            fields(&pgn_game.fen)
        );

        // Each comment's score is the mover's, in pawns; the stored one is
        // White's, in centipawns.
        for (ply, ((comment, mover), &(_, stored))) in pgn_game
            .comments
            .iter()
            .zip(&movers)
            .zip(&game.moves)
            .enumerate()
        {
            let score = comment.split('/').next().unwrap_or_default();
            let black = *mover == kiln_board::Color::Black;
            let sign = if black { -1 } else { 1 };
            if score.contains('M') {
                let white_mates = score.starts_with('+') != black;
                assert!(
                    i32::from(stored).abs() >= MATE_BOUND,
                    "ply {ply}: {comment}"
                );
                assert_eq!(stored > 0, white_mates, "ply {ply}: {comment}");
                continue;
            }
            let pawns: f64 = score.parse().unwrap_or_else(|_| panic!("{comment}"));
            let centipawns = (pawns * 100.0).round() as i32;
            assert_eq!(
                i32::from(stored),
                sign * centipawns,
                "game {} ply {ply}: {comment}",
                index + 1
            );
            if black && centipawns != 0 {
                black_moves_checked += 1;
            }
        }
    }
    assert!(reader.next_game().expect("end").is_none());
    assert!(
        black_moves_checked > 0,
        "no Black move with a score to check"
    );
    std::fs::remove_dir_all(&dir).expect("remove temp dir");
}
