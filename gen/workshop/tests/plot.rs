//! `kiln_workshop::plot`: both pictures from the shipped parameter file and a
//! small losses file, and the errors a user can cause.

use std::path::{Path, PathBuf};

use kiln_workshop::fit::{EpochLoss, LineError, LossLog, LossesError};
use kiln_workshop::plot::{Options, PlotError, run};

const PARAMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../src/eval/params.txt");

/// A fresh, empty folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kiln-plot-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary folder");
    dir
}

/// Decodes the PNG at `path` in full; returns its size and how many
/// distinct colours it has.
fn decode(path: &Path) -> ((u32, u32), usize) {
    let file = std::fs::File::open(path).expect("picture written");
    let mut reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG header");
    let mut pixels = vec![0; reader.output_buffer_size().expect("buffer size")];
    let info = reader.next_frame(&mut pixels).expect("PNG image data");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    let mut colours: Vec<&[u8]> = pixels[..info.buffer_size()].chunks(3).collect();
    colours.sort_unstable();
    colours.dedup();
    ((info.width, info.height), colours.len())
}

/// A tuner's losses, written as `kiln-workshop tune --losses` writes them.
fn write_losses(path: &Path) {
    let mut log = LossLog::create(path.to_str()).expect("losses file created");
    for (epoch, loss, held_out) in [
        (0, 0.095, 0.094),
        (1, 0.093, 0.0935),
        (2, 0.0925, 0.0934),
        (3, 0.0923, 0.09345),
    ] {
        log.record(EpochLoss {
            epoch,
            loss,
            held_out: Some(held_out),
        });
    }
    log.finish().expect("losses written");
}

