//! Random-playout cross-checks of the move generator, make/unmake, FEN and
//! Zobrist keys.
//!
//! Thousands of seeded random games (standard and Chess960 starts, plus the
//! perft-suite positions) are played; at every position:
//! - the legal moves equal those of a slow reference generator written here
//!   (pseudo-legal moves, then make-and-test), compared as sets;
//! - `count_legal`, the noisy/quiet partition and the quiescence flavour
//!   agree with `generate_all`;
//! - the FEN round-trips, and the incremental key equals the key computed
//!   from scratch (and equals the key of the re-parsed FEN);
//! - a null move (when legal) and its unmake keep the key consistent.
//!
//! At the end of each game every move is unmade and the start position must
//! come back exactly.

use kiln_board::{Board, CastleSide, Color, File, Move, MoveFlag, PieceKind, Rank, Square};
use kiln_board::{
    MoveList, count_legal, generate_all, generate_noisy, generate_noisy_or_evasions,
    generate_quiets, parse_uci_move,
};
mod support;
use support::{Rng, SUITES, chess960_start, suite_positions};

// ----- the slow reference generator --------------------------------------

fn push_promotions_or(
    moves: &mut Vec<Move>,
    from: Square,
    to: Square,
    capture: bool,
    last_rank: bool,
) {
    if last_rank {
        for kind in [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ] {
            moves.push(Move::new(from, to, MoveFlag::promotion(kind, capture)));
        }
    } else {
        let flag = if capture {
            MoveFlag::Capture
        } else {
            MoveFlag::Quiet
        };
        moves.push(Move::new(from, to, flag));
    }
}

fn offset(square: Square, df: i32, dr: i32) -> Option<Square> {
    let file = square.file().index() as i32 + df;
    let rank = square.rank().index() as i32 + dr;
    if (0..8).contains(&file) && (0..8).contains(&rank) {
        Square::from_index((rank * 8 + file) as u8)
    } else {
        None
    }
}

