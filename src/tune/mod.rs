//! Tools that improve the evaluation offline: self-play data generation
//! ([`datagen`]), re-scoring its positions with a stronger engine
//! ([`label`], through the UCI client [`engine`]), the evaluation as a
//! linear function of its weights ([`trace`]) and Texel tuning
//! ([`texel`]); [`options`] parses the command line of every `kiln`
//! command and `progress` shows how far a long tool has got.

pub mod datagen;
pub mod engine;
pub mod label;
pub mod options;
mod progress;
pub mod texel;
pub mod trace;

/// Splits a command line on whitespace, as the tools' option tests need.
#[cfg(test)]
pub(crate) fn split_args(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}
