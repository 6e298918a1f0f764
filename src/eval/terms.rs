//! Evaluation terms beyond the piece-square tables: pawn structure (doubled,
//! isolated, backward, connected, candidate, blocked and passed pawns, weak
//! unopposed pawns and levers), piece mobility, outposts, bishop and rook
//! lines, trapped pieces, rooks on open files and the 7th rank, the bishop
//! pair, threats (including restricted squares and attacks on the queen),
//! king safety (pawn shield and storm, attacks on the king zone and wing,
//! safe checks) and the tempo.
//!
//! Every weight comes from `src/eval/params.txt` through the root build
//! script, packed as `S(mg, eg)` like the piece-square tables; this module
//! only counts, reporting each term to a [`Sink`] as (weight index, count):
//! the engine's sink adds weights, the tuner's records the counts. Each side
//! is scored from its own point of view; the sink subtracts Black's from
//! White's.

use crate::board::{Bitboard, Board, Color, PieceKind, Square};
use crate::movegen::{attacks, forward};
// The engine indexes with its own square and colour numbers: the integer API.
use ::kiln_tables::raw as kiln_tables;

include!(concat!(env!("OUT_DIR"), "/eval_terms.rs"));

/// First weight of each piece kind's mobility table, indexed by the number
/// of reachable squares (pawns and kings have none: never looked up).
const MOBILITY: [usize; 6] = [
    usize::MAX,
    KNIGHT_MOBILITY,
    BISHOP_MOBILITY,
    ROOK_MOBILITY,
    QUEEN_MOBILITY,
    usize::MAX,
];

/// Squares attacked by the pawns of `color` towards the a-file and towards
/// the h-file.
fn pawn_attack_sides(pawns: Bitboard, color: Color) -> (u64, u64) {
    let p = pawns.0;
    let not_a = !Bitboard::FILE_A.0;
    let not_h = !Bitboard::FILE_H.0;
    match color {
        Color::White => ((p << 7) & not_h, (p << 9) & not_a),
        Color::Black => ((p >> 9) & not_h, (p >> 7) & not_a),
    }
}

/// Squares attacked by the pawns of `color`.
fn pawn_attacks(pawns: Bitboard, color: Color) -> u64 {
    let (west, east) = pawn_attack_sides(pawns, color);
    west | east
}

/// Squares attacked by two pawns of `color`.
fn pawn_double_attacks(pawns: Bitboard, color: Color) -> u64 {
    let (west, east) = pawn_attack_sides(pawns, color);
    west & east
}

/// The four centre squares d4, e4, d5 and e5.
const CENTRE: u64 = 0x0000_0018_1800_0000;

/// The files of the king's wing for a king on `file`: a-c, a-d (b, c),
/// c-f (d, e), e-h (f, g) or f-h.
fn king_flank(file: u8) -> u64 {
    let files = |from: u8, to: u8| (from..=to).fold(0, |m, f| m | kiln_tables::file_mask(f));
    match file {
        0 => files(0, 2),
        1 | 2 => files(0, 3),
        3 | 4 => files(2, 5),
        5 | 6 => files(4, 7),
        _ => files(5, 7),
    }
}

/// Every square on the ranks in front of `square`, seen from `color`.
fn ranks_ahead(color: Color, square: Square) -> u64 {
    let rank = square.rank().index();
    match color {
        Color::White if rank == 7 => 0,
        Color::White => !0u64 << ((rank + 1) * 8),
        Color::Black => (1u64 << (rank * 8)) - 1,
    }
}

/// The rank of `square` seen from `color`'s side (0 = its first rank).
fn relative_rank(square: Square, color: Color) -> usize {
    match color {
        Color::White => square.rank().index(),
        Color::Black => 7 - square.rank().index(),
    }
}

/// Where the evaluation terms go: each term is reported as a weight index
/// (into [`TERM_WEIGHTS`], named by the generated constants) and a count.
/// The engine's [`Packed`] sink multiplies by the weight at once (the index
/// is usually a constant, so this is one add); the tuner's sink records the
/// counts instead, which is what Texel tuning needs. The term functions are
/// generic over the sink, so each use gets its own monomorphised copy and
/// the engine pays nothing for the tracing.
pub trait Sink {
    /// Adds `count` times weight `index` to `color`'s side.
    fn add(&mut self, color: Color, index: usize, count: i32);
}

/// The engine's sink: each side's packed `S(mg, eg)` sum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Packed {
    sides: [i32; 2],
}

impl Packed {
    /// White's sum minus Black's, packed.
    #[inline(always)]
    pub fn white_minus_black(&self) -> i32 {
        self.sides[0].wrapping_sub(self.sides[1])
    }

    /// Adds a packed score from White's point of view (for example a cached
    /// [`pawn_structure`] result).
    #[inline(always)]
    pub fn add_white(&mut self, packed: i32) {
        self.sides[0] = self.sides[0].wrapping_add(packed);
    }
}

impl Sink for Packed {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        let side = &mut self.sides[color.index()];
        *side = side.wrapping_add(TERM_WEIGHTS[index].wrapping_mul(count));
    }
}

/// What the pawn-structure pass tells the rest of the evaluation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PawnInfo {
    /// Passed pawns, by colour.
    pub passed: [Bitboard; 2],
}

