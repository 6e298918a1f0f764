//! The command line of `kiln-workshop datagen`: its usage text and options.

use std::ffi::OsString;

use kiln::cli::{ArgError, Parsed, for_each_option};
use kiln::eval::Evaluation;
use kiln::eval::score::MATE;
use kiln::protocol::options::hash_mib;

/// Usage text of `kiln-workshop datagen`.
pub const USAGE: &str = "\
usage: kiln-workshop datagen --out <file> (--games <n> | --positions <n>) [options]

Plays self-play games and writes them whole to a game file (docs/data.md):
the start position, each ply's move with the score of Kiln's search there
(centipawns, White's view), and the result. Every ply is kept; which
positions to train on is decided when the file is read.

  --out <file>             the game file (extension .games); see Resuming
  --overwrite              start --out anew even if it holds games
  --games <n>              the games the file should hold in all
  --positions <n>          stop once the file holds n positions (plies)
  --seed <n>               the shard: the seed of every random choice (default 1)
  --threads <n>            games played at once, one thread each (default 1)
  --nodes <n>              soft node limit a move (default 1250)
  --hard-nodes <n>         hard node limit a move (default 8 x --nodes)
  --openings <epd>         start from random lines of this file (default: the start position)
  --dfrc                   start from double Fischer random positions
  --random-plies <n>       random legal plies after the start (default 8)
  --max-opening-score <cp> replace openings scored beyond this (default 1000)
  --syzygy <path>          adjudicate positions in these tables by their WDL
  --hash <MiB>             hash table of each game being played (default 16)
  --opponent <engine>      play this UCI engine instead of Kiln itself
  --opponent-nodes <n>     the opponent's nodes per move (default 10000)
  --eval <name>            Kiln's static evaluation: classical or nnue (default nnue)
  -h, --help               this help

Openings: the start position, a random line of --openings, or with --dfrc
a double Fischer random position (each side's back rank an independent
Chess960 arrangement, castling with the rooks where they stand); then
--random-plies random legal moves and, with even odds, one more, so that
either side may have the first move of the game (no random moves at all
with --random-plies 0). A search of the result (depth 8 or 2000 nodes,
whichever ends first) rejects it when it scores beyond --max-opening-score
or there is no legal move, and new random moves are drawn.

Moves: each game has one search thread and a hash table of its own,
fresh at the start of the game. A search starts no new iteration once it
has searched --nodes nodes, and stops at --hard-nodes in any case.

Game ends: by the rules (mate, stalemate, fifty moves, threefold
repetition, insufficient material) or by adjudication: a win when four
plies in a row score 2000 cp or more for the same side, or at once when a
search finds a mate; a draw from ply 80 of the game (the random moves not
counted) when eight plies in a row score within 10 cp, and for any game
still going at ply 400. With --syzygy, a position in the tables right
after a capture or pawn move ends the game with their verdict (a win the
fifty-move rule spoils is a draw).

Resuming: game n of a seed depends on the seed, n and the other options
only, not on --threads, and games are written in order, each as soon as
those before it are. When --out already holds games of the same seed,
the run continues after them (a game cut short by a kill is dropped and
played again), so rerunning the same command after a crash completes the
file exactly as one uninterrupted run writes it; --games and --positions
count what the file holds in all. The header records the seed and a
fingerprint of the options that shape the games and of the built-in
network: a file of another seed or other such options, or that is not a
self-play shard, is an error, unless --overwrite is given. A second run
on a file another run is writing is refused.

Shards: on several machines, give each its own --seed; the seeds' games
are disjoint. `kiln-workshop data merge` joins the shards into one file.

With --opponent, Kiln plays another UCI engine, White in even-numbered
games and Black in odd ones; each ply's score is that of the engine that
moved (its mates, and plies it scored not at all, as mate scores). The
other engine may not repeat its games exactly, nor a resumed file its
bytes. Not with --dfrc.

Whole numbers and seeds are decimal or 0x hex; options also take
--option=value.";

/// The soft node limit a move unless `--nodes` says otherwise. At equal
/// positions 1,250-node games trained networks level with 2,500-node ones
/// (and those with 5,000-node ones), and they come 2.2 times as fast
/// (docs/strength-log.md, "Nodes a move for self-play data").
pub const DEFAULT_NODES: u64 = 1250;

/// The hard node limit a move is this many times the soft one unless
/// `--hard-nodes` says otherwise: iterations roughly double in nodes, so
/// the last one the soft limit lets start seldom reaches it.
pub const HARD_NODES_FACTOR: u64 = 8;

/// What to generate; see [`USAGE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The game file.
    pub out: String,
    /// Start the file anew even if it holds games.
    pub overwrite: bool,
    /// The games the file should hold in all (if set).
    pub games: Option<u64>,
    /// Stop once the file holds this many positions (if set).
    pub positions: Option<u64>,
    /// Seed of every random choice: the shard.
    pub seed: u64,
    /// Games played at once.
    pub threads: usize,
    /// Soft node limit a move: no iteration starts after this many nodes.
    pub nodes: u64,
    /// Hard node limit a move (`None`: [`HARD_NODES_FACTOR`] × `nodes`).
    pub hard_nodes: Option<u64>,
    /// EPD/FEN file of starting positions (else the start position).
    pub openings: Option<String>,
    /// Start from double Fischer random positions.
    pub dfrc: bool,
    /// Random legal plies played from the start (plus 0 or 1 more).
    pub random_plies: u32,
    /// Openings whose verification search scores beyond this (centipawns)
    /// are replaced.
    pub max_opening_score: i32,
    /// Syzygy tables to adjudicate by (if set).
    pub syzygy: Option<String>,
    /// Transposition table of each game in MiB (the opponent's hash too).
    pub hash_mib: u64,
    /// A UCI engine Kiln plays instead of itself (if set).
    pub opponent: Option<String>,
    /// The opponent's nodes per move.
    pub opponent_nodes: u64,
    /// The static evaluation Kiln plays and scores positions with.
    pub evaluation: Evaluation,
}

