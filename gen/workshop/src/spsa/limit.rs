//! How long each game of a tune may take: a clock or a node count, as the
//! command line takes it, as the state file records it, and as fastchess's
//! `-each` words.

use std::fmt;

/// How much later than its clock allows a move may arrive before it loses
/// on time, in milliseconds: OpenBench's margin for every timed game, so
/// that a loaded machine's scheduling does not decide games.
const TIME_MARGIN_MS: u32 = 250;

/// How long each game may take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Limit {
    /// A clock, in fastchess's `tc=` form (`5+0.05`, `40/60+0.6`).
    Clock(String),
    /// A fixed number of nodes a move and no clock.
    Nodes(u64),
}

impl Limit {
    /// A clock as `--tc` takes it: `[moves/]seconds[+increment]`, each a
    /// plain non-negative number, the seconds above zero.
    pub fn clock(text: &str) -> Result<Limit, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => (Some(moves), rest),
            None => (None, text),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((base, increment)) => (base, Some(increment)),
            None => (rest, None),
        };
        let plain = |t: &str| {
            !t.is_empty()
                && t.chars().all(|c| c.is_ascii_digit() || c == '.')
                && t.parse::<f64>().is_ok()
        };
        let fine = moves.is_none_or(|m| !m.is_empty() && m.chars().all(|c| c.is_ascii_digit()))
            && plain(base)
            && increment.is_none_or(plain)
            && base.parse::<f64>().is_ok_and(|b| b > 0.0);
        if fine {
            Ok(Limit::Clock(text.to_string()))
        } else {
            Err("expected a time control like 5+0.05, 8+0.08 or 40/60".to_string())
        }
    }

    /// The limit as the state file records it: `clock <tc>` or
    /// `nodes <n>`.
    pub fn record(&self) -> String {
        match self {
            Limit::Clock(tc) => format!("clock {tc}"),
            Limit::Nodes(nodes) => format!("nodes {nodes}"),
        }
    }

    /// Reads what [`Limit::record`] wrote.
    pub fn from_record(text: &str) -> Option<Limit> {
        match text.split_once(' ')? {
            ("clock", tc) => Limit::clock(tc).ok(),
            ("nodes", nodes) => nodes.parse().ok().filter(|&n| n > 0).map(Limit::Nodes),
            _ => None,
        }
    }

    /// The limit as fastchess's `-each` words (a clock with OpenBench's
    /// margin).
    pub fn fastchess_words(&self) -> Vec<String> {
        match self {
            Limit::Clock(tc) => vec![format!("tc={tc}"), format!("timemargin={TIME_MARGIN_MS}")],
            Limit::Nodes(nodes) => vec!["tc=inf".to_string(), format!("nodes={nodes}")],
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Clock(tc) => write!(f, "{tc}"),
            Limit::Nodes(nodes) => write!(f, "{nodes} nodes a move"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_and_record() {
        for good in ["5+0.05", "8+0.08", "40/60", "10", "60+1"] {
            let limit = Limit::clock(good).unwrap();
            assert_eq!(limit.to_string(), good);
            assert_eq!(Limit::from_record(&limit.record()), Some(limit));
        }
        for bad in ["", "+0.1", "5+", "a+b", "0+0.1", "5+0.05 x", "/5", "5+-1"] {
            assert!(Limit::clock(bad).is_err(), "{bad}");
        }
        let nodes = Limit::Nodes(2000);
        assert_eq!(Limit::from_record(&nodes.record()), Some(nodes));
        for bad in ["nodes 0", "nodes x", "clock fast", "tc=5+0.05", "clock"] {
            assert_eq!(Limit::from_record(bad), None, "{bad}");
        }
    }

    #[test]
    fn fastchess_gets_openbench_margin_on_clocks_only() {
        assert_eq!(
            Limit::clock("8+0.08").unwrap().fastchess_words(),
            ["tc=8+0.08", "timemargin=250"]
        );
        assert_eq!(Limit::Nodes(300).fastchess_words(), ["tc=inf", "nodes=300"]);
    }
}
