//! The endgame table: which material signatures have special evaluation
//! knowledge, emitted as a `phf` map for the engine to `include!`.
//!
//! A material signature is one `u64` of 4-bit counters: the number of
//! `colour`'s pieces of `kind` (pawn 0, knight 1, bishop 2, rook 3, queen 4;
//! kings are not counted) sits in nibble `8 * colour + kind`, White = 0,
//! Black = 1. The engine keeps the same word incrementally
//! (`kiln_board::Material`), and its tests check that the two agree.
//!
//! Every rule is listed once with White as the strong side and emitted for
//! both colours. Rules are listed from the most specific to the most
//! generic; a signature claimed by an earlier rule is not taken by a later
//! one. The map's values are Rust expressions naming the engine's endgame
//! function and the strong side, e.g. `Entry { kind: Kind::Kbnk, strong:
//! Color::White }`; the engine decides at run time whether the position
//! really is what the material suggests (bishop colours, pawn files).
//!
//! ```
//! use kiln_gen::endgames::{Rule, parse, rules};
//! let kbnk = parse("KBNvK").expect("valid material");
//! assert!(rules().iter().any(|(sig, rule, _)| *sig == kbnk && *rule == Rule::Kbnk));
//! ```

use std::collections::BTreeMap;

/// Piece counts of one side: pawns, knights, bishops, rooks, queens.
pub type Counts = [u8; 5];

/// Piece letters in counter order (pawn first).
const LETTERS: [char; 5] = ['P', 'N', 'B', 'R', 'Q'];

/// The signature of `white` against `black`.
pub fn signature(white: Counts, black: Counts) -> u64 {
    let mut word = 0u64;
    for (color, counts) in [white, black].iter().enumerate() {
        for (kind, &n) in counts.iter().enumerate() {
            assert!(n < 16, "a 4-bit counter holds at most 15 pieces");
            word |= u64::from(n) << (4 * (8 * color + kind));
        }
    }
    word
}

/// The same material with the colours swapped.
pub fn flip(signature: u64) -> u64 {
    signature.rotate_left(32)
}

/// Parses material written like `KRPvKR` (each side a `K` followed by piece
/// letters, the sides separated by `v`) into its signature.
pub fn parse(text: &str) -> Option<u64> {
    let (white, black) = text.split_once('v')?;
    Some(signature(parse_side(white)?, parse_side(black)?))
}

fn parse_side(text: &str) -> Option<Counts> {
    let pieces = text.strip_prefix('K')?;
    let mut counts = [0u8; 5];
    for c in pieces.chars() {
        let kind = LETTERS.iter().position(|&l| l == c)?;
        counts[kind] = counts[kind].checked_add(1).filter(|&n| n < 16)?;
    }
    Some(counts)
}

/// Defines [`Rule`] from one list of documented variants, with its
/// [`ALL`](Rule::ALL), [`variant`](Rule::variant) and [`doc`](Rule::doc),
/// so the engine's `Kind`, which [`source`] emits from the same list, can
/// never drift from it.
macro_rules! rules {
    ($($(#[doc = $doc:literal])+ $name:ident,)+) => {
        /// The endgame function a signature selects. The engine's `Kind`
        /// is emitted from this list by [`source`], variant for variant.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        pub enum Rule {
            $($(#[doc = $doc])+ $name,)+
        }

        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: &[Rule] = &[$(Rule::$name),+];

            /// The variant's name (the engine's `Kind` has the same).
            pub fn variant(self) -> &'static str {
                match self {
                    $(Rule::$name => stringify!($name),)+
                }
            }

            /// The variant's documentation, one line per doc-comment line.
            pub fn doc(self) -> &'static [&'static str] {
                match self {
                    $(Rule::$name => &[$($doc),+],)+
                }
            }
        }
    };
}

rules! {
    /// Neither side can force mate: the evaluation is a draw.
    Draw,
    /// King, bishop and knight against a bare king: drive the king to a
    /// corner of the bishop's colour.
    Kbnk,
    /// Mating material against a bare king (KQK, KRK and anything larger):
    /// a known win; drive the king to the edge, bring the own king close.
    MateBareKing,
    /// Bishops (and possibly equal other pieces) with pawns: if the bishops
    /// run on opposite colours, scale the endgame score down.
    OppositeBishops,
    /// Pawns on one rook file, possibly with a bishop, against a bare king:
    /// a draw if the bishop (if any) does not cover the promotion square and
    /// the defending king holds the corner.
    RookPawns,
    /// No pawns and a small material edge (KRvKR, KRvKB, KRBvKR, ...):
    /// scale the endgame score down.
    Pawnless,
}

