//! SAN in and out: `parse_san` on hand-picked positions (the cases the
//! workshop's PGN import was tested on), `Move::san` on the same, and a
//! round trip over seeded random games (standard, Chess960 and sparse
//! starts with promotions, en passant and castling): at every position
//! every legal move is written, the text is unique among the position's
//! moves, its disambiguation is the least PGN allows, its suffix says
//! check and mate rightly, and `parse_san` reads it back as the move.

use std::collections::HashSet;

use kiln_board::{
    Board, CastleSide, Move, MoveList, SanError, count_legal, generate_all, parse_san,
};
use kiln_board::{STARTPOS, parse_uci_move};
mod support;
use support::{Rng, SUITES, chess960_start, suite_positions};

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The UCI text (king-takes-rook castling in Chess960) of the move `text`
/// names in `fen`.
fn san(fen: &str, text: &str) -> Result<String, SanError> {
    let board = board(fen);
    parse_san(&board, text).map(|mv| mv.to_uci(board.is_chess960()))
}

/// The SAN of the move `uci` in `fen`.
fn write(fen: &str, uci: &str) -> String {
    let board = board(fen);
    let mv = parse_uci_move(&board, uci).unwrap_or_else(|e| panic!("{uci} in {fen}: {e}"));
    let text = mv.san(&board).to_string();
    assert_eq!(mv.to_san(&board), text);
    text
}

fn is_malformed(result: Result<String, SanError>) -> bool {
    matches!(result, Err(SanError::Malformed { .. }))
}

fn is_illegal(result: Result<String, SanError>) -> bool {
    matches!(result, Err(SanError::Illegal { .. }))
}

fn is_ambiguous(result: Result<String, SanError>) -> bool {
    matches!(result, Err(SanError::Ambiguous { .. }))
}

// ----- reading ------------------------------------------------------------

#[test]
fn san_resolves_pieces_pawns_and_disambiguation() {
    assert_eq!(san(STARTPOS, "e4").unwrap(), "e2e4");
    assert_eq!(san(STARTPOS, "Nf3").unwrap(), "g1f3");
    assert_eq!(san(STARTPOS, "Nf3+!?").unwrap(), "g1f3");
    assert_eq!(san(STARTPOS, "Ng1-f3").unwrap(), "g1f3");
    assert_eq!(san(STARTPOS, "Pe4").unwrap(), "e2e4");
    // Rooks on a1 and a5 reach a3: by rank; knights on b1 and f3 reach
    // d2: by file; queens on a2, a4 and c4 reach b3: by square.
    let fen = "4k3/8/8/R7/8/8/8/RN2K3 w - - 0 1";
    assert_eq!(san(fen, "R5a3").unwrap(), "a5a3");
    assert_eq!(san(fen, "R1a3").unwrap(), "a1a3");
    assert!(is_ambiguous(san(fen, "Ra3")));
    let fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    assert_eq!(san(fen, "Nbd2").unwrap(), "b1d2");
    assert_eq!(san(fen, "Nfd2").unwrap(), "f3d2");
    let fen = "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1";
    assert_eq!(san(fen, "Qa4b3").unwrap(), "a4b3");
    assert_eq!(san(fen, "Qc4b3").unwrap(), "c4b3");
    assert!(is_ambiguous(san(fen, "Qab3")));
    assert!(is_ambiguous(san(fen, "Q4b3")));
    // Captures, with and without the marker; en passant.
    let fen = "4k3/8/8/3pP3/2p5/1P6/8/4K3 w - d6 0 1";
    assert_eq!(san(fen, "exd6").unwrap(), "e5d6");
    assert_eq!(san(fen, "bxc4").unwrap(), "b3c4");
    assert_eq!(san(fen, "bc4").unwrap(), "b3c4");
}

#[test]
fn san_resolves_promotions_and_castling() {
    let fen = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(san(fen, "a8=Q").unwrap(), "a7a8q");
    assert_eq!(san(fen, "a8N").unwrap(), "a7a8n");
    assert_eq!(san(fen, "axb8=R+").unwrap(), "a7b8r");
    assert_eq!(san(fen, "axb8q").unwrap(), "a7b8q");
    assert!(is_illegal(san(fen, "a8")));
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(san(fen, "O-O").unwrap(), "e1g1");
    assert_eq!(san(fen, "0-0-0").unwrap(), "e1c1");
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
    assert_eq!(san(fen, "O-O-O#").unwrap(), "e8c8");
    // Chess960: king on b1, rooks on a1 and g1; O-O-O is b1 takes a1.
    let fen = "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w AGag - 0 1";
    assert_eq!(san(fen, "O-O-O").unwrap(), "b1a1");
    assert_eq!(san(fen, "O-O").unwrap(), "b1g1");
}

