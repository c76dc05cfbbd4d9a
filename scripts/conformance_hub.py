#!/usr/bin/env python3
"""Hub conformance: pydraughts' own `HubEngine.play()` drives `crown hub`.

`play()` is what lidraughts-bot calls: it sends `pos pos=<initial position>
moves="<the whole game>"` in the numbering of the installed pydraughts and
reads the answer the same way. This script plays whole games through it in
every variant pydraughts has, with either pydraughts generation:

* 0.5.7 (pinned by lidraughts-bot): the position, the moves and the answer
  in pydraughts' internal layout. Crown needs no setting.
* 0.6.x: the position in that layout, the moves and the answer in the
  variant's own numbering. Crown tells the two apart by the moves; only
  when it moves first from an empty move list can it not, so this run sets
  `numbering=auto-variant` (docs/hub.md).

Per variant: one game with Crown on both sides (to the end or --plies),
one with Crown as white and one as black against a random mover (so Crown
moves first from the initial position, and answers a move). Frysk! is
played as lidraughts sends it (`variant=frisian`, the frysk! start in
`pos=`). Every move Crown returns must be legal in pydraughts' own rules;
an `error` line from Crown is a failure. The games must between them reach
captures and kings. Prints one line per failure, then `N passed, N failed`;
exits non-zero on any failure.

Usage: scripts/conformance_hub.py [--engine PATH] [--plies N] [--verbose]
(run with the python of a venv holding pydraughts: `.venv` for the current
release, `.venv-pydraughts057` for 0.5.7; `scripts/conformance` runs both.)
"""

import argparse
import logging
import os
import random
import sys

import draughts
from draughts.engine import HubEngine, Limit

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NEW_API = hasattr(draughts, "Board")  # pydraughts 0.6 and later
VERSION = getattr(draughts, "__version__", "0.6+" if NEW_API else "0.5")

passed = 0
failed = 0
VERBOSE = False
ERRORS = []


class ErrorLines(logging.Handler):
    """pydraughts logs every unexpected engine line (Crown's `error`)."""

    def emit(self, record):
        text = record.getMessage()
        if "error" in text:
            ERRORS.append(text)


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}", flush=True)
    return cond


class Game:
    """The two pydraughts APIs behind one interface."""

    def __init__(self, variant):
        self.board = draughts.Board(variant=variant) if NEW_API else draughts.Game(variant=variant)

    def legal(self):
        """Legal moves as board moves (comparable lists)."""
        if NEW_API:
            return [m.board_move for m in self.board.legal_moves()]
        return self.board.legal_moves()[0]

    def push_board_move(self, board_move):
        if NEW_API:
            self.board.push(draughts.Move(self.board, board_move=board_move))
        else:
            self.board.push(board_move)

    def over(self):
        return self.board.is_over() or not self.legal()

    def plies(self):
        return len(self.board.move_stack)

    def fen(self):
        return self.board.fen if NEW_API else self.board.get_li_fen()


def pieces(fen):
    """(pieces, kings) of a PDN FEN as pydraughts writes it."""
    items = [item for field in fen.split(":")[1:] if field[:1] in ("W", "B")
             for item in field[1:].split(",") if item]
    return len(items), sum(item.startswith("K") for item in items)


def start_engine(path, hub_variant):
    engine = HubEngine([path, "hub"])
    ok(engine.id.get("name") == "Crown", f"id name: {engine.id}")
    for name in ("variant", "threads", "tt-size", "ponder", "numbering"):
        ok(name in engine.options, f"param {name} missing: {engine.options}")
    ok(hub_variant in engine.variants, f"variant {hub_variant} not in {engine.variants}")
    engine.setoption("variant", hub_variant)
    if NEW_API:
        # pydraughts 0.6 wants answers in the variant's numbering even when
        # there is no move to tell it by.
        engine.setoption("numbering", "auto-variant")
    engine.init()
    return engine


def play_game(engine, variant, crown_sides, plies, limit, rng, stats):
    """One game; Crown plays `crown_sides` (set of 0 = first mover, 1)."""
    game = Game(variant)
    what = f"pydraughts {VERSION} {variant} crown={sorted(crown_sides)}"
    for ply in range(plies):
        if game.over():
            stats["ended"] += 1
            break
        legal = game.legal()
        if ply % 2 in crown_sides:
            errors_before = len(ERRORS)
            try:
                result = engine.play(game.board, limit, ponder=False)
            except Exception as e:  # an unreadable answer is a failure
                ok(False, f"{what} ply {ply}: play() raised {type(e).__name__}: {e}")
                return
            board_move = result.move.board_move if result.move else None
            if not ok(board_move in legal, f"{what} ply {ply}: {result.move and result.move.hub_move!r} "
                      f"not legal in {game.fen()}"):
                return
            ok(len(ERRORS) == errors_before, f"{what} ply {ply}: error line {ERRORS[errors_before:]}")
            stats["crown moves"] += 1
            if ply == 0:
                stats["first moves"] += 1
        else:
            board_move = rng.choice(legal)
        before, _ = pieces(game.fen())
        game.push_board_move(board_move)
        after, kings = pieces(game.fen())
        stats["captures"] += int(after < before)
        stats["kings"] = max(stats["kings"], kings)
    if VERBOSE:
        print(f"ok: {what}: {game.plies()} plies, over={game.over()}", flush=True)
    ok(game.plies() > 0, f"{what}: no move played")


# (pydraughts variant, Hub variant name) for every variant pydraughts plays.
PLANS = [
    ("standard", "normal"),
    ("frisian", "frisian"),
    ("frysk", "frisian"),  # lidraughts sends frysk! as frisian with its own start
    ("antidraughts", "antidraughts"),
    ("breakthrough", "bt"),
    ("russian", "russian"),
    ("brazilian", "brazilian"),
    ("english", "english"),
    ("italian", "italian"),
    ("turkish", "turkish"),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=None)
    parser.add_argument("--plies", type=int, default=160)
    parser.add_argument("--nodes", type=int, default=3000)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    logging.getLogger().addHandler(ErrorLines())
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
    limit = Limit(nodes=args.nodes)
    rng = random.Random(7)
    for variant, hub_variant in PLANS:
        stats = {"crown moves": 0, "first moves": 0, "captures": 0, "kings": 0, "ended": 0}
        engine = None
        try:
            engine = start_engine(path, hub_variant)
            for sides in ({0, 1}, {0}, {1}):
                play_game(engine, variant, sides, args.plies, limit, rng, stats)
            engine.quit()
            engine.p.wait(timeout=30)
            engine.p.stdin.close()
            engine.p.stdout.close()
            ok(engine.p.returncode == 0, f"{variant}: exit code {engine.p.returncode}")
        except Exception as e:  # a crash of the client or the engine is a failure
            ok(False, f"{variant}: {type(e).__name__}: {e}")
            if engine is not None:
                engine.kill_process()
        ok(stats["first moves"] >= 2, f"{variant}: Crown never moved first: {stats}")
        ok(stats["captures"] > 0, f"{variant}: no capture in any game: {stats}")
        print(f"pydraughts {VERSION} {variant:12} (hub {hub_variant}): {stats}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
