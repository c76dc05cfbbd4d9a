#!/usr/bin/env python3
"""Crown vs crown at a fast time control, counting time losses and illegal moves.

Usage: timeloss-games.py [--games 200] [--base 1.0] [--inc 0.01] [PATH_TO_CROWN]

python-chess keeps the clocks: each move's wall time (from sending `go` to
reading `bestmove`, as a GUI measures it) is taken off the mover's clock,
then the increment is added. A clock below zero is a time loss. Openings are
two to four random plies (fixed seed), colours alternate. Games end at
checkmate, stalemate, a claimable draw or 400 plies.

Prints a line per 20 games and a summary; exits non-zero on any time loss,
illegal move or engine error. Use the release build (cargo build --release);
on a loaded machine a starved process can lose on time without any engine
fault, so read the max-overrun figures alongside the count.
"""

import argparse
import random
import sys
import time

import chess
import chess.engine


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary", nargs="?", default="target/release/crown")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--base", type=float, default=1.0)
    parser.add_argument("--inc", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    engines = [chess.engine.SimpleEngine.popen_uci([args.binary], timeout=60) for _ in range(2)]
    results = {"1-0": 0, "0-1": 0, "1/2-1/2": 0}
    time_losses = illegal = errors = 0
    min_left = float("inf")
    worst_move = 0.0
    moves_played = 0
    started = time.monotonic()
    try:
        for game in range(args.games):
            board = chess.Board()
            for _ in range(rng.randint(2, 4)):
                board.push(rng.choice(list(board.legal_moves)))
            white = engines[game % 2]
            black = engines[1 - game % 2]
            clock = {chess.WHITE: args.base, chess.BLACK: args.base}
            result = None
            while result is None:
                if board.is_game_over(claim_draw=True) or board.ply() >= 400:
                    outcome = board.outcome(claim_draw=True)
                    result = outcome.result() if outcome else "1/2-1/2"
                    break
                engine = white if board.turn == chess.WHITE else black
                limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                           black_clock=clock[chess.BLACK],
                                           white_inc=args.inc, black_inc=args.inc)
                t0 = time.monotonic()
                try:
                    played = engine.play(board, limit, game=game)
                except chess.engine.EngineError as e:
                    errors += 1
                    print(f"game {game}: engine error {e}", flush=True)
                    result = "0-1" if board.turn == chess.WHITE else "1-0"
                    break
                spent = time.monotonic() - t0
                worst_move = max(worst_move, spent)
                clock[board.turn] -= spent
                min_left = min(min_left, clock[board.turn])
                if clock[board.turn] < 0:
                    time_losses += 1
                    print(f"game {game}: time loss at ply {board.ply()} "
                          f"(clock {clock[board.turn]:.3f} s, move took {spent:.3f} s)", flush=True)
                    result = "0-1" if board.turn == chess.WHITE else "1-0"
                    break
                clock[board.turn] += args.inc
                if played.move is None or played.move not in board.legal_moves:
                    illegal += 1
                    print(f"game {game}: illegal move {played.move} in {board.fen()}", flush=True)
                    result = "0-1" if board.turn == chess.WHITE else "1-0"
                    break
                board.push(played.move)
                moves_played += 1
            results[result] += 1
            if (game + 1) % 20 == 0:
                print(f"{game + 1} games, {time.monotonic() - started:.0f} s: {results}, "
                      f"time losses {time_losses}, illegal {illegal}, errors {errors}", flush=True)
    finally:
        for e in engines:
            e.quit()
    print(f"games {args.games} at {args.base}+{args.inc}: {results}")
    print(f"moves {moves_played}, longest move {worst_move * 1000:.0f} ms, "
          f"lowest clock after a move {min_left * 1000:.0f} ms")
    print(f"time losses {time_losses}, illegal moves {illegal}, engine errors {errors}")
    return 1 if time_losses or illegal or errors else 0


if __name__ == "__main__":
    sys.exit(main())
