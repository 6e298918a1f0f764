//! The command line of `kiln-workshop train`.

use std::ffi::OsString;

use kiln::cli::{ArgError, Parsed, for_each_option};
use kiln_format::net::{DESCRIPTION_BYTES, KingBuckets, MAX_BUCKETS, MAX_HIDDEN};

use crate::positions::LoadFilter;

/// Usage text of `kiln-workshop train`.
pub const USAGE: &str = concat!(
    "\
usage: kiln-workshop train --data <file> [--data <file>...] --out <file.nnue> [options]

Trains the (768 -> N)x2 -> 1 network of the engine's NNUE evaluation on
training data (`kiln-workshop datagen` game files, files of marlinformat
positions or 32-byte records, or `<fen> | <result> | <score>` lines) on the
CPU, then writes it quantised in Kiln's network format. Prints
`epoch N loss X held-out Y` on stdout after each epoch (with --losses also to a file as JSON lines, which
`kiln-workshop plot --losses` draws), and at the end how far the quantised
network's integer evaluation is from the float network's on held-out
positions.

  --data <file>            training positions (repeat for several files)
  --out <file.nnue>        where to write the network
  --description <text>     ASCII, at most 32 bytes, stored in the file
                           (default: `trained on <count> positions`)
  --hidden <n>             neurons per perspective, a multiple of 16 (default 128)
  --buckets <n>            output buckets, chosen by the men on the board, 1-31 (default 1)
  --king-buckets <map>     input buckets by each side's king square, as that side
                           sees the board: `none` (default), `mirror` (one bucket,
                           files seen mirrored when the king is on e-h), 32
                           bucket numbers for files a-d of ranks 1 to 8 (files
                           e-h mirrored onto them), or 64 for every square a1..h8
                           (no mirroring); separated by commas, spaces or `/`,
                           e.g. \"0 0 1 1/2 2 2 2/3 3 3 3/3 3 3 3/3 3 3 3/3 3 3 3/3 3 3 3/3 3 3 3\"
  --factorise              with --king-buckets: also train feature weights that
                           every input bucket shares, added into each bucket's
                           when the network is written (the buckets then learn
                           from every position what they have in common)
  --epochs <n>             passes over the data (default 20)
  --batch <n>              positions per Adam step (default 16384)
  --lr <x>                 the first epoch's Adam step size (default 0.001)
  --lr-end <x>             the last epoch's, as a share of --lr (default 0.1);
                           the step size falls linearly in between
  --weight-decay <x>       decoupled weight decay (AdamW), 0-100 (default 0):
                           each step shrinks every weight (not the biases) by
                           the share step size x this
  --lambda <x>             weight of the game result against the score, 0-1 (default 0.5)
  --k <x>                  logistic scale per centipawn (default: fitted to the
                           data's own search scores against its game results)
  --scale <n>              centipawns per unit of the network's output (default 400)
  --holdout <x>            share of positions held out of the fit, 0-0.5 (default 0.1)
  --held-out <file>        hold out this file's positions instead (repeat for
                           several files; not with --holdout)
  --mirror                 each epoch, train on a random half of the positions
                           without castling rights mirrored left to right
  --threads <n>            threads (default: the number of cores)
  --seed <n>               seed of the starting weights and shuffles (default 1)
  --losses <file.jsonl>    also write each epoch's losses there, one JSON object
                           a line: {\"epoch\":N,\"loss\":X,\"held_out\":Y}, from
                           epoch 1, written as each epoch ends
  -h, --help               this help

Game files store every ply; the load filter chooses the positions trained
on (files of positions are read whole):
",
    crate::positions::load_filter_usage!(),
    "
The positions are kept in memory, 32 bytes each (200 million: 6.4 GB). A
run is reproducible from its seed and thread count. After each epoch the
run's state is kept in <out>.checkpoint: a run killed part-way goes on
from its last finished epoch when the same command is given again (and
writes the same network as a run never stopped); the file is removed once
the network is written. Whole numbers and seeds are decimal or 0x hex;
options also take --option=value."
);

/// Training settings; see [`USAGE`].
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Training files (binary records or text lines, as `datagen` writes).
    pub data: Vec<String>,
    /// Where to write the network.
    pub out: String,
    /// The file's description; `None` names the position count.
    pub description: Option<String>,
    /// Neurons per perspective.
    pub hidden: usize,
    /// Output buckets: sets of output weights chosen by the number of men.
    pub buckets: usize,
    /// Input buckets and mirroring by each side's king square.
    pub king_buckets: KingBuckets,
    /// Whether the input buckets share a factoriser
    /// ([`super::model::Network::factoriser`]).
    pub factorise: bool,
    /// Passes over the data.
    pub epochs: u32,
    /// Positions per Adam step.
    pub batch: usize,
    /// Adam step size in the first epoch; it falls linearly to `lr_end`
    /// of this by the last.
    pub lr: f64,
    /// The last epoch's step size as a share of the first's.
    pub lr_end: f64,
    /// Decoupled weight decay ([`super::optimise::Schedule::weight_decay`]).
    pub weight_decay: f64,
    /// Weight of the game result in the target (1 = result only, 0 = the
    /// search score only), as in `kiln-workshop tune`.
    pub lambda: f64,
    /// The logistic scale per centipawn; `None` fits it to the data's own
    /// search scores against its game results.
    pub k: Option<f64>,
    /// Centipawns per unit of the network's output.
    pub scale: u32,
    /// Fraction of the positions (the last ones loaded) held out; 0 when
    /// `held_out` names files.
    pub holdout: f64,
    /// Files whose positions are the held-out set, instead of a share of
    /// `data`'s.
    pub held_out: Vec<String>,
    /// Each epoch, a random half of the training positions that no side
    /// may castle in are trained on mirrored left to right.
    pub mirror: bool,
    /// Threads that share each batch.
    pub threads: usize,
    /// Seed of the starting weights and the shuffles.
    pub seed: u64,
    /// Where to write the losses of each epoch as JSON lines
    /// ([`crate::fit::EpochLoss`]), if anywhere.
    pub losses: Option<String>,
    /// Which positions of game files are trained on.
    pub filter: LoadFilter,
}

