//! Legal move generation with check and pin masks (no make-and-test).
//!
//! The algorithm, per position:
//! 1. `checkers`: enemy pieces attacking our king. With two, only king moves
//!    are legal. With one, every other move must capture it or land between
//!    it and the king: `check_mask = between(king, checker) | checker`.
//! 2. Pins: enemy sliders that would see our king if our own pieces were
//!    transparent ("snipers"); when exactly one piece stands between, and it
//!    is ours, it is pinned and may only move along `line(king, piece)`. A
//!    pinned piece never has a legal move while in check (its pin line and
//!    the check line meet only at the king).
//! 3. King moves are tested against attacks with the king lifted off the
//!    board (so it cannot hide behind itself from a slider).
//! 4. En passant, whose capture removes two pieces from a rank, is tested by
//!    recomputing slider attacks on the king with the new occupancy.
//! 5. Castling (standard and Chess960 alike): the squares between king and
//!    rook and their destinations must be empty, and no square the king
//!    crosses or lands on may be attacked after the move.
//!
//! Moves go to a [`Sink`]: a [`MoveList`], or a counter that adds bitboard
//! population counts, which is how perft counts the last ply without
//! building a list.

use crate::{
    Bitboard, Board, CastleSide, CastlingRights, Color, File, Move, MoveFlag, PieceKind, Rank,
    Square, attacks,
};
use kiln_tables::{file_mask, rank_mask};

use alloc::vec::Vec;

use crate::move_list::MoveList;

/// Which moves to generate (a const parameter, so each flavour compiles to
/// its own specialised code).
pub(crate) mod mode {
    /// Every legal move.
    pub const ALL: u8 = 0;
    /// Captures and promotions.
    pub const NOISY: u8 = 1;
    /// Non-captures that are not promotions.
    pub const QUIETS: u8 = 2;
    /// Noisy moves, or every evasion when in check (quiescence).
    pub const NOISY_OR_EVASIONS: u8 = 3;
}

/// Where generated moves go: a [`MoveList`] (on the stack, the fastest),
/// a `Vec<Move>`, or a type of the caller's own. Only [`push`](MoveSink::push)
/// is required.
///
/// ```
/// use kiln_board::{Board, Move, MoveSink, generate_all};
///
/// /// Keeps the knight moves only.
/// struct KnightMoves<'a>(&'a Board, Vec<Move>);
///
/// impl MoveSink for KnightMoves<'_> {
///     fn push(&mut self, mv: Move) {
///         if self.0.piece_on(mv.from()).is_some_and(|p| p.kind() == kiln_board::PieceKind::Knight) {
///             self.1.push(mv);
///         }
///     }
/// }
///
/// let board = Board::startpos();
/// let mut knights = KnightMoves(&board, Vec::new());
/// generate_all(&board, &mut knights);
/// assert_eq!(knights.1.len(), 4);
/// ```
pub trait MoveSink {
    /// Receives one legal move.
    ///
    /// ```
    /// use kiln_board::{Board, Move, MoveSink, generate_all};
    ///
    /// /// Counts the moves and keeps the captures.
    /// #[derive(Default)]
    /// struct Tally {
    ///     moves: usize,
    ///     captures: Vec<Move>,
    /// }
    ///
    /// impl MoveSink for Tally {
    ///     fn push(&mut self, mv: Move) {
    ///         self.moves += 1;
    ///         if mv.is_capture() {
    ///             self.captures.push(mv);
    ///         }
    ///     }
    /// }
    ///
    /// let board: Board = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse()?;
    /// let mut tally = Tally::default();
    /// generate_all(&board, &mut tally);
    /// assert_eq!(tally.moves, 7); // e5, exd5 and five king moves
    /// assert_eq!(tally.captures.len(), 1);
    /// assert_eq!(tally.captures[0].to_uci(false), "e4d5");
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    fn push(&mut self, mv: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }
}

impl MoveSink for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        Vec::push(self, mv);
    }
}

