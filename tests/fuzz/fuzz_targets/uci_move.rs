//! UCI move text against a position: never panics, and every accepted move
//! is legal and survives make/unmake.
#![no_main]

use kiln_board::Board;
use kiln_board::{MoveList, generate_all, parse_uci_move};
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
];

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let Ok(mut board) = Board::from_fen(POSITIONS[pick as usize % POSITIONS.len()]) else {
        return;
    };
    let before = board.clone();
    for word in text.split_whitespace() {
        match parse_uci_move(&board, word) {
            Ok(mv) => {
                let mut legal = MoveList::new();
                generate_all(&board, &mut legal);
                assert!(legal.contains(&mv), "{word} accepted but not legal");
                board.make_move(mv);
                assert_eq!(board.key(), board.compute_key());
            }
            Err(_) => break,
        }
    }
    while board.game_ply() > before.game_ply() {
        board.unmake_move();
    }
    assert_eq!(board, before);
});
