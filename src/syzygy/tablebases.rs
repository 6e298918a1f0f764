//! The loaded tables: one prober per process, WDL and DTZ probes of a
//! [`Board`].
//!
//! `pyrrhic_rs` keeps its tables in process-wide state: while one
//! `TableBases` handle lives, a second start fails, and the tables are
//! freed when the last handle is dropped. [`Tablebases`] owns exactly one
//! handle and is shared by `Arc` (never by cloning the handle, so the
//! prober's own count stays one, which its root probe requires); changing
//! the path means dropping every `Arc` first, then [`Tablebases::load`].

use pyrrhic_rs::{DtzProbeValue, Piece as PyrrhicPiece, TableBases, WdlProbeResult};

use super::adapter::KilnAttacks;
use super::files::{TableFiles, scan};
use kiln_board::{Board, CastlingRights, Color, PieceKind, Square};

/// A position's value by the WDL tables, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Wdl {
    /// Lost.
    Loss,
    /// Lost, but the fifty-move rule saves it (a draw under that rule).
    BlessedLoss,
    /// Drawn.
    Draw,
    /// Won, but the fifty-move rule saves the other side.
    CursedWin,
    /// Won.
    Win,
}

impl Wdl {
    /// -2 (loss) to 2 (win), the tables' own scale.
    pub fn value(self) -> i32 {
        self as i32 - 2
    }

    fn from_prober(result: WdlProbeResult) -> Self {
        match result {
            WdlProbeResult::Loss => Self::Loss,
            WdlProbeResult::BlessedLoss => Self::BlessedLoss,
            WdlProbeResult::Draw => Self::Draw,
            WdlProbeResult::CursedWin => Self::CursedWin,
            WdlProbeResult::Win => Self::Win,
        }
    }
}

/// One legal move of a DTZ root probe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveDtz {
    /// Origin square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
    /// Promotion piece, if any.
    pub promotion: Option<PieceKind>,
    /// Distance to zeroing of the move, counted from the root in plies:
    /// positive when it wins for the mover, negative when it loses, 0 for
    /// a draw; a zeroing move counts 1 (or 101 for a win the fifty-move
    /// rule spoils); beyond 100 the fifty-move rule spoils the result.
    pub dtz: i32,
}

/// Syzygy tables loaded from a `SyzygyPath`.
pub struct Tablebases {
    prober: TableBases<KilnAttacks>,
    files: TableFiles,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases")
            .field("files", &self.files)
            .finish()
    }
}

/// What [`Tablebases::load`] found: the tables (none when nothing usable
/// was found) and messages for the user, one per line.
#[derive(Debug)]
pub struct Loaded {
    /// The tables, when any could be loaded.
    pub tables: Option<Tablebases>,
    /// What was found and what was left out, for `info string`.
    pub messages: Vec<String>,
}

impl Tablebases {
    /// Loads the tables of `path` (directories separated as
    /// [`SEPARATOR`](super::SEPARATOR) says; `<empty>` or an empty string
    /// loads none). Must not be called while another [`Tablebases`] lives:
    /// the prober exists once per process (this is reported as a message).
    pub fn load(path: &str) -> Loaded {
        let (files, problems) = scan(path);
        let mut messages: Vec<String> = problems.iter().map(ToString::to_string).collect();
        if files.dirs.is_empty() {
            if !super::files::split_path(path).is_empty() {
                messages.push("no Syzygy tables loaded".to_string());
            }
            return Loaded {
                tables: None,
                messages,
            };
        }
        // `scan` keeps only directories whose names have no ':'.
        let joined = files
            .dirs
            .iter()
            .filter_map(|dir| dir.to_str())
            .collect::<Vec<_>>()
            .join(":");
        match TableBases::<KilnAttacks>::new(joined) {
            Ok(prober) => {
                messages.push(format!(
                    "found {} WDL and {} DTZ Syzygy tables, up to {} pieces",
                    files.wdl, files.dtz, files.max_pieces
                ));
                Loaded {
                    tables: Some(Self { prober, files }),
                    messages,
                }
            }
            Err(e) => {
                messages.push(format!("Syzygy tables could not be loaded ({e:?})"));
                Loaded {
                    tables: None,
                    messages,
                }
            }
        }
    }

    /// Pieces (kings included) of the largest table loaded.
    pub fn max_pieces(&self) -> u32 {
        self.files.max_pieces
    }