/// What the generator writes to: every [`MoveSink`] through the loops
/// below, and perft's [`Counter`], which counts whole target sets at once.
pub(crate) trait Sink {
    /// One move.
    fn push(&mut self, mv: Move);
    /// Moves of a non-pawn piece from `from` to each of `targets`; those in
    /// `them` are captures.
    fn piece_moves(&mut self, from: Square, targets: Bitboard, them: Bitboard);
    /// Pawn moves to each of `targets`, each from `to - delta`, with `flag`
    /// (quiet, double push or capture; never promotion).
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32, flag: MoveFlag);
    /// All four promotions for each of `targets`, each from `to - delta`.
    fn promotions(&mut self, targets: Bitboard, delta: i32, capture: bool);
    /// King moves from `from` to each of `targets`, in square order (the
    /// order the search's move picker has always seen); those in `them`
    /// are captures.
    fn king_moves(&mut self, from: Square, targets: Bitboard, them: Bitboard);
}

impl<T: MoveSink> Sink for T {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        MoveSink::push(self, mv);
    }

    #[inline(always)]
    fn king_moves(&mut self, from: Square, targets: Bitboard, them: Bitboard) {
        let mut bb = targets.0;
        while bb != 0 {
            let to = Square::from_index_masked(bb.trailing_zeros());
            bb &= bb - 1;
            let flag = if them.contains(to) {
                MoveFlag::Capture
            } else {
                MoveFlag::Quiet
            };
            MoveSink::push(self, Move::new(from, to, flag));
        }
    }

    #[inline(always)]
    fn piece_moves(&mut self, from: Square, targets: Bitboard, them: Bitboard) {
        let from = from as u32;
        let mut captures = (targets & them).0;
        while captures != 0 {
            let to = captures.trailing_zeros();
            captures &= captures - 1;
            MoveSink::push(self, Move::from_raw(from, to, MoveFlag::Capture));
        }
        let mut quiets = (targets & !them).0;
        while quiets != 0 {
            let to = quiets.trailing_zeros();
            quiets &= quiets - 1;
            MoveSink::push(self, Move::from_raw(from, to, MoveFlag::Quiet));
        }
    }

    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, delta: i32, flag: MoveFlag) {
        let mut bb = targets.0;
        while bb != 0 {
            let to = bb.trailing_zeros();
            bb &= bb - 1;
            MoveSink::push(self, Move::from_raw((to as i32 - delta) as u32, to, flag));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, delta: i32, capture: bool) {
        let mut bb = targets.0;
        while bb != 0 {
            let to = bb.trailing_zeros();
            bb &= bb - 1;
            let from = (to as i32 - delta) as u32;
            // Queen first: move pickers that keep generation order see the
            // likely-best promotion early.
            for kind in [
                PieceKind::Queen,
                PieceKind::Knight,
                PieceKind::Rook,
                PieceKind::Bishop,
            ] {
                MoveSink::push(
                    self,
                    Move::from_raw(from, to, MoveFlag::promotion(kind, capture)),
                );
            }
        }
    }
}

/// Counts moves without storing them (perft's bulk counting).
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn push(&mut self, _mv: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, targets: Bitboard, _them: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn pawn_moves(&mut self, targets: Bitboard, _delta: i32, _flag: MoveFlag) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _delta: i32, _capture: bool) {
        self.0 += 4 * targets.count() as u64;
    }
    #[inline(always)]
    fn king_moves(&mut self, _from: Square, targets: Bitboard, _them: Bitboard) {
        self.0 += targets.count() as u64;
    }
}

/// [`attacks::forward`] on the bits of a bitboard.
#[inline(always)]
const fn forward(bb: u64, color: Color) -> u64 {
    attacks::forward(Bitboard(bb), color).0
}

/// The enemy sliders on a line with `king` as if the board were empty:
/// the only pieces that can check it along a line or pin a piece to it.
/// (Two table loads: the attack sets of an empty board.)
#[inline(always)]
pub(crate) fn snipers(king: Square, rook_like: Bitboard, bishop_like: Bitboard) -> Bitboard {
    (attacks::rook(king, Bitboard::EMPTY) & rook_like)
        | (attacks::bishop(king, Bitboard::EMPTY) & bishop_like)
}

