//! Engine-specific build-time tables, written into `OUT_DIR` and `include!`d by
//! the engine (chess tables come from the `kiln-tables` crate):
//!
//! - `uci_keywords.rs`, `uci_options.rs`: `phf` maps from UCI command keywords
//!   (case-sensitive, as the protocol says) and lower-cased option names (UCI
//!   option names are case-insensitive) to the engine's enums;
//! - `psqt.rs`: the evaluation's piece-square tables, parsed from
//!   `src/eval/params.txt` (White's view, printed like a board), with material
//!   folded in, mirrored for Black through the FLIP table and packed as
//!   `S(mg, eg)` so the evaluation does no flipping or unpacking per piece;
//! - `eval_terms.rs`: the other evaluation weights from the same file
//!   (pawn structure, mobility, king safety), packed the same way;
//! - `mvv_lva.rs`: capture ordering scores;
//! - `lmr.rs`: late-move-reduction amounts, from the constants in
//!   `src/search/params.rs`.
//!
//! Build scripts run unoptimised, so everything here is small and cheap.

use std::collections::BTreeMap;
use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

/// The search tunables, shared with the engine (plain constants only).
#[path = "src/search/params.rs"]
mod search_params;

const PARAMS_FILE: &str = "src/eval/params.txt";
const PIECES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={PARAMS_FILE}");
    println!("cargo:rerun-if-changed=src/search/params.rs");

    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    write(&out, "uci_keywords.rs", &keyword_map());
    write(&out, "uci_options.rs", &option_map());
    write(&out, "mvv_lva.rs", &mvv_lva());
    write(&out, "lmr.rs", &lmr());

    let text = fs::read_to_string(PARAMS_FILE)
        .unwrap_or_else(|e| panic!("cannot read {PARAMS_FILE}: {e}"));
    let params = parse_params(&text).unwrap_or_else(|e| panic!("{PARAMS_FILE}: {e}"));
    write(&out, "psqt.rs", &psqt(&params));
    write(&out, "eval_terms.rs", &eval_terms(&params));
}

