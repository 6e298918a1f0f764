//! The arithmetic of an SPSA tune, as OpenBench does it: the parameters
//! and their input lines, the perturbation size `c` and learning rate `r`
//! of each iteration, the perturbation itself, and the step a result gives.
//!
//! Spall's schedule with OpenBench's parameterisation: each parameter gives
//! its *final* perturbation `c_end` and final learning rate `r_end`, and
//! the schedule is scaled so that iteration `N` (the last) uses exactly
//! those. With `A = a_ratio · N`,
//!
//! ```text
//! c_k = max(c_end · N^γ / k^γ, 0.5)
//! r_k = r_end · c_end² · (A + N)^α / (A + k)^α / c_k²
//! ```
//!
//! Iteration `k` plays the engine with `θ + c_k·δ` against itself with
//! `θ − c_k·δ`, each `δ_i` a fair ±1, both rounded the same random way to
//! whole numbers and clipped to the range; then `θ_i += r_k · c_k · (W − L)
//! · δ_i`, clipped, with `W − L` the wins less the losses of the `+` side.

use std::fmt;

use kiln::rng::Rng;

/// One tuned parameter as OpenBench's SPSA input states it:
/// `name, int, start, min, max, c_end, r_end`.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// The engine's UCI option.
    pub name: String,
    /// Its value when the tune started.
    pub start: f64,
    /// Smallest value it may take.
    pub min: f64,
    /// Largest value it may take.
    pub max: f64,
    /// The perturbation of the last iteration.
    pub c_end: f64,
    /// The learning rate of the last iteration.
    pub r_end: f64,
}

/// Why a line of SPSA input was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for InputError {}

impl Parameter {
    /// Reads one line of OpenBench's SPSA input. Kiln's options are whole
    /// numbers, so only `int` parameters are accepted; every number must be
    /// finite, `min <= start <= max` with `min < max`, and `c_end` and
    /// `r_end` positive.
    pub fn parse(line: &str) -> Result<Parameter, String> {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, kind, start, min, max, c_end, r_end] = fields[..] else {
            return Err(format!(
                "expected 'name, int, start, min, max, c_end, r_end', found {} fields",
                fields.len()
            ));
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(format!("'{name}' is not an option name"));
        }
        if kind != "int" {
            return Err(format!(
                "type '{kind}': Kiln's tunables are whole numbers ('int')"
            ));
        }
        let number = |what: &str, text: &str| -> Result<f64, String> {
            match text.parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(format!("{what} '{text}' is not a number")),
            }
        };
        let parameter = Parameter {
            name: name.to_string(),
            start: number("start", start)?,
            min: number("min", min)?,
            max: number("max", max)?,
            c_end: number("c_end", c_end)?,
            r_end: number("r_end", r_end)?,
        };
        for (what, value) in [
            ("start", parameter.start),
            ("min", parameter.min),
            ("max", parameter.max),
        ] {
            if value.fract() != 0.0 {
                return Err(format!("{what} {value} is not a whole number"));
            }
        }
        if parameter.min >= parameter.max {
            return Err(format!(
                "min {} is not below max {}",
                parameter.min, parameter.max
            ));
        }
        if !(parameter.min..=parameter.max).contains(&parameter.start) {
            return Err(format!(
                "start {} is outside {}..={}",
                parameter.start, parameter.min, parameter.max
            ));
        }
        if parameter.c_end <= 0.0 || parameter.r_end <= 0.0 {
            return Err("c_end and r_end must be positive".to_string());
        }
        Ok(parameter)
    }

    /// The parameter as a line of OpenBench's SPSA input.
    pub fn input_line(&self) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, {}",
            self.name, self.start, self.min, self.max, self.c_end, self.r_end
        )
    }

    /// `value` brought into the range.
    pub fn clip(&self, value: f64) -> f64 {
        value.clamp(self.min, self.max)
    }
}

