//! FEN parsing and emitting, with X-FEN and Shredder-FEN castling fields for
//! Chess960.
//!
//! Parsing builds a new [`Board`] and returns it only when every field is
//! valid, so a failed parse never disturbs a board the caller already has.
//! It never panics, whatever the input. Four-field FEN (no clocks) is
//! accepted, with the clocks defaulting to `0 1`.
//!
//! Castling: `KQkq` means the outermost rook on each side of the king
//! (X-FEN); a file letter (`HAha`, Shredder-FEN, or `Bb` mixed with `KQkq`)
//! names the rook's file. Emitting writes `K`/`Q` when the castling rook is
//! the outermost one on its side and the file letter otherwise, so standard
//! positions get ordinary FEN and every position round-trips.
//!
//! ```
//! use kiln_board::Board;
//!
//! let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
//! let board = Board::from_fen(fen).unwrap();
//! assert_eq!(board.to_fen(), fen);
//! let err = Board::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq").unwrap_err();
//! assert!(err.to_string().contains("fields"));
//! ```

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::str::FromStr;

use super::CastlingRights;
use super::Color;
use super::PieceKind;
use super::attacks;
use super::board::Board;
use super::castling::CastleSide;
use super::piece::ColoredPiece;
use super::{File, Rank, Square};
use kiln_tables::rank_mask;