fn write(out: &Path, name: &str, code: &str) {
    let path = out.join(name);
    fs::write(&path, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}

/// UCI command keywords → `Keyword` variants. Commands are case-sensitive in
/// the UCI specification, so the keys are exactly as a GUI sends them.
fn keyword_map() -> String {
    let keywords = [
        ("uci", "Keyword::Uci"),
        ("debug", "Keyword::Debug"),
        ("isready", "Keyword::IsReady"),
        ("setoption", "Keyword::SetOption"),
        ("register", "Keyword::Register"),
        ("ucinewgame", "Keyword::UciNewGame"),
        ("position", "Keyword::Position"),
        ("go", "Keyword::Go"),
        ("stop", "Keyword::Stop"),
        ("ponderhit", "Keyword::PonderHit"),
        ("quit", "Keyword::Quit"),
        ("d", "Keyword::Display"),
        ("eval", "Keyword::Eval"),
        ("perft", "Keyword::Perft"),
        ("bench", "Keyword::Bench"),
    ];
    kiln_gen::phf_maps::str_map(
        "KEYWORDS",
        "UCI command keywords (case-sensitive) → [`Keyword`].",
        "Keyword",
        &keywords,
    )
}

/// Lower-cased UCI option names → `OptionName` variants (UCI option names
/// are case-insensitive; the engine lower-cases before the lookup).
fn option_map() -> String {
    let options = [
        ("hash", "OptionName::Hash"),
        ("clear hash", "OptionName::ClearHash"),
        ("threads", "OptionName::Threads"),
        ("move overhead", "OptionName::MoveOverhead"),
        ("ponder", "OptionName::Ponder"),
        ("uci_chess960", "OptionName::Chess960"),
        ("multipv", "OptionName::MultiPv"),
    ];
    kiln_gen::phf_maps::str_map(
        "OPTION_NAMES",
        "Lower-cased UCI option names → [`OptionName`].",
        "OptionName",
        &options,
    )
}

/// `MVV_LVA[victim][attacker]`: the most valuable victim first, and among
/// equal victims the least valuable attacker first. A king is never a victim.
fn mvv_lva() -> String {
    let mut s = String::from(
        "/// Capture ordering score, `MVV_LVA[victim][attacker]` (piece kinds\n\
         /// pawn..king): higher is searched first.\n\
         pub static MVV_LVA: [[i32; 6]; 6] = [\n",
    );
    for victim in 0..6i32 {
        s.push_str("    [");
        for attacker in 0..6i32 {
            let v = if victim == 5 {
                0
            } else {
                (victim + 1) * 8 - attacker
            };
            let _ = write!(s, "{v}, ");
        }
        s.push_str("],\n");
    }
    s.push_str("];\n");
    s
}

/// `LMR[depth][move_number]`, both capped at 63.
fn lmr() -> String {
    let base = f64::from(search_params::LMR_BASE_CENTI) / 100.0;
    let divisor = f64::from(search_params::LMR_DIVISOR_CENTI) / 100.0;
    let mut s = String::from(
        "/// Late-move reduction in plies, `LMR[depth][move_number]` (both capped\n\
         /// at 63): `base + ln(depth) * ln(move_number) / divisor`.\n\
         pub static LMR: [[u8; 64]; 64] = [\n",
    );
    for depth in 0..64 {
        s.push_str("    [");
        for moves in 0..64 {
            let r = if depth == 0 || moves == 0 {
                0.0
            } else {
                base + (depth as f64).ln() * (moves as f64).ln() / divisor
            };
            let _ = write!(s, "{}, ", r.max(0.0) as u8);
        }
        s.push_str("],\n");
    }
    s.push_str("];\n");
    s
}

/// The parsed parameter file.
struct Params {
    phase: [i32; 6],
    material: [(i32, i32); 6],
    /// `tables[piece] = (mg, eg)`, each indexed by square with A1 = 0.
    tables: [([i32; 64], [i32; 64]); 6],
    /// Named `(mg, eg)` terms from `[terms]`.
    terms: Vec<(String, i32, i32)>,
    /// Passed-pawn bonus by rank from the pawn's side (index 0 = own first rank).
    passed: [(i32, i32); 8],
    /// Per-square mobility weight `(mg, eg)` and the count that scores zero.
    mobility: [(i32, i32, i32); 6],
    /// King-attack units per attacking piece kind.
    king_attack: [i32; 6],
}

fn piece_index(name: &str) -> Result<usize, String> {
    PIECES
        .iter()
        .position(|p| *p == name)
        .ok_or_else(|| format!("unknown piece '{name}'"))
}

/// One row of a section: its line number, leading label (if any) and numbers.
type Row = (usize, Option<String>, Vec<i32>);

/// Parses `[section]` blocks of rows of integers, each row optionally led by
/// a label. Tables are read as a diagram: the first row of numbers is rank 8,
/// so row `r` (0-based) and column `f` hold square `(7 - r) * 8 + f`.
fn parse_params(text: &str) -> Result<Params, String> {
    let mut sections: BTreeMap<String, Vec<Row>> = BTreeMap::new();
    let mut current: Option<String> = None;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let name = name.trim().to_string();
            if sections.insert(name.clone(), Vec::new()).is_some() {
                return Err(format!("line {}: section [{name}] repeated", n + 1));
            }
            current = Some(name);
            continue;
        }
        let section = current
            .as_ref()
            .ok_or(format!("line {}: value outside a section", n + 1))?;
        let mut numbers = Vec::new();
        let mut label = None;
        for token in line.split_whitespace() {
            match token.parse::<i32>() {
                Ok(v) => numbers.push(v),
                Err(_) if label.is_none() && numbers.is_empty() => label = Some(token.to_string()),
                Err(_) => return Err(format!("line {}: bad number '{token}'", n + 1)),
            }
        }
        if let Some(rows) = sections.get_mut(section) {
            rows.push((n + 1, label, numbers));
        }
    }

    let take = |name: &str| {
        sections
            .get(name)
            .ok_or(format!("missing section [{name}]"))
    };
    // Rows of a section labelled by piece name: (line, piece index, numbers).
    let by_piece = |name: &str| -> Result<Vec<(usize, usize, Vec<i32>)>, String> {
        take(name)?
            .iter()
            .map(|(line, label, numbers)| {
                let label = label
                    .as_deref()
                    .ok_or(format!("line {line}: expected a piece name"))?;
                let piece = piece_index(label).map_err(|e| format!("line {line}: {e}"))?;
                Ok((*line, piece, numbers.clone()))
            })
            .collect()
    };

    let mut phase = [0; 6];
    let mut seen = [false; 6];
    for (line, piece, row) in by_piece("phase")? {
        let [weight] = row[..] else {
            return Err(format!("line {line}: expected '<piece> <weight>'"));
        };
        phase[piece] = weight;
        seen[piece] = true;
    }
    let mut material = [(0, 0); 6];
    for (line, piece, row) in by_piece("material")? {
        let [mg, eg] = row[..] else {
            return Err(format!("line {line}: expected '<piece> <mg> <eg>'"));
        };
        material[piece] = (mg, eg);
        if !seen[piece] {
            return Err(format!("line {line}: piece has no [phase] weight"));
        }
    }
    let mut mobility = [(0, 0, 0); 6];
    for (line, piece, row) in by_piece("mobility")? {
        let [mg, eg, center] = row[..] else {
            return Err(format!(
                "line {line}: expected '<piece> <mg> <eg> <center>'"
            ));
        };
        mobility[piece] = (mg, eg, center);
    }
    let mut king_attack = [0; 6];
    for (line, piece, row) in by_piece("king attack")? {
        let [units] = row[..] else {
            return Err(format!("line {line}: expected '<piece> <units>'"));
        };
        king_attack[piece] = units;
    }
    let mut terms = Vec::new();
    for (line, label, row) in take("terms")? {
        let (Some(name), [mg, eg]) = (label, &row[..]) else {
            return Err(format!("line {line}: expected '<name> <mg> <eg>'"));
        };
        terms.push((name.clone(), *mg, *eg));
    }
    let mut passed = [(0, 0); 8];
    for (line, label, row) in take("passed pawn")? {
        if row.len() != 8 {
            return Err(format!("line {line}: expected 8 numbers (ranks 1..8)"));
        }
        for (rank, v) in row.iter().enumerate() {
            match label.as_deref() {
                Some("mg") => passed[rank].0 = *v,
                Some("eg") => passed[rank].1 = *v,
                _ => return Err(format!("line {line}: expected 'mg' or 'eg' first")),
            }
        }
    }

    let mut tables = [([0; 64], [0; 64]); 6];
    for (p, name) in PIECES.iter().enumerate() {
        for (stage, table) in [("mg", &mut tables[p].0), ("eg", &mut tables[p].1)] {
            let section = format!("{name} {stage}");
            let rows = take(&section)?;
            if rows.len() != 8 || rows.iter().any(|(_, l, r)| l.is_some() || r.len() != 8) {
                return Err(format!("[{section}] must be 8 rows of 8 numbers"));
            }
            for (r, (_, _, row)) in rows.iter().enumerate() {
                for (f, v) in row.iter().enumerate() {
                    table[(7 - r) * 8 + f] = *v;
                }
            }
        }
    }
    Ok(Params {
        phase,
        material,
        tables,
        terms,
        passed,
        mobility,
        king_attack,
    })
}

