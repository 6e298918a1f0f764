//! Where each game starts: an opening (the start position, a line of an
//! EPD file, or a double Fischer random position), random legal plies, and
//! a short search that rejects lopsided results. Every choice comes from
//! the game's own generator ([`game_rng`]), so game `n` of a seed starts
//! from the same position whichever thread plays it, whenever.

use std::sync::Arc;

use super::DatagenError;
use kiln::eval::score::Score;
use kiln::opening::{book_line, book_lines, play_random_plies};
use kiln::rng::Rng;
use kiln::search::limits::Limits;
use kiln::search::{SearchShared, Searcher};
use kiln_board::has_legal_move;
use kiln_board::{Board, STARTPOS};
use kiln_format::{FileAction, FileError};

/// Depth of the verification search of an opening...
const VERIFY_DEPTH: i32 = 8;
/// ...or its nodes, whichever limit comes first: a few milliseconds, a
/// small share of a game of thousands of nodes a move.
const VERIFY_NODES: u64 = 2000;
/// Openings tried for one game before giving up: only an openings file
/// whose lines are all lost or over (or a very low
/// `--max-opening-score`) runs out.
const MAX_TRIES: u32 = 1000;

/// Where games start from, before the random plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Openings {
    /// The standard start position.
    Start,
    /// The positions of an openings file, as FENs.
    Lines(Vec<String>),
    /// Double Fischer random positions.
    Dfrc,
}

impl Openings {
    /// The openings of `--openings` and `--dfrc`.
    pub(super) fn from_options(
        openings: Option<&str>,
        dfrc: bool,
    ) -> Result<Openings, DatagenError> {
        match (openings, dfrc) {
            (Some(path), _) => load_openings(path).map(Openings::Lines),
            (None, true) => Ok(Openings::Dfrc),
            (None, false) => Ok(Openings::Start),
        }
    }

    /// One opening position drawn with `rng`, as FEN.
    fn draw(&self, rng: &mut Rng) -> String {
        match self {
            Openings::Start => STARTPOS.to_string(),
            Openings::Lines(lines) => lines[rng.index(lines.len())].clone(),
            Openings::Dfrc => dfrc_fen(rng),
        }
    }
}

/// The generator of game `game` of shard `seed`: every bit of both goes
/// in, so different seeds are different streams of games. Within a seed
/// distinct games get distinct generators (the mixing steps are
/// bijections of 64-bit words); across seeds two games share one with
/// probability 2^-64.
pub(super) fn game_rng(seed: u64, game: u64) -> Rng {
    let mix = |word: u64| Rng::new(word).next_u64();
    Rng::new(mix(seed ^ mix(game)))
}

/// Reads starting positions: one FEN (4 or 6 fields) or EPD line each;
/// blank lines and `#` comments are skipped.
fn load_openings(path: &str) -> Result<Vec<String>, DatagenError> {
    let text = std::fs::read_to_string(path).map_err(FileError::on(FileAction::Read, path))?;
    let mut fens = Vec::new();
    for (line, position) in book_lines(&text) {
        let board = book_line(position).map_err(|error| DatagenError::Opening {
            path: path.to_string(),
            line,
            error,
        })?;
        fens.push(board.to_fen());
    }
    if fens.is_empty() {
        return Err(DatagenError::NoOpenings {
            path: path.to_string(),
        });
    }
    Ok(fens)
}

/// A random Chess960 back rank, White's letters, a-file first: a bishop
/// on each colour, the queen and the knights anywhere, and the king
/// between the rooks. Each of the 960 arrangements is equally likely.
fn chess960_rank(rng: &mut Rng) -> [u8; 8] {
    let mut rank = [0u8; 8];
    // Files b, d, f, h are one colour, a, c, e, g the other.
    rank[2 * rng.index(4) + 1] = b'B';
    rank[2 * rng.index(4)] = b'B';
    // The `nth` empty square.
    let place = |rank: &mut [u8; 8], nth: usize, letter: u8| {
        if let Some(square) = rank.iter_mut().filter(|s| **s == 0).nth(nth) {
            *square = letter;
        }
    };
    place(&mut rank, rng.index(6), b'Q');
    // Two knights on the five squares left: 20 ordered draws, each of
    // the 10 pairs twice.
    place(&mut rank, rng.index(5), b'N');
    place(&mut rank, rng.index(4), b'N');
    for letter in *b"RKR" {
        place(&mut rank, 0, letter);
    }
    rank
}

