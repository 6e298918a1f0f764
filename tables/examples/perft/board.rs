//! A complete legal move generator for standard chess built on nothing but
//! `kiln-tables`: a copy-make board of bitboards, FEN parsing, legal moves
//! from check and pin masks, and perft.

use core::fmt;

use kiln_tables::{
    Bitboard, CastlingRights, Color, File, ParseError, PieceKind, Rank, Square, between,
    bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, pawn_pushes, rook_attacks,
};

/// A move: from, to, and the piece a pawn promotes to. Castling is the king
/// moving two files; en passant is a pawn taking on the en-passant square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Move {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it arrives on.
    pub to: Square,
    /// The promotion piece, for a pawn reaching its last rank.
    pub promotion: Option<PieceKind>,
}

impl fmt::Display for Move {
    /// Writes the move in UCI notation (`e2e4`, `e7e8q`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        match self.promotion {
            Some(piece) => write!(f, "{piece}"),
            None => Ok(()),
        }
    }
}

/// The legal moves of a position: at most 218 in any legal position.
pub struct MoveList {
    moves: [Move; 256],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        let none = Move {
            from: Square::A1,
            to: Square::A1,
            promotion: None,
        };
        MoveList {
            moves: [none; 256],
            len: 0,
        }
    }

    fn push(&mut self, from: Square, to: Square, promotion: Option<PieceKind>) {
        self.moves[self.len] = Move {
            from,
            to,
            promotion,
        };
        self.len += 1;
    }

    /// The moves as a slice.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

/// Why a FEN could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than four space-separated fields.
    MissingField(&'static str),
    /// The piece placement is not 8 ranks of 8 squares of piece letters and
    /// digits.
    Placement,
    /// A field that names a colour, castling set or square is wrong.
    Field(&'static str, ParseError),
    /// Each side must have exactly one king.
    Kings,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::MissingField(name) => write!(f, "FEN has no {name} field"),
            FenError::Placement => f.write_str(
                "FEN piece placement must be 8 ranks separated by '/', each 8 squares of \
                 piece letters (PNBRQK, pnbrqk) and digits 1-8",
            ),
            FenError::Field(name, e) => write!(f, "FEN {name} field: {e}"),
            FenError::Kings => f.write_str("each side needs exactly one king"),
        }
    }
}

impl std::error::Error for FenError {}

/// A position: bitboards by piece kind and by colour, the side to move, the
/// castling rights and the en-passant square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    pieces: [Bitboard; 6],
    colors: [Bitboard; 2],
    side: Color,
    castling: CastlingRights,
    en_passant: Option<Square>,
}

impl Board {
    /// The position of a FEN string (the move counters are optional and
    /// not kept).
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let mut fields = fen.split_whitespace();
        let mut field = |name| fields.next().ok_or(FenError::MissingField(name));
        let placement = field("piece placement")?;
        let side = field("side to move")?;
        let castling = field("castling")?;
        let en_passant = field("en-passant")?;

