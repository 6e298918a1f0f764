//! Endgame knowledge, looked up by material signature.
//!
//! The board keeps its material as one `u64` of 4-bit counters
//! ([`Material`]). The root build script asks `kiln_gen::endgames` for the
//! list of signatures with special knowledge and emits them as a `phf` map,
//! [`ENDGAMES`], from signature to [`Entry`]: which endgame function applies
//! and which side is the strong one. [`probe`] looks the position up (only
//! when few enough pieces are left for any entry to match) and returns a
//! [`Verdict`]:
//!
//! - [`Verdict::Exact`]: a specialised evaluation that replaces the normal
//!   one: known draws (KvK, KNvK, KBvK, KNNvK, minor against minor, ...)
//!   score 0; mating material against a bare king scores a known win plus a
//!   gradient that drives the lone king to the edge (to a corner of the
//!   bishop's colour for KBNvK) and brings the strong king close;
//! - [`Verdict::Scale`]: the normal evaluation with its endgame half scaled
//!   down, for drawish material: opposite-coloured bishops, rook pawns with
//!   the wrong bishop (or none) against a king holding the corner, pawnless
//!   positions with a small material edge (KRvKR, KRvKB, KRBvKR, ...);
//! - [`Verdict::Normal`]: nothing special.

use crate::eval::endgame_constants::*;
use crate::eval::masks::{distance, file_mask, passed_span};
use crate::eval::psqt::MATERIAL_EG;
use crate::eval::score::{MAX_EVAL, Score};
use kiln_board::{Bitboard, Board, Color, File, Material, PieceKind, Square};

/// One entry of the endgame table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Which endgame function applies.
    pub kind: Kind,
    /// The side with more material (for symmetric material, White).
    pub strong: Color,
}

// `Kind` (the endgame functions, one per `kiln_gen::endgames::Rule`), the
// `ENDGAMES` map, `ENDGAME_MAX_PIECES` and `MATERIAL_UNITS`.
include!(concat!(env!("OUT_DIR"), "/endgames.rs"));

/// Scale factors are fractions of this: 64 leaves the score as it is.
pub const SCALE_NORMAL: i32 = 64;

/// The score of a won ending before the gradient and material are added:
/// far above any normal evaluation, far below mate scores.
pub const KNOWN_WIN: Score = 10_000;

/// What the endgame table says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Evaluate normally.
    Normal,
    /// Use this score (White's point of view) instead of the evaluation.
    Exact(Score),
    /// Evaluate normally, then multiply the endgame half by
    /// `white / SCALE_NORMAL` when it favours White and by
    /// `black / SCALE_NORMAL` when it favours Black.
    Scale {
        /// Factor applied when the endgame score favours White.
        white: i32,
        /// Factor applied when the endgame score favours Black.
        black: i32,
    },
}

impl Verdict {
    /// The endgame half `eg` (White's point of view) after this verdict's
    /// scale factor (unchanged unless the verdict is [`Verdict::Scale`]).
    #[inline]
    pub fn scale_eg(self, eg: i32) -> i32 {
        match self {
            Verdict::Scale { white, black } => {
                let factor = if eg > 0 { white } else { black };
                eg * factor / SCALE_NORMAL
            }
            _ => eg,
        }
    }

    /// The factor [`scale_eg`](Verdict::scale_eg) applies to an endgame
    /// score of sign `eg` (for a tuner's gradient).
    pub fn eg_factor(self, eg: i32) -> i32 {
        match self {
            Verdict::Scale { white, black } => {
                if eg > 0 {
                    white
                } else {
                    black
                }
            }
            _ => SCALE_NORMAL,
        }
    }
}

/// The table entry for a material signature.
#[inline]
pub fn lookup(material: Material) -> Option<Entry> {
    ENDGAMES.get(&material.0).copied()
}

