//! Emitters: the generated tables as Rust source or as a C header, and the
//! fingerprint over them.
//!
//! Both emitters and the fingerprint walk the same list of [`Array`]s, so a
//! table added to [`arrays`] is emitted and fingerprinted everywhere.

use std::fmt::Write;

use crate::Tables;
use crate::fingerprint::Fnv1a;
use crate::magic::MagicSearch;

/// Element type of an emitted array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Element {
    /// `u64`, written in hexadecimal.
    U64,
    /// `u32`, written in decimal.
    U32,
    /// `u8`, written in decimal.
    U8,
}

impl Element {
    fn rust(self) -> &'static str {
        match self {
            Element::U64 => "u64",
            Element::U32 => "u32",
            Element::U8 => "u8",
        }
    }

    fn c(self) -> &'static str {
        match self {
            Element::U64 => "uint64_t",
            Element::U32 => "uint32_t",
            Element::U8 => "uint8_t",
        }
    }

    fn bytes(self) -> usize {
        match self {
            Element::U64 => 8,
            Element::U32 => 4,
            Element::U8 => 1,
        }
    }
}

/// Which slider layouts an emitted file carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layouts {
    /// Magic layout only (targets without BMI2).
    Magic,
    /// Magic and PEXT layouts.
    Both,
}

/// One table, flattened, with its shape.
#[derive(Clone, Debug)]
pub struct Array {
    /// Name in `SCREAMING_SNAKE_CASE`.
    pub name: &'static str,
    /// One-line documentation.
    pub doc: &'static str,
    /// Element type.
    pub element: Element,
    /// Dimensions, outermost first.
    pub dims: Vec<usize>,
    /// Values in row-major order.
    pub values: Vec<u64>,
    /// True for the PEXT-only arrays.
    pub pext_only: bool,
}

impl Array {
    /// Size of the table in bytes.
    pub fn bytes(&self) -> usize {
        self.values.len() * self.element.bytes()
    }
}

fn array<I: IntoIterator<Item = u64>>(
    name: &'static str,
    doc: &'static str,
    element: Element,
    dims: &[usize],
    values: I,
) -> Array {
    let values: Vec<u64> = values.into_iter().collect();
    debug_assert_eq!(values.len(), dims.iter().product::<usize>(), "{name}");
    Array {
        name,
        doc,
        element,
        dims: dims.to_vec(),
        values,
        pext_only: false,
    }
}

fn flat2<const A: usize, const B: usize, T: Copy + Into<u64>>(
    t: &[[T; B]; A],
) -> impl Iterator<Item = u64> + '_ {
    t.iter().flatten().map(|&v| v.into())
}

