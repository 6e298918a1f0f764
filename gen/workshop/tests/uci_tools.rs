//! The tools that talk to a UCI engine, `label` and `datagen --opponent`,
//! with Kiln's engine binary as that engine.

use std::process::Command;

mod support;

use support::engine;

/// `kiln-workshop label` drives a UCI engine (Kiln itself here) over datagen lines
/// and writes White's-view scores in the input's order.
#[test]
fn label_rescores_positions_with_a_uci_engine() {
    let engine = engine();
    let dir = std::env::temp_dir().join(format!("kiln-label-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (data, out) = (dir.join("data.txt"), dir.join("out.txt"));
    // White a queen up with White to move, the same with Black to move
    // (Black a queen up), and a malformed line.
    let lines = [
        "4k3/8/8/8/8/8/8/3QK3 w - - 0 1 | 1.0 | 0",
        "3qk3/8/8/8/8/8/8/4K3 w - - 0 1 | 0.0 | 0",
        "4k3/8/8/8/8/8/8/3QK3 b - - 0 1 | 1.0 | 0",
        "not a position",
        "4k3/8/8/8/8/8/8/3QK4 w - - 0 1 | 1.0 | 0",
    ];
    std::fs::write(&data, lines.join("\n")).expect("write data");
    // Kiln labels with Kiln at depth 3; `extra` are the other arguments.
    let label = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_kiln-workshop"))
            .args(["label", "--depth", "3", "--engine"])
            .arg(&engine)
            .args(extra)
            .arg("--data")
            .arg(&data)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("run kiln-workshop label");
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let stderr = label(&["--threads", "2"]);
    let written = std::fs::read_to_string(&out).expect("output");
    let scores: Vec<i32> = written
        .lines()
        .map(|l| l.rsplit('|').next().unwrap().trim().parse().unwrap())
        .collect();
    assert_eq!(written.lines().count(), 3, "{written}");
    assert!(
        written
            .lines()
            .zip(lines)
            .all(|(w, l)| w.starts_with(&l[..20]))
    );
    assert!(
        scores[0] > 500 && scores[1] < -500 && scores[2] > 500,
        "{scores:?}"
    );
    assert!(stderr.contains("2 skipped"), "{stderr}");

    // Cut short after its first line, `--append` (on one thread) writes
    // the rest, the same as the whole run.
    let first = written.lines().next().expect("a line");
    std::fs::write(&out, format!("{first}\n")).expect("cut output");
    let stderr = label(&["--append"]);
    assert_eq!(std::fs::read_to_string(&out).expect("output"), written);
    assert!(stderr.contains("after the 1 it held"), "{stderr}");

    // Killed while writing its second line: the cut line is removed and
    // its position labelled again, not run into the next line.
    let second = written.lines().nth(1).expect("two lines");
    std::fs::write(&out, format!("{first}\n{}", &second[..10])).expect("cut output");
    let stderr = label(&["--append"]);
    assert_eq!(std::fs::read_to_string(&out).expect("output"), written);
    assert!(stderr.contains("after the 1 it held"), "{stderr}");
    assert!(stderr.contains("cut short (10 bytes"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `kiln-workshop datagen --opponent` plays another UCI engine (Kiln itself here):
/// the games are written whole and replay, and Kiln's score is reported.
#[test]
fn datagen_plays_a_uci_opponent() {
    let engine = engine();
    let dir = std::env::temp_dir().join(format!("kiln-datagen-opp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("out.games");
    let output = Command::new(env!("CARGO_BIN_EXE_kiln-workshop"))
        .args(["datagen", "--games", "2", "--nodes", "400"])
        .args(["--opponent-nodes", "400", "--opponent"])
        .arg(&engine)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run kiln-workshop datagen");
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("2/2 games"), "{stderr}");
    assert!(stderr.contains("Kiln scored"), "{stderr}");
    let mut reader = kiln_format::game::GameReader::open(&out).expect("a game file");
    let mut games = 0;
    while let Some(game) = reader.next_game().expect("whole games") {
        let mut plies = 0;
        kiln_workshop::games::replay(&game, |_| plies += 1).expect("legal moves");
        assert!(plies > 10, "{game:?}");
        games += 1;
    }
    assert_eq!(games, 2);

    // An opponent that cannot be started is an error, not a silent
    // self-play run.
    let output = Command::new(env!("CARGO_BIN_EXE_kiln-workshop"))
        .args([
            "datagen",
            "--games",
            "1",
            "--opponent",
            "/nonexistent/engine",
        ])
        .arg("--out")
        .arg(dir.join("none.games"))
        .output()
        .expect("run kiln-workshop datagen");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot start"));
    let _ = std::fs::remove_dir_all(&dir);
}
