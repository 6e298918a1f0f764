//! The emitted statics checked through the public API against independent,
//! deliberately naive computations (written here, not shared with the
//! generator). The integer layer (`raw`) is checked here; `typed.rs` checks
//! that the typed API reads the same tables.

use kiln_tables::raw as t;

fn on_board(file: i32, rank: i32) -> bool {
    (0..8).contains(&file) && (0..8).contains(&rank)
}

fn sq(file: i32, rank: i32) -> u8 {
    (rank * 8 + file) as u8
}

/// Slider attacks by stepping square by square in each direction.
fn walk(square: u8, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let (f0, r0) = (i32::from(square % 8), i32::from(square / 8));
    let mut out = 0u64;
    for &(df, dr) in dirs {
        for step in 1..8 {
            let (f, r) = (f0 + df * step, r0 + dr * step);
            if !on_board(f, r) {
                break;
            }
            out |= 1 << sq(f, r);
            if occupied >> sq(f, r) & 1 == 1 {
                break;
            }
        }
    }
    out
}

const ROOK: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const BISHOP: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Every subset of `mask`, by counting through the bits of `mask`.
fn subsets(mask: u64) -> impl Iterator<Item = u64> {
    let bits: Vec<u32> = (0..64).filter(|b| mask >> b & 1 == 1).collect();
    (0u64..1 << bits.len()).map(move |n| {
        bits.iter()
            .enumerate()
            .filter(|(i, _)| n >> i & 1 == 1)
            .fold(0, |acc, (_, &b)| acc | 1 << b)
    })
}

