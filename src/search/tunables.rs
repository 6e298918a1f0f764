//! Every search tunable in one place, so tuning never hunts through code.
//!
//! The two constants that shape the late-move-reduction table are the one
//! exception in where they are written: the build script computes the table
//! from them (logarithms are not `const`), so they are defined with its
//! generator, in `gen/src/lmr.rs`, and emitted here with the table.

/// Half-width of the first aspiration window around the previous score (cp).
pub const ASPIRATION_WINDOW: i32 = 25;
/// Iterations shallower than this are searched with a full window.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Aspiration windows grow by half on each fail; once the half-width
/// exceeds this (cp), the window is opened fully.
pub const ASPIRATION_MAX_DELTA: i32 = 1000;

/// Reverse futility pruning: deepest remaining depth at which it applies.
pub const RFP_MAX_DEPTH: i32 = 8;
/// Reverse futility pruning: margin per ply of remaining depth (cp).
pub const RFP_MARGIN: i32 = 75;

/// Null-move pruning: minimum remaining depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null-move pruning: base reduction.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// Null-move pruning: extra reduction per this many plies of depth.
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null-move pruning: extra reduction per this many centipawns of static
/// evaluation above beta ...
pub const NMP_EVAL_DIVISOR: i32 = 200;
/// ... but at most this many plies.
pub const NMP_EVAL_MAX_REDUCTION: i32 = 3;
/// Null-move pruning: from this remaining depth on, a null-move cut-off
/// is only taken once a reduced search without null moves confirms it (a
/// wrong cut-off there throws away the most work). With exactly one piece
/// besides pawns and king, where zugzwang is common, every null-move
/// cut-off is verified (with none, the null move is not tried at all).
pub const NMP_VERIFY_DEPTH: i32 = 12;

/// Razoring: deepest remaining depth at which it applies.
pub const RAZOR_MAX_DEPTH: i32 = 2;
/// Razoring: margin per ply of remaining depth (cp).
pub const RAZOR_MARGIN: i32 = 250;

/// Futility pruning of quiet moves: deepest depth, counted after the move's
/// late-move reduction (as are the margins below).
pub const FUTILITY_MAX_DEPTH: i32 = 6;
/// Futility pruning: base margin (cp).
pub const FUTILITY_BASE: i32 = 80;
/// Futility pruning: margin per ply of reduced depth (cp).
pub const FUTILITY_PER_DEPTH: i32 = 90;

/// Late-move pruning: deepest remaining depth.
pub const LMP_MAX_DEPTH: i32 = 8;
/// Late-move pruning: quiet moves allowed at depth d are `LMP_BASE + d * d`.
pub const LMP_BASE: i32 = 3;

/// History pruning of quiet moves: deepest depth, counted after the move's
/// late-move reduction.
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 4;
/// History pruning: a plain quiet move whose history score is below minus
/// this per ply of reduced depth is not searched.
pub const HISTORY_PRUNE_MARGIN: i32 = 250;

/// SEE pruning of quiet moves: margin per ply (cp, negative).
pub const SEE_QUIET_MARGIN: i32 = -60;
/// SEE pruning of captures: margin per ply squared (cp, negative).
pub const SEE_CAPTURE_MARGIN: i32 = -20;
/// SEE pruning: deepest remaining depth.
pub const SEE_MAX_DEPTH: i32 = 8;

