//! Game files as the engine's boards and moves: [`kiln_format::game`] owns
//! the bytes, and this module packs a [`Board`] and its [`Move`]s into a
//! [`Game`] and replays a game into its positions, checking every move
//! against the move generator so that a corrupt or foreign file cannot
//! put an illegal move into training data.

use std::fmt;

use kiln_board::{Board, CastleSide, Color, Move};
use kiln_board::{MoveList, generate_all};
use kiln_format::game::{BadGame, Game, MoveKind, PackedMove, PackedPosition, PositionFields};
use kiln_format::record::{GameResult, Man};

/// A game whose moves do not replay on its start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// The ply (from 1) at fault; 0 for the start position.
    pub ply: usize,
    /// What is wrong.
    pub detail: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ply {
            0 => write!(f, "start position: {}", self.detail),
            ply => write!(f, "ply {ply}: {}", self.detail),
        }
    }
}

impl std::error::Error for ReplayError {}

/// A board's fields in the format's plain numbers.
pub fn fields(board: &Board) -> PositionFields {
    let men = board
        .occupied()
        .into_iter()
        .filter_map(|square| {
            board.piece_on(square).map(|piece| Man {
                square: square.index() as u8,
                black: piece.color() == Color::Black,
                kind: piece.kind() as u8,
            })
        })
        .collect();
    let castling_rooks = [Color::White, Color::Black]
        .into_iter()
        .flat_map(|color| {
            [CastleSide::Short, CastleSide::Long]
                .into_iter()
                .filter_map(move |side| board.castling_rook(color, side))
        })
        .map(|square| square.index() as u8)
        .collect();
    PositionFields {
        men,
        castling_rooks,
        black_to_move: board.side_to_move() == Color::Black,
        en_passant: board.en_passant().map(|square| square.index() as u8),
        halfmove_clock: u32::from(board.halfmove_clock()),
        fullmove_number: board.fullmove_number(),
    }
}

/// A board packed as a game's start (score 0, result to be set when the
/// game ends).
pub fn pack_start(board: &Board, result: GameResult) -> PackedPosition {
    // A board always has two kings, at most 32 men on distinct squares and
    // rooks behind its castling rights: packing cannot fail.
    PackedPosition::pack(&fields(board), 0, result)
        .unwrap_or_else(|error| unreachable!("a board that does not pack: {error}"))
}

/// The board a packed position describes, checked by the board's own FEN
/// parser.
///
/// # Errors
/// A [`BadGame`] when the position is not one the board accepts.
pub fn unpack(position: &PackedPosition) -> Result<Board, BadGame> {
    let fen = position.fen();
    Board::from_fen(&fen).map_err(|error| BadGame(format!("{fen}: {error}")))
}

/// A legal move of the engine as the format packs it.
pub fn pack_move(mv: Move) -> PackedMove {
    let kind = if mv.is_castle() {
        MoveKind::Castling
    } else if mv.is_en_passant() {
        MoveKind::EnPassant
    } else if let Some(piece) = mv.promotion() {
        MoveKind::Promotion(piece as u8)
    } else {
        MoveKind::Normal
    };
    // A legal move never goes nowhere and promotes to knight … queen only.
    PackedMove::new(mv.from().index() as u8, mv.to().index() as u8, kind)
        .unwrap_or_else(|error| unreachable!("a legal move that does not pack: {error}"))
}

/// The legal move of `board` that `packed` stands for, if there is one.
pub fn unpack_move(board: &Board, packed: PackedMove) -> Option<Move> {
    let mut moves = MoveList::new();
    generate_all(board, &mut moves);
    moves.iter().copied().find(|&mv| pack_move(mv) == packed)
}

/// One position of a replayed game.
#[derive(Clone, Debug)]
pub struct Ply {
    /// The position before the move.
    pub board: Board,
    /// The move played there.
    pub mv: Move,
    /// The search score of the position (centipawns, White's view).
    pub white_score: i16,
    /// How many plies of the game came before (0 for the start position).
    pub index: usize,
}

