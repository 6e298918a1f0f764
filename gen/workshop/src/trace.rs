//! The evaluation as a linear function of its weights, for the tuner.
//!
//! Every weight of the evaluation is one of: a material value, a
//! piece-square entry (White's view) or a term weight (an index into
//! `TERM_WEIGHTS`), each a `(mg, eg)` pair. A [`Trace`] of a position holds,
//! for every weight, White's count minus Black's; the evaluation is then
//! `blend(Σ count × weight, phase)` exactly as the engine computes it, which
//! a test checks position by position.

use std::fmt;

use kiln::eval::endgame::{self, SCALE_NORMAL, Verdict};
use kiln::eval::psqt::PHASE_MAX;
use kiln::eval::terms::{Sink, TERM_COUNT, TERM_GROUPS, TERM_WEIGHTS};
use kiln::eval::{phase, trace_terms};
use kiln_board::{Board, Color, PieceKind};
use kiln_format::params as params_file;

/// Index of the first material weight in the weight vector.
pub const MATERIAL: usize = 0;
/// Index of the first piece-square weight: `PSQT + kind * 64 + square`.
pub const PSQT: usize = 6;
/// Index of the first term weight: `TERMS + term index`.
pub const TERMS: usize = PSQT + 6 * 64;
/// Number of `(mg, eg)` weights the evaluation has.
pub const WEIGHTS: usize = TERMS + TERM_COUNT;

/// The parameter file the engine was built from.
pub const BUILT_PARAMS: &str = kiln::eval::PARAMS_TXT;

/// Which weights a position uses, and how often (White minus Black).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// `(weight index, count)`, sorted by index, no zero counts.
    pub counts: Vec<(u16, i16)>,
    /// The game phase (`0..=PHASE_MAX`).
    pub phase: u8,
    /// The endgame table's scale factors for the endgame half, `[when it
    /// favours White, when it favours Black]` out of `SCALE_NORMAL`; `None`
    /// when it is not scaled. (Positions with a specialised endgame
    /// evaluation, [`Verdict::Exact`], are not linear in the weights: skip
    /// them.)
    pub eg_scale: Option<[i32; 2]>,
}

/// Collects term counts into a dense array.
struct Dense([i32; TERM_COUNT]);

impl Sink for Dense {
    #[inline]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        match color {
            Color::White => self.0[index] += count,
            Color::Black => self.0[index] -= count,
        }
    }
}

/// Traces `board`.
pub fn trace(board: &Board) -> Trace {
    let mut dense = vec![0i32; WEIGHTS];
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        for kind in PieceKind::ALL {
            for square in board.pieces(color, kind) {
                // Black's square seen from White's side (a1 <-> a8).
                let white_square = match color {
                    Color::White => square.index(),
                    Color::Black => square.index() ^ 56,
                };
                dense[MATERIAL + kind.index()] += sign;
                dense[PSQT + kind.index() * 64 + white_square] += sign;
            }
        }
    }
    let mut terms = Dense([0; TERM_COUNT]);
    trace_terms(board, &mut terms);
    for (i, count) in terms.0.iter().enumerate() {
        dense[TERMS + i] += count;
    }
    Trace {
        counts: dense
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c.clamp(i16::MIN.into(), i16::MAX.into()) as i16))
            .collect(),
        phase: phase(board) as u8,
        eg_scale: match endgame::probe(board) {
            Verdict::Scale { white, black } => Some([white, black]),
            _ => None,
        },
    }
}

/// The weight vector `(mg, eg)` of parsed parameters, in trace order.
pub fn weights_of(params: &params_file::Params) -> Vec<(i32, i32)> {
    let mut w = vec![(0, 0); WEIGHTS];
    for kind in 0..6 {
        w[MATERIAL + kind] = params.material[kind];
        for sq in 0..64 {
            w[PSQT + kind * 64 + sq] = (params.tables[kind].0[sq], params.tables[kind].1[sq]);
        }
    }
    let mut i = TERMS;
    for term in &params.terms {
        for &v in &term.values {
            w[i] = v;
            i += 1;
        }
    }
    w
}

/// Integer weights `(mg, eg)` as the real-valued `[mg, eg]` pairs the
/// tuner and the trainer compute with.
pub fn as_real(weights: &[(i32, i32)]) -> Vec<[f64; 2]> {
    weights
        .iter()
        .map(|&(mg, eg)| [f64::from(mg), f64::from(eg)])
        .collect()
}

/// Stores a weight vector back into `params` (the inverse of
/// [`weights_of`]).
pub fn set_weights(params: &mut params_file::Params, w: &[(i32, i32)]) {
    for kind in 0..6 {
        params.material[kind] = w[MATERIAL + kind];
        for sq in 0..64 {
            params.tables[kind].0[sq] = w[PSQT + kind * 64 + sq].0;
            params.tables[kind].1[sq] = w[PSQT + kind * 64 + sq].1;
        }
    }
    let mut i = TERMS;
    for term in &mut params.terms {
        for v in &mut term.values {
            *v = w[i];
            i += 1;
        }
    }
}