/// The standard starting position.
///
/// ```
/// use kiln_board::{Board, STARTPOS};
///
/// let board = Board::from_fen(STARTPOS)?;
/// assert_eq!(board, Board::startpos());
/// assert_eq!(board.to_fen(), STARTPOS);
/// # Ok::<(), kiln_board::FenError>(())
/// ```
pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Why a FEN string was rejected. `Display` names the field and the reason.
///
/// ```
/// use kiln_board::{Board, Color, FenError};
///
/// let err = Board::from_fen("8/8/8/8/8/8/8/4K3 w - - 0 1").unwrap_err();
/// assert_eq!(err, FenError::KingCount { color: Color::Black, found: 0 });
/// assert!(err.to_string().starts_with("FEN field 1 (piece placement)"));
///
/// // A castling right with no rook for it.
/// let err = Board::from_fen("4k3/8/8/8/8/8/8/4K3 w K - 0 1").unwrap_err();
/// assert_eq!(err, FenError::CastlingWithoutRook { right: 'K' });
///
/// // White to move while Black is in check.
/// let err = Board::from_fen("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1").unwrap_err();
/// assert_eq!(err, FenError::OpponentInCheck);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FenError {
    /// The FEN does not have 4 or 6 space-separated fields.
    FieldCount {
        /// Number of fields found.
        found: usize,
    },
    /// The placement field does not have 8 ranks separated by `/`.
    RankCount {
        /// Number of ranks found.
        found: usize,
    },
    /// A character in the placement field is neither a piece letter nor a
    /// digit 1–8.
    BadPiece {
        /// The rank being read (8 for the first group of the field).
        rank: u8,
        /// The offending character.
        found: char,
    },
    /// A rank of the placement field describes other than 8 squares.
    RankSquares {
        /// The rank (8 for the first group of the field).
        rank: u8,
        /// Number of squares it describes.
        squares: usize,
    },
    /// A side has no king or more than one.
    KingCount {
        /// The side.
        color: Color,
        /// Number of kings found.
        found: usize,
    },
    /// A pawn stands on the first or eighth rank.
    PawnOnBackRank {
        /// Where.
        square: Square,
    },
    /// A side has more pieces than a game can produce (over 16 pieces, over
    /// 8 pawns, or more promoted pieces than missing pawns).
    TooManyPieces {
        /// The side.
        color: Color,
    },
    /// The side-to-move field is not `w` or `b`.
    BadSideToMove {
        /// The field's text.
        found: String,
    },
    /// The side that is not to move is in check (its king could be taken).
    OpponentInCheck,
    /// The castling field has a character that is not a castling letter,
    /// or names the same right twice.
    BadCastling {
        /// The offending character.
        found: char,
    },
    /// A castling right is given but the king is not on its first rank.
    CastlingWithoutKing {
        /// The castling letter.
        right: char,
    },
    /// A castling right is given but there is no rook for it on the king's
    /// first rank.
    CastlingWithoutRook {
        /// The castling letter.
        right: char,
    },
    /// The en-passant field is neither `-` nor a square name.
    BadEnPassant {
        /// The field's text.
        found: String,
    },
    /// The en-passant square cannot follow a double push: wrong rank, not
    /// empty, or no pawn that just made a double push past it.
    ImpossibleEnPassant {
        /// The square given.
        square: Square,
    },
    /// A clock is not a number.
    BadClock {
        /// `"half-move clock"` or `"full-move number"`.
        field: &'static str,
        /// The field's text.
        found: String,
    },
    /// A clock is negative.
    NegativeClock {
        /// `"half-move clock"` or `"full-move number"`.
        field: &'static str,
        /// The field's text.
        found: String,
    },
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            FieldCount { found } => write!(
                f,
                "FEN has {found} fields; expected 6 (placement, side, castling, en passant, \
                 half-move clock, full-move number) or the first 4"
            ),
            RankCount { found } => write!(
                f,
                "FEN field 1 (piece placement): {found} ranks; expected 8 separated by '/'"
            ),
            BadPiece { rank, found } => write!(
                f,
                "FEN field 1 (piece placement): bad piece letter '{found}' on rank {rank} \
                 (expected one of PNBRQKpnbrqk or a digit 1-8)"
            ),
            RankSquares { rank, squares } => write!(
                f,
                "FEN field 1 (piece placement): rank {rank} has {squares} squares; expected 8"
            ),
            KingCount { color, found } => write!(
                f,
                "FEN field 1 (piece placement): {} has {found} kings; expected exactly 1",
                color_name(*color)
            ),
            PawnOnBackRank { square } => write!(
                f,
                "FEN field 1 (piece placement): pawn on {square}; pawns cannot stand on rank 1 or 8"
            ),
            TooManyPieces { color } => write!(
                f,
                "FEN field 1 (piece placement): {} has more pieces than a game can produce",
                color_name(*color)
            ),
            BadSideToMove { found } => write!(
                f,
                "FEN field 2 (side to move): '{found}'; expected 'w' or 'b'"
            ),
            OpponentInCheck => write!(
                f,
                "FEN field 2 (side to move): the side not to move is in check"
            ),
            BadCastling { found } => write!(
                f,
                "FEN field 3 (castling): bad or repeated character '{found}' \
                 (expected '-' or letters from KQkq / A-H a-h)"
            ),
            CastlingWithoutKing { right } => write!(
                f,
                "FEN field 3 (castling): right '{right}' but the king is not on its first rank"
            ),
            CastlingWithoutRook { right } => write!(
                f,
                "FEN field 3 (castling): right '{right}' but no rook in place for it"
            ),
            BadEnPassant { found } => write!(
                f,
                "FEN field 4 (en passant): '{found}'; expected '-' or a square like e3"
            ),
            ImpossibleEnPassant { square } => write!(
                f,
                "FEN field 4 (en passant): {square} is impossible (no double push just passed it)"
            ),
            BadClock { field, found } => {
                let n = if *field == HALFMOVE { 5 } else { 6 };
                write!(f, "FEN field {n} ({field}): '{found}' is not a number")
            }
            NegativeClock { field, found } => {
                let n = if *field == HALFMOVE { 5 } else { 6 };
                write!(f, "FEN field {n} ({field}): '{found}' is negative")
            }
        }
    }
}

impl core::error::Error for FenError {}

const HALFMOVE: &str = "half-move clock";
const FULLMOVE: &str = "full-move number";

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

impl FromStr for Board {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Board, FenError> {
        Board::from_fen(s)
    }
}

