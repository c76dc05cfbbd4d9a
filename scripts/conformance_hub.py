#!/usr/bin/env python3
"""Hub conformance: pydraughts' HubEngine drives `crown hub`.

Every move crown returns must be legal in pydraughts' own rules
(`draughts.Board(variant=...).legal_moves()`, compared by exact Hub text).
Prints one line per failure, then `N passed, N failed`; exits non-zero on
any failure.

Usage: scripts/conformance_hub.py [--engine PATH] [--plies N] [--verbose]
(default engine: target/ci/crown, else target/release/crown; run it with the
project venv's python, where `pip install pydraughts` put `draughts`).

Two paths, because pydraughts' own `HubEngine.play()` is coherent only where
its internal square numbers are the variant's numbers:
* `play()`: international (standard), antidraughts and italian. pydraughts
  sends `pos pos=<initial Hub position> moves="<the whole game>"` exactly as
  a lidraughts bot does.
* `go()` with a Hub position in the variant's numbers (the numbers pydraughts
  prints moves in, and crown's): every variant, including russian,
  brazilian, english and turkish. For those four `play()` sends the initial
  position in pydraughts' internal (rotated, for english also
  colour-swapped) numbering but the moves in the variant's numbering, which
  no engine can read consistently.
"""

import argparse
import os
import sys
import threading
import time

import draughts
from draughts.convert import _algebraic_to_numeric_square, _get_squares
from draughts.engine import HubEngine, Limit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

passed = 0
failed = 0
VERBOSE = False


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}", flush=True)
    return cond


def variant_hub_fen(board):
    """A Hub position in the variant's own square numbers, from board.fen."""
    total, _, per_letter, every_other = _get_squares(board.variant)
    fen = board.fen.split(":")
    squares = ["e"] * total
    for field in fen[1:]:
        if not field or field[0] not in "WB":
            continue
        colour = field[0].lower()
        for item in filter(None, field[1:].split(",")):
            king = item.startswith("K")
            item = item[1:] if king else item
            n = _algebraic_to_numeric_square(item, per_letter, every_other)
            squares[n - 1] = colour.upper() if king else colour
    side = "W" if board.turn == draughts.WHITE else "B"
    return side + "".join(squares)


def legal_hub_moves(board):
    return {m.hub_move: m for m in board.legal_moves()}


def check_move(board, text, what):
    legal = legal_hub_moves(board)
    return ok(text in legal, f"{what}: {text!r} not among {sorted(legal)} in {board.fen}")


def start_engine(path, variant_name):
    engine = HubEngine([path, "hub"])
    ok(engine.id.get("name") == "Crown", f"id name: {engine.id}")
    for name in ("variant", "threads", "tt-size", "ponder"):
        ok(name in engine.options, f"param {name} missing: {engine.options}")
    ok(variant_name in engine.variants, f"variant {variant_name} not in {engine.variants}")
    engine.setoption("variant", variant_name)
    engine.setoption("tt-size", 16)
    engine.init()
    engine.ping()
    return engine


def play_game(engine, variant, fen, plies, limit, via_play):
    """Crown plays both sides for `plies` plies; each move is checked."""
    board = draughts.Board(variant=variant, fen=fen)
    initial = variant_hub_fen(board)
    what = f"{variant} {'play' if via_play else 'go'} from {fen[:40]}"
    for ply in range(plies):
        if board.is_over() or not board.legal_moves():
            break
        if via_play:
            result = engine.play(board, limit, ponder=False)
            text = result.move.hub_move if result.move else None
            ok(text is not None, f"{what} ply {ply}: no move")
            if text is None:
                return
            if not check_move(board, text, f"{what} ply {ply}"):
                return
            board.push(result.move)
        else:
            moves = " ".join(m.hub_move for m in board.move_stack)
            best, _ = engine.go(initial, moves=moves or None, depth=limit.depth,
                                movetime=limit.movetime, my_time=limit.time, inc=limit.inc)
            if not check_move(board, best, f"{what} ply {ply}"):
                return
            board.push(legal_hub_moves(board)[best])
    if VERBOSE:
        print(f"ok: {what}: {len(board.move_stack)} plies", flush=True)
    ok(len(board.move_stack) > 0 or board.is_over(), f"{what}: no move played")


def ponder_check(engine, variant):
    """go ponder, then ponder-hit from another thread: a legal move comes back."""
    board = draughts.Board(variant=variant)
    fen = variant_hub_fen(board)
    hit = threading.Thread(target=lambda: (time.sleep(0.3), engine.ponderhit()))
    hit.start()
    best, _ = engine.go(fen, movetime=0.2, ponder=True)
    hit.join()
    check_move(board, best, f"{variant} ponder-hit")


# Positions with captures, kings and multi-captures (PDN FEN, variant numbers).
INTERNATIONAL_FENS = [
    "startpos",
    "W:W27,28,32,37,38:B12,17,18,22,23",
    "B:W21,26,27,28,33,38,K45:B3,8,13,18,19,24,K6",
    "W:WK46,33,34:B9,19,20,28,29,K5",
    "W:W16,26,27,31,36,37:B5,6,11,17,21,22",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=None)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    path = args.engine
    if path is None:
        for profile in ("ci", "release", "debug"):
            candidate = os.path.join(ROOT, "target", profile, "crown")
            if os.path.exists(candidate):
                path = candidate
                break
    if path is None or not os.path.exists(path):
        print("crown binary not found; build it first (cargo build --profile ci)")
        return 2

    depth = Limit(depth=4)
    plans = [
        # (Hub variant name, pydraughts variant, fens, limit, play() path too)
        ("normal", "standard", INTERNATIONAL_FENS, depth, True),
        ("antidraughts", "antidraughts", ["startpos"], depth, True),
        ("italian", "italian", ["startpos"], Limit(movetime=0.05), True),
        ("russian", "russian", ["startpos"], depth, False),
        ("brazilian", "brazilian", ["startpos"], Limit(time=5, inc=0.1), False),
        ("english", "english", ["startpos"], depth, False),
        ("turkish", "turkish", ["startpos"], depth, False),
    ]
    for hub_name, variant, fens, limit, via_play in plans:
        engine = None
        try:
            engine = start_engine(path, hub_name)
            for fen in fens:
                if via_play:
                    play_game(engine, variant, fen, args.plies, limit, True)
                play_game(engine, variant, fen, args.plies, limit, False)
            if variant == "standard":
                ponder_check(engine, variant)
            engine.quit()
            engine.p.wait(timeout=30)
            engine.p.stdin.close()
            engine.p.stdout.close()
            ok(engine.p.returncode == 0, f"{variant}: exit code {engine.p.returncode}")
        except Exception as e:  # a crash of the client or the engine is a failure
            ok(False, f"{variant}: {type(e).__name__}: {e}")
            if engine is not None:
                engine.kill_process()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
