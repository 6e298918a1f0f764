//! What the workshop's integration tests share: the engine binary they
//! play or label with.

use std::path::PathBuf;
use std::process::Command;

/// The engine binary `kiln`, which Cargo builds beside `kiln-workshop`
/// when the whole workspace is tested; built here when only this package
/// is (`cargo test -p kiln-workshop`).
pub fn engine() -> PathBuf {
    let workshop = PathBuf::from(env!("CARGO_BIN_EXE_kiln-workshop"));
    let engine = workshop.with_file_name(format!("kiln{}", std::env::consts::EXE_SUFFIX));
    if !engine.exists() {
        let release = workshop
            .parent()
            .and_then(|dir| dir.file_name())
            .is_some_and(|name| name == "release");
        let mut cargo = Command::new(env!("CARGO"));
        cargo.args(["build", "--quiet", "-p", "kiln", "--bin", "kiln"]);
        if release {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("cargo runs");
        assert!(
            status.success() && engine.exists(),
            "cannot build {}",
            engine.display()
        );
    }
    engine
}
