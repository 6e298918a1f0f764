//! Every search tunable in one place, so tuning never hunts through code.
//!
//! The tunables are the fields of [`SearchParams`], whose
//! [`DEFAULT`](SearchParams::DEFAULT) holds the values the engine plays
//! with. Each [`Searcher`](super::Searcher) owns a copy and the search
//! reads its fields (plain loads, like the constants they replaced); a
//! build with the cargo feature `spsa` lets UCI `setoption` change them
//! (`src/uci/options.rs`) for OpenBench's SPSA tuner, and any build can
//! set them through [`Searcher::set_params`](super::Searcher::set_params).
//!
//! One table below, the `search_params!` invocation, states each
//! tunable once: its documentation, type, default and the range a tuner
//! may move it in (about half to double the default, narrower where a
//! value outside would break an invariant the search relies on; each
//! exception is noted). The same table gives the UCI options and the
//! SPSA input lines ([`TUNABLES`]).
//!
//! The late-move-reduction table, `[depth][move_number]`, follows from two
//! of the tunables ([`LmrTable::new`]); each searcher builds its own before
//! its first search and again when those two change. That is per-search
//! state, like the history tables, not one of the global lookup tables that
//! Kiln computes at build time only (`tests/no_runtime_init.rs`): nothing
//! global is initialised at runtime.
//!
//! Two numbers here are units, not tunables, and stay constants:
//! [`HISTORY_MAX`] (the scale every history number is measured against)
//! and [`CORRECTION_GRAIN`] (the fixed-point resolution of the correction
//! history). Changing either would only rescale the tunables measured in
//! it.

/// History scores are kept within ±`HISTORY_MAX` (gravity formula): the
/// scale of the history numbers below, a unit rather than a tunable.
pub const HISTORY_MAX: i32 = 16_384;

/// Correction history: entries are kept in 1/`CORRECTION_GRAIN` centipawns
/// (a fixed-point unit, not a tunable).
pub const CORRECTION_GRAIN: i32 = 256;

/// The final learning rate (`r_end`) of every tunable in OpenBench's SPSA
/// input, the value OpenBench's documentation suggests.
pub const SPSA_R_END: f64 = 0.002;

/// A tunable's type, seen through `i64` by the option and SPSA code.
trait Value: Copy {
    fn to_i64(self) -> i64;
    fn from_i64(value: i64) -> Self;
}

impl Value for i32 {
    fn to_i64(self) -> i64 {
        i64::from(self)
    }
    fn from_i64(value: i64) -> Self {
        value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }
}

impl Value for i64 {
    fn to_i64(self) -> i64 {
        self
    }
    fn from_i64(value: i64) -> Self {
        value
    }
}

impl Value for u64 {
    fn to_i64(self) -> i64 {
        i64::try_from(self).unwrap_or(i64::MAX)
    }
    fn from_i64(value: i64) -> Self {
        value.max(0) as u64
    }
}

/// One tunable as a tuner sees it: its name (the [`SearchParams`] field's,
/// which is also its UCI option's and its SPSA name), its range, and how to
/// read and write it.
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    /// The field's name: the UCI option and the SPSA parameter.
    pub name: &'static str,
    /// Smallest value a tuner may set.
    pub min: i64,
    /// Largest value a tuner may set.
    pub max: i64,
    get: fn(&SearchParams) -> i64,
    set: fn(&mut SearchParams, i64),
}

impl Tunable {
    /// The value in `params`.
    pub fn get(&self, params: &SearchParams) -> i64 {
        (self.get)(params)
    }

    /// The engine's value ([`SearchParams::DEFAULT`]).
    pub fn default_value(&self) -> i64 {
        self.get(&SearchParams::DEFAULT)
    }

    /// Sets the value in `params` to `value` brought into the range, and
    /// returns the value set.
    pub fn set(&self, params: &mut SearchParams, value: i64) -> i64 {
        let value = value.clamp(self.min, self.max);
        (self.set)(params, value);
        value
    }

    /// The final perturbation size (`c_end`) of OpenBench's SPSA: a
    /// twentieth of the range, at least half a step (the tuner rounds
    /// integer parameters, so a smaller one would never move them).
    pub fn c_end(&self) -> f64 {
        ((self.max - self.min) as f64 / 20.0).max(0.5)
    }

