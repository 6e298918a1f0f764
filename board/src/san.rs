//! Standard algebraic notation (SAN), the move text of PGN: read with
//! [`parse_san`], written with [`Move::san`] (a [`SanMove`], which formats
//! itself) or [`Move::to_san`].
//!
//! ```
//! use kiln_board::{Board, parse_san};
//!
//! let mut board = Board::startpos();
//! for text in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"] {
//!     let mv = parse_san(&board, text)?;
//!     assert_eq!(mv.san(&board).to_string(), text);
//!     board.make_move(mv);
//! }
//! # Ok::<(), kiln_board::SanError>(())
//! ```

use alloc::string::{String, ToString};
use core::fmt::{self, Write};

use crate::castling::CastleSide;
use crate::generate::{generate_all, has_legal_move};
use crate::move_list::MoveList;
use crate::{Board, File, Move, PieceKind, Rank, Square};

/// Why a SAN move text was rejected by [`parse_san`]. Each variant keeps
/// the text as given, suffixes included.
///
/// ```
/// use kiln_board::{Board, SanError, parse_san};
///
/// let board: Board = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1".parse()?;
/// assert_eq!(parse_san(&board, "Nz9"), Err(SanError::Malformed { text: "Nz9".into() }));
/// assert_eq!(parse_san(&board, "Nc4+"), Err(SanError::Illegal { text: "Nc4+".into() }));
/// let err = parse_san(&board, "Nd2").unwrap_err();
/// assert_eq!(err, SanError::Ambiguous { text: "Nd2".into() });
/// assert_eq!(err.to_string(), "'Nd2' is ambiguous: more than one legal move fits");
/// # Ok::<(), kiln_board::FenError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SanError {
    /// The text is not a move in SAN.
    Malformed {
        /// The text given.
        text: String,
    },
    /// No legal move of the position is written so.
    Illegal {
        /// The text given.
        text: String,
    },
    /// More than one legal move is written so (a missing disambiguation).
    Ambiguous {
        /// The text given.
        text: String,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Malformed { text } => write!(f, "'{text}' is not a move in SAN"),
            SanError::Illegal { text } => write!(f, "'{text}' is not a legal move here"),
            SanError::Ambiguous { text } => {
                write!(f, "'{text}' is ambiguous: more than one legal move fits")
            }
        }
    }
}

impl core::error::Error for SanError {}

/// The kind a SAN piece letter names (upper case; `P` for a pawn).
fn san_piece(letter: u8) -> Option<PieceKind> {
    Some(match letter {
        b'P' => PieceKind::Pawn,
        b'N' => PieceKind::Knight,
        b'B' => PieceKind::Bishop,
        b'R' => PieceKind::Rook,
        b'Q' => PieceKind::Queen,
        b'K' => PieceKind::King,
        _ => return None,
    })
}

/// The kind a promotion letter names (either case, knight to queen).
fn promotion_piece(letter: u8) -> Option<PieceKind> {
    match san_piece(letter.to_ascii_uppercase()) {
        Some(PieceKind::Pawn | PieceKind::King) | None => None,
        kind => kind,
    }
}

/// The longest body SAN can have once `x`, `-` and `:` are left out: a
/// piece letter, a two-character disambiguation, the destination and
/// `=Q` (`Qa1b2=Q` is not chess, but it is the longest shape read).
const MAX_BODY: usize = 7;

