//! Tools that improve the evaluation offline: self-play data generation
//! ([`datagen`]), the evaluation as a linear function of its weights
//! ([`trace`]) and Texel tuning ([`texel`]).

pub mod datagen;
pub mod texel;
pub mod trace;