/// The evaluation terms beyond the piece-square tables, packed `S(mg, eg)`.
fn eval_terms(p: &Params) -> String {
    let mut s = String::new();
    for (name, mg, eg) in &p.terms {
        let _ = writeln!(
            s,
            "/// `{name}` from the parameter file: S({mg}, {eg}).\n\
             pub const {}: i32 = {};",
            name.to_ascii_uppercase(),
            pack(*mg, *eg)
        );
    }
    let _ = writeln!(
        s,
        "/// Passed-pawn bonus by rank seen from the pawn's side (0 = own first rank).\n\
         pub const PASSED_PAWN: [i32; 8] = {:?};\n\
         /// Mobility bonus per reachable square, per piece kind.\n\
         pub const MOBILITY: [i32; 6] = {:?};\n\
         /// Reachable-square count that scores zero mobility, per piece kind.\n\
         pub const MOBILITY_CENTER: [i32; 6] = {:?};\n\
         /// King-attack units per attacked king-zone square, per piece kind.\n\
         pub const KING_ATTACK_UNITS: [i32; 6] = {:?};",
        p.passed.map(|(mg, eg)| pack(mg, eg)),
        p.mobility.map(|(mg, eg, _)| pack(mg, eg)),
        p.mobility.map(|(_, _, c)| c),
        p.king_attack,
    );
    s
}

/// Packs a middlegame and an endgame value into one `i32`: the endgame value
/// in the high half, the middlegame value (sign-extended) in the low half, so
/// sums of packed values are packed sums.
fn pack(mg: i32, eg: i32) -> i32 {
    (eg << 16).wrapping_add(mg)
}

fn psqt(p: &Params) -> String {
    // FLIP mirrors a square vertically (a1 <-> a8): Black's view of White's
    // table. It comes from the generator, like every chess table.
    let flip = kiln_gen::flip_table();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "/// Game-phase weight per piece kind (pawn..king).\n\
         pub const PHASE_WEIGHTS: [i32; 6] = {:?};\n\
         /// The phase of the starting position (all pieces on the board).\n\
         pub const PHASE_MAX: i32 = {};\n\
         /// Middlegame material value per piece kind (cp).\n\
         pub const MATERIAL_MG: [i32; 6] = {:?};\n\
         /// Endgame material value per piece kind (cp).\n\
         pub const MATERIAL_EG: [i32; 6] = {:?};",
        p.phase,
        2 * (2 * p.phase[1] + 2 * p.phase[2] + 2 * p.phase[3] + p.phase[4] + 8 * p.phase[0]),
        p.material.map(|m| m.0),
        p.material.map(|m| m.1),
    );
    s.push_str(
        "/// `PSQT[colour][piece][square]`: material plus placement, packed as\n\
         /// `S(mg, eg)`, from White's point of view: Black's entries are mirrored\n\
         /// (FLIP) and negated, so the sum over all pieces is White's score.\n\
         pub static PSQT: [[[i32; 64]; 6]; 2] = [\n",
    );
    for colour in 0..2 {
        s.push_str("    [\n");
        for piece in 0..6 {
            let (mg, eg) = &p.tables[piece];
            let (mat_mg, mat_eg) = p.material[piece];
            s.push_str("        [");
            for (sq, flipped) in flip.iter().enumerate() {
                let white_sq = if colour == 0 {
                    sq
                } else {
                    usize::from(*flipped)
                };
                let sign = if colour == 0 { 1 } else { -1 };
                let v = pack(
                    sign * (mat_mg + mg[white_sq]),
                    sign * (mat_eg + eg[white_sq]),
                );
                let _ = write!(s, "{v}, ");
            }
            s.push_str("],\n");
        }
        s.push_str("    ],\n");
    }
    s.push_str("];\n");
    s
}
