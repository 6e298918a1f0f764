//! The generated piece-square tables, material values and phase weights,
//! parsed from `src/eval/params.txt` by the root build script, with a typed
//! lookup.
//!
//! `PSQT[colour][piece][square]` holds material plus placement packed as
//! `S(mg, eg)` from White's point of view: Black's entries are already
//! mirrored and negated, so summing the entries of every piece on the board
//! gives White's packed score with no branch on colour and no flipping.

include!(concat!(env!("OUT_DIR"), "/psqt.rs"));

use kiln_board::{Color, PieceKind, Square};

/// The packed table entry of a `color` `kind` on `square`.
#[inline(always)]
pub fn value(color: Color, kind: PieceKind, square: Square) -> i32 {
    PSQT[color.index()][kind.index()][square.index()]
}
