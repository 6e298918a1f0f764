//! A search thread's accumulators, one per position of the board's
//! history, brought up to date lazily from the board itself, half by half.
//!
//! The board knows nothing of the network: it only keeps its history
//! (each move with the pieces it took off and put on, and the key before
//! it). Entry `i` of the stack holds the accumulator of the position after
//! `i` moves of that history, tagged with the key of the position it was
//! computed for and, half by half, the [`View`] each half was computed
//! under (the side's input bucket and mirroring). To evaluate, the stack looks,
//! for each side, for the nearest ancestor whose half carries that
//! ancestor's key and the side's view of the current position, and
//! replays forward what each later move changed
//! ([`HistoryEntry::changes`](kiln_board::HistoryEntry::changes)) under
//! that view; with no such ancestor within [`MAX_REPLAY`] moves (the root
//! of a search, a new position, a king that crossed into another bucket)
//! it rebuilds that half, from the last half built for the same view
//! ([`RefreshCache`]).
//!
//! Features add up, so replaying under the current view is right for the
//! current position even when the king left the view and came back on the
//! way; the halves written on the way are tagged with the view they were
//! computed under, so a later evaluation of those positions uses them only
//! if it sees them the same way. Make and unmake cost nothing extra, so
//! perft and the classical evaluation are untouched, and a position the
//! search never evaluates is never updated.

use super::accumulator::{Accumulator, view};
use super::features::View;
use super::network::KING_BUCKETS;
use super::refresh::RefreshCache;
use kiln_board::{Board, Color};
use kiln_format::net::KingBuckets;

/// The most moves replayed from an ancestor: a full refresh adds about
/// 30 columns per half, a move changes two to four, so beyond this a
/// refresh is as cheap.
pub const MAX_REPLAY: usize = 8;

#[derive(Clone, Debug)]
struct Entry {
    /// The key of the position the halves were computed for.
    key: u64,
    /// Per side: the view its half was computed under, `None` while it
    /// holds nothing for the position of `key`.
    views: [Option<View>; 2],
    acc: Accumulator,
}

impl Entry {
    /// Whether the half of `view`'s side holds the position of `key` as
    /// `view` sees it.
    #[inline(always)]
    fn holds(&self, key: u64, view: View) -> bool {
        self.key == key && self.views[view.color().index()] == Some(view)
    }

    /// Records that the half of `view`'s side now holds the position of
    /// `key` under `view`; a half that held another position is dropped.
    #[inline(always)]
    fn tag(&mut self, key: u64, view: View) {
        if self.key != key {
            self.key = key;
            self.views = [None; 2];
        }
        self.views[view.color().index()] = Some(view);
    }
}

/// One search thread's accumulator stack.
#[derive(Clone, Debug)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    /// The king map the halves are computed under: the network's.
    kings: KingBuckets,
    /// Whether `kings` has buckets or mirroring, so that a side's view
    /// depends on where its king stands.
    kings_matter: bool,
    /// The last half built for each view, which refreshes start from.
    cache: RefreshCache,
}

impl Default for AccumulatorStack {
    fn default() -> AccumulatorStack {
        AccumulatorStack::new()
    }
}

/// The key of the position after `ply` moves of `board`'s history.
#[inline(always)]
fn key_at(board: &Board, ply: usize) -> u64 {
    match board.history().get(ply) {
        Some(entry) => entry.key_before().0,
        None => board.key().0,
    }
}

impl AccumulatorStack {
    /// An empty stack: the first evaluation refreshes.
    pub fn new() -> AccumulatorStack {
        AccumulatorStack::under(KING_BUCKETS)
    }

    /// An empty stack whose halves follow the king map `kings` instead of
    /// the network's: the tests' way to move kings across views with
    /// whatever network is built in. Every feature `kings` can name must
    /// exist in the built-in network.
    fn under(kings: KingBuckets) -> AccumulatorStack {
        AccumulatorStack {
            entries: Vec::new(),
            kings,
            kings_matter: !kings.is_none(),
            cache: RefreshCache::new(&kings),
        }
    }

    /// The accumulator of `board`'s current position.
    pub fn update(&mut self, board: &Board) -> &Accumulator {
        let len = board.history().len();
        if self.entries.len() <= len {
            let blank = Entry {
                key: 0,
                views: [None; 2],
                acc: Accumulator::EMPTY,
            };
            self.entries.resize(len + 1 + 64, blank);
        }
        let oldest = len.saturating_sub(MAX_REPLAY);
        let views = Color::ALL.map(|color| self.view(board, color));
        // Usually both sides can go on from the same ancestor (no king
        // changed its view): one search and one pass over each half.
        let both = (oldest..=len).rev().find(|&ply| {
            let entry = &self.entries[ply];
            entry.key == key_at(board, ply) && entry.views == views.map(Some)
        });
        match both {
            Some(ply) if ply == len => {}
            Some(ply) => self.replay(board, ply, &views),
            None => {
                for view in views {
                    self.update_half(board, view, oldest);
                }
            }
        }
        let acc = &self.entries[len].acc;
        debug_assert!(
            *acc == Accumulator::refresh_under(board, &self.kings),
            "incremental accumulator differs from a refresh in {}",
            board.to_fen()
        );
        acc
    }

