//! Board geometry computed the slow, obvious way: ray walks, leaper offsets,
//! lines and masks. These are the reference definitions the fast tables are
//! generated from and tested against.

/// A bitboard with only `square` set.
pub const fn bit(square: usize) -> u64 {
    1u64 << square
}

/// File (0 = a) of a square.
pub const fn file_of(square: usize) -> i32 {
    (square % 8) as i32
}

/// Rank (0 = first) of a square.
pub const fn rank_of(square: usize) -> i32 {
    (square / 8) as i32
}

/// The square at `(file, rank)`, or `None` off the board.
pub fn square_at(file: i32, rank: i32) -> Option<usize> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| (rank * 8 + file) as usize)
}

/// Rook directions as (file, rank) steps.
pub const ROOK_DIRECTIONS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file, rank) steps.
pub const BISHOP_DIRECTIONS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Slider attacks by walking each ray until (and including) the first
/// occupied square. The reference for every magic and PEXT entry.
pub fn slider_attacks_slow(square: usize, occupied: u64, directions: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in directions {
        let (mut f, mut r) = (file_of(square) + df, rank_of(square) + dr);
        while let Some(target) = square_at(f, r) {
            attacks |= bit(target);
            if occupied & bit(target) != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Relevant-occupancy mask of a slider: every ray square except the last one
/// on each ray (a piece on the edge square blocks nothing further).
pub fn relevant_mask(square: usize, directions: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in directions {
        let (mut f, mut r) = (file_of(square) + df, rank_of(square) + dr);
        while square_at(f + df, r + dr).is_some() {
            if let Some(target) = square_at(f, r) {
                mask |= bit(target);
            }
            f += df;
            r += dr;
        }
    }
    mask
}

fn leaper_attacks(square: usize, steps: &[(i32, i32)]) -> u64 {
    steps
        .iter()
        .filter_map(|&(df, dr)| square_at(file_of(square) + df, rank_of(square) + dr))
        .fold(0, |acc, target| acc | bit(target))
}

/// Knight attacks from every square.
pub fn knight_attacks() -> [u64; 64] {
    core::array::from_fn(|sq| leaper_attacks(sq, &KNIGHT_STEPS))
}

/// King attacks from every square.
pub fn king_attacks() -> [u64; 64] {
    core::array::from_fn(|sq| leaper_attacks(sq, &KING_STEPS))
}

/// Pawn capture targets per colour (0 White moves up, 1 Black moves down).
pub fn pawn_attacks() -> [[u64; 64]; 2] {
    [
        core::array::from_fn(|sq| leaper_attacks(sq, &[(-1, 1), (1, 1)])),
        core::array::from_fn(|sq| leaper_attacks(sq, &[(-1, -1), (1, -1)])),
    ]
}

/// Single pawn push targets per colour.
pub fn pawn_pushes() -> [[u64; 64]; 2] {
    [
        core::array::from_fn(|sq| leaper_attacks(sq, &[(0, 1)])),
        core::array::from_fn(|sq| leaper_attacks(sq, &[(0, -1)])),
    ]
}

/// The (file, rank) unit step from `a` towards `b` when they share a line.
fn direction(a: usize, b: usize) -> Option<(i32, i32)> {
    let (df, dr) = (file_of(b) - file_of(a), rank_of(b) - rank_of(a));
    if a == b || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return None;
    }
    Some((df.signum(), dr.signum()))
}

/// Squares strictly between two aligned squares; 0 otherwise.
pub fn between() -> Box<[[u64; 64]; 64]> {
    let mut table = Box::new([[0u64; 64]; 64]);
    for a in 0..64 {
        for b in 0..64 {
            if let Some((df, dr)) = direction(a, b) {
                let (mut f, mut r) = (file_of(a) + df, rank_of(a) + dr);
                while let Some(sq) = square_at(f, r).filter(|&sq| sq != b) {
                    table[a][b] |= bit(sq);
                    f += df;
                    r += dr;
                }
            }
        }
    }
    table
}

/// Full edge-to-edge line through two aligned squares; 0 otherwise.
pub fn line() -> Box<[[u64; 64]; 64]> {
    let mut table = Box::new([[0u64; 64]; 64]);
    for a in 0..64 {
        for b in 0..64 {
            if let Some((df, dr)) = direction(a, b) {
                table[a][b] = bit(a) | slider_attacks_slow(a, 0, &[(df, dr), (-df, -dr)]);
            }
        }
    }
    table
}

/// Every square of each file.
pub fn file_masks() -> [u64; 8] {
    core::array::from_fn(|f| 0x0101_0101_0101_0101u64 << f)
}

/// Every square of each rank.
pub fn rank_masks() -> [u64; 8] {
    core::array::from_fn(|r| 0xFFu64 << (8 * r))
}

/// The neighbouring files of each file.
pub fn adjacent_files() -> [u64; 8] {
    let files = file_masks();
    core::array::from_fn(|f| {
        (if f > 0 { files[f - 1] } else { 0 }) | (if f < 7 { files[f + 1] } else { 0 })
    })
}

/// Per colour and square: the squares on a higher rank (White) or lower
/// rank (Black) whose file is at most `file_spread` files away.
fn ahead_masks(file_spread: i32) -> [[u64; 64]; 2] {
    let ahead = |color: usize, sq: usize| -> u64 {
        (0..64)
            .filter(|&t| {
                let forward = if color == 0 {
                    rank_of(t) > rank_of(sq)
                } else {
                    rank_of(t) < rank_of(sq)
                };
                forward && (file_of(t) - file_of(sq)).abs() <= file_spread
            })
            .fold(0, |acc, t| acc | bit(t))
    };
    [
        core::array::from_fn(|sq| ahead(0, sq)),
        core::array::from_fn(|sq| ahead(1, sq)),
    ]
}

/// Squares ahead of a square on its own file, per colour.
pub fn forward_file() -> [[u64; 64]; 2] {
    ahead_masks(0)
}

/// Squares ahead of a pawn on its own and adjacent files, per colour.
pub fn passed_pawn_masks() -> [[u64; 64]; 2] {
    ahead_masks(1)
}

/// Chebyshev (king-move) distance between squares.
pub fn distance() -> [[u8; 64]; 64] {
    core::array::from_fn(|a| {
        core::array::from_fn(|b| {
            (file_of(a) - file_of(b))
                .abs()
                .max((rank_of(a) - rank_of(b)).abs()) as u8
        })
    })
}

/// Castling rights kept when a move starts or ends on a square (standard
/// chess): moving the king loses both of its side's rights, moving or
/// capturing a rook on its home corner loses that right.
pub fn castling_rights_masks() -> [u8; 64] {
    let mut masks = [0b1111u8; 64];
    masks[0] &= !0b0010; // a1: White long
    masks[7] &= !0b0001; // h1: White short
    masks[4] &= !0b0011; // e1: White king
    masks[56] &= !0b1000; // a8: Black long
    masks[63] &= !0b0100; // h8: Black short
    masks[60] &= !0b1100; // e8: Black king
    masks
}

/// FLIP: the square seen from the other side of the board (a1 ↔ a8). A table
/// written from White's view is read for Black through it.
pub fn flip() -> [u8; 64] {
    core::array::from_fn(|sq| (sq ^ 56) as u8)
}
