//! The CECP (XBoard) command parser and move notation never panic.
#![no_main]

use kiln_board::Board;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let board = Board::startpos();
    for line in text.lines() {
        let _ = kiln::xboard::command::parse(line);
        let _ = kiln::xboard::notation::parse_move(&board, line);
    }
});
