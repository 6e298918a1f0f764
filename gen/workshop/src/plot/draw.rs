//! Drawing the pictures of `kiln-workshop plot` (see [`super`]).

use std::fmt;
use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::coord::combinators::BindKeyPoints;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use kiln_format::params::{self as params_file, PIECES};

use super::Options;
use crate::fit::{self, EpochLoss, LossesError};

/// The font every text is drawn in (licence: `fonts/LICENSE-DejaVu.txt`).
const FONT: &[u8] = include_bytes!("fonts/DejaVuSans-ascii.ttf");

/// The family name the font is registered under; plotters draws axis labels
/// in this family unless told otherwise.
const FAMILY: &str = "sans-serif";

/// Why no picture could be made.
#[derive(Debug)]
pub enum PlotError {
    /// An input file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The parameter file is not in the format of `src/eval/params.txt`.
    Params {
        /// The file.
        path: PathBuf,
        /// What the parser said.
        error: params_file::ParamsError,
    },
    /// A line of the losses file is not a loss record
    /// ([`fit::EpochLoss`]), or the epochs do not count up; the error
    /// names the file and the line.
    Losses(LossesError),
    /// The losses file has no record.
    NoEpochs {
        /// The file.
        path: PathBuf,
    },
    /// A loss of the file is not a finite number at least 0 (a run that
    /// diverged writes `null`): there is no curve to draw through it.
    BadLoss {
        /// The file.
        path: PathBuf,
        /// The epoch whose loss it is.
        epoch: u32,
    },
    /// A line of the learning-curve file is not `<positions> <elo> <low>
    /// <high> [<series>]` with each series' positions counting up, names a
    /// series beyond the palette, or the file has no such line.
    CurveLine {
        /// The file.
        path: PathBuf,
        /// 1-based line number (0: the file as a whole).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The output folder could not be created.
    CreateDir {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The compiled-in font could not be loaded.
    Font,
    /// A picture could not be drawn.
    Draw {
        /// The picture's file.
        path: PathBuf,
        /// What plotters said.
        source: DrawError,
    },
    /// A picture's file could not be created.
    Create {
        /// The picture's file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A picture could not be encoded as PNG or written.
    Encode {
        /// The picture's file.
        path: PathBuf,
        /// What the encoder said.
        source: png::EncodingError,
    },
}

/// What a drawing operation on the in-memory bitmap can fail with.
pub type DrawError = DrawingAreaErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>;

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlotError::Read { path, source } => {
                write!(f, "cannot read '{}': {source}", path.display())
            }
            PlotError::Params { path, error } => write!(
                f,
                "'{}' is not a parameter file like src/eval/params.txt: {error}",
                path.display()
            ),
            PlotError::Losses(error) => error.fmt(f),
            PlotError::NoEpochs { path } => write!(
                f,
                "'{}' has no loss record (expected the --losses file of 'kiln-workshop tune' or 'kiln-workshop train')",
                path.display()
            ),
            PlotError::BadLoss { path, epoch } => write!(
                f,
                "'{}': the losses of epoch {epoch} are not numbers of at least 0 (did the run diverge?)",
                path.display()
            ),
            PlotError::CurveLine {
                path,
                line: 0,
                message,
            } => write!(f, "{}: {message}", path.display()),
            PlotError::CurveLine {
                path,
                line,
                message,
            } => write!(f, "{}:{line}: {message}", path.display()),
            PlotError::CreateDir { path, source } => {
                write!(f, "cannot create folder '{}': {source}", path.display())
            }
            PlotError::Font => f.write_str("the compiled-in font is not a valid TrueType font"),
            PlotError::Draw { path, source } => {
                write!(f, "cannot draw '{}': {source}", path.display())
            }
            PlotError::Create { path, source } => {
                write!(f, "cannot create '{}': {source}", path.display())
            }
            PlotError::Encode { path, source } => {
                write!(f, "cannot write '{}': {source}", path.display())
            }
        }
    }
}

impl std::error::Error for PlotError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlotError::Read { source, .. }
            | PlotError::CreateDir { source, .. }
            | PlotError::Create { source, .. } => Some(source),
            PlotError::Params { error, .. } => Some(error),
            PlotError::Draw { source, .. } => Some(source),
            PlotError::Encode { source, .. } => Some(source),
            PlotError::Losses(error) => Some(error),
            PlotError::NoEpochs { .. }
            | PlotError::BadLoss { .. }
            | PlotError::CurveLine { .. }
            | PlotError::Font => None,
        }
    }
}

