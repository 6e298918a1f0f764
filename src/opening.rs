//! Where games start, for OpenBench's `genfens` and the workshop's
//! self-play alike: random legal plies, drawn the same way from the same
//! generator, and the lines of an opening book (EPD or FEN), read the same
//! way. What each does with a bad book line is its own policy: `genfens`
//! skips it with a warning, self-play refuses the file.

use core::fmt;

use kiln_board::{Board, FenError, MoveList, generate_all, has_legal_move};

use crate::rng::Rng;

/// Plays `plies` legal moves on `board`, each drawn uniformly from the
/// legal moves with `rng`. Returns `false` (the board then stands where
/// the side to move ran out of moves) when a position on the way has no
/// legal move.
///
/// ```
/// use kiln_board::Board;
/// use kiln::opening::play_random_plies;
/// use kiln::rng::Rng;
///
/// let mut board = Board::startpos();
/// assert!(play_random_plies(&mut board, 8, &mut Rng::new(3)));
/// assert_eq!(board.fullmove_number(), 5);
/// ```
pub fn play_random_plies(board: &mut Board, plies: u32, rng: &mut Rng) -> bool {
    let mut moves = MoveList::new();
    for _ in 0..plies {
        moves.clear();
        generate_all(board, &mut moves);
        if moves.is_empty() {
            return false;
        }
        board.make_move(moves[rng.index(moves.len())]);
    }
    true
}

/// Why a book line is not an opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BookLineError {
    /// Fewer than the four fields of an EPD.
    TooFewFields,
    /// The fields are not a legal position.
    Illegal(FenError),
    /// The side to move has no legal move (mate or stalemate).
    NoLegalMove,
}

impl fmt::Display for BookLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookLineError::TooFewFields => f.write_str("not a FEN or EPD (fewer than four fields)"),
            BookLineError::Illegal(error) => write!(f, "not a legal position ({error})"),
            BookLineError::NoLegalMove => f.write_str("the side to move has no legal move"),
        }
    }
}

impl std::error::Error for BookLineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookLineError::Illegal(error) => Some(error),
            BookLineError::TooFewFields | BookLineError::NoLegalMove => None,
        }
    }
}

/// The lines of a book's text that hold a position, with their 1-based
/// numbers: blank lines and `#` comments left out, the rest trimmed.
///
/// ```
/// use kiln::opening::book_lines;
///
/// let text = "# my book\n\n  8/8/8/8/8/8/8/K1k5 w - -  \n";
/// assert_eq!(book_lines(text).collect::<Vec<_>>(), [(3, "8/8/8/8/8/8/8/K1k5 w - -")]);
/// ```
pub fn book_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// The position of one book line: an EPD (four fields, then operations
/// such as `hmvc 0; fmvn 3;`, which are ignored: the position starts at
/// `0 1`) or a FEN (six fields, clocks kept). The side to move must have a
/// legal move.
///
/// ```
/// use kiln::opening::{BookLineError, book_line};
///
/// let epd = book_line("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0;")?;
/// assert_eq!(epd.fullmove_number(), 1);
/// assert_eq!(book_line("e4 e5"), Err(BookLineError::TooFewFields));
/// // Fool's mate: White to move has none.
/// let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
/// assert_eq!(book_line(mated), Err(BookLineError::NoLegalMove));
/// # Ok::<(), BookLineError>(())
/// ```
pub fn book_line(line: &str) -> Result<Board, BookLineError> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 4 {
        return Err(BookLineError::TooFewFields);
    }
    let counters =
        fields.len() >= 6 && fields[4].parse::<u16>().is_ok() && fields[5].parse::<u16>().is_ok();
    let fen = if counters {
        fields[..6].join(" ")
    } else {
        format!("{} 0 1", fields[..4].join(" "))
    };
    let board = Board::from_fen(&fen).map_err(BookLineError::Illegal)?;
    if !has_legal_move(&board) {
        return Err(BookLineError::NoLegalMove);
    }
    Ok(board)
}