/// A double Fischer random start position: each side's back rank its own
/// Chess960 arrangement, all four castling rights on the rooks where
/// they stand (Shredder-FEN, which the board reads).
pub(super) fn dfrc_fen(rng: &mut Rng) -> String {
    let white = chess960_rank(rng);
    let black = chess960_rank(rng);
    let rooks = |rank: &[u8; 8], black: bool| -> String {
        (0u8..8)
            .filter(|&file| rank[usize::from(file)] == b'R')
            .map(|file| {
                let letter = char::from(b'A' + file);
                if black {
                    letter.to_ascii_lowercase()
                } else {
                    letter
                }
            })
            .collect()
    };
    let text = |rank: &[u8; 8]| String::from_utf8_lossy(rank).into_owned();
    format!(
        "{}/pppppppp/8/8/8/8/PPPPPPPP/{} w {}{} - 0 1",
        text(&black).to_ascii_lowercase(),
        text(&white),
        rooks(&white, false),
        rooks(&black, true),
    )
}

/// One try at a start: an opening and its random plies (`random_plies`
/// plus, with even odds, one more; none when it is 0). `None` when a
/// random ply leaves no legal move.
fn random_start(openings: &Openings, random_plies: u32, rng: &mut Rng) -> Option<Board> {
    let fen = openings.draw(rng);
    // Lines were checked when read, and DFRC positions are built legal.
    let mut board = Board::from_fen(&fen).ok()?;
    let plies = match random_plies {
        0 => 0,
        n => n + rng.below(2) as u32,
    };
    if !play_random_plies(&mut board, plies, rng) {
        return None;
    }
    // The game's repetitions count from its start, as a replay of the
    // stored game sees them.
    board.clear_history();
    Some(board)
}

/// What the verification search made of an opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Playable: its score (side to move's view).
    Playable(Score),
    /// Scored beyond the limit: one side is winning already.
    Lopsided(Score),
    /// Mate or stalemate: no game to play.
    NoMoves,
}

/// Searches `board` briefly (depth [`VERIFY_DEPTH`] or [`VERIFY_NODES`]
/// nodes) and judges it against `max_score` (centipawns).
pub(super) fn verify_opening(searcher: &mut Searcher, board: &Board, max_score: Score) -> Verdict {
    if !has_legal_move(board) {
        return Verdict::NoMoves;
    }
    let limits = Limits {
        depth: Some(VERIFY_DEPTH),
        nodes: Some(VERIFY_NODES),
        ..Limits::default()
    };
    let mut probe = board.clone();
    let score = searcher
        .search(
            &mut probe,
            &limits,
            0,
            Arc::new(SearchShared::default()),
            &mut |_| {},
        )
        .score;
    if score.abs() > max_score {
        Verdict::Lopsided(score)
    } else {
        Verdict::Playable(score)
    }
}