impl Board {
    /// Parses a FEN (6 fields, or 4 with clocks `0 1`), including X-FEN and
    /// Shredder-FEN castling (`KQkq` = outermost rooks, file letters name the
    /// rook). A failed parse returns a [`FenError`] and no board.
    ///
    /// ```
    /// use kiln_board::{Board, CastleSide, Color, FenError, Square, parse_uci_move};
    ///
    /// // Chess960, in Shredder-FEN and in X-FEN: the same position.
    /// let shredder = Board::from_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1")?;
    /// let xfen = Board::from_fen("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1")?;
    /// assert_eq!(shredder, xfen);
    /// assert_eq!(shredder.castling_rook(Color::White, CastleSide::Long), Some(Square::E1));
    ///
    /// // Castling short at once: king f1 to g1, rook g1 to f1.
    /// let mut board = shredder;
    /// board.make_move(parse_uci_move(&board, "f1g1")?);
    /// assert_eq!(board.to_fen(), "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRRKN b kq - 1 1");
    ///
    /// // Four fields: the clocks default to 0 1.
    /// assert_eq!(Board::from_fen("4k3/8/8/8/8/8/8/4K3 w - -")?.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    /// assert_eq!(
    ///     Board::from_fen("4k3/8/8/8/8/8/8/4K3 x - - 0 1").unwrap_err(),
    ///     FenError::BadSideToMove { found: "x".into() }
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// A [`FenError`] naming the field at fault: a field count other than
    /// four or six, a placement that does not read or breaks a rule (king
    /// count, pawns on the back ranks, the side not to move in check), a
    /// castling right without its king or rook, an en-passant square or
    /// clock that does not read.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(FenError::FieldCount {
                found: fields.len(),
            });
        }
        let mut board = Board::empty();
        parse_placement(&mut board, fields[0])?;
        board.side = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(FenError::BadSideToMove {
                    found: other.to_string(),
                });
            }
        };
        parse_castling(&mut board, fields[2])?;
        parse_en_passant(&mut board, fields[3])?;
        if fields.len() == 6 {
            board.halfmove = parse_clock(fields[4], HALFMOVE)?;
            // Some tools write 0 for the full-move number; the count starts at 1.
            board.fullmove = parse_clock(fields[5], FULLMOVE)?.max(1);
        }
        let them = !board.side;
        if board.attacked_by(board.king_square(them), board.side, board.occupied()) {
            return Err(FenError::OpponentInCheck);
        }
        board.key = board.compute_key();
        board.pawn_key = board.compute_pawn_key();
        Ok(board)
    }

    /// The position as FEN. Castling is X-FEN: `K`/`Q` for the outermost rook
    /// on its side (so standard positions get plain `KQkq`), the file letter
    /// otherwise.
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// // The outermost rook on a side is written K/Q …
    /// let board: Board = "4k3/8/8/8/8/8/8/RR2K3 w A - 0 1".parse()?;
    /// assert_eq!(board.to_fen(), "4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1");
    /// // … an inner one by its file (Shredder-FEN's letter).
    /// let board: Board = "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1".parse()?;
    /// assert_eq!(board.to_fen(), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
    /// assert_eq!(board.to_fen().parse::<Board>()?, board);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn to_fen(&self) -> String {
        self.fen_with(false)
    }

    /// The position as Shredder-FEN: every castling right written as its
    /// rook's file (`HAha` for the standard start), as some Chess960 GUIs
    /// expect. [`Board::from_fen`] reads it back.
    ///
    /// ```
    /// use kiln_board::Board;
    ///
    /// assert_eq!(
    ///     Board::startpos().to_shredder_fen(),
    ///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
    /// );
    /// let chess960: Board = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9".parse()?;
    /// assert_eq!(chess960.to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    /// assert_eq!(
    ///     chess960.to_shredder_fen(),
    ///     "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"
    /// );
    /// assert_eq!(chess960.to_shredder_fen().parse::<Board>()?, chess960);
    /// # Ok::<(), kiln_board::FenError>(())
    /// ```
    pub fn to_shredder_fen(&self) -> String {
        self.fen_with(true)
    }

    /// The FEN, with every castling right as a file letter when
    /// `shredder`, X-FEN's letters otherwise.
    fn fen_with(&self, shredder: bool) -> String {
        let mut out = String::with_capacity(90);
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.piece_on(Square::new(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(piece.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if *rank != Rank::First {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.side.to_char());
        out.push(' ');
        let before = out.len();
        for color in Color::ALL {
            for side in CastleSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    let outermost = !shredder && self.outermost_rook(color, side) == Some(rook);
                    let c = match (outermost, side) {
                        (true, CastleSide::Short) => 'K',
                        (true, CastleSide::Long) => 'Q',
                        (false, _) => rook.file().to_char().to_ascii_uppercase(),
                    };
                    out.push(match color {
                        Color::White => c,
                        Color::Black => c.to_ascii_lowercase(),
                    });
                }
            }
        }
        if out.len() == before {
            out.push('-');
        }
        out.push(' ');
        match self.en_passant {
            Some(ep) => out.push_str(&ep.to_string()),
            None => out.push('-'),
        }
        out.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        out
    }

    /// The rook of `color` furthest from its king towards `side` on the
    /// king's rank (X-FEN's meaning of `K` and `Q`).
    fn outermost_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        let king = self.king_square(color);
        let rooks = self.pieces(color, PieceKind::Rook) & rank_mask(king.rank());
        // The squares below the king's: `king - 1`. (Not `(king << 1) - 1`
        // for the squares up to it: a king on h8 shifts out to 0.)
        let king = king.bitboard().0;
        let below = king.wrapping_sub(1);
        let beyond = match side {
            CastleSide::Short => rooks.0 & !(king | below),
            CastleSide::Long => rooks.0 & below,
        };
        if beyond == 0 {
            return None;
        }
        Some(match side {
            CastleSide::Short => Square::from_index_masked(63 - beyond.leading_zeros()),
            CastleSide::Long => Square::from_index_masked(beyond.trailing_zeros()),
        })
    }
}