/// Reads OpenBench's SPSA input: one parameter a line; blank lines and
/// lines starting with `#` are skipped. Names must be distinct and there
/// must be at least one.
pub fn parse_input(text: &str) -> Result<Vec<Parameter>, InputError> {
    let mut parameters: Vec<Parameter> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let parameter = Parameter::parse(trimmed).map_err(|reason| InputError {
            line: line_number,
            reason,
        })?;
        if parameters.iter().any(|p| p.name == parameter.name) {
            return Err(InputError {
                line: line_number,
                reason: format!("'{}' is given twice", parameter.name),
            });
        }
        parameters.push(parameter);
    }
    if parameters.is_empty() {
        return Err(InputError {
            line: 0,
            reason: "no parameters".to_string(),
        });
    }
    Ok(parameters)
}

/// The settings that shape a tune's schedule: how long it is and how its
/// perturbation and learning rate decay (OpenBench's defaults are
/// [`Schedule::with_defaults`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Iterations in the whole tune (`N`).
    pub iterations: u64,
    /// Game pairs (the same opening with colours swapped) an iteration.
    pub pairs_per: u64,
    /// Decay exponent of the learning rate (`α`).
    pub alpha: f64,
    /// Decay exponent of the perturbation (`γ`).
    pub gamma: f64,
    /// The stability constant `A` as a fraction of `N`.
    pub a_ratio: f64,
}

/// The smallest perturbation of a whole-number parameter: anything smaller
/// would round back to the same value on both sides too often.
const MIN_INT_PERTURBATION: f64 = 0.5;

impl Schedule {
    /// OpenBench's default exponents and stability ratio (α 0.602,
    /// γ 0.101, A = N/10) for a tune of `iterations` × `pairs_per`.
    pub fn with_defaults(iterations: u64, pairs_per: u64) -> Schedule {
        Schedule {
            iterations,
            pairs_per,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
        }
    }

    /// The perturbation `c_k` of `parameter` at iteration `k` (from 1).
    pub fn c(&self, parameter: &Parameter, k: u64) -> f64 {
        let n = self.iterations as f64;
        let scaled = parameter.c_end * n.powf(self.gamma) / (k as f64).powf(self.gamma);
        scaled.max(MIN_INT_PERTURBATION)
    }

    /// The learning rate `r_k` of `parameter` at iteration `k` (from 1).
    pub fn r(&self, parameter: &Parameter, k: u64) -> f64 {
        let n = self.iterations as f64;
        let big_a = self.a_ratio * n;
        let a = parameter.r_end * parameter.c_end.powi(2) * (big_a + n).powf(self.alpha);
        let c = self.c(parameter, k);
        a / (big_a + k as f64).powf(self.alpha) / (c * c)
    }
}

/// The generator of iteration `k`'s random choices. SplitMix64 walks its
/// state by a fixed step, so seeds that differ by multiples of that step
/// (as `seed ^ k·step` would for consecutive `k`) give overlapping streams:
/// the seed is hashed through one draw first, which scatters the
/// iterations' streams over the whole period.
pub fn iteration_rng(seed: u64, k: u64) -> Rng {
    let mut mixer = Rng::new(seed ^ k.rotate_left(32));
    Rng::new(mixer.next_u64())
}

/// What iteration `k` plays: for each parameter its direction (±1) and the
/// whole-number values of the two sides.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// The iteration, from 1.
    pub iteration: u64,
    /// `δ_i`, +1 or −1.
    pub flips: Vec<f64>,
    /// `c_k` of each parameter.
    pub c: Vec<f64>,
    /// The values of the side that plays `θ + c·δ` (rounded, clipped).
    pub plus: Vec<i64>,
    /// The values of the side that plays `θ − c·δ` (rounded, clipped).
    pub minus: Vec<i64>,
}

impl Perturbation {
    /// Draws iteration `k`'s perturbation of `values` from a generator
    /// seeded by the tune's `seed` and `k`, so that an iteration played
    /// again after an interruption plays the same values.
    pub fn draw(
        schedule: &Schedule,
        parameters: &[Parameter],
        values: &[f64],
        seed: u64,
        k: u64,
    ) -> Perturbation {
        let mut rng = iteration_rng(seed, k);
        let mut perturbation = Perturbation {
            iteration: k,
            flips: Vec::with_capacity(parameters.len()),
            c: Vec::with_capacity(parameters.len()),
            plus: Vec::with_capacity(parameters.len()),
            minus: Vec::with_capacity(parameters.len()),
        };
        for (parameter, &value) in parameters.iter().zip(values) {
            let flip = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
            let c = schedule.c(parameter, k);
            // One uniform for both sides: the rounding is random so that on
            // average it is no rounding, and shared so that the two sides
            // stay 2c apart.
            let u = rng.unit();
            let round = |x: f64| parameter.clip((x + u).floor()) as i64;
            perturbation.flips.push(flip);
            perturbation.c.push(c);
            perturbation.plus.push(round(value + flip * c));
            perturbation.minus.push(round(value - flip * c));
        }
        perturbation
    }

