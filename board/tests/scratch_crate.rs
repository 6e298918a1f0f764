//! A new user's first program, built the way they would build it: a scratch
//! binary crate outside this workspace that adds `kiln-board` by path,
//! parses a FEN, lists the legal moves, plays one and counts perft 5.
//!
//! It builds kiln-gen, kiln-tables and kiln-board from nothing in a
//! temporary directory (seconds on two cores, but the first run fetches
//! `rand_chacha` from crates.io), so it is ignored by default; `.ci/run`
//! runs it: `cargo test -p kiln-board --test scratch_crate -- --ignored`.

use std::fs;
use std::path::Path;
use std::process::Command;

const MAIN: &str = r#"use kiln_board::{Board, MoveList, generate_all, parse_uci_move, perft};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut board: Board =
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
    let mut moves = MoveList::new();
    generate_all(&board, &mut moves);
    let listed: Vec<String> = moves.iter().map(|mv| mv.to_uci(false)).collect();
    println!("moves {}: {}", moves.len(), listed.join(" "));
    board.make_move(parse_uci_move(&board, "e2a6")?);
    println!("after {}", board.to_fen());
    board.unmake_move();
    println!("perft5 {}", perft(&mut board, 5));
    Ok(())
}
"#;

#[test]
#[ignore = "builds a crate from scratch and may fetch from crates.io; run by .ci/run"]
fn a_scratch_crate_outside_the_workspace_plays_and_counts() {
    let board_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let scratch = std::env::temp_dir().join(format!("kiln-board-scratch-{}", std::process::id()));
    let _ = fs::remove_dir_all(&scratch);
    fs::create_dir_all(scratch.join("src")).expect("create the scratch crate");
    let manifest = format!(
        "[package]\nname = \"scratch\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         # Not part of any enclosing workspace.\n[workspace]\n\n\
         [dependencies]\nkiln-board = {{ path = {:?} }}\n\n\
         [profile.dev]\nopt-level = 2\n",
        board_dir.display().to_string()
    );
    fs::write(scratch.join("Cargo.toml"), manifest).expect("write Cargo.toml");
    fs::write(scratch.join("src/main.rs"), MAIN).expect("write main.rs");

    let output = Command::new(env!("CARGO"))
        .args(["run", "--quiet"])
        .current_dir(&scratch)
        // The scratch crate's own build, with no flags from this workspace.
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .output()
        .expect("run cargo");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let _ = fs::remove_dir_all(&scratch);
    assert!(
        output.status.success(),
        "scratch crate failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("moves 48: "), "{stdout}");
    assert!(
        stdout.contains(" e1g1 ") && stdout.contains(" e1c1"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("after r3k2r/p1ppqpb1/Bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPB1PPP/R3K2R b KQkq - 0 1"),
        "{stdout}"
    );
    assert!(stdout.contains("perft5 193690690"), "{stdout}");
}