fn parse_placement(board: &mut Board, field: &str) -> Result<(), FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::RankCount { found: ranks.len() });
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank_number = 8 - i as u8;
        let rank = Rank::ALL[7 - i];
        let mut file = 0usize;
        for c in text.chars() {
            if let Some(skip) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += skip as usize;
                continue;
            }
            let piece = ColoredPiece::from_char(c).ok_or(FenError::BadPiece {
                rank: rank_number,
                found: c,
            })?;
            if let Some(f) = u8::try_from(file).ok().and_then(File::new) {
                board.put_piece(piece, Square::new(f, rank));
            }
            file += 1;
        }
        if file != 8 {
            return Err(FenError::RankSquares {
                rank: rank_number,
                squares: file,
            });
        }
    }
    for color in Color::ALL {
        let kings = board.pieces(color, PieceKind::King).count() as usize;
        if kings != 1 {
            return Err(FenError::KingCount {
                color,
                found: kings,
            });
        }
    }
    let pawns = board.kind_bb(PieceKind::Pawn);
    if let Some(square) = (pawns & (rank_mask(Rank::First) | rank_mask(Rank::Eighth))).first() {
        return Err(FenError::PawnOnBackRank { square });
    }
    for color in Color::ALL {
        let count = |kind| board.pieces(color, kind).count() as i32;
        let promoted = (count(PieceKind::Knight) - 2).max(0)
            + (count(PieceKind::Bishop) - 2).max(0)
            + (count(PieceKind::Rook) - 2).max(0)
            + (count(PieceKind::Queen) - 1).max(0);
        if count(PieceKind::Pawn) + promoted > 8 || board.color_bb(color).count() > 16 {
            return Err(FenError::TooManyPieces { color });
        }
    }
    Ok(())
}