/// Draws the pictures `options` ask for; returns the files written
/// (`psqt.png`, `loss.png`, `<curve file's stem>.png`, in that order, each if
/// its input was given). Every input is read and checked before anything
/// is written.
pub fn run(options: &Options) -> Result<Vec<PathBuf>, PlotError> {
    let params = match &options.params {
        Some(path) => {
            Some(
                params_file::parse(&read(path)?).map_err(|error| PlotError::Params {
                    path: path.clone(),
                    error,
                })?,
            )
        }
        None => None,
    };
    let losses = match &options.losses {
        Some(path) => Some(parse_losses(path, &read(path)?)?),
        None => None,
    };
    let curve = match &options.curve {
        Some(path) => Some(parse_curve(path, &read(path)?)?),
        None => None,
    };
    std::fs::create_dir_all(&options.out).map_err(|source| PlotError::CreateDir {
        path: options.out.clone(),
        source,
    })?;
    // Registering again replaces the font with itself: harmless, and it
    // keeps `run` free of any state set up beforehand.
    plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).map_err(|_| PlotError::Font)?;

    let mut written = Vec::new();
    if let (Some(params), Some(file)) = (params, &options.params) {
        let path = options.out.join("psqt.png");
        let source = file_name(file);
        render(&path, PSQT_SIZE, |area| draw_psqt(area, &params, &source))?;
        written.push(path);
    }
    if let (Some(losses), Some(log)) = (losses, &options.losses) {
        let path = options.out.join("loss.png");
        render(&path, LOSS_SIZE, |area| {
            draw_losses(area, &losses, &file_name(log))
        })?;
        written.push(path);
    }
    if let (Some(curve), Some(file)) = (curve, &options.curve) {
        // Named after its file, so that several curves share a folder.
        let stem = file.file_stem().map_or_else(
            || "learning-curve".into(),
            |stem| stem.to_string_lossy().into_owned(),
        );
        let path = options.out.join(format!("{stem}.png"));
        render(&path, LOSS_SIZE, |area| draw_curve(area, &curve))?;
        written.push(path);
    }
    Ok(written)
}

