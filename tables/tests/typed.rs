//! The typed API against the integer layer it wraps, and the names of the
//! vocabulary: every square, colour, piece and castling set, both ways.

use kiln_tables::{
    self as t, Bitboard, CastlingRights, Color, File, ParseError, PieceKind, Rank, Square, raw,
};

#[test]
fn every_typed_lookup_reads_the_same_table_as_its_integer_form() {
    let occupancies = [0u64, 0x0000_1008_0420_8100, 0xffff_0000_0000_ffff, !0];
    for square in Square::ALL {
        let s = square as u8;
        for occ in occupancies {
            let o = Bitboard(occ);
            assert_eq!(t::rook_attacks(square, o).0, raw::rook_attacks(s, occ));
            assert_eq!(t::bishop_attacks(square, o).0, raw::bishop_attacks(s, occ));
            assert_eq!(t::queen_attacks(square, o).0, raw::queen_attacks(s, occ));
        }
        assert_eq!(t::knight_attacks(square).0, raw::knight_attacks(s));
        assert_eq!(t::king_attacks(square).0, raw::king_attacks(s));
        assert_eq!(
            t::castling_rights_mask(square).bits(),
            raw::castling_rights_mask(s)
        );
        for color in Color::ALL {
            let c = color as u8;
            assert_eq!(t::pawn_attacks(color, square).0, raw::pawn_attacks(c, s));
            assert_eq!(t::pawn_pushes(color, square).0, raw::pawn_pushes(c, s));
            assert_eq!(
                t::passed_pawn_mask(color, square).0,
                raw::passed_pawn_mask(c, s)
            );
            assert_eq!(t::forward_file(color, square).0, raw::forward_file(c, s));
            for piece in PieceKind::ALL {
                assert_eq!(
                    t::zobrist_piece(color, piece, square),
                    raw::zobrist_piece(c, piece as u8, s)
                );
            }
        }
        for other in Square::ALL {
            let o = other as u8;
            assert_eq!(t::between(square, other).0, raw::between(s, o));
            assert_eq!(t::line(square, other).0, raw::line(s, o));
            assert_eq!(t::distance(square, other), raw::distance(s, o));
        }
        assert_eq!(square.flip() as u8, raw::FLIP[square.index()]);
    }
    for file in File::ALL {
        assert_eq!(t::file_mask(file).0, raw::file_mask(file as u8));
        assert_eq!(t::adjacent_files(file).0, raw::adjacent_files(file as u8));
        assert_eq!(
            t::zobrist_en_passant(file),
            raw::zobrist_en_passant(file as u8)
        );
    }
    for rank in Rank::ALL {
        assert_eq!(t::rank_mask(rank).0, raw::rank_mask(rank as u8));
    }
    for bits in 0..16 {
        let rights = CastlingRights::new(bits).expect("four bits");
        assert_eq!(t::zobrist_castling(rights), raw::zobrist_castling(bits));
    }
    assert_eq!(t::zobrist_side(), raw::zobrist_side());
    assert_eq!(
        (t::SEED, t::FINGERPRINT, t::START_KEY),
        (raw::SEED, raw::FINGERPRINT, raw::START_KEY)
    );
}

#[test]
fn lookups_are_usable_in_constants() {
    const KNIGHT: Bitboard = t::knight_attacks(Square::G1);
    const ROOK: Bitboard = t::rook_attacks(Square::A1, Bitboard::EMPTY.with(Square::A4));
    const KEY: u64 = t::zobrist_piece(Color::White, PieceKind::King, Square::E1);
    const E4: Square = Square::new(File::E, Rank::Fourth);
    const FLIPPED: Square = E4.flip();
    assert_eq!(KNIGHT.0, raw::knight_attacks(6));
    assert_eq!(ROOK.count(), 3 + 7);
    assert_eq!(KEY, raw::ZOBRIST_PIECES[0][5][4]);
    assert_eq!(FLIPPED, Square::E5);
}

