//! CECP time controls and their translation into search [`Limits`].
//!
//! XBoard describes time in three ways: conventional (`level 40 5 0`: 40
//! moves in 5 minutes, repeating), incremental (`level 0 2:30 1`: the whole
//! game in 2½ minutes plus 1 second a move) and fixed time per move
//! (`st 10`). Before each move it sends the engine's clock with `time`
//! (centiseconds). The search's own time manager does the budgeting; this
//! module only fills in the [`Clock`] it reads (remaining time, increment,
//! moves until the next control) or a fixed `movetime`.
//!
//! One thing only the protocol layer can see is *lag*: the time the GUI
//! charges for a move beyond what the search used (pipes, scheduling on a
//! busy machine, the GUI itself). `time` reveals it: the clock before a move,
//! plus what the control credits, minus the next `time` reading is what the
//! GUI charged. The engine measures it, and [`TimeControl::limits`] keeps
//! that much in reserve for each of the coming moves, so a loaded machine
//! cannot run the clock down in a long sudden-death game.

use crate::search::limits::{Clock, Limits};

use super::command::CommandError;

/// Sudden death without increment (`level 0 BASE 0`) gives no moves-to-go
/// and no income, and running out loses: the clock is spread over an
/// estimate of the moves left, `SUDDEN_DEATH_MOVES - moves_made / 2`, but at
/// least [`SUDDEN_DEATH_MIN_MOVES`]. (The search's default of 25 spent 12 %
/// of a one-minute game on move 2 and left too little for 80-move games.)
pub const SUDDEN_DEATH_MOVES: u32 = 50;
/// See [`SUDDEN_DEATH_MOVES`].
pub const SUDDEN_DEATH_MIN_MOVES: u32 = 20;

/// How many future moves' lag the clock keeps in reserve. In sudden death
/// nobody knows how long the game will last; games of 60–80 moves are common
/// and each move costs the lag however fast the search is.
pub const LAG_HORIZON_MOVES: u64 = 40;

/// How the game is timed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// `level MPS BASE INC`: `moves` per period (0: the whole game),
    /// `base_ms` per period, `increment_ms` added after every move.
    Level {
        /// Moves per time-control period; 0 means one period for the whole game.
        moves: u32,
        /// Time per period in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        increment_ms: u64,
    },
    /// `st TIME`: at most this many milliseconds for every move.
    MoveTime(u64),
}

impl Default for TimeControl {
    /// 40 moves in 5 minutes, XBoard's own default, until the GUI says
    /// otherwise.
    fn default() -> Self {
        TimeControl::Level {
            moves: 40,
            base_ms: 300_000,
            increment_ms: 0,
        }
    }
}

impl TimeControl {
    /// The clock at the start of a game (the base time; for `st`, the time
    /// per move).
    pub fn initial_ms(&self) -> u64 {
        match *self {
            TimeControl::Level { base_ms, .. } => base_ms,
            TimeControl::MoveTime(ms) => ms,
        }
    }

    /// Search limits for the engine's next move, given its clock
    /// (`own_ms`), the moves it has made in the game (`moves_made`), the `sd` depth limit and the measured lag per move
    /// (`lag_ms`, beyond what the increment covers, is reserved for each of
    /// up to [`LAG_HORIZON_MOVES`] coming moves).
    pub fn limits(&self, own_ms: u64, moves_made: u32, depth: Option<i32>, lag_ms: u64) -> Limits {
        let mut limits = Limits {
            depth,
            ..Limits::default()
        };
        match *self {
            TimeControl::MoveTime(ms) => limits.movetime = Some(ms),
            TimeControl::Level {
                moves,
                increment_ms,
                ..
            } => {
                let moves_to_go = if moves > 0 {
                    Some(u64::from(moves - moves_made % moves))
                } else if increment_ms == 0 {
                    let estimate = SUDDEN_DEATH_MOVES.saturating_sub(moves_made / 2);
                    Some(u64::from(estimate.max(SUDDEN_DEATH_MIN_MOVES)))
                } else {
                    None
                };
                let horizon = moves_to_go
                    .unwrap_or(LAG_HORIZON_MOVES)
                    .clamp(1, LAG_HORIZON_MOVES);
                let reserve = lag_ms.saturating_sub(increment_ms) * (horizon - 1);
                limits.clock = Some(Clock {
                    time: own_ms.saturating_sub(reserve),
                    increment: increment_ms,
                    moves_to_go,
                })
            }
        }
        limits
    }

