//! XBoard (CECP v2) protocol tests: the built `kiln` binary is driven
//! through stdin/stdout as a GUI would drive it.
//!
//! Every wait has a generous timeout (the machine may be loaded); searches
//! use small depths or clocks so the whole file runs in seconds.

mod support;

use std::process::Stdio;
use std::time::{Duration, Instant};

use kiln::xboard::notation::{move_text, parse_move};
use kiln_board::Board;
use kiln_board::{MoveList, generate_all};

use support::EngineProcess;

const TIMEOUT: Duration = Duration::from_secs(60);

/// A running engine spoken to in XBoard, and the pings sent to it.
struct Engine {
    process: EngineProcess,
    pings: u32,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        Engine {
            process: EngineProcess::start(args, Stdio::inherit()),
            pings: 0,
        }
    }

    /// `kiln xboard` after the `xboard` / `protover 2` handshake.
    fn xboard() -> Engine {
        let mut engine = Engine::start(&["xboard"]);
        engine.send("xboard");
        engine.send("protover 2");
        engine.expect(|l| l.starts_with("feature "), "the feature line");
        engine
    }

    fn send(&mut self, line: &str) {
        self.process.send(line);
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.process.send_bytes(bytes);
    }

    /// Reads until a line satisfies `done`; returns the lines before it and
    /// the line itself.
    fn expect(&mut self, done: impl Fn(&str) -> bool, what: &str) -> (Vec<String>, String) {
        let mut before = self.process.read_until(TIMEOUT, what, done);
        let line = before.pop().expect("the awaited line");
        (before, line)
    }

    /// Sends `ping N` and returns everything said before `pong N`.
    fn sync(&mut self) -> Vec<String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings));
        self.expect(|l| l == pong, &pong).0
    }

    /// Waits for the engine's move; returns it and the lines before it.
    fn expect_move(&mut self) -> (Vec<String>, String) {
        let (before, line) = self.expect(|l| l.starts_with("move "), "a move");
        (before, line["move ".len()..].to_string())
    }

    fn dump(&self) -> String {
        self.process.transcript()
    }

    /// Sends `quit` and checks that the process exits cleanly.
    fn quit(mut self) {
        self.send("quit");
        let status = self.process.close_and_wait(TIMEOUT);
        assert!(status.success(), "exit status {status}\n{}", self.dump());
    }
}

/// A thinking line: `ply score time nodes pv`.
fn is_thinking_line(line: &str) -> bool {
    let fields: Vec<&str> = line.split_whitespace().collect();
    fields.len() >= 5 && fields[..4].iter().all(|f| f.parse::<i64>().is_ok())
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).expect("valid FEN")
}

/// Applies a move text from the engine to the test's copy of the game.
fn apply(board: &mut Board, text: &str) {
    let mv = parse_move(board, text).unwrap_or_else(|| panic!("engine move {text} is illegal"));
    board.make_move(mv);
}

#[test]
fn handshake_features_and_harmless_commands() {
    let mut engine = Engine::start(&["xboard"]);
    engine.send("xboard");
    engine.send("protover 2");
    let (_, features) = engine.expect(|l| l.starts_with("feature "), "the feature line");
    for wanted in [
        "myname=\"Kiln ",
        " setboard=1",
        " usermove=1",
        " ping=1",
        " sigint=0",
        " sigterm=0",
        " colors=0",
        " analyze=1",
        " memory=1",
        " smp=1",
        " variants=\"normal,fischerandom\"",
    ] {
        assert!(features.contains(wanted), "{wanted} missing: {features}");
    }
    assert!(features.ends_with(" done=1"), "{features}");
    for line in [
        "accepted setboard",
        "rejected debug",
        "new",
        "random",
        "computer",
        "name Fairy-Max",
        "rating 2100 1800",
        "ics -",
        "white",
        "black",
        "hard",
        "easy",
        "post",
        "nopost",
        "level 40 5 0",
        "level 0 2:30 1",
        "st 5",
        "sd 4",
        "time 30000",
        "otim 29000",
        "memory 32",
        "cores 1",
        "option Resign=0",
        "option UseNNUE=0",
        "variant normal",
        "result 1/2-1/2 {Draw}",
        "new",
    ] {
        engine.send(line);
    }
    let said = engine.sync();
    assert!(said.is_empty(), "unexpected output: {said:?}");
    engine.quit();
}

