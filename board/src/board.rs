//! The `Board`: position state, accessors and the three piece-placement
//! helpers every change to the position goes through.

use alloc::vec::Vec;
use core::fmt;

use super::Bitboard;
use super::CastlingRights;
use super::Color;
use super::PieceKind;
use super::attacks;
use super::castling::CastleSide;
use super::material::Material;
use super::moves::Move;
use super::piece::ColoredPiece;
use super::zobrist::{self, Key};
use super::{File, Square};

/// One move of a board's history: what [`Board::unmake_move`] restores,
/// and the key of the position before the move (repetition detection).
/// Entry `i` of [`Board::history`] is the `i`-th move made since the
/// position was set up.
///
/// ```
/// use kiln_board::{Board, Move, MoveFlag, Square};
///
/// let mut board = Board::startpos();
/// let start_key = board.key();
/// board.make_move(Move::new(Square::E2, Square::E4, MoveFlag::DoublePush));
/// let entry = &board.history()[0];
/// assert_eq!(entry.mv().to_uci(false), "e2e4");
/// assert_eq!(entry.captured(), None);
/// assert_eq!(entry.key_before(), start_key);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct HistoryEntry {
    /// The move made (`Move::NULL` for a null move).
    pub(crate) mv: Move,
    /// The piece that moved (for a promotion, the pawn; for castling, the
    /// king; meaningless for a null move).
    pub(crate) moved: ColoredPiece,
    /// The piece it captured (for en passant, the pawn).
    pub(crate) captured: Option<ColoredPiece>,
    /// Castling rights before the move.
    pub(crate) castling: CastlingRights,
    /// En-passant square before the move.
    pub(crate) en_passant: Option<Square>,
    /// Half-move clock before the move.
    pub(crate) halfmove: u16,
    /// Plies since the last null move, before the move.
    pub(crate) plies_from_null: u16,
    /// Zobrist key before the move.
    pub(crate) key: Key,
    /// Pawn key before the move.
    pub(crate) pawn_key: Key,
}

impl HistoryEntry {
    /// The move made ([`Move::NULL`] for a null move).
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// let e4 = Move::new(Square::E2, Square::E4, MoveFlag::DoublePush);
    /// board.make_move(e4);
    /// board.make_null();
    /// assert_eq!(board.history()[0].mv(), e4);
    /// assert_eq!(board.history()[1].mv(), Move::NULL);
    /// ```
    #[inline(always)]
    pub fn mv(&self) -> Move {
        self.mv
    }

    /// The piece the move captured (for en passant, the pawn), if any.
    ///
    /// ```
    /// use kiln_board::{Board, ColoredPiece, Move, MoveFlag, Square};
    ///
    /// // e4 takes d5.
    /// let mut board: Board = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse()?;
    /// board.make_move(Move::new(Square::E4, Square::D5, MoveFlag::Capture));
    /// assert_eq!(board.history()[0].captured(), Some(ColoredPiece::BlackPawn));
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn captured(&self) -> Option<ColoredPiece> {
        self.captured
    }

    /// The Zobrist key of the position before the move.
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// let start = board.key();
    /// board.make_move(Move::new(Square::G1, Square::F3, MoveFlag::Quiet));
    /// let after = board.key();
    /// board.make_move(Move::new(Square::G8, Square::F6, MoveFlag::Quiet));
    /// let keys: Vec<_> = board.history().iter().map(|entry| entry.key_before()).collect();
    /// assert_eq!(keys, [start, after]);
    /// ```
    #[inline(always)]
    pub fn key_before(&self) -> Key {
        self.key
    }
}

