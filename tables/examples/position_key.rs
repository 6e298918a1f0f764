//! Embedding `kiln-tables` without any engine: compute the Zobrist key of a
//! position from its FEN piece placement, and the squares a rook attacks.
//!
//! Run with `cargo run -p kiln-tables --example position_key [FEN]`.

fn main() {
    let placement = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR".to_string());
    let mut key = kiln_tables::zobrist_castling(0b1111);
    let mut occupied = 0u64;
    let (mut file, mut rank) = (0u8, 7u8);
    for c in placement.split(' ').next().unwrap_or("").chars() {
        match c {
            '/' => {
                rank = rank.saturating_sub(1);
                file = 0;
            }
            '1'..='8' => file += c as u8 - b'0',
            _ => {
                let kind = match c.to_ascii_lowercase() {
                    'p' => 0,
                    'n' => 1,
                    'b' => 2,
                    'r' => 3,
                    'q' => 4,
                    'k' => 5,
                    _ => {
                        eprintln!("unknown piece letter {c:?}");
                        std::process::exit(2);
                    }
                };
                let color = u8::from(c.is_ascii_lowercase());
                let square = rank * 8 + file;
                key ^= kiln_tables::zobrist_piece(color, kind, square);
                occupied |= 1 << square;
                file += 1;
            }
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
    println!(
        "rook on a1 attacks: {:016x}",
        kiln_tables::rook_attacks(0, occupied)
    );
}
