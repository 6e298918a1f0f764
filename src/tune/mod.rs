//! Tools that improve the evaluation offline: self-play data generation
//! ([`datagen`]), re-scoring its positions with a stronger engine
//! ([`label`]), the evaluation as a linear function of its weights
//! ([`trace`]) and Texel tuning ([`texel`]).

pub mod datagen;
pub mod label;
pub mod texel;
pub mod trace;