/// The pieces of `ours` pinned to `king` by `snipers` ([`snipers`]): a
/// sniper with exactly one piece between it and the king, and that piece
/// ours. (A sniper with an enemy piece between, or several pieces, pins
/// nothing; one with none checks.)
#[inline(always)]
pub(crate) fn pinned_to(
    king: Square,
    ours: Bitboard,
    occupied: Bitboard,
    snipers: Bitboard,
) -> Bitboard {
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers {
        let blockers = attacks::between(king, sniper) & occupied;
        if !blockers.more_than_one() {
            pinned |= blockers & ours;
        }
    }
    pinned
}

/// Appends the legal moves of flavour `MODE` to `sink`.
#[inline(always)]
pub(crate) fn generate<S: Sink, const MODE: u8>(board: &Board, sink: &mut S) {
    // One copy of the generator per side to move, so that every pawn
    // direction, promotion rank and castling rank is a constant.
    match board.side_to_move() {
        Color::White => generate_for::<S, MODE, true>(board, sink),
        Color::Black => generate_for::<S, MODE, false>(board, sink),
    }
}

/// [`generate`] for the side to move, White when `WHITE`.
#[inline(always)]
fn generate_for<S: Sink, const MODE: u8, const WHITE: bool>(board: &Board, sink: &mut S) {
    let us = if WHITE { Color::White } else { Color::Black };
    let them_color = !us;
    let ours = board.color_bb(us);
    let them = board.color_bb(them_color);
    let occupied = ours | them;
    let empty = !occupied;
    let king = board.king_square(us);

    let pawns_k = board.kind_bb(PieceKind::Pawn);
    let knights_k = board.kind_bb(PieceKind::Knight);
    let queens_k = board.kind_bb(PieceKind::Queen);
    let rook_like = (board.kind_bb(PieceKind::Rook) | queens_k) & them;
    let bishop_like = (board.kind_bb(PieceKind::Bishop) | queens_k) & them;

    // Sliders are looked up only when one shares a line with the king.
    let snipers = snipers(king, rook_like, bishop_like);
    let mut checkers =
        ((attacks::pawn(us, king) & pawns_k) | (attacks::knight(king) & knights_k)) & them;
    if snipers.any() {
        checkers |= (attacks::rook(king, occupied) & rook_like)
            | (attacks::bishop(king, occupied) & bishop_like);
    }

    let (want_noisy, want_quiet) = match MODE {
        mode::ALL => (true, true),
        mode::NOISY => (true, false),
        mode::QUIETS => (false, true),
        _ => (true, checkers.any()),
    };
    let noisy_mask = if want_noisy { them } else { Bitboard::EMPTY };
    let quiet_mask = if want_quiet { empty } else { Bitboard::EMPTY };

    // King moves: to squares the enemy does not attack with the king
    // lifted, so that it cannot step back along a checking slider's ray.
    // When castling may be possible, every attacked square is worked out
    // at once and serves both; otherwise each target is tested alone,
    // which is cheaper for the one to three squares a king usually has.
    let king_targets = attacks::king(king) & (noisy_mask | quiet_mask);
    let may_castle = want_quiet && checkers.is_empty() && castling_candidates(board, us, occupied);
    let without_king = occupied.without(king);
    let danger = may_castle.then(|| attacked_squares(board, them_color, without_king));
    match danger {
        Some(attacked) => sink.king_moves(king, king_targets & !attacked, them),
        None => {
            let mut safe = Bitboard::EMPTY;
            for to in king_targets {
                if !board.attacked_by(to, them_color, without_king) {
                    safe = safe.with(to);
                }
            }
            sink.king_moves(king, safe, them);
        }
    }
    if checkers.more_than_one() {
        return;
    }
    let check_mask = match checkers.first() {
        Some(checker) => attacks::between(king, checker).with(checker),
        None => Bitboard::FULL,
    };

    let pinned = pinned_to(king, ours, occupied, snipers);

    let targets = (noisy_mask | quiet_mask) & check_mask;

    // Knights: a pinned knight can never move.
    for from in board.pieces(us, PieceKind::Knight) & !pinned {
        sink.piece_moves(from, attacks::knight(from) & targets, them);
    }
    // Sliders: pinned ones stay on their pin line.
    let diagonal = (board.kind_bb(PieceKind::Bishop) | queens_k) & ours;
    let orthogonal = (board.kind_bb(PieceKind::Rook) | queens_k) & ours;
    for from in diagonal & !pinned {
        sink.piece_moves(from, attacks::bishop(from, occupied) & targets, them);
    }
    for from in orthogonal & !pinned {
        sink.piece_moves(from, attacks::rook(from, occupied) & targets, them);
    }
    if checkers.is_empty() {
        for from in (diagonal | orthogonal) & pinned {
            let mut seen = Bitboard::EMPTY;
            if diagonal.contains(from) {
                seen |= attacks::bishop(from, occupied);
            }
            if orthogonal.contains(from) {
                seen |= attacks::rook(from, occupied);
            }
            sink.piece_moves(from, seen & targets & attacks::line(king, from), them);
        }
    }

    // Pawns: set-wise for the unpinned ones, one by one for pinned ones.
    let pawns = board.pieces(us, PieceKind::Pawn);
    pawn_moves(
        sink,
        us,
        pawns & !pinned,
        empty,
        them,
        check_mask,
        want_noisy,
        want_quiet,
    );
    if checkers.is_empty() {
        for from in pawns & pinned {
            pawn_moves(
                sink,
                us,
                from.bitboard(),
                empty,
                them,
                attacks::line(king, from),
                want_noisy,
                want_quiet,
            );
        }
    }

    if want_noisy {
        if let Some(ep) = board.en_passant() {
            en_passant(board, sink, ep, king, occupied, them);
        }
    }
    if let Some(attacked) = danger {
        castling(board, sink, us, king, occupied, attacked);
    }
}

