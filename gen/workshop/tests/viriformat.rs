//! Kiln's game files against the field's own reader and writer of
//! viriformat, the `viriformat` crate (viridithas's, MIT):
//!
//! - Kiln games (castling both ways, en passant, promotions and
//!   under-promotions, a Chess960 start with its castling) written as a
//!   game file and converted with `write_viriformat` are read by
//!   `viriformat::dataformat::Game::deserialise_from`, whose debug build
//!   (the one tests run) checks every move against its own move generator,
//!   and give the same positions (FEN and castling rooks) and scores as
//!   Kiln's replay, and the same marlinformat bytes for every position;
//! - games built with viriformat's own API (`Game::new`, `add_move`,
//!   `set_outcome`, `serialise_into`) read back through
//!   `kiln_format::game::read_viriformat` and replay on Kiln's board to the
//!   same positions;
//! - both take the stored score as White's: bullet's view of a
//!   viriformat position (`splat_to_bulletformat`) negates it, and flips
//!   the result, for Black to move.

use std::io::{BufRead, BufReader};

use kiln_board::{Board, CastleSide, Color, Move};
use kiln_board::{MoveList, generate_all};
use kiln_format::game::{self, Game, GameReader, GameWriter, Header, PackedPosition};
use kiln_format::record::GameResult;
use kiln_workshop::games::{self, GameBuilder};
use viriformat::chess::board::{Board as VfBoard, DrawType, GameOutcome, WinType};
use viriformat::dataformat::{Filter, Game as VfGame};

/// A position as both boards state it: the FEN, the castling rooks'
/// squares (White short, White long, Black short, Black long) and the
/// score stored with the position. The FENs agree in full here: both
/// write castling rights as `KQkq`, Kiln by X-FEN's rule (a file letter
/// only for a rook that is not the outermost on its side), viriformat
/// always, so an inner castling rook would show in the FENs alone; the
/// rooks' squares are compared for that.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stated {
    fen: String,
    rooks: [Option<u8>; 4],
    score: i32,
}

fn kiln_stated(board: &Board, score: i32) -> Stated {
    let rook = |color, side| {
        board
            .castling_rook(color, side)
            .map(|square| square.index() as u8)
    };
    Stated {
        fen: board.to_fen(),
        rooks: [
            rook(Color::White, CastleSide::Short),
            rook(Color::White, CastleSide::Long),
            rook(Color::Black, CastleSide::Short),
            rook(Color::Black, CastleSide::Long),
        ],
        score,
    }
}

fn viriformat_stated(board: &VfBoard, score: i32) -> Stated {
    let rights = board.castling_rights();
    Stated {
        fen: board.to_string(),
        rooks: [rights.wk, rights.wq, rights.bk, rights.bq].map(|square| square.map(|s| s.inner())),
        score,
    }
}

/// The legal move of `board` written `text` in UCI (Chess960 castling as
/// king takes rook).
fn find(board: &Board, text: &str) -> Move {
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    let chess960 = board.is_chess960();
    moves
        .iter()
        .copied()
        .find(|mv| mv.to_uci(chess960) == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", board.to_fen()))
}

/// The Kiln games: a start, a line, a result; scores by ply, some for
/// Black to move.
fn kiln_games() -> Vec<Game> {
    let lines: [(&str, &[&str], GameResult); 6] = [
        // Castling both ways, captures, checks.
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            &["e1g1", "e8c8", "d5e6", "b4c3", "d2c3", "h3g2", "f3g2"],
            GameResult::Win,
        ),
        // En passant, both sides.
        (
            kiln_board::STARTPOS,
            &[
                "e2e4", "a7a6", "e4e5", "d7d5", "e5d6", "e7d6", "d2d4", "b7b5", "g1f3", "b5b4",
                "c2c4", "b4c3", "b2c3", "d8e7",
            ],
            GameResult::Draw,
        ),
        // Promotions, capturing and not, to each piece.
        (
            "1r6/P6P/3k4/8/3K4/8/p6p/1R6 w - - 0 40",
            &["a7b8n", "a2b1q", "h7h8r", "h2h1b", "b8c6", "d6c6"],
            GameResult::Loss,
        ),
        // A Chess960 start (rooks on b and g, kings on d): castling short
        // for White and long for Black, king takes rook in UCI.
        (
            "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1",
            &["d1g1", "d8b8", "b2b4", "g8h8"],
            GameResult::Draw,
        ),
        // An en-passant square whose capture is not legal (the pawn is
        // pinned along the rank): both boards keep it, as both keep one
        // whenever a pawn stands beside the pushed one.
        (
            "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1",
            &["e2e4", "a4b3", "h4h3"],
            GameResult::Draw,
        ),
        // An en-passant square in the start position itself.
        (
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            &["e5f6", "g7f6", "d1h5"],
            GameResult::Win,
        ),
    ];
    lines
        .iter()
        .map(|&(fen, line, result)| {
            let mut board = Board::from_fen(fen).unwrap();
            let mut builder = GameBuilder::new(&board);
            for (ply, text) in line.iter().enumerate() {
                let mv = find(&board, text);
                builder.push(mv, 97 * ply as i32 - 250);
                board.make_move(mv);
            }
            builder.finish(result)
        })
        .collect()
}

/// What Kiln's replay states of each position of a game.
fn kiln_replay(game: &Game) -> Vec<Stated> {
    let mut stated = Vec::new();
    games::replay(game, |ply| {
        stated.push(kiln_stated(&ply.board, i32::from(ply.white_score)));
    })
    .unwrap();
    stated
}

