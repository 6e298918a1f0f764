//! Search: iterative deepening, alpha-beta, quiescence, transposition table,
//! move ordering and time management.
