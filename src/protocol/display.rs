//! The position as text (the `d` command): a diagram, the FEN, the Zobrist
//! key, the checking pieces and the number of legal moves.

use kiln_board::{Board, Square};
use kiln_board::{MoveList, generate_all};

/// The lines that show `board` (the first one empty, setting the diagram
/// apart).
pub fn board_diagram(board: &Board) -> Vec<String> {
    let mut text = String::from("\n +---+---+---+---+---+---+---+---+\n");
    for rank in (0..8).rev() {
        for file in 0..8 {
            let c = Square::from_index(rank * 8 + file)
                .and_then(|sq| board.piece_on(sq))
                .map_or(' ', |p| p.to_char());
            text.push_str(&format!(" | {c}"));
        }
        text.push_str(&format!(
            " | {}\n +---+---+---+---+---+---+---+---+\n",
            rank + 1
        ));
    }
    text.push_str("   a   b   c   d   e   f   g   h\n\n");
    text.push_str(&format!(
        "Fen: {}\nKey: {:016X}\nCheckers:",
        board.to_fen(),
        board.key().0
    ));
    for sq in board.checkers() {
        text.push_str(&format!(" {sq}"));
    }
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    text.push_str(&format!("\nLegal moves: {}", moves.len()));
    text.lines().map(String::from).collect()
}