/// The terms that depend on the pawns alone (doubled, isolated and passed
/// pawns by rank), for both colours: a pure function of the two pawn
/// bitboards, so a pawn hash table can cache its packed result (run it with
/// a fresh [`Packed`]) and the [`PawnInfo`].
pub fn pawn_structure<S: Sink>(
    white_pawns: Bitboard,
    black_pawns: Bitboard,
    sink: &mut S,
) -> PawnInfo {
    let mut info = PawnInfo::default();
    for us in Color::ALL {
        let c = us as u8;
        let (our_pawns, their_pawns) = match us {
            Color::White => (white_pawns, black_pawns),
            Color::Black => (black_pawns, white_pawns),
        };
        let our_attacks = pawn_attacks(our_pawns, us);
        let their_attacks = pawn_attacks(their_pawns, !us);
        for sq in our_pawns {
            let s = sq.raw();
            let ahead_on_file = Bitboard(kiln_tables::forward_file(c, s));
            if (ahead_on_file & our_pawns).any() {
                sink.add(us, DOUBLED_PAWN, 1);
            }
            let isolated = (Bitboard(kiln_tables::adjacent_files(sq.file().index() as u8))
                & our_pawns)
                .is_empty();
            if isolated {
                sink.add(us, ISOLATED_PAWN, 1);
                // Two isolated pawns on one file: neither can ever be
                // defended by a pawn, and the front one shields nothing.
                if (ahead_on_file & our_pawns).any() {
                    sink.add(us, DOUBLED_ISOLATED, 1);
                }
            }
            let opposed = (ahead_on_file & their_pawns).any();
            let rank = relative_rank(sq, us);
            let adjacent = kiln_tables::adjacent_files(sq.file().index() as u8);
            let front_span = kiln_tables::passed_pawn_mask(c, s);
            let passed =
                (front_span & their_pawns.0) == 0 && (ahead_on_file & our_pawns).is_empty();
            if passed {
                sink.add(us, PASSED_PAWN + rank, 1);
                // Central passers are easier to stop, edge ones easier to
                // overlook.
                let file = sq.file().index();
                sink.add(us, PASSED_FILE + file.min(7 - file), 1);
                info.passed[us.index()] = info.passed[us.index()].with(sq);
            }
            // Defended by a pawn, or side by side with one.
            let bit = 1u64 << s;
            let neighbours = adjacent & kiln_tables::rank_mask(sq.rank().index() as u8);
            let phalanx = (neighbours & our_pawns.0) != 0;
            if (our_attacks & bit) != 0 || phalanx {
                sink.add(us, CONNECTED_PAWN + rank, 1);
                // A connected pawn facing an enemy pawn on its file cannot
                // use its strength to advance.
                if opposed {
                    sink.add(us, CONNECTED_OPPOSED, 1);
                }
            }
            // Side by side, the pawns control both squares in front.
            if phalanx {
                sink.add(us, PHALANX_PAWN + rank, 1);
            }
            // Per own pawn defending this one (the squares from which an
            // own pawn attacks it are where an enemy pawn would attack
            // from behind).
            let defenders = pawn_attacks(Bitboard(bit), !us) & our_pawns.0;
            sink.add(us, SUPPORTED_PAWN, defenders.count_ones() as i32);
            // Our pawns beside or behind this one on the adjacent files:
            // the ones that can still come up to support it.
            let supporters = adjacent & !ranks_ahead(us, sq) & our_pawns.0;
            let stop = match us {
                Color::White => bit << 8,
                Color::Black => bit >> 8,
            };
            // Backward: no pawn can support it and an enemy pawn holds its
            // stop square (isolated pawns are scored as such instead).
            let backward =
                supporters == 0 && (adjacent & our_pawns.0) != 0 && (stop & their_attacks) != 0;
            if backward {
                sink.add(us, BACKWARD_PAWN, 1);
            }
            // A weak pawn on a file the enemy's rooks can use against it.
            if (isolated || backward) && !opposed {
                sink.add(us, WEAK_UNOPPOSED, 1);
            }
            // Attacked by two enemy pawns and defended by none: it must
            // take or be taken on the enemy's terms.
            let levers = pawn_attacks(Bitboard(bit), us) & their_pawns.0;
            if levers.count_ones() == 2 && (our_attacks & bit) == 0 {
                sink.add(us, WEAK_LEVER, 1);
            }
            // Blocked by an enemy pawn far up the board: a fixed target
            // that also jams its own pieces.
            if (stop & their_pawns.0) != 0 && (4..=5).contains(&rank) {
                sink.add(us, BLOCKED_PAWN + rank - 4, 1);
            }
            // Candidate passer: nothing ahead on its file, and at least as
            // many supporters as enemy pawns guarding its path.
            if !passed && (ahead_on_file & their_pawns).is_empty() {
                let sentries = (front_span & adjacent & their_pawns.0).count_ones();
                if supporters.count_ones() >= sentries {
                    sink.add(us, CANDIDATE_PAWN + rank, 1);
                }
            }
        }
    }
    info
}

/// Squares a side attacks, by kind of attacker.
#[derive(Clone, Copy, Debug, Default)]
struct Attacks {
    /// By pawns.
    pawns: u64,
    /// By knights and bishops.
    minors: u64,
    /// By knights.
    knights: u64,
    /// By bishops.
    bishops: u64,
    /// By rooks.
    rooks: u64,
    /// By queens.
    queens: u64,
    /// By any piece, pawn or the king.
    all: u64,
    /// By at least two of them.
    twice: u64,
}

/// Every term except [`pawn_structure`]'s, for both colours, and the tempo
/// bonus of the side to move.
pub fn piece_terms<S: Sink>(board: &Board, pawns: &PawnInfo, sink: &mut S) {
    let white = side_terms(board, Color::White, pawns, sink);
    let black = side_terms(board, Color::Black, pawns, sink);
    threats(board, Color::White, &white, &black, sink);
    threats(board, Color::Black, &black, &white, sink);
    safe_checks(board, Color::White, &white, &black, sink);
    safe_checks(board, Color::Black, &black, &white, sink);
    placement(board, Color::White, pawns, &white, &black, sink);
    placement(board, Color::Black, pawns, &black, &white, sink);
    pressure(board, Color::White, &white, &black, sink);
    pressure(board, Color::Black, &black, &white, sink);
    trapped_minors(board, Color::White, &black, sink);
    trapped_minors(board, Color::Black, &white, sink);
    imbalance(board, Color::White, sink);
    imbalance(board, Color::Black, sink);
    sink.add(board.side_to_move(), TEMPO, 1);
}

/// Material imbalance of `us`: what a piece is worth beside other material.
/// For every pair of kinds (pawn, knight, bishop, rook, queen), our count of
/// the first times our count of the second (the second no later in that
/// order; pawn times pawn is left out), and our count of the first times
/// their count of an earlier kind: knights gain with pawns on the board,
/// rooks and queens get in each other's way, a queen against minor pieces
/// is not a queen against rooks.
#[inline(always)]
fn imbalance<S: Sink>(board: &Board, us: Color, sink: &mut S) {
    const KINDS: [PieceKind; 5] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ];
    let ours = KINDS.map(|kind| board.pieces(us, kind).count() as i32);
    let theirs = KINDS.map(|kind| board.pieces(!us, kind).count() as i32);
    let mut own = IMBALANCE_OURS;
    let mut other = IMBALANCE_THEIRS;
    for (first, &count) in ours.iter().enumerate().skip(1) {
        for &second in &ours[..=first] {
            sink.add(us, own, count * second);
            own += 1;
        }
        for &second in &theirs[..first] {
            sink.add(us, other, count * second);
            other += 1;
        }
    }
}

/// Pressure and room of `us` (attacks `ours`) against the other side
/// (attacks `theirs`): weak squares next to the enemy king and safe pawn
/// pushes that would attack a piece.
#[inline(always)]
fn pressure<S: Sink>(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks, sink: &mut S) {
    let them = !us;
    let occupied = board.occupied().0;
    let our_pawns = board.pieces(us, PieceKind::Pawn).0;

    // King-zone squares we attack that only their king or queen (or
    // nothing) defends: where a check or a mate lands.
    let their_king = board.king_square(them).raw();
    let zone = kiln_tables::king_attacks(their_king);
    let solid = theirs.pawns | theirs.minors | theirs.rooks;
    sink.add(
        us,
        KING_ZONE_WEAK,
        (zone & ours.all & !solid).count_ones() as i32,
    );

    // Attacks on the enemy king's wing, in its camp (its first five
    // ranks): the ground an attack is built on, even before it reaches
    // the king zone. Squares attacked twice count again.
    let camp = match them {
        Color::White => 0x0000_00FF_FFFF_FFFFu64,
        Color::Black => 0xFFFF_FFFF_FF00_0000u64,
    };
    let flank = king_flank(board.king_square(them).file().index() as u8) & camp;
    sink.add(
        us,
        FLANK_ATTACK,
        (flank & ours.all).count_ones() as i32 + (flank & ours.twice).count_ones() as i32,
    );

    // Safe pawn pushes that would attack an enemy piece next move.
    let push = forward(our_pawns, us) & !occupied;
    let safe_push = push & !theirs.pawns & (ours.all | !theirs.all);
    let targets = board.color_bb(them).0
        & !board.pieces(them, PieceKind::Pawn).0
        & !board.pieces(them, PieceKind::King).0;
    sink.add(
        us,
        THREAT_PAWN_PUSH,
        (pawn_attacks(Bitboard(safe_push), us) & targets).count_ones() as i32,
    );
}