#[test]
fn slider_lookups_match_a_walk_for_every_relevant_subset() {
    let mut checked = 0;
    for s in 0..64u8 {
        for occ in subsets(t::ROOK_MASKS[s as usize]) {
            assert_eq!(
                t::rook_attacks(s, occ),
                walk(s, occ, &ROOK),
                "rook {s} {occ:#x}"
            );
            checked += 1;
        }
        for occ in subsets(t::BISHOP_MASKS[s as usize]) {
            assert_eq!(
                t::bishop_attacks(s, occ),
                walk(s, occ, &BISHOP),
                "bishop {s} {occ:#x}"
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 102_400 + 5_248);
}

#[test]
fn slider_lookups_ignore_irrelevant_occupancy() {
    // Pieces outside the mask (edges, own square) never change the result.
    let mut x = 0x1234_5678_9ABC_DEF1u64;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let s = (x % 64) as u8;
        let occ = x.rotate_left(17) & x.rotate_left(31);
        assert_eq!(t::rook_attacks(s, occ), walk(s, occ, &ROOK));
        assert_eq!(t::bishop_attacks(s, occ), walk(s, occ, &BISHOP));
        assert_eq!(
            t::queen_attacks(s, occ),
            walk(s, occ, &ROOK) | walk(s, occ, &BISHOP)
        );
    }
}

#[cfg(target_feature = "bmi2")]
#[test]
fn pext_layout_matches_a_walk() {
    fn soft_pext(v: u64, mask: u64) -> u64 {
        let mut out = 0;
        let mut k = 0;
        for b in 0..64 {
            if mask >> b & 1 == 1 {
                out |= (v >> b & 1) << k;
                k += 1;
            }
        }
        out
    }
    for s in 0..64u8 {
        let mask = t::pext::ROOK_MASKS[s as usize];
        for occ in subsets(mask) {
            assert_eq!(
                t::pext::rook_attacks_at(s, soft_pext(occ, mask)),
                walk(s, occ, &ROOK)
            );
        }
        let mask = t::pext::BISHOP_MASKS[s as usize];
        for occ in subsets(mask) {
            assert_eq!(
                t::pext::bishop_attacks_at(s, soft_pext(occ, mask)),
                walk(s, occ, &BISHOP)
            );
        }
    }
}

fn leaps(square: u8, steps: &[(i32, i32)]) -> u64 {
    let (f, r) = (i32::from(square % 8), i32::from(square / 8));
    steps
        .iter()
        .filter(|&&(df, dr)| on_board(f + df, r + dr))
        .fold(0, |acc, &(df, dr)| acc | 1 << sq(f + df, r + dr))
}

#[test]
fn leapers_match_step_lists() {
    let knight = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let king = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    for s in 0..64u8 {
        assert_eq!(t::knight_attacks(s), leaps(s, &knight));
        assert_eq!(t::king_attacks(s), leaps(s, &king));
        assert_eq!(t::pawn_attacks(0, s), leaps(s, &[(-1, 1), (1, 1)]));
        assert_eq!(t::pawn_attacks(1, s), leaps(s, &[(-1, -1), (1, -1)]));
        assert_eq!(t::pawn_pushes(0, s), leaps(s, &[(0, 1)]));
        assert_eq!(t::pawn_pushes(1, s), leaps(s, &[(0, -1)]));
    }
    assert_eq!(t::knight_attacks(0).count_ones(), 2);
    assert_eq!(t::knight_attacks(27).count_ones(), 8);
}

#[test]
fn between_and_line_agree_with_empty_board_rays() {
    for a in 0..64u8 {
        for b in 0..64u8 {
            let aligned_rook = walk(a, 0, &ROOK) >> b & 1 == 1;
            let aligned_bishop = walk(a, 0, &BISHOP) >> b & 1 == 1;
            if aligned_rook || aligned_bishop {
                let dirs: &[(i32, i32)] = if aligned_rook { &ROOK } else { &BISHOP };
                // Between: squares attacked from both ends with the other end as a blocker.
                let expected = walk(a, 1 << b, dirs) & walk(b, 1 << a, dirs);
                assert_eq!(t::between(a, b), expected, "between {a} {b}");
                let (df, dr) = (
                    (i32::from(b % 8) - i32::from(a % 8)).signum(),
                    (i32::from(b / 8) - i32::from(a / 8)).signum(),
                );
                let full = 1 << a | walk(a, 0, &[(df, dr), (-df, -dr)]);
                assert_eq!(t::line(a, b), full, "line {a} {b}");
                assert_eq!(t::line(a, b), t::line(b, a));
            } else {
                assert_eq!(t::between(a, b), 0);
                assert_eq!(t::line(a, b), 0);
            }
        }
    }
    assert_eq!(t::line(0, 63).count_ones(), 8); // long diagonal
    assert_eq!(t::line(0, 7), t::rank_mask(0));
}

#[test]
fn flip_mirrors_ranks_and_is_an_involution() {
    for s in 0..64u8 {
        let flipped = t::FLIP[s as usize];
        assert_eq!(flipped % 8, s % 8);
        assert_eq!(flipped / 8, 7 - s / 8);
        assert_eq!(t::FLIP[flipped as usize], s);
    }
}

#[test]
fn masks_and_distances() {
    for s in 0..64u8 {
        let (f, r) = (s % 8, s / 8);
        assert_ne!(t::file_mask(f) & 1 << s, 0);
        assert_ne!(t::rank_mask(r) & 1 << s, 0);
        assert_eq!(t::adjacent_files(f) & t::file_mask(f), 0);
        for o in 0..64u8 {
            let (of, or) = (o % 8, o / 8);
            let chebyshev = of.abs_diff(f).max(or.abs_diff(r));
            assert_eq!(t::distance(s, o), chebyshev);
            let ahead_white = or > r;
            let ahead_black = or < r;
            let near = of.abs_diff(f) <= 1;
            assert_eq!(t::passed_pawn_mask(0, s) >> o & 1 == 1, ahead_white && near);
            assert_eq!(t::passed_pawn_mask(1, s) >> o & 1 == 1, ahead_black && near);
            assert_eq!(t::forward_file(0, s) >> o & 1 == 1, ahead_white && of == f);
            assert_eq!(t::forward_file(1, s) >> o & 1 == 1, ahead_black && of == f);
        }
    }
    assert_eq!(t::adjacent_files(0), t::file_mask(1));
    assert_eq!(t::adjacent_files(3), t::file_mask(2) | t::file_mask(4));
}

#[test]
fn castling_masks_clear_the_right_rights() {
    assert_eq!(t::castling_rights_mask(4), 0b1100); // e1
    assert_eq!(t::castling_rights_mask(0), 0b1101); // a1
    assert_eq!(t::castling_rights_mask(7), 0b1110); // h1
    assert_eq!(t::castling_rights_mask(60), 0b0011); // e8
    assert_eq!(t::castling_rights_mask(56), 0b0111); // a8
    assert_eq!(t::castling_rights_mask(63), 0b1011); // h8
    let others = (0..64u8).filter(|s| ![0, 4, 7, 56, 60, 63].contains(s));
    assert!(
        others
            .into_iter()
            .all(|s| t::castling_rights_mask(s) == 0b1111)
    );
}

#[test]
fn start_key_is_built_from_the_public_keys() {
    let back = [3u8, 1, 2, 4, 5, 2, 1, 3];
    let mut key = t::zobrist_castling(0b1111);
    for f in 0..8u8 {
        key ^= t::zobrist_piece(0, back[f as usize], f) ^ t::zobrist_piece(0, 0, 8 + f);
        key ^= t::zobrist_piece(1, 0, 48 + f) ^ t::zobrist_piece(1, back[f as usize], 56 + f);
    }
    assert_eq!(key, t::START_KEY);
    assert_ne!(t::zobrist_side(), 0);
    assert!((0..8).all(|f| t::zobrist_en_passant(f) != 0));
}

#[test]
fn seed_and_fingerprint_are_reported() {
    // The default build uses kiln-gen's default seed; a KILN_SEED build
    // reports that seed instead.
    match option_env!("KILN_SEED").filter(|text| !text.trim().is_empty()) {
        None => assert_eq!(t::SEED, 0x0000_4B49_4C4E_2021),
        Some(text) => {
            let seed = kiln_gen::parse_seed(text).expect("the build accepted KILN_SEED");
            assert_eq!(t::SEED, seed, "KILN_SEED={text}");
        }
    }
    assert_ne!(t::FINGERPRINT, 0);
}