    /// OpenBench's SPSA input line for this tunable starting at `value`:
    /// `name, int, value, min, max, c_end, r_end`.
    pub fn spsa_line(&self, value: i64) -> String {
        format!(
            "{}, int, {value}, {}, {}, {}, {SPSA_R_END}",
            self.name,
            self.min,
            self.max,
            self.c_end()
        )
    }
}

/// Declares [`SearchParams`] with one field per tunable, its
/// [`DEFAULT`](SearchParams::DEFAULT), and [`TUNABLES`], from one table:
/// `/// doc` lines, then `name: type = default, min..=max;`.
macro_rules! search_params {
    ($( $(#[doc = $doc:literal])* $field:ident : $ty:ty = $default:expr, $min:literal ..= $max:literal; )*) => {
        /// Every search tunable (see the [module documentation](self)).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[doc = $doc])* pub $field: $ty, )*
        }

        impl SearchParams {
            /// The values the engine plays with.
            pub const DEFAULT: SearchParams = SearchParams { $( $field: $default, )* };
        }

        /// Every tunable with its range, in the order of [`SearchParams`].
        pub const TUNABLES: &[Tunable] = &[
            $(
                Tunable {
                    name: stringify!($field),
                    min: $min,
                    max: $max,
                    get: |p| Value::to_i64(p.$field),
                    set: |p, v| p.$field = <$ty as Value>::from_i64(v),
                },
            )*
        ];
    };
}

search_params! {
    /// Half-width of the first aspiration window around the previous score (cp).
    aspiration_window: i32 = 25, 10..=50;
    /// Iterations shallower than this are searched with a full window.
    aspiration_min_depth: i32 = 5, 2..=10;
    /// Aspiration windows grow by half on each fail; once the half-width
    /// exceeds this (cp), the window is opened fully.
    aspiration_max_delta: i32 = 1000, 500..=2000;

    /// Reverse futility pruning: deepest remaining depth at which it applies.
    rfp_max_depth: i32 = 8, 4..=16;
    /// Reverse futility pruning: margin per ply of remaining depth (cp).
    rfp_margin: i32 = 75, 35..=150;

    /// Null-move pruning: minimum remaining depth.
    nmp_min_depth: i32 = 3, 1..=6;
    /// Null-move pruning: base reduction.
    nmp_base_reduction: i32 = 3, 1..=6;
    /// Null-move pruning: extra reduction per this many plies of depth.
    nmp_depth_divisor: i32 = 4, 2..=8;
    /// Null-move pruning: extra reduction per this many centipawns of static
    /// evaluation above beta ...
    nmp_eval_divisor: i32 = 200, 100..=400;
    /// ... but at most this many plies.
    nmp_eval_max_reduction: i32 = 3, 1..=6;
    /// Null-move pruning: from this remaining depth on, a null-move cut-off
    /// is only taken once a reduced search without null moves confirms it (a
    /// wrong cut-off there throws away the most work). With exactly one piece
    /// besides pawns and king, where zugzwang is common, every null-move
    /// cut-off is verified (with none, the null move is not tried at all).
    nmp_verify_depth: i32 = 12, 6..=24;

    /// Razoring: deepest remaining depth at which it applies.
    razor_max_depth: i32 = 2, 1..=4;
    /// Razoring: margin per ply of remaining depth (cp).
    razor_margin: i32 = 250, 125..=500;

    /// Futility pruning of quiet moves: deepest depth, counted after the move's
    /// late-move reduction (as are the margins below).
    futility_max_depth: i32 = 6, 3..=12;
    /// Futility pruning: base margin (cp).
    futility_base: i32 = 80, 40..=160;
    /// Futility pruning: margin per ply of reduced depth (cp).
    futility_per_depth: i32 = 90, 45..=180;

    /// Late-move pruning: deepest remaining depth.
    lmp_max_depth: i32 = 8, 4..=16;
    /// Late-move pruning: quiet moves allowed at depth d are `lmp_base + d * d`
    /// (half that without improvement).
    lmp_base: i32 = 3, 1..=6;

    /// History pruning of quiet moves: deepest depth, counted after the move's
    /// late-move reduction.
    history_prune_max_depth: i32 = 4, 2..=8;
    /// History pruning: a plain quiet move whose history score is below minus
    /// this per ply of reduced depth is not searched.
    history_prune_margin: i32 = 250, 125..=500;

    /// SEE pruning of quiet moves: margin per ply (cp, negative).
    see_quiet_margin: i32 = -60, -120..=-30;
    /// SEE pruning of captures: margin per ply squared (cp, negative).
    see_capture_margin: i32 = -20, -40..=-10;
    /// SEE pruning: deepest remaining depth.
    see_max_depth: i32 = 8, 4..=16;

    /// Late-move reductions: the table ([`LmrTable`]) is
    /// `lmr_base + ln(depth) * ln(move_number) / lmr_divisor`, with the base
    /// in hundredths of a ply ...
    lmr_base_centi: i32 = 75, 35..=150;
    /// ... and the divisor in hundredths.
    lmr_divisor_centi: i32 = 225, 110..=450;
    /// Late-move reductions: minimum remaining depth (at least 2: a move
    /// searched at depth 1 after the move has no ply to reduce).
    lmr_min_depth: i32 = 3, 2..=6;
    /// Late-move reductions: one ply less per this much history score (more
    /// for a move with a negative score).
    lmr_history_divisor: i32 = 8000, 4000..=16000;
    /// Late-move reductions: a reduced search that beats the best score so far
    /// by more than this (cp) plus `lmr_deeper_per_ply` per ply of reduction
    /// is re-searched one ply deeper than planned.
    lmr_deeper_margin: i32 = 50, 25..=100;
    /// Late-move reductions: see `lmr_deeper_margin`.
    lmr_deeper_per_ply: i32 = 10, 5..=20;

    /// Internal iterative reduction: minimum depth at which a node without a TT
    /// move is searched one ply shallower.
    iir_min_depth: i32 = 4, 2..=8;

    /// Singular extensions: minimum remaining depth.
    se_min_depth: i32 = 8, 4..=16;
    /// Singular extensions: the other moves must stay this many centipawns per
    /// ply of depth below the TT move's score.
    se_margin_per_depth: i32 = 2, 1..=4;
    /// Singular extensions: the TT entry may be at most this many plies
    /// shallower than the node.
    se_tt_depth_margin: i32 = 3, 1..=6;

    /// Quiescence delta pruning margin (cp).
    delta_margin: i32 = 200, 100..=400;

    /// History bonus of a cut-off at depth d: this times d, ...
    history_bonus_per_depth: i32 = 200, 100..=400;
    /// ... less this, ...
    history_bonus_offset: i32 = 100, 50..=200;
    /// ... but at most this (at most half of [`HISTORY_MAX`], so that one
    /// update never overshoots the gravity formula's bound).
    history_bonus_max: i32 = HISTORY_MAX / 4, 2048..=8192;

    /// Time management: share of the remaining time for one move when no
    /// `movestogo` is given (the divisor).
    time_moves_to_go: u64 = 25, 12..=50;
    /// Time management in sudden death (no increment, no moves-to-go): the
    /// moves still to play are estimated as this minus half the move number ...
    time_sudden_death_moves: u64 = 50, 25..=100;
    /// ... but never fewer than this.
    time_sudden_death_min: u64 = 20, 10..=40;
    /// Time management: the hard limit is this many times the soft limit ...
    time_hard_factor: u64 = 4, 2..=8;
    /// ... but never more than this share of the remaining time (percent) ...
    time_max_share_percent: u64 = 40, 20..=80;
    /// ... or, on the last move before a time control, this share (at most
    /// 95 %: the rest is the margin of the move's own overhead).
    time_last_move_share_percent: u64 = 75, 40..=95;
    /// Time management: the soft limit, in percent, after 0 iterations in a
    /// row with the same best move (a best move that keeps changing earns
    /// more time, a stable one less) ...
    time_stability_0: u64 = 150, 75..=300;
    /// ... after 1 ...
    time_stability_1: u64 = 110, 55..=220;
    /// ... after 2 ...
    time_stability_2: u64 = 90, 45..=180;
    /// ... and after 3 or more.
    time_stability_3: u64 = 70, 35..=140;
    /// Time management: the soft limit is also scaled by how much of the
    /// search the best move took. With `s` its share of the root's nodes in
    /// percent, the scale is `(time_node_share_pivot - s) ·
    /// time_node_share_slope / 100` percent: 81 % when the best move took
    /// 90 % of the nodes (little left to doubt), 162 % when it took 30 %
    /// (the alternatives kept the search busy). The pivot stays above 100,
    /// so the scale never reaches zero.
    time_node_share_pivot: u64 = 150, 110..=300;
    /// ... the slope of that line (percent).
    time_node_share_slope: u64 = 135, 65..=270;
    /// Time management: the soft limit grows by this many tenths of a percent
    /// per centipawn the best line's score fell below the mean of the earlier
    /// iterations' scores (and shrinks as much per centipawn it rose) ...
    time_falling_per_cp: i64 = 15, 7..=30;
    /// ... but stays within these bounds (percent; the two ranges do not
    /// overlap, so the lower bound stays below the upper one) ...
    time_falling_min: i64 = 85, 50..=100;
    /// ... (see `time_falling_min`).
    time_falling_max: i64 = 150, 100..=300;

    /// Correction history: the largest entry, in centipawns (kept in grains,
    /// [`CORRECTION_GRAIN`]). The correction applied is the pawn entry plus
    /// the mean of the two non-pawn entries, so at most twice this.
    correction_limit_cp: i32 = 32, 16..=64;
    /// Correction history: the weight (out of 256) of one new result is
    /// `(depth + 1)²`, at most this.
    correction_max_weight: i32 = 128, 64..=256;
}

impl Default for SearchParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl SearchParams {
    /// The history bonus earned by a quiet move that proved good at a node
    /// searched `depth` plies deep (and the malus of those that did not).
    /// The gravity update keeps entries within ±[`HISTORY_MAX`] whatever
    /// the bonus, so its size sets only how fast the tables follow the
    /// search; linear in depth, shallow cut-offs, the most numerous, still
    /// move them.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (depth * self.history_bonus_per_depth - self.history_bonus_offset)
            .clamp(0, self.history_bonus_max)
    }

    /// The soft limit's scale in percent after `stable` iterations in a row
    /// with the same best move (`time_stability_0` .. `time_stability_3`).
    pub fn time_stability(&self, stable: usize) -> u64 {
        match stable {
            0 => self.time_stability_0,
            1 => self.time_stability_1,
            2 => self.time_stability_2,
            _ => self.time_stability_3,
        }
    }

    /// The tunable called `name` (ASCII case ignored, as UCI option names
    /// are).
    pub fn tunable(name: &str) -> Option<&'static Tunable> {
        TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
    }

    /// OpenBench's SPSA input, one line per tunable starting from these
    /// values: `name, int, value, min, max, c_end, r_end`.
    pub fn spsa_lines(&self) -> Vec<String> {
        TUNABLES.iter().map(|t| t.spsa_line(t.get(self))).collect()
    }
}

