//! The neutral starting point of an own-data fit: the parameter file the
//! engine was built from with material only (textbook values) and every
//! other weight zero, so that nothing of earlier fits carries over. The
//! phase weights and king-attack units are structure rather than fitted
//! weights and stay as built; so do the hand-set endgame constants of
//! `src/eval/endgame_constants.rs`, which the tuner does not touch.

use super::texel::with_header;
use super::trace::{self, MATERIAL, WEIGHTS};
use kiln_format::params as params_file;

/// Material `(mg, eg)` of the neutral start, in centipawns, by piece kind
/// (pawn, knight, bishop, rook, queen, king): the textbook 1/3/3/5/9, the
/// same in both phases, taken from no engine's fit.
pub const NEUTRAL_MATERIAL: [(i32, i32); 6] = [
    (100, 100),
    (300, 300),
    (300, 300),
    (500, 500),
    (900, 900),
    (0, 0),
];

/// The first line of a neutral parameter file, after `# `; it replaces the
/// first line of the built file so the file names what it holds.
pub const NEUTRAL_HEADER: &str = "Kiln evaluation parameters (centipawns): the neutral start of the own-data fit (generation 0: material 100/300/300/500/900, every other weight 0).";

/// `params` with [`NEUTRAL_MATERIAL`] and every piece-square entry and term
/// weight zero; phase weights and king-attack units unchanged.
pub fn neutral(params: &params_file::Params) -> params_file::Params {
    let mut w = vec![(0, 0); WEIGHTS];
    for (kind, &value) in NEUTRAL_MATERIAL.iter().enumerate() {
        w[MATERIAL + kind] = value;
    }
    let mut out = params.clone();
    trace::set_weights(&mut out, &w);
    out
}

/// The neutral parameter file of `built` (the parameters of
/// [`trace::BUILT_PARAMS`]), laid out like the built file with its comments
/// kept and its first line replaced by [`NEUTRAL_HEADER`].
pub fn neutral_text(built: &params_file::Params) -> Result<String, params_file::ParamsError> {
    let text = params_file::render(trace::BUILT_PARAMS, &neutral(built))?;
    Ok(with_header(&text, Some(NEUTRAL_HEADER)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neutral_keeps_material_phase_and_king_attack_only() {
        let built = trace::built_params().unwrap();
        let n = neutral(&built);
        assert_eq!(n.material, NEUTRAL_MATERIAL);
        assert_eq!(n.phase, built.phase);
        assert_eq!(n.king_attack, built.king_attack);
        let w = trace::weights_of(&n);
        assert!(w[MATERIAL + 6..].iter().all(|&v| v == (0, 0)));
        assert_eq!(w.len(), WEIGHTS);
        assert_eq!(n.terms.len(), built.terms.len());
    }

    #[test]
    fn neutral_file_names_itself_and_parses_back() {
        let built = trace::built_params().unwrap();
        let text = neutral_text(&built).unwrap();
        assert_eq!(text.lines().next(), Some(&*format!("# {NEUTRAL_HEADER}")));
        assert_eq!(
            text.lines().count(),
            trace::BUILT_PARAMS.lines().count(),
            "same layout as the built file"
        );
        assert_eq!(params_file::parse(&text).unwrap(), neutral(&built));
    }
}