    /// The engine's clock after a move that took `elapsed_ms`, when the GUI
    /// does not send `time` (typing at a terminal): the increment is added,
    /// and a new period's base time when `moves_made` (counting this move)
    /// completes one.
    pub fn clock_after_move(&self, own_ms: u64, elapsed_ms: u64, moves_made: u32) -> u64 {
        match *self {
            TimeControl::MoveTime(ms) => ms,
            TimeControl::Level { .. } => own_ms
                .saturating_sub(elapsed_ms)
                .saturating_add(self.credit_after_move(moves_made)),
        }
    }

    /// Time added to the clock after a move: the increment, plus a new
    /// period's base time when `moves_made` (counting this move) completes
    /// one. Nothing under `st`, where the clock does not carry over.
    pub fn credit_after_move(&self, moves_made: u32) -> u64 {
        match *self {
            TimeControl::MoveTime(_) => 0,
            TimeControl::Level {
                moves,
                base_ms,
                increment_ms,
            } => {
                let period = if moves > 0 && moves_made.is_multiple_of(moves) {
                    base_ms
                } else {
                    0
                };
                increment_ms.saturating_add(period)
            }
        }
    }
}

/// Parses the arguments of `level MPS BASE INC`. BASE is minutes or
/// `minutes:seconds`, and anything after that (a future extension such
/// as `25+5`) is ignored, as the protocol asks; INC is seconds and may
/// have a fraction.
pub fn parse_level(args: &str) -> Result<TimeControl, CommandError> {
    let mut words = args.split_whitespace();
    let (Some(mps), Some(base), Some(inc)) = (words.next(), words.next(), words.next()) else {
        return Err(CommandError::MissingArgument(
            "level arguments (MPS BASE INC)",
        ));
    };
    if words.next().is_some() {
        return Err(CommandError::BadArgument("level: too many arguments"));
    }
    let moves = mps
        .parse::<u32>()
        .map_err(|_| CommandError::BadArgument("level moves per period"))?;
    let base_ms = parse_base(base).ok_or(CommandError::BadArgument("level base time"))?;
    let increment_ms = parse_seconds(inc).ok_or(CommandError::BadArgument("level increment"))?;
    Ok(TimeControl::Level {
        moves,
        base_ms,
        increment_ms,
    })
}

/// `MIN` or `MIN:SEC` (either may have a fraction) in milliseconds;
/// trailing characters after the number are ignored.
fn parse_base(text: &str) -> Option<u64> {
    let numeric_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ':'))
        .unwrap_or(text.len());
    let text = &text[..numeric_end];
    let (minutes, seconds) = match text.split_once(':') {
        Some((m, s)) => (m, Some(s)),
        None => (text, None),
    };
    let minutes = non_negative(minutes)?;
    let seconds = match seconds {
        Some(s) => non_negative(s)?,
        None => 0.0,
    };
    to_ms(minutes * 60.0 + seconds)
}

/// Seconds (possibly fractional) in milliseconds.
pub fn parse_seconds(text: &str) -> Option<u64> {
    to_ms(non_negative(text)?)
}

fn non_negative(text: &str) -> Option<f64> {
    let value = text.parse::<f64>().ok()?;
    (value.is_finite() && value >= 0.0).then_some(value)
}

