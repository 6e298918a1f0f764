//! `perft-compare`: perft through the public API of `kiln-board` and of
//! `cozy-chess`, in the same process, built with the same flags.
//!
//! Each (crate, position) pair runs `--rounds` times, interleaved (round 1
//! of every pair, then round 2, ...; the order of the two crates alternates
//! from round to round), so that a slow spell of the machine falls on both
//! crates alike. Every count is checked against the known value and the
//! program exits with status 1 on a wrong one. The table gives the minimum
//! time of each pair, its speed in millions of leaf nodes per second, and
//! the kiln-board/cozy-chess speed ratio per position.
//!
//! Both perfts bulk-count the last ply (the moves of a depth-1 node are
//! counted, not made) and use no hash table.

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const USAGE: &str = "\
usage: perft-compare [--rounds N] [--quick]

Counts perft through the public API of kiln-board and of cozy-chess
(startpos depth 6, Kiwipete depth 5), checks the counts, and prints the
minimum time of N interleaved rounds, Mnps and the speed ratio.

options:
  --rounds N   rounds per crate and position, N >= 1 (default 3)
  --quick      shallower: startpos depth 5, Kiwipete depth 4 (for tests)
  -h, --help   print this message";

/// A test position with its known perft counts.
struct Position {
    name: &'static str,
    fen: &'static str,
    /// The depth of a full run and its count.
    full: (u8, u64),
    /// The depth of a `--quick` run and its count.
    quick: (u8, u64),
}

/// Counts from <https://www.chessprogramming.org/Perft_Results>.
const POSITIONS: [Position; 2] = [
    Position {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        full: (6, 119_060_324),
        quick: (5, 4_865_609),
    },
    Position {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        full: (5, 193_690_690),
        quick: (4, 4_085_603),
    },
];

/// The two crates measured, in table order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Crate {
    Kiln,
    Cozy,
}

impl Crate {
    const ALL: [Crate; 2] = [Crate::Kiln, Crate::Cozy];

    fn name(self) -> &'static str {
        match self {
            Crate::Kiln => "kiln-board",
            Crate::Cozy => "cozy-chess",
        }
    }
}

/// Perft with cozy-chess, written as `perft_bulk` in cozy-chess's own
/// example (`examples/perft.rs` of cozy-chess 0.3.4), its fastest perft
/// through the public API: copy-make (`clone` and `Board::play_unchecked`
/// on the copy), moves generated as piece-move sets by
/// `Board::generate_moves`, and the last ply bulk-counted by summing the
/// sets' `len()`. kiln-board's `perft` is the same algorithm on its
/// make/unmake board (bulk count at depth 1, no hash table), so both crates
/// are measured doing the same work the way each one's authors count it.
fn cozy_perft(board: &cozy_chess::Board, depth: u8) -> u64 {
    let mut nodes = 0;
    match depth {
        0 => nodes += 1,
        1 => {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        }
        _ => {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_perft(&child, depth - 1);
                }
                false
            });
        }
    }
    nodes
}

/// One position as each crate holds it.
struct Boards {
    kiln: kiln_board::Board,
    cozy: cozy_chess::Board,
}

impl Boards {
    fn parse(position: &Position) -> Result<Boards, String> {
        let kiln = kiln_board::Board::from_fen(position.fen)
            .map_err(|err| format!("kiln-board rejects the {} FEN: {err}", position.name))?;
        let cozy = cozy_chess::Board::from_fen(position.fen, false)
            .map_err(|err| format!("cozy-chess rejects the {} FEN: {err}", position.name))?;
        Ok(Boards { kiln, cozy })
    }

    /// The count and the time of one perft by `which`.
    fn perft(&mut self, which: Crate, depth: u8) -> (u64, Duration) {
        let start = Instant::now();
        let nodes = match which {
            Crate::Kiln => {
                kiln_board::perft(black_box(&mut self.kiln), black_box(u32::from(depth)))
            }
            Crate::Cozy => cozy_perft(black_box(&self.cozy), black_box(depth)),
        };
        (black_box(nodes), start.elapsed())
    }
}

struct Options {
    rounds: u32,
    quick: bool,
}

