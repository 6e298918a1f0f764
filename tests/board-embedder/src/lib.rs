//! A stand-in for another project embedding `kiln-board`: a `#![no_std]`
//! crate (with `alloc`, which the board's history needs) that depends on
//! that crate alone, sets up a position from FEN, lists its moves, plays
//! one and counts perft.
//!
//! CI proves that nothing in its dependency graph needs `std`: it builds the
//! crate for a bare-metal target (`thumbv7em-none-eabihf`) when that target
//! is installed, and otherwise as a static library for the host with the
//! `standalone` feature, whose panic handler clashes with `std`'s if any
//! dependency links `std`.

#![no_std]

extern crate alloc;

use alloc::string::String;
use kiln_board::{Board, FenError, MoveList, generate_all, perft};

/// What a firmware image must provide without `std`: a panic handler and a
/// global allocator (a test build links `std`, which has both).
#[cfg(all(feature = "standalone", not(test)))]
mod standalone {
    use core::alloc::{GlobalAlloc, Layout};
    use core::cell::UnsafeCell;
    use core::sync::atomic::{AtomicUsize, Ordering};

    #[panic_handler]
    fn panic(_: &core::panic::PanicInfo) -> ! {
        loop {
            core::hint::spin_loop();
        }
    }

    /// A bump allocator over a fixed arena that never frees: enough for a
    /// board's history in a demonstration.
    #[repr(align(64))]
    struct Arena {
        bytes: UnsafeCell<[u8; ARENA_BYTES]>,
        used: AtomicUsize,
    }

    const ARENA_BYTES: usize = 1 << 16;

    // SAFETY: the arena's bytes are only reached through `alloc`, which
    // hands each caller a range no other caller gets (claimed with a
    // compare-and-swap on `used`).
    unsafe impl Sync for Arena {}

    // SAFETY: `alloc` returns disjoint ranges of the arena, aligned as
    // `layout` asks (the arena itself is 64-byte aligned, and larger
    // alignments are honoured by rounding the start), or null when it is
    // full; `dealloc` frees nothing, which is allowed.
    unsafe impl GlobalAlloc for Arena {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let base = self.bytes.get() as usize;
            let mut used = self.used.load(Ordering::Relaxed);
            loop {
                let start = (base + used).next_multiple_of(layout.align()) - base;
                let end = start + layout.size();
                if end > ARENA_BYTES {
                    return core::ptr::null_mut();
                }
                match self
                    .used
                    .compare_exchange(used, end, Ordering::Relaxed, Ordering::Relaxed)
                {
                    Ok(_) => return self.bytes.get().cast::<u8>().wrapping_add(start),
                    Err(now) => used = now,
                }
            }
        }

        unsafe fn dealloc(&self, _: *mut u8, _: Layout) {}
    }

    #[global_allocator]
    static ALLOCATOR: Arena = Arena {
        bytes: UnsafeCell::new([0; ARENA_BYTES]),
        used: AtomicUsize::new(0),
    };
}

/// Sets up `fen`, plays its first legal move in generation order, and
/// returns the move's UCI text, the FEN after it and perft 3 from there.
pub fn first_move_and_perft(fen: &str) -> Result<(String, String, u64), FenError> {
    let mut board: Board = fen.parse()?;
    let mut moves = MoveList::new();
    generate_all(&board, &mut moves);
    let Some(&first) = moves.first() else {
        return Ok((String::from("0000"), board.to_fen(), 0));
    };
    board.make_move(first);
    let nodes = perft(&mut board, 3);
    Ok((first.to_uci(board.is_chess960()), board.to_fen(), nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_a_move_and_counts_the_tree_below_it() {
        let (mv, fen, nodes) =
            first_move_and_perft(kiln_board::STARTPOS).expect("the start position parses");
        let mut board: Board = fen.parse().expect("the FEN it wrote parses");
        assert_eq!(perft(&mut board, 3), nodes);
        assert_eq!(mv.len(), 4);
        assert!(first_move_and_perft("not a fen").is_err());
    }
}