fn read(path: &Path) -> Result<String, PlotError> {
    std::fs::read_to_string(path).map_err(|source| PlotError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// The last component of `path`, for titles.
fn file_name(path: &Path) -> String {
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}

/// The records of the losses file `path` (its text `text`): at least
/// one, each loss a finite number at least 0.
fn parse_losses(path: &Path, text: &str) -> Result<Vec<EpochLoss>, PlotError> {
    let records = fit::parse_losses(path, text).map_err(PlotError::Losses)?;
    if records.is_empty() {
        return Err(PlotError::NoEpochs {
            path: path.to_path_buf(),
        });
    }
    let drawable = |x: f64| x.is_finite() && x >= 0.0;
    if let Some(bad) = records
        .iter()
        .find(|r| !drawable(r.loss) || r.held_out.is_some_and(|h| !drawable(h)))
    {
        return Err(PlotError::BadLoss {
            path: path.to_path_buf(),
            epoch: bad.epoch,
        });
    }
    Ok(records)
}

/// One match of a learning curve: the network trained on `positions`
/// positions scored `elo` against the curve's reference engine, with the
/// 95 % interval `low..=high`; `series` names the network's shape (one
/// line of the picture each), empty when the file names none.
#[derive(Clone, Debug, PartialEq)]
struct CurvePoint {
    positions: u64,
    elo: f64,
    low: f64,
    high: f64,
    series: String,
}

fn parse_curve(path: &Path, text: &str) -> Result<Vec<CurvePoint>, PlotError> {
    let mut points: Vec<CurvePoint> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let code = line.split('#').next().unwrap_or("");
        let words: Vec<&str> = code.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let bad = |message: String| PlotError::CurveLine {
            path: path.to_path_buf(),
            line: n + 1,
            message,
        };
        let (positions, elo, low, high, series) = match words[..] {
            [positions, elo, low, high] => (positions, elo, low, high, ""),
            [positions, elo, low, high, series] => (positions, elo, low, high, series),
            _ => {
                return Err(bad(format!(
                    "expected '<positions> <elo> <low> <high> [<series>]', found '{}'",
                    line.trim()
                )));
            }
        };
        let positions = match positions.parse::<u64>() {
            Ok(p) if p > 0 => p,
            _ => return Err(bad(format!("bad position count '{positions}'"))),
        };
        let number = |word: &str| match word.parse::<f64>() {
            Ok(x) if x.is_finite() && x.abs() <= 10_000.0 => Ok(x),
            _ => Err(bad(format!("bad number '{word}'"))),
        };
        let point = CurvePoint {
            positions,
            elo: number(elo)?,
            low: number(low)?,
            high: number(high)?,
            series: series.to_string(),
        };
        if !(point.low <= point.elo && point.elo <= point.high) {
            return Err(bad(format!(
                "the interval {low}..{high} does not hold the Elo {elo}"
            )));
        }
        if let Some(last) = points
            .iter()
            .rev()
            .find(|p| p.series == point.series)
            .filter(|last| positions <= last.positions)
        {
            return Err(bad(format!(
                "{positions} positions after {}: list each series' matches by position count",
                last.positions
            )));
        }
        if series_count(&points, &point.series) > SERIES_COLORS.len() {
            return Err(bad(format!("more than {} series", SERIES_COLORS.len())));
        }
        points.push(point);
    }
    if points.is_empty() {
        return Err(PlotError::CurveLine {
            path: path.to_path_buf(),
            line: 0,
            message: "no '<positions> <elo> <low> <high> [<series>]' line".into(),
        });
    }
    Ok(points)
}

/// Draws a `size` picture with `draw` and writes it to `path` as a PNG.
fn render(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), DrawError>,
) -> Result<(), PlotError> {
    let drawn = |source| PlotError::Draw {
        path: path.to_path_buf(),
        source,
    };
    let encoded = |source| PlotError::Encode {
        path: path.to_path_buf(),
        source,
    };
    let mut rgb = vec![0u8; size.0 as usize * size.1 as usize * 3];
    {
        let area = BitMapBackend::with_buffer(&mut rgb, size).into_drawing_area();
        area.fill(&WHITE).map_err(drawn)?;
        draw(&area).map_err(drawn)?;
        area.present().map_err(drawn)?;
    }
    let file = std::fs::File::create(path).map_err(|source| PlotError::Create {
        path: path.to_path_buf(),
        source,
    })?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), size.0, size.1);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::High);
    let mut writer = encoder.write_header().map_err(encoded)?;
    writer.write_image_data(&rgb).map_err(encoded)?;
    writer.finish().map_err(encoded)
}

fn style(size: u32, color: RGBColor) -> TextStyle<'static> {
    TextStyle {
        font: (FAMILY, size).into_font(),
        color: color.to_backend_color(),
        pos: Pos::default(),
    }
}