/// Replays a game, handing each position (before its move) to `each`;
/// returns the game's result.
///
/// # Errors
/// A [`ReplayError`] when the start position is not legal, a move is not
/// legal where it is played, or the result byte is bad.
pub fn replay(game: &Game, mut each: impl FnMut(&Ply)) -> Result<GameResult, ReplayError> {
    let result = game.result().ok_or_else(|| ReplayError {
        ply: 0,
        detail: "no result".into(),
    })?;
    let board = unpack(&game.start).map_err(|BadGame(detail)| ReplayError { ply: 0, detail })?;
    let mut ply = Ply {
        board,
        mv: Move::NULL,
        white_score: 0,
        index: 0,
    };
    for (index, &(packed, white_score)) in game.moves.iter().enumerate() {
        let mv = unpack_move(&ply.board, packed).ok_or_else(|| ReplayError {
            ply: index + 1,
            detail: format!(
                "move {:#06x} is not legal in {}",
                packed.0,
                ply.board.to_fen()
            ),
        })?;
        ply.mv = mv;
        ply.white_score = white_score;
        ply.index = index;
        each(&ply);
        ply.board.make_move(mv);
    }
    Ok(result)
}

/// Builds a game move by move.
#[derive(Clone, Debug)]
pub struct GameBuilder {
    game: Game,
}

impl GameBuilder {
    /// A game starting from `board`.
    pub fn new(board: &Board) -> GameBuilder {
        GameBuilder {
            game: Game {
                start: pack_start(board, GameResult::Draw),
                moves: Vec::new(),
            },
        }
    }

    /// Adds a move (legal in the current position) and the score of the
    /// position it is played in (centipawns, White's view; saturated to
    /// the i16 range).
    pub fn push(&mut self, mv: Move, white_score: i32) {
        let score = white_score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
        self.game.moves.push((pack_move(mv), score));
    }

    /// The plies so far.
    pub fn len(&self) -> usize {
        self.game.moves.len()
    }

    /// Whether no move was added yet.
    pub fn is_empty(&self) -> bool {
        self.game.moves.is_empty()
    }

    /// The game with its result.
    pub fn finish(mut self, result: GameResult) -> Game {
        self.game.start.set_result(result);
        self.game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kiln_board::parse_uci_move;

    #[test]
    fn games_replay_to_the_positions_they_were_played_from() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/2P5/8/8/8/k7/8/K7 w - - 0 1",
        ];
        let lines: [&[&str]; 4] = [&["e1g1", "e8c8"], &["e1b1", "e8g8"], &["e5f6"], &["c7c8n"]];
        for (fen, line) in fens.into_iter().zip(lines) {
            let start = Board::from_fen(fen).unwrap();
            let chess960 = start.is_chess960();
            let mut board = start.clone();
            let mut builder = GameBuilder::new(&start);
            let mut expected = Vec::new();
            for (i, text) in line.iter().enumerate() {
                let mv = parse_uci_move(&board, text).unwrap();
                expected.push((board.to_fen(), mv.to_uci(chess960)));
                builder.push(mv, 10 * i as i32 - 40_000);
                board.make_move(mv);
            }
            let game = builder.finish(GameResult::Loss);
            let mut seen = Vec::new();
            let result = replay(&game, |ply| {
                seen.push((ply.board.to_fen(), ply.mv.to_uci(chess960)));
            })
            .unwrap();
            assert_eq!(result, GameResult::Loss);
            assert_eq!(seen, expected, "{fen}");
            assert_eq!(game.moves[0].1, i16::MIN);
        }
    }

    #[test]
    fn a_move_that_is_not_legal_is_an_error_naming_its_ply() {
        let board = Board::startpos();
        let mut game = GameBuilder::new(&board).finish(GameResult::Draw);
        game.moves
            .push((PackedMove::new(12, 28, MoveKind::Normal).unwrap(), 0));
        game.moves
            .push((PackedMove::new(12, 28, MoveKind::Normal).unwrap(), 0));
        let error = replay(&game, |_| {}).unwrap_err();
        assert_eq!(error.ply, 2, "{error}");
    }
}