    /// Whether the position can be looked up at all: no more pieces than
    /// the largest table and no castling rights (the tables have none).
    pub fn covers(&self, board: &Board) -> bool {
        board.occupied().count() <= self.max_pieces()
            && board.castling_rights() == CastlingRights::NONE
    }

    /// The WDL value of `board` for the side to move, as if the half-move
    /// clock were zero; `None` when the position is not in the tables (too
    /// many pieces, castling rights, a table missing or unreadable).
    pub fn probe_wdl(&self, board: &Board) -> Option<Wdl> {
        if !self.covers(board) {
            return None;
        }
        let [w, b, k, q, r, bi, n, p] = bitboards(board);
        self.prober
            .probe_wdl(w, b, k, q, r, bi, n, p, ep(board), white(board))
            .ok()
            .map(Wdl::from_prober)
    }

    /// The DTZ value of `board` for the side to move (as Syzygy's own
    /// `probe_dtz`: plies to a zeroing move, positive when winning,
    /// negative when losing, 0 for a draw, beyond ±100 when the fifty-move
    /// rule spoils the result), and each legal move's value from the root
    /// ([`MoveDtz`]). A checkmated side scores -1, a stalemate 0 (no
    /// moves). `None` when the position or a table is missing.
    ///
    /// Call it only while no other thread probes (before a search starts
    /// its helpers): the prober's root probe is not thread-safe.
    pub fn probe_dtz(&self, board: &Board) -> Option<(i32, Vec<MoveDtz>)> {
        if !self.covers(board) {
            return None;
        }
        let [w, b, k, q, r, bi, n, p] = bitboards(board);
        let probe = self
            .prober
            .probe_root(w, b, k, q, r, bi, n, p, 0, ep(board), white(board))
            .ok()?;
        let root = match probe.root {
            DtzProbeValue::Checkmate => return Some((-1, Vec::new())),
            DtzProbeValue::Stalemate => return Some((0, Vec::new())),
            DtzProbeValue::Failed => return None,
            DtzProbeValue::DtzResult(result) => signed_dtz(result.wdl, result.dtz),
        };
        let mut moves = Vec::with_capacity(probe.num_moves);
        for value in &probe.moves[..probe.num_moves] {
            let DtzProbeValue::DtzResult(result) = *value else {
                return None;
            };
            moves.push(MoveDtz {
                from: Square::from_index(result.from_square)?,
                to: Square::from_index(result.to_square)?,
                promotion: match result.promotion {
                    PyrrhicPiece::Queen => Some(PieceKind::Queen),
                    PyrrhicPiece::Rook => Some(PieceKind::Rook),
                    PyrrhicPiece::Bishop => Some(PieceKind::Bishop),
                    PyrrhicPiece::Knight => Some(PieceKind::Knight),
                    _ => None,
                },
                dtz: signed_dtz(result.wdl, result.dtz),
            });
        }
        Some((root, moves))
    }
}

/// The prober reports a DTZ as its magnitude and a WDL value (taken with a
/// half-move clock of zero here, so a win is a win or a cursed win and
/// the sign is all it adds).
fn signed_dtz(wdl: WdlProbeResult, magnitude: u16) -> i32 {
    let magnitude = i32::from(magnitude);
    match Wdl::from_prober(wdl).value() {
        v if v > 0 => magnitude,
        v if v < 0 => -magnitude,
        _ => 0,
    }
}

/// White, black, kings, queens, rooks, bishops, knights, pawns.
fn bitboards(board: &Board) -> [u64; 8] {
    [
        board.color_bb(Color::White).0,
        board.color_bb(Color::Black).0,
        board.kind_bb(PieceKind::King).0,
        board.kind_bb(PieceKind::Queen).0,
        board.kind_bb(PieceKind::Rook).0,
        board.kind_bb(PieceKind::Bishop).0,
        board.kind_bb(PieceKind::Knight).0,
        board.kind_bb(PieceKind::Pawn).0,
    ]
}

/// The en-passant square as the prober wants it (0, a1, for none: a1 is
/// never an en-passant square).
fn ep(board: &Board) -> u32 {
    board.en_passant().map_or(0, |sq| sq.index() as u32)
}

fn white(board: &Board) -> bool {
    board.side_to_move() == Color::White
}