    /// The values after this iteration's games: the `+` side won `wins`
    /// and lost `losses` of them.
    pub fn step(
        &self,
        schedule: &Schedule,
        parameters: &[Parameter],
        values: &[f64],
        wins: u64,
        losses: u64,
    ) -> Vec<f64> {
        let result = wins as f64 - losses as f64;
        parameters
            .iter()
            .zip(values)
            .enumerate()
            .map(|(i, (parameter, &value))| {
                let r = schedule.r(parameter, self.iteration);
                parameter.clip(value + r * self.c[i] * result * self.flips[i])
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rfp() -> Parameter {
        Parameter::parse("rfp_margin, int, 75, 35, 150, 5.75, 0.002").unwrap()
    }

    #[test]
    fn input_lines_read_and_write_back() {
        let p = rfp();
        assert_eq!(p.name, "rfp_margin");
        assert_eq!((p.start, p.min, p.max), (75.0, 35.0, 150.0));
        assert_eq!((p.c_end, p.r_end), (5.75, 0.002));
        assert_eq!(p.input_line(), "rfp_margin, int, 75, 35, 150, 5.75, 0.002");
        assert_eq!(Parameter::parse(&p.input_line()), Ok(p));
    }

    #[test]
    fn bad_input_lines_say_why() {
        for (line, why) in [
            ("rfp_margin, int, 75, 35, 150, 5.75", "7 fields"),
            (
                "rfp_margin, float, 75, 35, 150, 5.75, 0.002",
                "whole numbers",
            ),
            ("rfp_margin, int, 75, 150, 35, 5.75, 0.002", "not below"),
            ("rfp_margin, int, 200, 35, 150, 5.75, 0.002", "outside"),
            ("rfp_margin, int, 75, 35, 150, 0, 0.002", "positive"),
            ("rfp_margin, int, x, 35, 150, 5.75, 0.002", "not a number"),
            (
                "rfp_margin, int, 75, 35.5, 150, 5.75, 0.002",
                "whole number",
            ),
            ("rfp_margin, int, inf, 35, 150, 5.75, 0.002", "not a number"),
            ("rfp margin, int, 75, 35, 150, 5.75, 0.002", "option name"),
        ] {
            let err = Parameter::parse(line).unwrap_err();
            assert!(
                err.contains(why) || (why == "7 fields" && err.contains("6 fields")),
                "{line}: {err}"
            );
        }
        let twice = "a, int, 1, 0, 2, 1, 0.002\n\n# comment\na, int, 1, 0, 2, 1, 0.002\n";
        let err = parse_input(twice).unwrap_err();
        assert_eq!(err.line, 4);
        assert!(err.reason.contains("twice"), "{err}");
        assert!(parse_input("# nothing\n").is_err());
    }

    #[test]
    fn the_last_iteration_uses_c_end_and_r_end() {
        let schedule = Schedule::with_defaults(1_000, 8);
        let p = rfp();
        assert!((schedule.c(&p, 1_000) - p.c_end).abs() < 1e-9);
        assert!((schedule.r(&p, 1_000) - p.r_end).abs() < 1e-12);
        // Both decay from the first iteration on.
        assert!(schedule.c(&p, 1) > schedule.c(&p, 500));
        assert!(schedule.c(&p, 500) > schedule.c(&p, 1_000));
        let a = |k| schedule.r(&p, k) * schedule.c(&p, k).powi(2);
        assert!(a(1) > a(500) && a(500) > a(1_000));
    }

    #[test]
    fn matches_openbench_at_the_first_iteration() {
        // OpenBench: c_value = c_end·N^γ, a_value = r_end·c_end²·(A+N)^α,
        // then c = c_value/1^γ and r = a_value/(A+1)^α/c².
        let schedule = Schedule::with_defaults(2_000, 8);
        let p = rfp();
        let c_value = 5.75 * 2_000f64.powf(0.101);
        let a_value = 0.002 * 5.75f64.powi(2) * (200.0 + 2_000.0f64).powf(0.602);
        let r = a_value / 201f64.powf(0.602) / (c_value * c_value);
        assert!((schedule.c(&p, 1) - c_value).abs() < 1e-9);
        assert!((schedule.r(&p, 1) - r).abs() < 1e-12);
    }

    #[test]
    fn small_perturbations_stop_at_half_a_step() {
        let schedule = Schedule::with_defaults(1_000, 8);
        let tiny = Parameter::parse("x, int, 2, 1, 4, 0.1, 0.002").unwrap();
        assert_eq!(schedule.c(&tiny, 1_000), 0.5);
    }

    #[test]
    fn perturbations_are_reproducible_symmetric_and_in_range() {
        let schedule = Schedule::with_defaults(100, 4);
        let parameters = vec![
            rfp(),
            Parameter::parse("edge, int, 2, 1, 4, 2, 0.002").unwrap(),
        ];
        let values = vec![75.3, 1.0];
        let mut flips_seen = [0; 2];
        for k in 1..=100 {
            let one = Perturbation::draw(&schedule, &parameters, &values, 7, k);
            let two = Perturbation::draw(&schedule, &parameters, &values, 7, k);
            assert_eq!(one, two);
            for (i, parameter) in parameters.iter().enumerate() {
                let (plus, minus) = (one.plus[i] as f64, one.minus[i] as f64);
                assert!((parameter.min..=parameter.max).contains(&plus));
                assert!((parameter.min..=parameter.max).contains(&minus));
            }
            // Away from the edges the two sides are 2c apart, give or take
            // the shared rounding, and on the side of the flip.
            let gap = (one.plus[0] - one.minus[0]) as f64 * one.flips[0];
            assert!((gap - 2.0 * one.c[0]).abs() <= 1.0, "{one:?}");
            flips_seen[usize::from(one.flips[0] > 0.0)] += 1;
        }
        assert!(flips_seen[0] > 25 && flips_seen[1] > 25, "{flips_seen:?}");
        let other_seed = Perturbation::draw(&schedule, &parameters, &values, 8, 1);
        let mut differ = false;
        for k in 1..=20 {
            differ |= Perturbation::draw(&schedule, &parameters, &values, 8, k).flips
                != Perturbation::draw(&schedule, &parameters, &values, 7, k).flips;
        }
        assert!(differ, "{other_seed:?}");
    }

    #[test]
    fn iterations_draw_from_unrelated_streams() {
        // Neighbouring iterations (and seeds) must not share draws: with
        // SplitMix64 seeded by a plain `seed ^ k·step` they would, shifted.
        for seed in [0, 1, 7] {
            let draws = |k| {
                let mut rng = iteration_rng(seed, k);
                (0..64).map(|_| rng.next_u64()).collect::<Vec<_>>()
            };
            let (one, two, three) = (draws(1), draws(2), draws(3));
            for value in &one {
                assert!(
                    !two.contains(value) && !three.contains(value),
                    "seed {seed}"
                );
            }
            assert!(
                two.iter().all(|value| !three.contains(value)),
                "seed {seed}"
            );
        }
        assert_ne!(
            iteration_rng(1, 1).next_u64(),
            iteration_rng(2, 1).next_u64()
        );
    }

    #[test]
    fn a_win_moves_towards_the_winner_and_stays_in_range() {
        let schedule = Schedule::with_defaults(100, 4);
        let parameters = vec![rfp()];
        let values = vec![75.0];
        let perturbation = Perturbation::draw(&schedule, &parameters, &values, 3, 1);
        let flip = perturbation.flips[0];
        let after = perturbation.step(&schedule, &parameters, &values, 5, 1);
        let expected = 75.0 + schedule.r(&parameters[0], 1) * perturbation.c[0] * 4.0 * flip;
        assert!((after[0] - expected).abs() < 1e-9);
        assert_eq!(
            perturbation.step(&schedule, &parameters, &values, 3, 3),
            values
        );
        let huge = perturbation.step(&schedule, &parameters, &values, 100_000, 0);
        assert_eq!(huge[0], if flip > 0.0 { 150.0 } else { 35.0 });
    }
}