/// The options, `Ok(None)` for `--help`, or a message for a bad command line.
fn parse_args() -> Result<Option<Options>, String> {
    use lexopt::prelude::*;

    let mut options = Options {
        rounds: 3,
        quick: false,
    };
    let mut parser = lexopt::Parser::from_env();
    while let Some(arg) = parser.next().map_err(|err| err.to_string())? {
        match arg {
            Long("rounds") => {
                let value = parser.value().map_err(|err| err.to_string())?;
                let text = value.to_string_lossy();
                options.rounds = match text.parse::<u32>() {
                    Ok(n) if n >= 1 => n,
                    _ => {
                        return Err(format!(
                            "invalid value '{text}' for --rounds: expected a whole number >= 1"
                        ));
                    }
                };
            }
            Long("quick") => options.quick = true,
            Short('h') | Long("help") => return Ok(None),
            _ => return Err(arg.unexpected().to_string()),
        }
    }
    Ok(Some(options))
}

/// The x86-64 features this binary was compiled to use, which say which
/// build (`x86-64`, `x86-64-v2`, `native`, ...) is running.
fn build_features() -> String {
    let features: [(&str, bool); 4] = [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("sse4.2", cfg!(target_feature = "sse4.2")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
    ];
    features
        .iter()
        .map(|&(name, on)| format!("{name} {}", if on { "on" } else { "off" }))
        .collect::<Vec<_>>()
        .join(", ")
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("perft-compare: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };

    let mut boards = Vec::new();
    for position in &POSITIONS {
        match Boards::parse(position) {
            Ok(b) => boards.push(b),
            Err(message) => {
                eprintln!("perft-compare: {message}");
                return ExitCode::FAILURE;
            }
        }
    }

    // best[position][crate]: the minimum time so far.
    let mut best = [[Duration::MAX; 2]; POSITIONS.len()];
    for round in 0..options.rounds {
        let order = if round.is_multiple_of(2) {
            Crate::ALL
        } else {
            [Crate::Cozy, Crate::Kiln]
        };
        for (index, position) in POSITIONS.iter().enumerate() {
            let (depth, expected) = if options.quick {
                position.quick
            } else {
                position.full
            };
            for which in order {
                let (nodes, time) = boards[index].perft(which, depth);
                if nodes != expected {
                    eprintln!(
                        "perft-compare: {} counts {nodes} at {} depth {depth}; expected {expected}",
                        which.name(),
                        position.name
                    );
                    return ExitCode::FAILURE;
                }
                let slot = &mut best[index][which as usize];
                *slot = (*slot).min(time);
            }
        }
    }

    let report = report(&options, &best);
    // Written at once, and a closed pipe (`| head`) is not a panic.
    match std::io::stdout().lock().write_all(report.as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("perft-compare: cannot write the table: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `n` with a comma between each group of three digits.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The plain-text table of the minimum times `best[position][crate]`.
fn report(options: &Options, best: &[[Duration; 2]; POSITIONS.len()]) -> String {
    let mut out = String::new();
    // `fmt::Write` for a `String` cannot fail.
    let _ = writeln!(
        out,
        "perft through the public API, minimum of {} round{}; compiled with: {}\n",
        options.rounds,
        if options.rounds == 1 { "" } else { "s" },
        build_features()
    );
    let _ = writeln!(
        out,
        "{:<10} {:>5} {:>13}  {:<11} {:>9} {:>8}",
        "position", "depth", "nodes", "crate", "time (s)", "Mnps"
    );
    for (index, position) in POSITIONS.iter().enumerate() {
        let (depth, nodes) = if options.quick {
            position.quick
        } else {
            position.full
        };
        for which in Crate::ALL {
            let time = best[index][which as usize].as_secs_f64();
            let _ = writeln!(
                out,
                "{:<10} {:>5} {:>13}  {:<11} {:>9.3} {:>8.1}",
                position.name,
                depth,
                grouped(nodes),
                which.name(),
                time,
                nodes as f64 / time / 1e6
            );
        }
    }
    let _ = writeln!(
        out,
        "\nspeed ratio kiln-board / cozy-chess (above 1: kiln-board faster)"
    );
    for (index, position) in POSITIONS.iter().enumerate() {
        let [kiln, cozy] = best[index];
        let _ = writeln!(
            out,
            "{:<10} {:>5.2}x",
            position.name,
            cozy.as_secs_f64() / kiln.as_secs_f64()
        );
    }
    out
}