        let mut board = Board {
            pieces: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            side: side
                .parse()
                .map_err(|e| FenError::Field("side to move", e))?,
            castling: castling
                .parse()
                .map_err(|e| FenError::Field("castling", e))?,
            en_passant: match en_passant {
                "-" => None,
                name => Some(name.parse().map_err(|e| FenError::Field("en-passant", e))?),
            },
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != 8 {
            return Err(FenError::Placement);
        }
        for (row, text) in rows.into_iter().enumerate() {
            let rank = Rank::ALL[7 - row];
            let mut file = 0u8;
            for c in text.chars() {
                if let Some(empty) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += empty as u8;
                } else {
                    let (color, piece) = PieceKind::from_fen_char(c).ok_or(FenError::Placement)?;
                    let square = Square::new(File::new(file).ok_or(FenError::Placement)?, rank);
                    board.pieces[piece.index()] |= square.bitboard();
                    board.colors[color.index()] |= square.bitboard();
                    file += 1;
                }
            }
            if file != 8 {
                return Err(FenError::Placement);
            }
        }
        let kings = board.pieces[PieceKind::King.index()];
        if Color::ALL
            .iter()
            .any(|&c| (kings & board.colors[c.index()]).count() != 1)
        {
            return Err(FenError::Kings);
        }
        Ok(board)
    }

    fn ours(&self, piece: PieceKind) -> Bitboard {
        self.pieces[piece.index()] & self.colors[self.side.index()]
    }

    fn piece_on(&self, square: Square) -> Option<PieceKind> {
        PieceKind::ALL
            .into_iter()
            .find(|p| self.pieces[p.index()].contains(square))
    }

    fn king(&self, color: Color) -> Square {
        let kings = self.pieces[PieceKind::King.index()] & self.colors[color.index()];
        kings
            .first()
            .expect("from_fen checked there is one king a side")
    }

    /// The pieces among `by` that attack `square` when `occupied` are the
    /// occupied squares.
    fn attackers(
        &self,
        square: Square,
        by: Bitboard,
        occupied: Bitboard,
        color: Color,
    ) -> Bitboard {
        let p = |piece: PieceKind| self.pieces[piece.index()] & by;
        let diagonal = p(PieceKind::Bishop) | p(PieceKind::Queen);
        let straight = p(PieceKind::Rook) | p(PieceKind::Queen);
        (pawn_attacks(color.flip(), square) & p(PieceKind::Pawn))
            | (knight_attacks(square) & p(PieceKind::Knight))
            | (king_attacks(square) & p(PieceKind::King))
            | (bishop_attacks(square, occupied) & diagonal)
            | (rook_attacks(square, occupied) & straight)
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let us = self.side;
        let them = us.flip();
        let ours = self.colors[us.index()];
        let theirs = self.colors[them.index()];
        let occupied = ours | theirs;
        let king = self.king(us);
        let checkers = self.attackers(king, theirs, occupied, them);

        // King moves, with the king taken off the board so that it does not
        // hide the squares behind it from a slider.
        let without_king = occupied.without(king);
        for to in king_attacks(king) & !ours {
            if self.attackers(to, theirs, without_king, them).is_empty() {
                list.push(king, to, None);
            }
        }
        if checkers.count() > 1 {
            return list;
        }

        // Out of a single check, a move must take the checker or block.
        let check_mask = match checkers.first() {
            Some(checker) => between(king, checker).with(checker),
            None => Bitboard::FULL,
        };
        // A pinned piece may only move along the line through its king.
        let mut pinned = Bitboard::EMPTY;
        let p = |piece: PieceKind| self.pieces[piece.index()] & theirs;
        let snipers = (rook_attacks(king, Bitboard::EMPTY)
            & (p(PieceKind::Rook) | p(PieceKind::Queen)))
            | (bishop_attacks(king, Bitboard::EMPTY)
                & (p(PieceKind::Bishop) | p(PieceKind::Queen)));
        for sniper in snipers {
            let blockers = between(king, sniper) & occupied;
            if blockers.count() == 1 {
                pinned |= blockers & ours;
            }
        }
        let allowed = |from: Square, to: Bitboard| {
            let to = to & check_mask;
            if pinned.contains(from) {
                to & line(king, from)
            } else {
                to
            }
        };

        for from in self.ours(PieceKind::Knight) & !pinned {
            for to in allowed(from, knight_attacks(from) & !ours) {
                list.push(from, to, None);
            }
        }
        for from in self.ours(PieceKind::Bishop) | self.ours(PieceKind::Queen) {
            for to in allowed(from, bishop_attacks(from, occupied) & !ours) {
                list.push(from, to, None);
            }
        }
        for from in self.ours(PieceKind::Rook) | self.ours(PieceKind::Queen) {
            for to in allowed(from, rook_attacks(from, occupied) & !ours) {
                list.push(from, to, None);
            }
        }
        self.pawn_moves(&mut list, occupied, theirs, &allowed);
        if checkers.is_empty() {
            self.castling_moves(&mut list, occupied, theirs);
        }
        list
    }

    fn pawn_moves(
        &self,
        list: &mut MoveList,
        occupied: Bitboard,
        theirs: Bitboard,
        allowed: &impl Fn(Square, Bitboard) -> Bitboard,
    ) {
        let us = self.side;
        let last = Rank::Eighth.relative_to(us);
        for from in self.ours(PieceKind::Pawn) {
            let mut targets = pawn_attacks(us, from) & theirs;
            let single = pawn_pushes(us, from) & !occupied;
            targets |= single;
            if let Some(step) = single.first()
                && from.rank() == Rank::Second.relative_to(us)
            {
                targets |= pawn_pushes(us, step) & !occupied;
            }
            for to in allowed(from, targets) {
                if to.rank() == last {
                    for piece in [
                        PieceKind::Queen,
                        PieceKind::Rook,
                        PieceKind::Bishop,
                        PieceKind::Knight,
                    ] {
                        list.push(from, to, Some(piece));
                    }
                } else {
                    list.push(from, to, None);
                }
            }
            // En passant removes two pawns from one rank, which pins and
            // check masks do not describe: play it out and look at the king.
            if let Some(ep) = self.en_passant
                && pawn_attacks(us, from).contains(ep)
            {
                let taken = Square::new(ep.file(), from.rank());
                let occupied = occupied.without(from).without(taken).with(ep);
                let attackers = theirs.without(taken);
                if self
                    .attackers(self.king(us), attackers, occupied, us.flip())
                    .is_empty()
                {
                    list.push(from, ep, None);
                }
            }
        }
    }

    fn castling_moves(&self, list: &mut MoveList, occupied: Bitboard, theirs: Bitboard) {
        let us = self.side;
        let (short, long) = match us {
            Color::White => (CastlingRights::WHITE_SHORT, CastlingRights::WHITE_LONG),
            Color::Black => (CastlingRights::BLACK_SHORT, CastlingRights::BLACK_LONG),
        };
        let king = Square::E1.relative_to(us);
        let sides = [
            (short, Square::H1, Square::G1, Square::F1),
            (long, Square::A1, Square::C1, Square::D1),
        ];
        for (right, rook, to, through) in sides {
            let (rook, to, through) = (
                rook.relative_to(us),
                to.relative_to(us),
                through.relative_to(us),
            );
            let safe = |s: Square| self.attackers(s, theirs, occupied, us.flip()).is_empty();
            if self.castling.contains(right)
                && (between(king, rook) & occupied).is_empty()
                && safe(through)
                && safe(to)
            {
                list.push(king, to, None);
            }
        }
    }

    /// The position after `mv`, which must be one of [`Board::legal_moves`].
    pub fn play(&self, mv: Move) -> Board {
        let mut next = *self;
        let us = self.side;
        let them = us.flip();
        let (from, to) = (mv.from, mv.to);
        let moved = self.piece_on(from).expect("a legal move starts on a piece");
        let toggle = |b: &mut Board, piece: PieceKind, color: Color, square: Square| {
            b.pieces[piece.index()] ^= square.bitboard();
            b.colors[color.index()] ^= square.bitboard();
        };
        if let Some(captured) = self.piece_on(to) {
            toggle(&mut next, captured, them, to);
        }
        toggle(&mut next, moved, us, from);
        toggle(&mut next, mv.promotion.unwrap_or(moved), us, to);
        next.en_passant = None;
        match moved {
            PieceKind::Pawn if Some(to) == self.en_passant => {
                let taken = Square::new(to.file(), from.rank());
                toggle(&mut next, PieceKind::Pawn, them, taken);
            }
            PieceKind::Pawn if from.rank().index().abs_diff(to.rank().index()) == 2 => {
                next.en_passant = Some(Square::new(from.file(), Rank::Third.relative_to(us)));
            }
            PieceKind::King if from.file().index().abs_diff(to.file().index()) == 2 => {
                let (rook_from, rook_to) = if to.file() == File::G {
                    (File::H, File::F)
                } else {
                    (File::A, File::D)
                };
                let rank = from.rank();
                toggle(&mut next, PieceKind::Rook, us, Square::new(rook_from, rank));
                toggle(&mut next, PieceKind::Rook, us, Square::new(rook_to, rank));
            }
            _ => {}
        }
        next.castling = self.castling.after_move(from, to);
        next.side = them;
        next
    }
}

/// The number of leaf positions `depth` plies below `board`.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.legal_moves();
    if depth == 1 {
        return moves.as_slice().len() as u64;
    }
    moves
        .as_slice()
        .iter()
        .map(|&mv| perft(&board.play(mv), depth - 1))
        .sum()
}