#[test]
fn draws_both_pictures_from_the_shipped_parameters() {
    let dir = temp_dir("both");
    let log = dir.join("losses.jsonl");
    write_losses(&log);
    let out = dir.join("pictures");
    let written = run(&Options {
        params: Some(PARAMS.into()),
        losses: Some(log),
        curve: None,
        out: out.clone(),
    })
    .expect("pictures drawn");
    assert_eq!(written, [out.join("psqt.png"), out.join("loss.png")]);
    let (size, colours) = decode(&written[0]);
    assert_eq!(size, (1504, 1170));
    // Twelve heat maps: far more than a few flat colours.
    assert!(colours > 200, "psqt.png has {colours} colours");
    let (size, colours) = decode(&written[1]);
    assert_eq!(size, (1000, 600));
    assert!(colours > 20, "loss.png has {colours} colours");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn without_a_log_draws_the_tables_only() {
    let dir = temp_dir("tables");
    let written = run(&Options {
        params: Some(PARAMS.into()),
        losses: None,
        curve: None,
        out: dir.clone(),
    })
    .expect("picture drawn");
    assert_eq!(written, [dir.join("psqt.png")]);
    assert!(!dir.join("loss.png").exists());
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// The picture of a trainer's losses: from epoch 1, without held-out
/// losses.
#[test]
fn draws_a_loss_curve_without_held_out_losses() {
    let dir = temp_dir("trainer");
    let log = dir.join("train.jsonl");
    std::fs::write(
        &log,
        "{\"epoch\":1,\"loss\":0.03,\"held_out\":null}\n{\"epoch\":2,\"loss\":0.02}\n",
    )
    .expect("losses written");
    let written = run(&Options {
        params: None,
        losses: Some(log),
        curve: None,
        out: dir.clone(),
    })
    .expect("picture drawn");
    assert_eq!(written, [dir.join("loss.png")]);
    let (size, colours) = decode(&written[0]);
    assert_eq!(size, (1000, 600));
    assert!(colours > 20, "loss.png has {colours} colours");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// Runs with the given losses file text; returns the error.
fn error_for_log(name: &str, text: &str) -> (PlotError, PathBuf) {
    let dir = temp_dir(name);
    let log = dir.join("losses.jsonl");
    std::fs::write(&log, text).expect("log written");
    let out = dir.join("pictures");
    let err = run(&Options {
        params: Some(PARAMS.into()),
        losses: Some(log),
        curve: None,
        out: out.clone(),
    })
    .expect_err("a bad log");
    // Inputs are checked before anything is written.
    assert!(!out.exists(), "{err}");
    std::fs::remove_dir_all(&dir).expect("clean up");
    (err, dir)
}

#[test]
fn a_file_without_records_is_an_error() {
    let (err, dir) = error_for_log("no-epochs", "\n");
    assert!(matches!(err, PlotError::NoEpochs { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains(&dir.join("losses.jsonl").display().to_string()));
    assert!(message.contains("no loss record"), "{message}");
}

#[test]
fn a_malformed_record_is_an_error_naming_its_line() {
    let line_error = |err: &PlotError| match err {
        PlotError::Losses(LossesError::Line { line, error, .. }) => Some((*line, error.clone())),
        _ => None,
    };
    let (err, _) = error_for_log(
        "bad-line",
        "{\"epoch\":0,\"loss\":0.09}\n{\"epoch\":1,\"loss\":\"x\"}\n",
    );
    assert!(
        matches!(line_error(&err), Some((2, LineError::Field("loss", _)))),
        "{err:?}"
    );
    assert!(err.to_string().contains("losses.jsonl:2: "), "{err}");
    // The printed output of a run is not a losses file.
    let (err, _) = error_for_log("printed", "epoch 0 loss 0.09 held-out 0.09\n");
    assert!(
        matches!(line_error(&err), Some((1, LineError::Syntax { .. }))),
        "{err:?}"
    );
    let (err, _) = error_for_log(
        "two-runs",
        "{\"epoch\":0,\"loss\":0.09}\n{\"epoch\":0,\"loss\":0.09}\n",
    );
    assert!(err.to_string().contains("epoch 0 after epoch 0"), "{err}");
    let (err, _) = error_for_log(
        "diverged",
        "{\"epoch\":0,\"loss\":0.09}\n{\"epoch\":1,\"loss\":null}\n",
    );
    assert!(
        matches!(err, PlotError::BadLoss { epoch: 1, .. }),
        "{err:?}"
    );
}

#[test]
fn a_missing_file_is_an_error_naming_it() {
    let dir = temp_dir("missing");
    for (params, losses) in [
        (dir.join("absent.txt"), None),
        (PathBuf::from(PARAMS), Some(dir.join("absent.jsonl"))),
    ] {
        let missing = losses.clone().unwrap_or(params.clone());
        let err = run(&Options {
            params: Some(params),
            losses,
            curve: None,
            out: dir.join("pictures"),
        })
        .expect_err("a missing file");
        assert!(matches!(err, PlotError::Read { .. }), "{err:?}");
        assert!(
            err.to_string().contains(&missing.display().to_string()),
            "{err}"
        );
        assert!(std::error::Error::source(&err).is_some());
    }
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn a_file_that_is_not_a_parameter_file_is_an_error() {
    let dir = temp_dir("not-params");
    let params = dir.join("params.txt");
    std::fs::write(&params, "[material]\npawn 100 100\n").expect("file written");
    let err = run(&Options {
        params: Some(params),
        losses: None,
        curve: None,
        out: dir.join("pictures"),
    })
    .expect_err("not a parameter file");
    assert!(matches!(err, PlotError::Params { .. }), "{err:?}");
    assert!(err.to_string().contains("missing section"), "{err}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

const CURVE: &str = "\
# positions elo low high
450186 -481.6 -3600 -335.5
1500000 -120 -165 -75  # a comment after the numbers
";

/// Draws the curve `text`, written to a file named `file`, alone; checks
/// that the one picture is named after the file, is 1000×600 and has more
/// than a few colours.
fn draws_curve_named_after_its_file(file: &str, text: &str) {
    let dir = temp_dir(file);
    let curve = dir.join(file);
    std::fs::write(&curve, text).expect("curve written");
    let out = dir.join("pictures");
    let written = run(&Options {
        params: None,
        losses: None,
        curve: Some(curve.clone()),
        out: out.clone(),
    })
    .expect("picture drawn");
    let png = curve.with_extension("png");
    let name = png.file_name().expect("a file name");
    assert_eq!(written, [out.join(name)]);
    let (size, colours) = decode(&written[0]);
    assert_eq!(size, (1000, 600));
    assert!(colours > 20, "{name:?} has {colours} colours");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

#[test]
fn draws_the_learning_curve_alone() {
    draws_curve_named_after_its_file("curve.txt", CURVE);
}

/// Networks of several shapes against one reference: a line and a legend
/// entry for each series, each series in order of its own positions.
const SERIES_CURVE: &str = "\
3870348 -70 -110 -30 N=128
3870348 -95 -140 -50 N=256
9000000 10 -30 50 N=128
9000000 25 -15 65 N=256
";

#[test]
fn draws_a_learning_curve_of_several_series() {
    draws_curve_named_after_its_file("stage2.txt", SERIES_CURVE);
}

#[test]
fn a_malformed_curve_line_is_an_error_naming_its_line() {
    let dir = temp_dir("bad-curve");
    let curve = dir.join("curve.txt");
    for (text, expected) in [
        ("100 5 3 7\n50 6 3 7\n", ":2: 50 positions after 100"),
        (
            "100 5 3\n",
            ":1: expected '<positions> <elo> <low> <high> [<series>]'",
        ),
        (
            "100 5 3 7 a b\n",
            ":1: expected '<positions> <elo> <low> <high> [<series>]'",
        ),
        (
            "100 5 3 7 a\n50 5 3 7 b\n40 5 3 7 a\n",
            ":3: 40 positions after 100",
        ),
        (
            "1 5 3 7 a\n1 5 3 7 b\n1 5 3 7 c\n1 5 3 7 d\n1 5 3 7 e\n1 5 3 7 f\n1 5 3 7 g\n1 5 3 7 h\n\
             1 5 3 7 i\n",
            ":9: more than 8 series",
        ),
        ("100 x 3 7\n", ":1: bad number 'x'"),
        (
            "100 9 3 7\n",
            ":1: the interval 3..7 does not hold the Elo 9",
        ),
        ("0 1 1 1\n", ":1: bad position count '0'"),
        (
            "# nothing\n",
            "no '<positions> <elo> <low> <high> [<series>]' line",
        ),
    ] {
        std::fs::write(&curve, text).expect("curve written");
        let err = run(&Options {
            params: None,
            losses: None,
            curve: Some(curve.clone()),
            out: dir.join("pictures"),
        })
        .expect_err("a bad curve");
        assert!(matches!(err, PlotError::CurveLine { .. }), "{err:?}");
        assert!(err.to_string().contains(expected), "{err}");
        assert!(!dir.join("pictures").exists());
    }
    std::fs::remove_dir_all(&dir).expect("clean up");
}
