//! Material signatures: the whole material on the board in one `u64`.
//!
//! Each (colour, piece kind) except the kings gets a 4-bit counter (no
//! position can hold more than ten pieces of one kind and colour, so four
//! bits never overflow). The counter of `color`'s `kind` sits in nibble
//! `8 * color + kind`: White's pawns, knights, bishops, rooks and queens in
//! nibbles 0–4, Black's in nibbles 8–12, everything else zero. White's
//! material is the low half of the word and Black's the high half, so
//! swapping the colours is a rotation by 32 bits.
//!
//! The board keeps its signature incrementally in the placement helpers
//! (every capture and promotion goes through them), and debug builds check
//! it against [`Material::of_board`] after every make and unmake. The
//! endgame knowledge (`crate::eval::endgame`) is a build-time `phf` map keyed
//! by this word; `kiln_gen::endgames` builds its keys with the same layout.

use super::Color;
use super::PieceKind;
use super::board::Board;
use super::piece::ColoredPiece;

/// Nibbles that would hold the kings' counters: always zero.
const KING_NIBBLES: u64 = (0xF << (4 * 5)) | (0xF << (4 * 13));

/// A material signature: a 4-bit count for each (colour, piece kind)
/// but the kings, the count of `color`'s `kind` in nibble
/// `8 * color + kind` (White's pawns to queens in nibbles 0–4, Black's in
/// 8–12, the rest zero), so that swapping the colours is a rotation by 32
/// bits. The layout is part of the type: the field is public, and the
/// engine's endgame table is keyed by it.
///
/// ```
/// use kiln_board::{Board, Color, Material, PieceKind};
///
/// let board: Board = "3rk3/8/8/8/8/8/4P3/3RK3 w - - 0 1".parse()?;
/// let material = board.material();
/// assert_eq!(material.to_string(), "KRPvKR");
/// // White's pawn in nibble 0, its rook in nibble 3, Black's rook in nibble 11.
/// assert_eq!(material, Material(0x0000_1000_0000_1001));
/// assert_eq!(material.count(Color::White, PieceKind::Rook), 1);
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Material(pub u64);

impl Material {
    /// The signature of two bare kings.
    ///
    /// ```
    /// use kiln_board::{Board, Material};
    ///
    /// let board: Board = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse()?;
    /// assert_eq!(board.material(), Material::BARE_KINGS);
    /// assert_eq!(Material::BARE_KINGS.to_string(), "KvK");
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub const BARE_KINGS: Material = Material(0);

    /// The amount one `piece` adds to a signature (zero for a king).
    ///
    /// ```
    /// use kiln_board::{ColoredPiece, Material};
    ///
    /// assert_eq!(Material::unit(ColoredPiece::WhitePawn), 1);
    /// assert_eq!(Material::unit(ColoredPiece::WhiteQueen), 1 << 16);
    /// assert_eq!(Material::unit(ColoredPiece::BlackPawn), 1 << 32);
    /// assert_eq!(Material::unit(ColoredPiece::BlackKing), 0);
    /// ```
    #[inline(always)]
    pub const fn unit(piece: ColoredPiece) -> u64 {
        let nibble = 8 * piece.color().index() + piece.kind().index();
        (1u64 << (4 * nibble)) & !KING_NIBBLES
    }

    /// The signature with one more `piece`.
    ///
    /// ```
    /// use kiln_board::{ColoredPiece, Material};
    ///
    /// let material = Material::BARE_KINGS
    ///     .with(ColoredPiece::WhiteQueen)
    ///     .with(ColoredPiece::BlackKnight)
    ///     .with(ColoredPiece::BlackKnight);
    /// assert_eq!(material.to_string(), "KQvKNN");
    /// ```
    #[inline(always)]
    #[must_use]
    pub const fn with(self, piece: ColoredPiece) -> Material {
        Material(self.0.wrapping_add(Material::unit(piece)))
    }

    /// The signature with one `piece` fewer (it must be counted).
    ///
    /// ```
    /// use kiln_board::{Board, Color, ColoredPiece, PieceKind};
    ///
    /// let start = Board::startpos().material();
    /// let queenless = start.without(ColoredPiece::BlackQueen);
    /// assert_eq!(queenless.count(Color::Black, PieceKind::Queen), 0);
    /// assert_eq!(queenless.with(ColoredPiece::BlackQueen), start);
    /// ```
    #[inline(always)]
    #[must_use]
    pub const fn without(self, piece: ColoredPiece) -> Material {
        Material(self.0.wrapping_sub(Material::unit(piece)))
    }

