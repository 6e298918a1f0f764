//! Kiln's evaluation parameter file (`src/eval/params.txt`): parsing into
//! typed weights, and writing tuned weights back into the same text.
//!
//! The root build script of the engine turns the weights into packed static
//! tables, and the engine's tuner reads them, changes them and writes the
//! file back. Both use this crate, so what the tuner writes is exactly what
//! the build reads. It depends on `std` only.
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

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::collections::BTreeMap;

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

/// Sections that are not tables of `mg`/`eg` weights.
fn is_special(section: &str) -> bool {
    matches!(section, "phase" | "material" | "terms" | "king attack")
        || PIECES
            .iter()
            .any(|p| section == format!("{p} mg") || section == format!("{p} eg"))
}

fn piece_index(name: &str) -> Result<usize, String> {
    PIECES
        .iter()
        .position(|p| *p == name)
        .ok_or_else(|| format!("unknown piece '{name}'"))
}

/// Splits the file into sections of rows.
pub fn parse_sections(text: &str) -> Result<BTreeMap<String, Vec<Row>>, String> {
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
pub fn parse(text: &str) -> Result<Params, String> {
    let sections = parse_sections(text)?;
    let take = |name: &str| {
        sections
            .get(name)
            .ok_or(format!("missing section [{name}]"))
    };
    // Rows of a section labelled by piece name: (line, piece index, numbers).
    let by_piece = |name: &str| -> Result<Vec<(usize, usize, Vec<i32>)>, String> {
        take(name)?
            .iter()
            .map(|row| {
                let line = row.line + 1;
                let label = row
                    .label
                    .as_deref()
                    .ok_or(format!("line {line}: expected a piece name"))?;
                let piece = piece_index(label).map_err(|e| format!("line {line}: {e}"))?;
                Ok((line, piece, row.numbers.clone()))
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
    let mut king_attack = [0; 6];
    for (line, piece, row) in by_piece("king attack")? {
        let [units] = row[..] else {
            return Err(format!("line {line}: expected '<piece> <units>'"));
        };
        king_attack[piece] = units;
    }
    let mut terms = Vec::new();
    for row in take("terms")? {
        let (Some(name), [mg, eg]) = (&row.label, &row.numbers[..]) else {
            return Err(format!(
                "line {}: expected '<name> <mg> <eg>'",
                row.line + 1
            ));
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
                    return Err(format!(
                        "line {}: expected 'mg' or 'eg' first",
                        row.line + 1
                    ));
                }
            }
        }
        if mg.len() != eg.len() || mg.is_empty() {
            return Err(format!(
                "[{section}]: {} mg and {} eg values (must be equal and not zero)",
                mg.len(),
                eg.len()
            ));
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
                return Err(format!("[{section}] must be 8 rows of 8 numbers"));
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
pub fn render(template: &str, params: &Params) -> Result<String, String> {
    let mut sections = parse_sections(template)?;
    let tables: Vec<String> = sections
        .keys()
        .filter(|s| !is_special(s))
        .cloned()
        .collect();
    // Put the typed values back into the rows.
    let mut set =
        |name: &str, values: &mut dyn FnMut(usize, &Row) -> Vec<i32>| -> Result<(), String> {
            let rows = sections
                .get_mut(name)
                .ok_or(format!("missing section [{name}]"))?;
            for (i, row) in rows.iter_mut().enumerate() {
                let numbers = values(i, row);
                row.numbers = numbers;
            }
            Ok(())
        };
    let piece_of = |row: &Row| {
        row.label
            .as_deref()
            .and_then(|l| piece_index(l).ok())
            .unwrap_or(0)
    };
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
        let term = params.term(&name).ok_or(format!("no term {name}"))?;
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
