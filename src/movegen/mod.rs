//! Legal move generation, move encoding and perft.