/// Whether `us` holds a castling right whose squares are empty (the
/// attacks on the king's path are still to be tested).
#[inline(always)]
fn castling_candidates(board: &Board, us: Color, occupied: Bitboard) -> bool {
    if board
        .castling_rights()
        .intersection(CastlingRights::of(us))
        .is_empty()
    {
        return false;
    }
    [CastleSide::Short, CastleSide::Long]
        .into_iter()
        .any(|side| castle_open(board, us, side, occupied))
}

/// Whether `us` holds the right to castle to `side` and the squares its
/// king and rook cross are empty (attacks still to be tested).
#[inline(always)]
fn castle_open(board: &Board, us: Color, side: CastleSide, occupied: Bitboard) -> bool {
    board.castling_rights().contains(side.right(us))
        && (board.castle_empty[us.index()][side.index()] & occupied).is_empty()
}

/// Every square a piece of `by` attacks, sliders seeing through nothing
/// but `occupied`.
#[inline(always)]
fn attacked_squares(board: &Board, by: Color, occupied: Bitboard) -> Bitboard {
    let pawns = board.pieces(by, PieceKind::Pawn).0;
    let west = forward(pawns & !file_mask(File::A).0, by) >> 1;
    let east = forward(pawns & !file_mask(File::H).0, by) << 1;
    let mut attacked = Bitboard(west | east) | attacks::king(board.king_square(by));
    for from in board.pieces(by, PieceKind::Knight) {
        attacked |= attacks::knight(from);
    }
    let queens = board.pieces(by, PieceKind::Queen);
    for from in board.pieces(by, PieceKind::Bishop) | queens {
        attacked |= attacks::bishop(from, occupied);
    }
    for from in board.pieces(by, PieceKind::Rook) | queens {
        attacked |= attacks::rook(from, occupied);
    }
    attacked
}

