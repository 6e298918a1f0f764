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

use alloc::string::{String, ToString};
use core::fmt;

use super::PieceKind;
use super::Square;
use super::board::Board;
use super::castling::CastleSide;
use super::san::SanMove;

/// What kind of move a [`Move`] is (its 4-bit flag).
///
/// ```
/// use kiln_board::{Board, MoveFlag, parse_uci_move};
///
/// let board: Board = "4k3/1P6/8/3pP3/8/8/8/R3K3 w Q d6 0 1".parse()?;
/// let flag = |text| parse_uci_move(&board, text).map(|mv| mv.flag());
/// assert_eq!(flag("e5e6")?, MoveFlag::Quiet);
/// assert_eq!(flag("e5d6")?, MoveFlag::EnPassant);
/// assert_eq!(flag("e1c1")?, MoveFlag::Castle);
/// assert_eq!(flag("b7b8n")?, MoveFlag::PromoteKnight);
/// assert_eq!(MoveFlag::CapturePromoteQueen as u8, 15);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
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
    ///
    /// ```
    /// use kiln_board::{MoveFlag, PieceKind};
    ///
    /// assert_eq!(MoveFlag::promotion(PieceKind::Queen, false), MoveFlag::PromoteQueen);
    /// assert_eq!(MoveFlag::promotion(PieceKind::Knight, true), MoveFlag::CapturePromoteKnight);
    /// ```
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
///
/// ```
/// use kiln_board::{Move, MoveFlag, PieceKind, Square};
///
/// let mv = Move::new(Square::B7, Square::A8, MoveFlag::CapturePromoteQueen);
/// assert_eq!((mv.from(), mv.to()), (Square::B7, Square::A8));
/// assert!(mv.is_capture() && mv.is_promotion());
/// assert_eq!(mv.promotion(), Some(PieceKind::Queen));
/// assert_eq!(mv.to_string(), "b7a8q");
/// assert_eq!(core::mem::size_of::<Move>(), 2);
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

impl Move {
    /// The null move (all zeros): "pass", used by null-move pruning and as
    /// an empty slot. Never a legal move.
    ///
    /// ```
    /// use kiln_board::Move;
    ///
    /// assert!(Move::NULL.is_null());
    /// assert_eq!(Move::NULL.bits(), 0);
    /// assert_eq!(Move::default(), Move::NULL);
    /// assert_eq!(Move::NULL.to_uci(false), "0000");
    /// ```
    pub const NULL: Move = Move(0);