/// Terms about where `us`'s pawns and minor pieces stand, given the squares
/// the other side attacks (`theirs`): passed pawns free to advance, rooks
/// behind passed pawns, bishops hemmed in by their own pawns, minor pieces
/// sheltered behind a pawn, and minor pieces far from their own king.
#[inline(always)]
fn placement<S: Sink>(
    board: &Board,
    us: Color,
    pawns: &PawnInfo,
    ours: &Attacks,
    theirs: &Attacks,
    sink: &mut S,
) {
    let occupied = board.occupied().0;
    let our_pawns = board.pieces(us, PieceKind::Pawn).0;
    let rooks = board.pieces(us, PieceKind::Rook).0;
    for sq in pawns.passed[us.index()] {
        // A passed pawn whose stop square is empty and not attacked can
        // move on at once; worth more the further it has come.
        let stop = forward(1u64 << sq.raw(), us);
        if stop & (occupied | theirs.all) == 0 {
            sink.add(us, PASSED_FREE, relative_rank(sq, us) as i32);
        }
        // The whole way to the queening square out of the enemy's reach.
        let path = kiln_tables::forward_file(us as u8, sq.raw());
        if path & theirs.all == 0 {
            sink.add(us, PASSED_PATH_SAFE, relative_rank(sq, us) as i32);
        }
        // Not even the neighbouring files ahead hold an enemy man or an
        // enemy attack: nothing can come to stop it.
        let span = kiln_tables::passed_pawn_mask(us as u8, sq.raw());
        if span & (theirs.all | board.color_bb(!us).0) == 0 {
            sink.add(us, PASSED_SPAN_FREE, relative_rank(sq, us) as i32);
        }
        // Its stop square is covered: a blockader can be driven off.
        if stop & ours.all != 0 {
            sink.add(us, PASSED_STOP_DEFENDED, relative_rank(sq, us) as i32);
        }
        // A rook behind it pushes it on and keeps guarding it.
        let file = kiln_tables::file_mask(sq.file().index() as u8);
        let behind = file & !ranks_ahead(us, sq) & !(1u64 << sq.raw());
        if rooks & behind != 0 {
            sink.add(us, ROOK_BEHIND_PASSER, 1);
        }
    }
    let king = board.king_square(us).raw();
    let centre_files = 0x3C3C_3C3C_3C3C_3C3Cu64;
    let blocked_centre = (our_pawns & centre_files & forward(occupied, !us)).count_ones() as i32;
    for sq in board.pieces(us, PieceKind::Bishop) {
        let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
            Bitboard::LIGHT_SQUARES.0
        } else {
            Bitboard::DARK_SQUARES.0
        };
        let same_colour = (our_pawns & colour).count_ones() as i32;
        sink.add(us, BISHOP_OWN_PAWNS, same_colour);
        // Worse when our centre is blocked: those pawns will not move off
        // the bishop's colour.
        sink.add(
            us,
            BISHOP_PAWNS_BLOCKED_CENTRE,
            same_colour * blocked_centre,
        );
    }
    let minors = board.pieces(us, PieceKind::Knight) | board.pieces(us, PieceKind::Bishop);
    sink.add(
        us,
        MINOR_BEHIND_PAWN,
        (forward(minors.0, us) & our_pawns).count_ones() as i32,
    );
    for sq in minors {
        let far = i32::from(kiln_tables::distance(king, sq.raw()));
        sink.add(us, MINOR_KING_DISTANCE, far);
    }
}

/// Safe checks by `us` (attacks `ours`): squares from which one of our
/// pieces could check the enemy king, which that piece reaches, which we do
/// not occupy and which the enemy does not defend at all. A king that can be
/// checked safely is one forcing move away from trouble, whether or not
/// pieces crowd its zone yet.
#[inline(always)]
fn safe_checks<S: Sink>(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks, sink: &mut S) {
    let king = board.king_square(!us).raw();
    let occupied = board.occupied().0;
    let safe = !board.color_bb(us).0 & !theirs.all;
    let diagonal = kiln_tables::bishop_attacks(king, occupied);
    let straight = kiln_tables::rook_attacks(king, occupied);
    let knight = kiln_tables::knight_attacks(king) & ours.knights & safe;
    let bishop = diagonal & ours.bishops & safe;
    let rook = straight & ours.rooks & safe;
    let queen = (diagonal | straight) & ours.queens & safe;
    sink.add(us, SAFE_CHECK_KNIGHT, knight.count_ones() as i32);
    sink.add(us, SAFE_CHECK_BISHOP, bishop.count_ones() as i32);
    sink.add(us, SAFE_CHECK_ROOK, rook.count_ones() as i32);
    sink.add(us, SAFE_CHECK_QUEEN, queen.count_ones() as i32);
}