/// What viriformat states of each position of a game.
fn viriformat_replay(game: &VfGame) -> Vec<Stated> {
    let mut stated = Vec::new();
    game.visit_positions(|board, score| stated.push(viriformat_stated(board, score)));
    stated
}

fn temp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kiln-viriformat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn kiln_games_read_in_viriformat_as_kiln_replays_them() {
    let games = kiln_games();
    let path = temp("kiln.games");
    let raw = temp("kiln.vf");
    let mut writer = GameWriter::create(&path, Header::NOT_A_SHARD).unwrap();
    for game in &games {
        writer.write_game(game).unwrap();
    }
    writer.flush().unwrap();
    drop(writer);
    assert_eq!(
        game::write_viriformat(&path, &raw).unwrap(),
        games.len() as u64
    );

    let mut reader = BufReader::new(std::fs::File::open(&raw).unwrap());
    for game in &games {
        // The debug build checks the start position and every move.
        let theirs = VfGame::deserialise_from(&mut reader, Vec::new())
            .unwrap_or_else(|error| panic!("viriformat refuses {}: {error}", game.start.fen()));
        assert_eq!(theirs.len(), game.moves.len());
        let expected = kiln_replay(game);
        assert_eq!(viriformat_replay(&theirs), expected, "{}", game.start.fen());
        let outcome = theirs.outcome();
        let result = game.result().unwrap();
        assert_eq!(
            format!("{outcome:?}"),
            match result {
                GameResult::Win => "Win",
                GameResult::Draw => "Draw",
                GameResult::Loss => "Loss",
            }
        );

        // Every position as marlinformat, byte for byte.
        let mut ours = Vec::new();
        games::replay(game, |ply| {
            let packed =
                PackedPosition::pack(&games::fields(&ply.board), ply.white_score, result).unwrap();
            ours.push(packed.0);
        })
        .unwrap();
        let mut their_bytes = Vec::new();
        theirs
            .splat_to_marlinformat(
                |packed| {
                    their_bytes.push(packed.as_bytes());
                    Ok(())
                },
                &Filter::UNRESTRICTED,
            )
            .unwrap();
        assert_eq!(their_bytes, ours, "{}", game.start.fen());

        // Bullet's view: the side to move's score and result, from the
        // stored White's.
        let mut bullet = Vec::new();
        theirs
            .splat_to_bulletformat(
                |board| {
                    bullet.push((board.score, board.result));
                    Ok(())
                },
                &Filter::UNRESTRICTED,
            )
            .unwrap();
        let mut index = 0;
        games::replay(game, |ply| {
            let black = ply.board.side_to_move() == Color::Black;
            let score = if black {
                -ply.white_score
            } else {
                ply.white_score
            };
            let white_result = result as u8;
            let stm_result = if black {
                2 - white_result
            } else {
                white_result
            };
            assert_eq!(bullet[index], (score, stm_result), "ply {index}");
            index += 1;
        })
        .unwrap();
    }
    assert!(reader.fill_buf().unwrap().is_empty(), "every byte read");
}

/// A viriformat board set from a FEN.
fn viriformat_board(fen: &str, chess960: bool) -> VfBoard {
    let mut board = VfBoard::new();
    board.set_from_fen(fen, chess960).unwrap();
    board
}

#[test]
fn viriformat_games_read_into_kiln_game_files_and_replay() {
    let lines: [(&str, bool, &[&str], GameOutcome); 3] = [
        (
            VfBoard::STARTING_FEN,
            false,
            &[
                "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f6e4", "d2d4", "e5d4",
                "f1e1", "d7d5", "c4d5", "d8d5", "b1c3",
            ],
            GameOutcome::WhiteWin(WinType::Adjudication),
        ),
        (
            "4k3/1P6/8/8/3p4/8/2P5/4K3 w - - 0 1",
            false,
            &["c2c4", "d4c3", "b7b8n", "c3c2", "b8c6", "c2c1n"],
            GameOutcome::Draw(DrawType::Adjudication),
        ),
        (
            "1r1k2r1/pppppppp/8/8/8/8/PPPPPPPP/1R1K2R1 w GBgb - 0 1",
            true,
            &["d1g1", "d8b8", "b2b4"],
            GameOutcome::BlackWin(WinType::Mate),
        ),
    ];
    let mut bytes = Vec::new();
    let mut theirs = Vec::new();
    for (fen, chess960, line, outcome) in lines {
        let mut board = viriformat_board(fen, chess960);
        let mut game = VfGame::new(&board);
        for (ply, text) in line.iter().enumerate() {
            let mv = board.parse_uci(text).unwrap();
            // White's view: positive for White, whoever is to move.
            game.add_move(mv, 40 * ply as i16 - 120);
            assert!(board.make_move_simple(mv), "{text}");
        }
        game.set_outcome(outcome);
        game.serialise_into(&mut bytes).unwrap();
        theirs.push(game);
    }
    let raw = temp("theirs.vf");
    let path = temp("theirs.games");
    std::fs::write(&raw, &bytes).unwrap();
    assert_eq!(game::read_viriformat(&raw, &path).unwrap(), 3);

    let mut reader = GameReader::open(&path).unwrap();
    assert_eq!(reader.header().shard_seed, None);
    let results = [GameResult::Win, GameResult::Draw, GameResult::Loss];
    for (theirs, result) in theirs.iter().zip(results) {
        let ours = reader.next_game().unwrap().unwrap();
        assert_eq!(ours.result(), Some(result));
        assert_eq!(kiln_replay(&ours), viriformat_replay(theirs));
    }
    assert_eq!(reader.next_game().unwrap(), None);
}