#[test]
fn bad_san_is_an_error() {
    assert!(is_illegal(san(STARTPOS, "e5")));
    assert!(is_illegal(san(STARTPOS, "O-O")));
    assert!(is_illegal(san(STARTPOS, "Ke2")));
    for text in [
        "",
        "Z9",
        "Nf",
        "Nabcf3",
        "e9",
        "--",
        "é4",
        "Qa1b2c3",
        "Nf3f3f3f3",
    ] {
        assert!(is_malformed(san(STARTPOS, text)), "{text}");
    }
    // The error keeps the text as given and says what is wrong.
    let start = Board::startpos();
    let err = parse_san(&start, "e5+").unwrap_err();
    assert_eq!(err, SanError::Illegal { text: "e5+".into() });
    assert_eq!(err.to_string(), "'e5+' is not a legal move here");
    assert_eq!(
        parse_san(&start, "Z9").unwrap_err().to_string(),
        "'Z9' is not a move in SAN"
    );
    let err: Box<dyn std::error::Error> = Box::new(err);
    assert!(err.to_string().contains("e5+"));
}

// ----- writing ------------------------------------------------------------

#[test]
fn san_writes_the_least_disambiguation() {
    // File first, then rank, then both.
    let fen = "7k/8/8/8/Q1Q5/8/Q7/4K3 w - - 0 1";
    assert_eq!(write(fen, "c4b3"), "Qcb3");
    assert_eq!(write(fen, "a2b3"), "Q2b3");
    assert_eq!(write(fen, "a4b3"), "Qa4b3");
    assert_eq!(write(fen, "a4a3"), "Q4a3");
    assert_eq!(write(fen, "a4a5"), "Qa5");
    let fen = "4k3/8/8/R7/8/8/8/RN2K3 w - - 0 1";
    assert_eq!(write(fen, "a5a3"), "R5a3");
    assert_eq!(write(fen, "a1a3"), "R1a3");
    assert_eq!(write(fen, "a5e5"), "Re5+");
    let fen = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    assert_eq!(write(fen, "b1d2"), "Nbd2");
    assert_eq!(write(fen, "f3d2"), "Nfd2");
    assert_eq!(write(fen, "b1c3"), "Nc3");
    // A pinned knight cannot go to d4, so the other needs no file.
    let fen = "4r2k/8/8/8/8/1N6/4N3/4K3 w - - 0 1";
    assert_eq!(write(fen, "b3d4"), "Nd4");
    assert_eq!(write(fen, "b3d2"), "Nd2");
}