/// Seconds to milliseconds, refusing absurd values (more than a year).
fn to_ms(seconds: f64) -> Option<u64> {
    (seconds <= 3.2e7).then(|| (seconds * 1000.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_forms() {
        assert_eq!(
            parse_level("40 5 0"),
            Ok(TimeControl::Level {
                moves: 40,
                base_ms: 300_000,
                increment_ms: 0
            })
        );
        assert_eq!(
            parse_level("0 2:30 1"),
            Ok(TimeControl::Level {
                moves: 0,
                base_ms: 150_000,
                increment_ms: 1_000
            })
        );
        assert_eq!(
            parse_level("40 25+5 0.5"),
            Ok(TimeControl::Level {
                moves: 40,
                base_ms: 1_500_000,
                increment_ms: 500
            })
        );
        assert!(parse_level("40 5").is_err());
        assert!(parse_level("x 5 0").is_err());
        assert!(parse_level("40 -5 0").is_err());
        assert!(parse_level("40 5 0 1").is_err());
        assert!(parse_level("40 5 nan").is_err());
    }

    #[test]
    fn limits_count_moves_to_the_next_control() {
        let tc = TimeControl::Level {
            moves: 40,
            base_ms: 300_000,
            increment_ms: 0,
        };
        let clock = |made| {
            tc.limits(60_000, made, None, 0)
                .clock
                .map(|c| c.moves_to_go)
        };
        assert_eq!(clock(0), Some(Some(40)));
        assert_eq!(clock(39), Some(Some(1)));
        assert_eq!(clock(40), Some(Some(40)));
        let incremental = TimeControl::Level {
            moves: 0,
            base_ms: 60_000,
            increment_ms: 1_000,
        };
        let limits = incremental.limits(12_345, 7, Some(5), 0);
        assert_eq!(limits.depth, Some(5));
        assert_eq!(
            limits.clock,
            Some(Clock {
                time: 12_345,
                increment: 1_000,
                moves_to_go: None
            })
        );
        assert_eq!(
            TimeControl::MoveTime(2_000).limits(0, 0, None, 0).movetime,
            Some(2_000)
        );
        let sudden_death = TimeControl::Level {
            moves: 0,
            base_ms: 60_000,
            increment_ms: 0,
        };
        let mtg = |made| {
            sudden_death
                .limits(30_000, made, None, 0)
                .clock
                .and_then(|c| c.moves_to_go)
        };
        assert_eq!(mtg(0), Some(50));
        assert_eq!(mtg(40), Some(30));
        assert_eq!(mtg(90), Some(20));
    }

    #[test]
    fn lag_is_reserved_for_the_coming_moves() {
        let sudden_death = TimeControl::Level {
            moves: 0,
            base_ms: 60_000,
            increment_ms: 0,
        };
        let time =
            |tc: TimeControl, own, made, lag| tc.limits(own, made, None, lag).clock.map(|c| c.time);
        // 100 ms of lag a move: 39 future moves' worth is set aside.
        assert_eq!(time(sudden_death, 10_000, 0, 100), Some(6_100));
        assert_eq!(time(sudden_death, 3_000, 0, 100), Some(0));
        // An increment that covers the lag needs no reserve.
        let incremental = TimeControl::Level {
            moves: 0,
            base_ms: 60_000,
            increment_ms: 200,
        };
        assert_eq!(time(incremental, 10_000, 0, 100), Some(10_000));
        // Before a time control only the moves left to it count.
        let conventional = TimeControl::Level {
            moves: 40,
            base_ms: 60_000,
            increment_ms: 0,
        };
        assert_eq!(time(conventional, 10_000, 37, 100), Some(9_800));
        assert_eq!(conventional.credit_after_move(40), 60_000);
        assert_eq!(conventional.credit_after_move(39), 0);
    }

    #[test]
    fn fallback_clock() {
        let tc = TimeControl::Level {
            moves: 2,
            base_ms: 10_000,
            increment_ms: 100,
        };
        assert_eq!(tc.clock_after_move(10_000, 3_000, 1), 7_100);
        assert_eq!(tc.clock_after_move(7_100, 1_000, 2), 16_200);
        assert_eq!(tc.clock_after_move(50, 1_000, 3), 100);
    }
}