/// The default thread count: every core.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

impl Options {
    /// Parses the arguments after `train`.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let mut o = Options {
            data: Vec::new(),
            out: String::new(),
            description: None,
            hidden: 128,
            buckets: 1,
            king_buckets: KingBuckets::NONE,
            factorise: false,
            epochs: 20,
            batch: 16_384,
            lr: 0.001,
            lr_end: 0.1,
            weight_decay: 0.0,
            lambda: 0.5,
            k: None,
            scale: 400,
            holdout: 0.1,
            held_out: Vec::new(),
            mirror: false,
            threads: cores(),
            seed: 1,
            losses: None,
            filter: LoadFilter::default(),
        };
        let (mut out, mut share_given) = (None, false);
        let parsed = for_each_option(args, |flag, args| {
            match flag {
                "--data" => o.data.push(args.value(flag)?),
                "--out" => out = Some(args.value(flag)?),
                "--description" => {
                    let text = args.value(flag)?;
                    if text.len() > DESCRIPTION_BYTES
                        || !text.bytes().all(|b| b.is_ascii_graphic() || b == b' ')
                    {
                        return Err(ArgError::BadValue {
                            what: flag.to_string(),
                            text,
                            reason: format!(
                                "a description is printable ASCII, at most {DESCRIPTION_BYTES} bytes"
                            ),
                        });
                    }
                    o.description = Some(text);
                }
                "--hidden" => {
                    let n = args.number(flag, 16, MAX_HIDDEN as u64)?;
                    if n % 16 != 0 {
                        return Err(ArgError::BadValue {
                            what: flag.to_string(),
                            text: n.to_string(),
                            reason: "the hidden size is a multiple of 16".to_string(),
                        });
                    }
                    o.hidden = n as usize;
                }
                "--buckets" => o.buckets = args.number(flag, 1, MAX_BUCKETS as u64)? as usize,
                "--king-buckets" => {
                    let text = args.value(flag)?;
                    o.king_buckets =
                        parse_king_buckets(&text).map_err(|reason| ArgError::BadValue {
                            what: flag.to_string(),
                            text,
                            reason,
                        })?;
                }
                "--factorise" => o.factorise = true,
                "--epochs" => o.epochs = args.number(flag, 1, 100_000)? as u32,
                "--batch" => o.batch = args.number(flag, 1, 100_000_000)? as usize,
                "--lr" => o.lr = args.fraction(flag, 1e-7, 10.0)?,
                "--lr-end" => o.lr_end = args.fraction(flag, 1e-6, 1.0)?,
                "--weight-decay" => o.weight_decay = args.fraction(flag, 0.0, 100.0)?,
                "--lambda" => o.lambda = args.fraction(flag, 0.0, 1.0)?,
                "--k" => o.k = Some(args.fraction(flag, 1e-5, 1.0)?),
                "--scale" => o.scale = args.number(flag, 1, 10_000)? as u32,
                "--holdout" => {
                    o.holdout = args.fraction(flag, 0.0, 0.5)?;
                    share_given = true;
                }
                "--held-out" => o.held_out.push(args.value(flag)?),
                "--mirror" => o.mirror = true,
                "--threads" => o.threads = args.number(flag, 1, 1024)? as usize,
                "--seed" => o.seed = args.number(flag, 0, u64::MAX)?,
                "--losses" => o.losses = Some(args.value(flag)?),
                _ => return o.filter.option(flag, args),
            }
            Ok(true)
        })?;
        if parsed == Parsed::Help {
            return Ok(Parsed::Help);
        }
        o.out = out.ok_or(ArgError::Missing("--out <file.nnue>"))?;
        if o.data.is_empty() {
            return Err(ArgError::Missing("--data <file>"));
        }
        if o.factorise && o.king_buckets.count() < 2 {
            return Err(ArgError::Missing(
                "--king-buckets <map> of two buckets or more (--factorise shares weights among them)",
            ));
        }
        if !o.held_out.is_empty() {
            if share_given {
                return Err(ArgError::Conflict("--holdout", "--held-out"));
            }
            o.holdout = 0.0;
        }
        Ok(Parsed::Run(o))
    }
}

