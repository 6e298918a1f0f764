//! The `kiln` binary: a UCI engine by default, plus command-line tools.

use std::process::ExitCode;

fn main() -> ExitCode {
    if let Some(missing) = missing_cpu_feature() {
        eprintln!(
            "kiln: this build needs the CPU feature '{missing}', which this CPU lacks; \
             rebuild with RUSTFLAGS=\"-C target-cpu=x86-64\" for older CPUs"
        );
        return ExitCode::FAILURE;
    }
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
        Some("perft") => perft_command(&args[1..]),
        Some("bench") => bench_command(&args[1..]),
        Some("datagen") => datagen_command(&args[1..]),
        Some("tune") => tune_command(&args[1..]),
        Some("label") => label_command(&args[1..]),
        Some("plot") => plot_command(&args[1..]),
        Some("xboard") => {
            kiln::xboard::run_stdio();
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("kiln: unknown command '{other}' (try --version)");
            ExitCode::from(2)
        }
        None => {
            run_protocol();
            ExitCode::SUCCESS
        }
    }
}

/// The first CPU feature the build was compiled for that this CPU lacks.
/// Checked before any engine code runs, so that an old CPU gets a message
/// instead of an illegal-instruction crash.
fn missing_cpu_feature() -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! require {
            ($($feature:tt),*) => {
                $(
                    #[cfg(target_feature = $feature)]
                    if !std::arch::is_x86_feature_detected!($feature) {
                        return Some($feature);
                    }
                )*
            };
        }
        require!("popcnt", "sse4.2", "ssse3", "sse4.1", "bmi2");
    }
    None
}

/// Speaks UCI, unless the first non-blank input line is `xboard`: then
/// CECP, as XBoard expects of an engine started without arguments.
fn run_protocol() {
    use std::io::{BufRead, BufReader, Cursor, Read};
    let mut first = Vec::new();
    loop {
        let start = first.len();
        // Stdin is buffered globally, so what is not read here stays there
        // for the protocol loop.
        match std::io::stdin().lock().read_until(b'\n', &mut first) {
            Ok(n) if n > 0 && first[start..].iter().all(u8::is_ascii_whitespace) => continue,
            _ => break,
        }
    }
    let is_xboard = first.trim_ascii() == b"xboard";
    let input = Cursor::new(first);
    if is_xboard {
        kiln::xboard::run(input.chain(BufReader::new(std::io::stdin())));
    } else {
        kiln::uci::Engine::new().run(input.chain(std::io::stdin().lock()));
    }
}

/// `kiln bench [depth]`: fixed positions to a fixed depth; the last line is
/// `<nodes> nodes <nps> nps`.
fn bench_command(args: &[String]) -> ExitCode {
    let depth = match args.first().map(|d| d.parse::<u64>()) {
        None => None,
        Some(Ok(depth)) if (1..=64).contains(&depth) => Some(depth),
        Some(_) => {
            eprintln!(
                "kiln bench: bad depth '{}': expected a number 1-64",
                args[0]
            );
            return ExitCode::from(2);
        }
    };
    kiln::uci::bench::run(depth, &mut |line| println!("{line}"));
    ExitCode::SUCCESS
}

