//! Time management: how long to think about one move.
//!
//! Two limits come out of the clock. The *soft* limit is the time the search
//! aims to use: no new iteration starts after it, and it stretches when the
//! best move keeps changing and shrinks when it is stable. The *hard* limit
//! is never exceeded: the search checks it every few thousand nodes and
//! stops mid-iteration. Both leave `Move Overhead` milliseconds in reserve
//! for the GUI, the pipe and the operating system, and the hard limit never
//! takes more than a fixed share of the remaining time, so the engine cannot
//! lose on time while it still has an increment to live on.

use std::time::{Duration, Instant};

use super::limits::{Clock, Limits};
use super::tunables::SearchParams;

/// The time budget of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeManager {
    start: Instant,
    /// Target time in milliseconds (`None`: no time limit).
    soft: Option<u64>,
    /// Absolute maximum in milliseconds (`None`: no time limit).
    hard: Option<u64>,
}

impl TimeManager {
    /// The budget for `limits` at game move `fullmove`, measured from
    /// `start`, by the time-management tunables of `params`.
    pub fn new(
        params: &SearchParams,
        limits: &Limits,
        move_overhead: u64,
        fullmove: u64,
        start: Instant,
    ) -> Self {
        let (soft, hard) = budget(params, limits, move_overhead, fullmove);
        Self { start, soft, hard }
    }

    /// A manager with no time limit.
    pub fn unlimited(start: Instant) -> Self {
        Self {
            start,
            soft: None,
            hard: None,
        }
    }

    /// Restarts the clock (at `ponderhit`, when our own time starts running).
    pub fn restart(&mut self, now: Instant) {
        self.start = now;
    }

    /// Time since the search (or `ponderhit`) started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The soft limit in milliseconds, if any.
    pub fn soft_ms(&self) -> Option<u64> {
        self.soft
    }

    /// The hard limit in milliseconds, if any.
    pub fn hard_ms(&self) -> Option<u64> {
        self.hard
    }

    /// Whether the hard limit has passed: stop now.
    pub fn hard_expired(&self) -> bool {
        self.hard
            .is_some_and(|h| self.elapsed().as_millis() >= u128::from(h))
    }

    /// Whether to stop after a finished iteration. `scale_percent` stretches
    /// (>100) or shrinks (<100) the soft limit; the result stays below the
    /// hard limit.
    pub fn soft_expired(&self, scale_percent: u64) -> bool {
        let Some(soft) = self.soft else { return false };
        let target = (soft.saturating_mul(scale_percent) / 100).min(self.hard.unwrap_or(u64::MAX));
        self.elapsed().as_millis() >= u128::from(target)
    }
}

/// The soft limit's scale in percent for a best move that took
/// `best_nodes` of the root's `total_nodes`: a move that needed most of the
/// search to refute its rivals is rarely overturned, so a large share ends
/// the search sooner and a small one lets it go on (see
/// [`SearchParams::time_node_share_pivot`]).
pub fn node_share_scale(params: &SearchParams, best_nodes: u64, total_nodes: u64) -> u64 {
    let share = if total_nodes == 0 {
        0
    } else {
        // At most 100: `best_nodes` is part of `total_nodes`.
        u64::try_from(u128::from(best_nodes.min(total_nodes)) * 100 / u128::from(total_nodes))
            .unwrap_or(100)
    };
    params.time_node_share_pivot.saturating_sub(share) * params.time_node_share_slope / 100
}

/// The soft limit's scale in percent for an iteration whose score is
/// `score` when the earlier iterations averaged `mean`: a score that fell
/// below its average means the search found trouble, and a little more
/// time is spent to find the way out; one that rose, a little less.
pub fn falling_score_scale(params: &SearchParams, mean: i64, score: i32) -> u64 {
    let fall = mean.saturating_sub(i64::from(score));
    let scale = fall.saturating_mul(params.time_falling_per_cp) / 10 + 100;
    scale.clamp(params.time_falling_min, params.time_falling_max) as u64
}

/// How many more moves a sudden-death game (no increment, no moves-to-go)
/// is expected to last at game move `fullmove`: long games run 60 to 100
/// moves, so the clock is spread thinly early and never over fewer than
/// `time_sudden_death_min` moves.
pub fn sudden_death_moves_left(params: &SearchParams, fullmove: u64) -> u64 {
    params
        .time_sudden_death_moves
        .saturating_sub(fullmove / 2)
        .max(params.time_sudden_death_min)
}

/// Soft and hard limits in milliseconds for `limits` at game move
/// `fullmove`, by the time-management tunables of `params`.
pub fn budget(
    params: &SearchParams,
    limits: &Limits,
    move_overhead: u64,
    fullmove: u64,
) -> (Option<u64>, Option<u64>) {
    // Keep a reserve, but never eat more than half the allotted time.
    let movetime = limits.movetime.map(|movetime| {
        movetime
            .saturating_sub(move_overhead.min(movetime / 2))
            .max(1)
    });
    let clock = limits
        .clock
        .map(|clock| clock_budget(params, clock, move_overhead, fullmove));
    match (movetime, clock) {
        (Some(t), None) => (Some(t), Some(t)),
        // Both: the move time, unless the clock cannot afford it.
        (Some(t), Some((_, hard))) => (Some(t.min(hard)), Some(t.min(hard))),
        (None, Some((soft, hard))) => (Some(soft), Some(hard)),
        (None, None) => (None, None),
    }
}