/// Pushes, captures and promotions of `pawns`, landing only inside `allowed`.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn pawn_moves<S: Sink>(
    sink: &mut S,
    us: Color,
    pawns: Bitboard,
    empty: Bitboard,
    them: Bitboard,
    allowed: Bitboard,
    want_noisy: bool,
    want_quiet: bool,
) {
    if pawns.is_empty() {
        return;
    }
    let (seventh, third, up) = match us {
        Color::White => (rank_mask(Rank::Seventh).0, rank_mask(Rank::Third).0, 8),
        Color::Black => (rank_mask(Rank::Second).0, rank_mask(Rank::Sixth).0, -8),
    };
    // "West" captures go towards the a-file, "east" ones towards the h-file.
    let (west, east) = (up - 1, up + 1);
    let shift_west = |bb: u64| forward(bb & !file_mask(File::A).0, us) >> 1;
    let shift_east = |bb: u64| forward(bb & !file_mask(File::H).0, us) << 1;

    let promoting = pawns.0 & seventh;
    let others = pawns.0 & !seventh;
    let empty = empty.0;
    let allowed = allowed.0;

    if want_quiet {
        let single = forward(others, us) & empty;
        let double = forward(single & third, us) & empty;
        sink.pawn_moves(Bitboard(single & allowed), up, MoveFlag::Quiet);
        sink.pawn_moves(Bitboard(double & allowed), 2 * up, MoveFlag::DoublePush);
    }
    if want_noisy {
        let them = them.0 & allowed;
        sink.pawn_moves(Bitboard(shift_west(others) & them), west, MoveFlag::Capture);
        sink.pawn_moves(Bitboard(shift_east(others) & them), east, MoveFlag::Capture);
        if promoting != 0 {
            sink.promotions(
                Bitboard(forward(promoting, us) & empty & allowed),
                up,
                false,
            );
            sink.promotions(Bitboard(shift_west(promoting) & them), west, true);
            sink.promotions(Bitboard(shift_east(promoting) & them), east, true);
        }
    }
}

/// En-passant captures onto `ep`, each checked by recomputing the king's
/// attackers with both pawns' squares changed (this also settles checks:
/// the capture is legal only if nothing attacks the king afterwards).
#[cold]
fn en_passant<S: Sink>(
    board: &Board,
    sink: &mut S,
    ep: Square,
    king: Square,
    occupied: Bitboard,
    them: Bitboard,
) {
    let us = board.side_to_move();
    for from in attacks::pawn(!us, ep) & board.pieces(us, PieceKind::Pawn) {
        if en_passant_is_safe(board, from, ep, king, occupied, them) {
            sink.push(Move::new(from, ep, MoveFlag::EnPassant));
        }
    }
}

/// Whether our king is unattacked after the pawn on `from` captures en
/// passant onto `ep` (both pawns' squares change on the king's lines).
#[inline]
fn en_passant_is_safe(
    board: &Board,
    from: Square,
    ep: Square,
    king: Square,
    occupied: Bitboard,
    them: Bitboard,
) -> bool {
    let captured = Square::from_index_masked(ep as u32 ^ 8);
    let after = (occupied.without(from).without(captured)).with(ep);
    (board.attackers_to(king, after) & them.without(captured)).is_empty()
}

/// Castling moves (king takes own rook), standard and Chess960. The
/// squares that must be empty and the king's path were worked out when the
/// position was set up (`castle_empty`, `castle_king_path`).
#[inline(always)]
fn castling<S: Sink>(
    board: &Board,
    sink: &mut S,
    us: Color,
    king: Square,
    occupied: Bitboard,
    attacked: Bitboard,
) {
    for side in [CastleSide::Short, CastleSide::Long] {
        if castle_open(board, us, side, occupied)
            && castle_path_is_safe(board, us, side, king, occupied, attacked)
        {
            let rook = board.castle_rooks[us.index()][side.index()];
            sink.push(Move::new(king, rook, MoveFlag::Castle));
        }
    }
}