/// Why the parameter file the engine was built from cannot be tuned.
#[derive(Debug)]
pub enum BuiltParamsError {
    /// The file does not parse (it did when the engine was built, so the
    /// parser and the build script disagree).
    Parse(params_file::ParamsError),
    /// Its terms are not the ones the evaluation was compiled with: the
    /// term at `term` (or the number of terms, if `None`) differs.
    Layout {
        /// The first term that differs, if one does.
        term: Option<&'static str>,
    },
}

impl fmt::Display for BuiltParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuiltParamsError::Parse(error) => write!(f, "the built parameter file: {error}"),
            BuiltParamsError::Layout { term: Some(name) } => {
                write!(f, "term layout mismatch at {name}")
            }
            BuiltParamsError::Layout { term: None } => f.write_str("term layout mismatch"),
        }
    }
}

impl std::error::Error for BuiltParamsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuiltParamsError::Parse(error) => Some(error),
            BuiltParamsError::Layout { .. } => None,
        }
    }
}

/// The engine's own weights, parsed from the file it was built from;
/// checks that the file's term layout is the one compiled in.
pub fn built_params() -> Result<params_file::Params, BuiltParamsError> {
    let params = params_file::parse(BUILT_PARAMS).map_err(BuiltParamsError::Parse)?;
    let mut offset = 0;
    for (term, &(name, first, len)) in params.terms.iter().zip(TERM_GROUPS.iter()) {
        if term.name != name || first != offset || term.values.len() != len {
            return Err(BuiltParamsError::Layout { term: Some(name) });
        }
        offset += len;
    }
    if params.terms.len() != TERM_GROUPS.len() || offset != TERM_COUNT {
        return Err(BuiltParamsError::Layout { term: None });
    }
    Ok(params)
}

/// The evaluation of a traced position with integer weights, exactly as
/// the engine computes it (White's view, before tempo and clamping).
pub fn evaluate_trace(trace: &Trace, w: &[(i32, i32)]) -> i32 {
    let (mut mg, mut eg) = (0i32, 0i32);
    for &(i, c) in &trace.counts {
        let (m, e) = w[usize::from(i)];
        mg += m * i32::from(c);
        eg += e * i32::from(c);
    }
    if let Some([white, black]) = trace.eg_scale {
        eg = eg * if eg > 0 { white } else { black } / SCALE_NORMAL;
    }
    let phase = i32::from(trace.phase);
    (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX
}

/// Term weights as compiled (packed), unpacked, for checking.
pub fn compiled_term_weights() -> Vec<(i32, i32)> {
    TERM_WEIGHTS
        .iter()
        .map(|&p| (kiln::eval::score::mg(p), kiln::eval::score::eg(p)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln::eval::evaluate_white;
    use kiln::rng::Rng;
    use kiln::uci::bench::POSITIONS;
    use kiln_board::{MoveList, generate_all};

    #[test]
    fn built_params_match_the_compiled_weights() {
        let params = built_params().unwrap();
        let w = weights_of(&params);
        assert_eq!(&w[TERMS..], &compiled_term_weights()[..]);
    }

    /// The traced evaluation must equal the engine's on every position, or
    /// the tuner would fit a different function from the one the engine
    /// plays with.
    #[test]
    fn trace_evaluation_equals_engine_evaluation() {
        let w = weights_of(&built_params().unwrap());
        let mut rng = Rng::new(11);
        let mut checked = 0;
        for fen in POSITIONS {
            let mut board = Board::from_fen(fen).unwrap();
            for _ in 0..60 {
                // Specialised endgame evaluations are not traced.
                if !matches!(endgame::probe(&board), Verdict::Exact(_)) {
                    assert_eq!(
                        evaluate_trace(&trace(&board), &w),
                        evaluate_white(&board),
                        "{}",
                        board.to_fen()
                    );
                    checked += 1;
                }
                let mut moves = MoveList::new();
                generate_all(&board, &mut moves);
                if moves.is_empty() {
                    break;
                }
                board.make_move(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(checked > 1000);
    }

    #[test]
    fn parameter_file_round_trips() {
        let params = built_params().unwrap();
        let text = params_file::render(BUILT_PARAMS, &params).unwrap();
        assert_eq!(params_file::parse(&text).unwrap(), params);
        // Changed weights come back changed, and only those.
        let mut w = weights_of(&params);
        for (i, v) in w.iter_mut().enumerate() {
            *v = (v.0 + (i as i32 % 7) - 3, v.1 - (i as i32 % 5) + 2 - 1000);
        }
        let mut changed = params.clone();
        set_weights(&mut changed, &w);
        let text = params_file::render(BUILT_PARAMS, &changed).unwrap();
        let back = params_file::parse(&text).unwrap();
        assert_eq!(weights_of(&back), w);
        assert_eq!(back.phase, params.phase);
        assert_eq!(back.king_attack, params.king_attack);
        // Comments survive.
        let comments = |t: &str| {
            t.lines()
                .filter(|l| l.trim_start().starts_with('#'))
                .count()
        };
        assert_eq!(comments(&text), comments(BUILT_PARAMS));
    }
}
