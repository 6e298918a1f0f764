//! The perft example's move generator (built on kiln-tables alone) against
//! the published counts of the standard positions.

#[path = "../examples/perft/board.rs"]
mod board;

use board::{Board, FenError, perft};

/// The deepest count each position is checked to: the positions of the
/// Chess Programming Wiki suite to depth 4 or 5, about 17 million leaves in
/// all (well under ten seconds in the test profile).
const MAX_LEAVES: u64 = 5_000_000;

#[test]
fn standard_positions_match_the_published_counts() {
    let suite = include_str!("../../board/tests/data/perft-standard.epd");
    let mut positions = 0;
    for line in suite
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut fields = line.split(';');
        let fen = fields.next().expect("a FEN before the counts").trim();
        let board = Board::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut checked = 0;
        for count in fields {
            let (depth, expected) = count
                .trim()
                .strip_prefix('D')
                .and_then(|c| c.split_once(' '))
                .unwrap_or_else(|| panic!("{fen}: bad count {count:?}"));
            let depth: u32 = depth.parse().expect("a depth");
            let expected: u64 = expected.parse().expect("a count");
            if expected > MAX_LEAVES {
                break;
            }
            assert_eq!(perft(&board, depth), expected, "{fen} depth {depth}");
            checked = depth;
        }
        assert!(checked >= 4, "{fen}: checked only to depth {checked}");
        positions += 1;
    }
    assert_eq!(positions, 7);
}

#[test]
fn bad_fens_are_rejected_with_the_reason() {
    assert_eq!(
        Board::from_fen("8/8/8/8/8/8/8/8 w - -"),
        Err(FenError::Kings)
    );
    assert_eq!(
        Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq -"),
        Err(FenError::Placement)
    );
    assert_eq!(
        Board::from_fen("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
        Err(FenError::Placement)
    );
    assert_eq!(
        Board::from_fen("4k3/8/8/8/8/8/8/4K3 w"),
        Err(FenError::MissingField("castling"))
    );
    let err = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - e9").unwrap_err();
    assert_eq!(
        err.to_string(),
        "FEN en-passant field: expected a square: a file letter a-h then a rank digit 1-8, such as e4"
    );
}
