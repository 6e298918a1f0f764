//! Limited strength (UCI `UCI_LimitStrength` and `UCI_Elo`): how a rating
//! becomes a handicap, and how the handicapped search picks its move.
//!
//! A weaker player is modelled the way people are weaker: they look less
//! far ahead and they misjudge which of several reasonable moves is best,
//! but they do not throw pieces away at random. So a rating sets
//!
//! - a **node budget**: the search stops after the first iteration that
//!   reaches it (iterations are never cut short by the budget, so the
//!   first one, which sees every capture through quiescence, always
//!   completes and every reported line is a complete search);
//! - a number of **candidate lines**, searched MultiPV style so each has an
//!   exact score;
//! - a **margin**: only candidates scoring within this many centipawns of
//!   the best are eligible, which bounds the size of any mistake (at the
//!   lowest rating it is below a minor piece: a queen is never given away
//!   for nothing);
//! - a **noise**: each eligible candidate's score gets a random push in
//!   `0..noise` centipawns and the highest total is played, so a move that
//!   is only a little worse is played often and one much worse rarely.
//!
//! Budget, margin and noise are interpolated between calibration anchors
//! (`ANCHORS`; the node budget geometrically, the others linearly), which
//! were fitted so that Kiln at `UCI_Elo` X scores about 50% against
//! Stockfish 15.1 at its own `UCI_Elo` X (docs/strength-limit.md has the
//! measurements). [`ELO_MAX`] means no handicap at all: full strength.
//!
//! The random pushes come from [`Rng`], seeded by the searcher from the
//! position and a count of its earlier picks, never from the clock, so a
//! fresh engine given the same commands plays the same moves.

use crate::eval::Evaluation;
use crate::eval::score::Score;
use crate::rng::Rng;
use kiln_board::Move;

/// Lowest `UCI_Elo`: a beginner who knows the rules and does not hang a
/// queen, but sees one move ahead and often misjudges which of a few
/// moves is best.
pub const ELO_MIN: u32 = 600;
/// Highest `UCI_Elo`: full strength, no handicap.
pub const ELO_MAX: u32 = 3000;
/// Default `UCI_Elo` (Stockfish's default, the bottom of its range).
pub const ELO_DEFAULT: u32 = 1350;

/// The static evaluation a limited search plays with, whatever `UseNNUE`
/// says: the one the calibration anchors were measured with.
/// Their margins and noise are in its centipawns, and what a node budget
/// buys depends on it.
pub const LIMITED_EVALUATION: Evaluation = Evaluation::Network;

/// A strength limit: the rating to play at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    elo: u32,
}

/// What a [`Strength`] takes away from the full search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// The search stops after the first iteration that has used this many
    /// nodes.
    pub nodes: u64,
    /// Root moves searched with exact scores (MultiPV lines).
    pub lines: usize,
    /// Only lines within this many centipawns of the best may be played.
    pub margin: Score,
    /// Each eligible line's score gets a random push below this.
    pub noise: Score,
}

/// A calibration anchor: the handicap at one rating.
struct Anchor {
    elo: u32,
    nodes: u64,
    lines: usize,
    margin: Score,
    noise: Score,
}

/// Calibration anchors, by rating. Between two anchors the node budget is
/// interpolated geometrically, the rest linearly. Above the last anchor
/// the node budget keeps growing at the same rate and the rest stays at
/// the last anchor's, until [`ELO_MAX`], which has no handicap. Near the
/// top the clock rather than the budget bounds the search, so the lines
/// to choose from (each costs search time) become fewer: above 2700 there
/// is one, and the node budget is the whole handicap: full-strength Kiln
/// is about Stockfish 15.1's 2850 at 10+0.1, and a second line cost the
/// 2850 level too much depth there (docs/strength-limit.md).
///
/// The anchors belong to the evaluation they were measured with: margins
/// and noise are in its centipawns, and how much a node budget buys
/// depends on it. For the own-data weights, whose scores run at about 0.8
/// times the scale of the weights first calibrated, margins and noise were
/// scaled by 0.8, the 2000 and 2500 anchors' budgets and lines set again,
/// and the 1500, 2000 and 2500 anchors measured again. When the limit
/// moved to the network ([`LIMITED_EVALUATION`]) the same anchors were
/// checked with it at 1500, 2000, 2500 and 2850 and kept
/// (docs/strength-limit.md).
const ANCHORS: [Anchor; 5] = [
    Anchor {
        elo: ELO_MIN,
        nodes: 150,
        lines: 4,
        margin: 200,
        noise: 240,
    },
    Anchor {
        elo: 1500,
        nodes: 1_000,
        lines: 4,
        margin: 140,
        noise: 140,
    },
    Anchor {
        elo: 2000,
        nodes: 25_000,
        lines: 4,
        margin: 72,
        noise: 72,
    },
    Anchor {
        elo: 2500,
        nodes: 1_000_000,
        lines: 2,
        margin: 15,
        noise: 15,
    },
    Anchor {
        elo: 2900,
        nodes: 4_000_000,
        lines: 1,
        margin: 4,
        noise: 4,
    },
];