/// Pseudo-legal moves, generated square by square with ray walking (no
/// attack tables), including castling by the rules' own words.
fn pseudo_legal(board: &Board) -> Vec<Move> {
    let us = board.side_to_move();
    let mut moves = Vec::new();
    let own = |sq: Square| board.piece_on(sq).is_some_and(|p| p.color() == us);
    let enemy = |sq: Square| board.piece_on(sq).is_some_and(|p| p.color() != us);
    for from in Square::ALL {
        let Some(piece) = board.piece_on(from) else {
            continue;
        };
        if piece.color() != us {
            continue;
        }
        let leaper = |deltas: &[(i32, i32)], moves: &mut Vec<Move>| {
            for &(df, dr) in deltas {
                if let Some(to) = offset(from, df, dr) {
                    if !own(to) {
                        let flag = if enemy(to) {
                            MoveFlag::Capture
                        } else {
                            MoveFlag::Quiet
                        };
                        moves.push(Move::new(from, to, flag));
                    }
                }
            }
        };
        let slider = |dirs: &[(i32, i32)], moves: &mut Vec<Move>| {
            for &(df, dr) in dirs {
                let mut sq = from;
                while let Some(to) = offset(sq, df, dr) {
                    if own(to) {
                        break;
                    }
                    let capture = enemy(to);
                    let flag = if capture {
                        MoveFlag::Capture
                    } else {
                        MoveFlag::Quiet
                    };
                    moves.push(Move::new(from, to, flag));
                    if capture {
                        break;
                    }
                    sq = to;
                }
            }
        };
        const ROOK: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
        const BISHOP: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        match piece.kind() {
            PieceKind::Knight => leaper(
                &[
                    (1, 2),
                    (2, 1),
                    (2, -1),
                    (1, -2),
                    (-1, -2),
                    (-2, -1),
                    (-2, 1),
                    (-1, 2),
                ],
                &mut moves,
            ),
            PieceKind::King => leaper(
                &[
                    (1, 1),
                    (1, 0),
                    (1, -1),
                    (0, -1),
                    (-1, -1),
                    (-1, 0),
                    (-1, 1),
                    (0, 1),
                ],
                &mut moves,
            ),
            PieceKind::Bishop => slider(&BISHOP, &mut moves),
            PieceKind::Rook => slider(&ROOK, &mut moves),
            PieceKind::Queen => {
                slider(&BISHOP, &mut moves);
                slider(&ROOK, &mut moves);
            }
            PieceKind::Pawn => {
                let dir = if us == Color::White { 1 } else { -1 };
                let start_rank = if us == Color::White {
                    Rank::Second
                } else {
                    Rank::Seventh
                };
                let last_rank = if us == Color::White {
                    Rank::Eighth
                } else {
                    Rank::First
                };
                if let Some(one) = offset(from, 0, dir).filter(|&sq| board.piece_on(sq).is_none()) {
                    push_promotions_or(&mut moves, from, one, false, one.rank() == last_rank);
                    if from.rank() == start_rank {
                        if let Some(two) =
                            offset(from, 0, 2 * dir).filter(|&sq| board.piece_on(sq).is_none())
                        {
                            moves.push(Move::new(from, two, MoveFlag::DoublePush));
                        }
                    }
                }
                for df in [-1, 1] {
                    if let Some(to) = offset(from, df, dir) {
                        if enemy(to) {
                            push_promotions_or(&mut moves, from, to, true, to.rank() == last_rank);
                        } else if Some(to) == en_passant_target(board) {
                            moves.push(Move::new(from, to, MoveFlag::EnPassant));
                        }
                    }
                }
            }
        }
    }
    // Castling: king and rook on their first rank; every square between the
    // king and its destination and between the rook and its destination is
    // empty (ignoring the two); the king is not in check and crosses no
    // attacked square (judged on the current board).
    for side in [CastleSide::Short, CastleSide::Long] {
        let Some(rook) = board.castling_rook(us, side) else {
            continue;
        };
        let king = board.king_square(us);
        let (king_file, rook_file) = match side {
            CastleSide::Short => (File::G, File::F),
            CastleSide::Long => (File::C, File::D),
        };
        let king_to = Square::new(king_file, king.rank());
        let rook_to = Square::new(rook_file, king.rank());
        let span = |a: Square, b: Square| {
            let (lo, hi) = (
                a.file().index().min(b.file().index()),
                a.file().index().max(b.file().index()),
            );
            (lo..=hi).map(move |f| Square::new(File::ALL[f], a.rank()))
        };
        let clear = span(king, king_to)
            .chain(span(rook, rook_to))
            .all(|sq| sq == king || sq == rook || board.piece_on(sq).is_none());
        let safe = span(king, king_to).all(|sq| !board.is_square_attacked(sq, !us));
        if clear && safe {
            moves.push(Move::new(king, rook, MoveFlag::Castle));
        }
    }
    moves
}

/// The en-passant target worked out from the last move (a double push
/// passes over it), independently of the board's own en-passant field; for
/// a position fresh from FEN, the field is all there is.
fn en_passant_target(board: &Board) -> Option<Square> {
    match board.last_move() {
        Some(mv) if mv.is_double_push() => {
            Square::from_index((mv.from() as u8 + mv.to() as u8) / 2)
        }
        Some(_) => None,
        None => board.en_passant(),
    }
}

/// Legal moves by make-and-test.
fn reference_legal(board: &mut Board) -> Vec<Move> {
    let us = board.side_to_move();
    let mut legal = Vec::new();
    for mv in pseudo_legal(board) {
        board.make_move(mv);
        if !board.is_square_attacked(board.king_square(us), !us) {
            legal.push(mv);
        }
        board.unmake_move();
    }
    legal
}

fn sorted(moves: &[Move]) -> Vec<u16> {
    let mut bits: Vec<u16> = moves.iter().map(|m| m.bits()).collect();
    bits.sort_unstable();
    bits
}

fn show(board: &Board, bits: &[u16]) -> Vec<String> {
    let chess960 = board.is_chess960();
    bits.iter()
        .map(|&b| Move::from_bits(b).to_uci(chess960))
        .collect()
}

// ----- the per-position checks -------------------------------------------

