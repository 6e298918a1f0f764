//! Board representation: the types vocabulary, position state, FEN, make/unmake,
//! Zobrist keys and draw rules.
