//! The generated piece-square tables, material values and phase weights,
//! parsed from `src/eval/params.txt` by the root build script.
//!
//! The board keeps the piece-square sum up to date as moves are made
//! ([`Board::psqt`](crate::board::Board::psqt)) and the evaluation reads the
//! same tables, so they sit here, below both, and import nothing from the
//! crate. The evaluation's view of them is [`crate::eval::psqt`].
//!
//! `PSQT[colour][piece][square]` holds material plus placement packed as
//! `S(mg, eg)` from White's point of view: Black's entries are already
//! mirrored and negated, so summing the entries of every piece on the board
//! gives White's packed score with no branch on colour and no flipping.

include!(concat!(env!("OUT_DIR"), "/psqt.rs"));

/// The text of the parameter file these tables were built from
/// (`src/eval/params.txt`): where the workshop's tuner starts, so that its
/// fit begins at exactly the weights of the engine it is built with. Only
/// a program that reads it carries it; the engine does not.
pub const PARAMS_TXT: &str = include_str!("eval/params.txt");
