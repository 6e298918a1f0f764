//! The evaluation parameter file (`src/eval/params.txt`): parsing into
//! typed weights, and writing tuned weights back into the same text.
//!
//! The root build script of the engine turns the weights into packed static
//! tables, and the workshop's Texel tuner reads them, changes them and
//! writes the file back, both through this module, so what the tuner writes
//! is exactly what the build reads.
//!
//! The file is a list of `[section]`s of rows of integers, each row
//! optionally led by a label; `#` starts a comment. Sections:
//!
//! - `[phase]`, `[material]`, `[<piece> mg]`/`[<piece> eg]`: phase weights,
//!   material and piece-square tables (8 rows of 8, rank 8 first);
//! - `[terms]`: single named weights, `<name> <mg> <eg>`;
//! - `[king attack]`: `<piece> <units>`, king-zone attack units (fixed);
//! - any other section is a table of weights, rows labelled `mg` and `eg`
//!   (several rows with the same label are concatenated), exposed under the
//!   section's name with spaces turned into underscores.
//!
//! It also defines how a weight pair is packed into one `i32` ([`pack`],
//! [`mg`], [`eg`]): the build script emits the tables packed, and the
//! evaluation sums and unpacks them.
//!
//! ```
//! let text = "[terms]\ntempo 10 5\n[terms]\n";
//! let err = kiln_format::params::parse_sections(text).unwrap_err();
//! assert_eq!(err.to_string(), "line 3: section [terms] repeated");
//! ```

use std::collections::BTreeMap;
use std::fmt;

/// Packs a middlegame and an endgame value into one `i32` (`S(mg, eg)` in
/// the tables): the endgame value in the high half, the middlegame value
/// (sign-extended) in the low half, so sums of packed values are packed
/// sums.
#[inline]
pub const fn pack(mg: i32, eg: i32) -> i32 {
    (eg << 16).wrapping_add(mg)
}

/// The middlegame half of a packed pair.
#[inline]
pub const fn mg(packed: i32) -> i32 {
    packed as i16 as i32
}

/// The endgame half of a packed pair.
#[inline]
pub const fn eg(packed: i32) -> i32 {
    (packed.wrapping_add(0x8000) >> 16) as i16 as i32
}

/// Piece names in piece-kind order.
pub const PIECES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

/// One row of a section: its 0-based line index, leading label and numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// 0-based index of the row's line in the file.
    pub line: usize,
    /// The leading word, if any.
    pub label: Option<String>,
    /// The numbers of the row, in order.
    pub numbers: Vec<i32>,
}

/// A named group of `(mg, eg)` weights: a single term has one entry, a
/// table (by rank, by attack units...) several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// Upper-case identifier used in the generated code.
    pub name: String,
    /// The weights.
    pub values: Vec<(i32, i32)>,
}

/// The typed contents of the parameter file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Game-phase weight per piece kind.
    pub phase: [i32; 6],
    /// Material `(mg, eg)` per piece kind.
    pub material: [(i32, i32); 6],
    /// `tables[piece] = (mg, eg)`, each indexed by square with A1 = 0.
    pub tables: [([i32; 64], [i32; 64]); 6],
    /// Every other tunable weight group: `[terms]` entries in file order,
    /// then tables in section-name order.
    pub terms: Vec<Term>,
    /// King-attack units per attacking piece kind.
    pub king_attack: [i32; 6],
}