fn check_position(board: &mut Board) -> MoveList {
    let fen = board.to_fen();
    let reparsed = Board::from_fen(&fen).unwrap_or_else(|e| panic!("emitted FEN {fen}: {e}"));
    assert_eq!(&reparsed, board, "FEN round trip of {fen}");
    assert_eq!(reparsed.to_fen(), fen);
    assert_eq!(board.key(), board.compute_key(), "incremental key in {fen}");
    assert_eq!(board.key(), reparsed.key(), "key vs re-parsed key in {fen}");

    let mut all = MoveList::new();
    generate_all(board, &mut all);
    let expected = sorted(&reference_legal(board));
    let got = sorted(&all);
    assert_eq!(
        show(board, &got),
        show(board, &expected),
        "legal moves of {fen} (left: generator, right: reference)"
    );
    assert_eq!(count_legal(board), all.len() as u64, "count_legal in {fen}");

    let mut noisy = MoveList::new();
    let mut quiets = MoveList::new();
    let mut captures = MoveList::new();
    generate_noisy(board, &mut noisy);
    generate_quiets(board, &mut quiets);
    generate_noisy_or_evasions(board, &mut captures);
    assert!(
        noisy.iter().all(|m| m.is_capture() || m.is_promotion()),
        "{fen}"
    );
    assert!(quiets.iter().all(|m| m.is_quiet()), "{fen}");
    let mut union: Vec<Move> = noisy.to_vec();
    union.extend_from_slice(&quiets);
    assert_eq!(sorted(&union), got, "noisy + quiets = all in {fen}");
    if board.in_check() {
        assert_eq!(
            sorted(&captures),
            got,
            "captures in check = all evasions in {fen}"
        );
    } else {
        assert_eq!(
            sorted(&captures),
            sorted(&noisy),
            "captures = noisy in {fen}"
        );
    }
    assert_eq!(board.in_check(), board.checkers().any());

    // Every move's UCI text parses back to the move, in both notations.
    for &mv in all.iter() {
        for chess960 in [false, true] {
            let text = mv.to_uci(chess960);
            let back = parse_uci_move(board, &text).unwrap_or_else(|e| panic!("{fen}: {e}"));
            if back != mv {
                // Only a Chess960 castling written as the king's two-square
                // move may clash with an ordinary king move to that square.
                assert!(mv.is_castle() && !chess960, "{text} in {fen}");
            }
        }
    }

    if !board.in_check() {
        let key = board.key();
        board.make_null();
        assert_eq!(board.key(), board.compute_key(), "null move in {fen}");
        assert_eq!(board.side_to_move(), reparsed.side_to_move().flip());
        board.unmake_null();
        assert_eq!(board.key(), key);
        assert_eq!(board, &reparsed);
    }
    all
}

fn play_random_game(start: &Board, rng: &mut Rng, max_plies: usize) -> usize {
    play_random_game_counting(start, rng, max_plies, &mut SpecialMoves::default())
}

/// The moves of the random games that the make/unmake checks most need.
#[derive(Default)]
struct SpecialMoves {
    promotions: usize,
    en_passant: usize,
}

/// [`play_random_game`], adding the promotions and en passant captures it
/// played to `seen`.
fn play_random_game_counting(
    start: &Board,
    rng: &mut Rng,
    max_plies: usize,
    seen: &mut SpecialMoves,
) -> usize {
    let mut board = start.clone();
    let mut plies = 0;
    for _ in 0..max_plies {
        let moves = check_position(&mut board);
        if moves.is_empty() || board.is_fifty_move_draw() || board.is_insufficient_material() {
            break;
        }
        let mv = moves[rng.index(moves.len())];
        seen.promotions += usize::from(mv.is_promotion());
        seen.en_passant += usize::from(mv.is_en_passant());
        board.make_move(mv);
        plies += 1;
    }
    for _ in 0..plies {
        board.unmake_move();
    }
    assert_eq!(&board, start, "unmaking every move restores the start");
    assert_eq!(board.key(), start.key());
    plies
}

#[test]
fn random_games_from_the_start_position() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let start = Board::startpos();
    let plies: usize = (0..1500)
        .map(|_| play_random_game(&start, &mut rng, 250))
        .sum();
    assert!(plies > 50_000, "{plies}");
}

#[test]
fn random_games_from_chess960_starts() {
    let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
    let plies: usize = (0..1000)
        .map(|_| {
            let start = chess960_start(&mut rng);
            play_random_game(&start, &mut rng, 200)
        })
        .sum();
    assert!(plies > 30_000, "{plies}");
}

#[test]
fn random_games_from_suite_positions() {
    let mut rng = Rng::new(0xdead_beef_cafe_f00d);
    for start in suite_positions(&SUITES[..2]) {
        for _ in 0..40 {
            play_random_game(&start, &mut rng, 150);
        }
    }
}

