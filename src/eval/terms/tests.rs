//! Term counts on chosen positions, and colour symmetry.

use super::*;
use kiln_board::PieceKind;

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