/// The king map of `--king-buckets`' value (see [`USAGE`]).
fn parse_king_buckets(text: &str) -> Result<KingBuckets, String> {
    match text.trim() {
        "none" => return Ok(KingBuckets::NONE),
        "mirror" => return KingBuckets::mirrored_halves(&[0; 32]).map_err(|e| e.to_string()),
        _ => {}
    }
    let numbers = text
        .split(|c: char| c == ',' || c == '/' || c.is_whitespace())
        .filter(|part| !part.is_empty())
        .map(|part| {
            part.parse::<u8>()
                .ok()
                .filter(|&b| b & kiln_format::net::KING_MAP_MIRROR == 0)
                .ok_or_else(|| format!("{part:?} is not a bucket number"))
        })
        .collect::<Result<Vec<u8>, String>>()?;
    let map = match numbers.len() {
        32 => KingBuckets::mirrored_halves(numbers.as_slice().try_into().expect("32")),
        64 => KingBuckets::from_bytes(numbers.as_slice().try_into().expect("64")),
        n => {
            return Err(format!(
                "{n} bucket numbers: give 32 (files a-d, mirrored) or 64 (every square)"
            ));
        }
    };
    map.map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_args as args;

    fn parse(text: &str) -> Result<Options, ArgError> {
        Options::parse(args(text)).map(|parsed| parsed.run().expect("not a help request"))
    }

    #[test]
    fn options_reject_bad_input() {
        assert_eq!(parse("--out x"), Err(ArgError::Missing("--data <file>")));
        assert_eq!(
            parse("--data d"),
            Err(ArgError::Missing("--out <file.nnue>"))
        );
        assert!(parse("--data d --out x --hidden 100").is_err());
        assert!(parse("--data d --out x --hidden 0").is_err());
        assert!(parse("--data d --out x --buckets 0").is_err());
        assert!(parse("--data d --out x --buckets 32").is_err());
        assert_eq!(
            parse("--data d --out x --buckets 8").map(|o| o.buckets),
            Ok(8)
        );
        assert!(parse("--data d --out x --lambda 2").is_err());
        let kings =
            |spec: &str| Options::parse(["--data", "d", "--out", "x", "--king-buckets", spec]);
        for bad in ["", "0 1", "0 2 0 0", "x", "0,0,1,300", "1"] {
            assert!(
                matches!(kings(bad), Err(ArgError::BadValue { .. })),
                "{bad:?}"
            );
        }
        let four = "0 0 1 1/2 2 2 2/3 3 3 3/3 3 3 3/3 3 3 3/3 3 3 3/3 3 3 3/3 3 3 3";
        let map = parse_king_buckets(four).expect("a map");
        assert_eq!((map.count(), map.bucket(6), map.mirrored(6)), (4, 0, true));
        assert_eq!(map.bucket(12), 2);
        let mirror = parse_king_buckets("mirror").expect("a map");
        assert_eq!(
            (mirror.count(), mirror.mirrored(4), mirror.mirrored(3)),
            (1, true, false)
        );
        let every: String = (0..64).map(|s| format!("{},", s / 32)).collect();
        let halves = parse_king_buckets(&every).expect("a map");
        assert_eq!(
            (halves.count(), halves.mirrored(63), halves.bucket(63)),
            (2, false, 1)
        );
        assert_eq!(parse_king_buckets("none"), Ok(KingBuckets::NONE));
        assert!(parse("--data d --out x --threads 0").is_err());
        assert!(
            parse("--data d --out x --description 0123456789012345678901234567890123").is_err()
        );
        assert!(matches!(
            Options::parse(["--data", "d", "--out", "x", "--description", "caf\u{e9}"]),
            Err(ArgError::BadValue { .. })
        ));
        assert_eq!(
            parse("--data d --out x extra"),
            Err(ArgError::UnexpectedArgument("extra".into()))
        );
        assert_eq!(
            parse("--data d --out x --frobnicate"),
            Err(ArgError::UnknownOption("--frobnicate".into()))
        );
        let o =
            parse("--data=d --data e --out x --hidden=32 --k 0.01 --seed 0x10 --mirror").unwrap();
        assert_eq!(
            (o.data.len(), o.hidden, o.k, o.seed, o.mirror),
            (2, 32, Some(0.01), 16, true)
        );
        assert_eq!(Options::parse(args("--help")), Ok(Parsed::Help));
    }

    #[test]
    fn a_factoriser_needs_input_buckets_to_share_it() {
        assert!(matches!(
            parse("--data d --out x --factorise"),
            Err(ArgError::Missing(_))
        ));
        assert!(matches!(
            Options::parse([
                "--data",
                "d",
                "--out",
                "x",
                "--factorise",
                "--king-buckets",
                "mirror"
            ]),
            Err(ArgError::Missing(_))
        ));
        let two = "0 0 0 0/1 1 1 1/1 1 1 1/1 1 1 1/1 1 1 1/1 1 1 1/1 1 1 1/1 1 1 1";
        let o = Options::parse([
            "--data",
            "d",
            "--out",
            "x",
            "--king-buckets",
            two,
            "--factorise",
        ])
        .map(|parsed| parsed.run().expect("not a help request"))
        .expect("options");
        assert!(o.factorise);
        assert!(!parse("--data d --out x").unwrap().factorise);
    }

    #[test]
    fn held_out_files_replace_the_share() {
        let o = parse("--data d --out x --held-out h1 --held-out=h2").unwrap();
        assert_eq!((o.held_out.len(), o.holdout), (2, 0.0));
        assert_eq!(
            parse("--data d --out x --held-out h --holdout 0.1"),
            Err(ArgError::Conflict("--holdout", "--held-out"))
        );
        assert!(parse("--data d --out x --held-out").is_err());
    }

    #[test]
    fn usage_states_the_defaults() {
        use kiln::cli::documented_default as default;
        let o = parse("--data d --out x").unwrap();
        let real = |option| default(USAGE, option).and_then(|x| x.parse::<f64>().ok());
        assert_eq!(real("--hidden"), Some(o.hidden as f64));
        assert_eq!(real("--buckets"), Some(o.buckets as f64));
        assert_eq!(real("--epochs"), Some(f64::from(o.epochs)));
        assert_eq!(real("--batch"), Some(o.batch as f64));
        assert_eq!(real("--lr"), Some(o.lr));
        assert_eq!(real("--lr-end"), Some(o.lr_end));
        assert_eq!(real("--weight-decay"), Some(o.weight_decay));
        assert_eq!(real("--lambda"), Some(o.lambda));
        assert_eq!(real("--scale"), Some(f64::from(o.scale)));
        assert_eq!(real("--holdout"), Some(o.holdout));
        assert_eq!(real("--seed"), Some(o.seed as f64));
        assert_eq!(o.k, None);
        assert!(!o.mirror);
        assert_eq!(o.threads, cores());
        assert_eq!(o.losses, None);
        assert_eq!(default(USAGE, "--losses"), None);
        let o = parse("--data d --out x --losses=l.jsonl").unwrap();
        assert_eq!(o.losses.as_deref(), Some("l.jsonl"));
    }

    #[test]
    fn the_load_filter_is_set_by_options_and_its_defaults_documented() {
        use kiln::cli::documented_default as default;
        let o = parse("--data d --out x").unwrap();
        let whole = |option| default(USAGE, option).and_then(|x| x.parse::<u64>().ok());
        assert_eq!(o.filter, LoadFilter::default());
        assert_eq!(whole("--min-ply"), Some(o.filter.min_ply as u64));
        assert_eq!(whole("--min-men"), Some(u64::from(o.filter.min_men)));
        assert_eq!(o.filter.max_score, None);
        assert!(!o.filter.keep_check && !o.filter.keep_noisy);
        let o = parse(
            "--data d --out x --min-ply 0 --keep-check --keep-noisy --max-score 1500 --min-men 6",
        )
        .unwrap();
        assert_eq!(
            o.filter,
            LoadFilter {
                min_ply: 0,
                keep_check: true,
                keep_noisy: true,
                max_score: Some(1500),
                min_men: 6,
                ..LoadFilter::default()
            }
        );
        assert!(parse("--data d --out x --min-men 1").is_err());
        assert!(parse("--data d --out x --max-score -3").is_err());
    }
}