impl Strength {
    /// A limit at `elo`, clamped into `ELO_MIN..=ELO_MAX`.
    pub fn new(elo: u32) -> Self {
        Self {
            elo: elo.clamp(ELO_MIN, ELO_MAX),
        }
    }

    /// The rating.
    pub fn elo(self) -> u32 {
        self.elo
    }

    /// The handicap at this rating; `None` at [`ELO_MAX`] (full strength).
    pub fn handicap(self) -> Option<Handicap> {
        if self.elo >= ELO_MAX {
            return None;
        }
        let last = ANCHORS.len() - 1;
        let upper = ANCHORS
            .iter()
            .position(|a| a.elo >= self.elo)
            .unwrap_or(last)
            .max(1);
        let (low, high) = (&ANCHORS[upper - 1], &ANCHORS[upper]);
        let t = f64::from(self.elo - low.elo) / f64::from(high.elo - low.elo);
        // Beyond the last anchor (t > 1) only the node budget moves on.
        let linear = |a: f64, b: f64| if t >= 1.0 { b } else { a + (b - a) * t }.round();
        let nodes = (low.nodes as f64) * (high.nodes as f64 / low.nodes as f64).powf(t);
        Some(Handicap {
            nodes: (nodes.round() as u64).max(1),
            lines: linear(low.lines as f64, high.lines as f64) as usize,
            margin: linear(f64::from(low.margin), f64::from(high.margin)) as Score,
            noise: linear(f64::from(low.noise), f64::from(high.noise)) as Score,
        })
    }
}

/// Picks the move to play from `lines` (move and exact score, best first,
/// never empty): among the lines within `handicap.margin` of the best, the
/// one whose score plus a random push in `0..handicap.noise` is highest.
pub fn choose(lines: &[(Move, Score)], handicap: &Handicap, rng: &mut Rng) -> Move {
    let top = lines.iter().map(|l| l.1).max().unwrap_or(0);
    let mut best = (Move::NULL, Score::MIN);
    for &(mv, score) in lines {
        if score < top.saturating_sub(handicap.margin) {
            continue;
        }
        let push = u64::try_from(handicap.noise.max(1)).map_or(0, |n| rng.below(n)) as Score;
        let total = score.saturating_add(push);
        if best.0 == Move::NULL || total > best.1 {
            best = (mv, total);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_are_clamped_and_the_top_is_full_strength() {
        assert_eq!(Strength::new(0).elo(), ELO_MIN);
        assert_eq!(Strength::new(u32::MAX).elo(), ELO_MAX);
        assert_eq!(Strength::new(ELO_MAX).handicap(), None);
        assert!(Strength::new(ELO_MAX - 1).handicap().is_some());
    }

    #[test]
    fn handicaps_shrink_as_the_rating_rises() {
        let mut previous = Strength::new(ELO_MIN).handicap().unwrap();
        assert_eq!(previous.nodes, ANCHORS[0].nodes);
        for elo in (ELO_MIN + 10..ELO_MAX).step_by(10) {
            let h = Strength::new(elo).handicap().unwrap();
            assert!(h.nodes >= previous.nodes, "{elo}");
            assert!(
                h.margin <= previous.margin && h.noise <= previous.noise,
                "{elo}"
            );
            assert!(h.lines <= previous.lines && h.lines >= 1, "{elo}");
            assert!(
                h.margin < 300,
                "a mistake never costs a minor piece or more"
            );
            previous = h;
        }
        let at = |elo| Strength::new(elo).handicap().unwrap();
        // Two lines up to 2700, one above: there the node budget is the
        // whole handicap.
        assert_eq!(at(2700).lines, 2);
        assert!((2701..ELO_MAX).all(|elo| at(elo).lines == 1));
        for a in &ANCHORS {
            let h = at(a.elo);
            assert_eq!((h.nodes, h.lines), (a.nodes, a.lines));
            assert_eq!((h.margin, h.noise), (a.margin, a.noise));
        }
    }

    #[test]
    fn only_moves_within_the_margin_are_chosen() {
        let moves: Vec<Move> = (0..4u16).map(|i| Move::from_bits(i + 8)).collect();
        let lines = [
            (moves[0], 30),
            (moves[1], 10),
            (moves[2], -200),
            (moves[3], -900),
        ];
        let handicap = Handicap {
            nodes: 1,
            lines: 4,
            margin: 100,
            noise: 100,
        };
        let mut rng = Rng::new(1);
        let mut seen = [0; 4];
        for _ in 0..1000 {
            let mv = choose(&lines, &handicap, &mut rng);
            seen[moves.iter().position(|&m| m == mv).unwrap()] += 1;
        }
        assert_eq!(seen[2] + seen[3], 0);
        assert!(seen[0] > seen[1] && seen[1] > 0, "{seen:?}");
        let exact = Handicap {
            noise: 0,
            ..handicap
        };
        assert_eq!(choose(&lines, &exact, &mut rng), moves[0]);
    }
}