/// Finds the legal move of `board` written `text` in SAN: piece moves
/// (`Nf3`, `Nbd7`, `R1e2`, `Qh4xe1`), pawn moves and captures (`e4`,
/// `exd5`, en passant `exd6`), promotions (`e8=Q`, `e8Q`, `exf8=N`, the
/// piece letter in either case), castling (`O-O`, `O-O-O`, `0-0`,
/// `0-0-0`; in Chess960 too, where the side is the rook's side of the
/// king), with check, mate and annotation suffixes (`+`, `#`, `!`, `?`,
/// `!?`) ignored. Lenient where it costs nothing: `x` may be left out,
/// `-` and `:` are ignored (long algebraic `Ng1-f3`), an explicit pawn
/// letter (`Pe4`) and more disambiguation than needed (`Ngf3`) are read.
/// The null move (`--`) is not a move: it is [`SanError::Malformed`].
///
/// Generates the position's legal moves once; no allocation unless it
/// fails (the error keeps the text).
///
/// # Errors
/// A [`SanError`]: the text is not SAN, no legal move fits, or several
/// do.
///
/// ```
/// use kiln_board::{Board, SanError, parse_san};
///
/// let board = Board::startpos();
/// assert_eq!(parse_san(&board, "Nf3")?.to_uci(false), "g1f3");
/// assert_eq!(parse_san(&board, "e4!?")?.to_uci(false), "e2e4");
/// assert!(matches!(parse_san(&board, "O-O"), Err(SanError::Illegal { .. })));
///
/// // Chess960: king b1, rooks a1 and g1; castling is king-takes-rook inside.
/// let board: Board = "rk4r1/pppppppp/8/8/8/8/PPPPPPPP/RK4R1 w AGag - 0 1".parse()?;
/// assert_eq!(parse_san(&board, "O-O-O")?.to_uci(true), "b1a1");
/// assert_eq!(parse_san(&board, "0-0")?.to_uci(true), "b1g1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_san(board: &Board, text: &str) -> Result<Move, SanError> {
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    let body = text.trim_end_matches(['+', '#', '!', '?']);
    let castle = match body {
        "O-O" | "0-0" => Some(CastleSide::Short),
        "O-O-O" | "0-0-0" => Some(CastleSide::Long),
        _ => None,
    };
    if let Some(side) = castle {
        return moves
            .iter()
            .copied()
            .find(|mv| mv.is_castle() && mv.castle_side() == side)
            .ok_or_else(|| SanError::Illegal {
                text: text.to_string(),
            });
    }
    let malformed = || SanError::Malformed {
        text: text.to_string(),
    };
    if !body.is_ascii() {
        return Err(malformed());
    }
    // `x` is never a file letter, so captures need no marker to resolve.
    let mut buffer = [0u8; MAX_BODY];
    let mut len = 0;
    for byte in body.bytes().filter(|b| !matches!(b, b'x' | b'-' | b':')) {
        let slot = buffer.get_mut(len).ok_or_else(malformed)?;
        *slot = byte;
        len += 1;
    }
    let mut body = &buffer[..len];
    let mut piece = PieceKind::Pawn;
    if let Some((kind, rest)) = body
        .split_first()
        .and_then(|(&first, rest)| Some((san_piece(first)?, rest)))
    {
        piece = kind;
        body = rest;
    }
    // A promotion letter follows the destination's rank (or `=`).
    let mut promotion = None;
    if let [rest @ .., before, last] = body {
        if let Some(kind) = promotion_piece(*last).filter(|_| matches!(before, b'1'..=b'8' | b'='))
        {
            promotion = Some(kind);
            body = if *before == b'=' {
                rest
            } else {
                &body[..body.len() - 1]
            };
        }
    }
    let [hint @ .., to_file, to_rank] = body else {
        return Err(malformed());
    };
    let to = match (
        File::from_char(char::from(*to_file)),
        Rank::from_char(char::from(*to_rank)),
    ) {
        (Some(file), Some(rank)) => Square::new(file, rank),
        _ => return Err(malformed()),
    };
    if hint.len() > 2 {
        return Err(malformed());
    }
    let (mut from_file, mut from_rank) = (None, None);
    for &c in hint {
        if let (Some(file), None) = (File::from_char(char::from(c)), from_file) {
            from_file = Some(file);
        } else if let (Some(rank), None) = (Rank::from_char(char::from(c)), from_rank) {
            from_rank = Some(rank);
        } else {
            return Err(malformed());
        }
    }
    let mut found = moves.iter().copied().filter(|mv| {
        !mv.is_castle()
            && mv.to() == to
            && mv.promotion() == promotion
            && board
                .piece_on(mv.from())
                .is_some_and(|man| man.kind() == piece)
            && from_file.is_none_or(|file| mv.from().file() == file)
            && from_rank.is_none_or(|rank| mv.from().rank() == rank)
    });
    match (found.next(), found.next()) {
        (Some(mv), None) => Ok(mv),
        (None, _) => Err(SanError::Illegal {
            text: text.to_string(),
        }),
        (Some(_), Some(_)) => Err(SanError::Ambiguous {
            text: text.to_string(),
        }),
    }
}

/// What a [`SanMove`] writes before its check suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// `O-O` or `O-O-O`.
    Castle(CastleSide),
    /// A piece or pawn move: the piece letter (none for a pawn), the
    /// origin's file and rank when they are needed, `x` for a capture,
    /// the destination, `=` and the promotion piece.
    Move {
        kind: PieceKind,
        file: bool,
        rank: bool,
    },
    /// The null move: `--`.
    Null,
    /// Not a legal move of the position: its UCI text.
    NotLegal { chess960: bool },
}

