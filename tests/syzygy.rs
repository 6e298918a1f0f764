//! Syzygy tablebases.
//!
//! Always run: the engine takes a `SyzygyPath` that is missing, not a
//! directory, or holds damaged files, says so with `info string` and plays
//! on without tables. Ignored too: a table damaged past those checks costs
//! the tables, not the game.
//!
//! Ignored (the deep suite, `.ci/run` runs them with `--ignored`): they
//! need the 3- and 4-man tables and python-chess's answers, which
//! `tests/syzygy/expected.py` writes. Environment:
//! - `KILN_SYZYGY_TABLES`: the directory of the tables;
//! - `KILN_SYZYGY_EXPECTED`: the directory expected.py wrote.
//!
//! Missing inputs fail these tests; they never pass without checking.

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use kiln::search::limits::Limits;
use kiln::search::{SearchShared, Searcher};
use kiln::syzygy::{Tablebases, rank_root_moves};
use kiln_board::Board;
use kiln_board::{MoveList, generate_all, parse_uci_move};

/// The prober exists once per process: one test at a time holds tables.
static TABLES: Mutex<()> = Mutex::new(());

/// Runs the engine on `input` (then end of input) and returns its output
/// (stdout: what a GUI reads; the panic message a damaged table causes
/// goes to stderr, which is not kept).
fn engine(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kiln"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start kiln");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("run kiln");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn bad_syzygy_paths_are_reported_and_the_engine_plays_on() {
    let dir = std::env::temp_dir().join(format!("kiln-syzygy-bad-{}", std::process::id()));
    let damaged = dir.join("damaged");
    let truncated = dir.join("truncated");
    fs::create_dir_all(&damaged).unwrap();
    fs::create_dir_all(&truncated).unwrap();
    fs::write(damaged.join("KQvK.rtbw"), [0u8; 80]).unwrap();
    let mut short = vec![0x71, 0xe8, 0x23, 0x5d];
    short.resize(70, 0);
    fs::write(truncated.join("KRvK.rtbw"), short).unwrap();
    let file = dir.join("plain-file");
    fs::write(&file, "not a directory").unwrap();
    let missing = dir.join("missing");
    let sep = kiln::syzygy::SEPARATOR;
    let path = [&missing, &file, &damaged, &truncated]
        .map(|p| p.display().to_string())
        .join(&sep.to_string());
    let out = engine(&format!(
        "setoption name SyzygyPath value {path}\n\
         position fen 8/8/8/4k3/8/8/8/3QK3 w - - 0 1\n\
         go depth 6\nisready\n"
    ));
    fs::remove_dir_all(&dir).unwrap();
    for expected in [
        format!(
            "info string Syzygy directory {} cannot be read",
            missing.display()
        ),
        format!(
            "info string Syzygy path {} is not a directory",
            file.display()
        ),
        format!(
            "info string Syzygy file {} is not a Syzygy table",
            damaged.join("KQvK.rtbw").display()
        ),
        format!(
            "info string Syzygy file {} is truncated or damaged",
            truncated.join("KRvK.rtbw").display()
        ),
        "info string no Syzygy tables loaded".to_string(),
    ] {
        assert!(out.contains(&expected), "no '{expected}' in:\n{out}");
    }
    assert!(out.contains("bestmove "), "no move:\n{out}");
    assert!(out.contains("tbhits 0"), "{out}");
}

#[test]
fn an_empty_syzygy_path_loads_nothing_silently() {
    let out =
        engine("setoption name SyzygyPath value <empty>\nsetoption name SyzygyPath\nisready\n");
    assert_eq!(out.trim(), "readyok");
}

/// `(tables, expected)` directories from the environment; panics with a
/// clear message when they are not there.
fn inputs() -> (String, PathBuf) {
    let var = |name: &str| {
        std::env::var(name).unwrap_or_else(|_| {
            panic!("{name} is not set: run tests/syzygy/expected.py and set it (see .ci/run)")
        })
    };
    let tables = var("KILN_SYZYGY_TABLES");
    let expected = PathBuf::from(var("KILN_SYZYGY_EXPECTED"));
    assert!(
        fs::read_dir(&tables).is_ok(),
        "KILN_SYZYGY_TABLES={tables} cannot be read"
    );
    (tables, expected)
}

/// The lines of `name` in the expected directory, split at `|`.
fn expected_lines(dir: &std::path::Path, name: &str) -> Vec<Vec<String>> {
    let path = dir.join(name);
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {} ({e}): run expected.py", path.display()));
    text.lines()
        .map(|line| line.split('|').map(str::to_string).collect())
        .collect()
}

fn load(tables: &str) -> Tablebases {
    let loaded = Tablebases::load(tables);
    loaded
        .tables
        .unwrap_or_else(|| panic!("no tables loaded from {tables}: {:?}", loaded.messages))
}

