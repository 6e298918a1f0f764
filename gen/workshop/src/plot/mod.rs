//! `kiln-workshop plot`: the pictures of the tuning documentation, as PNG files.
//!
//! - `psqt.png`: the middlegame and endgame piece-square table of each piece
//!   from a parameter file in the format of `src/eval/params.txt`, as heat
//!   maps. What is shown is each table's own values, the positional bonus in
//!   centipawns that the square adds to the piece's material (the file keeps
//!   material apart and the build script folds it in); the material is
//!   written in each map's title. Boards are drawn from White's side, rank 8
//!   at the top, with every value printed in its square; one diverging colour
//!   scale, symmetric about zero, serves all twelve maps so that their colours
//!   compare. The pawn's first and last ranks, where no pawn stands, are grey.
//! - `loss.png` (when a losses file is given): the training and held-out
//!   loss per epoch, read from the JSON lines that `kiln-workshop tune` or
//!   `kiln-workshop train` writes with `--losses` ([`crate::fit::EpochLoss`],
//!   one record per epoch; the tuner's epoch 0 is the loss of the starting
//!   weights). Records without a held-out loss (a run that held no
//!   positions out) leave that curve out.
//!
//! Everything is drawn in memory and encoded by `png`; the text uses a subset
//! of DejaVu Sans compiled into the binary (`fonts/`), so rendering needs no
//! system library and no installed font.

use std::ffi::OsString;
use std::path::PathBuf;

use kiln::cli::{ArgError, Parsed, for_each_option};

mod draw;
pub use draw::{PlotError, run};

/// Usage text of `kiln-workshop plot`.
pub const USAGE: &str = "\
usage: kiln-workshop plot [--params <params.txt>] [--losses <file.jsonl>] [--curve <file>] --out <dir>

Renders pictures of the evaluation to PNG files in <dir>: with --params
psqt.png, the middlegame and endgame piece-square table of each piece as
heat maps; with --losses (the file `kiln-workshop tune --losses` or
`kiln-workshop train --losses` writes) loss.png, the training and held-out
loss per epoch; with --curve <stem>.png (named after the curve's file), the
network's Elo against a reference engine by training positions, a line for
each series (network shape) the file names. At least one of the three.
Prints the path of each file written.

For example:
  kiln-workshop plot --params src/eval/params.txt --out docs/img

  --params <params.txt>    weights in the format of src/eval/params.txt
  --losses <file.jsonl>    losses per epoch, one JSON object a line, as
                           `kiln-workshop tune` and `train` write with --losses
  --curve <file>           lines `<positions> <elo> <low> <high> [<series>]`, each
                           series by position count (docs/nnue-curve.txt)
  --out <dir>              directory for the PNG files
  -h, --help               this help";

/// What to draw and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// A parameter file in the format of `src/eval/params.txt`, if its
    /// piece-square tables are wanted.
    pub params: Option<PathBuf>,
    /// The `--losses` file of a `kiln-workshop tune` or `kiln-workshop
    /// train` run (JSON lines, [`crate::fit::EpochLoss`]), if its loss curve
    /// is wanted.
    pub losses: Option<PathBuf>,
    /// A learning-curve file (`<positions> <elo> <low> <high> [<series>]`
    /// lines), if its picture is wanted.
    pub curve: Option<PathBuf>,
    /// The folder the pictures are written to (created if missing).
    pub out: PathBuf,
}

impl Options {
    /// Parses the arguments after `plot`.
    pub fn parse<I>(args: I) -> Result<Parsed<Options>, ArgError>
    where
        I: IntoIterator,
        I::Item: Into<OsString>,
    {
        let (mut params, mut losses, mut curve, mut out) = (None, None, None, None);
        let parsed = for_each_option(args, |flag, args| {
            match flag {
                "--params" => params = Some(PathBuf::from(args.value(flag)?)),
                "--losses" => losses = Some(PathBuf::from(args.value(flag)?)),
                "--curve" => curve = Some(PathBuf::from(args.value(flag)?)),
                "--out" => out = Some(PathBuf::from(args.value(flag)?)),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if parsed == Parsed::Help {
            return Ok(Parsed::Help);
        }
        if params.is_none() && losses.is_none() && curve.is_none() {
            return Err(ArgError::Missing(
                "one of --params <params.txt>, --losses <file.jsonl>, --curve <file>",
            ));
        }
        Ok(Parsed::Run(Options {
            params,
            losses,
            curve,
            out: out.ok_or(ArgError::Missing("--out <dir>"))?,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::split_args as args;

    #[test]
    fn options_take_params_losses_curve_and_out() {
        let parsed = Options::parse(args("--params p.txt --losses=l.log --curve c --out docs"));
        assert_eq!(
            parsed,
            Ok(Parsed::Run(Options {
                params: Some("p.txt".into()),
                losses: Some("l.log".into()),
                curve: Some("c".into()),
                out: "docs".into(),
            }))
        );
        let curve_only = Options::parse(args("--curve c --out d"))
            .unwrap()
            .run()
            .unwrap();
        assert_eq!((curve_only.params, curve_only.losses), (None, None));
        let parsed = Options::parse(args("--out=d --params p"))
            .unwrap()
            .run()
            .unwrap();
        assert_eq!(parsed.losses, None);
        assert_eq!(
            Options::parse(args("--params p")),
            Err(ArgError::Missing("--out <dir>"))
        );
        assert_eq!(
            Options::parse(args("--out d")),
            Err(ArgError::Missing(
                "one of --params <params.txt>, --losses <file.jsonl>, --curve <file>"
            ))
        );
        assert_eq!(Options::parse(args("--help")), Ok(Parsed::Help));
    }
}