    /// A move from `from` to `to` with `flag`.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// let mv = Move::new(Square::G1, Square::F3, MoveFlag::Quiet);
    /// assert_eq!(mv.from(), Square::G1);
    /// assert_eq!(mv.to(), Square::F3);
    /// assert_eq!(mv.flag(), MoveFlag::Quiet);
    /// ```
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
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// // e2 = 12, e4 = 28, double push = 1: 12 | 28 << 6 | 1 << 12.
    /// let e4 = Move::new(Square::E2, Square::E4, MoveFlag::DoublePush);
    /// assert_eq!(e4.bits(), 5900);
    /// assert_eq!(Move::from_bits(e4.bits()), e4);
    /// ```
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with this 16-bit encoding. Any value is a well-formed move
    /// (unused flag codes read as quiet), but not necessarily a legal one.
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square, is_legal};
    ///
    /// let stored: u16 = Move::new(Square::G1, Square::F3, MoveFlag::Quiet).bits();
    /// let mv = Move::from_bits(stored);
    /// assert_eq!(mv.to_uci(false), "g1f3");
    /// assert!(is_legal(&Board::startpos(), mv));
    /// // Unused flag code 3 reads as quiet.
    /// assert_eq!(Move::from_bits(3 << 12).flag(), MoveFlag::Quiet);
    /// ```
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }

    /// The square the piece leaves.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert_eq!(Move::new(Square::E7, Square::E5, MoveFlag::DoublePush).from(), Square::E7);
    /// ```
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_masked(self.0 as u32)
    }

    /// The destination square (the rook's square for castling).
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert_eq!(Move::new(Square::E7, Square::E5, MoveFlag::DoublePush).to(), Square::E5);
    /// // Castling: the rook's square, not the king's destination.
    /// let castle = Move::new(Square::E1, Square::H1, MoveFlag::Castle);
    /// assert_eq!(castle.to(), Square::H1);
    /// assert_eq!(castle.castling_king_destination(), Square::G1);
    /// ```
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_masked((self.0 >> 6) as u32)
    }

    /// How many values [`Move::from_to_index`] takes: the length of a
    /// table kept per square pair.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// // A history table: one counter per square pair.
    /// let mut history = vec![0u32; Move::FROM_TO_COUNT];
    /// let mv = Move::new(Square::G1, Square::F3, MoveFlag::Quiet);
    /// history[mv.from_to_index()] += 1;
    /// assert_eq!(history.iter().sum::<u32>(), 1);
    /// ```
    pub const FROM_TO_COUNT: usize = 64 * 64;

    /// The move's from and to squares as one index in
    /// `0..`[`Move::FROM_TO_COUNT`] (`from × 64 + to`): the key of tables
    /// kept per square pair.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// let e4 = Move::new(Square::E2, Square::E4, MoveFlag::DoublePush);
    /// assert_eq!(e4.from_to_index(), 12 * 64 + 28);
    /// // The flag does not enter it.
    /// let quiet = Move::new(Square::E2, Square::E4, MoveFlag::Quiet);
    /// assert_eq!(quiet.from_to_index(), e4.from_to_index());
    /// ```
    #[inline(always)]
    pub const fn from_to_index(self) -> usize {
        self.from().index() * 64 + self.to().index()
    }

    /// The move's kind.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// let mv = Move::new(Square::E5, Square::D6, MoveFlag::EnPassant);
    /// assert_eq!(mv.flag(), MoveFlag::EnPassant);
    /// ```
    #[inline(always)]
    pub const fn flag(self) -> MoveFlag {
        MoveFlag::from_bits((self.0 >> 12) as u8)
    }

    /// True for the null move.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert!(Move::NULL.is_null());
    /// assert!(!Move::new(Square::A2, Square::A3, MoveFlag::Quiet).is_null());
    /// ```
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// True for captures, including en passant and capturing promotions.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert!(Move::new(Square::E4, Square::D5, MoveFlag::Capture).is_capture());
    /// assert!(Move::new(Square::E5, Square::D6, MoveFlag::EnPassant).is_capture());
    /// assert!(Move::new(Square::B7, Square::A8, MoveFlag::CapturePromoteRook).is_capture());
    /// assert!(!Move::new(Square::B7, Square::B8, MoveFlag::PromoteRook).is_capture());
    /// ```
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & (4 << 12) != 0
    }

    /// True for promotions, capturing or not.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert!(Move::new(Square::B7, Square::B8, MoveFlag::PromoteKnight).is_promotion());
    /// assert!(Move::new(Square::B7, Square::A8, MoveFlag::CapturePromoteQueen).is_promotion());
    /// assert!(!Move::new(Square::B6, Square::B7, MoveFlag::Quiet).is_promotion());
    /// ```
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & (8 << 12) != 0
    }

    /// True for moves that are neither captures nor promotions.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert!(Move::new(Square::E2, Square::E4, MoveFlag::DoublePush).is_quiet());
    /// assert!(Move::new(Square::E1, Square::H1, MoveFlag::Castle).is_quiet());
    /// assert!(!Move::new(Square::E4, Square::D5, MoveFlag::Capture).is_quiet());
    /// assert!(!Move::new(Square::B7, Square::B8, MoveFlag::PromoteQueen).is_quiet());
    /// ```
    #[inline(always)]
    pub const fn is_quiet(self) -> bool {
        self.0 & (12 << 12) == 0
    }

    /// True for castling.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert!(Move::new(Square::E8, Square::A8, MoveFlag::Castle).is_castle());
    /// // A king's two-square step written as a quiet move is not castling.
    /// assert!(!Move::new(Square::E1, Square::G1, MoveFlag::Quiet).is_castle());
    /// ```
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == MoveFlag::Castle as u16
    }

    /// True for en-passant captures.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert!(Move::new(Square::E5, Square::D6, MoveFlag::EnPassant).is_en_passant());
    /// assert!(!Move::new(Square::E5, Square::D6, MoveFlag::Capture).is_en_passant());
    /// ```
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == MoveFlag::EnPassant as u16
    }

    /// True for a pawn's double push.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert!(Move::new(Square::D7, Square::D5, MoveFlag::DoublePush).is_double_push());
    /// assert!(!Move::new(Square::D7, Square::D6, MoveFlag::Quiet).is_double_push());
    /// ```
    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.0 >> 12 == MoveFlag::DoublePush as u16
    }

    /// The piece a promotion creates.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, PieceKind, Square};
    ///
    /// let underpromotion = Move::new(Square::G7, Square::H8, MoveFlag::CapturePromoteKnight);
    /// assert_eq!(underpromotion.promotion(), Some(PieceKind::Knight));
    /// assert_eq!(Move::new(Square::G6, Square::G7, MoveFlag::Quiet).promotion(), None);
    /// ```
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
    ///
    /// ```
    /// use kiln_board::{CastleSide, Move, MoveFlag, Square};
    ///
    /// assert_eq!(Move::new(Square::E1, Square::H1, MoveFlag::Castle).castle_side(), CastleSide::Short);
    /// assert_eq!(Move::new(Square::E8, Square::A8, MoveFlag::Castle).castle_side(), CastleSide::Long);
    /// // Chess960: king on b1, rook on a1.
    /// assert_eq!(Move::new(Square::B1, Square::A1, MoveFlag::Castle).castle_side(), CastleSide::Long);
    /// ```
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
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// assert_eq!(Move::new(Square::E8, Square::A8, MoveFlag::Castle).castling_king_destination(), Square::C8);
    /// // Chess960: king f1, rook g1; the king still ends on g1.
    /// assert_eq!(Move::new(Square::F1, Square::G1, MoveFlag::Castle).castling_king_destination(), Square::G1);
    /// ```
    #[inline(always)]
    pub const fn castling_king_destination(self) -> Square {
        self.castle_side().king_destination(self.from().rank())
    }

    /// The move in UCI long algebraic notation: `e2e4`, `e7e8q`, `0000` for
    /// the null move. Castling is written as the king's two-square move
    /// (`e1g1`) unless `chess960`, where it is written king-takes-rook
    /// (`e1h1`), as UCI's `UCI_Chess960` asks.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// let castle = Move::new(Square::E1, Square::H1, MoveFlag::Castle);
    /// assert_eq!(castle.to_uci(false), "e1g1");
    /// assert_eq!(castle.to_uci(true), "e1h1");
    /// assert_eq!(Move::NULL.to_uci(false), "0000");
    /// ```
    pub fn to_uci(self, chess960: bool) -> String {
        self.uci(chess960).to_string()
    }

    /// The move in UCI notation as a value that formats itself, without
    /// allocating: `write!(out, "{}", mv.uci(chess960))` writes what
    /// [`to_uci`](Move::to_uci) returns.
    ///
    /// ```
    /// use kiln_board::{Move, MoveFlag, Square};
    ///
    /// let promotion = Move::new(Square::E7, Square::E8, MoveFlag::PromoteQueen);
    /// assert_eq!(format!("bestmove {}", promotion.uci(false)), "bestmove e7e8q");
    /// ```
    #[inline]
    pub const fn uci(self, chess960: bool) -> UciMove {
        UciMove { mv: self, chess960 }
    }

    /// The move in SAN (standard algebraic notation, PGN's move text) for
    /// `board`, the position it is played in: `Nbd7`, `exd5`, `e8=Q+`,
    /// `O-O`, `Qh4#` ([`SanMove`] says how it is written). What
    /// [`parse_san`](crate::parse_san) reads back as this move.
    ///
    /// The work is done here, not when the value is formatted: the
    /// position's legal moves are generated (for disambiguation), and the
    /// move is played on a copy of the position without its history, to
    /// see check, and when it checks the reply moves are counted, to see
    /// mate; that copy's history is the one allocation. A move that is
    /// not legal in `board` is written as its UCI text (never as SAN that
    /// would read back), the null move as `--`.
    ///
    /// ```
    /// use kiln_board::{Board, parse_uci_move};
    ///
    /// let board: Board = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2".parse()?;
    /// let mate = parse_uci_move(&board, "d8h4")?;
    /// assert_eq!(mate.san(&board).to_string(), "Qh4#");
    /// assert_eq!(format!("2... {}", mate.san(&board)), "2... Qh4#");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn san(self, board: &Board) -> SanMove {
        SanMove::new(board, self)
    }

    /// The move in SAN for `board` as a `String`: what
    /// [`san`](Move::san) formats as.
    ///
    /// ```
    /// use kiln_board::{Board, Move, parse_uci_move};
    ///
    /// let board: Board = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1".parse()?;
    /// assert_eq!(parse_uci_move(&board, "e5d6")?.to_san(&board), "exd6");
    /// assert_eq!(Move::NULL.to_san(&board), "--");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_san(self, board: &Board) -> String {
        self.san(board).to_string()
    }
}

/// A [`Move`] written in UCI notation; made by [`Move::uci`].
///
/// ```
/// use core::fmt::Write;
/// use kiln_board::{Move, MoveFlag, Square, UciMove};
///
/// let castle = Move::new(Square::E1, Square::H1, MoveFlag::Castle);
/// let text: UciMove = castle.uci(false);
/// let mut out = String::from("bestmove ");
/// write!(out, "{text}").unwrap();
/// assert_eq!(out, "bestmove e1g1");
/// assert_eq!(castle.uci(true).to_string(), "e1h1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UciMove {
    mv: Move,
    chess960: bool,
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        if mv.is_null() {
            return f.write_str("0000");
        }
        let to = if mv.is_castle() && !self.chess960 {
            mv.castling_king_destination()
        } else {
            mv.to()
        };
        write!(f, "{}{}", mv.from(), to)?;
        match mv.promotion() {
            Some(kind) => write!(f, "{}", kind.to_char()),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Move {
    /// Standard-chess UCI text (`to_uci(false)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.uci(false), f)
    }
}