/// Threats by `us` (attacks `ours`) on the pieces of the other side
/// (attacks `theirs`): pieces attacked by pawns, rooks and queens attacked
/// by minor pieces, queens attacked by rooks, and pieces attacked but not
/// defended at all.
#[inline(always)]
fn threats<S: Sink>(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks, sink: &mut S) {
    let them = !us;
    let their = |kind| board.pieces(them, kind).0;
    let pieces = board.color_bb(them).0 & !their(PieceKind::Pawn) & !their(PieceKind::King);
    sink.add(
        us,
        THREAT_BY_PAWN,
        (ours.pawns & pieces).count_ones() as i32,
    );
    // The same from a pawn that is defended or not attacked: the threat
    // cannot be answered by taking the pawn.
    let our_pawns = board.pieces(us, PieceKind::Pawn).0;
    let safe_pawns = our_pawns & (ours.all | !theirs.all);
    sink.add(
        us,
        THREAT_BY_SAFE_PAWN,
        (pawn_attacks(Bitboard(safe_pawns), us) & pieces).count_ones() as i32,
    );
    sink.add(
        us,
        THREAT_BY_ROOK,
        (ours.rooks & their(PieceKind::Queen)).count_ones() as i32,
    );
    sink.add(
        us,
        HANGING,
        (ours.all & pieces & !theirs.all).count_ones() as i32,
    );
    // Squares both sides attack where they are not strongly defended (by
    // a pawn, or twice when we do not attack twice): their pieces cannot
    // safely go there.
    let strong = theirs.pawns | (theirs.twice & !ours.twice);
    sink.add(
        us,
        RESTRICTED,
        (theirs.all & ours.all & !strong).count_ones() as i32,
    );
    // By attacker and victim: their men attacked by our knights and
    // bishops (pieces even when strongly defended, a trade offer at least;
    // pawns only when weak), and weak ones attacked by our rooks. Weak
    // pawns are the endgame's usual targets.
    let men = board.color_bb(them).0 & !their(PieceKind::King);
    let weak = men & !strong & ours.all;
    let minor_targets = pieces | weak;
    for kind in [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let victims = their(kind);
        let k = kind.index();
        sink.add(
            us,
            MINOR_THREAT + k,
            (ours.minors & minor_targets & victims).count_ones() as i32,
        );
        sink.add(
            us,
            ROOK_THREAT + k,
            (ours.rooks & weak & victims).count_ones() as i32,
        );
    }
    // Their pawns we attack and they do not defend at all.
    sink.add(
        us,
        HANGING_PAWN,
        (ours.all & their(PieceKind::Pawn) & !theirs.all).count_ones() as i32,
    );
    // Their men pinned to their king by our sliders: they cannot move,
    // and they are targets.
    let king = board.king_square(them).raw();
    let occupied = board.occupied().0;
    let queens_ours = board.pieces(us, PieceKind::Queen).0;
    let snipers = (kiln_tables::bishop_attacks(king, 0)
        & (board.pieces(us, PieceKind::Bishop).0 | queens_ours))
        | (kiln_tables::rook_attacks(king, 0)
            & (board.pieces(us, PieceKind::Rook).0 | queens_ours));
    let pinned = Bitboard(snipers)
        .into_iter()
        .filter(|sniper| {
            let between = kiln_tables::between(king, sniper.raw()) & occupied;
            between & (between.wrapping_sub(1)) == 0 && between & men != 0
        })
        .count();
    sink.add(us, PIN_ON_KING, pinned as i32);
    // Their men we attack that only their queen defends: the queen is tied
    // to them, or trades itself for a pawn.
    let king_guard = kiln_tables::king_attacks(board.king_square(them).raw());
    let others = theirs.pawns | theirs.minors | theirs.rooks | king_guard;
    sink.add(
        us,
        WEAK_QUEEN_DEFENCE,
        (men & ours.all & theirs.queens & !others).count_ones() as i32,
    );
    // Their knights and bishops we attack with a minor or a rook where no
    // pawn of theirs defends them: a trade on our terms or a tempo gained.
    let minors = their(PieceKind::Knight) | their(PieceKind::Bishop);
    let loose = minors & !theirs.pawns;
    sink.add(
        us,
        THREAT_MINOR_ON_MINOR,
        (ours.minors & loose).count_ones() as i32,
    );
    sink.add(
        us,
        THREAT_ROOK_ON_MINOR,
        (ours.rooks & loose).count_ones() as i32,
    );
    // Their men next to our king that nothing defends.
    let our_king_ring = kiln_tables::king_attacks(board.king_square(us).raw());
    sink.add(
        us,
        THREAT_BY_KING,
        (our_king_ring & men & !theirs.all).count_ones() as i32,
    );
    // Squares from which a knight or slider of ours could attack their
    // queen next move, that their pawns do not guard and we are not
    // standing on (sliders: only squares we attack twice, so the slider
    // would be defended there).
    let queens = their(PieceKind::Queen);
    if queens != 0 {
        let queen = queens.trailing_zeros() as u8;
        let occupied = board.occupied().0;
        let open = !board.color_bb(us).0 & !theirs.pawns;
        let knight = kiln_tables::knight_attacks(queen) & ours.knights & open;
        let sliders = (kiln_tables::bishop_attacks(queen, occupied) & ours.bishops)
            | (kiln_tables::rook_attacks(queen, occupied) & ours.rooks);
        sink.add(us, KNIGHT_ON_QUEEN, knight.count_ones() as i32);
        sink.add(
            us,
            SLIDER_ON_QUEEN,
            (sliders & open & ours.twice).count_ones() as i32,
        );
        // Our bishop or rook lined up with their queen behind exactly one
        // man: a pin on the queen or a discovered attack on it.
        let snipers = (kiln_tables::bishop_attacks(queen, 0)
            & board.pieces(us, PieceKind::Bishop).0)
            | (kiln_tables::rook_attacks(queen, 0) & board.pieces(us, PieceKind::Rook).0);
        let lined_up = Bitboard(snipers)
            .into_iter()
            .any(|sniper| (kiln_tables::between(queen, sniper.raw()) & occupied).count_ones() == 1);
        if lined_up {
            sink.add(us, QUEEN_XRAY, 1);
        }
    }
}

/// Squares where a bishop of `color` is shut in by an enemy pawn: a bishop
/// on a7 (h7) behind a pawn on b6 (g6), or on b8 (g8) behind c7 (f7), seen
/// from White. Pairs of (bishop square, enemy pawn square).
const BISHOP_TRAPS: [(u8, u8); 4] = [(48, 41), (55, 46), (57, 50), (62, 53)];

/// Knights and bishops of `us` deep in the enemy camp (relative rank 5 or
/// more) with no way out: every square they reach holds an own piece or is
/// attacked by the other side (attacks `theirs`), unless it holds an enemy
/// piece worth taking (anything but a pawn). Such a piece is usually lost
/// a few moves later for a pawn or two, which material alone does not see:
/// the knight that took a rook in the corner and cannot get back. A bishop
/// on a7/h7 (or b8/g8) behind an enemy pawn that blocks its diagonal counts
/// as trapped too, whatever else it reaches. One with a single way out is
/// counted apart, as cornered: one enemy move from trapped.
#[inline(always)]
fn trapped_minors<S: Sink>(board: &Board, us: Color, theirs: &Attacks, sink: &mut S) {
    let them = !us;
    let deep = match us {
        Color::White => 0xFFFF_FFFF_0000_0000u64,
        Color::Black => 0x0000_0000_FFFF_FFFFu64,
    };
    let minors = (board.pieces(us, PieceKind::Knight) | board.pieces(us, PieceKind::Bishop)).0;
    if minors & deep == 0 {
        return;
    }
    let occupied = board.occupied();
    let own = board.color_bb(us).0;
    let prey = board.color_bb(them).0 & !board.pieces(them, PieceKind::Pawn).0;
    let their_pawns = board.pieces(them, PieceKind::Pawn).0;
    let mut trapped = 0;
    let mut cornered = 0;
    for sq in Bitboard(minors & deep) {
        let kind = if board.pieces(us, PieceKind::Knight).contains(sq) {
            PieceKind::Knight
        } else {
            PieceKind::Bishop
        };
        let seen = attacks::piece(kind, us, sq, occupied).0;
        let escape = (seen & !own & !theirs.all) | (seen & prey);
        let shut_in = kind == PieceKind::Bishop
            && BISHOP_TRAPS.iter().any(|&(bishop, pawn)| {
                let (bishop, pawn) = match us {
                    Color::White => (bishop, pawn),
                    Color::Black => (bishop ^ 56, pawn ^ 56),
                };
                sq.raw() == bishop && their_pawns & (1u64 << pawn) != 0
            });
        if escape == 0 || shut_in {
            trapped += 1;
        } else if escape & (escape - 1) == 0 {
            cornered += 1;
        }
    }
    sink.add(us, TRAPPED_MINOR, trapped);
    sink.add(us, CORNERED_MINOR, cornered);
}