/// The endgame table's verdict on `board`.
#[inline]
pub fn probe(board: &Board) -> Verdict {
    let pawns_and_kings = board.kind_bb(PieceKind::Pawn) | board.kind_bb(PieceKind::King);
    // Most positions have too many pieces for any entry: skip the hash.
    if (board.occupied().0 & !pawns_and_kings.0).count_ones() > ENDGAME_MAX_PIECES {
        return Verdict::Normal;
    }
    match lookup(board.material()) {
        Some(entry) => evaluate_entry(board, entry),
        None => Verdict::Normal,
    }
}

/// Runs the endgame function of `entry` on `board`.
fn evaluate_entry(board: &Board, entry: Entry) -> Verdict {
    let strong = entry.strong;
    let from_strong = |score: Score| {
        let score = score.clamp(-MAX_EVAL, MAX_EVAL);
        Verdict::Exact(if strong == Color::White {
            score
        } else {
            -score
        })
    };
    match entry.kind {
        Kind::Draw => Verdict::Exact(0),
        Kind::Kbnk => from_strong(kbnk(board, strong)),
        Kind::MateBareKing => match mate_bare_king(board, strong) {
            Some(score) => from_strong(score),
            None => Verdict::Normal,
        },
        Kind::OppositeBishops => opposite_bishops(board),
        Kind::RookPawns => rook_pawns(board, strong),
        Kind::Pawnless => pawnless(board.material()),
    }
}

// ----- helpers -------------------------------------------------------------

/// Manhattan distance of `square` from the four centre squares (0..=6).
fn centre_distance(square: Square) -> i32 {
    let file = square.file().index() as i32;
    let rank = square.rank().index() as i32;
    (file.max(7 - file) - 4) + (rank.max(7 - rank) - 4)
}

/// Manhattan distance between two squares (0..=14).
fn manhattan(a: Square, b: Square) -> i32 {
    (a.file().index() as i32 - b.file().index() as i32).abs()
        + (a.rank().index() as i32 - b.rank().index() as i32).abs()
}

/// The strong side's endgame material (the sum of its pieces' values).
fn material_eg(board: &Board, color: Color) -> i32 {
    PieceKind::ALL[..5]
        .iter()
        .map(|&kind| MATERIAL_EG[kind.index()] * board.pieces(color, kind).count() as i32)
        .sum()
}

/// The strong king's closeness to the lone king (0..=14 steps).
fn kings_close(board: &Board, strong: Color) -> i32 {
    MATE_KINGS_CLOSE * (14 - manhattan(board.king_square(strong), board.king_square(!strong)))
}

/// Whether `bishops` stand on squares of both colours.
fn both_colours(bishops: Bitboard) -> bool {
    (bishops & Bitboard::LIGHT_SQUARES).any() && (bishops & Bitboard::DARK_SQUARES).any()
}

// ----- endgame functions ----------------------------------------------------

/// Mating material against a bare king: a known win, more so the closer
/// the lone king is to the edge and the strong king to it. `None` when the
/// pieces cannot force mate after all (bishops all on one colour) but pawns
/// are left to decide; bishops of one colour alone are a draw.
fn mate_bare_king(board: &Board, strong: Color) -> Option<Score> {
    let count = |kind| board.pieces(strong, kind).count();
    let bishops = board.pieces(strong, PieceKind::Bishop);
    let can_mate = count(PieceKind::Queen) > 0
        || count(PieceKind::Rook) > 0
        || count(PieceKind::Knight) >= 3
        || (bishops.any() && count(PieceKind::Knight) > 0)
        || both_colours(bishops);
    if !can_mate {
        return if count(PieceKind::Pawn) > 0 {
            None
        } else {
            Some(0)
        };
    }
    let lone_king = board.king_square(!strong);
    Some(
        KNOWN_WIN
            + material_eg(board, strong)
            + MATE_EDGE_PUSH * centre_distance(lone_king)
            + kings_close(board, strong),
    )
}