/// Every emitted table, in emission (and fingerprint) order.
pub fn arrays(t: &Tables) -> Vec<Array> {
    use Element::*;
    let r = &t.rook;
    let b = &t.bishop;
    let u8s = |v: &[u8]| v.iter().map(|&x| u64::from(x)).collect::<Vec<_>>();
    let u32s = |v: &[u32]| v.iter().map(|&x| u64::from(x)).collect::<Vec<_>>();
    let mut all = vec![
        array(
            "ROOK_MASKS",
            "Relevant-occupancy mask of a rook per square.",
            U64,
            &[64],
            r.masks,
        ),
        array(
            "ROOK_MAGICS",
            "Magic multiplier of a rook per square.",
            U64,
            &[64],
            r.magics,
        ),
        array(
            "ROOK_SHIFTS",
            "Right shift of a rook's magic index per square.",
            U8,
            &[64],
            u8s(&r.shifts),
        ),
        array(
            "ROOK_OFFSETS",
            "Start of each square's slice of `ROOK_ATTACKS`.",
            U32,
            &[64],
            u32s(&r.offsets),
        ),
        array(
            "ROOK_ATTACKS",
            "Rook attacks in the magic layout.",
            U64,
            &[r.magic_attacks.len()],
            r.magic_attacks.iter().copied(),
        ),
        array(
            "BISHOP_MASKS",
            "Relevant-occupancy mask of a bishop per square.",
            U64,
            &[64],
            b.masks,
        ),
        array(
            "BISHOP_MAGICS",
            "Magic multiplier of a bishop per square.",
            U64,
            &[64],
            b.magics,
        ),
        array(
            "BISHOP_SHIFTS",
            "Right shift of a bishop's magic index per square.",
            U8,
            &[64],
            u8s(&b.shifts),
        ),
        array(
            "BISHOP_OFFSETS",
            "Start of each square's slice of `BISHOP_ATTACKS`.",
            U32,
            &[64],
            u32s(&b.offsets),
        ),
        array(
            "BISHOP_ATTACKS",
            "Bishop attacks in the magic layout.",
            U64,
            &[b.magic_attacks.len()],
            b.magic_attacks.iter().copied(),
        ),
        array(
            "ROOK_PEXT_OFFSETS",
            "Start of each square's slice of `ROOK_PEXT_ATTACKS`.",
            U32,
            &[64],
            u32s(&r.offsets),
        ),
        array(
            "ROOK_PEXT_ATTACKS",
            "Rook attacks at `pext(occupied, mask) + offset`.",
            U64,
            &[r.pext_attacks.len()],
            r.pext_attacks.iter().copied(),
        ),
        array(
            "BISHOP_PEXT_OFFSETS",
            "Start of each square's slice of `BISHOP_PEXT_ATTACKS`.",
            U32,
            &[64],
            u32s(&b.offsets),
        ),
        array(
            "BISHOP_PEXT_ATTACKS",
            "Bishop attacks at `pext(occupied, mask) + offset`.",
            U64,
            &[b.pext_attacks.len()],
            b.pext_attacks.iter().copied(),
        ),
        array(
            "KNIGHT_ATTACKS",
            "Knight attacks per square.",
            U64,
            &[64],
            t.knight_attacks,
        ),
        array(
            "KING_ATTACKS",
            "King attacks per square.",
            U64,
            &[64],
            t.king_attacks,
        ),
        array(
            "PAWN_ATTACKS",
            "Pawn captures per colour (0 White) and square.",
            U64,
            &[2, 64],
            flat2(&t.pawn_attacks),
        ),
        array(
            "PAWN_PUSHES",
            "Single pawn pushes per colour and square.",
            U64,
            &[2, 64],
            flat2(&t.pawn_pushes),
        ),
        array(
            "BETWEEN",
            "Squares strictly between two aligned squares, else 0.",
            U64,
            &[64, 64],
            flat2(&t.between),
        ),
        array(
            "LINE",
            "Edge-to-edge line through two aligned squares, else 0.",
            U64,
            &[64, 64],
            flat2(&t.line),
        ),
        array(
            "FILE_MASKS",
            "Squares of each file (0 = a).",
            U64,
            &[8],
            t.file_masks,
        ),
        array(
            "RANK_MASKS",
            "Squares of each rank (0 = first).",
            U64,
            &[8],
            t.rank_masks,
        ),
        array(
            "ADJACENT_FILES",
            "Files beside each file.",
            U64,
            &[8],
            t.adjacent_files,
        ),
        array(
            "FORWARD_FILE",
            "Squares ahead on the same file, per colour and square.",
            U64,
            &[2, 64],
            flat2(&t.forward_file),
        ),
        array(
            "PASSED_PAWN_MASKS",
            "Squares ahead on the same and adjacent files, per colour and square.",
            U64,
            &[2, 64],
            flat2(&t.passed_pawn_masks),
        ),
        array(
            "DISTANCE",
            "King-move distance between two squares.",
            U8,
            &[64, 64],
            flat2(&t.distance),
        ),
        array(
            "CASTLING_RIGHTS_MASKS",
            "Castling rights kept when a move touches a square (standard chess).",
            U8,
            &[64],
            u8s(&t.castling_rights_masks),
        ),
        array(
            "FLIP",
            "The square mirrored for the other colour (a1 <-> a8).",
            U8,
            &[64],
            u8s(&t.flip),
        ),
        array(
            "ZOBRIST_PIECES",
            "Zobrist keys by colour, piece kind (0 pawn .. 5 king) and square.",
            U64,
            &[2, 6, 64],
            t.zobrist.pieces.iter().flatten().flatten().copied(),
        ),
        array(
            "ZOBRIST_CASTLING",
            "Zobrist key of each castling-rights set.",
            U64,
            &[16],
            t.zobrist.castling,
        ),
        array(
            "ZOBRIST_EN_PASSANT",
            "Zobrist key of each en-passant file.",
            U64,
            &[8],
            t.zobrist.en_passant,
        ),
    ];
    for a in all.iter_mut().filter(|a| a.name.contains("PEXT")) {
        a.pext_only = true;
    }
    all
}