/// `kiln datagen ...`: self-play training positions (see
/// [`kiln::tune::datagen`]).
fn datagen_command(args: &[String]) -> ExitCode {
    use kiln::tune::datagen::{Options, USAGE, run};
    let options = match Options::parse(args) {
        Ok(options) => options,
        Err(err) => {
            eprintln!("kiln datagen: {err}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(n) => {
            eprintln!("kiln datagen: wrote {n} positions to {}", options.out);
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("kiln datagen: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `kiln tune ...`: Texel tuning of the evaluation weights (see
/// [`kiln::tune::texel`]).
fn tune_command(args: &[String]) -> ExitCode {
    use kiln::tune::texel::{Options, USAGE, run};
    let options = match Options::parse(args) {
        Ok(options) => options,
        Err(err) => {
            eprintln!("kiln tune: {err}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("kiln tune: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `kiln label ...`: training positions re-scored by another UCI engine
/// (see [`kiln::tune::label`]).
fn label_command(args: &[String]) -> ExitCode {
    use kiln::tune::label::{Options, USAGE, run};
    let options = match Options::parse(args) {
        Ok(options) => options,
        Err(err) => {
            eprintln!("kiln label: {err}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(summary) => {
            eprintln!(
                "kiln label: wrote {} positions to {} ({} skipped: malformed, or no score)",
                summary.labelled, options.out, summary.skipped
            );
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("kiln label: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `kiln plot --params <file> [--losses <file>] --out <dir>`: the pictures
/// of the tuning documentation (see `kiln::tune::plot`), in builds with the
/// cargo feature `plot`.
#[cfg(feature = "plot")]
fn plot_command(args: &[String]) -> ExitCode {
    use kiln::tune::plot::{Options, run};
    use std::path::PathBuf;
    let usage = "usage: kiln plot --params <params.txt> [--losses <tune stdout log>] --out <dir>";
    let (mut params, mut losses, mut out) = (None, None, None);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((flag, value)) if arg.starts_with("--") => (flag, Some(value.to_string())),
            _ => (arg.as_str(), None),
        };
        let slot = match flag {
            "--params" => &mut params,
            "--losses" => &mut losses,
            "--out" => &mut out,
            _ => {
                eprintln!("kiln plot: unknown option '{arg}' ({usage})");
                return ExitCode::from(2);
            }
        };
        let Some(value) = inline.or_else(|| args.next().cloned()) else {
            eprintln!("kiln plot: option '{flag}' needs a value ({usage})");
            return ExitCode::from(2);
        };
        *slot = Some(PathBuf::from(value));
    }
    let (Some(params), Some(out)) = (params, out) else {
        eprintln!("kiln plot: --params and --out are required ({usage})");
        return ExitCode::from(2);
    };
    match run(&Options {
        params,
        losses,
        out,
    }) {
        Ok(written) => {
            for path in written {
                eprintln!("kiln plot: wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("kiln plot: {err}");
            ExitCode::FAILURE
        }
    }
}

/// `kiln plot` in a build without the `plot` feature: says how to get one.
#[cfg(not(feature = "plot"))]
fn plot_command(_: &[String]) -> ExitCode {
    eprintln!(
        "kiln plot: this build has no plotting; build with the cargo feature 'plot' \
         (cargo run --release --features plot -- plot ...)"
    );
    ExitCode::from(2)
}

/// `kiln perft <depth> [fen]`: divide, then `Nodes searched: N`.
fn perft_command(args: &[String]) -> ExitCode {
    let usage = "usage: kiln perft <depth> [fen]";
    let Some(depth_text) = args.first() else {
        eprintln!("kiln perft: missing depth ({usage})");
        return ExitCode::from(2);
    };
    let depth = match depth_text.parse::<u32>() {
        Ok(depth) if depth <= 64 => depth,
        _ => {
            eprintln!("kiln perft: bad depth '{depth_text}': expected a number 0-64 ({usage})");
            return ExitCode::from(2);
        }
    };
    let mut board = if args.len() > 1 {
        match kiln::board::Board::from_fen(&args[1..].join(" ")) {
            Ok(board) => board,
            Err(err) => {
                eprintln!("kiln perft: bad FEN: {err}");
                return ExitCode::from(2);
            }
        }
    } else {
        kiln::board::Board::startpos()
    };
    // Castling is printed king-takes-rook when the position is not a
    // standard one (the only unambiguous form in Chess960).
    let chess960 = board.is_chess960();
    let mut out = std::io::stdout().lock();
    match kiln::movegen::perft::divide(&mut board, depth, chess960, &mut out) {
        Ok(_) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("kiln perft: {err}");
            ExitCode::FAILURE
        }
    }
}
