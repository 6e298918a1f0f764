//! Make and unmake, including the null move.
//!
//! Every change to the placement goes through `put_piece`, `remove_piece`
//! and `move_piece` (see `board.rs`), which also keep the material
//! signature; the Zobrist key and the pawn key are updated here by XOR, and
//! `unmake` restores what cannot be undone by XOR (rights, en passant,
//! clocks, keys) from the [`HistoryEntry`] that `make` pushed.
//!
//! Castling is encoded king-takes-rook, so one code path serves standard
//! chess and Chess960: lift king and rook, then drop them on their
//! destinations (which may be each other's start squares).

use super::Color;
use super::PieceKind;
use super::Square;
use super::board::{Board, HistoryEntry};
use super::material::Material;
use super::moves::{Move, MoveFlag};
use super::piece::ColoredPiece;
use super::zobrist::{self, Key};

impl Board {
    /// Plays `mv`, which must be legal in this position (from the move
    /// generator or [`parse_uci_move`](crate::parse_uci_move)).
    /// Playing anything else corrupts the board (in debug builds it is
    /// caught by assertions). [`Move::NULL`] is not a move: use
    /// [`make_null`](Board::make_null).
    ///
    /// ```
    /// use kiln_board::{Board, Color, ColoredPiece, Square, parse_uci_move};
    ///
    /// let mut board = Board::startpos();
    /// board.make_move(parse_uci_move(&board, "e2e4")?);
    /// assert_eq!(board.piece_on(Square::E4), Some(ColoredPiece::WhitePawn));
    /// assert_eq!(board.side_to_move(), Color::Black);
    ///
    /// // Chess960 castling, king takes rook: king b1 and rook a1 castle long,
    /// // to c1 and d1.
    /// let mut board: Board = "r3k3/8/8/8/8/8/8/RK6 w Aq - 0 1".parse()?;
    /// let castle = parse_uci_move(&board, "b1a1")?;
    /// assert!(castle.is_castle());
    /// board.make_move(castle);
    /// assert_eq!(board.to_fen(), "r3k3/8/8/8/8/8/8/2KR4 b q - 1 1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn make_move(&mut self, mv: Move) {
        debug_assert!(!mv.is_null(), "make_move(Move::NULL): use make_null");
        let us = self.side;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let flag = mv.flag();
        let Some(piece) = self.mailbox[from.index()] else {
            debug_assert!(false, "make_move: no piece on {from} for {mv} in {self:?}");
            return;
        };
        debug_assert_eq!(
            piece.color(),
            us,
            "make_move: {mv} moves the opponent's piece"
        );

        let mut state = self.saved_state(mv);
        state.moved = piece;
        let mut key = self.key.0 ^ zobrist::side();
        let mut pawn_key = self.pawn_key.0;
        if let Some(ep) = self.en_passant.take() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.plies_from_null = self.plies_from_null.saturating_add(1);

        match flag {
            MoveFlag::Castle => {
                let rook = ColoredPiece::new(us, PieceKind::Rook);
                let side = mv.castle_side();
                let king_to = side.king_destination(from.rank());
                let rook_to = side.rook_destination(from.rank());
                self.remove_piece(piece, from);
                self.remove_piece(rook, to);
                self.put_piece(piece, king_to);
                self.put_piece(rook, rook_to);
                key ^= zobrist::piece(piece, from)
                    ^ zobrist::piece(piece, king_to)
                    ^ zobrist::piece(rook, to)
                    ^ zobrist::piece(rook, rook_to);
            }
            MoveFlag::EnPassant => {
                let captured_at = Square::from_index_masked(to as u32 ^ 8);
                let captured = ColoredPiece::new(them, PieceKind::Pawn);
                self.remove_piece(captured, captured_at);
                self.move_piece(piece, from, to);
                let pawns = zobrist::piece(captured, captured_at)
                    ^ zobrist::piece(piece, from)
                    ^ zobrist::piece(piece, to);
                key ^= pawns;
                pawn_key ^= pawns;
                state.captured = Some(captured);
                self.halfmove = 0;
            }
            _ => {
                if let Some(captured) = self.mailbox[to.index()] {
                    self.remove_piece(captured, to);
                    let gone = zobrist::piece(captured, to);
                    key ^= gone;
                    if captured.kind() == PieceKind::Pawn {
                        pawn_key ^= gone;
                    }
                    state.captured = Some(captured);
                    self.halfmove = 0;
                }
                match mv.promotion() {
                    Some(kind) => {
                        let promoted = ColoredPiece::new(us, kind);
                        self.remove_piece(piece, from);
                        self.put_piece(promoted, to);
                        let pawn_gone = zobrist::piece(piece, from);
                        key ^= pawn_gone ^ zobrist::piece(promoted, to);
                        pawn_key ^= pawn_gone;
                    }
                    None => {
                        self.move_piece(piece, from, to);
                        let moved = zobrist::piece(piece, from) ^ zobrist::piece(piece, to);
                        key ^= moved;
                        if piece.kind() == PieceKind::Pawn {
                            pawn_key ^= moved;
                        }
                    }
                }
                if piece.kind() == PieceKind::Pawn {
                    self.halfmove = 0;
                    if flag == MoveFlag::DoublePush {
                        let target = Square::from_index_masked((from as u32 + to as u32) / 2);
                        if self.ep_capturable(target, them) {
                            self.en_passant = Some(target);
                            key ^= zobrist::en_passant(target.file());
                        }
                    }
                }
            }
        }