fn anchored(style: TextStyle<'static>, h: HPos, v: VPos) -> TextStyle<'static> {
    style.pos(Pos::new(h, v))
}

const INK: RGBColor = RGBColor(40, 40, 40);
const GREY: RGBColor = RGBColor(205, 205, 205);

// Layout of psqt.png: four boards a row (a piece's middlegame and endgame
// side by side), three rows, the colour scale at the right.
const SQUARE: i32 = 34;
const BOARD: i32 = 8 * SQUARE;
const HEADER: i32 = 84;
const LEFT: i32 = 40;
const RANK_LABELS: i32 = 20;
const BOARD_GAP: i32 = 22;
const PIECE_GAP: i32 = 56;
const BOARD_TITLE: i32 = 34;
const ROW_HEIGHT: i32 = BOARD_TITLE + BOARD + 56;
const SCALE_LEFT: i32 = LEFT + 4 * (RANK_LABELS + BOARD) + 2 * BOARD_GAP + PIECE_GAP + 56;
const PSQT_SIZE: (u32, u32) = ((SCALE_LEFT + 140) as u32, (HEADER + 3 * ROW_HEIGHT) as u32);

/// Diverging colour scale (ColorBrewer RdBu, 11 classes): red for
/// penalties, white for zero, blue for bonuses.
const SCALE: [RGBColor; 11] = [
    RGBColor(103, 0, 31),
    RGBColor(178, 24, 43),
    RGBColor(214, 96, 77),
    RGBColor(244, 165, 130),
    RGBColor(253, 219, 199),
    RGBColor(247, 247, 247),
    RGBColor(209, 229, 240),
    RGBColor(146, 197, 222),
    RGBColor(67, 147, 195),
    RGBColor(33, 102, 172),
    RGBColor(5, 48, 97),
];

/// The colour of `t` in `-1..=1` (clamped) on [`SCALE`].
fn scale_color(t: f64) -> RGBColor {
    let x = (t.clamp(-1.0, 1.0) + 1.0) / 2.0 * (SCALE.len() - 1) as f64;
    let i = (x.floor() as usize).min(SCALE.len() - 2);
    let f = x - i as f64;
    let (a, b) = (SCALE[i], SCALE[i + 1]);
    let mix = |p: u8, q: u8| (f64::from(p) + (f64::from(q) - f64::from(p)) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// Dark text on light squares, white on saturated ones.
fn text_color(background: RGBColor) -> RGBColor {
    let luma = 0.299 * f64::from(background.0)
        + 0.587 * f64::from(background.1)
        + 0.114 * f64::from(background.2);
    if luma < 140.0 { WHITE } else { INK }
}

fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |c| {
        c.to_ascii_uppercase().to_string() + chars.as_str()
    })
}

fn draw_psqt(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    params: &params_file::Params,
    source: &str,
) -> Result<(), DrawError> {
    let all = params
        .tables
        .iter()
        .flat_map(|(mg, eg)| mg.iter().chain(eg));
    let (lo, hi) = all.fold((0, 0), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    // The scale's end: the largest magnitude, rounded up to a multiple of 10.
    let end = ((lo.abs().max(hi).max(1) + 9) / 10 * 10) as f64;

    let title = format!("Piece-square tables of {source}");
    area.draw_text(
        &title,
        &anchored(style(30, INK), HPos::Center, VPos::Top),
        (PSQT_SIZE.0 as i32 / 2, 14),
    )?;
    area.draw_text(
        "centipawns the square adds to the piece's material, White's side, rank 8 at the top",
        &anchored(style(19, INK), HPos::Center, VPos::Top),
        (PSQT_SIZE.0 as i32 / 2, 52),
    )?;

    for (piece, name) in PIECES.iter().enumerate() {
        let (row, pair) = (piece / 2, piece % 2);
        let (mg, eg) = &params.tables[piece];
        let (mg_material, eg_material) = params.material[piece];
        for (stage, (table, stage_name, material)) in [
            (mg, "middlegame", mg_material),
            (eg, "endgame", eg_material),
        ]
        .into_iter()
        .enumerate()
        {
            let column = pair as i32 * 2 + stage as i32;
            let x = LEFT
                + column * (RANK_LABELS + BOARD)
                + (column - pair as i32) * BOARD_GAP
                + pair as i32 * PIECE_GAP
                + RANK_LABELS;
            let y = HEADER + row as i32 * ROW_HEIGHT + BOARD_TITLE;
            let title = format!("{} {stage_name} (material {material})", capitalised(name));
            let never = |rank: usize| *name == "pawn" && (rank == 0 || rank == 7);
            draw_board(area, (x, y), &title, table, end, never)?;
        }
    }
    draw_scale(area, end, lo, hi)
}

/// One 8×8 map with its top-left corner at `at`; squares on the ranks
/// (0-based) where `never` holds are grey and unlabelled.
fn draw_board(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    at: (i32, i32),
    title: &str,
    table: &[i32; 64],
    end: f64,
    never: impl Fn(usize) -> bool,
) -> Result<(), DrawError> {
    let (x0, y0) = at;
    area.draw_text(
        title,
        &anchored(style(18, INK), HPos::Center, VPos::Bottom),
        (x0 + BOARD / 2, y0 - 10),
    )?;
    for rank in 0..8 {
        for file in 0..8 {
            let value = table[rank * 8 + file];
            let left = x0 + file as i32 * SQUARE;
            let top = y0 + (7 - rank as i32) * SQUARE;
            let color = if never(rank) {
                GREY
            } else {
                scale_color(f64::from(value) / end)
            };
            area.draw(&Rectangle::new(
                [(left, top), (left + SQUARE, top + SQUARE)],
                color.filled(),
            ))?;
            if !never(rank) {
                area.draw_text(
                    &value.to_string(),
                    &anchored(style(13, text_color(color)), HPos::Center, VPos::Center),
                    (left + SQUARE / 2, top + SQUARE / 2),
                )?;
            }
        }
    }
    area.draw(&Rectangle::new(
        [(x0, y0), (x0 + BOARD, y0 + BOARD)],
        INK.stroke_width(1),
    ))?;
    for i in 0..8 {
        let file = char::from(b'a' + i as u8).to_string();
        area.draw_text(
            &file,
            &anchored(style(15, INK), HPos::Center, VPos::Top),
            (x0 + i * SQUARE + SQUARE / 2, y0 + BOARD + 6),
        )?;
        area.draw_text(
            &(8 - i).to_string(),
            &anchored(style(15, INK), HPos::Right, VPos::Center),
            (x0 - 6, y0 + i * SQUARE + SQUARE / 2),
        )?;
    }
    Ok(())
}

/// The colour bar from `-end` to `end`, and the range the tables span.
fn draw_scale(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    end: f64,
    lo: i32,
    hi: i32,
) -> Result<(), DrawError> {
    let (x0, width) = (SCALE_LEFT, 26);
    let top = HEADER + BOARD_TITLE + 40;
    let height = 3 * ROW_HEIGHT - 2 * BOARD_TITLE - 140;
    area.draw_text(
        "centipawns",
        &anchored(style(16, INK), HPos::Center, VPos::Bottom),
        (x0 + width / 2, top - 14),
    )?;
    for dy in 0..height {
        let t = 1.0 - 2.0 * f64::from(dy) / f64::from(height - 1);
        area.draw(&Rectangle::new(
            [(x0, top + dy), (x0 + width, top + dy + 1)],
            scale_color(t).filled(),
        ))?;
    }
    area.draw(&Rectangle::new(
        [(x0, top), (x0 + width, top + height)],
        INK.stroke_width(1),
    ))?;
    for tick in 0..=4 {
        let value = end - end * f64::from(tick) / 2.0;
        let y = top + (height - 1) * tick / 4;
        area.draw(&PathElement::new(
            vec![(x0 + width, y), (x0 + width + 6, y)],
            INK,
        ))?;
        area.draw_text(
            &format!("{value:+.0}").replace("+0", "0"),
            &anchored(style(15, INK), HPos::Left, VPos::Center),
            (x0 + width + 10, y),
        )?;
    }
    for (i, line) in ["tables span", &format!("{lo} to {hi}")].iter().enumerate() {
        area.draw_text(
            line,
            &anchored(style(15, INK), HPos::Center, VPos::Top),
            (x0 + width / 2 + 12, top + height + 20 + 20 * i as i32),
        )?;
    }
    Ok(())
}

const LOSS_SIZE: (u32, u32) = (1000, 600);
/// Height of the band above the plot that holds the caption and legend.
const HEAD: i32 = 84;
/// Okabe-Ito blue and vermillion: told apart with any colour vision.
const TRAINING: RGBColor = RGBColor(0, 114, 178);
const HELD_OUT: RGBColor = RGBColor(213, 94, 0);

/// The training loss per epoch, and the held-out loss where the records
/// have one, of the losses file named `source`.
fn draw_losses(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    epochs: &[EpochLoss],
    source: &str,
) -> Result<(), DrawError> {
    let with_held_out = epochs.iter().any(|e| e.held_out.is_some());
    let values = epochs
        .iter()
        .flat_map(|e| [Some(e.loss), e.held_out].into_iter().flatten());
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let pad = ((hi - lo) * 0.08).max(hi.abs() * 1e-4).max(1e-6);
    let (lo, hi) = ((lo - pad).max(0.0), hi + pad);
    // Enough decimals to tell the y-axis labels apart.
    let decimals = ((-((hi - lo) / 5.0).log10()).ceil().max(0.0) as usize + 1).min(8);
    let first = epochs[0].epoch;
    let last = epochs[epochs.len() - 1].epoch.max(first.saturating_add(1));

    // The records say nothing of the run but its losses: the file names it.
    let caption = format!("Loss per epoch ({source})");
    // Caption and legend above the plot, where no curve can run under them.
    let (head, plot) = area.split_vertically(HEAD);
    head.draw_text(
        &caption,
        &anchored(style(24, INK), HPos::Center, VPos::Top),
        (LOSS_SIZE.0 as i32 / 2, 16),
    )?;
    let markers = epochs.len() <= 60;
    let mut series = vec![("training", TRAINING, true)];
    if with_held_out {
        series.push(("held-out", HELD_OUT, false));
    }
    let mut legend_right = LOSS_SIZE.0 as i32 - 30;
    for &(label, color, _) in series.iter().rev() {
        let (width, _) = head.estimate_text_size(label, &style(18, INK))?;
        let left = legend_right - width as i32 - 36;
        let y = HEAD - 22;
        head.draw(&PathElement::new(
            vec![(left, y), (left + 28, y)],
            color.stroke_width(3),
        ))?;
        if markers {
            head.draw(&Circle::new((left + 14, y), 4, color.filled()))?;
        }
        head.draw_text(
            label,
            &anchored(style(18, INK), HPos::Left, VPos::Center),
            (left + 36, y),
        )?;
        legend_right = left - 30;
    }

    let mut chart = ChartBuilder::on(&plot)
        .margin(24)
        .margin_top(8)
        .x_label_area_size(56)
        .y_label_area_size(96)
        .build_cartesian_2d(first..last, lo..hi)?;
    chart
        .configure_mesh()
        .x_desc("epoch (0: before the first step)")
        .y_desc("loss (mean squared error)")
        .axis_desc_style((FAMILY, 18).into_font().color(&INK))
        .label_style((FAMILY, 15).into_font().color(&INK))
        .y_label_formatter(&|v| format!("{v:.decimals$}"))
        .x_labels(12)
        .y_labels(8)
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;

    for (_, color, training) in series {
        // A record without a held-out loss (a run that held none out)
        // has no point on that curve.
        let points: Vec<(u32, f64)> = epochs
            .iter()
            .filter_map(|e| Some((e.epoch, if training { e.loss } else { e.held_out? })))
            .collect();
        chart.draw_series(LineSeries::new(
            points.iter().copied(),
            color.stroke_width(3),
        ))?;
        if markers {
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 4, color.filled())))?;
        }
    }
    Ok(())
}