    /// Number of `color`'s pieces of `kind` (0 for kings, which are not
    /// counted).
    ///
    /// ```
    /// use kiln_board::{Board, Color, PieceKind};
    ///
    /// let start = Board::startpos().material();
    /// assert_eq!(start.count(Color::White, PieceKind::Pawn), 8);
    /// assert_eq!(start.count(Color::Black, PieceKind::Knight), 2);
    /// assert_eq!(start.count(Color::White, PieceKind::King), 0);
    /// ```
    #[inline(always)]
    pub const fn count(self, color: Color, kind: PieceKind) -> u32 {
        let nibble = 8 * color.index() + kind.index();
        ((self.0 & !KING_NIBBLES) >> (4 * nibble)) as u32 & 0xF
    }

    /// The same material with the colours swapped.
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// let board: Board = "3rk3/8/8/8/8/8/4P3/3RK3 w - - 0 1".parse()?;
    /// assert_eq!(board.material().flipped().to_string(), "KRvKRP");
    /// assert_eq!(board.material().flipped().flipped(), board.material());
    /// assert_eq!(Board::startpos().material().flipped(), Board::startpos().material());
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    #[must_use]
    pub const fn flipped(self) -> Material {
        Material(self.0.rotate_left(32))
    }

    /// `color`'s part of the signature alone (the other side bare).
    ///
    /// ```
    /// use kiln_board::{Board, Color};
    ///
    /// let board: Board = "3rk3/8/8/8/8/8/4P3/3RK3 w - - 0 1".parse()?;
    /// assert_eq!(board.material().side(Color::White).to_string(), "KRPvK");
    /// assert_eq!(board.material().side(Color::Black).to_string(), "KvKR");
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    #[inline(always)]
    #[must_use]
    pub const fn side(self, color: Color) -> Material {
        Material(self.0 & (0xFFFF_FFFF << (32 * color.index())))
    }

    /// The signature counted from scratch (the incremental one must equal
    /// this after every make and unmake).
    ///
    /// ```
    /// use kiln_board::{Board, Material, perft};
    ///
    /// let mut board: Board = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1".parse()?;
    /// assert_eq!(Material::of_board(&board), board.material());
    /// assert_eq!(Material::of_board(&board).to_string(), "KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP");
    /// // Unchanged after a search's makes and unmakes.
    /// let before = board.material();
    /// perft(&mut board, 2);
    /// assert_eq!(Material::of_board(&board), before);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn of_board(board: &Board) -> Material {
        let mut material = Material::BARE_KINGS;
        for square in board.occupied() {
            if let Some(piece) = board.piece_on(square) {
                material = material.with(piece);
            }
        }
        material
    }
}

impl core::fmt::Display for Material {
    /// The material as `KRPvKR` (White first, pieces queen to pawn).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for color in Color::ALL {
            if color == Color::Black {
                f.write_str("v")?;
            }
            f.write_str("K")?;
            for kind in [
                PieceKind::Queen,
                PieceKind::Rook,
                PieceKind::Bishop,
                PieceKind::Knight,
                PieceKind::Pawn,
            ] {
                let letter = kind.to_char().to_ascii_uppercase();
                for _ in 0..self.count(color, kind) {
                    write!(f, "{letter}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_layout_and_flip() {
        let board = Board::from_fen("4k3/pp6/8/8/8/8/1PPP4/RN2K1NQ w - - 0 1").expect("valid");
        let m = Material::of_board(&board);
        assert_eq!(m.count(Color::White, PieceKind::Pawn), 3);
        assert_eq!(m.count(Color::White, PieceKind::Knight), 2);
        assert_eq!(m.count(Color::White, PieceKind::Rook), 1);
        assert_eq!(m.count(Color::White, PieceKind::Queen), 1);
        assert_eq!(m.count(Color::White, PieceKind::King), 0);
        assert_eq!(m.count(Color::Black, PieceKind::Pawn), 2);
        assert_eq!(m.0, 0x0000_0002_0001_1023);
        assert_eq!(m.to_string(), "KQRNNPPPvKPP");
        assert_eq!(m.flipped().to_string(), "KPPvKQRNNPPP");
        assert_eq!(m.side(Color::Black).to_string(), "KvKPP");
        assert_eq!(board.material(), m);
    }

    #[test]
    fn start_position() {
        let m = Board::startpos().material();
        assert_eq!(m.0, 0x0001_2228_0001_2228);
        assert_eq!(m.flipped(), m);
    }
}