/// What follows a [`SanMove`]: nothing, `+` for check, `#` for mate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Suffix {
    None,
    Check,
    Mate,
}

/// A [`Move`] written in SAN for the position it is played in; made by
/// [`Move::san`], which works out everything when it is called, so that
/// formatting it allocates nothing. `Nbd7`, `exd5`, `e8=Q+`, `O-O`,
/// `Qh4#`: the piece letter (none for a pawn), the origin's file, rank or
/// both only when another piece of the kind could go to the same square
/// (file first, then rank, then both, as PGN says; a pawn capture always
/// names its file), `x` for a capture (en passant too, with no `e.p.`),
/// `=` and the piece for a promotion, `O-O` / `O-O-O` for castling
/// (Chess960 too), then `+` for check or `#` for mate.
///
/// ```
/// use kiln_board::{Board, SanMove, parse_uci_move};
///
/// let board: Board = "r3k3/2P5/8/8/8/5N2/8/1N2K2R w K - 0 1".parse()?;
/// let san = |uci| parse_uci_move(&board, uci).map(|mv| mv.san(&board).to_string());
/// assert_eq!(san("b1d2")?, "Nbd2");
/// assert_eq!(san("c7c8q")?, "c8=Q+");
/// assert_eq!(san("e1h1")?, "O-O");
/// let castle: SanMove = parse_uci_move(&board, "e1g1")?.san(&board);
/// assert_eq!(format!("1. {castle}"), "1. O-O");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SanMove {
    mv: Move,
    form: Form,
    suffix: Suffix,
}

impl SanMove {
    /// `mv` in SAN in `board` (see [`Move::san`]).
    pub(crate) fn new(board: &Board, mv: Move) -> SanMove {
        let written = |form| SanMove {
            mv,
            form,
            suffix: Suffix::None,
        };
        if mv.is_null() {
            return written(Form::Null);
        }
        let mut moves = MoveList::new();
        generate_all(board, &mut moves);
        let (Some(moved), true) = (board.piece_on(mv.from()), moves.contains(&mv)) else {
            return written(Form::NotLegal {
                chess960: board.is_chess960(),
            });
        };
        let kind = moved.kind();
        let form = if mv.is_castle() {
            Form::Castle(mv.castle_side())
        } else if kind == PieceKind::Pawn {
            Form::Move {
                kind,
                file: mv.is_capture(),
                rank: false,
            }
        } else {
            // The other pieces of the kind that may go to the same square.
            let (mut rivals, mut same_file, mut same_rank) = (false, false, false);
            for other in moves.iter().filter(|other| {
                !other.is_castle()
                    && other.to() == mv.to()
                    && other.from() != mv.from()
                    && board
                        .piece_on(other.from())
                        .is_some_and(|piece| piece.kind() == kind)
            }) {
                rivals = true;
                same_file |= other.from().file() == mv.from().file();
                same_rank |= other.from().rank() == mv.from().rank();
            }
            Form::Move {
                kind,
                file: rivals && (!same_file || same_rank),
                rank: same_file,
            }
        };
        let mut after = board.without_history();
        after.make_move(mv);
        let suffix = if !after.in_check() {
            Suffix::None
        } else if has_legal_move(&after) {
            Suffix::Check
        } else {
            Suffix::Mate
        };
        SanMove { mv, form, suffix }
    }
}

impl fmt::Display for SanMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mv = self.mv;
        match self.form {
            Form::Null => return f.write_str("--"),
            Form::NotLegal { chess960 } => return write!(f, "{}", mv.uci(chess960)),
            Form::Castle(CastleSide::Short) => f.write_str("O-O")?,
            Form::Castle(CastleSide::Long) => f.write_str("O-O-O")?,
            Form::Move { kind, file, rank } => {
                if kind != PieceKind::Pawn {
                    f.write_char(kind.to_char().to_ascii_uppercase())?;
                }
                if file {
                    f.write_char(mv.from().file().to_char())?;
                }
                if rank {
                    f.write_char(mv.from().rank().to_char())?;
                }
                if mv.is_capture() {
                    f.write_char('x')?;
                }
                write!(f, "{}", mv.to())?;
                if let Some(promotion) = mv.promotion() {
                    write!(f, "={}", promotion.to_char().to_ascii_uppercase())?;
                }
            }
        }
        match self.suffix {
            Suffix::None => Ok(()),
            Suffix::Check => f.write_char('+'),
            Suffix::Mate => f.write_char('#'),
        }
    }
}