    /// How `color` sees `board`: under a map without buckets or mirroring
    /// every position looks the same to a side, and its king need not be
    /// looked at.
    #[inline(always)]
    fn view(&self, board: &Board, color: Color) -> View {
        if self.kings_matter {
            view(board, color, &self.kings)
        } else {
            View::new(color, kiln_board::Square::A1, &KingBuckets::NONE)
        }
    }

    /// Brings the half of `view`'s side of entry `len` (the board's
    /// current position) up to date on its own, from the nearest
    /// ancestor since `oldest` that `view` can go on from, or from
    /// scratch.
    fn update_half(&mut self, board: &Board, view: View, oldest: usize) {
        let len = board.history().len();
        let ancestor = (oldest..=len)
            .rev()
            .find(|&ply| self.entries[ply].holds(key_at(board, ply), view));
        match ancestor {
            Some(ply) if ply == len => {}
            Some(ply) => self.replay(board, ply, &[view]),
            None => {
                let entry = &mut self.entries[len];
                let half = &mut entry.acc.values.0[view.color().index()];
                self.cache.refresh(board, view, half);
                entry.tag(board.key().0, view);
            }
        }
    }

    /// Brings the halves of the sides of `views` (one side or both) of
    /// entries `from + 1 ..= len` up to date from entry `from`, by what
    /// each move of the board's history changed, each side seen through
    /// its view.
    fn replay(&mut self, board: &Board, from: usize, views: &[View]) {
        let history = board.history();
        for ply in from..history.len() {
            // The child is written straight from its parent, no copy
            // between (the entries are neighbours in one vector).
            let (done, rest) = self.entries.split_at_mut(ply + 1);
            let next = &mut rest[0];
            let changes = history[ply].changes();
            let key = key_at(board, ply + 1);
            for &view in views {
                next.acc.apply_half_from(&done[ply].acc, view, &changes);
                next.tag(key, view);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::simd::{output_sum, output_sum_scalar};
    use crate::rng::Rng;
    use kiln_board::{MoveList, generate_all};

    /// Castling both ways (standard and Chess960), en passant and
    /// promotions with and without capture all turn up in these games.
    const STARTS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ];

    /// Checks the stack against a refresh, and the AVX2 output layer
    /// against the scalar one, on `board`.
    fn check(stack: &mut AccumulatorStack, board: &Board) {
        let fresh = Accumulator::refresh_under(board, &stack.kings);
        assert_eq!(*stack.update(board), fresh, "{}", board.to_fen());
        let bucket = crate::eval::nnue::bucket(board);
        for us in kiln_board::Color::ALL {
            let (a, b) = (fresh.half(us), fresh.half(!us));
            assert_eq!(
                output_sum(a, b, bucket),
                output_sum_scalar(a, b, bucket),
                "{}",
                board.to_fen()
            );
        }
    }

    #[test]
    fn incremental_accumulators_match_a_refresh_after_every_make_and_unmake() {
        play_and_check(AccumulatorStack::new());
    }

    /// The same games with each side seeing the files mirrored whenever
    /// its king is on files e to h: kings cross between views over a
    /// hundred times, and the stack must refresh exactly the halves whose view
    /// changed.
    #[test]
    fn halves_follow_their_sides_view_when_kings_cross_the_centre() {
        let mirrored = KingBuckets::mirrored_halves(&[0; 32]).expect("a king map");
        let crossings = play_and_check(AccumulatorStack::under(mirrored));
        assert!(crossings > 100, "only {crossings} view changes");
    }

    /// Plays random games from [`STARTS`], making and unmaking moves and
    /// null moves, checking `stack` at most positions; returns how often a
    /// move changed a side's view.
    fn play_and_check(mut stack: AccumulatorStack) -> usize {
        let mut rng = Rng::new(0x4e4e_5545);
        let mut moves = MoveList::new();
        let mut crossings = 0;
        let views = |board: &Board, kings: &KingBuckets| {
            kiln_board::Color::ALL.map(|color| view(board, color, kings))
        };
        for fen in STARTS {
            for _ in 0..12 {
                let mut board = Board::from_fen(fen).expect("test FEN");
                let mut made = Vec::new();
                for _ in 0..160 {
                    moves.clear();
                    generate_all(&board, &mut moves);
                    let back = !made.is_empty() && (moves.is_empty() || rng.below(4) == 0);
                    if back {
                        match made.pop() {
                            Some(true) => board.unmake_null(),
                            _ => board.unmake_move(),
                        }
                    } else if moves.is_empty() {
                        break;
                    } else if !board.in_check() && rng.below(12) == 0 {
                        board.make_null();
                        made.push(true);
                    } else {
                        let before = views(&board, &stack.kings);
                        board.make_move(moves[rng.index(moves.len())]);
                        made.push(false);
                        crossings += usize::from(views(&board, &stack.kings) != before);
                    }
                    // Skipping some positions makes the stack replay
                    // several moves, as when the search skips evaluations.
                    if rng.below(3) != 0 {
                        check(&mut stack, &board);
                    }
                }
            }
        }
        crossings
    }

    #[test]
    fn a_new_position_at_the_same_ply_is_refreshed() {
        let mut stack = AccumulatorStack::new();
        for fen in STARTS {
            let board = Board::from_fen(fen).expect("test FEN");
            check(&mut stack, &board);
        }
    }
}
