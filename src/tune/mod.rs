//! Tools that improve the evaluation offline: self-play data generation
//! ([`datagen`]), re-scoring its positions with a stronger engine
//! ([`label`], through the UCI client [`uci_client`]), the evaluation as a
//! linear function of its weights ([`trace`]) and Texel tuning
//! ([`texel`]), from the material-only start of [`neutral`] if asked;
//! [`train`] trains the NNUE evaluation's network on the same data; [`options`] parses the command line of every `kiln`
//! command, `progress` shows how far a long tool has got and
//! [`file_error`] is the error each tool reports for a file it cannot use. With the
//! cargo feature `plot`, `plot` draws the tuner's loss curve and the
//! piece-square tables as PNG pictures; [`wdl`] fits the win/draw/loss
//! model of `UCI_ShowWDL` to self-play games.

pub mod datagen;
pub mod file_error;
pub mod label;
pub mod neutral;
pub mod options;
pub mod plot;
mod progress;
pub mod record;
pub mod texel;
pub mod trace;
pub mod train;
pub mod uci_client;
pub mod wdl;

/// Splits a command line on whitespace, as the tools' option tests need.
#[cfg(test)]
pub(crate) fn split_args(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}
