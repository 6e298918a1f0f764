//! The `Move` newtype: a move packed in 16 bits.
//!
//! ```text
//!  15  12 11      6 5       0
//! +------+---------+---------+
//! | flag |   to    |  from   |
//! +------+---------+---------+
//! ```
//! `from` and `to` are square indices (A1 = 0). The 4-bit flag:
//!
//! | flag | meaning                         |
//! |------|---------------------------------|
//! | 0    | quiet move                      |
//! | 1    | pawn double push                |
//! | 2    | castling (`to` = the rook's square, "king takes rook") |
//! | 4    | capture                         |
//! | 5    | en-passant capture (`to` = the empty target square) |
//! | 8–11 | promotion to knight, bishop, rook, queen |
//! | 12–15| capture with promotion to knight, bishop, rook, queen |
//!
//! Bit 2 of the flag marks captures and bit 3 promotions; the low two bits of
//! a promotion flag are `kind - 1`. Castling is stored as king-takes-rook so
//! Chess960 needs no special case; [`Move::to_uci`] writes it either way.
//! [`Move::NULL`] is all zeros (a1a1), which is never a legal move.

use core::fmt;

use super::PieceKind;
use super::Square;
use super::castling::CastleSide;

/// What kind of move a [`Move`] is (its 4-bit flag).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveFlag {
    /// A non-capturing move (also the null move's flag).
    Quiet = 0,
    /// A pawn's two-square advance.
    DoublePush = 1,
    /// Castling; the move's `to` is the castling rook's square.
    Castle = 2,
    /// A capture (not en passant).
    Capture = 4,
    /// An en-passant capture; `to` is the square the pawn lands on.
    EnPassant = 5,
    /// Promotion to a knight.
    PromoteKnight = 8,
    /// Promotion to a bishop.
    PromoteBishop = 9,
    /// Promotion to a rook.
    PromoteRook = 10,
    /// Promotion to a queen.
    PromoteQueen = 11,
    /// Capture with promotion to a knight.
    CapturePromoteKnight = 12,
    /// Capture with promotion to a bishop.
    CapturePromoteBishop = 13,
    /// Capture with promotion to a rook.
    CapturePromoteRook = 14,
    /// Capture with promotion to a queen.
    CapturePromoteQueen = 15,
}

impl MoveFlag {
    /// The flag for a promotion to `kind` (knight … queen), capturing or not.
    ///
    /// # Panics
    /// Panics (in debug builds) when `kind` is a pawn or king.
    #[inline]
    pub const fn promotion(kind: PieceKind, capture: bool) -> MoveFlag {
        debug_assert!(!matches!(kind, PieceKind::Pawn | PieceKind::King));
        let bits = 8 | (capture as u8) << 2 | ((kind as u8).wrapping_sub(1) & 3);
        MoveFlag::from_bits(bits)
    }

    /// The flag with these four bits; unused codes (3, 6, 7) read as quiet.
    #[inline(always)]
    const fn from_bits(bits: u8) -> MoveFlag {
        match bits & 15 {
            1 => MoveFlag::DoublePush,
            2 => MoveFlag::Castle,
            4 => MoveFlag::Capture,
            5 => MoveFlag::EnPassant,
            8 => MoveFlag::PromoteKnight,
            9 => MoveFlag::PromoteBishop,
            10 => MoveFlag::PromoteRook,
            11 => MoveFlag::PromoteQueen,
            12 => MoveFlag::CapturePromoteKnight,
            13 => MoveFlag::CapturePromoteBishop,
            14 => MoveFlag::CapturePromoteRook,
            15 => MoveFlag::CapturePromoteQueen,
            _ => MoveFlag::Quiet,
        }
    }
}

/// A move in 16 bits: from (6), to (6), flag (4). See the module docs.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The null move (all zeros): "pass", used by null-move pruning and as
    /// an empty slot. Never a legal move.
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to` with `flag`.
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: MoveFlag) -> Move {
        Move(from as u16 | (to as u16) << 6 | (flag as u16) << 12)
    }

    /// Builds a move from raw square indices (masked to 0..63) and a flag;
    /// the generator's fast path.
    #[inline(always)]
    pub(crate) const fn from_raw(from: u32, to: u32, flag: MoveFlag) -> Move {
        Move((from & 63) as u16 | ((to & 63) as u16) << 6 | (flag as u16) << 12)
    }

    /// The 16-bit encoding (for transposition tables and the like).
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with this 16-bit encoding. Any value is a well-formed move
    /// (unused flag codes read as quiet), but not necessarily a legal one.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The square the piece leaves.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked(self.0 as u32)
    }

    /// The destination square (the rook's square for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u32)
    }

    /// How many values [`Move::from_to_index`] takes: the length of a
    /// table kept per square pair.
    pub const FROM_TO_COUNT: usize = 64 * 64;

    /// The move's from and to squares as one index in
    /// `0..`[`Move::FROM_TO_COUNT`] (`from × 64 + to`): the key of tables
    /// kept per square pair.
    #[inline(always)]
    pub const fn from_to_index(self) -> usize {
        self.from().index() * 64 + self.to().index()
    }

    /// The move's kind.
    #[inline(always)]
    pub const fn flag(self) -> MoveFlag {
        MoveFlag::from_bits((self.0 >> 12) as u8)
    }

    /// True for the null move.
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// True for captures, including en passant and capturing promotions.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (4 << 12) != 0
    }

    /// True for promotions, capturing or not.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (8 << 12) != 0
    }

    /// True for moves that are neither captures nor promotions.
    #[inline(always)]
    pub const fn is_quiet(self) -> bool {
        self.0 & (12 << 12) == 0
    }

    /// True for castling.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == MoveFlag::Castle as u16
    }

    /// True for en-passant captures.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == MoveFlag::EnPassant as u16
    }

    /// True for a pawn's double push.
    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.0 >> 12 == MoveFlag::DoublePush as u16
    }

    /// The piece a promotion creates.
    #[inline(always)]
    pub const fn promotion(self) -> Option<PieceKind> {
        if self.is_promotion() {
            Some(PieceKind::ALL[((self.0 >> 12) & 3) as usize + 1])
        } else {
            None
        }
    }

    /// The side a castling move goes to: short when the rook stands on the
    /// king's h-file side (castling is stored king-takes-rook).
    #[inline(always)]
    pub const fn castle_side(self) -> CastleSide {
        if (self.to() as u8) > (self.from() as u8) {
            CastleSide::Short
        } else {
            CastleSide::Long
        }
    }

    /// The king's destination for a castling move: the g-file when the rook
    /// is on the king's right, the c-file otherwise (same rank).
    #[inline(always)]
    pub const fn castling_king_destination(self) -> Square {
        self.castle_side().king_destination(self.from().rank())
    }

    /// The move in UCI long algebraic notation: `e2e4`, `e7e8q`, `0000` for
    /// the null move. Castling is written as the king's two-square move
    /// (`e1g1`) unless `chess960`, where it is written king-takes-rook
    /// (`e1h1`), as UCI's `UCI_Chess960` asks.
    pub fn to_uci(self, chess960: bool) -> String {
        if self.is_null() {
            return "0000".to_string();
        }
        let to = if self.is_castle() && !chess960 {
            self.castling_king_destination()
        } else {
            self.to()
        };
        match self.promotion() {
            Some(kind) => format!("{}{}{}", self.from(), to, kind.to_char()),
            None => format!("{}{}", self.from(), to),
        }
    }
}

impl fmt::Display for Move {
    /// Standard-chess UCI text (`to_uci(false)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_uci(false))
    }
}