/// Rust source of the engine's `Kind` enum: the variants of [`Rule`] with
/// their documentation.
fn kind_source() -> String {
    let mut s = String::from(
        "/// The endgame function a material signature selects (emitted from\n\
         /// `kiln_gen::endgames::Rule`, the one list of endgame rules).\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq)]\n\
         pub enum Kind {\n",
    );
    for rule in Rule::ALL {
        for line in rule.doc() {
            s.push_str(&format!("    ///{line}\n"));
        }
        s.push_str(&format!("    {},\n", rule.variant()));
    }
    s.push_str("}\n");
    s
}

/// Known draws, written with White as the side with more (or equal)
/// material.
pub const DRAWS: [&str; 10] = [
    "KvK", "KNvK", "KBvK", "KNNvK", "KNvKN", "KBvKN", "KBvKB", "KNNvKN", "KNNvKB", "KBBvKBB",
];

/// Every `Counts` with at most `max_pieces` knights, bishops, rooks and
/// queens in total and no pawns.
fn piece_sets(max_pieces: u8) -> Vec<Counts> {
    let mut sets = Vec::new();
    for q in 0..=max_pieces {
        for r in 0..=max_pieces - q {
            for b in 0..=max_pieces - q - r {
                for n in 0..=max_pieces - q - r - b {
                    sets.push([0, n, b, r, q]);
                }
            }
        }
    }
    sets
}

/// Whether pieces (ignoring bishop colours) can force mate against a bare
/// king.
fn can_mate(c: Counts) -> bool {
    let [_, n, b, r, q] = c;
    q > 0 || r > 0 || b >= 2 || (b >= 1 && n >= 1) || n >= 3
}

/// Material units per piece in counter order: pawn 1, knight and bishop 3,
/// rook 5, queen 9. The one definition: [`source`] emits it as the engine's
/// `MATERIAL_UNITS`, which the pawnless rule's run-time test measures with.
pub const UNITS: [u8; 5] = [1, 3, 3, 5, 9];

/// Material in [`UNITS`].
pub fn units(c: Counts) -> u32 {
    c.iter()
        .zip(UNITS)
        .map(|(&n, unit)| u32::from(n) * u32::from(unit))
        .sum()
}

/// Every rule with White strong, most specific first: `(signature, rule,
/// strong side is White)`. Both colours are listed (for symmetric material
/// only once); each signature appears once.
pub fn rules() -> Vec<(u64, Rule, bool)> {
    let mut claimed: BTreeMap<u64, (Rule, bool)> = BTreeMap::new();
    let mut order = Vec::new();
    let mut add = |white_strong_sig: u64, rule: Rule| {
        for (sig, white_strong) in [(white_strong_sig, true), (flip(white_strong_sig), false)] {
            if let std::collections::btree_map::Entry::Vacant(slot) = claimed.entry(sig) {
                slot.insert((rule, white_strong));
                order.push(sig);
            }
        }
    };

    for text in DRAWS {
        add(parse(text).expect("a valid draw signature"), Rule::Draw);
    }
    add(parse("KBNvK").expect("valid"), Rule::Kbnk);

    // Mating material (up to four pieces, any pawns) against a bare king.
    for pieces in piece_sets(4) {
        if !can_mate(pieces) {
            continue;
        }
        for pawns in 0..=8 {
            let mut strong = pieces;
            strong[0] = pawns;
            add(signature(strong, [0; 5]), Rule::MateBareKing);
        }
    }

    // Bishops with pawns (pure, or with one equal extra piece set on both
    // sides).
    for extra in [
        [0; 5],
        [0, 1, 0, 0, 0],
        [0, 0, 0, 1, 0],
        [0, 0, 0, 2, 0],
        [0, 0, 0, 0, 1],
    ] {
        for white_pawns in 0..=8 {
            // White is the strong side: the one with more pawns.
            for black_pawns in 0..=white_pawns {
                let mut white = extra;
                let mut black = extra;
                white[2] = 1;
                black[2] = 1;
                white[0] = white_pawns;
                black[0] = black_pawns;
                add(signature(white, black), Rule::OppositeBishops);
            }
        }
    }

    // Rook pawns (one to three), alone or with a bishop, against a bare king.
    for bishops in 0..=1 {
        for pawns in 1..=3 {
            add(
                signature([pawns, 0, bishops, 0, 0], [0; 5]),
                Rule::RookPawns,
            );
        }
    }

    // Pawnless, up to three pieces a side, pieces on both sides: whether the
    // material edge is small enough to scale is decided at run time.
    for white in piece_sets(3) {
        for black in piece_sets(3) {
            // White is the strong side: the one with more material.
            if black != [0; 5] && units(white) >= units(black) {
                add(signature(white, black), Rule::Pawnless);
            }
        }
    }

    order
        .into_iter()
        .map(|sig| {
            let (rule, white_strong) = claimed[&sig];
            (sig, rule, white_strong)
        })
        .collect()
}