/// How far below its point a lower bound is drawn at most (Elo).
const MAX_DRAWN_BELOW: f64 = 300.0;

/// The colours of a learning curve's series, in the order the file first
/// names them: Okabe and Ito's palette, which colour-blind readers tell
/// apart, less its yellow, too pale on white, then Paul Tol's wine.
const SERIES_COLORS: [RGBColor; 8] = [
    TRAINING,
    HELD_OUT,
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(136, 34, 85),
];

/// The series of `points` in the order they first appear.
fn series_names(points: &[CurvePoint]) -> Vec<&str> {
    let mut names: Vec<&str> = Vec::new();
    for point in points {
        if !names.contains(&point.series.as_str()) {
            names.push(&point.series);
        }
    }
    names
}

/// How many series `points` and one more point of `series` name.
fn series_count(points: &[CurvePoint], series: &str) -> usize {
    let names = series_names(points);
    names.len() + usize::from(!names.contains(&series))
}

/// The learning curve: Elo against a fixed reference engine by training
/// positions (millions, logarithmic axis), each point with its 95 %
/// interval, and the line of equal strength.
/// The 1-2-5 steps of each decade (…, 0.5, 1, 2, 5, 10, 20, …) within
/// `lo..=hi`: labels for a logarithmic axis that spans only a decade or
/// two, where powers of ten alone would give one or two.
fn one_two_five(lo: f64, hi: f64) -> Vec<f64> {
    let mut decade = 10f64.powf(lo.log10().floor());
    let mut steps = Vec::new();
    while decade <= hi {
        for step in [1.0, 2.0, 5.0] {
            let value = decade * step;
            if (lo..=hi).contains(&value) {
                steps.push(value);
            }
        }
        decade *= 10.0;
    }
    steps
}