#[test]
fn squares_files_and_ranks_round_trip_through_index_and_name() {
    for (i, square) in Square::ALL.into_iter().enumerate() {
        assert_eq!(square.index(), i);
        assert_eq!(Square::from_index(i as u8), Some(square));
        assert_eq!(Square::new(square.file(), square.rank()), square);
        let name = square.to_string();
        assert_eq!(name.parse::<Square>(), Ok(square));
        assert_eq!(square.flip().flip(), square);
        assert_eq!(square.flip().file(), square.file());
        assert_eq!(square.flip().rank(), square.rank().flip());
        assert_eq!(Bitboard::from(square), square.bitboard());
    }
    assert_eq!(Square::from_index(64), None);
    assert_eq!(Square::from_index(255), None);
    for file in File::ALL {
        assert_eq!(File::new(file as u8), Some(file));
        assert_eq!(file.to_string().parse::<File>(), Ok(file));
        assert_eq!(file.flip().flip(), file);
    }
    for rank in Rank::ALL {
        assert_eq!(Rank::new(rank as u8), Some(rank));
        assert_eq!(rank.to_string().parse::<Rank>(), Ok(rank));
        assert_eq!(rank.relative_to(Color::Black), rank.flip());
    }
    assert_eq!((File::new(8), Rank::new(8)), (None, None));
}

#[test]
fn bad_names_are_rejected_with_what_was_expected() {
    for bad in ["", "e", "e44", "E4", "i1", "a0", "a9", " e4", "4e"] {
        assert_eq!(bad.parse::<Square>(), Err(ParseError::Square), "{bad:?}");
    }
    assert_eq!("i".parse::<File>(), Err(ParseError::File));
    assert_eq!("ab".parse::<File>(), Err(ParseError::File));
    assert_eq!("0".parse::<Rank>(), Err(ParseError::Rank));
    assert_eq!("white".parse::<Color>(), Err(ParseError::Color));
    assert_eq!("x".parse::<PieceKind>(), Err(ParseError::PieceKind));
    assert_eq!("nn".parse::<PieceKind>(), Err(ParseError::PieceKind));
    for bad in ["", "KK", "qk", "KQkqK", "A", "-K"] {
        assert_eq!(
            bad.parse::<CastlingRights>(),
            Err(ParseError::Castling),
            "{bad:?}"
        );
    }
    assert!(ParseError::PieceKind.to_string().contains("p n b r q k"));
}

#[test]
fn colours_pieces_and_castling_sets_round_trip_through_their_names() {
    for color in Color::ALL {
        assert_eq!(color.to_string().parse::<Color>(), Ok(color));
        assert_eq!(Color::new(color as u8), Some(color));
        assert_eq!(color.flip().flip(), color);
    }
    for piece in PieceKind::ALL {
        assert_eq!(piece.to_string().parse::<PieceKind>(), Ok(piece));
        assert_eq!(PieceKind::new(piece as u8), Some(piece));
        for color in Color::ALL {
            assert_eq!(
                PieceKind::from_fen_char(piece.fen_char(color)),
                Some((color, piece))
            );
        }
    }
    for bits in 0..16 {
        let rights = CastlingRights::new(bits).expect("four bits");
        assert_eq!(rights.to_string().parse::<CastlingRights>(), Ok(rights));
    }
    assert_eq!(CastlingRights::new(16), None);
}

#[test]
fn bitboards_iterate_their_squares_in_index_order() {
    let set = t::rank_mask(Rank::Second) | t::file_mask(File::H);
    let squares: Vec<Square> = set.into_iter().collect();
    assert_eq!(squares.len(), set.count() as usize);
    assert!(squares.windows(2).all(|w| w[0] < w[1]));
    assert!(squares.iter().all(|&s| set.contains(s)));
    assert_eq!(squares.first().copied(), set.first());
    let mut rebuilt = Bitboard::EMPTY;
    for s in squares {
        rebuilt |= s.bitboard();
    }
    assert_eq!(rebuilt, set);
    assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
    assert_eq!(set.without(Square::H1).count(), set.count() - 1);
    assert_eq!(
        format!("{:?}", Square::A1.bitboard()),
        "Bitboard(0x0000000000000001)"
    );
}