/// The start of game `game`: random starts drawn from `rng` until one
/// passes [`verify_opening`] on `searcher`.
///
/// # Errors
/// [`DatagenError::NoStart`] when [`MAX_TRIES`] starts all fail.
pub(super) fn choose_start(
    openings: &Openings,
    random_plies: u32,
    max_score: Score,
    searcher: &mut Searcher,
    rng: &mut Rng,
    game: u64,
) -> Result<Board, DatagenError> {
    for _ in 0..MAX_TRIES {
        let Some(board) = random_start(openings, random_plies, rng) else {
            continue;
        };
        if let Verdict::Playable(_) = verify_opening(searcher, &board, max_score) {
            return Ok(board);
        }
    }
    Err(DatagenError::NoStart {
        game,
        tries: MAX_TRIES,
        max_score,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::{CastleSide, Color};

    #[test]
    fn lopsided_and_finished_openings_are_rejected() {
        let mut searcher = Searcher::new(1);
        let verdict = |searcher: &mut Searcher, fen: &str, max: Score| {
            verify_opening(searcher, &Board::from_fen(fen).unwrap(), max)
        };
        assert!(matches!(
            verdict(&mut searcher, STARTPOS, 1000),
            Verdict::Playable(s) if s.abs() < 200
        ));
        // White a queen up, and the same with Black to move.
        let queen_up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert!(matches!(
            verdict(&mut searcher, queen_up, 500),
            Verdict::Lopsided(s) if s > 500
        ));
        // The limit is the option's: a lenient one lets it through.
        assert!(matches!(
            verdict(&mut searcher, queen_up, 5000),
            Verdict::Playable(s) if s > 500
        ));
        let black_to_move = queen_up.replace(" w ", " b ");
        assert!(matches!(
            verdict(&mut searcher, &black_to_move, 500),
            Verdict::Lopsided(s) if s < -500
        ));
        // Mated and stalemated: nothing to play.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert_eq!(verdict(&mut searcher, mated, 1000), Verdict::NoMoves);
        assert_eq!(
            verdict(&mut searcher, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 1000),
            Verdict::NoMoves
        );
    }

    #[test]
    fn a_start_that_fails_verification_is_drawn_again() {
        // An openings file of one lost position and one playable one: the
        // lost one is never chosen however the draws fall.
        let lost = "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1".to_string();
        let openings = Openings::Lines(vec![lost.clone(), STARTPOS.to_string()]);
        let mut searcher = Searcher::new(1);
        for game in 0..6 {
            let mut rng = game_rng(9, game);
            let board = choose_start(&openings, 0, 300, &mut searcher, &mut rng, game).unwrap();
            assert_eq!(board.to_fen(), STARTPOS);
        }
        let only_lost = Openings::Lines(vec![lost]);
        let mut rng = game_rng(9, 0);
        assert!(matches!(
            choose_start(&only_lost, 0, 300, &mut searcher, &mut rng, 0),
            Err(DatagenError::NoStart { game: 0, .. })
        ));
    }

    #[test]
    fn starts_depend_on_seed_and_game_only() {
        let mut searcher = Searcher::new(1);
        let start = |searcher: &mut Searcher, seed, game| {
            let mut rng = game_rng(seed, game);
            choose_start(&Openings::Start, 8, 1000, searcher, &mut rng, game)
                .unwrap()
                .to_fen()
        };
        let a = start(&mut searcher, 1, 5);
        assert_eq!(a, start(&mut Searcher::new(1), 1, 5));
        assert_ne!(a, start(&mut searcher, 2, 5));
        assert_ne!(a, start(&mut searcher, 1, 6));
        // Eight or nine random plies: both sides get the first move.
        let sides: Vec<bool> = (0..40)
            .map(|game| start(&mut searcher, 3, game).contains(" w "))
            .collect();
        assert!(sides.contains(&true) && sides.contains(&false));
        // The high bits of the seed count too.
        assert_ne!(
            game_rng(1, 0).next_u64(),
            game_rng(1 | 1 << 63, 0).next_u64()
        );
    }

    #[test]
    fn dfrc_starts_are_legal_chess960_positions() {
        let mut rng = Rng::new(4);
        let mut mirrored = 0;
        for _ in 0..200 {
            let fen = dfrc_fen(&mut rng);
            let board = Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let ranks: Vec<&str> = fen.split(['/', ' ']).collect();
            let (black, white) = (ranks[0], ranks[7]);
            for rank in [black.to_ascii_uppercase(), white.to_string()] {
                let files = |letter| rank.match_indices(letter).map(|(i, _)| i);
                let bishops: Vec<usize> = files('B').collect();
                assert_eq!(bishops.len(), 2, "{fen}");
                assert_ne!(bishops[0] % 2, bishops[1] % 2, "{fen}");
                let rooks: Vec<usize> = files('R').collect();
                let king = files('K').next().unwrap();
                assert!(rooks[0] < king && king < rooks[1], "{fen}");
                assert_eq!(files('N').count(), 2, "{fen}");
                assert_eq!(files('Q').count(), 1, "{fen}");
            }
            for color in [Color::White, Color::Black] {
                for side in [CastleSide::Short, CastleSide::Long] {
                    assert!(board.castling_rook(color, side).is_some(), "{fen}");
                }
            }
            mirrored += usize::from(black.to_ascii_uppercase() == white);
        }
        // Independent arrangements: the two sides seldom match.
        assert!(mirrored < 10, "{mirrored} of 200 mirrored");
    }
}
