//! The evaluation's hand-set tunables: the numbers of the endgame functions
//! (gradients that lead the search to mate, scale factors for drawish
//! material), which the Texel tuner does not fit. Every tuned weight is in
//! `src/eval/params.txt` instead; between the two, no evaluation number is
//! written anywhere else.

/// Mate against a bare king: bonus per step of the lone king away from the
/// centre (Manhattan distance to the four centre squares, 0..=6).
pub const MATE_EDGE_PUSH: i32 = 50;
/// Mates: bonus per step the strong king is closer to the lone one
/// (Manhattan distance, 0..=14).
pub const MATE_KINGS_CLOSE: i32 = 16;
/// KBNK: bonus per step the lone king is closer to a corner of the bishop's
/// colour.
pub const KBNK_CORNER: i32 = 120;
/// KBNK: bonus per step of the lone king away from the centre.
pub const KBNK_EDGE_PUSH: i32 = 20;
/// KBNK: bonus per step the knight is closer to the lone king.
pub const KBNK_KNIGHT_CLOSE: i32 = 8;

/// Opposite-coloured bishops with other pieces: the endgame scale factor
/// (out of `SCALE_NORMAL`).
pub const OPPOSITE_BISHOPS_WITH_PIECES: i32 = 48;
/// Opposite-coloured bishops alone: the scale factor with no passed pawn ...
pub const OPPOSITE_BISHOPS_BASE: i32 = 24;
/// ... plus this per passed pawn of the side concerned.
pub const OPPOSITE_BISHOPS_PER_PASSER: i32 = 12;

/// Pawnless endings: a material edge of at most this many units (knight and
/// bishop 3, rook 5, queen 9) is scaled down ...
pub const PAWNLESS_MAX_EDGE: i32 = 3;
/// ... to this factor (out of `SCALE_NORMAL`).
pub const PAWNLESS_SCALE: i32 = 12;