#[test]
fn first_line_xboard_switches_from_uci() {
    let mut engine = Engine::start(&[]);
    engine.send("");
    engine.send("xboard");
    engine.send("protover 2");
    engine.expect(|l| l.starts_with("feature "), "the feature line");
    engine.sync();
    engine.quit();
}

#[test]
fn plays_a_game_with_level_time_and_usermove() {
    let mut engine = Engine::xboard();
    let mut game = Board::startpos();
    engine.send("new");
    engine.send("level 40 0:30 0");
    engine.send("post");
    engine.send("hard");
    for ply in 0..8 {
        // The "user" (White) plays its first legal move.
        let mut moves = MoveList::new();
        generate_all(&game, &mut moves);
        let mv = moves.iter().next().copied().expect("a legal move");
        let text = move_text(mv, false);
        game.make_move(mv);
        // A 5-second clock for 40 moves: about a tenth of a second a move.
        let centis = 500 - 20 * ply;
        engine.send(&format!("time {centis}"));
        engine.send(&format!("otim {centis}"));
        engine.send(&format!("usermove {text}"));
        let (thinking, reply) = engine.expect_move();
        assert!(
            thinking.iter().any(|l| is_thinking_line(l)),
            "no thinking output before {reply}: {thinking:?}"
        );
        assert!(
            thinking.iter().all(|l| is_thinking_line(l)),
            "unexpected output: {thinking:?}"
        );
        apply(&mut game, &reply);
        // Playing the first legal move loses quickly: expect the result.
        if let Some(outcome) = kiln::xboard::outcome::Outcome::of(&game) {
            if outcome.is_final() {
                let result = outcome.to_string();
                engine.expect(|l| l == result, "the result");
            }
            break;
        }
    }
    engine.sync();
    // Incremental control, nopost: the engine plays White after `go`.
    engine.send("new");
    engine.send("level 0 0:05 0.1");
    engine.send("nopost");
    engine.send("time 500");
    engine.send("otim 500");
    engine.send("go");
    let (said, reply) = engine.expect_move();
    assert!(said.is_empty(), "nopost, yet: {said:?}");
    let mut game = Board::startpos();
    apply(&mut game, &reply);
    engine.quit();
}

/// Sets up a back-rank mate in one for White and has the engine play it.
fn engine_plays_the_back_rank_mate(engine: &mut Engine) {
    engine.send("new");
    engine.send("force");
    engine.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("sd 4");
    engine.send("go");
    let (_, reply) = engine.expect_move();
    assert_eq!(reply, "a1a8");
}

#[test]
fn engine_mates_and_announces_the_result() {
    let mut engine = Engine::xboard();
    engine_plays_the_back_rank_mate(&mut engine);
    let (said, result) = engine.expect(|l| l.contains('{'), "the result");
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(result, "1-0 {White mates}");
    // The game is over: no more moves, whatever the GUI says.
    engine.send("go");
    assert!(engine.sync().iter().all(|l| !l.starts_with("move")));
    engine.quit();
}

/// `option UseNNUE` switches the evaluation: the same depth-5 search from
/// the start counts other nodes with the network (1) than with the
/// hand-written evaluation (0), and the same again when switched back.
/// The network finds a mate in one; a value other than 0 or 1 is refused.
#[test]
fn use_nnue_option_switches_the_evaluation() {
    let mut engine = Engine::xboard();
    let nodes = |engine: &mut Engine, use_nnue: u8| -> String {
        engine.send(&format!("option UseNNUE={use_nnue}"));
        engine.send("new");
        engine.send("post");
        engine.send("sd 5");
        engine.send("go");
        let (thinking, _) = engine.expect_move();
        let last = thinking
            .iter()
            .rev()
            .find(|l| is_thinking_line(l))
            .unwrap_or_else(|| panic!("no thinking line: {thinking:?}"));
        // `ply score time nodes pv`
        last.split_whitespace()
            .nth(3)
            .unwrap_or_default()
            .to_string()
    };
    let network = nodes(&mut engine, 1);
    let classical = nodes(&mut engine, 0);
    assert_ne!(network, classical, "UseNNUE changed nothing");
    assert_eq!(nodes(&mut engine, 1), network, "switched back");
    engine.send("option UseNNUE=1");
    engine_plays_the_back_rank_mate(&mut engine);
    engine.send("option UseNNUE=yes");
    engine.expect(|l| l.starts_with("Error"), "the refusal");
    engine.quit();
}