/// FNV-1a over every table's name, shape and values, and the scalar keys.
pub fn fingerprint(t: &Tables) -> u64 {
    let mut hash = Fnv1a::default();
    for a in arrays(t) {
        hash.write(a.name.as_bytes());
        hash.write_u64s(a.dims.iter().map(|&d| d as u64));
        hash.write_u64s(a.values.iter().copied());
    }
    hash.write(b"ZOBRIST_SIDE");
    hash.write_u64s([t.zobrist.side, t.start_key]);
    hash.finish()
}

/// Total bytes of the tables an emitted file with `layouts` carries.
pub fn total_bytes(t: &Tables, layouts: Layouts) -> usize {
    arrays(t)
        .iter()
        .filter(|a| layouts == Layouts::Both || !a.pext_only)
        .map(Array::bytes)
        .sum()
}

fn header_lines(t: &Tables) -> Vec<String> {
    let magics = match t.config.magic_search {
        MagicSearch::Scheduled => "committed per-square schedule".to_string(),
        MagicSearch::Full(seed) => format!("full search from seed {seed}"),
    };
    vec![
        format!(
            "Generated by kiln-gen {} from seed {} (0x{:016x}).",
            crate::VERSION,
            t.config.seed,
            t.config.seed
        ),
        format!("Magics: {magics}. Fingerprint: 0x{:016x}.", t.fingerprint),
        "Do not edit: regenerate with `kiln-gen --seed N --out FILE`.".to_string(),
    ]
}

/// Appends `0x` and 16 hex digits. Hand-rolled because build scripts run
/// unoptimised, where `format!` costs several times more per value.
fn push_hex(out: &mut String, value: u64) {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = [0u8; 18];
    text[0] = b'0';
    text[1] = b'x';
    for (i, byte) in text[2..].iter_mut().enumerate() {
        *byte = DIGITS[(value >> (60 - 4 * i)) as usize & 0xf];
    }
    out.push_str(std::str::from_utf8(&text).expect("hex digits are ASCII"));
}

fn write_values(
    out: &mut String,
    a: &Array,
    values: &[u64],
    dims: &[usize],
    indent: usize,
    c: bool,
) {
    let (open, close) = if c { ('{', '}') } else { ('[', ']') };
    let pad = " ".repeat(indent);
    if dims.len() == 1 {
        out.push(open);
        let per_line = if a.element == Element::U64 { 4 } else { 16 };
        for (i, v) in values.iter().enumerate() {
            if i % per_line == 0 {
                out.push('\n');
                out.push_str(&pad);
                out.push_str("    ");
            } else {
                out.push(' ');
            }
            match a.element {
                Element::U64 if c => {
                    out.push_str("UINT64_C(");
                    push_hex(out, *v);
                    out.push_str("),");
                }
                Element::U64 => {
                    push_hex(out, *v);
                    out.push(',');
                }
                _ => write!(out, "{v},").expect("writing to a String cannot fail"),
            }
        }
        out.push('\n');
        out.push_str(&pad);
        out.push(close);
    } else {
        let stride: usize = dims[1..].iter().product();
        out.push(open);
        for chunk in values.chunks(stride) {
            out.push('\n');
            out.push_str(&pad);
            out.push_str("    ");
            write_values(out, a, chunk, &dims[1..], indent + 4, c);
            out.push(',');
        }
        out.push('\n');
        out.push_str(&pad);
        out.push(close);
    }
}

