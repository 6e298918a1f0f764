#!/usr/bin/env python3
"""Conversion test: does Kiln win tablebase-won endgames against Stockfish?

Picks seeded random 3- and 4-man positions (KBNvK, KRvKP, KQvKR, KPvKP, ...)
that are won for the side to move within the fifty-move rule and where most
legal moves throw that win away: either by the position itself or because
the half-move clock is set so that only the fastest wins still count. Kiln
plays the winning side against Stockfish, which has the same tables; a game
is converted when Kiln wins it. Draws follow python-chess's claim rules
(threefold repetition, fifty moves), as match.py's do.

Usage: convert.py --kiln KILN --tables DIR [--no-tables] [--positions 200]
                  [--movetime 0.02] [--stockfish /usr/games/stockfish]
"""

import argparse
import random
import sys

import chess
import chess.engine
import chess.syzygy

import expected  # tests/syzygy/expected.py: positions and the win test

MATERIALS = ["KBNvK", "KRvKP", "KQvKR", "KPvKP", "KPvK", "KQvKP", "KRvKN", "KRvKB", "KBBvK"]


def random_position(rng, material):
    """A random legal position of `material` or its mirror, not over."""
    if rng.random() < 0.5:
        white, black = material.split("v")
        material = f"{black}v{white}"
    board = expected.random_position(rng, material, en_passant=False)
    return board if board is not None and not board.is_game_over() else None


def pick(rng, tb, count):
    """`count` won positions where fewer than half the moves keep the win."""
    picked = []
    while len(picked) < count:
        material = MATERIALS[len(picked) % len(MATERIALS)]
        board = random_position(rng, material)
        if board is None or tb.probe_wdl(board) != 2:
            continue
        dtz = tb.probe_dtz(board)
        if not 0 < dtz <= 98:
            continue
        moves = list(board.legal_moves)
        for clock in (0, rng.randrange(max(0, 88 - dtz), 99 - dtz)):
            board.halfmove_clock = clock
            keeping = sum(expected.keeps_win(tb, board, m) for m in moves)
            if 0 < keeping and 2 * keeping < len(moves):
                picked.append(board.fen())
                break
    return picked


def play(kiln, stockfish, fen, limit, max_plies):
    """Kiln (side to move) against Stockfish from `fen`: Kiln's result."""
    board = chess.Board(fen)
    kiln_color = board.turn
    game = object()  # a new game for both engines (`ucinewgame`)
    for _ in range(max_plies):
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            break
        engine = kiln if board.turn == kiln_color else stockfish
        result = engine.play(board, limit, game=game)
        if result.move is None or result.move not in board.legal_moves:
            return "illegal", board
        board.push(result.move)
    outcome = board.outcome(claim_draw=True)
    if outcome is None:
        return "unfinished", board
    if outcome.winner == kiln_color:
        return "win", board
    return ("loss" if outcome.winner is not None else "draw"), board


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kiln", required=True)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    parser.add_argument("--tables", required=True)
    parser.add_argument("--no-tables", action="store_true", help="Kiln plays without tables")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--movetime", type=float, default=0.02, help="seconds a move, both sides")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=20261125)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    with chess.syzygy.open_tablebase(args.tables) as tb:
        fens = pick(rng, tb, args.positions)
    kiln = chess.engine.SimpleEngine.popen_uci(args.kiln)
    stockfish = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    try:
        stockfish.configure({"SyzygyPath": args.tables, "Threads": 1, "Hash": 16})
        if not args.no_tables:
            kiln.configure({"SyzygyPath": args.tables})
        limit = chess.engine.Limit(time=args.movetime)
        results = {}
        for i, fen in enumerate(fens, 1):
            result, board = play(kiln, stockfish, fen, limit, args.max_plies)
            results[result] = results.get(result, 0) + 1
            if result != "win":
                print(f"not converted ({result}): {fen} -> {board.fen()}", flush=True)
            if i % 25 == 0:
                print(f"{i}/{len(fens)}: {results}", flush=True)
    finally:
        kiln.quit()
        stockfish.quit()
    wins = results.get("win", 0)
    label = "without tables" if args.no_tables else "with tables"
    print(f"Kiln {label}: converted {wins}/{len(fens)} ({100 * wins / len(fens):.1f}%) {results}")
    sys.exit(0 if args.no_tables or wins == len(fens) else 1)


if __name__ == "__main__":
    main()