/// The largest number of knights, bishops, rooks and queens (both sides
/// together) in any signature of the table: positions with more pieces need
/// no lookup.
pub fn max_pieces() -> u32 {
    rules()
        .iter()
        .map(|(sig, _, _)| {
            (0..2)
                .flat_map(|color| (1..5).map(move |kind| (sig >> (4 * (8 * color + kind))) & 0xF))
                .sum::<u64>() as u32
        })
        .max()
        .unwrap_or(0)
}

/// Rust source of the endgame table: the `Kind` enum (one variant per
/// [`Rule`]), `pub static ENDGAMES: phf::Map<u64, Entry>` with values
/// `Entry { kind: Kind::<rule>, strong: Color::<side> }`, and `pub const
/// ENDGAME_MAX_PIECES: u32`. The including module must define `Entry` and
/// import `Color`.
pub fn source() -> String {
    let entries: Vec<(u64, String)> = rules()
        .into_iter()
        .map(|(sig, rule, white_strong)| {
            let side = if white_strong { "White" } else { "Black" };
            (
                sig,
                format!(
                    "Entry {{ kind: Kind::{}, strong: Color::{side} }}",
                    rule.variant()
                ),
            )
        })
        .collect();
    let borrowed: Vec<(u64, &str)> = entries.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut s = kind_source();
    s.push_str(&crate::phf_maps::u64_map(
        "ENDGAMES",
        "Material signature → endgame function and strong side.",
        "Entry",
        &borrowed,
    ));
    s.push_str(&format!(
        "/// Most knights, bishops, rooks and queens (both sides) in any key of\n\
         /// [`ENDGAMES`]: positions with more need no lookup.\n\
         pub const ENDGAME_MAX_PIECES: u32 = {};\n",
        max_pieces()
    ));
    s.push_str(&format!(
        "/// Material units per piece kind, pawn to queen, as the table's rules\n\
         /// count them (`kiln_gen::endgames::UNITS`).\n\
         pub const MATERIAL_UNITS: [i32; 5] = {UNITS:?};\n"
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_and_parsing() {
        assert_eq!(parse("KvK"), Some(0));
        assert_eq!(parse("KQRNNPPPvKPP"), Some(0x0000_0002_0001_1023));
        assert_eq!(flip(parse("KRvKB").unwrap()), parse("KBvKR").unwrap());
        assert_eq!(parse("KXvK"), None);
        assert_eq!(parse("KK"), None);
    }

    #[test]
    fn every_signature_once_both_colours() {
        let rules = rules();
        let mut seen = std::collections::BTreeSet::new();
        for (sig, rule, white_strong) in &rules {
            assert!(seen.insert(*sig), "{sig:#x} twice");
            let mirrored = rules.iter().find(|(s, _, _)| *s == flip(*sig));
            let (_, mirrored_rule, mirrored_white) = mirrored.expect("mirror listed");
            assert_eq!(mirrored_rule, rule);
            assert!(*sig == flip(*sig) || mirrored_white != white_strong);
        }
        let find = |text: &str| {
            rules
                .iter()
                .find(|(s, _, _)| Some(*s) == parse(text))
                .map(|r| (r.1, r.2))
        };
        assert_eq!(find("KBNvK"), Some((Rule::Kbnk, true)));
        assert_eq!(find("KvKBN"), Some((Rule::Kbnk, false)));
        assert_eq!(find("KQvK"), Some((Rule::MateBareKing, true)));
        assert_eq!(find("KvKR"), Some((Rule::MateBareKing, false)));
        assert_eq!(find("KNNvK"), Some((Rule::Draw, true)));
        assert_eq!(find("KBPPvKBP"), Some((Rule::OppositeBishops, true)));
        assert_eq!(find("KRvKB"), Some((Rule::Pawnless, true)));
        assert_eq!(find("KPPvK").map(|r| r.0), Some(Rule::RookPawns));
        assert_eq!(find("KQRBNNvK"), None);
        assert!(max_pieces() <= 6);
        assert_eq!(units([1, 1, 1, 1, 1]), 21);
    }

    #[test]
    fn the_engine_enum_lists_every_rule_with_its_documentation() {
        let source = source();
        for rule in Rule::ALL {
            assert!(
                source.contains(&format!("    {},\n", rule.variant())),
                "{rule:?}"
            );
            assert!(source.contains(rule.doc()[0]), "{rule:?}");
        }
        assert!(source.contains(
            "    /// Neither side can force mate: the evaluation is a draw.\n    Draw,\n"
        ));
    }
}
