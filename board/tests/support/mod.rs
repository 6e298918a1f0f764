//! What the randomised tests share: a seeded generator, so that every
//! failure can be replayed, random Chess960 starts, and the positions of
//! the perft suites. (Each test file uses part of it.)

#![allow(dead_code)]

use kiln_board::Board;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng as _, SeedableRng};

/// A seeded pseudo-random generator for choosing moves and placements.
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }

    /// An index into a slice of length `len` (`len > 0`; the tiny modulo
    /// bias does not matter for choosing test moves).
    pub fn index(&mut self, len: usize) -> usize {
        (self.0.next_u64() % len as u64) as usize
    }
}

/// The three perft suites (`tests/data`): standard positions, Chess960
/// positions and tricky special-move positions.
pub const SUITES: [&str; 3] = [
    include_str!("../data/perft-standard.epd"),
    include_str!("../data/chess960.epd"),
    include_str!("../data/tricky.epd"),
];

/// The positions of `suites` (the FEN before each line's first `;`).
pub fn suite_positions(suites: &[&str]) -> Vec<Board> {
    suites
        .iter()
        .flat_map(|suite| suite.lines())
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fen = line.split(';').next().unwrap_or_default().trim();
            Board::from_fen(fen).unwrap_or_else(|e| panic!("suite FEN {fen}: {e}"))
        })
        .collect()
}

/// A random Chess960 back rank, White's letters from the a-file: a bishop
/// on each colour, the queen and knights anywhere, the king between the
/// rooks.
pub fn chess960_back_rank(rng: &mut Rng) -> [char; 8] {
    let mut rank = [' '; 8];
    rank[rng.index(4) * 2] = 'B';
    rank[rng.index(4) * 2 + 1] = 'B';
    for piece in ['Q', 'N', 'N'] {
        let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
        rank[free[rng.index(free.len())]] = piece;
    }
    let free: Vec<usize> = (0..8).filter(|&i| rank[i] == ' ').collect();
    for (i, piece) in free.into_iter().zip(['R', 'K', 'R']) {
        rank[i] = piece;
    }
    rank
}

/// A random Chess960 start position, its castling field X-FEN or
/// Shredder-FEN with even odds.
pub fn chess960_start(rng: &mut Rng) -> Board {
    let white: String = chess960_back_rank(rng).iter().collect();
    let black = white.to_ascii_lowercase();
    let castling = if rng.index(2) == 0 {
        "KQkq".to_string()
    } else {
        let files: Vec<char> = white
            .char_indices()
            .filter(|&(_, c)| c == 'R')
            .map(|(i, _)| (b'A' + i as u8) as char)
            .collect();
        format!(
            "{}{}{}{}",
            files[1],
            files[0],
            files[1].to_ascii_lowercase(),
            files[0].to_ascii_lowercase()
        )
    };
    let fen = format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1");
    Board::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}
