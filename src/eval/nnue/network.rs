//! The network built into the engine: its weights as `static` arrays and
//! its header as constants, emitted by the root build script from
//! `src/eval/net.nnue` (or the file `KILN_NET` names) after
//! `kiln_format::net::parse` accepted it. Nothing here runs at startup.

/// Aligns its contents to 64 bytes (a cache line, and more than any SIMD
/// load needs), so the accumulator and output code may use aligned loads
/// and every feature column starts on a cache line when `HIDDEN` is a
/// multiple of 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Aligned<T>(pub T);

include!(concat!(env!("OUT_DIR"), "/nnue_net.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_network_matches_its_file_format() {
        assert_eq!(HIDDEN % 16, 0);
        assert!((1..=255).contains(&QA) && QB > 0 && SCALE > 0);
        assert_eq!(std::mem::align_of_val(&FEATURE_WEIGHTS), 64);
        assert_eq!(
            OUTPUT_FITS_I16,
            OUTPUT_WEIGHTS
                .0
                .iter()
                .flatten()
                .all(|w| i32::from(*w).abs() * QA <= 32767)
        );
        assert!(DESCRIPTION.is_ascii());
        assert!((1..=kiln_format::net::MAX_BUCKETS).contains(&OUTPUT_BUCKETS));
    }
}
