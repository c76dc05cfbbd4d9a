#!/usr/bin/env python3
"""Independent check of `crown-tune pgn-to-data` with python-chess.

Counts the positions the converter keeps (a score comment, not in check,
the move neither capture nor promotion, the score not a mate) and prints
the first labels (score for White, centipawns). Usage:

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install chess
    /tmp/venv/bin/python tuning/tests/data/pgn_oracle.py FILE.pgn
"""
import re
import sys

import chess.pgn

with open(sys.argv[1]) as f:
    kept, games, first = 0, 0, []
    skipped = dict(check=0, tactical=0, mate=0, no_score=0)
    while (game := chess.pgn.read_game(f)) is not None:
        result = game.headers.get("Result")
        if result not in ("1-0", "0-1", "1/2-1/2"):
            continue
        games += 1
        board = game.board()
        for node in game.mainline():
            move = node.move
            m = re.match(r"\s*([+-]?)(M?)(\d+(?:\.\d+)?)/", node.comment)
            if not m:
                skipped["no_score"] += 1
            elif board.is_check():
                skipped["check"] += 1
            elif board.is_capture(move) or move.promotion:
                skipped["tactical"] += 1
            elif m.group(2):
                skipped["mate"] += 1
            else:
                cp = round(float(m.group(1) + m.group(3)) * 100)
                white = cp if board.turn == chess.WHITE else -cp
                if len(first) < 6:
                    first.append((board.fen(), white, result))
                kept += 1
            board.push(move)
print(games, "games", kept, "positions", skipped)
for label in first:
    print(label)
