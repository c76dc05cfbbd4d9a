#!/usr/bin/env python3
"""Reference WDL and DTZ values from python-chess's own Syzygy prober.

Writes random legal 3- and 4-piece positions (every table, both colours,
both sides to move, no castling, en passant only when a pawn can take) with
python-chess's `probe_wdl` and `probe_dtz`, one `FEN;wdl;dtz` line each.
tests/syzygy.rs probes the same positions with Crown and wants identical
answers.

Usage: python3 scripts/syzygy-reference.py TABLE_DIR COUNT SEED > tests/data/syzygy-reference.txt
(needs `pip install chess`; the fixture was made with python-chess 1.11.2,
TABLE_DIR tests/data/syzygy, COUNT 2000, SEED 2024).
"""
import os
import random
import sys

import chess
import chess.syzygy

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
          "N": chess.KNIGHT, "P": chess.PAWN}


def random_position(rng, white, black):
    board = chess.Board(None)
    board.clear_stack()
    for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
        for letter in pieces:
            kind = PIECES[letter]
            while True:
                sq = rng.randrange(64)
                if board.piece_at(sq) is not None:
                    continue
                if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
                    continue
                board.set_piece_at(sq, chess.Piece(kind, color))
                break
    board.turn = rng.choice((chess.WHITE, chess.BLACK))
    # Now and then a double pawn push just happened: set the en-passant
    # square when a capture is possible (python-chess keeps it only then).
    if rng.random() < 0.3:
        them = not board.turn
        for sq in board.pieces(chess.PAWN, them):
            rank = chess.square_rank(sq)
            if rank == (3 if them == chess.WHITE else 4):
                behind = sq - 8 if them == chess.WHITE else sq + 8
                start = sq - 16 if them == chess.WHITE else sq + 16
                if board.piece_at(behind) is None and board.piece_at(start) is None:
                    board.ep_square = behind
                    if not board.has_legal_en_passant():
                        board.ep_square = None
                    break
    return board


def en_passant_position(rng):
    board = chess.Board(None)
    turn = rng.choice((chess.WHITE, chess.BLACK))
    them = not turn
    file = rng.randrange(8)
    rank = 3 if them == chess.WHITE else 4
    pushed = chess.square(file, rank)
    side = file + rng.choice((-1, 1))
    if not 0 <= side < 8:
        return None
    board.set_piece_at(pushed, chess.Piece(chess.PAWN, them))
    board.set_piece_at(chess.square(side, rank), chess.Piece(chess.PAWN, turn))
    for color in (chess.WHITE, chess.BLACK):
        while True:
            sq = rng.randrange(64)
            if board.piece_at(sq) is None:
                board.set_piece_at(sq, chess.Piece(chess.KING, color))
                break
    board.turn = turn
    behind = pushed - 8 if them == chess.WHITE else pushed + 8
    start = pushed - 16 if them == chess.WHITE else pushed + 16
    if board.piece_at(behind) is not None or board.piece_at(start) is not None:
        return None
    board.ep_square = behind
    if not board.has_legal_en_passant():
        return None
    return board


def main():
    directory, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    names = sorted({f.rsplit(".", 1)[0] for f in os.listdir(directory) if f.endswith(".rtbw")})
    names.append("KvK")
    out = []
    with chess.syzygy.open_tablebase(directory) as tb:
        while len(out) < count:
            name = names[len(out) % len(names)]
            strong, weak = name.split("v")
            white, black = (strong, weak) if rng.random() < 0.5 else (weak, strong)
            board = random_position(rng, white, black)
            if not board.is_valid():
                continue
            wdl = tb.probe_wdl(board)
            dtz = tb.probe_dtz(board)
            out.append(f"{board.fen()};{wdl};{dtz}")
        # En-passant positions (KPvKP where a pawn can take the one that
        # just advanced two squares).
        extra = 0
        while extra < count // 20:
            board = en_passant_position(rng)
            if board is None or not board.is_valid():
                continue
            out.append(f"{board.fen()};{tb.probe_wdl(board)};{tb.probe_dtz(board)}")
            extra += 1
    print("\n".join(out))


if __name__ == "__main__":
    main()
