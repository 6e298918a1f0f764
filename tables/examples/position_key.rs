//! Embedding `kiln-tables` without any engine: compute the Zobrist key of a
//! position from its FEN piece placement, and the squares a rook attacks.
//!
//! Run with `cargo run -p kiln-tables --example position_key [FEN]`.

use std::process::ExitCode;

use kiln_tables::{
    Bitboard, CastlingRights, File, PieceKind, Rank, Square, rook_attacks, zobrist_castling,
    zobrist_piece,
};

fn main() -> ExitCode {
    let placement = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR".to_string());
    let mut key = zobrist_castling(CastlingRights::ALL);
    let mut occupied = Bitboard::EMPTY;
    let rows: Vec<&str> = placement
        .split(' ')
        .next()
        .unwrap_or("")
        .split('/')
        .collect();
    if rows.len() != 8 {
        eprintln!("expected 8 ranks separated by '/', got {}", rows.len());
        return ExitCode::from(2);
    }
    for (row, text) in rows.iter().enumerate() {
        let rank = Rank::ALL[7 - row];
        let mut file = 0u8;
        for c in text.chars() {
            if let Some(empty) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += empty as u8;
                continue;
            }
            let (Some((color, piece)), Some(f)) = (PieceKind::from_fen_char(c), File::new(file))
            else {
                eprintln!("rank {rank}: unexpected {c:?} (piece letter, or a file past h)");
                return ExitCode::from(2);
            };
            let square = Square::new(f, rank);
            key ^= zobrist_piece(color, piece, square);
            occupied = occupied.with(square);
            file += 1;
        }
    }
    println!(
        "tables seed {} fingerprint {:016x}",
        kiln_tables::SEED,
        kiln_tables::FINGERPRINT
    );
    println!("key (White to move, all castling rights): {key:016x}");
    println!(
        "same as the start position: {}",
        key == kiln_tables::START_KEY
    );
    let seen: Vec<String> = rook_attacks(Square::A1, occupied)
        .into_iter()
        .map(|s| s.to_string())
        .collect();
    println!("rook on a1 attacks: {}", seen.join(" "));
    ExitCode::SUCCESS
}
