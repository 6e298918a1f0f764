#!/usr/bin/env python3
"""Expected Syzygy values for Kiln's tablebase tests, from python-chess.

Writes two files (seeded, so the same every run):

  probes.txt  one random legal 3- or 4-man position a line: `FEN|WDL|DTZ`,
              python-chess's probe_wdl and probe_dtz (side to move's view);
  roots.txt   positions won for the side to move within the fifty-move rule
              (some with a half-move clock above 0): `FEN|MOVES`, the legal
              moves (UCI) that keep that win: the opponent's position after
              the move is a tablebase loss whose DTZ, counted on from the
              root's clock, stays within 100 plies (for a capture or pawn
              move, a plain loss).

Usage: expected.py TABLES_DIR OUT_DIR [--probes N] [--roots N] [--seed S]
"""

import argparse
import os
import random
import sys

import chess
import chess.syzygy


def tables(directory):
    """Material of every WDL table with a DTZ table beside it (`KRvKP`)."""
    names = []
    for name in sorted(os.listdir(directory)):
        stem, ext = os.path.splitext(name)
        if ext == ".rtbw" and os.path.exists(os.path.join(directory, stem + ".rtbz")):
            names.append(stem)
    return names


def random_position(rng, material, en_passant=True):
    """A random legal position with `material` (e.g. "KRvKP"), or None;
    with `en_passant`, now and then one just after a double pawn push."""
    white, black = material.split("v")
    board = chess.Board(None)
    board.turn = rng.choice([chess.WHITE, chess.BLACK])
    squares = rng.sample(chess.SQUARES, len(white) + len(black))
    for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in pieces:
            square = squares.pop()
            piece = chess.Piece.from_symbol(letter if color == chess.WHITE else letter.lower())
            if piece.piece_type == chess.PAWN and chess.square_rank(square) in (0, 7):
                return None
            board.set_piece_at(square, piece)
    if not board.is_valid():
        return None
    if en_passant and rng.random() < 0.25:
        pushes = [m for m in board.legal_moves
                  if board.piece_type_at(m.from_square) == chess.PAWN
                  and abs(m.to_square - m.from_square) == 16]
        if pushes:
            board.push(rng.choice(pushes))
            board = chess.Board(board.fen())
    return board if board.is_valid() else None


def positions(rng, names, count):
    out = []
    while len(out) < count:
        board = random_position(rng, rng.choice(names))
        if board is not None:
            out.append(board)
    return out


def keeps_win(tb, board, move):
    """Whether `move` keeps a win within the fifty-move rule: the opponent
    is mated, or lost after a capture or pawn move, or lost with its DTZ
    counted on from the clock within 100 plies."""
    zeroing = board.is_zeroing(move)
    board.push(move)
    try:
        if board.is_checkmate():
            return True
        if zeroing:
            return tb.probe_wdl(board) == -2
        dtz = tb.probe_dtz(board)
        return dtz < 0 and -dtz + board.halfmove_clock <= 100
    finally:
        board.pop()


def winning_moves(tb, board):
    """Legal moves keeping a win within the fifty-move rule (root's clock)."""
    return [move.uci() for move in board.legal_moves if keeps_win(tb, board, move)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tables")
    parser.add_argument("out")
    parser.add_argument("--probes", type=int, default=10_000)
    parser.add_argument("--roots", type=int, default=600)
    parser.add_argument("--seed", type=int, default=20261125)
    args = parser.parse_args()
    names = [n for n in tables(args.tables) if len(n) - 1 <= 4]
    if not names:
        sys.exit(f"no 3- or 4-man tables in {args.tables}")
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    with chess.syzygy.open_tablebase(args.tables) as tb:
        with open(os.path.join(args.out, "probes.txt"), "w") as f:
            for board in positions(rng, names, args.probes):
                f.write(f"{board.fen()}|{tb.probe_wdl(board)}|{tb.probe_dtz(board)}\n")
        roots = 0
        with open(os.path.join(args.out, "roots.txt"), "w") as f:
            while roots < args.roots:
                board = random_position(rng, rng.choice(names))
                if board is None or board.is_game_over():
                    continue
                dtz = tb.probe_dtz(board)
                if tb.probe_wdl(board) != 2 or not 0 < dtz <= 100:
                    continue
                # Half the sample starts with a clock: the win must still
                # fit (with two plies to spare for DTZ's rounding).
                if rng.random() < 0.5 and dtz < 98:
                    board.halfmove_clock = rng.randrange(0, 99 - dtz)
                moves = winning_moves(tb, board)
                if not moves:
                    sys.exit(f"no winning move found in {board.fen()}")
                f.write(f"{board.fen()}|{' '.join(moves)}\n")
                roots += 1
    print(f"wrote {args.probes} probes and {roots} won roots to {args.out}")


if __name__ == "__main__":
    main()