/// Moves counted by the late-move-reduction table (and depths): larger ones
/// use the last entry.
const LMR_SIZE: usize = 64;

/// Late-move reduction in plies by remaining depth and move number (both
/// capped at 63): `base + ln(depth) * ln(move_number) / divisor`, rounded
/// down, 0 when either is 0.
///
/// Each searcher holds one, built from its [`SearchParams`]
/// (`lmr_base_centi`, `lmr_divisor_centi`) by [`LmrTable::update`] when it
/// prepares a search and the table is not yet the one of its parameters:
/// at its first search, and after the two constants change. Building it
/// costs about 55,000 instructions, which a searcher that never searches
/// (`kiln` answering `uci` and `quit`) does not pay. The table is 4 KiB of
/// per-search state inside the searcher, so a lookup is one load from it,
/// as from the static it replaced; it is not a global table (those Kiln
/// only ever builds at compile time).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LmrTable {
    reductions: [[u8; LMR_SIZE]; LMR_SIZE],
    /// `(lmr_base_centi, lmr_divisor_centi)` of the table; `None` before it
    /// is first built.
    shape: Option<(i32, i32)>,
}

impl LmrTable {
    /// A table not built yet: every reduction 0 until [`update`](Self::update).
    pub const fn unbuilt() -> Self {
        Self {
            reductions: [[0; LMR_SIZE]; LMR_SIZE],
            shape: None,
        }
    }