/// WDL and DTZ of 10,000 random 3- and 4-man positions, exactly as
/// python-chess's `probe_wdl` and `probe_dtz` give them (side to move's
/// view; DTZ in plies to a zeroing move, signed, -1 for a mated side).
#[test]
#[ignore = "needs the Syzygy tables and python-chess's answers (see .ci/run)"]
fn wdl_and_dtz_agree_with_python_chess() {
    let _guard = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let (tables, expected) = inputs();
    let tb = load(&tables);
    let probes = expected_lines(&expected, "probes.txt");
    assert!(probes.len() >= 10_000, "only {} positions", probes.len());
    let mut wrong = Vec::new();
    for fields in &probes {
        let [fen, wdl, dtz] = &fields[..] else {
            panic!("bad line {fields:?}");
        };
        let board = Board::from_fen(fen).expect("expected.py writes legal FENs");
        let got_wdl = tb.probe_wdl(&board).map(|w| w.value());
        let got_dtz = tb.probe_dtz(&board).map(|(dtz, _)| dtz);
        let want = (wdl.parse::<i32>().ok(), dtz.parse::<i32>().ok());
        if (got_wdl, got_dtz) != want {
            wrong.push(format!(
                "{fen}: kiln {got_wdl:?}/{got_dtz:?}, python-chess {wdl}/{dtz}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} disagree, e.g.:\n{}",
        wrong.len(),
        probes.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}

/// In at least 500 won positions (half with a running fifty-move clock),
/// every move the root ranking keeps, and the move a short search plays,
/// keeps the win within the fifty-move rule by python-chess's tables.
#[test]
#[ignore = "needs the Syzygy tables and python-chess's answers (see .ci/run)"]
fn the_root_filter_keeps_the_win() {
    let _guard = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    let (tables, expected) = inputs();
    let tb = Arc::new(load(&tables));
    let roots = expected_lines(&expected, "roots.txt");
    assert!(roots.len() >= 500, "only {} positions", roots.len());
    let mut searcher = Searcher::new(16);
    searcher.set_tablebases(Some(Arc::clone(&tb)));
    let mut wrong = Vec::new();
    for fields in &roots {
        let [fen, winning] = &fields[..] else {
            panic!("bad line {fields:?}");
        };
        let mut board = Board::from_fen(fen).expect("expected.py writes legal FENs");
        let winning: Vec<_> = winning
            .split(' ')
            .map(|m| parse_uci_move(&board, m).expect("legal move"))
            .collect();
        let mut all = MoveList::new();
        generate_all(&board, &mut all);
        let moves: Vec<_> = all.iter().copied().collect();
        let Some(ranking) = rank_root_moves(&tb, &mut board, &moves, true) else {
            wrong.push(format!("{fen}: not ranked"));
            continue;
        };
        let kept = ranking.best_moves();
        if kept.is_empty() || kept.iter().any(|m| !winning.contains(m)) {
            wrong.push(format!("{fen}: kept {kept:?}, winning {winning:?}"));
        }
        let result = searcher.search(
            &mut board,
            &Limits::depth(3),
            0,
            Arc::new(SearchShared::new(false)),
            &mut |_| {},
        );
        if !winning.contains(&result.best) {
            wrong.push(format!("{fen}: played {:?}", result.best));
        }
    }
    searcher.set_tablebases(None);
    assert!(
        wrong.is_empty(),
        "{} of {} wrong, e.g.:\n{}",
        wrong.len(),
        roots.len(),
        wrong[..wrong.len().min(20)].join("\n")
    );
}

/// A table that passes the load checks (magic number, size) but whose
/// body is damaged makes the prober fail during the search: the engine
/// still plays a legal move at once, says the tables are unloaded, and
/// searches the next position normally without them.
#[test]
#[ignore = "needs the Syzygy tables (see .ci/run)"]
fn a_damaged_table_costs_the_tables_not_the_game() {
    let tables = std::env::var("KILN_SYZYGY_TABLES")
        .unwrap_or_else(|_| panic!("KILN_SYZYGY_TABLES is not set: see .ci/run"));
    let dir = std::env::temp_dir().join(format!("kiln-syzygy-damaged-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    for name in ["KQvK.rtbw", "KQvK.rtbz"] {
        let mut bytes = fs::read(PathBuf::from(&tables).join(name)).expect("a 3-man table");
        // Keep the magic number and the size, spoil the rest.
        for byte in &mut bytes[5..] {
            *byte = 0xff;
        }
        fs::write(dir.join(name), bytes).unwrap();
    }
    let fen = "8/8/8/8/8/2k5/8/1QK5 w - - 0 1";
    let out = engine(&format!(
        "setoption name SyzygyPath value {}\nposition fen {fen}\ngo movetime 200\n\
         isready\nposition fen {fen}\ngo depth 8\nisready\n",
        dir.display()
    ));
    let _ = fs::remove_dir_all(&dir);
    let board = Board::from_fen(fen).unwrap();
    let moves: Vec<&str> = out
        .lines()
        .filter_map(|line| line.strip_prefix("bestmove "))
        .map(|rest| rest.split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(moves.len(), 2, "{out}");
    for text in moves {
        assert!(parse_uci_move(&board, text).is_ok(), "{text}: {out}");
    }
    assert!(out.contains("Syzygy tables unloaded"), "{out}");
    // The second search ran without the tables: no failure reported twice.
    assert_eq!(out.matches("search thread failed").count(), 1, "{out}");
}
