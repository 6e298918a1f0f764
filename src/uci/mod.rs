//! The UCI protocol loop, command parsing and options.