/// The tables as Rust source: `pub static` arrays (plus `SEED`,
/// `FINGERPRINT`, `START_KEY` consts and the `ZOBRIST_SIDE` static), for
/// `include!` or use as a standalone module.
pub fn rust(t: &Tables, layouts: Layouts) -> String {
    let mut out = String::with_capacity(4 << 20);
    for line in header_lines(t) {
        writeln!(out, "// {line}").expect("writing to a String cannot fail");
    }
    let w = &mut out;
    let mut line = |text: String| {
        w.push_str(&text);
        w.push('\n');
    };
    line(String::new());
    line("/// Seed the Zobrist keys were drawn from.".into());
    line(format!("pub const SEED: u64 = {};", t.config.seed));
    line("/// FNV-1a fingerprint over every generated table.".into());
    line(format!(
        "pub const FINGERPRINT: u64 = 0x{:016x};",
        t.fingerprint
    ));
    line("/// Zobrist key of the standard start position.".into());
    line(format!(
        "pub const START_KEY: u64 = 0x{:016x};",
        t.start_key
    ));
    line("/// Zobrist key XORed in when Black is to move.".into());
    line(format!(
        "pub static ZOBRIST_SIDE: u64 = 0x{:016x};",
        t.zobrist.side
    ));
    for a in arrays(t)
        .iter()
        .filter(|a| layouts == Layouts::Both || !a.pext_only)
    {
        let ty = a
            .dims
            .iter()
            .rev()
            .fold(a.element.rust().to_string(), |inner, d| {
                format!("[{inner}; {d}]")
            });
        write!(out, "\n/// {}\npub static {}: {} = ", a.doc, a.name, ty).expect("String");
        write_values(&mut out, a, &a.values, &a.dims, 0, false);
        out.push_str(";\n");
    }
    out
}

/// The tables as a C99 header (`static const` arrays, `KILN_` prefix), for
/// engines written in other languages.
pub fn c_header(t: &Tables) -> String {
    let mut out = String::with_capacity(4 << 20);
    out.push_str("/*\n");
    for line in header_lines(t) {
        writeln!(out, " * {line}").expect("String");
    }
    out.push_str(" * Squares: A1 = 0 ... H8 = 63. Colours: 0 White, 1 Black.\n */\n");
    out.push_str("#ifndef KILN_TABLES_H\n#define KILN_TABLES_H\n\n#include <stdint.h>\n\n");
    writeln!(out, "#define KILN_SEED UINT64_C({})", t.config.seed).expect("String");
    writeln!(
        out,
        "#define KILN_FINGERPRINT UINT64_C(0x{:016x})",
        t.fingerprint
    )
    .expect("String");
    writeln!(
        out,
        "#define KILN_START_KEY UINT64_C(0x{:016x})",
        t.start_key
    )
    .expect("String");
    writeln!(
        out,
        "#define KILN_ZOBRIST_SIDE UINT64_C(0x{:016x})",
        t.zobrist.side
    )
    .expect("String");
    for a in arrays(t) {
        let dims: String = a.dims.iter().map(|d| format!("[{d}]")).collect();
        write!(
            out,
            "\n/* {} */\nstatic const {} KILN_{}{} = ",
            a.doc,
            a.element.c(),
            a.name,
            dims
        )
        .expect("String");
        write_values(&mut out, &a, &a.values, &a.dims, 0, true);
        out.push_str(";\n");
    }
    out.push_str("\n#endif /* KILN_TABLES_H */\n");
    out
}
