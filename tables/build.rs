//! Generates every table into `$OUT_DIR/tables.rs`, which `src/lib.rs`
//! includes. The seed comes from `KILN_SEED` (default: `kiln_gen::DEFAULT_SEED`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if let Err(message) = kiln_gen::run_build_script("tables.rs") {
        // A bad KILN_SEED must stop the build with a message, not a backtrace.
        eprintln!("error: {message}");
        std::process::exit(1);
    }
}