/// A chess position with its game history.
///
/// Holds bitboards by colour and by kind, a square→piece mailbox, the side to
/// move, castling rights with the castling rooks' squares (any file, for
/// Chess960), the en-passant square, both clocks, an incrementally updated
/// Zobrist key and a stack of history entries for unmake and repetition.
///
/// The en-passant square is stored (and hashed) only when a pawn of the side
/// to move could capture there, so that two positions that differ only by an
/// unusable en-passant square are the same position, as FIDE's repetition
/// rule says.
///
/// `PartialEq` compares the position (everything a FEN records plus the
/// castling rooks), not the history.
///
/// ```
/// use kiln_board::{Board, Color, Move, MoveFlag, STARTPOS, Square};
///
/// let mut board = Board::startpos();
/// assert_eq!(board.to_string(), STARTPOS);
/// board.make_move(Move::new(Square::E2, Square::E4, MoveFlag::DoublePush));
/// assert_eq!(board.side_to_move(), Color::Black);
/// // No black pawn can take on e3, so no en-passant square is kept.
/// assert_eq!(board.en_passant(), None);
///
/// // Equal positions are equal boards, whatever their history.
/// let parsed: Board = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".parse()?;
/// assert_eq!(board, parsed);
/// assert_eq!((board.history().len(), parsed.history().len()), (1, 0));
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[derive(Clone)]
pub struct Board {
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; 6],
    pub(crate) mailbox: [Option<ColoredPiece>; 64],
    pub(crate) side: Color,
    pub(crate) castling: CastlingRights,
    /// `[color][CastleSide]`: the square of the rook each right refers to
    /// (meaningful only while the right is held).
    pub(crate) castle_rooks: [[Square; 2]; 2],
    /// `[color][CastleSide]`: squares that must be empty to castle (between
    /// king and rook and their destinations, except the two themselves).
    pub(crate) castle_empty: [[Bitboard; 2]; 2],
    /// `[color][CastleSide]`: squares the king crosses or lands on, which
    /// must not be attacked.
    pub(crate) castle_king_path: [[Bitboard; 2]; 2],
    /// Rights that survive a move touching each square:
    /// `rights &= mask[from] & mask[to]`. Derived from the castling rooks
    /// and kings when the position is set up (Chess960 aware).
    pub(crate) castle_mask: [CastlingRights; 64],
    pub(crate) en_passant: Option<Square>,
    pub(crate) halfmove: u16,
    pub(crate) fullmove: u16,
    pub(crate) plies_from_null: u16,
    pub(crate) key: Key,
    /// XOR of the Zobrist piece-square keys of the pawns alone (both
    /// colours): the pawn hash table's key. Updated in `make_move`, restored
    /// from `HistoryEntry` on unmake.
    pub(crate) pawn_key: Key,
    /// Material signature, kept in the placement helpers (reversible).
    pub(crate) material: Material,
    /// `[color]`: XOR of the Zobrist piece-square keys of that colour's
    /// pieces other than pawns (king included), kept in the placement
    /// helpers (reversible). Keys the non-pawn correction history.
    pub(crate) non_pawn_keys: [Key; 2],
    pub(crate) history: Vec<HistoryEntry>,
}

impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.by_color == other.by_color
            && self.by_kind == other.by_kind
            && self.mailbox == other.mailbox
            && self.side == other.side
            && self.castling == other.castling
            && self.castle_rooks_held() == other.castle_rooks_held()
            && self.en_passant == other.en_passant
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.key == other.key
            && self.pawn_key == other.pawn_key
            && self.material == other.material
            && self.non_pawn_keys == other.non_pawn_keys
    }
}

impl Eq for Board {}

impl Board {
    /// The standard starting position.
    ///
    /// ```
    /// use kiln_board::{Board, STARTPOS, count_legal};
    ///
    /// let board = Board::startpos();
    /// assert_eq!(board.to_fen(), STARTPOS);
    /// assert_eq!(count_legal(&board), 20);
    /// ```
    pub fn startpos() -> Board {
        Board::from_fen(super::fen::STARTPOS).expect("the start position FEN is valid")
    }