// Late-move reductions: `LMR_BASE_CENTI`, `LMR_DIVISOR_CENTI` (edit them in
// gen/src/lmr.rs) and the table `LMR[depth][move_number]` built from them.
include!(concat!(env!("OUT_DIR"), "/lmr.rs"));
/// Late-move reductions: minimum remaining depth.
pub const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions: one ply less per this much history score (more
/// for a move with a negative score).
pub const LMR_HISTORY_DIVISOR: i32 = 8000;

/// Late-move reductions: a reduced search that beats the best score so far
/// by more than this (cp) plus `LMR_DEEPER_PER_PLY` per ply of reduction is
/// re-searched one ply deeper than planned.
pub const LMR_DEEPER_MARGIN: i32 = 50;
/// Late-move reductions: see `LMR_DEEPER_MARGIN`.
pub const LMR_DEEPER_PER_PLY: i32 = 10;

/// Internal iterative reduction: minimum depth at which a node without a TT
/// move is searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extensions: minimum remaining depth.
pub const SE_MIN_DEPTH: i32 = 8;
/// Singular extensions: the other moves must stay this many centipawns per
/// ply of depth below the TT move's score.
pub const SE_MARGIN_PER_DEPTH: i32 = 2;
/// Singular extensions: the TT entry may be at most this many plies
/// shallower than the node.
pub const SE_TT_DEPTH_MARGIN: i32 = 3;

/// Quiescence delta pruning margin (cp).
pub const DELTA_MARGIN: i32 = 200;

/// History scores are kept within ±`HISTORY_MAX` (gravity formula).
pub const HISTORY_MAX: i32 = 16_384;
/// History bonus of a cut-off at depth d: this times d, ...
pub const HISTORY_BONUS_PER_DEPTH: i32 = 200;
/// ... less this, ...
pub const HISTORY_BONUS_OFFSET: i32 = 100;
/// ... but at most this.
pub const HISTORY_BONUS_MAX: i32 = HISTORY_MAX / 4;

/// Time management: share of the remaining time for one move when no
/// `movestogo` is given (the divisor).
pub const TIME_MOVES_TO_GO: u64 = 25;
/// Time management in sudden death (no increment, no moves-to-go): the
/// moves still to play are estimated as this minus half the move number ...
pub const TIME_SUDDEN_DEATH_MOVES: u64 = 50;
/// ... but never fewer than this.
pub const TIME_SUDDEN_DEATH_MIN: u64 = 20;
/// Time management: the hard limit is this many times the soft limit ...
pub const TIME_HARD_FACTOR: u64 = 4;
/// ... but never more than this share of the remaining time (percent).
pub const TIME_MAX_SHARE_PERCENT: u64 = 40;
/// ... or, on the last move before a time control, this share.
pub const TIME_LAST_MOVE_SHARE_PERCENT: u64 = 75;
/// Time management: the soft limit, in percent, after 0, 1, 2 and 3 or more
/// iterations in a row with the same best move (a best move that keeps
/// changing earns more time, a stable one less).
pub const TIME_STABILITY_SCALE: [u64; 4] = [150, 110, 90, 70];
/// Time management: the soft limit is also scaled by how much of the
/// search the best move took. With `s` its share of the root's nodes in
/// percent, the scale is `(TIME_NODE_SHARE_PIVOT - s) ·
/// TIME_NODE_SHARE_SLOPE / 100` percent: 81 % when the best move took 90 %
/// of the nodes (little left to doubt), 162 % when it took 30 % (the
/// alternatives kept the search busy).
pub const TIME_NODE_SHARE_PIVOT: u64 = 150;
/// ... the slope of that line (percent).
pub const TIME_NODE_SHARE_SLOPE: u64 = 135;
/// Time management: the soft limit grows by this many tenths of a percent
/// per centipawn the best line's score fell below the mean of the earlier
/// iterations' scores (and shrinks as much per centipawn it rose) ...
pub const TIME_FALLING_PER_CP: i64 = 15;
/// ... but stays within these bounds (percent).
pub const TIME_FALLING_MIN: i64 = 85;
/// ... (see [`TIME_FALLING_MIN`]).
pub const TIME_FALLING_MAX: i64 = 150;

/// Correction history: entries are kept in 1/`CORRECTION_GRAIN` centipawns.
pub const CORRECTION_GRAIN: i32 = 256;
/// Correction history: the largest entry, 32 centipawns (in grains). The
/// correction applied is the pawn entry plus the mean of the two non-pawn
/// entries, so at most twice this.
pub const CORRECTION_LIMIT: i32 = 32 * CORRECTION_GRAIN;
/// Correction history: the weight (out of 256) of one new result is
/// `(depth + 1)²`, at most this.
pub const CORRECTION_MAX_WEIGHT: i32 = 128;