/// Whether no square the king crosses or lands on when castling to `side`
/// is attacked (judged on the board after castling); `attacked` holds the
/// squares the enemy attacks with our king lifted (the king is not in
/// check).
///
/// The squares the king crosses all lie on its rank. Moving the king and
/// the rook changes only that rank's occupancy, which no diagonal or file
/// attack on the rank passes through; and along the rank, an attack from
/// beyond the king's square would be a check. So the one attack castling
/// can uncover is along the rank onto the king's destination, through the
/// square the rook leaves (Chess960: the rook on b1, the king on c1 and an
/// enemy queen on a1); it is looked up on the board after castling.
#[inline]
fn castle_path_is_safe(
    board: &Board,
    us: Color,
    side: CastleSide,
    king: Square,
    occupied: Bitboard,
    attacked: Bitboard,
) -> bool {
    let king_path = board.castle_king_path[us.index()][side.index()];
    if (king_path & attacked).any() {
        return false;
    }
    let queens = board.kind_bb(PieceKind::Queen);
    let rook_like = (board.kind_bb(PieceKind::Rook) | queens) & board.color_bb(!us);
    let on_rank = rook_like & rank_mask(king.rank());
    on_rank.is_empty() || !uncovers_rank_attack(board, us, side, king, occupied, on_rank)
}

/// Whether castling to `side` leaves the king's destination attacked along
/// the rank by one of `on_rank` (the enemy rooks and queens on it), judged
/// on the board after castling: the rare case [`castle_path_is_safe`]
/// describes, kept out of line.
#[cold]
#[inline(never)]
fn uncovers_rank_attack(
    board: &Board,
    us: Color,
    side: CastleSide,
    king: Square,
    occupied: Bitboard,
    on_rank: Bitboard,
) -> bool {
    let rook = board.castle_rooks[us.index()][side.index()];
    let king_to = side.king_destination(king.rank());
    let rook_to = side.rook_destination(king.rank());
    let after = occupied
        .without(king)
        .without(rook)
        .with(king_to)
        .with(rook_to);
    (attacks::rook(king_to, after) & on_rank).any()
}

/// Appends every legal move to `list`.
///
/// ```
/// use kiln_board::{Board, Move, MoveList, generate_all};
///
/// let board = Board::startpos();
/// let mut moves = MoveList::new();
/// generate_all(&board, &mut moves);
/// assert_eq!(moves.len(), 20);
/// assert!(moves.iter().any(|mv| mv.to_uci(false) == "e2e4"));
/// // Any sink will do, a Vec too.
/// let mut vec: Vec<Move> = Vec::new();
/// generate_all(&board, &mut vec);
/// assert_eq!(vec.as_slice(), moves.as_slice());
/// ```
#[inline]
pub fn generate_all<S: MoveSink>(board: &Board, list: &mut S) {
    generate::<S, { mode::ALL }>(board, list);
}

/// Appends what quiescence search wants: the noisy moves ([`generate_noisy`]:
/// captures, en passant included, and promotions, capturing or not) when
/// the side to move is not in check, and every legal evasion when it is.
///
/// ```
/// use kiln_board::{Board, MoveList, count_legal, generate_noisy_or_evasions};
///
/// // Not in check: the capture e4xd5 only.
/// let board: Board = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1".parse()?;
/// let mut moves = MoveList::new();
/// generate_noisy_or_evasions(&board, &mut moves);
/// assert_eq!(moves.len(), 1);
/// assert!(moves[0].is_capture());
///
/// // In check from b4: every evasion, quiet king moves included.
/// let board: Board = "4k3/8/8/8/1b6/8/8/4K3 w - - 0 1".parse()?;
/// moves.clear();
/// generate_noisy_or_evasions(&board, &mut moves);
/// assert_eq!(moves.len() as u64, count_legal(&board));
/// assert!(moves.iter().all(|mv| mv.is_quiet()));
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline]
pub fn generate_noisy_or_evasions<S: MoveSink>(board: &Board, list: &mut S) {
    generate::<S, { mode::NOISY_OR_EVASIONS }>(board, list);
}