fn parse_castling(board: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let back_rank = match color {
            Color::White => Rank::First,
            Color::Black => Rank::Eighth,
        };
        let upper = c.to_ascii_uppercase();
        if !matches!(upper, 'K' | 'Q' | 'A'..='H') {
            return Err(FenError::BadCastling { found: c });
        }
        let king = board.king_square(color);
        if king.rank() != back_rank {
            return Err(FenError::CastlingWithoutKing { right: c });
        }
        let found = match upper {
            'K' => board
                .outermost_rook(color, CastleSide::Short)
                .map(|sq| (CastleSide::Short, sq)),
            'Q' => board
                .outermost_rook(color, CastleSide::Long)
                .map(|sq| (CastleSide::Long, sq)),
            // Shredder-FEN: the file letter names the rook; its side of the
            // king decides which right it is.
            letter => File::from_char(letter.to_ascii_lowercase()).and_then(|file| {
                let sq = Square::new(file, back_rank);
                let side = if file > king.file() {
                    CastleSide::Short
                } else {
                    CastleSide::Long
                };
                (board.piece_on(sq) == Some(ColoredPiece::new(color, PieceKind::Rook)))
                    .then_some((side, sq))
            }),
        };
        let (side, rook) = found.ok_or(FenError::CastlingWithoutRook { right: c })?;
        let right = side.right(color);
        if board.castling.contains(right) {
            return Err(FenError::BadCastling { found: c });
        }
        board.castling = board.castling.union(right);
        board.castle_rooks[color.index()][side.index()] = rook;
        board.castle_mask[rook.index()] = board.castle_mask[rook.index()].difference(right);
        let king_to = side.king_destination(back_rank);
        let rook_to = side.rook_destination(back_rank);
        let king_path = attacks::between(king, king_to).with(king_to);
        board.castle_king_path[color.index()][side.index()] = king_path;
        board.castle_empty[color.index()][side.index()] = (king_path
            | attacks::between(rook, rook_to).with(rook_to))
        .without(king)
        .without(rook);
        board.castle_mask[king.index()] =
            board.castle_mask[king.index()].difference(CastlingRights::of(color));
    }
    Ok(())
}

fn parse_en_passant(board: &mut Board, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let square: Square = field.parse().map_err(|_| FenError::BadEnPassant {
        found: field.to_string(),
    })?;
    // The side not to move just pushed a pawn two squares past `square`.
    let (target_rank, forward) = match board.side {
        Color::White => (Rank::Sixth, 8),
        Color::Black => (Rank::Third, -8i32),
    };
    let origin = Square::from_index_masked((square as i32 + forward) as u32);
    let pawn_at = Square::from_index_masked((square as i32 - forward) as u32);
    let possible = square.rank() == target_rank
        && board.piece_on(square).is_none()
        && board.piece_on(origin).is_none()
        && board.piece_on(pawn_at) == Some(ColoredPiece::new(!board.side, PieceKind::Pawn));
    if !possible {
        return Err(FenError::ImpossibleEnPassant { square });
    }
    // Keep the square only when it matters (see `Board`): then positions
    // that differ only by a useless en-passant square compare and hash equal.
    if board.ep_capturable(square, board.side) {
        board.en_passant = Some(square);
    }
    Ok(())
}

