//! `kiln-workshop datagen` as a user runs it: the game files it writes
//! replay legally, do not depend on the number of threads, and a run
//! killed at any moment resumes to the very file an uninterrupted run
//! writes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use kiln_format::game::{Game, GameReader, HEADER_BYTES, scan};
use kiln_workshop::games::replay;

/// A scratch directory of this test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("kiln-datagen-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `kiln-workshop datagen --out <out> <args>`.
fn datagen(out: &Path, args: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kiln-workshop"));
    command
        .arg("datagen")
        .arg("--out")
        .arg(out)
        .args(args.split_whitespace());
    command
}

/// Runs `datagen` to its end and checks that it succeeded.
fn run_ok(out: &Path, args: &str) -> Output {
    let output = datagen(out, args)
        .output()
        .expect("run kiln-workshop datagen");
    assert!(output.status.success(), "{args}: {output:?}");
    output
}

/// The games of a game file, each checked to replay legally; with the
/// file's seed.
fn games_of(path: &Path) -> (Option<u64>, Vec<Game>) {
    let mut reader = GameReader::open(path).expect("a game file");
    let mut games = Vec::new();
    while let Some(game) = reader.next_game().expect("whole games") {
        let mut plies = 0;
        let result = replay(&game, |_| plies += 1)
            .unwrap_or_else(|error| panic!("game {}: {error}", games.len()));
        assert_eq!(Some(result), game.result());
        assert_eq!(plies, game.moves.len());
        games.push(game);
    }
    (reader.header().shard_seed, games)
}