/// Why a parameter file could not be read or written back. Line numbers
/// are 1-based, as an editor shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamsError {
    /// A `[section]` header appears twice.
    RepeatedSection {
        /// Line of the second header.
        line: usize,
        /// The section's name.
        section: String,
    },
    /// Numbers before the first `[section]` header.
    OutsideSection {
        /// The line.
        line: usize,
    },
    /// A token after the row's numbers began that is not an integer.
    BadNumber {
        /// The line.
        line: usize,
        /// The token.
        token: String,
    },
    /// A section the engine needs is not in the file.
    MissingSection {
        /// The section's name.
        section: String,
    },
    /// A row of a per-piece section without a piece name.
    MissingPiece {
        /// The line.
        line: usize,
    },
    /// A piece name other than pawn, knight, bishop, rook, queen, king.
    UnknownPiece {
        /// The line.
        line: usize,
        /// The name found.
        name: String,
    },
    /// A row with the wrong number of values or a missing label.
    RowShape {
        /// The line.
        line: usize,
        /// What the row should look like, e.g. `'<piece> <mg> <eg>'`.
        expected: &'static str,
    },
    /// A `[material]` row for a piece that has no `[phase]` row.
    NoPhaseWeight {
        /// The line.
        line: usize,
    },
    /// A weight table whose `mg` and `eg` rows hold different numbers of
    /// values, or none.
    UnevenTable {
        /// The section's name.
        section: String,
        /// Values in its `mg` rows.
        mg: usize,
        /// Values in its `eg` rows.
        eg: usize,
    },
    /// A piece-square table that is not 8 unlabelled rows of 8 numbers.
    BadSquareTable {
        /// The section's name, e.g. `knight mg`.
        section: String,
    },
    /// Writing back: the template has a weight table the parameters lack.
    UnknownTerm {
        /// The term's name (upper case, as in the generated code).
        name: String,
    },
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamsError::RepeatedSection { line, section } => {
                write!(f, "line {line}: section [{section}] repeated")
            }
            ParamsError::OutsideSection { line } => {
                write!(f, "line {line}: value outside a section")
            }
            ParamsError::BadNumber { line, token } => {
                write!(f, "line {line}: bad number '{token}'")
            }
            ParamsError::MissingSection { section } => write!(f, "missing section [{section}]"),
            ParamsError::MissingPiece { line } => {
                write!(f, "line {line}: expected a piece name")
            }
            ParamsError::UnknownPiece { line, name } => write!(
                f,
                "line {line}: unknown piece '{name}' (expected one of {})",
                PIECES.join(", ")
            ),
            ParamsError::RowShape { line, expected } => {
                write!(f, "line {line}: expected {expected}")
            }
            ParamsError::NoPhaseWeight { line } => {
                write!(f, "line {line}: piece has no [phase] weight")
            }
            ParamsError::UnevenTable { section, mg, eg } => write!(
                f,
                "[{section}]: {mg} mg and {eg} eg values (must be equal and not zero)"
            ),
            ParamsError::BadSquareTable { section } => {
                write!(f, "[{section}] must be 8 rows of 8 numbers")
            }
            ParamsError::UnknownTerm { name } => write!(
                f,
                "no term {name} in the parameters for the template's section of that name"
            ),
        }
    }
}

impl std::error::Error for ParamsError {}

/// Sections that are not tables of `mg`/`eg` weights.
fn is_special(section: &str) -> bool {
    matches!(section, "phase" | "material" | "terms" | "king attack")
        || PIECES
            .iter()
            .any(|p| section == format!("{p} mg") || section == format!("{p} eg"))
}

/// The piece kind index of `name`, if it is a piece name.
fn piece_index(name: &str) -> Option<usize> {
    PIECES.iter().position(|p| *p == name)
}

/// Splits the file into sections of rows.
pub fn parse_sections(text: &str) -> Result<BTreeMap<String, Vec<Row>>, ParamsError> {
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
                return Err(ParamsError::RepeatedSection {
                    line: n + 1,
                    section: name,
                });
            }
            current = Some(name);
            continue;
        }
        let section = current
            .as_ref()
            .ok_or(ParamsError::OutsideSection { line: n + 1 })?;
        let mut numbers = Vec::new();
        let mut label = None;
        for token in line.split_whitespace() {
            match token.parse::<i32>() {
                Ok(v) => numbers.push(v),
                Err(_) if label.is_none() && numbers.is_empty() => label = Some(token.to_string()),
                Err(_) => {
                    return Err(ParamsError::BadNumber {
                        line: n + 1,
                        token: token.to_string(),
                    });
                }
            }
        }
        if let Some(rows) = sections.get_mut(section) {
            rows.push(Row {
                line: n,
                label,
                numbers,
            });
        }
    }
    Ok(sections)
}