    /// The table for a base and a divisor in hundredths of a ply.
    pub fn new(base_centi: i32, divisor_centi: i32) -> Self {
        let base = f64::from(base_centi) / 100.0;
        let divisor = f64::from(divisor_centi) / 100.0;
        // Row and column 0 stay 0; the logarithms are taken once each.
        let mut ln = [0.0f64; LMR_SIZE];
        for (n, l) in ln.iter_mut().enumerate().skip(1) {
            *l = (n as f64).ln();
        }
        let mut reductions = [[0u8; LMR_SIZE]; LMR_SIZE];
        for (row, ln_depth) in reductions.iter_mut().zip(ln).skip(1) {
            for (entry, ln_moves) in row.iter_mut().zip(ln).skip(1) {
                let r = base + ln_depth * ln_moves / divisor;
                *entry = r.max(0.0) as u8;
            }
        }
        Self {
            reductions,
            shape: Some((base_centi, divisor_centi)),
        }
    }

    /// The table of `params`.
    pub fn from_params(params: &SearchParams) -> Self {
        Self::new(params.lmr_base_centi, params.lmr_divisor_centi)
    }

    /// Makes this the table of `params`, rebuilding it only if it is not.
    pub fn update(&mut self, params: &SearchParams) {
        if self.shape != Some((params.lmr_base_centi, params.lmr_divisor_centi)) {
            *self = Self::from_params(params);
        }
    }

