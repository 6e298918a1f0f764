//! The efficiently updatable neural network evaluation: a (768 → N)×2 → 1
//! network trained on Kiln's own games (`kiln train`), its weights embedded
//! at build time. The file format is `kiln_params::net`'s.

pub mod features;
