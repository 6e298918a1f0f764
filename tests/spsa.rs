//! The search's tunables as runtime parameters (`kiln::search::tunables`):
//! their defaults are the constants the engine played with before they
//! became parameters, the late-move-reduction table built at runtime is
//! the one the build script used to generate, and a searcher searches
//! with the parameters it is given.
//!
//! With the cargo feature `spsa` (`cargo test -p kiln --features spsa
//! --test spsa`), also: every tunable is a UCI option, `setoption` changes
//! it and the search, and the `spsa` command prints OpenBench's SPSA input.
//! Without it, none of them is an option.

#[allow(dead_code)]
mod support;

use std::sync::Arc;

use kiln::search::limits::Limits;
use kiln::search::tunables::{HISTORY_MAX, LmrTable, SearchParams, TUNABLES};
use kiln::search::{SearchShared, Searcher};
use kiln_board::Board;

/// `LMR[depth][move_number]` as `kiln_gen::lmr` generated it at build time
/// (base 0.75, divisor 2.25) before the table was built at runtime: one
/// string per depth 0..63, one digit per move number 0..63.
const GENERATED_LMR: [&str; 64] = [
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0001111111111111111111111111111111111111111111111111111111222222",
    "0011111111111222222222222222222222222222222222222222222222222222",
    "0011111122222222222222222222222222222223333333333333333333333333",
    "0011112222222222222222223333333333333333333333333333333333333333",
    "0011122222222222233333333333333333333333333333333333333333334444",
    "0011122222222233333333333333333333333333333444444444444444444444",
    "0011222222223333333333333333333333444444444444444444444444444444",
    "0011222222233333333333333333444444444444444444444444444444444444",
    "0011222222333333333333334444444444444444444444444444444444444444",
    "0011222223333333333333444444444444444444444444444444445555555555",
    "0011222233333333333444444444444444444444444444455555555555555555",
    "0012222233333333334444444444444444444444445555555555555555555555",
    "0012222333333333444444444444444444444455555555555555555555555555",
    "0012222333333334444444444444444444455555555555555555555555555555",
    "0012222333333344444444444444444455555555555555555555555555555555",
    "0012223333333344444444444444445555555555555555555555555555555555",
    "0012223333333444444444444444555555555555555555555555555555556666",
    "0012223333334444444444444455555555555555555555555555555566666666",
    "0012223333334444444444444555555555555555555555555555666666666666",
    "0012223333334444444444445555555555555555555555555666666666666666",
    "0012223333344444444444455555555555555555555555666666666666666666",
    "0012223333344444444444555555555555555555555566666666666666666666",
    "0012233333444444444445555555555555555555556666666666666666666666",
    "0012233333444444444455555555555555555555666666666666666666666666",
    "0012233333444444444555555555555555555566666666666666666666666666",
    "0012233333444444444555555555555555555666666666666666666666666666",
    "0012233334444444445555555555555555566666666666666666666666666666",
    "0012233334444444445555555555555555666666666666666666666666666666",
    "0012233334444444455555555555555556666666666666666666666666666667",
    "0012233334444444455555555555555566666666666666666666666666666777",
    "0012233334444444555555555555555666666666666666666666666666777777",
    "0012233334444444555555555555556666666666666666666666666677777777",
    "0012233344444444555555555555566666666666666666666666667777777777",
    "0012233344444445555555555555666666666666666666666666677777777777",
    "0012233344444445555555555555666666666666666666666667777777777777",
    "0012233344444445555555555556666666666666666666666677777777777777",
    "0012233344444455555555555566666666666666666666667777777777777777",
    "0012333344444455555555555566666666666666666666677777777777777777",
    "0012333344444455555555555666666666666666666666777777777777777777",
    "0012333344444455555555555666666666666666666667777777777777777777",
    "0012333344444555555555556666666666666666666677777777777777777777",
    "0012333444444555555555556666666666666666666777777777777777777777",
    "0012333444444555555555566666666666666666667777777777777777777777",
    "0012333444444555555555566666666666666666677777777777777777777777",
    "0012333444444555555555666666666666666666777777777777777777777777",
    "0012333444445555555555666666666666666667777777777777777777777777",
    "0012333444445555555555666666666666666677777777777777777777777777",
    "0012333444445555555556666666666666666677777777777777777777777777",
    "0012333444445555555556666666666666666777777777777777777777777777",
    "0012333444445555555556666666666666667777777777777777777777777777",
    "0012333444445555555566666666666666667777777777777777777777777778",
    "0012333444445555555566666666666666677777777777777777777777777888",
    "0012333444455555555566666666666666777777777777777777777777778888",
    "0012333444455555555566666666666666777777777777777777777777788888",
    "0012333444455555555666666666666667777777777777777777777777888888",
    "0012333444455555555666666666666667777777777777777777777778888888",
    "0022333444455555555666666666666677777777777777777777777788888888",
    "0022333444455555555666666666666677777777777777777777777888888888",
    "0022334444455555556666666666666677777777777777777777778888888888",
    "0022334444455555556666666666666777777777777777777777788888888888",
    "0022334444455555556666666666666777777777777777777777788888888888",
    "0022334444455555556666666666667777777777777777777777888888888888",
];