#[test]
fn random_endgames_with_promotions_and_en_passant() {
    // Sparse boards reach promotions, en passant and checks far more often.
    let mut rng = Rng::new(42);
    let mut seen = SpecialMoves::default();
    for fen in [
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "4k3/1P6/8/2pP4/8/8/6p1/4K3 w - c6 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    ] {
        let start = Board::from_fen(fen).expect("valid");
        for _ in 0..300 {
            play_random_game_counting(&start, &mut rng, 200, &mut seen);
        }
    }
    // The moves the name promises were played, many times.
    assert!(seen.promotions > 100, "{} promotions", seen.promotions);
    assert!(
        seen.en_passant > 10,
        "{} en passant captures",
        seen.en_passant
    );
}

#[test]
fn chess960_castling_where_king_or_rook_do_not_move() {
    // King already on g1 (only the rook moves), and rook already on d1 with
    // the king on e1 castling long (only the king moves).
    for (fen, uci960, uci) in [
        ("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "g1g1"),
        ("4k3/8/8/8/8/8/8/3RK3 w D - 0 1", "e1d1", "e1c1"),
        // Rook on the king's right but on the d-file: castling is short.
        ("4k3/8/8/8/8/8/8/1K1R4 w D - 0 1", "b1d1", "b1g1"),
    ] {
        let mut board = Board::from_fen(fen).expect("valid");
        let mv = parse_uci_move(&board, uci960).expect("castling is legal");
        assert!(mv.is_castle());
        assert_eq!(mv.to_uci(true), uci960);
        assert_eq!(mv.to_uci(false), uci);
        board.make_move(mv);
        assert_eq!(board.key(), board.compute_key());
        check_position(&mut board);
    }
    // An enemy rook behind the castling rook attacks the king's destination
    // once the castling rook has moved away: illegal.
    let board = Board::from_fen("4k3/8/8/8/8/8/8/1K4Rr w G - 0 1").expect("valid");
    assert!(parse_uci_move(&board, "b1g1").is_err());
    // A queen on the first rank, blocked by a knight, leaves the path safe.
    let board = Board::from_fen("4k3/8/8/8/8/8/8/RK3N1q w A - 0 1").expect("valid");
    assert!(parse_uci_move(&board, "b1a1").is_ok());
}

#[test]
fn random_placements_including_multiple_checks() {
    // Kings plus a random handful of pieces anywhere legal-looking: reaches
    // double (and impossible triple) checks, odd pins and king-adjacent
    // sliders that games rarely produce. Every accepted FEN is checked
    // against the reference; rejected ones must fail cleanly.
    let mut rng = Rng::new(0x0dd_ba11);
    let letters = ['P', 'N', 'B', 'R', 'Q', 'p', 'n', 'b', 'r', 'q'];
    let (mut accepted, mut double_checks) = (0, 0);
    for _ in 0..20_000 {
        let mut squares = [None::<char>; 64];
        squares[rng.index(64)] = Some('K');
        let black_king = rng.index(64);
        if squares[black_king].is_some() {
            continue;
        }
        squares[black_king] = Some('k');
        for _ in 0..rng.index(12) {
            let sq = rng.index(64);
            if squares[sq].is_none() {
                squares[sq] = Some(letters[rng.index(letters.len())]);
            }
        }
        let mut placement = String::new();
        for rank in (0..8).rev() {
            for file in 0..8 {
                placement.push(squares[rank * 8 + file].unwrap_or('1'));
            }
            if rank > 0 {
                placement.push('/');
            }
        }
        let side = if rng.index(2) == 0 { 'w' } else { 'b' };
        let fen = format!("{placement} {side} - - 0 1");
        if let Ok(mut board) = Board::from_fen(&fen) {
            accepted += 1;
            double_checks += usize::from(board.checkers().count() >= 2);
            let moves = check_position(&mut board);
            // One ply deeper, too.
            for &mv in moves.iter().take(8) {
                board.make_move(mv);
                check_position(&mut board);
                board.unmake_move();
            }
        }
    }
    assert!(accepted > 5_000, "{accepted}");
    assert!(
        double_checks > 0,
        "no double check among {accepted} positions"
    );
}