/// [`piece_terms`] for `us`; returns the squares `us` attacks.
#[inline(always)]
fn side_terms<S: Sink>(board: &Board, us: Color, pawns: &PawnInfo, sink: &mut S) -> Attacks {
    let them = !us;
    let c = us as u8;
    let occupied = board.occupied();
    let our_pawns = board.pieces(us, PieceKind::Pawn);
    let their_pawns = board.pieces(them, PieceKind::Pawn);
    let our_king = board.king_square(us);
    let their_king = board.king_square(them);

    if board.pieces(us, PieceKind::Bishop).more_than_one() {
        sink.add(us, BISHOP_PAIR, 1);
    }

    // Passed pawns: a blocked stop square, and the kings' race to it.
    let their_pieces_gone =
        (board.color_bb(them).0 & !their_pawns.0 & !board.pieces(them, PieceKind::King).0) == 0;
    for sq in pawns.passed[us.index()] {
        let stop = match us {
            Color::White => Square::try_from_index(sq.index() + 8),
            Color::Black => sq.index().checked_sub(8).and_then(Square::try_from_index),
        };
        if let Some(stop) = stop {
            if occupied.contains(stop) {
                sink.add(us, PASSED_BLOCKED, 1);
                if board.color_bb(them).contains(stop) {
                    sink.add(us, PASSED_BLOCKED_BY_ENEMY, 1);
                }
            }
            let theirs = i32::from(kiln_tables::distance(their_king.raw(), stop.raw()));
            let ours = i32::from(kiln_tables::distance(our_king.raw(), stop.raw()));
            let rank = relative_rank(sq, us) as i32;
            sink.add(
                us,
                PASSED_KING_DISTANCE,
                (theirs - ours).clamp(-4, 4) * rank,
            );
            // Each king's own distance too, by rank: how much it matters
            // grows as the pawn comes closer.
            sink.add(us, PASSED_ENEMY_KING + rank as usize, theirs);
            sink.add(us, PASSED_OWN_KING + rank as usize, ours);
            // Rule of the square: with only pawns left to them, a passer
            // whose path is clear and whose queening square their king
            // cannot reach in time promotes.
            if their_pieces_gone {
                let path = kiln_tables::forward_file(c, sq.raw());
                let queening = match us {
                    Color::White => 56 + sq.file().index() as u8,
                    Color::Black => sq.file().index() as u8,
                };
                // A pawn on its second rank moves two squares at once.
                let pawn_moves = (7 - rank).min(5);
                let tempo = i32::from(board.side_to_move() == them);
                let king_moves =
                    i32::from(kiln_tables::distance(their_king.raw(), queening)) - tempo;
                if path & occupied.0 == 0 && pawn_moves < king_moves {
                    sink.add(us, UNSTOPPABLE_PASSER, 1);
                }
            }
        }
    }

    // Pieces: mobility, rook files, outposts, attacks on the enemy king
    // zone.
    let our_pawn_attacks = pawn_attacks(our_pawns, us);
    let king_ring = kiln_tables::king_attacks(our_king.raw());
    let mut attacked = Attacks {
        pawns: our_pawn_attacks,
        all: our_pawn_attacks | king_ring,
        twice: (our_pawn_attacks & king_ring) | pawn_double_attacks(our_pawns, us),
        ..Attacks::default()
    };
    let area = !board.color_bb(us).0 & !pawn_attacks(their_pawns, them);
    let own = board.color_bb(us).0;
    let pawns_both = our_pawns.0 | their_pawns.0;
    let queens_both = board.pieces(us, PieceKind::Queen).0 | board.pieces(them, PieceKind::Queen).0;
    // Every square an enemy pawn attacks now or could attack after moving
    // on; outposts are the squares on relative ranks 4-6 outside it that
    // our pawns defend.
    let their_span = {
        let mut f = pawn_attacks(their_pawns, them);
        for shift in [8, 16, 32] {
            f |= match them {
                Color::White => f << shift,
                Color::Black => f >> shift,
            };
        }
        f
    };
    let outposts = match us {
        Color::White => 0x0000_FFFF_FF00_0000u64,
        Color::Black => 0x0000_00FF_FFFF_0000u64,
    } & our_pawn_attacks
        & !their_span;
    let king_zone = Bitboard(kiln_tables::king_attacks(their_king.raw())).with(their_king);
    let mut units = 0i32;
    let mut attackers = 0;
    for kind in [
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
    ] {
        let k = kind.index();
        for sq in board.pieces(us, kind) {
            let seen = attacks::piece(kind, us, sq, occupied);
            attacked.twice |= attacked.all & seen.0;
            attacked.all |= seen.0;
            match kind {
                PieceKind::Knight | PieceKind::Bishop => {
                    attacked.minors |= seen.0;
                    if kind == PieceKind::Knight {
                        attacked.knights |= seen.0;
                    } else {
                        attacked.bishops |= seen.0;
                    }
                    // Outpost: on the enemy's half (relative ranks 4-6),
                    // defended by a pawn, and no enemy pawn can ever chase
                    // it away.
                    if outposts & (1u64 << sq.raw()) != 0 {
                        let outpost = if kind == PieceKind::Knight {
                            KNIGHT_OUTPOST
                        } else {
                            BISHOP_OUTPOST
                        };
                        sink.add(us, outpost, 1);
                        // No enemy knight, nor bishop of its colour, can
                        // ever trade it off.
                        let colour = if Bitboard::LIGHT_SQUARES.contains(sq) {
                            Bitboard::LIGHT_SQUARES
                        } else {
                            Bitboard::DARK_SQUARES
                        };
                        let contesters = board.pieces(them, PieceKind::Knight)
                            | (board.pieces(them, PieceKind::Bishop) & colour);
                        if contesters.is_empty() {
                            sink.add(us, UNCONTESTED_OUTPOST, 1);
                        }
                    } else if kind == PieceKind::Knight && seen.0 & outposts & !own != 0 {
                        sink.add(us, REACHABLE_OUTPOST, 1);
                    }
                    if kind == PieceKind::Bishop {
                        // Through the pawns only: the lines it will open.
                        let lines = kiln_tables::bishop_attacks(sq.raw(), pawns_both);
                        if lines & king_zone.0 != 0 {
                            sink.add(us, BISHOP_ON_KING_RING, 1);
                        }
                        if (lines & CENTRE).count_ones() >= 2 {
                            sink.add(us, LONG_DIAGONAL_BISHOP, 1);
                        }
                        let xray = kiln_tables::bishop_attacks(sq.raw(), 0) & their_pawns.0;
                        sink.add(us, BISHOP_XRAY_PAWNS, xray.count_ones() as i32);
                    }
                }
                PieceKind::Rook => {
                    // Rooks that defend each other (counted once per pair:
                    // the second sees the first).
                    if attacked.rooks & (1u64 << sq.raw()) != 0 {
                        sink.add(us, CONNECTED_ROOKS, 1);
                    }
                    attacked.rooks |= seen.0;
                    let file = kiln_tables::file_mask(sq.file().index() as u8);
                    if file & king_zone.0 != 0 {
                        sink.add(us, ROOK_ON_KING_RING, 1);
                    }
                    if file & queens_both != 0 {
                        sink.add(us, ROOK_ON_QUEEN_FILE, 1);
                    }
                }
                PieceKind::Queen => {
                    attacked.queens |= seen.0;
                    // Deep in their half where no pawn of theirs can ever
                    // chase it away.
                    if relative_rank(sq, us) >= 4 && their_span & (1u64 << sq.raw()) == 0 {
                        sink.add(us, QUEEN_INFILTRATION, 1);
                    }
                }
                _ => {}
            }
            let reach = (seen.0 & area).count_ones() as usize;
            sink.add(us, MOBILITY[k] + reach, 1);
            let zone_hits = (seen & king_zone).count() as i32;
            if zone_hits > 0 {
                units += KING_ATTACK_UNITS[k] * zone_hits;
                attackers += 1;
            }
            if kind == PieceKind::Rook {
                if reach <= 3 {
                    // Boxed in on the king's wing, between the king and the
                    // edge (Kf1 with Rh1): it waits for the king to move,
                    // and for good once the king can no longer castle.
                    let king_file = our_king.file().index();
                    let file = sq.file().index();
                    if (king_file < 4) == (file < king_file) {
                        let stuck = if board.castling_rights().has_any(us) {
                            1
                        } else {
                            2
                        };
                        sink.add(us, TRAPPED_ROOK, stuck);
                    }
                }
                // On the 7th rank, where it eats pawns or cuts the king off.
                if relative_rank(sq, us) == 6 {
                    let seventh = kiln_tables::rank_mask(sq.rank().index() as u8);
                    if relative_rank(their_king, us) == 7 || (seventh & their_pawns.0) != 0 {
                        sink.add(us, ROOK_ON_SEVENTH, 1);
                    }
                }
                let file = Bitboard(kiln_tables::file_mask(sq.file().index() as u8));
                // An own pawn on its file that cannot move: the file will
                // not open soon.
                if file.0 & our_pawns.0 & forward(occupied.0, them) != 0 {
                    sink.add(us, ROOK_CLOSED_FILE, 1);
                }
                if (file & our_pawns).is_empty() {
                    let open = (file & their_pawns).is_empty();
                    sink.add(
                        us,
                        if open {
                            ROOK_OPEN_FILE
                        } else {
                            ROOK_SEMI_OPEN_FILE
                        },
                        1,
                    );
                }
            }
        }
    }
    // One attacker is rarely dangerous; several together grow quickly with
    // the attack units (a table by units, so it stays linear for tuning).
    if attackers >= 2 {
        let last = KING_DANGER_LEN - 1;
        sink.add(us, KING_DANGER + (units as usize).min(last), 1);
        // Without a queen the same units are worth much less.
        if board.pieces(us, PieceKind::Queen).is_empty() {
            sink.add(us, KING_DANGER_NO_QUEEN, units.min(last as i32));
        }
    }
    if attackers > 0 {
        sink.add(
            us,
            KING_ATTACKERS + (attackers as usize).min(KING_ATTACKERS_LEN - 1),
            1,
        );
    }

    // Open files at our king: no own pawn on the king's file or a
    // neighbouring one is a highway for enemy rooks and queens.
    let king_file = our_king.file().index() as u8;
    for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
        let mask = Bitboard(kiln_tables::file_mask(file));
        if (mask & our_pawns).is_empty() {
            let open = (mask & their_pawns).is_empty();
            sink.add(
                us,
                if open {
                    KING_OPEN_FILE
                } else {
                    KING_SEMI_OPEN_FILE
                },
                1,
            );
        }
    }

    // No pawn of either side on the king's wing: nothing to hide behind
    // and nothing for the king to do there in the endgame.
    if king_flank(king_file) & (our_pawns.0 | their_pawns.0) == 0 {
        sink.add(us, PAWNLESS_FLANK, 1);
    }

    // In the endgame the king belongs near its pawns: the distance to the
    // nearest one.
    if let Some(nearest) = our_pawns
        .into_iter()
        .map(|p| kiln_tables::distance(our_king.raw(), p.raw()))
        .min()
    {
        sink.add(us, KING_PAWN_DISTANCE, i32::from(nearest));
    }

    // Pawn shield: our pawns on the two ranks in front of our king.
    let rank = our_king.rank().index();
    let shield_ranks = match us {
        Color::White => [rank + 1, rank + 2],
        Color::Black => [rank.wrapping_sub(1), rank.wrapping_sub(2)],
    };
    let shield_mask = shield_ranks
        .iter()
        .filter(|&&r| r < 8)
        .fold(0u64, |m, &r| m | kiln_tables::rank_mask(r as u8));
    let front = kiln_tables::passed_pawn_mask(c, our_king.raw()) & shield_mask;
    sink.add(us, PAWN_SHIELD, (front & our_pawns.0).count_ones() as i32);

    // Pawn storm: enemy pawns already on our third or fourth rank in front
    // of our king open lines against it.
    let storm_ranks = match us {
        Color::White => kiln_tables::rank_mask(2) | kiln_tables::rank_mask(3),
        Color::Black => kiln_tables::rank_mask(5) | kiln_tables::rank_mask(4),
    };
    let king_files = kiln_tables::adjacent_files(king_file) | kiln_tables::file_mask(king_file);
    sink.add(
        us,
        PAWN_STORM,
        (king_files & storm_ranks & their_pawns.0).count_ones() as i32,
    );
    attacked
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink that counts what each term reports, per colour.
    #[derive(Default)]
    struct Counts(std::collections::HashMap<(usize, usize), i32>);

    impl Sink for Counts {
        fn add(&mut self, color: Color, index: usize, count: i32) {
            *self.0.entry((color.index(), index)).or_default() += count;
        }
    }

    fn counts(fen: &str) -> Counts {
        let board = Board::from_fen(fen).expect("test FEN");
        let mut sink = Counts::default();
        let info = pawn_structure(
            board.pieces(Color::White, PieceKind::Pawn),
            board.pieces(Color::Black, PieceKind::Pawn),
            &mut sink,
        );
        piece_terms(&board, &info, &mut sink);
        sink
    }

    fn count(c: &Counts, color: Color, index: usize) -> i32 {
        c.0.get(&(color.index(), index)).copied().unwrap_or(0)
    }

    /// `fen` with colours swapped: ranks mirrored, piece case swapped, the
    /// other side to move, castling rights swapped, en passant mirrored.
    fn mirror(fen: &str) -> String {
        let swap = |s: &str| -> String {
            s.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        };
        let fields: Vec<&str> = fen.split(' ').collect();
        let placement: Vec<String> = fields[0].split('/').rev().map(swap).collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let mut castling: Vec<char> = swap(fields[2]).chars().collect();
        castling.sort_unstable();
        let castling: String = castling.into_iter().collect();
        let ep = match fields[3].as_bytes() {
            [file, rank] => format!("{}{}", *file as char, (b'1' + b'8' - rank) as char),
            _ => "-".to_string(),
        };
        format!(
            "{} {side} {castling} {ep} {} {}",
            placement.join("/"),
            fields[4],
            fields[5]
        )
    }

    #[test]
    fn terms_are_colour_symmetric() {
        for fen in [
            "r1bq1rk1/pp3ppp/2n1pn2/3p4/1bPP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
            "6k1/5ppp/8/3P4/8/8/5PPP/3R2K1 w - - 0 1",
            "r4rk1/1b3ppp/p3p3/1p1nN3/3P4/P2B4/1P3PPP/2RQ1RK1 w - - 0 1",
            "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2N2Q2/PPP3PP/2KR1B1R w - - 0 13",
            "8/5pk1/6p1/2Pr3p/1R5P/6P1/5PK1/8 b - - 0 40",
            "4q1k1/3n4/8/1B6/4p3/4P3/8/4RK2 w - - 0 1",
            "3k4/2p1p3/8/3N4/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/3p4/P1PP4/4P3/8/4K3 w - - 0 1",
            "4k3/3n4/3r4/1B1P4/8/8/8/4K3 w - - 0 1",
            "8/8/4k3/P7/8/8/8/4K3 b - - 0 1",
            "4k3/1p6/B7/8/8/8/8/R2RK3 w - - 0 1",
        ] {
            let a = counts(fen);
            let b = counts(&mirror(fen));
            for (&(colour, index), &n) in &a.0 {
                assert_eq!(
                    count(&b, !Color::ALL[colour], index),
                    n,
                    "term {index} of colour {colour} in {fen}"
                );
            }
            assert_eq!(a.0.len(), b.0.len(), "{fen}");
        }
    }

    #[test]
    fn safe_checks_need_an_undefended_square() {
        // Knight checks against e8 come from d6, f6, c7 and g7. From e5 the
        // knight reaches none of them.
        let c = counts("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, SAFE_CHECK_KNIGHT), 0);
        let c = counts("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1");
        // From e4 it reaches d6 and f6, both out of the king's reach.
        assert_eq!(count(&c, Color::White, SAFE_CHECK_KNIGHT), 2);
        let c = counts("4k3/8/8/8/4N3/8/8/3RK3 w - - 0 1");
        assert_eq!(count(&c, Color::White, SAFE_CHECK_KNIGHT), 2);
        // The rook reaches d8, but the king defends it.
        assert_eq!(count(&c, Color::White, SAFE_CHECK_ROOK), 0);
        // A black pawn on e7 defends d6 and f6.
        let c = counts("4k3/4p3/8/8/4N3/8/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, SAFE_CHECK_KNIGHT), 0);
    }

    #[test]
    fn passed_pawn_and_placement_terms() {
        // White's d5 pawn is passed, its stop square empty and unattacked;
        // the rook on d1 stands behind it.
        let c = counts("6k1/5ppp/8/3P4/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(count(&c, Color::White, PASSED_FREE), 4);
        assert_eq!(count(&c, Color::White, ROOK_BEHIND_PASSER), 1);
        // A black rook on d6 blocks it.
        let c = counts("6k1/5ppp/3r4/3P4/8/8/5PPP/3R2K1 w - - 0 1");
        assert_eq!(count(&c, Color::White, PASSED_FREE), 0);
        // Bishop on c1 (dark) with pawns on b2 and d2 (dark) and e4 (light);
        // the knight on d3 has no pawn in front, the bishop has none either.
        let c = counts("4k3/8/8/8/4P3/3N4/1P1P4/2B1K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, BISHOP_OWN_PAWNS), 2);
        assert_eq!(count(&c, Color::White, MINOR_BEHIND_PAWN), 0);
        let c = counts("4k3/8/8/8/3P4/3N4/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, MINOR_BEHIND_PAWN), 1);
        assert_eq!(count(&c, Color::White, MINOR_KING_DISTANCE), 2);
    }

    #[test]
    fn pawn_push_threats_and_weak_king_squares() {
        // c3-c4 would attack the knight on d5; c4 is not attacked by Black.
        let c = counts("4k3/8/8/3n4/8/2P5/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, THREAT_PAWN_PUSH), 1);
        // The king zone of g8 is f8, h8, f7, g7 and h7; with no black pawns
        // or pieces only the king defends it.
        let c = counts("6k1/8/8/7Q/8/8/8/4K3 w - - 0 1");
        // From h5 the queen sees h7 and h8 up the file and f7 on the
        // diagonal: three.
        assert_eq!(count(&c, Color::White, KING_ZONE_WEAK), 3);
    }

    #[test]
    fn flank_attacks_and_pawnless_flank() {
        // Black's king on g8: its wing is e-h, its camp ranks 4-8. The
        // queen on h5 sees e8, f7, g6 and g4 on the diagonals, h6, h7, h8
        // and h4 on the file, g5, f5 and e5 on the rank: 11 squares. The
        // rook on h1 adds h5 (its own queen) and sees h4 a second time.
        let c = counts("6k1/8/8/7Q/8/8/8/4K2R w - - 0 1");
        assert_eq!(count(&c, Color::White, FLANK_ATTACK), 11 + 1 + 1);
        // No pawns at all: both kings stand on pawnless wings.
        assert_eq!(count(&c, Color::White, PAWNLESS_FLANK), 1);
        assert_eq!(count(&c, Color::Black, PAWNLESS_FLANK), 1);
        let c = counts("6k1/7p/8/8/8/8/8/4K3 w - - 0 1");
        // Black's h-pawn covers g8's wing; White's king on e1 has none on
        // c-f.
        assert_eq!(count(&c, Color::Black, PAWNLESS_FLANK), 0);
        assert_eq!(count(&c, Color::White, PAWNLESS_FLANK), 1);
    }

    #[test]
    fn trapped_pieces() {
        // The knight on a8 took a rook: b6 is a pawn the d7 knight defends,
        // c7 its only way out.
        let fen = "N1b4r/3nqkb1/pp1p2p1/2pPp2n/1PP1Pp2/P1N2PP1/4B3/R1BQ1RK1 w - - 1 19";
        let c = counts(fen);
        assert_eq!(count(&c, Color::White, TRAPPED_MINOR), 0);
        assert_eq!(count(&c, Color::White, CORNERED_MINOR), 1);
        // With a black bishop on d8 covering c7, it is trapped.
        let c = counts("N1bb3r/3nqk2/pp1p2p1/2pPp2n/1PP1Pp2/P1N2PP1/4B3/R1BQ1RK1 w - - 1 19");
        assert_eq!(count(&c, Color::White, TRAPPED_MINOR), 1);
        assert_eq!(count(&c, Color::White, CORNERED_MINOR), 0);
        // A bishop on a7 shut in by b6; none on its home side of the board.
        let c = counts("4k3/B7/1p6/8/8/8/8/2B1K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, TRAPPED_MINOR), 1);
        // Kf1 with the rook on h1 and no castling rights: twice; with the
        // right to castle queenside still there: once.
        let c = counts("4k3/8/8/8/8/8/5PPP/5K1R w - - 0 1");
        assert_eq!(count(&c, Color::White, TRAPPED_ROOK), 2);
        let c = counts("4k3/8/8/8/8/8/5PPP/R4K1R w A - 0 1");
        assert_eq!(count(&c, Color::White, TRAPPED_ROOK), 1);
        // Castled, the rook next to the king is free to move.
        let c = counts("4k3/8/8/8/8/8/5PPP/5RK1 w - - 0 1");
        assert_eq!(count(&c, Color::White, TRAPPED_ROOK), 0);
    }

    #[test]
    fn batch_three_terms() {
        // White pawns c4 and d4 side by side, e3 defends d4; Black's d5
        // opposes d4. The a-pawn is passed on the edge file.
        let c = counts("4k3/8/8/3p4/P1PP4/4P3/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, PHALANX_PAWN + 3), 2);
        assert_eq!(count(&c, Color::White, SUPPORTED_PAWN), 1);
        assert_eq!(count(&c, Color::White, CONNECTED_OPPOSED), 1);
        assert_eq!(count(&c, Color::White, PASSED_FILE), 1);
        // White's king on e1: the nearest own pawn is e3, two squares away.
        assert_eq!(count(&c, Color::White, KING_PAWN_DISTANCE), 2);
        // The bishop on b5 pins the d7 knight to the queen on e8; the
        // rook on e1 has two men between it and the queen.
        let c = counts("4q1k1/3n4/8/1B6/4p3/4P3/8/4RK2 w - - 0 1");
        assert_eq!(count(&c, Color::White, QUEEN_XRAY), 1);
        let c = counts("4q1k1/8/8/1B6/4p3/4P3/8/4RK2 w - - 0 1");
        assert_eq!(count(&c, Color::White, QUEEN_XRAY), 0);
        // Knight on d5 attacks the undefended pawns on c7 and e7 (the king
        // on d8 defends both once, White attacks each once: not strong).
        let c = counts("3k4/2p1p3/8/3N4/8/8/8/4K3 w - - 0 1");
        assert_eq!(
            count(&c, Color::White, MINOR_THREAT + PieceKind::Pawn.index()),
            2
        );
        // A pawn on e4 attacks the d5 knight, defended by the d3 pawn.
        let c = counts("4k3/8/8/3n4/4P3/3P4/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, THREAT_BY_SAFE_PAWN), 1);
        // Passed pawn on b6 with nothing ahead on files a-c, its stop
        // square covered by the rook on a7.
        let c = counts("6k1/R7/1P6/8/8/8/8/6K1 w - - 0 1");
        assert_eq!(count(&c, Color::White, PASSED_SPAN_FREE), 5);
        assert_eq!(count(&c, Color::White, PASSED_STOP_DEFENDED), 5);
        // Enemy king g8 is five squares from b7, ours (g1) six.
        assert_eq!(count(&c, Color::White, PASSED_ENEMY_KING + 5), 5);
        assert_eq!(count(&c, Color::White, PASSED_OWN_KING + 5), 6);
    }

    #[test]
    fn batch_five_terms() {
        // Pawn ending: White's a5 pawn needs three moves, Black's king on
        // e6 four to reach a8 (three with the move).
        let c = counts("8/8/4k3/P7/8/8/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, UNSTOPPABLE_PASSER), 1);
        let c = counts("8/8/4k3/P7/8/8/8/4K3 b - - 0 1");
        assert_eq!(count(&c, Color::White, UNSTOPPABLE_PASSER), 0);
        // A black knight left: no rule of the square.
        let c = counts("8/8/4k3/P7/8/8/8/n3K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, UNSTOPPABLE_PASSER), 0);
        // The bishop on b5 pins the d7 knight to the e8 king; the black
        // rook stands on d6, the stop square of the passed d5 pawn.
        let c = counts("4k3/3n4/3r4/1B1P4/8/8/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, PIN_ON_KING), 1);
        assert_eq!(count(&c, Color::White, PASSED_BLOCKED_BY_ENEMY), 1);
        // Rooks on a1 and d1 defend each other; the bishop on a6 attacks
        // the b7 pawn, which nothing defends.
        let c = counts("4k3/1p6/B7/8/8/8/8/R2RK3 w - - 0 1");
        assert_eq!(count(&c, Color::White, CONNECTED_ROOKS), 1);
        assert_eq!(count(&c, Color::White, HANGING_PAWN), 1);
        // Two isolated pawns on the c-file: the rear one counts.
        let c = counts("4k3/8/8/8/2P5/2P5/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, DOUBLED_ISOLATED), 1);
        // Knight on d5 defended by e4, no black minor to trade it.
        let c = counts("4k3/7p/8/3N4/4P3/8/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, UNCONTESTED_OUTPOST), 1);
        // A black bishop on the light squares can.
        let c = counts("4k3/7p/8/3N4/4P3/8/8/4Kb2 w - - 0 1");
        assert_eq!(count(&c, Color::White, UNCONTESTED_OUTPOST), 0);
    }

    #[test]
    fn piece_placement_extras() {
        // Queen on d6: no black pawn on c- or e-files can attack it; the
        // rook on d1 stands on the queen's file. The bishop on b2 sees d4
        // and e5 through the pawns, and the g7 pawn behind them.
        let c = counts("4k3/6p1/3Q4/8/8/8/1B6/3RK3 w - - 0 1");
        assert_eq!(count(&c, Color::White, QUEEN_INFILTRATION), 1);
        assert_eq!(count(&c, Color::White, ROOK_ON_QUEEN_FILE), 1);
        assert_eq!(count(&c, Color::White, LONG_DIAGONAL_BISHOP), 1);
        assert_eq!(count(&c, Color::White, BISHOP_XRAY_PAWNS), 1);
        // A black pawn on e7 could take on d6.
        let c = counts("4k3/4p2p/3Q4/8/8/8/1B6/3RK3 w - - 0 1");
        assert_eq!(count(&c, Color::White, QUEEN_INFILTRATION), 0);
        // Knight on c3 reaches d5, defended by e4 and out of reach of
        // Black's pawns (none on the c- or e-files).
        let c = counts("4k3/7p/8/8/4P3/2N5/8/4K3 w - - 0 1");
        assert_eq!(count(&c, Color::White, REACHABLE_OUTPOST), 1);
    }
}
