//! Command-line parsing shared by the tools: each takes `--flag value`
//! pairs only, so one walker and two range-checked number readers serve
//! `datagen`, `label` and `tune` alike.

/// The `--flag value` pairs of a tool's arguments, in order. A flag's value
/// is an `Err` (a message for the user) when the arguments end before it;
/// the caller looks at it only for flags it knows, so an unknown last flag
/// is reported as unknown, not as missing its value.
pub(crate) fn flag_values(
    args: &[String],
) -> impl Iterator<Item = (&str, Result<&str, String>)> + '_ {
    let mut iter = args.iter();
    std::iter::from_fn(move || {
        let flag = iter.next()?;
        let value = iter
            .next()
            .map(String::as_str)
            .ok_or_else(|| format!("option '{flag}' needs a value"));
        Some((flag.as_str(), value))
    })
}

/// Parses `text` as a whole number in `min..=max` for option `flag`.
pub(crate) fn number(flag: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "bad value '{text}' for {flag}: expected a number {min}-{max}"
        )),
    }
}

/// Parses `text` as a real number in `min..=max` for option `flag`.
pub(crate) fn fraction(flag: &str, text: &str, min: f64, max: f64) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (min..=max).contains(&x) => Ok(x),
        _ => Err(format!(
            "bad value '{text}' for {flag}: expected a number {min}-{max}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::split_args;

    #[test]
    fn pairs_flags_with_values() {
        let args = split_args("--a 1 --b two --c");
        let pairs: Vec<_> = flag_values(&args).collect();
        assert_eq!(pairs.len(), 3);
        assert_eq!(pairs[0], ("--a", Ok("1")));
        assert_eq!(pairs[1], ("--b", Ok("two")));
        assert_eq!(pairs[2].0, "--c");
        assert_eq!(pairs[2].1, Err("option '--c' needs a value".to_string()));
        assert_eq!(flag_values(&[]).count(), 0);
    }

    #[test]
    fn numbers_are_range_checked() {
        assert_eq!(number("--n", "5", 1, 9), Ok(5));
        assert!(number("--n", "0", 1, 9).is_err());
        assert!(number("--n", "-1", 0, 9).is_err());
        assert!(number("--n", "x", 0, 9).is_err());
        assert_eq!(fraction("--f", "0.25", 0.0, 1.0), Ok(0.25));
        assert!(fraction("--f", "2", 0.0, 1.0).is_err());
        assert!(fraction("--f", "NaN", 0.0, 1.0).is_err());
    }
}