#[test]
fn san_writes_pawns_promotions_and_castling() {
    let fen = "4k3/8/8/3pP3/2p5/1P6/8/4K3 w - d6 0 1";
    assert_eq!(write(fen, "e5d6"), "exd6");
    assert_eq!(write(fen, "b3c4"), "bxc4");
    assert_eq!(write(fen, "e5e6"), "e6");
    let fen = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(write(fen, "a7a8q"), "a8=Q");
    assert_eq!(write(fen, "a7b8q"), "axb8=Q+");
    assert_eq!(write(fen, "a7b8r"), "axb8=R+");
    assert_eq!(write(fen, "a7b8n"), "axb8=N");
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(write(fen, "e1g1"), "O-O");
    assert_eq!(write(fen, "e1a1"), "O-O-O");
    assert_eq!(write(fen, "e1f1"), "Kf1");
    assert_eq!(write("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    // Chess960: the king already on g1 (only the rook moves), and a king
    // on b1 whose step to c1 is not castling.
    assert_eq!(write("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1"), "O-O");
    let fen = "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w AGag - 0 1";
    assert_eq!(write(fen, "b1a1"), "O-O-O");
    assert_eq!(write(fen, "b1g1"), "O-O");
    assert_eq!(write(fen, "b1c1"), "Kc1");
}

#[test]
fn san_writes_check_mate_and_stalemate() {
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
    assert_eq!(write(fen, "d8h4"), "Qh4#");
    let fen = "7k/4Q3/6K1/8/8/8/8/8 w - - 0 1";
    assert_eq!(write(fen, "e7f7"), "Qf7"); // stalemate: no suffix
    assert_eq!(write(fen, "e7e8"), "Qe8#");
    assert_eq!(write(fen, "e7g7"), "Qg7#");
    assert_eq!(write(fen, "e7e5"), "Qe5+");
}

#[test]
fn san_of_a_move_that_is_not_legal_here() {
    let start = Board::startpos();
    assert_eq!(Move::NULL.to_san(&start), "--");
    // Not SAN: the UCI text, which parse_san does not read as a move.
    let e2e5 = Move::new(
        kiln_board::Square::E2,
        kiln_board::Square::E5,
        kiln_board::MoveFlag::Quiet,
    );
    assert_eq!(e2e5.to_san(&start), "e2e5");
    assert!(parse_san(&start, "e2e5").is_err());
    // A legal move of another position.
    let other = board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    let castle = parse_uci_move(&other, "e1a1").expect("legal");
    assert_eq!(castle.to_san(&start), "e1c1");
    assert_eq!(castle.to_san(&other), "O-O-O");
}

// ----- the round trip -----------------------------------------------------

/// Checks every legal move of `board` (see the module docs); returns them.
fn check_position(board: &Board) -> Vec<Move> {
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    let fen = board.to_fen();
    let mut written = HashSet::new();
    for &mv in moves.iter() {
        let text = mv.san(board).to_string();
        assert!(written.insert(text.clone()), "{text} twice in {fen}");
        assert_eq!(parse_san(board, &text), Ok(mv), "{text} in {fen}");

        // The suffix.
        let mut after = board.clone();
        after.make_move(mv);
        let suffix = if !after.in_check() {
            ""
        } else if count_legal(&after) == 0 {
            "#"
        } else {
            "+"
        };
        let body = text.strip_suffix(suffix).unwrap_or_default();
        assert!(
            !body.is_empty() && !body.ends_with(['+', '#']),
            "{text} in {fen}"
        );

        // The shape, and the least disambiguation: of no origin, the
        // file, the rank, both, the first that reads back unambiguously.
        if mv.is_castle() {
            let castle = match mv.castle_side() {
                CastleSide::Short => "O-O",
                CastleSide::Long => "O-O-O",
            };
            assert_eq!(body, castle, "{fen}");
            continue;
        }
        let piece = board.piece_on(mv.from()).expect("a piece moves");
        let capture = if mv.is_capture() { "x" } else { "" };
        let promotion = mv
            .promotion()
            .map(|kind| format!("={}", kind.to_char().to_ascii_uppercase()))
            .unwrap_or_default();
        let (file, rank) = (mv.from().file().to_char(), mv.from().rank().to_char());
        let expected = if piece.kind() == kiln_board::PieceKind::Pawn {
            let origin = if mv.is_capture() {
                file.to_string()
            } else {
                String::new()
            };
            format!("{origin}{capture}{}{promotion}", mv.to())
        } else {
            let letter = piece.kind().to_char().to_ascii_uppercase();
            [
                String::new(),
                file.to_string(),
                rank.to_string(),
                format!("{file}{rank}"),
            ]
            .into_iter()
            .map(|origin| format!("{letter}{origin}{capture}{}", mv.to()))
            .find(|candidate| parse_san(board, candidate) == Ok(mv))
            .expect("the full origin square names the move")
        };
        assert_eq!(body, expected, "{fen}");
    }
    moves.to_vec()
}

/// Plays a random game from `start`, checking each position; returns the
/// plies played.
fn play_random_game(start: &Board, rng: &mut Rng, max_plies: usize) -> usize {
    let mut board = start.clone();
    let mut plies = 0;
    while plies < max_plies {
        let moves = check_position(&board);
        if moves.is_empty() || board.is_fifty_move_draw() || board.is_insufficient_material() {
            break;
        }
        board.make_move(moves[rng.index(moves.len())]);
        plies += 1;
    }
    plies
}

#[test]
fn round_trip_from_the_start_position() {
    let mut rng = Rng::new(0x5a17_0001);
    let start = Board::startpos();
    let plies: usize = (0..150)
        .map(|_| play_random_game(&start, &mut rng, 250))
        .sum();
    assert!(plies > 10_000, "{plies}");
}

#[test]
fn round_trip_from_chess960_starts() {
    let mut rng = Rng::new(0x5a17_0960);
    let plies: usize = (0..150)
        .map(|_| {
            let start = chess960_start(&mut rng);
            play_random_game(&start, &mut rng, 200)
        })
        .sum();
    assert!(plies > 10_000, "{plies}");
}

#[test]
fn round_trip_with_promotions_en_passant_and_castling() {
    // Sparse boards reach promotions, en passant, castling and mates far
    // more often; the perft suites add their tricky positions.
    let mut starts: Vec<Board> = [
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "4k3/1P6/8/2pP4/8/8/6p1/4K3 w - c6 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "r3k1r1/2pppp2/8/8/8/8/2PPPP2/1R2K2R w KQkq - 0 1",
    ]
    .into_iter()
    .map(board)
    .collect();
    starts.extend(suite_positions(&SUITES));
    let mut rng = Rng::new(0x5a17_e9a5);
    let (mut promotions, mut en_passant, mut castles, mut mates) = (0, 0, 0, 0);
    for start in &starts {
        for _ in 0..20 {
            let mut board = start.clone();
            for _ in 0..200 {
                let moves = check_position(&board);
                if moves.is_empty() || board.is_fifty_move_draw() {
                    break;
                }
                for mv in &moves {
                    promotions += usize::from(mv.is_promotion());
                    en_passant += usize::from(mv.is_en_passant());
                    castles += usize::from(mv.is_castle());
                    mates += usize::from(mv.san(&board).to_string().ends_with('#'));
                }
                board.make_move(moves[rng.index(moves.len())]);
            }
        }
    }
    // The cases the round trip is for were met, many times.
    assert!(promotions > 1000, "{promotions} promotions");
    assert!(en_passant > 100, "{en_passant} en passant captures");
    assert!(castles > 1000, "{castles} castling moves");
    assert!(mates > 100, "{mates} mates");
}
