//! FEN parsing never panics; whatever parses round-trips through `to_fen`,
//! and its key matches a recomputation.
#![no_main]

use kiln_board::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(board) = Board::from_fen(text) {
        let fen = board.to_fen();
        let again = Board::from_fen(&fen).expect("an emitted FEN parses");
        assert_eq!(again, board, "{text:?} -> {fen:?}");
        assert_eq!(again.to_fen(), fen);
        assert_eq!(board.key(), board.compute_key());
    }
});