    /// An empty board with White to move (no kings: not a valid position;
    /// the FEN parser fills it in).
    pub(crate) fn empty() -> Board {
        Board {
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 6],
            mailbox: [None; 64],
            side: Color::White,
            castling: CastlingRights::NONE,
            castle_rooks: [[Square::H1, Square::A1], [Square::H8, Square::A8]],
            castle_empty: [[Bitboard::EMPTY; 2]; 2],
            castle_king_path: [[Bitboard::EMPTY; 2]; 2],
            castle_mask: [CastlingRights::ALL; 64],
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
            plies_from_null: 0,
            key: Key(0),
            pawn_key: Key(0),
            material: Material::BARE_KINGS,
            non_pawn_keys: [Key(0); 2],
            history: Vec::with_capacity(512),
        }
    }

    /// A copy of the position with an empty history: a clone would copy the
    /// whole history, and making a move on the copy then allocates room for
    /// one entry only. (Repetitions before the copy are not seen from it.)
    pub(crate) fn without_history(&self) -> Board {
        Board {
            history: Vec::new(),
            ..*self
        }
    }

    // ----- accessors -----------------------------------------------------

    /// The side to move.
    ///
    /// ```
    /// use kiln_board::{Board, Color, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// assert_eq!(board.side_to_move(), Color::White);
    /// board.make_move(Move::new(Square::G1, Square::F3, MoveFlag::Quiet));
    /// assert_eq!(board.side_to_move(), Color::Black);
    /// ```
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `square`, if any.
    ///
    /// ```
    /// use kiln_board::{Board, ColoredPiece, Square};
    ///
    /// let board = Board::startpos();
    /// assert_eq!(board.piece_on(Square::E1), Some(ColoredPiece::WhiteKing));
    /// assert_eq!(board.piece_on(Square::D8), Some(ColoredPiece::BlackQueen));
    /// assert_eq!(board.piece_on(Square::E4), None);
    /// ```
    #[inline(always)]
    pub fn piece_on(&self, square: Square) -> Option<ColoredPiece> {
        self.mailbox[square.index()]
    }

    /// The piece on every square, indexed by [`Square::index`] (A1 = 0).
    ///
    /// ```
    /// use kiln_board::{Board, Color, ColoredPiece, PieceKind, Square};
    ///
    /// let board = Board::startpos();
    /// let mailbox = board.mailbox();
    /// let king = ColoredPiece::new(Color::White, PieceKind::King);
    /// assert_eq!(mailbox[Square::E1.index()], Some(king));
    /// assert_eq!(mailbox.iter().flatten().count(), 32);
    /// ```
    #[inline(always)]
    pub fn mailbox(&self) -> &[Option<ColoredPiece>; 64] {
        &self.mailbox
    }

    /// The pieces of `color` and `kind`.
    ///
    /// ```
    /// use kiln_board::{Board, Color, PieceKind, Square};
    ///
    /// let board = Board::startpos();
    /// let white_pawns = board.pieces(Color::White, PieceKind::Pawn);
    /// assert_eq!(white_pawns.count(), 8);
    /// assert!(white_pawns.contains(Square::E2) && !white_pawns.contains(Square::E7));
    /// assert_eq!(board.pieces(Color::Black, PieceKind::King), Square::E8.bitboard());
    /// ```
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// The pieces of `kind`, both colours.
    ///
    /// ```
    /// use kiln_board::{Board, PieceKind, Square};
    ///
    /// let knights = Board::startpos().kind_bb(PieceKind::Knight);
    /// assert_eq!(knights.count(), 4);
    /// assert!(knights.contains(Square::B1) && knights.contains(Square::G8));
    /// ```
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// All pieces of `color`.
    ///
    /// ```
    /// use kiln_board::{Board, Color, Square};
    ///
    /// let black = Board::startpos().color_bb(Color::Black);
    /// assert_eq!(black.count(), 16);
    /// assert!(black.contains(Square::A7) && !black.contains(Square::A2));
    /// ```
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All occupied squares.
    ///
    /// ```
    /// use kiln_board::{Board, Color, Square};
    ///
    /// let board = Board::startpos();
    /// assert_eq!(board.occupied().count(), 32);
    /// assert_eq!(board.occupied(), board.color_bb(Color::White) | board.color_bb(Color::Black));
    /// assert!(!board.occupied().contains(Square::E4));
    /// ```
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    ///
    /// ```
    /// use kiln_board::{Board, Color, Square};
    ///
    /// let board: Board = "8/8/4k3/8/8/8/8/K7 w - - 0 1".parse()?;
    /// assert_eq!(board.king_square(Color::White), Square::A1);
    /// assert_eq!(board.king_square(Color::Black), Square::E6);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_index_masked(self.pieces(color, PieceKind::King).0.trailing_zeros())
    }

    /// The castling rights still held.
    ///
    /// ```
    /// use kiln_board::{Board, CastlingRights};
    ///
    /// assert_eq!(Board::startpos().castling_rights(), CastlingRights::ALL);
    /// let board: Board = "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 0 1".parse()?;
    /// let rights = board.castling_rights();
    /// assert_eq!(rights, CastlingRights::WHITE_SHORT.union(CastlingRights::BLACK_LONG));
    /// assert_eq!(rights.to_string(), "Kq");
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The square of the rook `color` castles with towards `side`, if that
    /// right is still held.
    ///
    /// ```
    /// use kiln_board::{Board, CastleSide, Color, Square};
    ///
    /// // Chess960 in Shredder-FEN: White's king on f1 castles with the rooks
    /// // on g1 (short) and e1 (long); Black has the short right only.
    /// let board: Board = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEg - 0 1".parse()?;
    /// assert_eq!(board.castling_rook(Color::White, CastleSide::Short), Some(Square::G1));
    /// assert_eq!(board.castling_rook(Color::White, CastleSide::Long), Some(Square::E1));
    /// assert_eq!(board.castling_rook(Color::Black, CastleSide::Short), Some(Square::G8));
    /// assert_eq!(board.castling_rook(Color::Black, CastleSide::Long), None);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        if self.castling.contains(side.right(color)) {
            Some(self.castle_rooks[color.index()][side.index()])
        } else {
            None
        }
    }

    /// True when a castling right held needs Chess960 rules: its king is
    /// not on the e-file or its rook not on the a- or h-file. (Such moves
    /// are best written king-takes-rook in UCI.)
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// assert!(!Board::startpos().is_chess960());
    /// // The standard position in Shredder-FEN is still standard.
    /// let shredder: Board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1".parse()?;
    /// assert!(!shredder.is_chess960());
    /// assert_eq!(shredder, Board::startpos());
    /// // A king on f1 with castling rights is not.
    /// let chess960: Board = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1".parse()?;
    /// assert!(chess960.is_chess960());
    /// // Without castling rights nothing needs Chess960 rules.
    /// let no_rights: Board = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w - - 0 1".parse()?;
    /// assert!(!no_rights.is_chess960());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn is_chess960(&self) -> bool {
        Color::ALL.into_iter().any(|color| {
            CastleSide::ALL.into_iter().any(|side| {
                self.castling_rook(color, side).is_some_and(|rook| {
                    let standard_rook = match side {
                        CastleSide::Short => File::H,
                        CastleSide::Long => File::A,
                    };
                    rook.file() != standard_rook || self.king_square(color).file() != File::E
                })
            })
        })
    }

    /// The castling rooks of rights actually held (for comparisons).
    fn castle_rooks_held(&self) -> [Option<Square>; 4] {
        let mut out = [None; 4];
        for color in Color::ALL {
            for side in CastleSide::ALL {
                out[color.index() * 2 + side.index()] = self.castling_rook(color, side);
            }
        }
        out
    }

    /// The en-passant target square, set only when a pawn of the side to
    /// move attacks it (the capture may still be illegal because of a pin).
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let e4 = Move::new(Square::E2, Square::E4, MoveFlag::DoublePush);
    /// // After 1. e4 no black pawn attacks e3: no en-passant square.
    /// let mut board = Board::startpos();
    /// board.make_move(e4);
    /// assert_eq!(board.en_passant(), None);
    /// // With a black pawn on d4 there is one.
    /// let mut board: Board = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1".parse()?;
    /// board.make_move(e4);
    /// assert_eq!(board.en_passant(), Some(Square::E3));
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move (fifty-move rule).
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// board.make_move(Move::new(Square::G1, Square::F3, MoveFlag::Quiet));
    /// assert_eq!(board.halfmove_clock(), 1);
    /// // A pawn move resets it.
    /// board.make_move(Move::new(Square::E7, Square::E5, MoveFlag::DoublePush));
    /// assert_eq!(board.halfmove_clock(), 0);
    /// ```
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The full-move number, starting at 1 and incremented after Black moves.
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// board.make_move(Move::new(Square::E2, Square::E4, MoveFlag::DoublePush));
    /// assert_eq!(board.fullmove_number(), 1);
    /// board.make_move(Move::new(Square::E7, Square::E5, MoveFlag::DoublePush));
    /// assert_eq!(board.fullmove_number(), 2);
    /// ```
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The incrementally maintained Zobrist key.
    ///
    /// ```
    /// use kiln_board::{Board, parse_uci_move};
    ///
    /// // 1. Nf3 Nf6 2. Nc3 and 1. Nc3 Nf6 2. Nf3 reach the same position.
    /// let play = |moves: &[&str]| -> Result<Board, kiln_board::UciMoveError> {
    ///     let mut board = Board::startpos();
    ///     for text in moves {
    ///         board.make_move(parse_uci_move(&board, text)?);
    ///     }
    ///     Ok(board)
    /// };
    /// let a = play(&["g1f3", "g8f6", "b1c3"])?;
    /// let b = play(&["b1c3", "g8f6", "g1f3"])?;
    /// assert_eq!(a.key(), b.key());
    /// assert_ne!(a.key(), Board::startpos().key());
    /// assert_eq!(a.key(), a.compute_key());
    /// # Ok::<(), kiln_board::UciMoveError>(())
    /// ```
    #[inline(always)]
    pub fn key(&self) -> Key {
        self.key
    }

    /// The incrementally maintained pawn key: the XOR of the Zobrist keys of
    /// every pawn on its square (equals [`compute_pawn_key`](Board::compute_pawn_key)).
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// let start = board.pawn_key();
    /// // A knight move leaves the pawn key alone; a pawn move changes it.
    /// board.make_move(Move::new(Square::G1, Square::F3, MoveFlag::Quiet));
    /// assert_eq!(board.pawn_key(), start);
    /// board.make_move(Move::new(Square::E7, Square::E5, MoveFlag::DoublePush));
    /// assert_ne!(board.pawn_key(), start);
    /// assert_eq!(board.pawn_key(), board.compute_pawn_key());
    /// ```
    #[inline(always)]
    pub fn pawn_key(&self) -> Key {
        self.pawn_key
    }

    /// The incrementally maintained material signature (equals
    /// [`Material::of_board`]).
    ///
    /// ```
    /// use kiln_board::{Board, Color, Move, MoveFlag, PieceKind, Square};
    ///
    /// let mut board: Board = "3rk3/8/8/8/8/8/4P3/3RK3 w - - 0 1".parse()?;
    /// assert_eq!(board.material().to_string(), "KRPvKR");
    /// // Rxd8+ takes Black's rook.
    /// board.make_move(Move::new(Square::D1, Square::D8, MoveFlag::Capture));
    /// assert_eq!(board.material().to_string(), "KRPvK");
    /// assert_eq!(board.material().count(Color::Black, PieceKind::Rook), 0);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of moves (including null moves) on the state stack: moves made
    /// since the position was set up.
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// assert_eq!(board.game_ply(), 0);
    /// board.make_move(Move::new(Square::E2, Square::E4, MoveFlag::DoublePush));
    /// board.make_null();
    /// assert_eq!(board.game_ply(), 2);
    /// ```
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The last move made, if any (`Move::NULL` after a null move).
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// assert_eq!(board.last_move(), None);
    /// let nf3 = Move::new(Square::G1, Square::F3, MoveFlag::Quiet);
    /// board.make_move(nf3);
    /// assert_eq!(board.last_move(), Some(nf3));
    /// board.make_null();
    /// assert_eq!(board.last_move(), Some(Move::NULL));
    /// ```
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|s| s.mv)
    }

    /// The piece captured by the last move, if any.
    ///
    /// ```
    /// use kiln_board::{Board, ColoredPiece, Move, MoveFlag, Square};
    ///
    /// // An en-passant capture takes the pawn beside the target square.
    /// let mut board: Board = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1".parse()?;
    /// assert_eq!(board.last_captured(), None);
    /// board.make_move(Move::new(Square::E5, Square::D6, MoveFlag::EnPassant));
    /// assert_eq!(board.last_captured(), Some(ColoredPiece::BlackPawn));
    /// assert_eq!(board.piece_on(Square::D5), None);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline]
    pub fn last_captured(&self) -> Option<ColoredPiece> {
        self.history.last().and_then(|s| s.captured)
    }

    /// The moves made since the position was set up (or since
    /// [`clear_history`](Board::clear_history)), oldest first: what an
    /// engine layers its own incremental state on, the way Kiln's network
    /// accumulators follow the board.
    ///
    /// ```
    /// use kiln_board::{Board, MoveList, generate_all};
    ///
    /// let mut board = Board::startpos();
    /// let mut moves = MoveList::new();
    /// generate_all(&board, &mut moves);
    /// board.make_move(moves[0]);
    /// assert_eq!(board.history().len(), 1);
    /// assert_eq!(board.history()[0].mv(), moves[0]);
    /// ```
    #[inline(always)]
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// Forgets the game history (the position stays): unmake is no longer
    /// possible past this point and repetitions before it are not seen.
    ///
    /// ```
    /// use kiln_board::{Board, parse_uci_move};
    ///
    /// let mut board = Board::startpos();
    /// for text in ["g1f3", "g8f6", "f3g1", "f6g8"] {
    ///     board.make_move(parse_uci_move(&board, text)?);
    /// }
    /// assert!(board.is_repetition(1));
    /// let fen = board.to_fen();
    /// board.clear_history();
    /// assert_eq!(board.game_ply(), 0);
    /// assert!(!board.is_repetition(1));
    /// assert_eq!(board.to_fen(), fen);
    /// # Ok::<(), kiln_board::UciMoveError>(())
    /// ```
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// The Zobrist key computed from scratch (the incremental key must equal
    /// this after every make and unmake).
    ///
    /// ```
    /// use kiln_board::{Board, MoveList, generate_all};
    ///
    /// let mut board: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
    /// let mut moves = MoveList::new();
    /// generate_all(&board, &mut moves);
    /// for &mv in moves.iter() {
    ///     board.make_move(mv);
    ///     assert_eq!(board.key(), board.compute_key());
    ///     board.unmake_move();
    /// }
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn compute_key(&self) -> Key {
        let mut key = 0;
        for square in self.occupied() {
            if let Some(piece) = self.mailbox[square.index()] {
                key ^= zobrist::piece(piece, square);
            }
        }
        key ^= zobrist::castling(self.castling);
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep.file());
        }
        if self.side == Color::Black {
            key ^= zobrist::side();
        }
        Key(key)
    }

    /// The key of `color`'s pieces other than pawns (equals
    /// [`compute_non_pawn_key`](Board::compute_non_pawn_key)).
    ///
    /// ```
    /// use kiln_board::{Board, Color, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// let white = board.non_pawn_key(Color::White);
    /// // A pawn move leaves it alone, a knight move changes it.
    /// board.make_move(Move::new(Square::E2, Square::E4, MoveFlag::DoublePush));
    /// assert_eq!(board.non_pawn_key(Color::White), white);
    /// board.make_move(Move::new(Square::G8, Square::F6, MoveFlag::Quiet));
    /// board.make_move(Move::new(Square::G1, Square::F3, MoveFlag::Quiet));
    /// assert_ne!(board.non_pawn_key(Color::White), white);
    /// assert_eq!(board.non_pawn_key(Color::White), board.compute_non_pawn_key(Color::White));
    /// ```
    #[inline]
    pub fn non_pawn_key(&self, color: Color) -> Key {
        self.non_pawn_keys[color.index()]
    }

    /// The key of `color`'s pieces other than pawns, computed from scratch.
    ///
    /// ```
    /// use kiln_board::{Board, Color, ColoredPiece, Square, zobrist};
    ///
    /// // With pawns and kings only, a side's non-pawn key is its king's key.
    /// let board: Board = "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1".parse()?;
    /// let key = board.compute_non_pawn_key(Color::White);
    /// assert_eq!(key.0, zobrist::piece(ColoredPiece::WhiteKing, Square::E1));
    /// assert_eq!(key, board.non_pawn_key(Color::White));
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn compute_non_pawn_key(&self, color: Color) -> Key {
        Key(PieceKind::ALL
            .into_iter()
            .filter(|&kind| kind != PieceKind::Pawn)
            .fold(0, |key, kind| key ^ self.placement_key(color, kind)))
    }

    /// The pawn key computed from scratch.
    ///
    /// ```
    /// use kiln_board::{Board, ColoredPiece, Key, Square, zobrist};
    ///
    /// let board: Board = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse()?;
    /// assert_eq!(board.compute_pawn_key().0, zobrist::piece(ColoredPiece::WhitePawn, Square::E2));
    /// assert_eq!(board.compute_pawn_key(), board.pawn_key());
    /// // No pawns: the empty key.
    /// let kings: Board = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse()?;
    /// assert_eq!(kings.compute_pawn_key(), Key(0));
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn compute_pawn_key(&self) -> Key {
        Key(self.placement_key(Color::White, PieceKind::Pawn)
            ^ self.placement_key(Color::Black, PieceKind::Pawn))
    }

    /// XOR of the Zobrist piece-square keys of `color`'s pieces of `kind`:
    /// the building block of the pawn and non-pawn keys.
    fn placement_key(&self, color: Color, kind: PieceKind) -> u64 {
        let piece = ColoredPiece::new(color, kind);
        self.pieces(color, kind)
            .into_iter()
            .fold(0, |key, square| key ^ zobrist::piece(piece, square))
    }

    // ----- attacks -------------------------------------------------------

    /// Pieces of both colours attacking `square`, with sliders seeing
    /// through nothing but `occupied`.
    ///
    /// ```
    /// use kiln_board::{Board, Square};
    ///
    /// // Both rooks on the first rank: only b1 sees c1, until b1 is lifted.
    /// let board: Board = "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1".parse()?;
    /// let occupied = board.occupied();
    /// assert_eq!(board.attackers_to(Square::C1, occupied), Square::B1.bitboard());
    /// let xray = board.attackers_to(Square::C1, occupied.without(Square::B1));
    /// assert_eq!(xray, Square::A1.bitboard() | Square::B1.bitboard());
    /// // In the start position three white pieces cover f3.
    /// let start = Board::startpos();
    /// assert_eq!(start.attackers_to(Square::F3, start.occupied()).count(), 3);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline]
    pub fn attackers_to(&self, square: Square, occupied: Bitboard) -> Bitboard {
        let rooks = self.by_kind[PieceKind::Rook.index()] | self.by_kind[PieceKind::Queen.index()];
        let bishops =
            self.by_kind[PieceKind::Bishop.index()] | self.by_kind[PieceKind::Queen.index()];
        (attacks::pawn(Color::White, square) & self.pieces(Color::Black, PieceKind::Pawn))
            | (attacks::pawn(Color::Black, square) & self.pieces(Color::White, PieceKind::Pawn))
            | (attacks::knight(square) & self.by_kind[PieceKind::Knight.index()])
            | (attacks::king(square) & self.by_kind[PieceKind::King.index()])
            | (attacks::rook(square, occupied) & rooks)
            | (attacks::bishop(square, occupied) & bishops)
    }

    /// True when a piece of colour `by` attacks `square`.
    ///
    /// ```
    /// use kiln_board::{Board, Color, Square};
    ///
    /// let board = Board::startpos();
    /// assert!(board.is_square_attacked(Square::F3, Color::White));
    /// assert!(!board.is_square_attacked(Square::F3, Color::Black));
    /// assert!(board.is_square_attacked(Square::F6, Color::Black));
    /// assert!(!board.is_square_attacked(Square::E4, Color::White));
    /// ```
    #[inline]
    pub fn is_square_attacked(&self, square: Square, by: Color) -> bool {
        self.attacked_by(square, by, self.occupied())
    }

    /// True when a piece of colour `by` attacks `square` given `occupied`.
    #[inline(always)]
    pub(crate) fn attacked_by(&self, square: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let queens = self.by_kind[PieceKind::Queen.index()];
        let rook_like = them & (self.by_kind[PieceKind::Rook.index()] | queens);
        let bishop_like = them & (self.by_kind[PieceKind::Bishop.index()] | queens);
        // A slider is looked up only when one shares a line with the
        // square (the empty board's attack set is two loads).
        (attacks::knight(square) & them & self.by_kind[PieceKind::Knight.index()]).any()
            || (attacks::pawn(!by, square) & them & self.by_kind[PieceKind::Pawn.index()]).any()
            || (attacks::king(square) & them & self.by_kind[PieceKind::King.index()]).any()
            || ((attacks::rook(square, Bitboard::EMPTY) & rook_like).any()
                && (attacks::rook(square, occupied) & rook_like).any())
            || ((attacks::bishop(square, Bitboard::EMPTY) & bishop_like).any()
                && (attacks::bishop(square, occupied) & bishop_like).any())
    }

    /// Enemy pieces giving check to the side to move.
    ///
    /// ```
    /// use kiln_board::{Bitboard, Board, Square};
    ///
    /// assert_eq!(Board::startpos().checkers(), Bitboard::EMPTY);
    /// // Double check from the bishop on b4 and the rook on h1.
    /// let board: Board = "4k3/8/8/8/1b6/8/8/4K2r w - - 0 1".parse()?;
    /// assert_eq!(board.checkers(), Square::B4.bitboard() | Square::H1.bitboard());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let king = self.king_square(self.side);
        self.attackers_to(king, self.occupied()) & self.by_color[(!self.side).index()]
    }

    /// The side to move's pieces pinned to its king: each stands alone
    /// between the king and an enemy rook, bishop or queen on that line,
    /// and may move only along it.
    ///
    /// ```
    /// use kiln_board::{Board, Square};
    ///
    /// // The knight on d2 is pinned by the bishop on b4.
    /// let board: Board = "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1".parse()?;
    /// assert_eq!(board.pinned(), Square::D2.bitboard());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn pinned(&self) -> Bitboard {
        let us = self.side;
        let them = self.by_color[(!us).index()];
        let queens = self.by_kind[PieceKind::Queen.index()];
        let king = self.king_square(us);
        let snipers = crate::generate::snipers(
            king,
            (self.by_kind[PieceKind::Rook.index()] | queens) & them,
            (self.by_kind[PieceKind::Bishop.index()] | queens) & them,
        );
        crate::generate::pinned_to(king, self.by_color[us.index()], self.occupied(), snipers)
    }

    /// True when the side to move is in check.
    ///
    /// The same test as `attacked_by` on the king's
    /// square, written without early exits: the search asks this at every
    /// node and the answer is almost always no, so every test runs anyway
    /// and the branches between them only cost. A slider lookup is skipped
    /// when the opponent has no slider of that kind.
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// assert!(!Board::startpos().in_check());
    /// let board: Board = "4k3/8/8/8/1b6/8/8/4K3 w - - 0 1".parse()?;
    /// assert!(board.in_check());
    /// assert_eq!(board.in_check(), board.checkers().any());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline]
    pub fn in_check(&self) -> bool {
        let king = self.king_square(self.side);
        let them = self.by_color[(!self.side).index()];
        let occupied = self.occupied();
        let queens = self.by_kind[PieceKind::Queen.index()];
        let straight = (self.by_kind[PieceKind::Rook.index()] | queens) & them;
        let diagonal = (self.by_kind[PieceKind::Bishop.index()] | queens) & them;
        let leapers = (attacks::knight(king) & self.by_kind[PieceKind::Knight.index()])
            | (attacks::pawn(self.side, king) & self.by_kind[PieceKind::Pawn.index()])
            | (attacks::king(king) & self.by_kind[PieceKind::King.index()]);
        (leapers & them).any()
            || (straight.any() && (attacks::rook(king, occupied) & straight).any())
            || (diagonal.any() && (attacks::bishop(king, occupied) & diagonal).any())
    }

    // ----- placement helpers (the single place placement changes) -------

    /// Puts `piece` on the empty `square`.
    #[inline(always)]
    pub(crate) fn put_piece(&mut self, piece: ColoredPiece, square: Square) {
        let bb = square.bitboard();
        self.by_color[piece.color().index()] ^= bb;
        self.by_kind[piece.kind().index()] ^= bb;
        self.mailbox[square.index()] = Some(piece);
        self.material = self.material.with(piece);
        self.toggle_non_pawn_key(piece, square);
    }

    /// Removes `piece` from `square` (where it must stand).
    #[inline(always)]
    pub(crate) fn remove_piece(&mut self, piece: ColoredPiece, square: Square) {
        let bb = square.bitboard();
        self.by_color[piece.color().index()] ^= bb;
        self.by_kind[piece.kind().index()] ^= bb;
        self.mailbox[square.index()] = None;
        self.material = self.material.without(piece);
        self.toggle_non_pawn_key(piece, square);
    }

    /// Adds or removes `piece` on `square` in its colour's non-pawn key.
    #[inline(always)]
    fn toggle_non_pawn_key(&mut self, piece: ColoredPiece, square: Square) {
        if piece.kind() != PieceKind::Pawn {
            self.non_pawn_keys[piece.color().index()].0 ^= zobrist::piece(piece, square);
        }
    }

    /// Moves `piece` from `from` to the empty square `to`.
    #[inline(always)]
    pub(crate) fn move_piece(&mut self, piece: ColoredPiece, from: Square, to: Square) {
        let bb = from.bitboard() | to.bitboard();
        self.by_color[piece.color().index()] ^= bb;
        self.by_kind[piece.kind().index()] ^= bb;
        self.mailbox[from.index()] = None;
        self.mailbox[to.index()] = Some(piece);
        self.toggle_non_pawn_key(piece, from);
        self.toggle_non_pawn_key(piece, to);
    }

    /// True when a pawn of `color` could capture en passant on `target`
    /// (pseudo-legally: pins are not considered). Decides whether the
    /// en-passant square is kept and hashed.
    #[inline(always)]
    pub(crate) fn ep_capturable(&self, target: Square, color: Color) -> bool {
        (attacks::pawn(!color, target) & self.pieces(color, PieceKind::Pawn)).any()
    }
}

impl Default for Board {
    /// The standard starting position, as [`Board::startpos`].
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// assert_eq!(Board::default(), Board::startpos());
    /// ```
    fn default() -> Board {
        Board::startpos()
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_fen())
    }
}

impl fmt::Display for Board {
    /// The position's FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