#[test]
fn the_runtime_lmr_table_is_the_one_the_build_script_generated() {
    let p = SearchParams::DEFAULT;
    let table = LmrTable::new(p.lmr_base_centi, p.lmr_divisor_centi);
    for (depth, row) in GENERATED_LMR.iter().enumerate() {
        for (moves, digit) in row.bytes().enumerate() {
            assert_eq!(
                table.reduction(depth as i32, moves as i32),
                i32::from(digit - b'0'),
                "LMR[{depth}][{moves}]"
            );
        }
    }
}

#[test]
fn defaults_are_the_constants_the_engine_played_with() {
    let p = SearchParams::DEFAULT;
    assert_eq!(SearchParams::default(), p);
    let expected: [(&str, i64); 56] = [
        ("aspiration_window", 25),
        ("aspiration_min_depth", 5),
        ("aspiration_max_delta", 1000),
        ("rfp_max_depth", 8),
        ("rfp_margin", 75),
        ("nmp_min_depth", 3),
        ("nmp_base_reduction", 3),
        ("nmp_depth_divisor", 4),
        ("nmp_eval_divisor", 200),
        ("nmp_eval_max_reduction", 3),
        ("nmp_verify_depth", 12),
        ("razor_max_depth", 2),
        ("razor_margin", 250),
        ("futility_max_depth", 6),
        ("futility_base", 80),
        ("futility_per_depth", 90),
        ("lmp_max_depth", 8),
        ("lmp_base", 3),
        ("history_prune_max_depth", 4),
        ("history_prune_margin", 250),
        ("see_quiet_margin", -60),
        ("see_capture_margin", -20),
        ("see_max_depth", 8),
        ("lmr_base_centi", 75),
        ("lmr_divisor_centi", 225),
        ("lmr_min_depth", 3),
        ("lmr_history_divisor", 8000),
        ("lmr_deeper_margin", 50),
        ("lmr_deeper_per_ply", 10),
        ("iir_min_depth", 4),
        ("se_min_depth", 8),
        ("se_margin_per_depth", 2),
        ("se_tt_depth_margin", 3),
        ("delta_margin", 200),
        ("history_bonus_per_depth", 200),
        ("history_bonus_offset", 100),
        ("history_bonus_max", 4096),
        ("time_moves_to_go", 25),
        ("time_sudden_death_moves", 50),
        ("time_sudden_death_min", 20),
        ("time_hard_factor", 4),
        ("time_max_share_percent", 40),
        ("time_last_move_share_percent", 75),
        ("time_stability_0", 150),
        ("time_stability_1", 110),
        ("time_stability_2", 90),
        ("time_stability_3", 70),
        ("time_node_share_pivot", 150),
        ("time_node_share_slope", 135),
        ("time_falling_per_cp", 15),
        ("time_falling_min", 85),
        ("time_falling_max", 150),
        ("correction_limit_cp", 32),
        ("correction_max_weight", 128),
        // Spot checks through the fields themselves.
        ("rfp_margin", i64::from(p.rfp_margin)),
        ("history_bonus_max", i64::from(HISTORY_MAX / 4)),
    ];
    for (name, value) in expected {
        let tunable = SearchParams::tunable(name).unwrap_or_else(|| panic!("no tunable {name}"));
        assert_eq!(tunable.default_value(), value, "{name}");
    }
    assert_eq!(TUNABLES.len(), 54, "a tunable was added: list it above");
    assert_eq!((p.see_quiet_margin, p.lmr_history_divisor), (-60, 8000));
    assert_eq!(
        [0, 1, 2, 3, 9].map(|n| p.time_stability(n)),
        [150, 110, 90, 70, 70]
    );
}

/// Nodes of a fixed search of a middlegame position by `searcher`, from
/// an empty table and empty statistics.
fn nodes(searcher: &mut Searcher) -> u64 {
    searcher.new_game();
    let mut board =
        Board::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 2 9")
            .expect("valid FEN");
    searcher
        .search(
            &mut board,
            &Limits::depth(8),
            0,
            Arc::new(SearchShared::default()),
            &mut |_| {},
        )
        .nodes
}

#[test]
fn a_searcher_searches_with_the_parameters_it_is_given() {
    let mut searcher = Searcher::new(16);
    let default = nodes(&mut searcher);
    // Other late-move reductions: the table is rebuilt.
    let mut lmr = SearchParams::DEFAULT;
    lmr.lmr_base_centi = 150;
    searcher.set_params(lmr);
    assert_eq!(searcher.params(), &lmr);
    assert_ne!(nodes(&mut searcher), default);
    // A pruning margin.
    let mut rfp = SearchParams::DEFAULT;
    rfp.rfp_margin = 40;
    searcher.set_params(rfp);
    assert_ne!(nodes(&mut searcher), default);
    // Back to the defaults: the same search again.
    searcher.set_params(SearchParams::DEFAULT);
    assert_eq!(nodes(&mut searcher), default);
    assert_eq!(nodes(&mut Searcher::new(16)), default);
}

