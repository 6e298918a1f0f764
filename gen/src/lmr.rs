//! The search's late-move-reduction table, `LMR[depth][move_number]`: how
//! many plies a late quiet move is reduced by, `base + ln(depth) *
//! ln(move_number) / divisor`.
//!
//! The table needs logarithms, which are not `const`, so the engine's build
//! script emits it; the two constants that shape it are defined here, once,
//! and emitted with it into the engine's search parameters
//! (`kiln::search::params`), beside every other search tunable.
//!
//! ```
//! assert_eq!(kiln_gen::lmr::reduction(1, 40), 0);
//! assert_eq!(kiln_gen::lmr::reduction(10, 10), 3);
//! assert!(kiln_gen::lmr::source().contains("pub static LMR: [[u8; 64]; 64]"));
//! ```

use std::fmt::Write as _;

/// Late-move reductions: the table is `LMR_BASE + ln(d) * ln(m) / LMR_DIVISOR`,
/// with the base in hundredths (integer constants for the build script).
pub const LMR_BASE_CENTI: i32 = 75;
/// Late-move reductions: the divisor, in hundredths.
pub const LMR_DIVISOR_CENTI: i32 = 225;

/// The reduction in plies at remaining `depth` for the `moves`-th move
/// (0 when either is 0).
pub fn reduction(depth: usize, moves: usize) -> u8 {
    if depth == 0 || moves == 0 {
        return 0;
    }
    let base = f64::from(LMR_BASE_CENTI) / 100.0;
    let divisor = f64::from(LMR_DIVISOR_CENTI) / 100.0;
    let r = base + (depth as f64).ln() * (moves as f64).ln() / divisor;
    r.max(0.0) as u8
}

/// Rust source with the two constants and `pub static LMR: [[u8; 64];
/// 64]`, `LMR[depth][move_number]` (both capped at 63 by the caller).
pub fn source() -> String {
    let mut s = format!(
        "/// Late-move reductions: the table is `LMR_BASE + ln(d) * ln(m) / LMR_DIVISOR`\n\
         /// (in hundredths; defined in `kiln_gen::lmr`, which builds [`LMR`]).\n\
         pub const LMR_BASE_CENTI: i32 = {LMR_BASE_CENTI};\n\
         /// Late-move reductions: divisor, in hundredths (see [`LMR_BASE_CENTI`]).\n\
         pub const LMR_DIVISOR_CENTI: i32 = {LMR_DIVISOR_CENTI};\n\
         /// Late-move reduction in plies, `LMR[depth][move_number]` (both capped\n\
         /// at 63): `base + ln(depth) * ln(move_number) / divisor`.\n\
         pub static LMR: [[u8; 64]; 64] = [\n"
    );
    for depth in 0..64 {
        s.push_str("    [");
        for moves in 0..64 {
            let _ = write!(s, "{}, ", reduction(depth, moves));
        }
        s.push_str("],\n");
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        for depth in 1..64 {
            for moves in 1..64 {
                assert!(reduction(depth, moves) <= reduction(depth, moves + 1));
                assert!(reduction(depth, moves) <= reduction(depth + 1, moves));
            }
        }
        assert_eq!(reduction(0, 30), 0);
        assert_eq!(reduction(63, 63), 8);
    }
}