#[test]
fn results_after_the_users_move() {
    let mut engine = Engine::xboard();
    // Engine plays Black; the user mates.
    engine.send("new");
    engine.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("usermove a1a8");
    engine.expect(|l| l == "1-0 {White mates}", "White mates");
    // The user stalemates the engine.
    engine.send("new");
    engine.send("setboard 7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    engine.send("usermove f1f7");
    engine.expect(|l| l == "1/2-1/2 {Stalemate}", "stalemate");
    // In force mode results are not the engine's business.
    engine.send("new");
    engine.send("force");
    engine.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    engine.send("usermove a1a8");
    assert!(engine.sync().is_empty());
    engine.quit();
}

#[test]
fn draw_claims() {
    let mut engine = Engine::xboard();
    // Threefold repetition reached by the opponent's moves.
    engine.send("new");
    engine.send("force");
    for text in [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ] {
        engine.send(&format!("usermove {text}"));
    }
    engine.send("sd 3");
    engine.send("go");
    let (said, claim) = engine.expect(|l| l.contains('{'), "a claim");
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(claim, "1/2-1/2 {Draw by repetition}");

    // Fifty moves, claimed by the side with only a king.
    engine.send("new");
    engine.send("force");
    engine.send("setboard 8/8/4k3/8/8/3RK3/8/8 b - - 100 80");
    engine.send("go");
    engine.expect(
        |l| l == "1/2-1/2 {Draw by fifty move rule}",
        "fifty-move claim",
    );

    // Insufficient material after the engine's own capture.
    engine.send("new");
    engine.send("force");
    engine.send("setboard 8/8/8/4k3/8/8/3q4/4K3 w - - 0 1");
    engine.send("sd 3");
    engine.send("go");
    let (_, reply) = engine.expect_move();
    assert_eq!(reply, "e1d2");
    let (said, result) = engine.expect(|l| l.contains('{'), "the claim");
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(result, "1/2-1/2 {Insufficient material}");
    engine.quit();
}

#[test]
fn draw_offers() {
    let mut engine = Engine::xboard();
    // Opposite-coloured bishops only: nobody can force mate; accept.
    engine.send("new");
    engine.send("force");
    engine.send("setboard 8/8/4k3/8/3b4/8/4B2K/8 w - - 0 1");
    engine.send("sd 4");
    engine.send("draw");
    engine.send("go");
    let (said, _) = engine.expect_move();
    assert!(said.iter().any(|l| l == "offer draw"), "{said:?}");
    // The opening: decline by saying nothing.
    engine.send("new");
    engine.send("sd 3");
    engine.send("draw");
    engine.send("usermove e2e4");
    let (said, _) = engine.expect_move();
    assert!(said.iter().all(|l| l != "offer draw"), "{said:?}");
    engine.quit();
}

#[test]
fn resigns_only_when_enabled() {
    let mut engine = Engine::xboard();
    // Ra8 mates whatever Black does.
    let mated = "7k/1p6/6K1/8/8/8/8/R7 b - - 0 1";
    engine.send("new");
    engine.send("force");
    engine.send(&format!("setboard {mated}"));
    engine.send("sd 4");
    engine.send("go");
    let (before, _) = engine.expect_move();
    assert!(
        before.iter().all(|l| l != "resign"),
        "resigned with Resign off: {before:?}"
    );
    engine.send("new");
    engine.send("option Resign=1");
    engine.send("force");
    engine.send(&format!("setboard {mated}"));
    engine.send("sd 4");
    engine.send("go");
    let (said, answer) = engine.expect(|l| l == "resign" || l.starts_with("move"), "resign");
    assert!(said.is_empty(), "{said:?}");
    assert_eq!(answer, "resign");
    engine.quit();
}

#[test]
fn undo_remove_and_setboard() {
    let mut engine = Engine::xboard();
    engine.send("new");
    engine.send("force");
    engine.send("usermove e2e4");
    engine.send("usermove e7e5");
    engine.send("undo");
    // Black is on move again: e7e5 is legal once more, e2e4 is not.
    engine.send("usermove e7e5");
    engine.send("usermove g1f3");
    engine.send("remove");
    // Back to Black on move after 1. e4.
    engine.send("usermove e7e5");
    engine.send("usermove g1f3");
    assert!(engine.sync().is_empty());
    engine.send("usermove e2e4");
    let said = engine.sync();
    assert_eq!(said, vec!["Illegal move: e2e4".to_string()]);

    // Take back everything, then one more: an error, nothing changes.
    engine.send("remove");
    engine.send("undo");
    engine.send("undo");
    let said = engine.sync();
    assert_eq!(said, vec!["Error (no move to take back): undo".to_string()]);
    engine.send("usermove e2e4");
    assert!(engine.sync().is_empty());

    // An illegal position is refused and moves are refused after it.
    engine.send("setboard 8/8/8/8/8/8/8/8 w - - 0 1");
    engine.send("usermove e2e4");
    let said = engine.sync();
    assert!(
        said.iter().any(|l| l == "tellusererror Illegal position"),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|l| l.starts_with("Error (illegal position")),
        "{said:?}"
    );
    assert!(
        said.iter().any(|l| l.starts_with("Illegal move")),
        "{said:?}"
    );

    // A good setboard, then the engine moves from it as Black.
    engine.send("setboard rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    engine.send("sd 3");
    engine.send("playother");
    assert!(engine.sync().is_empty());
    engine.send("usermove g1f3");
    let (_, reply) = engine.expect_move();
    let mut game = board("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
    apply(&mut game, "g1f3");
    apply(&mut game, &reply);
    // `hint` names a legal reply for the user (the PV's second move), or
    // says nothing.
    engine.send("hint");
    let said = engine.sync();
    assert!(said.len() <= 1, "{said:?}");
    if let Some(hint) = said.first() {
        let text = hint.strip_prefix("Hint: ").expect("Hint: <move>");
        assert!(parse_move(&game, text).is_some(), "{hint}");
    }
    engine.quit();
}

#[test]
fn move_now_and_ping_while_thinking() {
    let mut engine = Engine::xboard();
    engine.send("new");
    engine.send("st 60");
    engine.send("post");
    engine.send("go");
    // Let it think, then ask for the move; the pong must follow the move.
    engine.expect(is_thinking_line, "thinking output");
    let asked = Instant::now();
    engine.send("?");
    engine.send("ping 99");
    let (_, line) = engine.expect(|l| l.starts_with("move ") || l.starts_with("pong"), "move");
    assert!(
        line.starts_with("move "),
        "pong before the move: {}",
        engine.dump()
    );
    assert!(asked.elapsed() < Duration::from_secs(20));
    engine.expect(|l| l == "pong 99", "pong 99");
    // `?` when not thinking is a no-op.
    engine.send("?");
    assert!(engine.sync().is_empty());
    engine.quit();
}

#[test]
fn analysis_mode() {
    let mut engine = Engine::xboard();
    engine.send("new");
    engine.send("post");
    engine.send("analyze");
    engine.expect(is_thinking_line, "analysis output");
    engine.send(".");
    let (_, stat) = engine.expect(|l| l.starts_with("stat01:"), "stat01");
    let fields: Vec<&str> = stat.split_whitespace().collect();
    assert!(fields.len() >= 6, "{stat}");
    assert!(
        fields[1..6].iter().all(|f| f.parse::<u64>().is_ok()),
        "{stat}"
    );
    assert_eq!(fields[5], "20", "{stat}");
    // Moves, undo and setboard restart the analysis; nothing is played.
    engine.send("usermove e2e4");
    engine.send("usermove e7e5");
    engine.send("undo");
    engine.sync();
    engine.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let (said, _) = engine.expect(|l| l.contains("a1a8") && l.contains("10000"), "mate found");
    assert!(said.iter().all(|l| !l.starts_with("move")), "{said:?}");
    engine.send("new");
    engine.send("exit");
    let said = engine.sync();
    assert!(said.iter().all(|l| !l.starts_with("move")), "{said:?}");
    // After exit: force-like, no search runs.
    engine.send(".");
    let quiet = engine.sync();
    assert!(quiet.is_empty(), "{quiet:?}");
    engine.quit();
}

#[test]
fn fischer_random_castling() {
    let mut engine = Engine::xboard();
    let fen = "r5kr/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1";
    engine.send("new");
    engine.send("variant fischerandom");
    engine.send("force");
    engine.send(&format!("setboard {fen}"));
    engine.send("usermove O-O-O");
    assert!(engine.sync().is_empty());
    engine.send("sd 3");
    engine.send("go");
    let (_, reply) = engine.expect_move();
    let mut game = board(fen);
    apply(&mut game, "O-O-O");
    apply(&mut game, &reply);
    engine.quit();
}

#[test]
fn illegal_moves_and_bad_input_never_crash() {
    let mut engine = Engine::xboard();
    engine.send("new");
    engine.send("force");
    for (line, answer) in [
        ("usermove e2e5", "Illegal move: e2e5"),
        ("usermove zz", "Illegal move: zz"),
        ("e7e5", "Illegal move: e7e5"),
        ("usermove e1g1", "Illegal move: e1g1"),
        ("usermove", "Error (missing move): usermove"),
        ("frobnicate 3", "Error (unknown command): frobnicate 3"),
        ("level 40 x 0", "Error (bad level base time): level 40 x 0"),
        ("time soon", "Error (bad clock reading): time soon"),
        ("sd -2", "Error (bad depth): sd -2"),
        ("memory lots", "Error (bad memory size): memory lots"),
        (
            "variant crazyhouse",
            "Error (unsupported variant): variant crazyhouse",
        ),
        ("edit", "Error (unsupported command): edit"),
        (
            "option Nonsense=3",
            "Error (unknown option): option Nonsense=3",
        ),
        ("setboard", "Error (missing FEN): setboard"),
    ] {
        engine.send(line);
        let said = engine.sync();
        assert_eq!(said, vec![answer.to_string()], "for {line}");
    }
    engine.send_bytes(b"\xff\xfe\x00garbage\x80\n");
    engine.send_bytes(&[b'x'; 100_000]);
    engine.send_bytes(b"\n\r\n   \n");
    engine.send("protover 99999999999999999999");
    engine.send("ping");
    let said = engine.sync();
    assert_eq!(said.len(), 4, "{said:?}");
    // The 100 kB line is refused whole, not run from its start.
    assert!(
        said.iter()
            .any(|line| line.starts_with("Error (line longer than 16384 bytes): xxx")),
        "{said:?}"
    );
    // Still playing normally, even with absurd clocks.
    engine.send("new");
    engine.send("sd 2");
    engine.send("level 0 500000 100000");
    engine.send("time 9223372036854775807");
    engine.send("usermove e2e4");
    let (_, reply) = engine.expect_move();
    let mut game = Board::startpos();
    apply(&mut game, "e2e4");
    apply(&mut game, &reply);
    let mut moves = MoveList::new();
    generate_all(&game, &mut moves);
    let next = move_text(moves[0], false);
    engine.send("time 9223372036854775807");
    engine.send(&format!("usermove {next}"));
    engine.expect_move();
    engine.quit();
}

#[test]
fn end_of_input_finishes_the_move() {
    // Scripted use: `go` then end of input still prints the move.
    let mut engine = Engine::start(&["xboard"]);
    engine.send("new");
    engine.send("sd 2");
    engine.send("go");
    engine.process.close_input();
    engine.expect_move();
}

/// `cores N` runs Lazy SMP with N threads: out-of-range values are clamped
/// with a comment, and games with two and four threads get legal moves on
/// a clock, on `?` and in analysis.
#[test]
fn cores_run_several_search_threads() {
    let mut engine = Engine::xboard();
    for cores in ["0", "100000"] {
        engine.send(&format!("cores {cores}"));
        let said = engine.sync();
        assert!(
            said.iter()
                .any(|l| l.starts_with(&format!("# cores {cores}: using"))),
            "{said:?}"
        );
    }
    for cores in [2, 4] {
        engine.send(&format!("cores {cores}"));
        engine.send("new");
        engine.send("level 0 0:02 0.02");
        engine.send("post");
        let mut game = Board::startpos();
        for ply in 0..6 {
            engine.send(&format!("time {}", 200 - 10 * ply));
            engine.send("otim 200");
            if ply == 0 {
                engine.send("go");
            } else {
                let mut moves = MoveList::new();
                generate_all(&game, &mut moves);
                let mv = moves.iter().last().copied().expect("a legal move");
                engine.send(&format!("usermove {}", move_text(mv, false)));
                game.make_move(mv);
            }
            let (_, reply) = engine.expect_move();
            apply(&mut game, &reply);
            if kiln::xboard::outcome::Outcome::of(&game).is_some() {
                break;
            }
        }
        // Move now while thinking with a long fixed time.
        engine.send("force");
        engine.send("new");
        engine.send("st 60");
        engine.send("go");
        engine.expect(is_thinking_line, "thinking output");
        let asked = Instant::now();
        engine.send("?");
        let (_, reply) = engine.expect_move();
        assert!(asked.elapsed() < Duration::from_secs(5));
        apply(&mut Board::startpos(), &reply);
        // Analysis, then leave it.
        engine.send("force");
        engine.send("analyze");
        engine.expect(is_thinking_line, "analysis output");
        engine.send("exit");
        engine.sync();
        engine.send("memory 4");
        engine.sync();
    }
    engine.quit();
}
