#!/usr/bin/env python3
"""An independent match runner on python-chess, to cross-check `crown match`.

Plays opening pairs (each opening with both colours) between two UCI engines
at a base+increment time control, keeping its own clocks, and prints the score,
the Elo difference with a 95% interval (trinomial normal approximation, as
cutechess prints it), draw ratio, time losses and the mean thinking time per
move of each engine.

    .venv/bin/python scripts/match-pychess.py --engine1 target/release/crown \
        --engine2 /usr/games/glaurung --pairs 50 --tc 10+0.1 \
        --openings tests/data/books/noob_3moves_2k.epd
"""

import argparse
import math
import random
import statistics
import time

import chess
import chess.engine


def elo(score):
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400 * math.log10(1 / score - 1)


def play_game(cmd_white, cmd_black, fen, base, inc, margin):
    board = chess.Board(fen)
    engines = [chess.engine.SimpleEngine.popen_uci(c) for c in (cmd_white, cmd_black)]
    clocks = [base, base]
    used = [[], []]
    reason = None
    try:
        for e in engines:
            if "Hash" in e.options:
                e.configure({"Hash": 16})
        while not board.is_game_over(claim_draw=True):
            side = 0 if board.turn == chess.WHITE else 1
            limit = chess.engine.Limit(
                white_clock=clocks[0], black_clock=clocks[1], white_inc=inc, black_inc=inc
            )
            start = time.monotonic()
            result = engines[side].play(board, limit)
            spent = time.monotonic() - start
            used[side].append(spent)
            clocks[side] -= spent
            if clocks[side] < -margin:
                reason = "time"
                return (0.0 if side == 0 else 1.0), reason, used
            clocks[side] += inc
            if result.move is None or result.move not in board.legal_moves:
                reason = "illegal"
                return (0.0 if side == 0 else 1.0), reason, used
            board.push(result.move)
            if board.fullmove_number > 300:
                return 0.5, "maxmoves", used
        outcome = board.outcome(claim_draw=True)
        if outcome.winner is None:
            return 0.5, outcome.termination.name.lower(), used
        return (1.0 if outcome.winner == chess.WHITE else 0.0), outcome.termination.name.lower(), used
    finally:
        for e in engines:
            try:
                e.quit()
            except Exception:
                pass


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--engine1", required=True)
    ap.add_argument("--engine2", required=True)
    ap.add_argument("--pairs", type=int, default=50)
    ap.add_argument("--tc", default="10+0.1")
    ap.add_argument("--openings", default="tests/data/books/noob_3moves_2k.epd")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin", type=float, default=0.05, help="seconds of tolerance")
    args = ap.parse_args()
    base, inc = (float(x) for x in args.tc.split("+"))
    with open(args.openings) as f:
        openings = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    rng = random.Random(args.seed)
    rng.shuffle(openings)
    points = [0.0, 0.0]
    wins = losses = draws = 0
    reasons = {}
    times = [[], []]
    for pair in range(args.pairs):
        fen = openings[pair % len(openings)]
        for swap in (False, True):
            white, black = (args.engine2, args.engine1) if swap else (args.engine1, args.engine2)
            score, reason, used = play_game(white, black, fen, base, inc, args.margin)
            first = 1.0 - score if swap else score
            points[0] += first
            points[1] += 1.0 - first
            wins += first == 1.0
            losses += first == 0.0
            draws += first == 0.5
            reasons[reason] = reasons.get(reason, 0) + 1
            times[0].extend(used[1] if swap else used[0])
            times[1].extend(used[0] if swap else used[1])
            n = wins + losses + draws
            print(f"game {n}: {'engine2' if swap else 'engine1'} white, result for engine1 {first} ({reason})",
                  flush=True)
    n = wins + losses + draws
    mean = points[0] / n
    var = (wins * (1 - mean) ** 2 + losses * mean ** 2 + draws * (0.5 - mean) ** 2) / n
    se = math.sqrt(var / n)
    lo, hi = elo(mean - 1.96 * se), elo(mean + 1.96 * se)
    print(f"Score of engine1 vs engine2: {wins} - {losses} - {draws}  [{mean:.3f}] {n}")
    print(f"Elo difference: {elo(mean):.1f} +/- {(hi - lo) / 2:.1f}, draw ratio {draws / n:.3f}")
    print(f"Terminations: {reasons}")
    for i in (0, 1):
        if times[i]:
            print(f"engine{i + 1}: {len(times[i])} moves, mean {statistics.mean(times[i]) * 1000:.0f} ms/move, "
                  f"median {statistics.median(times[i]) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