/// Appends the legal captures and promotions, in check or not.
/// Together with [`generate_quiets`] this partitions [`generate_all`].
///
/// ```
/// use kiln_board::{Board, MoveList, generate_noisy};
///
/// // The capture exd5 and the four promotions of b7-b8.
/// let board: Board = "4k3/1P6/8/3p4/4P3/8/8/4K3 w - - 0 1".parse()?;
/// let mut moves = MoveList::new();
/// generate_noisy(&board, &mut moves);
/// assert_eq!(moves.len(), 5);
/// assert_eq!(moves.iter().filter(|mv| mv.is_promotion()).count(), 4);
/// assert!(moves.iter().all(|mv| !mv.is_quiet()));
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline]
pub fn generate_noisy<S: MoveSink>(board: &Board, list: &mut S) {
    generate::<S, { mode::NOISY }>(board, list);
}

/// Appends the legal moves that neither capture nor promote (castling
/// included).
///
/// ```
/// use kiln_board::{Board, MoveList, generate_all, generate_noisy, generate_quiets};
///
/// let board: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
/// let (mut all, mut noisy, mut quiets) = (MoveList::new(), MoveList::new(), MoveList::new());
/// generate_all(&board, &mut all);
/// generate_noisy(&board, &mut noisy);
/// generate_quiets(&board, &mut quiets);
/// // Both castlings are quiet moves.
/// assert_eq!(quiets.iter().filter(|mv| mv.is_castle()).count(), 2);
/// // Noisy and quiet moves partition the legal moves.
/// assert_eq!(noisy.len() + quiets.len(), all.len());
/// assert!(all.iter().all(|mv| noisy.contains(mv) != quiets.contains(mv)));
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline]
pub fn generate_quiets<S: MoveSink>(board: &Board, list: &mut S) {
    generate::<S, { mode::QUIETS }>(board, list);
}

/// Whether `mv` — any 16-bit encoding, typically a transposition-table,
/// killer or counter move that was legal in some other position — is one
/// of the legal moves of `board`: the same answer as
/// `generate_all(board).contains(&mv)`, without generating anything.
///
/// The move must match exactly, flag included: the right piece of the side
/// to move on `from`, a capture flag exactly when an enemy piece stands on
/// `to`, pawn pushes and promotions only to the squares and ranks they
/// reach, castling only with the right and a clear, unattacked path. Then
/// the king must not be attacked afterwards (which settles pins and checks
/// in one test).
///
/// ```
/// use kiln_board::{Board, Move, MoveFlag, Square, is_legal};
///
/// let board = Board::startpos();
/// assert!(is_legal(&board, Move::new(Square::E2, Square::E4, MoveFlag::DoublePush)));
/// // The flag must match: e2-e4 is a double push, not a quiet move.
/// assert!(!is_legal(&board, Move::new(Square::E2, Square::E4, MoveFlag::Quiet)));
/// assert!(!is_legal(&board, Move::NULL));
///
/// // A pinned knight may not move.
/// let pinned: Board = "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1".parse()?;
/// assert!(!is_legal(&pinned, Move::new(Square::D2, Square::F3, MoveFlag::Quiet)));
/// # Ok::<(), kiln_board::FenError>(())
/// ```
pub fn is_legal(board: &Board, mv: Move) -> bool {
    let us = board.side_to_move();
    let (from, to) = (mv.from(), mv.to());
    let Some(piece) = board.piece_on(from) else {
        return false;
    };
    if piece.color() != us {
        return false;
    }
    let ours = board.color_bb(us);
    let them = board.color_bb(!us);
    if ours.contains(to) && !mv.is_castle() {
        return false;
    }
    let occupied = ours | them;
    let king = board.king_square(us);
    let flag = mv.bits() >> 12;
    // Flag codes: see `crate::moves` (3, 6 and 7 are unused).
    const QUIET: u16 = MoveFlag::Quiet as u16;
    const DOUBLE_PUSH: u16 = MoveFlag::DoublePush as u16;
    const CASTLE: u16 = MoveFlag::Castle as u16;
    const CAPTURE: u16 = MoveFlag::Capture as u16;
    const EN_PASSANT: u16 = MoveFlag::EnPassant as u16;

    match piece.kind() {
        PieceKind::Pawn => {
            let (start_rank, last_rank) = match us {
                Color::White => (rank_mask(Rank::Second), rank_mask(Rank::Eighth)),
                Color::Black => (rank_mask(Rank::Seventh), rank_mask(Rank::First)),
            };
            let push = Bitboard(forward(from.bitboard().0, us));
            let captures = attacks::pawn(us, from);
            let promotes = last_rank.contains(to);
            let pseudo_legal = match flag {
                QUIET => push.contains(to) && !occupied.contains(to) && !promotes,
                DOUBLE_PUSH => {
                    start_rank.contains(from)
                        && (push & occupied).is_empty()
                        && Bitboard(forward(push.0, us)).contains(to)
                        && !occupied.contains(to)
                }
                CAPTURE => captures.contains(to) && them.contains(to) && !promotes,
                EN_PASSANT => {
                    return board.en_passant() == Some(to)
                        && captures.contains(to)
                        && en_passant_is_safe(board, from, to, king, occupied, them);
                }
                8..=11 => push.contains(to) && !occupied.contains(to) && promotes,
                12..=15 => captures.contains(to) && them.contains(to) && promotes,
                _ => false,
            };
            pseudo_legal && leaves_king_safe(board, from, to, king, occupied, them)
        }
        PieceKind::King if flag == CASTLE => {
            let side = mv.castle_side();
            castle_open(board, us, side, occupied)
                && board.castle_rooks[us.index()][side.index()] == to
                && !board.attacked_by(king, !us, occupied)
                && castle_path_is_safe(
                    board,
                    us,
                    side,
                    king,
                    occupied,
                    attacked_squares(board, !us, occupied.without(king)),
                )
        }
        kind => {
            let flag_fits = match flag {
                QUIET => !occupied.contains(to),
                CAPTURE => them.contains(to),
                _ => false,
            };
            if !flag_fits || !attacks::piece(kind, us, from, occupied).contains(to) {
                return false;
            }
            if kind == PieceKind::King {
                !board.attacked_by(to, !us, occupied.without(from))
            } else {
                leaves_king_safe(board, from, to, king, occupied, them)
            }
        }
    }
}