#[cfg(not(feature = "spsa"))]
#[test]
fn without_the_feature_no_tunable_is_an_option() {
    use kiln::uci::options::{OptionError, Options};
    let declared = Options::declarations();
    for t in TUNABLES {
        assert!(!declared.contains(t.name), "{} declared", t.name);
    }
    assert_eq!(
        Options::default().set("rfp_margin", Some("80")),
        Err(OptionError::Unknown("rfp_margin".into()))
    );
    assert!(!kiln::uci::command::is_command("spsa"));
}

#[cfg(feature = "spsa")]
mod with_the_feature {
    use std::process::Stdio;
    use std::time::Duration;

    use kiln::search::tunables::{SPSA_R_END, SearchParams, TUNABLES};
    use kiln::uci::options::{Effect, Options};

    use crate::support::EngineProcess;

    #[test]
    fn every_tunable_is_a_spin_option_with_its_range() {
        let declared = Options::declarations();
        for t in TUNABLES {
            let line = format!(
                "option name {} type spin default {} min {} max {}\n",
                t.name,
                t.default_value(),
                t.min,
                t.max
            );
            assert!(declared.contains(&line), "missing {line}");
        }
    }

    #[test]
    fn setoption_changes_the_tunable_and_asks_for_the_search_to_follow() {
        let mut o = Options::default();
        let applied = o.set("RFP_Margin", Some("90")).expect("an option");
        assert_eq!(o.search.rfp_margin, 90);
        assert_eq!(applied.effect, Effect::SearchParams);
        assert!(applied.note.is_none());
        // Out of range: clamped, and said so (negative ranges too).
        let applied = o.set("see_quiet_margin", Some("5")).expect("an option");
        assert_eq!(o.search.see_quiet_margin, -30);
        assert_eq!(
            applied.note.map(|n| n.to_string()),
            Some(
                "option 'see_quiet_margin' value 5 out of range, set to -30 (-120..-30)"
                    .to_string()
            )
        );
        assert!(o.set("lmr_base_centi", Some("many")).is_err());
        assert_eq!(
            o.search.lmr_base_centi,
            SearchParams::DEFAULT.lmr_base_centi
        );
    }

    #[test]
    fn spsa_lines_are_openbench_input() {
        let lines = SearchParams::DEFAULT.spsa_lines();
        assert_eq!(lines.len(), TUNABLES.len());
        for (line, t) in lines.iter().zip(TUNABLES) {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!(fields[0], t.name);
            assert_eq!(fields[1], "int", "{line}");
            let number = |i: usize| -> i64 { fields[i].parse().expect(line) };
            let (value, min, max) = (number(2), number(3), number(4));
            assert!(min <= value && value <= max, "{line}");
            assert_eq!(value, t.default_value(), "{line}");
            let c_end: f64 = fields[5].parse().expect(line);
            let r_end: f64 = fields[6].parse().expect(line);
            assert!(c_end >= 0.5 && c_end <= (max - min) as f64, "{line}");
            assert_eq!(r_end, SPSA_R_END, "{line}");
        }
    }

    /// The nodes of the last `info depth` line before `bestmove`.
    fn search_nodes(e: &mut EngineProcess) -> u64 {
        e.send("ucinewgame");
        e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5");
        e.send("go depth 8");
        let lines = e.read_until(Duration::from_secs(60), "bestmove", |l| {
            l.starts_with("bestmove")
        });
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .expect("an info line");
        let mut words = info.split_whitespace().skip_while(|w| *w != "nodes");
        words.nth(1).and_then(|n| n.parse().ok()).expect(info)
    }

    #[test]
    fn the_engine_declares_sets_and_prints_the_tunables() {
        let mut e = EngineProcess::start(&[], Stdio::null());
        e.send("uci");
        let lines = e.read_until(Duration::from_secs(5), "uciok", |l| l == "uciok");
        for t in TUNABLES {
            let declared = format!("option name {} type spin default ", t.name);
            assert!(lines.iter().any(|l| l.starts_with(&declared)), "{declared}");
        }
        let default = search_nodes(&mut e);
        e.send("setoption name lmr_base_centi value 150");
        e.send("setoption name rfp_margin value 100");
        e.send("spsa");
        e.send("isready");
        let lines = e.read_until(Duration::from_secs(5), "readyok", |l| l == "readyok");
        let spsa: Vec<&String> = lines.iter().filter(|l| l.contains(", int, ")).collect();
        assert_eq!(spsa.len(), TUNABLES.len(), "{lines:?}");
        assert!(
            spsa.iter()
                .any(|l| l.starts_with("lmr_base_centi, int, 150, "))
        );
        assert!(spsa.iter().any(|l| l.starts_with("rfp_margin, int, 100, ")));
        assert_ne!(
            search_nodes(&mut e),
            default,
            "the search ignored setoption"
        );
        e.send("setoption name lmr_base_centi value 75");
        e.send("setoption name rfp_margin value 75");
        assert_eq!(search_nodes(&mut e), default);
        e.send("quit");
        assert!(e.close_and_wait(Duration::from_secs(5)).success());
    }
}
