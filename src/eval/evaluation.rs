//! Which static evaluation the search uses: the hand-written one or the
//! network. The UCI option `UseNNUE` and XBoard's `option UseNNUE` choose;
//! [`USE_NNUE_DEFAULT`] is their default and the search's.

use super::nnue;
use super::score::Score;
use kiln_board::Board;

/// Whether the network evaluates by default. The one place the default is
/// written: the options' declarations and the searcher read it.
pub const USE_NNUE_DEFAULT: bool = true;

/// A static evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Evaluation {
    /// The hand-written evaluation (`eval::evaluate`).
    Classical,
    /// The network (`eval::nnue`).
    Network,
}

impl Default for Evaluation {
    /// [`Evaluation::DEFAULT`]: one default, whichever way it is asked for.
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl Evaluation {
    /// The default, [`USE_NNUE_DEFAULT`].
    pub const DEFAULT: Evaluation = Evaluation::from_use_nnue(USE_NNUE_DEFAULT);

    /// The evaluation the option `UseNNUE` = `use_nnue` asks for.
    pub const fn from_use_nnue(use_nnue: bool) -> Evaluation {
        if use_nnue {
            Evaluation::Network
        } else {
            Evaluation::Classical
        }
    }

    /// Its name on the command line (`kiln bench --eval <name>`).
    pub const fn name(self) -> &'static str {
        match self {
            Evaluation::Classical => "classical",
            Evaluation::Network => "nnue",
        }
    }

    /// The evaluation named `name` ([`name`](Self::name)'s inverse).
    pub fn from_name(name: &str) -> Option<Evaluation> {
        [Evaluation::Classical, Evaluation::Network]
            .into_iter()
            .find(|e| e.name() == name)
    }

    /// `board`'s evaluation from scratch, side to move's view, with no
    /// cache or accumulator kept: what the search's incremental and
    /// cached evaluations must equal.
    pub fn fresh(self, board: &Board) -> Score {
        match self {
            Evaluation::Classical => super::evaluate(board),
            Evaluation::Network => nnue::evaluate_fresh(board),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_the_option_map_to_evaluations() {
        assert_eq!(
            Evaluation::DEFAULT,
            Evaluation::from_use_nnue(USE_NNUE_DEFAULT)
        );
        for e in [Evaluation::Classical, Evaluation::Network] {
            assert_eq!(Evaluation::from_name(e.name()), Some(e));
        }
        assert_eq!(Evaluation::from_name("NNUE"), None);
        assert_eq!(Evaluation::from_use_nnue(true), Evaluation::Network);
    }
}