/// Whether our king (not the moving piece) is unattacked once the piece on
/// `from` has moved to `to`, capturing whatever enemy piece stood there.
#[inline]
fn leaves_king_safe(
    board: &Board,
    from: Square,
    to: Square,
    king: Square,
    occupied: Bitboard,
    them: Bitboard,
) -> bool {
    let after = occupied.without(from).with(to);
    (board.attackers_to(king, after) & them.without(to)).is_empty()
}

/// The number of legal moves, counted without building a list.
///
/// ```
/// use kiln_board::{Board, count_legal};
///
/// assert_eq!(count_legal(&Board::startpos()), 20);
/// // The most legal moves known in a reachable position.
/// let board: Board = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1".parse()?;
/// assert_eq!(count_legal(&board), 218);
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline]
pub fn count_legal(board: &Board) -> u64 {
    let mut counter = Counter(0);
    generate::<Counter, { mode::ALL }>(board, &mut counter);
    counter.0
}

/// True when the side to move has at least one legal move.
///
/// ```
/// use kiln_board::{Board, has_legal_move};
///
/// assert!(has_legal_move(&Board::startpos()));
/// // Fool's mate: in check without a legal move.
/// let mate: Board = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3".parse()?;
/// assert!(!has_legal_move(&mate) && mate.in_check());
/// // Stalemate: no legal move, not in check.
/// let stalemate: Board = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse()?;
/// assert!(!has_legal_move(&stalemate) && !stalemate.in_check());
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[inline]
pub fn has_legal_move(board: &Board) -> bool {
    count_legal(board) != 0
}

impl Board {
    /// True when the side to move is checkmated: in check with no legal
    /// move.
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// let fools_mate: Board = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3".parse()?;
    /// assert!(fools_mate.is_checkmate());
    /// assert!(!Board::startpos().is_checkmate());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !has_legal_move(self)
    }

    /// True when the side to move is stalemated: not in check, with no
    /// legal move (a draw).
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// let stalemate: Board = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse()?;
    /// assert!(stalemate.is_stalemate() && !stalemate.is_checkmate());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !has_legal_move(self)
    }
}