/// King, bishop and knight against king: mate is only possible in a corner
/// of the bishop's colour, so the lone king is pushed towards those corners
/// (and away from the centre); along the edge the value rises towards the
/// right corner, so the strong side learns to drive the king out of the
/// wrong one.
fn kbnk(board: &Board, strong: Color) -> Score {
    let lone_king = board.king_square(!strong);
    let light_bishop = (board.pieces(strong, PieceKind::Bishop) & Bitboard::LIGHT_SQUARES).any();
    let corners = if light_bishop {
        [Square::A8, Square::H1]
    } else {
        [Square::A1, Square::H8]
    };
    let to_corner = manhattan(lone_king, corners[0]).min(manhattan(lone_king, corners[1]));
    // The knight must join the net: without this the search, short of
    // depth, leaves it far away and the king shuffles between corners.
    let knight_close = board
        .pieces(strong, PieceKind::Knight)
        .into_iter()
        .map(|knight| KBNK_KNIGHT_CLOSE * (14 - manhattan(knight, lone_king)))
        .sum::<i32>();
    KNOWN_WIN
        + material_eg(board, strong)
        + KBNK_CORNER * (14 - to_corner)
        + KBNK_EDGE_PUSH * centre_distance(lone_king)
        + kings_close(board, strong)
        + knight_close
}

/// One bishop each: opposite colours make the ending drawish, the more so
/// with no other pieces and few passed pawns for the side that is ahead.
fn opposite_bishops(board: &Board) -> Verdict {
    let bishops = board.kind_bb(PieceKind::Bishop);
    let pawns = board.kind_bb(PieceKind::Pawn);
    if !both_colours(bishops) {
        return if pawns.is_empty() {
            pawnless(board.material())
        } else {
            Verdict::Normal
        };
    }
    if board.occupied().count() - pawns.count() > 4 {
        // Other pieces too: still drawish, much less so.
        return Verdict::Scale {
            white: OPPOSITE_BISHOPS_WITH_PIECES,
            black: OPPOSITE_BISHOPS_WITH_PIECES,
        };
    }
    // Kings and bishops only: the defending bishop blockades one passed
    // pawn on its colour; only several passers give real winning chances.
    let factor = |color: Color| {
        (OPPOSITE_BISHOPS_BASE + OPPOSITE_BISHOPS_PER_PASSER * passed_pawns(board, color))
            .min(SCALE_NORMAL)
    };
    Verdict::Scale {
        white: factor(Color::White),
        black: factor(Color::Black),
    }
}

/// Number of `color`'s passed pawns (no enemy pawn ahead on its own or an
/// adjacent file).
fn passed_pawns(board: &Board, color: Color) -> i32 {
    let theirs = board.pieces(!color, PieceKind::Pawn);
    board
        .pieces(color, PieceKind::Pawn)
        .into_iter()
        .filter(|sq| (Bitboard(passed_span(color, *sq as u8)) & theirs).is_empty())
        .count() as i32
}

/// Pawns on one rook file, with no bishop or one that does not cover the
/// promotion square, against a bare king standing on or next to that
/// square: a draw however many pawns.
fn rook_pawns(board: &Board, strong: Color) -> Verdict {
    let pawns = board.pieces(strong, PieceKind::Pawn);
    let file = if pawns.0 & !file_mask(File::A as u8) == 0 {
        File::A
    } else if pawns.0 & !file_mask(File::H as u8) == 0 {
        File::H
    } else {
        return Verdict::Normal;
    };
    let rank = match strong {
        Color::White => kiln_board::Rank::Eighth,
        Color::Black => kiln_board::Rank::First,
    };
    let queening = Square::new(file, rank);
    let bishop_covers = board
        .pieces(strong, PieceKind::Bishop)
        .first()
        .is_some_and(|bishop| bishop.is_light() == queening.is_light());
    let lone_king = board.king_square(!strong);
    if bishop_covers || distance(lone_king as u8, queening as u8) > 1 {
        return Verdict::Normal;
    }
    match strong {
        Color::White => Verdict::Scale {
            white: 0,
            black: SCALE_NORMAL,
        },
        Color::Black => Verdict::Scale {
            white: SCALE_NORMAL,
            black: 0,
        },
    }
}