/// Parses the whole file.
pub fn parse(text: &str) -> Result<Params, ParamsError> {
    let sections = parse_sections(text)?;
    let take = |name: &str| {
        sections
            .get(name)
            .ok_or_else(|| ParamsError::MissingSection {
                section: name.to_string(),
            })
    };
    // Rows of a section labelled by piece name: (line, piece index, numbers).
    let by_piece = |name: &str| -> Result<Vec<(usize, usize, Vec<i32>)>, ParamsError> {
        take(name)?
            .iter()
            .map(|row| {
                let line = row.line + 1;
                let label = row
                    .label
                    .as_deref()
                    .ok_or(ParamsError::MissingPiece { line })?;
                let piece = piece_index(label).ok_or_else(|| ParamsError::UnknownPiece {
                    line,
                    name: label.to_string(),
                })?;
                Ok((line, piece, row.numbers.clone()))
            })
            .collect()
    };

    let mut phase = [0; 6];
    let mut seen = [false; 6];
    for (line, piece, row) in by_piece("phase")? {
        let [weight] = row[..] else {
            return Err(ParamsError::RowShape {
                line,
                expected: "'<piece> <weight>'",
            });
        };
        phase[piece] = weight;
        seen[piece] = true;
    }
    let mut material = [(0, 0); 6];
    for (line, piece, row) in by_piece("material")? {
        let [mg, eg] = row[..] else {
            return Err(ParamsError::RowShape {
                line,
                expected: "'<piece> <mg> <eg>'",
            });
        };
        material[piece] = (mg, eg);
        if !seen[piece] {
            return Err(ParamsError::NoPhaseWeight { line });
        }
    }
    let mut king_attack = [0; 6];
    for (line, piece, row) in by_piece("king attack")? {
        let [units] = row[..] else {
            return Err(ParamsError::RowShape {
                line,
                expected: "'<piece> <units>'",
            });
        };
        king_attack[piece] = units;
    }
    let mut terms = Vec::new();
    for row in take("terms")? {
        let (Some(name), [mg, eg]) = (&row.label, &row.numbers[..]) else {
            return Err(ParamsError::RowShape {
                line: row.line + 1,
                expected: "'<name> <mg> <eg>'",
            });
        };
        terms.push(Term {
            name: name.to_ascii_uppercase(),
            values: vec![(*mg, *eg)],
        });
    }
    for (section, rows) in sections.iter().filter(|(s, _)| !is_special(s)) {
        let (mut mg, mut eg) = (Vec::new(), Vec::new());
        for row in rows {
            match row.label.as_deref() {
                Some("mg") => mg.extend_from_slice(&row.numbers),
                Some("eg") => eg.extend_from_slice(&row.numbers),
                _ => {
                    return Err(ParamsError::RowShape {
                        line: row.line + 1,
                        expected: "'mg' or 'eg' first",
                    });
                }
            }
        }
        if mg.len() != eg.len() || mg.is_empty() {
            return Err(ParamsError::UnevenTable {
                section: section.clone(),
                mg: mg.len(),
                eg: eg.len(),
            });
        }
        terms.push(Term {
            name: section.replace(' ', "_").to_ascii_uppercase(),
            values: mg.into_iter().zip(eg).collect(),
        });
    }

    let mut tables = [([0; 64], [0; 64]); 6];
    for (p, name) in PIECES.iter().enumerate() {
        for (stage, table) in [("mg", &mut tables[p].0), ("eg", &mut tables[p].1)] {
            let section = format!("{name} {stage}");
            let rows = take(&section)?;
            if rows.len() != 8
                || rows
                    .iter()
                    .any(|r| r.label.is_some() || r.numbers.len() != 8)
            {
                return Err(ParamsError::BadSquareTable { section });
            }
            for (r, row) in rows.iter().enumerate() {
                for (f, v) in row.numbers.iter().enumerate() {
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
        king_attack,
    })
}

impl Params {
    /// The term group called `name`.
    pub fn term(&self, name: &str) -> Option<&Term> {
        self.terms.iter().find(|t| t.name == name)
    }
}

/// Writes `params` into `template` (the text `params` was parsed from, or
/// one with the same rows): comments, labels and layout are kept, only the
/// numbers change, each right-aligned where the old one ended.
pub fn render(template: &str, params: &Params) -> Result<String, ParamsError> {
    let mut sections = parse_sections(template)?;
    let tables: Vec<String> = sections
        .keys()
        .filter(|s| !is_special(s))
        .cloned()
        .collect();
    // Put the typed values back into the rows.
    let mut set =
        |name: &str, values: &mut dyn FnMut(usize, &Row) -> Vec<i32>| -> Result<(), ParamsError> {
            let rows = sections
                .get_mut(name)
                .ok_or_else(|| ParamsError::MissingSection {
                    section: name.to_string(),
                })?;
            for (i, row) in rows.iter_mut().enumerate() {
                let numbers = values(i, row);
                row.numbers = numbers;
            }
            Ok(())
        };
    let piece_of = |row: &Row| row.label.as_deref().and_then(piece_index).unwrap_or(0);
    set("phase", &mut |_, row| vec![params.phase[piece_of(row)]])?;
    set("material", &mut |_, row| {
        let (mg, eg) = params.material[piece_of(row)];
        vec![mg, eg]
    })?;
    set("king attack", &mut |_, row| {
        vec![params.king_attack[piece_of(row)]]
    })?;
    set("terms", &mut |_, row| {
        let name = row.label.clone().unwrap_or_default().to_ascii_uppercase();
        params
            .term(&name)
            .map_or(row.numbers.clone(), |t| vec![t.values[0].0, t.values[0].1])
    })?;
    for (p, name) in PIECES.iter().enumerate() {
        set(&format!("{name} mg"), &mut |r, _| {
            (0..8)
                .map(|f| params.tables[p].0[(7 - r) * 8 + f])
                .collect()
        })?;
        set(&format!("{name} eg"), &mut |r, _| {
            (0..8)
                .map(|f| params.tables[p].1[(7 - r) * 8 + f])
                .collect()
        })?;
    }
    for section in tables {
        let name = section.replace(' ', "_").to_ascii_uppercase();
        let term = params
            .term(&name)
            .ok_or_else(|| ParamsError::UnknownTerm { name: name.clone() })?;
        let (mut next_mg, mut next_eg) = (0, 0);
        set(&section, &mut |_, row| {
            let is_mg = row.label.as_deref() == Some("mg");
            let next = if is_mg { &mut next_mg } else { &mut next_eg };
            let out = term.values[*next..*next + row.numbers.len()]
                .iter()
                .map(|v| if is_mg { v.0 } else { v.1 })
                .collect();
            *next += row.numbers.len();
            out
        })?;
    }

    // Rewrite the lines that hold rows.
    let mut by_line: BTreeMap<usize, &Row> = BTreeMap::new();
    for row in sections.values().flatten() {
        by_line.insert(row.line, row);
    }
    let mut out = String::with_capacity(template.len() + 256);
    for (n, raw) in template.lines().enumerate() {
        match by_line.get(&n) {
            Some(row) => out.push_str(&rewrite_line(raw, &row.numbers)),
            None => out.push_str(raw),
        }
        out.push('\n');
    }
    Ok(out)
}

/// `raw` with its numeric tokens (before any `#`) replaced by `numbers`,
/// each right-aligned to end where the old token ended.
fn rewrite_line(raw: &str, numbers: &[i32]) -> String {
    let (data, comment) = match raw.find('#') {
        Some(i) => raw.split_at(i),
        None => (raw, ""),
    };
    let mut out = String::new();
    let mut values = numbers.iter();
    let mut pos = 0;
    let bytes = data.as_bytes();
    while pos < bytes.len() {
        let start_ws = pos;
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let start = pos;
        while pos < bytes.len() && !bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let token = &data[start..pos];
        if token.parse::<i32>().is_ok() {
            if let Some(v) = values.next() {
                let width = pos - start_ws;
                let text = v.to_string();
                if text.len() < width {
                    out.push_str(&format!("{text:>width$}"));
                } else {
                    out.push(' ');
                    out.push_str(&text);
                }
                continue;
            }
        }
        out.push_str(&data[start_ws..pos]);
    }
    out.push_str(comment);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's own parameter file.
    const ENGINE_PARAMS: &str = include_str!("../../../src/eval/params.txt");

    #[test]
    fn packing_survives_sums_and_signs() {
        let a = pack(-150, 300);
        let b = pack(20, -700);
        assert_eq!((mg(a), eg(a)), (-150, 300));
        assert_eq!((mg(a + b), eg(a + b)), (-130, -400));
        assert_eq!((mg(a - b), eg(a - b)), (-170, 1000));
    }

    #[test]
    fn the_engine_file_parses_and_renders_back_unchanged() {
        let params = parse(ENGINE_PARAMS).expect("the engine's file parses");
        assert_eq!(params.phase[5], 0, "kings do not count for the phase");
        let text = render(ENGINE_PARAMS, &params).expect("renders");
        assert_eq!(
            text, ENGINE_PARAMS,
            "rendered with its own values, byte for byte"
        );
        assert_eq!(parse(&text), Ok(params));
    }

    #[test]
    fn errors_name_the_line_and_what_was_expected() {
        let cases: [(&str, ParamsError, &str); 6] = [
            (
                "1 2\n",
                ParamsError::OutsideSection { line: 1 },
                "line 1: value outside a section",
            ),
            (
                "[terms]\ntempo 10 x\n",
                ParamsError::BadNumber {
                    line: 2,
                    token: "x".into(),
                },
                "line 2: bad number 'x'",
            ),
            (
                "[a]\n[a]\n",
                ParamsError::RepeatedSection {
                    line: 2,
                    section: "a".into(),
                },
                "line 2: section [a] repeated",
            ),
            (
                "[phase]\n",
                ParamsError::MissingSection {
                    section: "material".into(),
                },
                "missing section [material]",
            ),
            (
                "[phase]\nelephant 3\n",
                ParamsError::UnknownPiece {
                    line: 2,
                    name: "elephant".into(),
                },
                "line 2: unknown piece 'elephant' (expected one of pawn, knight, bishop, \
                 rook, queen, king)",
            ),
            (
                "[phase]\nknight 1 2\n",
                ParamsError::RowShape {
                    line: 2,
                    expected: "'<piece> <weight>'",
                },
                "line 2: expected '<piece> <weight>'",
            ),
        ];
        for (text, error, message) in cases {
            assert_eq!(parse(text), Err(error.clone()), "{text:?}");
            assert_eq!(error.to_string(), message);
        }
    }

    #[test]
    fn uneven_tables_and_bad_square_tables_are_rejected() {
        let broken = ENGINE_PARAMS.replacen("[terms]", "[odd table]\nmg 1 2\neg 3\n[terms]", 1);
        assert_eq!(
            parse(&broken),
            Err(ParamsError::UnevenTable {
                section: "odd table".into(),
                mg: 2,
                eg: 1,
            })
        );
        let start = ENGINE_PARAMS.find("[knight mg]").expect("a knight table");
        let row_end = start + ENGINE_PARAMS[start..].find('\n').expect("a header line");
        let next_end = row_end + 1 + ENGINE_PARAMS[row_end + 1..].find('\n').expect("a row");
        let mut short = ENGINE_PARAMS.to_string();
        short.replace_range(row_end + 1..next_end + 1, "");
        assert_eq!(
            parse(&short).map(|_| ()).unwrap_err().to_string(),
            "[knight mg] must be 8 rows of 8 numbers"
        );
    }
}