#[test]
fn games_replay_and_do_not_depend_on_threads() {
    let scratch = Scratch::new("threads");
    let (one, two) = (scratch.path("one.games"), scratch.path("two.games"));
    let args = "--games 8 --nodes 200 --seed 0xFEEDFACECAFEBEEF";
    run_ok(&one, &format!("{args} --threads 1"));
    let output = run_ok(&two, &format!("{args} --threads 2"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("8/8 games"), "{stderr}");
    assert_eq!(
        std::fs::read(&one).unwrap(),
        std::fs::read(&two).unwrap(),
        "the same games with one thread and two"
    );
    let (seed, games) = games_of(&one);
    assert_eq!(seed, Some(0xFEED_FACE_CAFE_BEEF));
    assert_eq!(games.len(), 8);
    // Random openings: the games differ, and both sides start some.
    let starts: Vec<String> = games.iter().map(|g| g.start.fen()).collect();
    for (i, start) in starts.iter().enumerate() {
        assert!(!starts[..i].contains(start), "{start} twice");
    }
    assert!(games.iter().all(|g| !g.moves.is_empty()));
    assert!(games.iter().any(|g| g.start.black_to_move()));
    assert!(games.iter().any(|g| !g.start.black_to_move()));

    // Another seed is another shard: other games.
    let other = scratch.path("other.games");
    run_ok(&other, "--games 2 --nodes 200 --seed 0xFEEDFACECAFEBEEE");
    let (_, other_games) = games_of(&other);
    assert!(other_games.iter().all(|g| !games.contains(g)));

    // Double Fischer random starts: Chess960 castling replays too.
    let dfrc = scratch.path("dfrc.games");
    run_ok(&dfrc, "--games 4 --nodes 200 --dfrc --threads 2");
    let (_, games) = games_of(&dfrc);
    assert_eq!(games.len(), 4);
    assert!(
        games.iter().any(|g| !g.start.fen().contains("KQkq")),
        "Shredder-FEN castling in some start"
    );
}

#[test]
fn a_killed_run_resumes_to_the_uninterrupted_file() {
    let scratch = Scratch::new("kill");
    let (whole, killed) = (scratch.path("whole.games"), scratch.path("killed.games"));
    let args = "--games 60 --nodes 300 --threads 2 --seed 11";
    let started = Instant::now();
    run_ok(&whole, args);
    let uninterrupted = started.elapsed();
    let (_, games) = games_of(&whole);
    assert_eq!(games.len(), 60);

    // The same command, killed (SIGKILL) once a few games are in the
    // file, with others being played or waiting for an earlier one.
    let mut child = datagen(&killed, args)
        .stderr(Stdio::null())
        .spawn()
        .expect("start kiln-workshop datagen");
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut finished_first = false;
    loop {
        if child.try_wait().expect("wait").is_some() {
            finished_first = true;
            break;
        }
        if scan(&killed).is_ok_and(|s| s.games >= 5) {
            child.kill().expect("SIGKILL");
            break;
        }
        assert!(Instant::now() < deadline, "no game written in 120 s");
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.wait();
    let held = scan(&killed).expect("a game file after the kill");
    if finished_first || held.games == 60 {
        // Too fast to catch (it ran {uninterrupted:?} uninterrupted): cut
        // the file inside a game instead, as a kill there leaves it.
        eprintln!("datagen finished before the kill ({uninterrupted:?}): cutting the file");
        let bytes = std::fs::read(&whole).unwrap();
        let cut = HEADER_BYTES + (bytes.len() - HEADER_BYTES) / 2;
        std::fs::write(&killed, &bytes[..cut]).unwrap();
    }
    let mut held = scan(&killed).expect("a game file after the kill");
    assert!(held.games >= 1 && held.games < 60, "{held:?}");
    if held.whole_length == std::fs::metadata(&killed).unwrap().len() {
        // The kill fell between two writes: add the start of the next game,
        // as a kill inside a write leaves it.
        let bytes = std::fs::read(&whole).unwrap();
        let at = held.whole_length as usize;
        let mut file = std::fs::read(&killed).unwrap();
        file.extend_from_slice(&bytes[at..at + 41]);
        std::fs::write(&killed, &file).unwrap();
        held = scan(&killed).unwrap();
    }
    eprintln!(
        "killed with {} whole games and {} bytes of a game cut short in the file \
         (an uninterrupted run took {uninterrupted:?})",
        held.games,
        std::fs::metadata(&killed).unwrap().len() - held.whole_length
    );

    // Rerun to completion: the very bytes of the uninterrupted run.
    let output = run_ok(&killed, args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("60/60 games"), "{stderr}");
    let (_, resumed) = games_of(&killed);
    assert_eq!(resumed.len(), 60);
    assert!(
        std::fs::read(&killed).unwrap() == std::fs::read(&whole).unwrap(),
        "the resumed file differs from the uninterrupted one"
    );
}

#[test]
fn targets_resuming_and_refusals() {
    let scratch = Scratch::new("targets");
    let out = scratch.path("positions.games");
    // --positions: the games in order until the file holds that many.
    run_ok(&out, "--positions 150 --nodes 200 --seed 3 --threads 2");
    let (_, games) = games_of(&out);
    let plies: Vec<usize> = games.iter().map(|g| g.moves.len()).collect();
    let total: usize = plies.iter().sum();
    assert!(total >= 150, "{plies:?}");
    assert!(total - plies[plies.len() - 1] < 150, "{plies:?}");
    // The same games as a --games run of the same seed.
    let counted = scratch.path("counted.games");
    run_ok(
        &counted,
        &format!("--games {} --nodes 200 --seed 3", games.len()),
    );
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&counted).unwrap()
    );

    // A file that already holds what is asked for is left as it is, and
    // a larger --games adds to it.
    let before = std::fs::read(&out).unwrap();
    let output = run_ok(&out, "--games 1 --nodes 200 --seed 3");
    assert_eq!(std::fs::read(&out).unwrap(), before);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("nothing to play"), "{stderr}");
    run_ok(
        &out,
        &format!("--games {} --nodes 200 --seed 3", games.len() + 1),
    );
    let (_, more) = games_of(&out);
    assert_eq!(more.len(), games.len() + 1);
    assert_eq!(&more[..games.len()], &games[..]);

    // Another seed's file, or not a game file, is refused and left alone;
    // --overwrite starts anew.
    let refused = |path: &Path, args: &str, expected: &str| {
        let output = datagen(path, args).output().unwrap();
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{stderr}");
    };
    let cannot_continue = |path: &Path| format!("cannot continue '{}'", path.display());
    let before = std::fs::read(&out).unwrap();
    refused(
        &out,
        "--games 9 --nodes 200 --seed 4",
        &cannot_continue(&out),
    );
    refused(&out, "--games 9 --nodes 200 --seed 4", "seed 3, not 4");
    // The same seed with other settings that shape the games is refused
    // too, not appended (the header records the shard's recipe).
    refused(
        &out,
        "--games 9 --nodes 300 --seed 3",
        "other self-play settings",
    );
    refused(
        &out,
        "--games 9 --nodes 200 --seed 3 --random-plies 4",
        "other self-play settings",
    );
    assert_eq!(std::fs::read(&out).unwrap(), before);
    let text = scratch.path("text.txt");
    std::fs::write(&text, "not a game file\n").unwrap();
    refused(&text, "--games 1 --nodes 200", &cannot_continue(&text));
    refused(&text, "--games 1 --nodes 200", "--overwrite");
    assert_eq!(std::fs::read(&text).unwrap(), b"not a game file\n");
    run_ok(&out, "--games 1 --nodes 200 --seed 4 --overwrite");
    let (seed, games) = games_of(&out);
    assert_eq!((seed, games.len()), (Some(4), 1));
    // An empty file is a new one.
    let empty = scratch.path("empty.games");
    std::fs::write(&empty, b"").unwrap();
    run_ok(&empty, "--games 1 --nodes 200 --seed 4");
    assert_eq!(std::fs::read(&empty).unwrap(), std::fs::read(&out).unwrap());
    // Tables that are not there are an error, not a run without them.
    let missing = scratch.path("no-tables");
    let args = format!("--games 1 --nodes 200 --syzygy {}", missing.display());
    let expected = format!("no Syzygy tables loaded from '{}'", missing.display());
    refused(&scratch.path("tb.games"), &args, &expected);
    assert!(!scratch.path("tb.games").exists());
}

/// A second run on a file another run is writing is refused, and leaves
/// the first run's file as it was going to be.
#[test]
fn a_second_run_on_the_same_file_is_refused() {
    let scratch = Scratch::new("busy");
    let out = scratch.path("busy.games");
    let args = "--games 1000000 --nodes 300 --threads 1 --seed 12";
    let mut first = datagen(&out, args)
        .stderr(Stdio::null())
        .spawn()
        .expect("start kiln-workshop datagen");
    // Once the first run holds its lock (its header is written after it).
    let deadline = Instant::now() + Duration::from_secs(60);
    while !std::fs::metadata(&out).is_ok_and(|m| m.len() >= HEADER_BYTES as u64) {
        assert!(Instant::now() < deadline, "the first run wrote no header");
        std::thread::sleep(Duration::from_millis(5));
    }
    let second = datagen(&out, args)
        .output()
        .expect("run kiln-workshop datagen");
    first.kill().expect("SIGKILL");
    let _ = first.wait();
    assert_eq!(second.status.code(), Some(1), "{second:?}");
    let stderr = String::from_utf8_lossy(&second.stderr);
    assert!(stderr.contains("another datagen is writing"), "{stderr}");
    // The lock went with the first run: the file continues.
    let held = scan(&out).expect("a game file").games;
    run_ok(
        &out,
        &format!("--games {} --nodes 300 --threads 1 --seed 12", held + 2),
    );
    assert_eq!(games_of(&out).1.len() as u64, held + 2);
}