/// No pawns: an edge of less than a rook (KRvKB, KRBvKR, KQvKRB, equal
/// material) is rarely enough to win.
fn pawnless(material: Material) -> Verdict {
    let units = |color| {
        [
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ]
        .into_iter()
        .map(|kind| MATERIAL_UNITS[kind.index()] * material.count(color, kind) as i32)
        .sum::<i32>()
    };
    if (units(Color::White) - units(Color::Black)).abs() <= PAWNLESS_MAX_EDGE {
        Verdict::Scale {
            white: PAWNLESS_SCALE,
            black: PAWNLESS_SCALE,
        }
    } else {
        Verdict::Normal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> Board {
        Board::from_fen(fen).expect("valid test FEN")
    }

    #[test]
    fn signatures_match_the_generator() {
        for fen in [
            "4k3/pp6/8/8/8/8/1PPP4/RN2K1NQ w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "8/8/4k3/8/8/2BN4/8/4K3 b - - 0 1",
        ] {
            let b = board(fen);
            let text = b.material().to_string();
            assert_eq!(
                kiln_gen::endgames::parse(&text),
                Some(b.material().0),
                "{fen}"
            );
        }
    }

    #[test]
    fn every_listed_signature_has_an_entry_for_both_colours() {
        let expect = [
            ("KvK", Kind::Draw),
            ("KNvK", Kind::Draw),
            ("KBvK", Kind::Draw),
            ("KNNvK", Kind::Draw),
            ("KNvKN", Kind::Draw),
            ("KBvKN", Kind::Draw),
            ("KBvKB", Kind::Draw),
            ("KNNvKB", Kind::Draw),
            ("KBNvK", Kind::Kbnk),
            ("KQvK", Kind::MateBareKing),
            ("KRvK", Kind::MateBareKing),
            ("KBBvK", Kind::MateBareKing),
            ("KQRvK", Kind::MateBareKing),
            ("KRPPvK", Kind::MateBareKing),
            ("KBPvKB", Kind::OppositeBishops),
            ("KBPPPvKBPP", Kind::OppositeBishops),
            ("KRBPvKRBP", Kind::OppositeBishops),
            ("KBPvK", Kind::RookPawns),
            ("KPPvK", Kind::RookPawns),
            ("KRvKR", Kind::Pawnless),
            ("KRvKB", Kind::Pawnless),
            ("KRvKN", Kind::Pawnless),
            ("KRBvKR", Kind::Pawnless),
            ("KQvKRB", Kind::Pawnless),
        ];
        for (text, kind) in expect {
            let sig = kiln_gen::endgames::parse(text).expect("valid material");
            let white = lookup(Material(sig)).unwrap_or_else(|| panic!("{text} missing"));
            let black =
                lookup(Material(sig).flipped()).unwrap_or_else(|| panic!("{text} flipped missing"));
            assert_eq!(white.kind, kind, "{text}");
            assert_eq!(black.kind, kind, "{text} flipped");
            if Material(sig).flipped().0 != sig {
                assert_eq!(white.strong, Color::White, "{text}");
                assert_eq!(black.strong, Color::Black, "{text} flipped");
            }
        }
        assert_eq!(lookup(Board::startpos().material()), None);
    }

    #[test]
    fn known_draws_evaluate_to_zero() {
        for fen in [
            "8/8/4k3/8/8/8/8/4K3 w - - 0 1",
            "8/8/4k3/8/8/2N5/8/4K3 w - - 0 1",
            "8/8/4k3/8/8/2B5/8/4K3 b - - 0 1",
            "8/8/4k3/8/8/2NN4/8/4K3 w - - 0 1",
            "8/8/2n1k3/8/8/2N5/8/4K3 w - - 0 1",
            "8/8/2b1k3/8/8/2N5/8/4K3 w - - 0 1",
            "8/8/2b1k3/8/8/2B5/8/4K3 w - - 0 1",
            "8/8/2b1k3/8/8/2NN4/8/4K3 b - - 0 1",
            // Two bishops on one colour cannot mate.
            "8/8/4k3/8/8/2B5/3B4/4K3 w - - 0 1",
        ] {
            let b = board(fen);
            assert_eq!(probe(&b), Verdict::Exact(0), "{fen}");
            assert_eq!(crate::eval::evaluate(&b), 0, "{fen}");
        }
    }

    #[test]
    fn mating_material_is_a_known_win_for_either_colour() {
        let white = board("8/8/4k3/8/8/8/8/3QK3 w - - 0 1");
        let black = board("8/8/4K3/8/8/8/8/3qk3 b - - 0 1");
        let Verdict::Exact(w) = probe(&white) else {
            panic!("KQvK is specialised")
        };
        assert!(w > KNOWN_WIN);
        assert_eq!(probe(&black), Verdict::Exact(-w));
        assert!(crate::eval::evaluate(&black) > KNOWN_WIN);
        // The lone king on the edge is worse for it than in the centre.
        let edge = board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        let Verdict::Exact(e) = probe(&edge) else {
            panic!("KQvK is specialised")
        };
        assert!(e > w);
    }

    #[test]
    fn kbnk_prefers_the_bishops_corner() {
        let score = |fen: &str| match probe(&board(fen)) {
            Verdict::Exact(s) => s,
            other => panic!("{fen}: {other:?}"),
        };
        // Bishop on e1 (dark): a1 and h8 are the mating corners.
        let right = score("7k/8/6K1/8/8/3N4/8/4B3 w - - 0 1");
        let wrong = score("k7/8/1K6/8/8/3N4/8/4B3 w - - 0 1");
        assert!(right > wrong + 200, "{right} vs {wrong}");
        // Centre is worst for the strong side.
        let centre = score("8/8/8/3k4/8/3N4/8/4B1K1 w - - 0 1");
        assert!(centre < wrong);
    }

    #[test]
    fn drawish_material_is_scaled() {
        // Opposite-coloured bishops, one passed pawn up.
        let ocb = probe(&board("8/4k3/4b3/8/3P4/8/3BK3/8 w - - 0 1"));
        assert_eq!(ocb.scale_eg(640), 360);
        assert_eq!(ocb.scale_eg(-640), -240);
        // Same-coloured bishops: normal.
        assert_eq!(
            probe(&board("8/4k3/3b4/8/3P4/8/3BK3/8 w - - 0 1")),
            Verdict::Normal
        );
        // Rook pawn, wrong bishop, king in the corner: no winning chances.
        let wrong = probe(&board("k7/8/8/P7/8/8/1B6/4K3 w - - 0 1"));
        assert_eq!(wrong.scale_eg(500), 0);
        assert_eq!(wrong.scale_eg(-500), -500);
        // A light-squared bishop covers a8 and wins.
        assert_eq!(
            probe(&board("k7/8/8/P7/8/8/2B5/4K3 w - - 0 1")),
            Verdict::Normal
        );
        // Black's rook pawn, king far away: normal.
        assert_eq!(
            probe(&board("8/8/8/8/4k3/8/p7/4K3 b - - 0 1")),
            Verdict::Normal
        );
        // KRvKB scaled, KQvKR not.
        assert!(matches!(
            probe(&board("8/8/4k3/3b4/8/8/3R4/4K3 w - - 0 1")),
            Verdict::Scale { .. }
        ));
        assert_eq!(
            probe(&board("8/8/4k3/3r4/8/8/3Q4/4K3 w - - 0 1")),
            Verdict::Normal
        );
    }
}