fn parse_clock(text: &str, field: &'static str) -> Result<u16, FenError> {
    let bad = || FenError::BadClock {
        field,
        found: text.to_string(),
    };
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    if text.starts_with('-') && digits.bytes().any(|b| b != b'0') {
        return Err(FenError::NegativeClock {
            field,
            found: text.to_string(),
        });
    }
    // Values beyond u16 cannot occur in a game; report them as malformed.
    digits.parse::<u16>().map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> FenError {
        match Board::from_fen(fen) {
            Ok(board) => panic!("accepted {fen} as {board:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn round_trips_and_defaults() {
        for fen in [
            STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "4k3/8/8/8/8/8/8/4K2R w K - 99 80",
        ] {
            assert_eq!(Board::from_fen(fen).expect("valid").to_fen(), fen);
        }
        let four = Board::from_fen("4k3/8/8/8/8/8/8/4K3 b - -").expect("4 fields");
        assert_eq!(four.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
        // Extra whitespace is fine.
        assert!(Board::from_fen("  4k3/8/8/8/8/8/8/4K3   w - -  0   1 ").is_ok());
    }

    /// A king in the last corner has no square beyond it: its right is
    /// refused (a rook is needed), not an arithmetic overflow.
    #[test]
    fn a_corner_king_with_a_right_and_no_rook_is_refused() {
        assert_eq!(
            err("7k/8/8/8/8/8/8/4K3 b k - 0 1"),
            FenError::CastlingWithoutRook { right: 'k' }
        );
        assert_eq!(
            err("4k3/8/8/8/8/8/8/K7 w Q - 0 1"),
            FenError::CastlingWithoutRook { right: 'Q' }
        );
        let rook_below = Board::from_fen("6rk/8/8/8/8/8/8/4K3 b q - 0 1").expect("valid");
        assert_eq!(
            rook_below.castling_rook(Color::Black, CastleSide::Long),
            Some(Square::G8)
        );
    }

    #[test]
    fn shredder_and_x_fen_castling() {
        let shredder = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let board = Board::from_fen(shredder).expect("valid");
        assert!(board.is_chess960());
        // Outermost rooks are written K/Q (X-FEN), and that parses back.
        let emitted = board.to_fen();
        assert_eq!(
            emitted,
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
        );
        assert_eq!(Board::from_fen(&emitted).expect("valid"), board);
        // A castling rook that is not the outermost keeps its file letter.
        let inner = "4k3/8/8/8/8/8/8/4KR1R w F - 0 1";
        let board = Board::from_fen(inner).expect("valid");
        assert_eq!(
            board.castling_rook(Color::White, CastleSide::Short),
            Some(Square::F1)
        );
        assert_eq!(board.to_fen(), inner);
        // Standard KQkq equals HAha.
        let a = Board::from_fen(STARTPOS).expect("valid");
        let b = Board::from_fen(&STARTPOS.replace("KQkq", "HAha")).expect("valid");
        assert_eq!(a, b);
        assert!(!a.is_chess960());
    }

    #[test]
    fn unusable_en_passant_square_is_dropped() {
        // e3 is a possible square, but no black pawn can capture there.
        let board = Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
            .expect("valid");
        assert_eq!(board.en_passant(), None);
        assert_eq!(
            board,
            Board::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
                .expect("valid")
        );
    }

    #[test]
    fn each_error_kind() {
        use FenError::*;
        let cases: Vec<(&str, FenError)> = vec![
            ("", FieldCount { found: 0 }),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0", FieldCount { found: 5 }),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 x", FieldCount { found: 7 }),
            ("4k3/8/8/8/8/8/4K3 w - - 0 1", RankCount { found: 7 }),
            ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", RankCount { found: 9 }),
            (
                "4k3/8/8/8/8/8/8/4X3 w - - 0 1",
                BadPiece {
                    rank: 1,
                    found: 'X',
                },
            ),
            ("4k3/8/8/8/8/8/8/4K2/ w - - 0 1", RankCount { found: 9 }),
            (
                "4k3/9/8/8/8/8/8/4K3 w - - 0 1",
                BadPiece {
                    rank: 7,
                    found: '9',
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K4 w - - 0 1",
                RankSquares {
                    rank: 1,
                    squares: 9,
                },
            ),
            (
                "4k3/8/8/7/8/8/8/4K3 w - - 0 1",
                RankSquares {
                    rank: 5,
                    squares: 7,
                },
            ),
            (
                "4k3/8/8/8/8/8/8/8 w - - 0 1",
                KingCount {
                    color: Color::White,
                    found: 0,
                },
            ),
            (
                "4k3/8/8/8/8/8/8/3KK3 w - - 0 1",
                KingCount {
                    color: Color::White,
                    found: 2,
                },
            ),
            (
                "8/8/8/8/8/8/8/4K3 w - - 0 1",
                KingCount {
                    color: Color::Black,
                    found: 0,
                },
            ),
            (
                "4k2P/8/8/8/8/8/8/4K3 w - - 0 1",
                PawnOnBackRank { square: Square::H8 },
            ),
            (
                "4k3/8/8/8/8/8/8/p3K3 w - - 0 1",
                PawnOnBackRank { square: Square::A1 },
            ),
            (
                "4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w - - 0 1",
                TooManyPieces {
                    color: Color::White,
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
                BadSideToMove { found: "x".into() },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 W - - 0 1",
                BadSideToMove { found: "W".into() },
            ),
            ("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", OpponentInCheck),
            (
                "4k3/8/8/8/8/8/8/4K2R w KX - 0 1",
                BadCastling { found: 'X' },
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w KK - 0 1",
                BadCastling { found: 'K' },
            ),
            (
                "4k3/8/8/8/8/8/4K3/7R w K - 0 1",
                CastlingWithoutKing { right: 'K' },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
                CastlingWithoutRook { right: 'K' },
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w Q - 0 1",
                CastlingWithoutRook { right: 'Q' },
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w G - 0 1",
                CastlingWithoutRook { right: 'G' },
            ),
            (
                "4k3/8/8/8/8/8/8/4K2R w k - 0 1",
                CastlingWithoutRook { right: 'k' },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e9 0 1",
                BadEnPassant { found: "e9".into() },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - x 0 1",
                BadEnPassant { found: "x".into() },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
                ImpossibleEnPassant { square: Square::E3 },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
                ImpossibleEnPassant { square: Square::E6 },
            ),
            (
                "4k3/8/4p3/4P3/8/8/8/4K3 w - e6 0 1",
                ImpossibleEnPassant { square: Square::E6 },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - x 1",
                BadClock {
                    field: HALFMOVE,
                    found: "x".into(),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 1.5 1",
                BadClock {
                    field: HALFMOVE,
                    found: "1.5".into(),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 one",
                BadClock {
                    field: FULLMOVE,
                    found: "one".into(),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - -3 1",
                NegativeClock {
                    field: HALFMOVE,
                    found: "-3".into(),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 0 -1",
                NegativeClock {
                    field: FULLMOVE,
                    found: "-1".into(),
                },
            ),
            (
                "4k3/8/8/8/8/8/8/4K3 w - - 99999 1",
                BadClock {
                    field: HALFMOVE,
                    found: "99999".into(),
                },
            ),
        ];
        for (fen, expected) in cases {
            assert_eq!(err(fen), expected, "{fen}");
            // Every message names the field or the FEN as a whole.
            assert!(err(fen).to_string().starts_with("FEN"), "{}", err(fen));
        }
    }

    #[test]
    fn messages_name_field_and_reason() {
        let text = err("4k3/8/8/8/8/8/8/4K2R w K - x 1").to_string();
        assert!(
            text.contains("field 5") && text.contains("half-move clock"),
            "{text}"
        );
        let text = err("4k3/8/8/8/8/8/8/4K3 w K - 0 1").to_string();
        assert!(text.contains("castling") && text.contains("rook"), "{text}");
        let text = err("4k3/8/8/8/8/8/8/4K3 w - - 0").to_string();
        assert!(text.contains("5 fields"), "{text}");
    }

    #[test]
    fn never_panics_on_junk() {
        // Mangle valid FENs byte by byte; every result is Ok or a FenError.
        let seeds = [
            STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        ];
        let junk = [
            '/', ' ', '9', '0', 'K', 'k', 'p', 'P', '-', 'é', 'x', 'h', '8',
        ];
        for seed in seeds {
            let chars: Vec<char> = seed.chars().collect();
            for i in 0..chars.len() {
                for &j in &junk {
                    let mut mangled = chars.clone();
                    mangled[i] = j;
                    let text: String = mangled.iter().collect();
                    if let Ok(board) = Board::from_fen(&text) {
                        assert_eq!(Board::from_fen(&board.to_fen()).as_ref(), Ok(&board));
                    }
                    let cut: String = chars[..i].iter().collect();
                    let _ = Board::from_fen(&cut);
                }
            }
        }
    }
}
