//! The piece-square tables and phase weights, as the evaluation reads them.
//!
//! The tables are defined once, in [`crate::weights`] (below the board,
//! which sums them incrementally); they are re-exported here with a typed
//! lookup.

pub use crate::weights::{MATERIAL_EG, MATERIAL_MG, PHASE_MAX, PHASE_WEIGHTS, PSQT};

use crate::board::{Color, PieceKind, Square};

/// The packed table entry of a `color` `kind` on `square`.
#[inline(always)]
pub fn value(color: Color, kind: PieceKind, square: Square) -> i32 {
    PSQT[color.index()][kind.index()][square.index()]
}
