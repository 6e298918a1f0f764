//! The `Board`: position state, accessors and the three piece-placement
//! helpers every change to the position goes through.

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
use crate::weights::PSQT;

/// What `unmake_move` needs to restore, pushed by every make. The stack of
/// these is also the game's key history for repetition detection: entry `i`
/// holds the key of the position *before* move `i`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct State {
    /// The move made (`Move::NULL` for a null move).
    pub(crate) mv: Move,
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

/// A chess position with its game history.
///
/// Holds bitboards by colour and by kind, a square→piece mailbox, the side to
/// move, castling rights with the castling rooks' squares (any file, for
/// Chess960), the en-passant square, both clocks, an incrementally updated
/// Zobrist key and a stack of `State`s for unmake and repetition.
///
/// The en-passant square is stored (and hashed) only when a pawn of the side
/// to move could capture there, so that two positions that differ only by an
/// unusable en-passant square are the same position, as FIDE's repetition
/// rule says.
///
/// `PartialEq` compares the position (everything a FEN records plus the
/// castling rooks), not the history.
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
    /// from `State` on unmake.
    pub(crate) pawn_key: Key,
    /// Material signature, kept in the placement helpers (reversible).
    pub(crate) material: Material,
    /// `[color]`: XOR of the Zobrist piece-square keys of that colour's
    /// pieces other than pawns (king included), kept in the placement
    /// helpers (reversible). Keys the non-pawn correction history.
    pub(crate) non_pawn_keys: [Key; 2],
    pub(crate) history: Vec<State>,
    // EVAL HOOK: incrementally updated evaluation terms (e.g. a PSQT
    // accumulator) go here; update them in `put_piece`, `remove_piece` and
    // `move_piece` below, which are the only places the placement changes,
    // and save/restore anything non-reversible in `State`.
    /// Sum of the evaluation's piece-square entries (material included),
    /// packed `S(mg, eg)`, White's point of view. Reversible: add/subtract
    /// in the placement helpers, nothing to save in `State`.
    pub(crate) psqt: i32,
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
            psqt: 0,
        }
    }

    /// The incrementally updated piece-square sum (material included),
    /// packed `S(mg, eg)` from White's point of view; equals
    /// `kiln::eval::psqt_sum(self)`.
    #[inline(always)]
    pub fn psqt(&self) -> i32 {
        self.psqt
    }

    // ----- accessors -----------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `square`, if any.
    #[inline(always)]
    pub fn piece_on(&self, square: Square) -> Option<ColoredPiece> {
        self.mailbox[square.index()]
    }

    /// The pieces of `color` and `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// The pieces of `kind`, both colours.
    #[inline(always)]
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// All pieces of `color`.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_index_masked(self.pieces(color, PieceKind::King).0.trailing_zeros())
    }

    /// The castling rights still held.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The square of the rook `color` castles with towards `side`, if that
    /// right is still held.
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
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move (fifty-move rule).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u16 {
        self.halfmove
    }

    /// The full-move number, starting at 1 and incremented after Black moves.
    #[inline(always)]
    pub fn fullmove_number(&self) -> u16 {
        self.fullmove
    }

    /// The incrementally maintained Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> Key {
        self.key
    }

    /// The incrementally maintained pawn key: the XOR of the Zobrist keys of
    /// every pawn on its square (equals [`compute_pawn_key`](Board::compute_pawn_key)).
    #[inline(always)]
    pub fn pawn_key(&self) -> Key {
        self.pawn_key
    }

    /// The incrementally maintained material signature (equals
    /// [`Material::of_board`]).
    #[inline(always)]
    pub fn material(&self) -> Material {
        self.material
    }

    /// Number of moves (including null moves) on the state stack: moves made
    /// since the position was set up.
    #[inline(always)]
    pub fn game_ply(&self) -> usize {
        self.history.len()
    }

    /// The last move made, if any (`Move::NULL` after a null move).
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|s| s.mv)
    }

    /// The piece captured by the last move, if any.
    #[inline]
    pub fn last_captured(&self) -> Option<ColoredPiece> {
        self.history.last().and_then(|s| s.captured)
    }

    /// Forgets the game history (the position stays): unmake is no longer
    /// possible past this point and repetitions before it are not seen.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// The Zobrist key computed from scratch (the incremental key must equal
    /// this after every make and unmake).
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
    #[inline]
    pub fn non_pawn_key(&self, color: Color) -> Key {
        self.non_pawn_keys[color.index()]
    }

    /// The key of `color`'s pieces other than pawns, computed from scratch.
    pub fn compute_non_pawn_key(&self, color: Color) -> Key {
        Key(PieceKind::ALL
            .into_iter()
            .filter(|&kind| kind != PieceKind::Pawn)
            .fold(0, |key, kind| key ^ self.placement_key(color, kind)))
    }

    /// The pawn key computed from scratch.
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
    #[inline]
    pub fn is_square_attacked(&self, square: Square, by: Color) -> bool {
        self.attacked_by(square, by, self.occupied())
    }

    /// True when a piece of colour `by` attacks `square` given `occupied`.
    #[inline(always)]
    pub(crate) fn attacked_by(&self, square: Square, by: Color, occupied: Bitboard) -> bool {
        let them = self.by_color[by.index()];
        let queens = self.by_kind[PieceKind::Queen.index()];
        (attacks::knight(square) & them & self.by_kind[PieceKind::Knight.index()]).any()
            || (attacks::pawn(!by, square) & them & self.by_kind[PieceKind::Pawn.index()]).any()
            || (attacks::rook(square, occupied)
                & them
                & (self.by_kind[PieceKind::Rook.index()] | queens))
                .any()
            || (attacks::bishop(square, occupied)
                & them
                & (self.by_kind[PieceKind::Bishop.index()] | queens))
                .any()
            || (attacks::king(square) & them & self.by_kind[PieceKind::King.index()]).any()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        let king = self.king_square(self.side);
        self.attackers_to(king, self.occupied()) & self.by_color[(!self.side).index()]
    }

    /// True when the side to move is in check.
    ///
    /// The same test as `attacked_by` on the king's
    /// square, written without early exits: the search asks this at every
    /// node and the answer is almost always no, so every test runs anyway
    /// and the branches between them only cost. A slider lookup is skipped
    /// when the opponent has no slider of that kind.
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
        // EVAL HOOK: add `piece` on `square` to incremental terms.
        self.psqt = self.psqt.wrapping_add(psqt_entry(piece, square));
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
        // EVAL HOOK: remove `piece` on `square` from incremental terms.
        self.psqt = self.psqt.wrapping_sub(psqt_entry(piece, square));
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
        // EVAL HOOK: move `piece` from `from` to `to` in incremental terms.
        self.psqt = self
            .psqt
            .wrapping_add(psqt_entry(piece, to))
            .wrapping_sub(psqt_entry(piece, from));
    }

    /// True when a pawn of `color` could capture en passant on `target`
    /// (pseudo-legally: pins are not considered). Decides whether the
    /// en-passant square is kept and hashed.
    #[inline(always)]
    pub(crate) fn ep_capturable(&self, target: Square, color: Color) -> bool {
        (attacks::pawn(!color, target) & self.pieces(color, PieceKind::Pawn)).any()
    }
}

/// The evaluation's packed piece-square entry for `piece` on `square` (a
/// build-time table; see [`crate::weights`]).
#[inline(always)]
fn psqt_entry(piece: ColoredPiece, square: Square) -> i32 {
    PSQT[piece.color().index()][piece.kind().index()][square.index()]
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