        let rights = self.castling;
        if !rights.is_empty() {
            let new = rights
                .intersection(self.castle_mask[from.index()])
                .intersection(self.castle_mask[to.index()]);
            if new != rights {
                key ^= zobrist::castling(rights) ^ zobrist::castling(new);
                self.castling = new;
            }
        }

        self.pass_turn();
        self.key = Key(key);
        self.pawn_key = Key(pawn_key);
        self.history.push(state);
        self.debug_check_incremental(mv, "after");
    }

    /// The Zobrist key [`make_move`](Board::make_move) would give for `mv`,
    /// cheaply and without moving anything, for ordinary moves, captures
    /// and promotions. Castling, en passant captures, a new en passant
    /// square and lost castling rights are left out, so for those moves the
    /// result is not the real key: use it only as a hint (the search
    /// prefetches the child's hash table entries with it).
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveFlag, Square};
    ///
    /// let mut board = Board::startpos();
    /// let mv = Move::new(Square::G1, Square::F3, MoveFlag::Quiet);
    /// let predicted = board.key_after(mv);
    /// board.make_move(mv);
    /// assert_eq!(predicted, board.key().0);
    /// ```
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let mut key = self.key.0 ^ zobrist::side();
        if let Some(ep) = self.en_passant {
            key ^= zobrist::en_passant(ep.file());
        }
        let (from, to) = (mv.from(), mv.to());
        let Some(piece) = self.mailbox[from.index()] else {
            return key;
        };
        if let Some(captured) = self.mailbox[to.index()] {
            key ^= zobrist::piece(captured, to);
        }
        let landed = mv
            .promotion()
            .map_or(piece, |kind| ColoredPiece::new(piece.color(), kind));
        key ^ zobrist::piece(piece, from) ^ zobrist::piece(landed, to)
    }

    /// Takes back the last [`make_move`](Board::make_move).
    ///
    /// # Panics
    /// Panics when there is no move to take back, or (in debug builds) when
    /// the last move was a null move.
    ///
    /// ```
    /// use kiln_board::{Board, parse_uci_move};
    ///
    /// let mut board: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
    /// let before = board.clone();
    /// // Nxf7 and back.
    /// board.make_move(parse_uci_move(&board, "e5f7")?);
    /// assert_ne!(board, before);
    /// board.unmake_move();
    /// assert_eq!(board, before);
    /// assert_eq!(board.key(), before.key());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn unmake_move(&mut self) {
        let state = self
            .history
            .pop()
            .expect("unmake_move: no move to take back");
        let mv = state.mv;
        debug_assert!(!mv.is_null(), "unmake_move after make_null");
        self.take_back_turn();
        let us = self.side;
        let from = mv.from();
        let to = mv.to();
        match mv.flag() {
            MoveFlag::Castle => {
                let king = ColoredPiece::new(us, PieceKind::King);
                let rook = ColoredPiece::new(us, PieceKind::Rook);
                let side = mv.castle_side();
                let king_to = side.king_destination(from.rank());
                let rook_to = side.rook_destination(from.rank());
                self.remove_piece(king, king_to);
                self.remove_piece(rook, rook_to);
                self.put_piece(king, from);
                self.put_piece(rook, to);
            }
            MoveFlag::EnPassant => {
                let pawn = ColoredPiece::new(us, PieceKind::Pawn);
                self.move_piece(pawn, to, from);
                let captured_at = Square::from_index_masked(to as u32 ^ 8);
                self.put_piece(ColoredPiece::new(!us, PieceKind::Pawn), captured_at);
            }
            _ => {
                let Some(moved) = self.mailbox[to.index()] else {
                    debug_assert!(false, "unmake_move: {to} is empty");
                    return;
                };
                if mv.is_promotion() {
                    self.remove_piece(moved, to);
                    self.put_piece(ColoredPiece::new(us, PieceKind::Pawn), from);
                } else {
                    self.move_piece(moved, to, from);
                }
                if let Some(captured) = state.captured {
                    self.put_piece(captured, to);
                }
            }
        }
        self.restore_state(&state);
        self.debug_check_incremental(mv, "after unmaking");
    }

    /// Passes the move to the opponent (null-move pruning). Must not be
    /// called when the side to move is in check.
    ///
    /// ```
    /// use kiln_board::{Board, Color, Move, zobrist};
    ///
    /// let mut board = Board::startpos();
    /// let key = board.key();
    /// board.make_null();
    /// assert_eq!(board.side_to_move(), Color::Black);
    /// assert_eq!(board.key().0, key.0 ^ zobrist::side());
    /// assert_eq!(board.last_move(), Some(Move::NULL));
    /// ```
    #[inline]
    pub fn make_null(&mut self) {
        debug_assert!(!self.in_check(), "make_null while in check");
        self.history.push(self.saved_state(Move::NULL));
        let mut key = self.key.0 ^ zobrist::side();
        if let Some(ep) = self.en_passant.take() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.key = Key(key);
        self.halfmove = self.halfmove.saturating_add(1);
        self.plies_from_null = 0;
        self.pass_turn();
        self.debug_check_incremental(Move::NULL, "after");
    }

    /// Takes back the last [`make_null`](Board::make_null).
    ///
    /// # Panics
    /// Panics when there is nothing to take back.
    ///
    /// ```
    /// use kiln_board::{Board, Color};
    ///
    /// let mut board = Board::startpos();
    /// board.make_null();
    /// board.unmake_null();
    /// assert_eq!(board, Board::startpos());
    /// assert_eq!(board.side_to_move(), Color::White);
    /// assert_eq!(board.game_ply(), 0);
    /// ```
    #[inline]
    pub fn unmake_null(&mut self) {
        let state = self
            .history
            .pop()
            .expect("unmake_null: no move to take back");
        debug_assert!(state.mv.is_null(), "unmake_null after a real move");
        self.take_back_turn();
        self.restore_state(&state);
        self.debug_check_incremental(Move::NULL, "after unmaking");
    }

    /// Debug builds: the incrementally kept key, pawn key and material
    /// signature must equal their from-scratch recomputations.
    #[inline(always)]
    fn debug_check_incremental(&self, mv: Move, when: &str) {
        debug_assert_eq!(self.key, self.compute_key(), "key {when} {mv}");
        debug_assert_eq!(
            self.pawn_key,
            self.compute_pawn_key(),
            "pawn key {when} {mv}"
        );
        debug_assert_eq!(
            self.material,
            Material::of_board(self),
            "material {when} {mv}"
        );
        for color in Color::ALL {
            debug_assert_eq!(
                self.non_pawn_key(color),
                self.compute_non_pawn_key(color),
                "{color:?} non-pawn key {when} {mv}"
            );
        }
    }

    /// What unmake will need, before `mv` changes anything.
    #[inline(always)]
    fn saved_state(&self, mv: Move) -> HistoryEntry {
        HistoryEntry {
            mv,
            moved: ColoredPiece::WhitePawn,
            captured: None,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove: self.halfmove,
            plies_from_null: self.plies_from_null,
            key: self.key,
            pawn_key: self.pawn_key,
        }
    }

    /// Restores everything XOR cannot undo.
    #[inline(always)]
    fn restore_state(&mut self, state: &HistoryEntry) {
        self.castling = state.castling;
        self.en_passant = state.en_passant;
        self.halfmove = state.halfmove;
        self.plies_from_null = state.plies_from_null;
        self.key = state.key;
        self.pawn_key = state.pawn_key;
    }

    /// Hands the move to the other side (the full-move number counts Black's
    /// moves).
    #[inline(always)]
    fn pass_turn(&mut self) {
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_add(1);
        }
        self.side = !self.side;
    }

    /// Undoes [`pass_turn`](Board::pass_turn).
    #[inline(always)]
    fn take_back_turn(&mut self) {
        self.side = !self.side;
        if self.side == Color::Black {
            self.fullmove = self.fullmove.wrapping_sub(1);
        }
    }
}
