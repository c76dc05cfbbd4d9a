#!/usr/bin/env python3
"""DamExchange conformance: pydraughts' DXPEngine against `crown dxp --listen`.

pydraughts (import name `draughts`) connects to crown and initiates each game
with its DXPEngine (GAMEREQ with the position spelled out, `B` form; crown
follows). The other side of the board is played by seeded random legal moves
from pydraughts' own move generator. Every move crown sends must be legal in
pydraughts' rules, and each game must reach a GAMEEND (from either side)
without a stall. Crown plays white in even games and black in odd ones.

Usage: .venv/bin/python scripts/conformance_dxp.py [--crown target/ci/crown]
       [--games 4] [--movetime 50] [--seed 1] [--log DIR]
Prints one line per game and `N passed, N failed`; exits 1 on any failure.

Notes on pydraughts 0.6.x: DXPEngine.play() busy-waits for crown's move with
no timeout, so each call runs in a watchdog thread; its socket close sleeps
7 s, so each game costs at least that much wall time.
"""

import argparse
import logging
import os
import random
import socket
import subprocess
import sys
import threading
import time

import draughts
from draughts.engine import DXPEngine  # draughts.engine first: its imports are circular

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MAX_PLIES = 400
MOVE_TIMEOUT = 30.0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port, proc, timeout=20.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            return False
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                # A bare connect is a connection crown must survive too.
                return True
        except OSError:
            time.sleep(0.1)
    return False


def ask(engine, board):
    """Sends our last move (if any) and waits for crown's: ('move', m),
    ('end', reason) when crown sent GAMEEND, or ('timeout', None)."""
    result = {}

    def run():
        try:
            result["move"] = engine.play(board).move
        except Exception as err:  # noqa: BLE001 - reported as a failure
            result["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.time() + MOVE_TIMEOUT
    while time.time() < deadline:
        thread.join(0.01)
        if not thread.is_alive():
            if "error" in result:
                return "error", result["error"]
            return "move", result.get("move")
        current = engine.sender.current
        if engine.game_started and current.result is not None and not current.started:
            return "end", current.result
    return "timeout", None


def key(move):
    return move.hub_position_move


def play_game(port, crown_white, seed, movetime_note):
    board = draughts.Board(variant="standard")
    rng = random.Random(seed)
    crown_colour = draughts.WHITE if crown_white else draughts.BLACK
    engine = DXPEngine(None, {"engine-opened": True, "ip": "127.0.0.1", "port": str(port),
                              "initial-time": 60, "max-moves": 75})
    crown_moves = 0
    verdict = None
    try:
        for _ in range(MAX_PLIES):
            if board.turn == crown_colour:
                kind, value = ask(engine, board)
                if kind == "end":
                    verdict = (True, f"crown sent GAMEEND reason {value} after {len(board.move_stack)} plies"
                               f" (pydraughts: over={board.is_over()})")
                    break
                if kind != "move" or value is None:
                    verdict = (False, f"no move from crown ({kind}: {value}) at {board.fen}")
                    break
                legal = {key(m): m for m in board.legal_moves()}
                if key(value) not in legal:
                    verdict = (False, f"illegal move {value.pdn_move} from crown at {board.fen}")
                    break
                board.push(legal[key(value)])
                crown_moves += 1
            else:
                if board.is_over():
                    verdict = (True, f"game over after {len(board.move_stack)} plies,"
                               f" winner {board.winner()}")
                    break
                board.push(rng.choice(board.legal_moves()))
        else:
            verdict = (True, f"stopped after {MAX_PLIES} plies")
    finally:
        try:
            engine.quit()
        except Exception:  # noqa: BLE001 - the verdict is already known
            pass
    ok, text = verdict
    colour = "white" if crown_white else "black"
    return ok, f"crown {colour}, {crown_moves} crown moves: {text}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crown", default=os.path.join(ROOT, "target", "ci", "crown"))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--movetime", type=int, default=50,
                        help="crown ms per move; 0: crown uses the GAMEREQ clock (1 min, 75 moves)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log", help="directory for crown's DXP log and pydraughts' debug log")
    args = parser.parse_args()

    if not os.path.exists(args.crown):
        print(f"crown binary not found: {args.crown} (cargo build --profile ci)")
        return 2
    if args.log:
        os.makedirs(args.log, exist_ok=True)
        logging.basicConfig(filename=os.path.join(args.log, "pydraughts.log"), level=logging.DEBUG)
    port = free_port()
    command = [args.crown, "dxp", "--listen", str(port), "--hash", "16", "--timeout", "60"]
    if args.movetime > 0:
        command += ["--movetime", str(args.movetime)]
    if args.log:
        command += ["--log", os.path.join(args.log, "crown-dxp.log")]
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    passed = failed = 0
    try:
        if not wait_listening(port, proc):
            print("crown dxp did not start listening")
            return 1
        for game in range(args.games):
            try:
                ok, text = play_game(port, game % 2 == 0, args.seed + game, args.movetime)
            except Exception as err:  # noqa: BLE001 - one failed game, not a crash
                ok, text = False, f"exception: {err!r}"
            if proc.poll() is not None:
                ok, text = False, f"{text}; crown exited with {proc.returncode}"
            print(f"game {game + 1}: {'ok  ' if ok else 'FAIL'} {text}", flush=True)
            passed += ok
            failed += not ok
            if proc.poll() is not None:
                failed += args.games - game - 1
                break
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