fn draw_curve(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    points: &[CurvePoint],
) -> Result<(), DrawError> {
    let millions = |p: &CurvePoint| p.positions as f64 / 1e6;
    let (x_lo, x_hi) = points.iter().fold((f64::INFINITY, 0f64), |(lo, hi), p| {
        (lo.min(millions(p)), hi.max(millions(p)))
    });
    let (x_lo, x_hi) = (x_lo / 1.6, x_hi * 1.6);
    // At least a factor of ten, so that the logarithmic axis has labels
    // even when every point sits at one position count.
    let widen = (10.0 / (x_hi / x_lo)).max(1.0).sqrt();
    let (x_lo, x_hi) = (x_lo / widen, x_hi * widen);
    // A lower bound far below its point (a match the network nearly
    // lost outright has none to speak of) is cut at the picture's edge
    // rather than squashing every other point.
    let floor = |p: &CurvePoint| p.low.max(p.elo - MAX_DRAWN_BELOW);
    let (y_lo, y_hi) = points.iter().fold((0f64, 0f64), |(lo, hi), p| {
        (lo.min(floor(p)), hi.max(p.high))
    });
    let pad = ((y_hi - y_lo) * 0.08).max(10.0);
    let (y_lo, y_hi) = (y_lo - pad, y_hi + pad);

    let (head, plot) = area.split_vertically(HEAD);
    head.draw_text(
        "The network's learning curve: strength by training positions",
        &anchored(style(24, INK), HPos::Center, VPos::Top),
        (LOSS_SIZE.0 as i32 / 2, 16),
    )?;
    head.draw_text(
        "Elo against a fixed reference engine, with 95 % interval (docs/nnue.md)",
        &anchored(style(18, INK), HPos::Center, VPos::Top),
        (LOSS_SIZE.0 as i32 / 2, 48),
    )?;
    let mut chart = ChartBuilder::on(&plot)
        .margin(24)
        .margin_top(8)
        .x_label_area_size(56)
        .y_label_area_size(80)
        .build_cartesian_2d(
            (x_lo..x_hi)
                .log_scale()
                .with_key_points(one_two_five(x_lo, x_hi)),
            y_lo..y_hi,
        )?;
    chart
        .configure_mesh()
        .x_desc("training positions (millions, logarithmic)")
        .y_desc("Elo against the reference")
        .axis_desc_style((FAMILY, 18).into_font().color(&INK))
        .label_style((FAMILY, 15).into_font().color(&INK))
        .x_label_formatter(&|v| format!("{}", (v * 1e3).round() / 1e3))
        .y_label_formatter(&|v| format!("{v:.0}"))
        .y_labels(10)
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(215, 215, 215))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(x_lo, 0.0), (x_hi, 0.0)],
        GREY.stroke_width(2),
    ))?;
    let names = series_names(points);
    for (name, &color) in names.iter().zip(&SERIES_COLORS) {
        let line: Vec<&CurvePoint> = points.iter().filter(|p| p.series == *name).collect();
        chart.draw_series(line.iter().map(|p| {
            ErrorBar::new_vertical(
                millions(p),
                p.low.max(y_lo),
                p.elo,
                p.high,
                color.stroke_width(2),
                12,
            )
        }))?;
        let series = chart.draw_series(LineSeries::new(
            line.iter().map(|p| (millions(p), p.elo)),
            color.stroke_width(3),
        ))?;
        if !name.is_empty() {
            series.label(*name).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 24, y)], color.stroke_width(3))
            });
        }
        chart.draw_series(
            line.iter()
                .map(|p| Circle::new((millions(p), p.elo), 5, color.filled())),
        )?;
    }
    if names.iter().any(|name| !name.is_empty()) {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .label_font(style(16, INK))
            .background_style(WHITE.mix(0.9))
            .border_style(GREY)
            .draw()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::one_two_five;

    #[test]
    fn log_axis_labels_step_one_two_five() {
        assert_eq!(one_two_five(1.4, 23.0), [2.0, 5.0, 10.0, 20.0]);
        assert_eq!(one_two_five(0.3, 5.0), [0.5, 1.0, 2.0, 5.0]);
        assert_eq!(one_two_five(3.0, 4.0), Vec::<f64>::new());
    }
}
