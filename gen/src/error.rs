//! The errors of the build-script boundary: a configuration the environment
//! asks for that cannot be built, and a build script that cannot write its
//! output. Build scripts print their Display and stop the build.

use std::fmt;
use std::path::PathBuf;

use crate::{MAGIC_SEARCH_ENV, SEED_ENV};

/// Why [`Config::from_env`](crate::Config::from_env) cannot read the
/// configuration.
#[derive(Debug)]
pub enum ConfigError {
    /// `KILN_SEED` is not a 64-bit number.
    BadSeed {
        /// The variable's value.
        text: String,
        /// What the number parser said.
        source: std::num::ParseIntError,
    },
    /// `KILN_SEED` is not valid UTF-8.
    SeedNotUnicode,
    /// `KILN_MAGIC_SEARCH` is neither `scheduled` nor `full`.
    BadMagicSearch {
        /// The variable's value.
        text: String,
    },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::BadSeed { text, source } => write!(
                f,
                "{SEED_ENV}={text:?} is not a valid seed (a 64-bit number, decimal or 0x hex): {source}"
            ),
            ConfigError::SeedNotUnicode => write!(f, "{SEED_ENV} is not valid UTF-8"),
            ConfigError::BadMagicSearch { text } => write!(
                f,
                "{MAGIC_SEARCH_ENV}={text:?}: expected \"scheduled\" or \"full\""
            ),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::BadSeed { source, .. } => Some(source),
            ConfigError::SeedNotUnicode | ConfigError::BadMagicSearch { .. } => None,
        }
    }
}

/// Why [`run_build_script`](crate::run_build_script) failed.
#[derive(Debug)]
pub enum BuildScriptError {
    /// The environment asks for a configuration that cannot be built.
    Config(ConfigError),
    /// `OUT_DIR` is not set: the function was called outside a build script.
    NoOutDir,
    /// The generated source could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

impl fmt::Display for BuildScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildScriptError::Config(error) => error.fmt(f),
            BuildScriptError::NoOutDir => {
                f.write_str("OUT_DIR is not set (cargo sets it for build scripts)")
            }
            BuildScriptError::Write { path, source } => {
                write!(f, "cannot write '{}': {source}", path.display())
            }
        }
    }
}

impl std::error::Error for BuildScriptError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BuildScriptError::Config(error) => Some(error),
            BuildScriptError::NoOutDir => None,
            BuildScriptError::Write { source, .. } => Some(source),
        }
    }
}

impl From<ConfigError> for BuildScriptError {
    fn from(error: ConfigError) -> Self {
        BuildScriptError::Config(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_variable_and_what_it_takes() {
        let source = crate::parse_seed("12x").expect_err("not a number");
        let error = BuildScriptError::from(ConfigError::BadSeed {
            text: "12x".into(),
            source,
        });
        assert_eq!(
            error.to_string(),
            "KILN_SEED=\"12x\" is not a valid seed (a 64-bit number, decimal or 0x hex): \
             invalid digit found in string"
        );
        assert!(std::error::Error::source(&error).is_some());
        let error = ConfigError::BadMagicSearch {
            text: "fast".into(),
        };
        assert_eq!(
            error.to_string(),
            "KILN_MAGIC_SEARCH=\"fast\": expected \"scheduled\" or \"full\""
        );
    }
}