    /// Whether this is the table of `params`.
    pub fn is_for(&self, params: &SearchParams) -> bool {
        self.shape == Some((params.lmr_base_centi, params.lmr_divisor_centi))
    }

    /// The reduction of the `move_number`-th move (counting from 1) at
    /// `depth` plies, before a node's adjustments.
    #[inline(always)]
    pub fn reduction(&self, depth: i32, move_number: i32) -> i32 {
        let max = LMR_SIZE as i32 - 1;
        i32::from(self.reductions[depth.clamp(0, max) as usize][move_number.clamp(0, max) as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_range_holds_its_default_and_names_are_unique() {
        for (i, t) in TUNABLES.iter().enumerate() {
            let d = t.default_value();
            assert!(
                t.min <= d && d <= t.max,
                "{}: {} not in {}..={}",
                t.name,
                d,
                t.min,
                t.max
            );
            assert!(t.min < t.max, "{}", t.name);
            assert!(
                TUNABLES[..i]
                    .iter()
                    .all(|o| !o.name.eq_ignore_ascii_case(t.name)),
                "{} twice",
                t.name
            );
        }
    }

    #[test]
    fn setting_a_tunable_clamps_and_reads_back() {
        let mut p = SearchParams::DEFAULT;
        let t = SearchParams::tunable("RFP_MARGIN").expect("rfp_margin");
        assert_eq!(t.set(&mut p, 100), 100);
        assert_eq!(p.rfp_margin, 100);
        assert_eq!(t.set(&mut p, 1_000_000), t.max);
        assert_eq!(t.get(&p), t.max);
        let see = SearchParams::tunable("see_quiet_margin").expect("see_quiet_margin");
        assert_eq!(see.set(&mut p, -70), -70);
        assert_eq!(p.see_quiet_margin, -70);
        assert_eq!(see.set(&mut p, 0), see.max);
        let time = SearchParams::tunable("time_stability_2").expect("time_stability_2");
        time.set(&mut p, 100);
        assert_eq!(p.time_stability(2), 100);
    }

    #[test]
    fn a_table_is_rebuilt_only_for_other_constants() {
        let mut table = LmrTable::unbuilt();
        let mut params = SearchParams::DEFAULT;
        assert!(!table.is_for(&params));
        assert_eq!(table.reduction(40, 40), 0);
        table.update(&params);
        assert!(table.is_for(&params));
        assert_eq!(table, LmrTable::new(75, 225));
        params.lmr_base_centi = 150;
        assert!(!table.is_for(&params));
        table.update(&params);
        assert_eq!(table, LmrTable::new(150, 225));
        assert_eq!(table.reduction(1, 1), 1);
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let t = LmrTable::from_params(&SearchParams::DEFAULT);
        for depth in 1..63 {
            for moves in 1..63 {
                assert!(t.reduction(depth, moves) <= t.reduction(depth, moves + 1));
                assert!(t.reduction(depth, moves) <= t.reduction(depth + 1, moves));
            }
        }
        assert_eq!(t.reduction(0, 30), 0);
        assert_eq!(t.reduction(63, 63), 8);
        assert_eq!(t.reduction(1000, 1000), 8);
        assert_eq!(t.reduction(-5, 10), 0);
    }
}
