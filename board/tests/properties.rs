//! Property tests (proptest): random legal games, with shrinking to a short
//! failing game when a property breaks.
//!
//! - make/unmake restores the position exactly (board, key, FEN, clocks);
//! - every position's FEN parses back to the same position and key;
//! - the incremental Zobrist key equals the from-scratch key, and so do the
//!   incremental pawn key and material signature (also in release builds,
//!   where make/unmake's debug assertions are off);
//! - null moves are undone exactly.

use kiln_board::{Board, Material};
use kiln_board::{MoveList, generate_all};
use proptest::prelude::*;

const STARTS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

/// A game: a start position and, per ply, a number choosing among the legal
/// moves (taken modulo their count).
fn games() -> impl Strategy<Value = (usize, Vec<u16>)> {
    (0..STARTS.len(), prop::collection::vec(any::<u16>(), 0..120))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant((start, choices) in games()) {
        let mut board = Board::from_fen(STARTS[start]).expect("suite FEN parses");
        let mut snapshots = vec![(board.clone(), board.to_fen(), board.key())];
        for choice in choices {
            let mut moves = MoveList::new();
            generate_all(&board, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[choice as usize % moves.len()];
            board.make_move(mv);
            prop_assert_eq!(board.key(), board.compute_key(), "after {}", mv.to_uci(board.is_chess960()));
            prop_assert_eq!(board.pawn_key(), board.compute_pawn_key(), "after {}", mv.to_uci(board.is_chess960()));
            prop_assert_eq!(board.material(), Material::of_board(&board), "after {}", mv.to_uci(board.is_chess960()));

            let fen = board.to_fen();
            let parsed = Board::from_fen(&fen).expect("an emitted FEN parses");
            prop_assert_eq!(&parsed, &board, "FEN {}", fen);
            prop_assert_eq!(parsed.key(), board.key(), "FEN {}", fen);
            prop_assert_eq!(parsed.pawn_key(), board.pawn_key(), "FEN {}", fen);
            prop_assert_eq!(parsed.material(), board.material(), "FEN {}", fen);
            prop_assert_eq!(parsed.to_fen(), fen.clone());
            let shredder = board.to_shredder_fen();
            let parsed = Board::from_fen(&shredder).expect("an emitted Shredder-FEN parses");
            prop_assert_eq!(&parsed, &board, "Shredder-FEN {}", shredder);

            if !board.in_check() {
                board.make_null();
                prop_assert_eq!(board.key(), board.compute_key());
                prop_assert_eq!(board.pawn_key(), board.compute_pawn_key());
                prop_assert_eq!(board.material(), Material::of_board(&board));
                board.unmake_null();
                prop_assert_eq!(board.to_fen(), fen.clone());
            }
            snapshots.push((board.clone(), fen, board.key()));
        }
        // Unmake everything, checking each earlier position on the way back.
        snapshots.pop();
        while let Some((expected, fen, key)) = snapshots.pop() {
            board.unmake_move();
            prop_assert_eq!(&board, &expected);
            prop_assert_eq!(board.to_fen(), fen);
            prop_assert_eq!(board.key(), key);
            prop_assert_eq!(board.pawn_key(), board.compute_pawn_key());
            prop_assert_eq!(board.material(), Material::of_board(&board));
        }
    }

    #[test]
    fn transpositions_share_a_key(choices in prop::collection::vec(any::<u16>(), 0..40)) {
        // Play a random game, then reach its final position again through
        // its FEN: both must have the same key (the key is a function of the
        // position, not of the path).
        let mut board = Board::startpos();
        for choice in choices {
            let mut moves = MoveList::new();
            generate_all(&board, &mut moves);
            if moves.is_empty() {
                break;
            }
            board.make_move(moves[choice as usize % moves.len()]);
        }
        let fresh = Board::from_fen(&board.to_fen()).expect("an emitted FEN parses");
        prop_assert_eq!(fresh.key(), board.key());
        prop_assert_eq!(fresh.pawn_key(), board.pawn_key());
        prop_assert_eq!(fresh.material(), board.material());
    }
}

fn play(moves: &[&str]) -> Board {
    let mut board = Board::startpos();
    for text in moves {
        let mv = kiln_board::parse_uci_move(&board, text).expect("legal test move");
        board.make_move(mv);
    }
    board
}

#[test]
fn move_orders_reaching_one_position_share_its_key() {
    // Knights out and back: the start position again.
    let back = play(&["g1f3", "g8f6", "f3g1", "f6g8"]);
    assert_eq!(back.key().0, kiln_tables::START_KEY);
    // A double push whose en-passant square no pawn can use is hashed like
    // the same position reached by single pushes (the FIDE repetition rule).
    assert_eq!(
        play(&["e2e4", "e7e5"]).key(),
        play(&["e2e3", "e7e6", "e3e4", "e6e5"]).key()
    );
    // But an en-passant capture that is available makes a different position.
    let with_ep = play(&["e2e4", "a7a6", "e4e5", "d7d5"]);
    let without_ep = play(&["e2e3", "d7d6", "e3e4", "a7a6", "e4e5", "d6d5"]);
    let fields = |b: &Board| b.to_fen().split(' ').take(3).collect::<Vec<_>>().join(" ");
    assert_eq!(fields(&with_ep), fields(&without_ep));
    assert!(with_ep.en_passant().is_some() && without_ep.en_passant().is_none());
    assert_ne!(with_ep.key(), without_ep.key());
}

#[test]
fn pawn_key_sees_only_pawns() {
    // Same pawns, different pieces: one pawn key; a pawn moved: another.
    let knights_out = play(&["g1f3", "g8f6"]);
    assert_eq!(knights_out.pawn_key(), Board::startpos().pawn_key());
    assert_ne!(knights_out.key(), Board::startpos().key());
    assert_ne!(play(&["e2e4"]).pawn_key(), Board::startpos().pawn_key());
    // Captures and promotions change the material signature.
    let board = Board::from_fen("4k3/1P6/8/8/8/8/7r/4K3 w - - 0 1").expect("valid");
    let mut promoted = board.clone();
    promoted.make_move(kiln_board::parse_uci_move(&promoted, "b7b8q").expect("legal"));
    assert_eq!(promoted.material().to_string(), "KQvKR");
    assert_eq!(promoted.pawn_key().0, 0);
    promoted.unmake_move();
    assert_eq!(promoted, board);
    assert_eq!(board.material().to_string(), "KPvKR");
}
