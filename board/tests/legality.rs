//! `is_legal` against the generator: for every position reached by seeded
//! random playouts from the perft suites' positions (standard, Chess960 and
//! the tricky en-passant/castling/promotion set), each of the 65,536 16-bit
//! move encodings is legal exactly when `generate_all` lists it.
//!
//! Also checks that the staged generators partition the legal moves:
//! `generate_noisy` ∪ `generate_quiets` = `generate_all`, disjoint, and that
//! `Board::key_after` predicts the key of every ordinary move.

use kiln_board::{Board, Move, MoveFlag, Square};
use kiln_board::{MoveList, generate_all, generate_noisy, generate_quiets, is_legal};
mod support;
use support::{Rng, SUITES, suite_positions};

/// The suite positions plus positions along random playouts from each.
fn sample_positions(playouts: usize, plies: usize) -> Vec<Board> {
    let mut rng = Rng::new(0x5eed_1e6a_1c0d_e000);
    let mut positions = Vec::new();
    for start in suite_positions(&SUITES) {
        positions.push(start.clone());
        for _ in 0..playouts {
            let mut board = start.clone();
            for _ in 0..plies {
                let mut moves = MoveList::new();
                generate_all(&board, &mut moves);
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves[rng.index(moves.len())]);
                positions.push(board.clone());
            }
        }
    }
    positions
}

fn sorted_bits(moves: &[Move]) -> Vec<u16> {
    let mut bits: Vec<u16> = moves.iter().map(|m| m.bits()).collect();
    bits.sort_unstable();
    bits
}

#[test]
fn is_legal_agrees_with_the_generator_on_every_encoding() {
    let positions = sample_positions(2, 12);
    assert!(positions.len() > 500, "{}", positions.len());
    for board in &positions {
        let mut all = MoveList::new();
        generate_all(board, &mut all);
        let mut legal = [false; 1 << 16];
        for mv in all.iter() {
            legal[usize::from(mv.bits())] = true;
        }
        for bits in 0..=u16::MAX {
            let mv = Move::from_bits(bits);
            assert_eq!(
                is_legal(board, mv),
                legal[usize::from(bits)],
                "{} (bits {bits:#06x}) in {}",
                mv.to_uci(board.is_chess960()),
                board.to_fen()
            );
        }
    }
}

#[test]
fn noisy_and_quiet_generation_partition_the_legal_moves() {
    for board in &sample_positions(20, 40) {
        let mut all = MoveList::new();
        let mut noisy = MoveList::new();
        let mut quiets = MoveList::new();
        generate_all(board, &mut all);
        generate_noisy(board, &mut noisy);
        generate_quiets(board, &mut quiets);
        let fen = board.to_fen();
        assert!(noisy.iter().all(|m| !m.is_quiet()), "{fen}");
        assert!(quiets.iter().all(|m| m.is_quiet()), "{fen}");
        let mut union = noisy.to_vec();
        union.extend_from_slice(&quiets);
        // Equal as sorted lists (duplicates included): a union without
        // overlap that has exactly the legal moves.
        assert_eq!(sorted_bits(&union), sorted_bits(&all), "{fen}");
    }
}

/// `Board::key_after` (the search's prefetch hint) is the real key after
/// every move except those it documents as left out: castling, en passant
/// captures, and moves that create an en passant square or change the
/// castling rights.
#[test]
fn key_after_predicts_the_key_of_ordinary_moves() {
    let mut checked = 0;
    for board in &sample_positions(2, 12) {
        let mut all = MoveList::new();
        generate_all(board, &mut all);
        for &mv in all.iter() {
            let predicted = board.key_after(mv);
            let mut child = board.clone();
            child.make_move(mv);
            let left_out = mv.is_castle()
                || mv.is_en_passant()
                || child.en_passant().is_some()
                || child.castling_rights() != board.castling_rights();
            if !left_out {
                assert_eq!(
                    predicted,
                    child.key().0,
                    "{} in {}",
                    mv.to_uci(board.is_chess960()),
                    board.to_fen()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Chess960: castling may uncover an attack along the back rank through
/// the square the rook leaves. With the king on c1 and the rook on b1, the
/// queen on a1 is blocked until the rook moves to d1; then it sees the
/// king on c1, so long castling is illegal. With a knight instead of the
/// queen it is legal.
#[test]
fn castling_that_uncovers_a_rank_attack_is_illegal() {
    let castles = |fen: &str| {
        let board = Board::from_fen(fen).expect("test FEN");
        let mut moves = MoveList::new();
        generate_all(&board, &mut moves);
        let castle = Move::new(Square::C1, Square::B1, MoveFlag::Castle);
        assert_eq!(moves.contains(&castle), is_legal(&board, castle), "{fen}");
        moves.contains(&castle)
    };
    assert!(!castles("4k3/8/8/8/8/8/8/qRK5 w B - 0 1"));
    assert!(castles("4k3/8/8/8/8/8/8/nRK5 w B - 0 1"));
}
