//! Tools that improve the evaluation offline: self-play data generation
//! ([`datagen`]) for the Texel tuner.

pub mod datagen;