/// Soft and hard limits in milliseconds for a move on `clock`.
fn clock_budget(
    params: &SearchParams,
    clock: Clock,
    move_overhead: u64,
    fullmove: u64,
) -> (u64, u64) {
    let available = clock.time.saturating_sub(move_overhead);
    let default_moves = if clock.increment == 0 {
        sudden_death_moves_left(params, fullmove)
    } else {
        params.time_moves_to_go
    };
    // `movestogo 0` is no count at all (as Stockfish reads it), not a last
    // move before the control.
    let moves_to_go = clock
        .moves_to_go
        .filter(|&moves| moves > 0)
        .unwrap_or(default_moves)
        .clamp(1, params.time_moves_to_go * 2);
    // On the last move before a time control most of the clock is ours;
    // otherwise cap one move at a fixed share of it.
    let max_share = if moves_to_go == 1 {
        params.time_last_move_share_percent
    } else {
        params.time_max_share_percent
    };
    let cap = available / 100 * max_share + available % 100 * max_share / 100;
    let soft = (available / moves_to_go).saturating_add(clock.increment / 4 * 3);
    let hard = soft.saturating_mul(params.time_hard_factor).min(cap).max(1);
    (soft.min(hard).max(1), hard)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::limits::Clock;

    const P: SearchParams = SearchParams::DEFAULT;

    fn clock(time: u64, increment: u64, moves_to_go: Option<u64>) -> Limits {
        Limits {
            clock: Some(Clock {
                time,
                increment,
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn limits_stay_inside_the_clock() {
        for time in [0, 1, 10, 50, 100, 1_000, 10_000, 600_000] {
            for inc in [0, 10, 100, 2_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let (soft, hard) = budget(&P, &clock(time, inc, mtg), 30, 1);
                    let (soft, hard) = (soft.unwrap(), hard.unwrap());
                    assert!(soft <= hard, "{time} {inc} {mtg:?}");
                    assert!(
                        hard <= time.saturating_sub(30).max(1),
                        "{time} {inc} {mtg:?}: {hard}"
                    );
                }
            }
        }
    }

    #[test]
    fn movestogo_zero_is_no_count_and_movetime_is_capped_by_the_clock() {
        // `movestogo 0` plans as if no count were given, not as a last move.
        assert_eq!(
            budget(&P, &clock(60_000, 0, Some(0)), 30, 10),
            budget(&P, &clock(60_000, 0, None), 30, 10)
        );
        // A move time the clock can afford is searched whole; one it cannot
        // is cut to the clock's hard limit.
        let (_, clock_hard) = budget(&P, &clock(1_000, 0, None), 30, 10);
        let with = |movetime| Limits {
            movetime: Some(movetime),
            ..clock(1_000, 0, None)
        };
        assert_eq!(budget(&P, &with(50), 30, 10), (Some(25), Some(25)));
        assert_eq!(budget(&P, &with(5_000), 30, 10), (clock_hard, clock_hard));
    }

    #[test]
    fn a_dominant_best_move_shortens_the_search() {
        // 90 % of the nodes: 81 %; half of them: 135 %; a tenth: 189 %.
        assert_eq!(node_share_scale(&P, 900, 1_000), 81);
        assert_eq!(node_share_scale(&P, 500, 1_000), 135);
        assert_eq!(node_share_scale(&P, 100, 1_000), 189);
        // No nodes yet, or a count past the total, stay in range.
        assert_eq!(node_share_scale(&P, 0, 0), 202);
        assert_eq!(node_share_scale(&P, 2_000, 1_000), 67);
        assert_eq!(node_share_scale(&P, u64::MAX, u64::MAX), 67);
    }

    #[test]
    fn a_falling_score_lengthens_the_search() {
        // Level: unchanged; 20 cp lower: 130 %; far lower or higher: the
        // bounds.
        assert_eq!(falling_score_scale(&P, 30, 30), 100);
        assert_eq!(falling_score_scale(&P, 30, 10), 130);
        assert_eq!(falling_score_scale(&P, 30, 50), 85);
        assert_eq!(falling_score_scale(&P, i64::MAX, i32::MIN), 150);
        assert_eq!(falling_score_scale(&P, i64::MIN, i32::MAX), 85);
    }

    #[test]
    fn sudden_death_spreads_the_clock() {
        // 60 s, no increment: move 2 gets a fiftieth, not a twenty-fifth.
        let (soft, _) = budget(&P, &clock(60_000, 0, None), 30, 2);
        assert!(soft.unwrap() < 60_000 / 40, "{soft:?}");
        // Late in the game never fewer than 20 moves.
        assert_eq!(sudden_death_moves_left(&P, 200), 20);
        let (soft, hard) = budget(&P, &clock(3_000, 0, None), 30, 57);
        assert!(soft.unwrap() <= 3_000 / 20 && hard.unwrap() <= 3_000 * 4 / 10);
    }

    #[test]
    fn huge_numbers_do_not_overflow() {
        let (soft, hard) = budget(
            &P,
            &clock(u64::MAX, u64::MAX, Some(u64::MAX)),
            u64::MAX,
            u64::MAX,
        );
        assert_eq!((soft, hard), (Some(1), Some(1)));
        let (soft, hard) = budget(&P, &clock(u64::MAX, u64::MAX, None), 30, 1);
        assert!(soft.unwrap() <= hard.unwrap());
        let movetime = Limits {
            movetime: Some(u64::MAX),
            ..Limits::default()
        };
        assert!(budget(&P, &movetime, u64::MAX, 1).0.is_some());
    }

    #[test]
    fn fast_controls_get_small_slices() {
        let (soft, hard) = budget(&P, &clock(1_000, 10, None), 30, 1);
        assert!(soft.unwrap() < 60 && hard.unwrap() < 250);
        assert_eq!(
            budget(
                &P,
                &Limits {
                    movetime: Some(100),
                    ..Limits::default()
                },
                30,
                1
            ),
            (Some(70), Some(70))
        );
        assert_eq!(budget(&P, &Limits::default(), 30, 1), (None, None));
    }
}
