//! The `kiln` binary: a UCI engine by default, plus command-line tools.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("--version" | "-V" | "version") => {
            println!(
                "kiln {} (tables seed {} fingerprint {:016x})",
                kiln::build_info::VERSION,
                kiln::build_info::SEED,
                kiln::build_info::FINGERPRINT
            );
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("kiln: unknown command '{other}' (try --version)");
            ExitCode::from(2)
        }
        None => ExitCode::SUCCESS,
    }
}