impl Options {
    /// Parses the arguments after `datagen`.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut options = Options {
            out: String::new(),
            overwrite: false,
            games: None,
            positions: None,
            seed: 1,
            threads: 1,
            nodes: DEFAULT_NODES,
            hard_nodes: None,
            openings: None,
            dfrc: false,
            random_plies: 8,
            max_opening_score: 1000,
            syzygy: None,
            hash_mib: hash_mib().default,
            opponent: None,
            opponent_nodes: 10_000,
            evaluation: Evaluation::DEFAULT,
        };
        let mut out = None;
        let mut opponent_nodes_given = false;
        let parsed = for_each_option(args, |flag, args| {
            match flag {
                "--out" => out = Some(args.value(flag)?),
                "--overwrite" => options.overwrite = true,
                "--games" => options.games = Some(args.number(flag, 1, u64::MAX)?),
                "--positions" => options.positions = Some(args.number(flag, 1, u64::MAX)?),
                "--seed" => options.seed = args.number(flag, 0, u64::MAX)?,
                "--threads" => options.threads = args.number(flag, 1, 256)? as usize,
                "--nodes" => options.nodes = args.number(flag, 1, 100_000_000)?,
                "--hard-nodes" => options.hard_nodes = Some(args.number(flag, 1, 1_000_000_000)?),
                "--openings" => options.openings = Some(args.value(flag)?),
                "--dfrc" => options.dfrc = true,
                "--random-plies" => options.random_plies = args.number(flag, 0, 200)? as u32,
                "--max-opening-score" => {
                    options.max_opening_score = args.number(flag, 0, MATE as u64)? as i32;
                }
                "--syzygy" => options.syzygy = Some(args.value(flag)?),
                "--hash" => {
                    let range = hash_mib();
                    options.hash_mib = args.number(flag, range.min, range.max)?;
                }
                "--opponent" => options.opponent = Some(args.value(flag)?),
                "--opponent-nodes" => {
                    options.opponent_nodes = args.number(flag, 1, 100_000_000)?;
                    opponent_nodes_given = true;
                }
                "--eval" => options.evaluation = args.evaluation(flag)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if parsed == Parsed::Help {
            return Ok(Parsed::Help);
        }
        options.out = out.ok_or(ArgError::Missing("--out <file>"))?;
        if options.games.is_none() && options.positions.is_none() {
            return Err(ArgError::Missing("--games <n> or --positions <n>"));
        }
        if options.dfrc && options.openings.is_some() {
            return Err(ArgError::Conflict("--dfrc", "--openings"));
        }
        // The opponent would need UCI_Chess960 and king-takes-rook castling,
        // which the client does not speak.
        if options.dfrc && options.opponent.is_some() {
            return Err(ArgError::Conflict("--dfrc", "--opponent"));
        }
        if opponent_nodes_given && options.opponent.is_none() {
            return Err(ArgError::Needs("--opponent-nodes", "--opponent"));
        }
        if let Some(hard) = options.hard_nodes
            && hard < options.nodes
        {
            return Err(ArgError::BadValue {
                what: "--hard-nodes".into(),
                text: hard.to_string(),
                reason: format!("less than --nodes ({})", options.nodes),
            });
        }
        Ok(Parsed::Run(options))
    }

    /// The shard's recipe: a fingerprint (FNV-1a) of [`Options::recipe_text`],
    /// what shapes its games besides the seed, recorded in the header so
    /// that a run with another recipe is not appended to a shard (see
    /// [`Header::recipe`]).
    ///
    /// [`Header::recipe`]: kiln_format::game::Header::recipe
    ///
    /// # Errors
    /// The openings file cannot be read.
    pub fn recipe(&self) -> Result<u64, kiln_format::FileError> {
        use kiln_format::net::{fnv1a64, fnv1a64_continue};
        let bench = kiln::uci::bench::run_with(None, self.evaluation, &mut |_| {});
        let text = self.recipe_text(bench)?;
        // Never 0, which the header reads as "not recorded".
        Ok(fnv1a64_continue(fnv1a64(b"kiln shard recipe"), text.as_bytes()).max(1))
    }

    /// What the recipe is a fingerprint of: the node limits, the openings
    /// (the file's bytes), the random plies and their score limit, Chess960
    /// starts, the hash size, whether tablebases adjudicate, the evaluation,
    /// the opponent and its nodes, the built-in network's and tables'
    /// fingerprints, and `bench`, the engine's bench signature with the
    /// evaluation the games are played with (the node count of `kiln bench`,
    /// [`kiln::uci::bench::run_with`]). The bench stands for the engine's
    /// code: a rebuilt engine that searches differently plays other games
    /// from the same seed, and has another recipe.
    ///
    /// # Errors
    /// The openings file cannot be read.
    pub fn recipe_text(&self, bench: u64) -> Result<String, kiln_format::FileError> {
        use kiln_format::net::fnv1a64;
        let openings = match &self.openings {
            Some(path) => fnv1a64(&std::fs::read(path).map_err(kiln_format::FileError::on(
                kiln_format::FileAction::Read,
                path,
            ))?),
            None => 0,
        };
        Ok(format!(
            "nodes={} hard-nodes={} openings={openings:016x} dfrc={} random-plies={} \
             max-opening-score={} hash={} syzygy={} eval={:?} opponent={:?} opponent-nodes={} \
             network={:016x} tables={:016x} bench={bench}",
            self.nodes,
            self.hard_node_limit(),
            self.dfrc,
            self.random_plies,
            self.max_opening_score,
            self.hash_mib,
            self.syzygy.is_some(),
            self.evaluation,
            self.opponent,
            self.opponent.as_ref().map_or(0, |_| self.opponent_nodes),
            kiln::eval::nnue::network::FINGERPRINT,
            kiln::build_info::FINGERPRINT,
        ))
    }

    /// The hard node limit a move.
    pub fn hard_node_limit(&self) -> u64 {
        self.hard_nodes
            .unwrap_or_else(|| self.nodes.saturating_mul(HARD_NODES_FACTOR))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::split_args as args;

    fn parse(text: &str) -> Result<Options, ArgError> {
        Options::parse(args(text)).map(|parsed| parsed.run().expect("not a help request"))
    }

    /// The recipe is the fingerprint of its text, and the text ends with
    /// the engine's bench signature for the evaluation the games are
    /// played with: each evaluation searches its own tree, and an engine
    /// that searches differently gets another recipe.
    #[test]
    fn the_recipe_names_the_bench_of_the_evaluation_played() {
        use kiln_format::net::{fnv1a64, fnv1a64_continue};
        let mut benches = Vec::new();
        for args in ["--out x --games 1", "--out x --games 1 --eval classical"] {
            let o = parse(args).unwrap();
            let bench = kiln::uci::bench::run_with(None, o.evaluation, &mut |_| {});
            let text = o.recipe_text(bench).unwrap();
            assert!(text.ends_with(&format!(" bench={bench}")), "{text}");
            let fingerprint = fnv1a64_continue(fnv1a64(b"kiln shard recipe"), text.as_bytes());
            assert_eq!(o.recipe().unwrap(), fingerprint.max(1), "{args}");
            assert_ne!(o.recipe_text(bench + 1).unwrap(), text);
            benches.push(bench);
        }
        assert_ne!(benches[0], benches[1], "the evaluations search apart");
    }

    #[test]
    fn the_usage_text_gives_the_default_node_limit() {
        let o = parse("--out x --games 1").unwrap();
        assert_eq!(o.nodes, DEFAULT_NODES);
        assert!(USAGE.contains(&format!("soft node limit a move (default {DEFAULT_NODES})")));
    }

    #[test]
    fn options_parse_and_reject_bad_input() {
        let o = parse("--out x.games --games 3 --nodes 100 --seed 7").unwrap();
        assert_eq!(
            (o.games, o.nodes, o.seed, o.out.as_str()),
            (Some(3), 100, 7, "x.games")
        );
        assert_eq!(o.hard_node_limit(), 800);
        // Seeds as the tools print them (hex), the whole 64 bits, and
        // --option=value.
        let o = parse("--out=x --games=0x3 --seed 0xFFFFFFFFFFFFFFFF --nodes=1000").unwrap();
        assert_eq!(
            (o.games, o.seed, o.nodes, o.out.as_str()),
            (Some(3), u64::MAX, 1000, "x")
        );
        let o = parse(
            "--out x --positions 10 --hard-nodes 900 --nodes 300 --dfrc --random-plies 0 \
             --max-opening-score 500 --syzygy /tb --overwrite --threads 4",
        )
        .unwrap();
        assert_eq!(
            (
                o.positions,
                o.games,
                o.hard_node_limit(),
                o.dfrc,
                o.random_plies
            ),
            (Some(10), None, 900, true, 0)
        );
        assert_eq!(
            (
                o.max_opening_score,
                o.syzygy.as_deref(),
                o.overwrite,
                o.threads
            ),
            (500, Some("/tb"), true, 4)
        );
        assert_eq!(Options::parse(args("--out x -h")), Ok(Parsed::Help));
        assert_eq!(Options::parse(args("--help")), Ok(Parsed::Help));
        assert_eq!(parse("--games 3"), Err(ArgError::Missing("--out <file>")));
        assert_eq!(
            parse("--out x"),
            Err(ArgError::Missing("--games <n> or --positions <n>"))
        );
        assert!(parse("--out x --games 0").is_err());
        assert!(parse("--out x --games ten").is_err());
        assert!(parse("--out x --games 1 --threads 0").is_err());
        assert!(parse("--out x --games 1 --max-opening-score -5").is_err());
        assert_eq!(
            parse("--out x --games 1 --nodes"),
            Err(ArgError::MissingValue("--nodes".into()))
        );
        assert_eq!(
            parse("--out x --games 1 --frobnicate 2"),
            Err(ArgError::UnknownOption("--frobnicate".into()))
        );
        // The old text output and --append are gone.
        assert!(parse("--out x --games 1 --text").is_err());
        assert!(parse("--out x --games 1 --append").is_err());
        assert_eq!(
            parse("--out x --games 1 extra"),
            Err(ArgError::UnexpectedArgument("extra".into()))
        );
        assert!(matches!(
            parse("--out x --games 1 --nodes 1000 --hard-nodes 999"),
            Err(ArgError::BadValue { .. })
        ));
        assert_eq!(
            parse("--out x --games 1 --dfrc --openings o.epd"),
            Err(ArgError::Conflict("--dfrc", "--openings"))
        );
        assert_eq!(
            parse("--out x --games 1 --dfrc --opponent sf"),
            Err(ArgError::Conflict("--dfrc", "--opponent"))
        );
        let o = parse("--out x --games 1 --opponent sf --opponent-nodes 50").unwrap();
        assert_eq!((o.opponent.as_deref(), o.opponent_nodes), (Some("sf"), 50));
        assert!(parse("--out x --games 1 --opponent").is_err());
        assert!(parse("--out x --games 1 --opponent-nodes 0").is_err());
        assert_eq!(
            parse("--out x --games 1 --opponent-nodes 50"),
            Err(ArgError::Needs("--opponent-nodes", "--opponent"))
        );
        let o = parse("--out x --games 1 --eval classical").unwrap();
        assert_eq!(o.evaluation, Evaluation::Classical);
        assert!(parse("--out x --games 1 --eval fast").is_err());
    }

    #[test]
    fn usage_states_the_defaults() {
        use kiln::cli::documented_default as default;
        let o = parse("--out x --games 1").unwrap();
        let text = |n: u64| n.to_string();
        assert_eq!(default(USAGE, "--nodes"), Some(&*text(o.nodes)));
        let hard = format!("{HARD_NODES_FACTOR} x --nodes");
        assert_eq!(default(USAGE, "--hard-nodes"), Some(&*hard));
        assert_eq!(o.hard_node_limit(), HARD_NODES_FACTOR * o.nodes);
        assert_eq!(default(USAGE, "--eval"), Some(o.evaluation.name()));
        assert_eq!(o.evaluation, Evaluation::Network, "the network plays");
        assert_eq!(default(USAGE, "--seed"), Some(&*text(o.seed)));
        assert_eq!(default(USAGE, "--threads"), Some(&*text(o.threads as u64)));
        let plies = text(u64::from(o.random_plies));
        assert_eq!(default(USAGE, "--random-plies"), Some(&*plies));
        let score = o.max_opening_score.to_string();
        assert_eq!(default(USAGE, "--max-opening-score"), Some(&*score));
        assert_eq!(default(USAGE, "--hash"), Some(&*text(o.hash_mib)));
        let nodes = text(o.opponent_nodes);
        assert_eq!(default(USAGE, "--opponent-nodes"), Some(&*nodes));
        assert!(o.openings.is_none() && !o.dfrc && !o.overwrite && o.syzygy.is_none());
    }
}
