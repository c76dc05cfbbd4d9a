#!/usr/bin/env python3
"""Game records: the PGN and PDN files `crown match` writes, read back by
third-party readers.

* PGN (chess and Chess960): python-chess's `chess.pgn.read_game` reads every
  game without an error, replays every move as legal from the game's own
  start (the `FEN` tag when there is one), and the `Result` tag agrees with
  the final position (checkmate: the side that mated wins; stalemate or
  insufficient material: a draw) and with the runner's own count of games.
* PDN (international draughts, italian, antidraughts: the variants whose
  square numbers pydraughts reads as Crown writes them): pydraughts'
  `PDNReader` reads every game, every move is among the legal moves of
  `draughts.Board` in order, and a game pydraughts sees as over has the
  result it gives.

Prints one line per failure, then `N passed, N failed`; exits non-zero on
any failure. Run it with the project venv's python (python-chess and
pydraughts).

Usage: scripts/conformance_records.py [--crown PATH] [--games N] [--keep DIR]
"""

import argparse
import io
import os
import subprocess
import sys
import tempfile

import chess
import chess.pgn
import draughts
from draughts.PDN import PDNReader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

passed = 0
failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL: {what}", flush=True)
    return cond


def run_match(crown, variant, proto, out, games, extra):
    """Plays `games` games of crown against itself and writes `out`."""
    engine = [f"cmd={crown}", f"proto={proto}"] + (["arg=hub"] if proto == "hub" else [])
    args = [crown, "match", "--variant", variant,
            "--engine", "name=crown-a", *engine, "--engine", "name=crown-b", *engine,
            "--each", "nodes=3000", "--games", "2", "--rounds", str(max(1, games // 2)),
            "--repeat", "--concurrency", "2", "--pgnout", out, *extra]
    run = subprocess.run(args, capture_output=True, text=True, timeout=600)
    ok(run.returncode == 0, f"{variant}: crown match failed: {run.stdout}{run.stderr}")
    for line in run.stdout.splitlines():
        if line.startswith("Finished match: "):
            return int(line.split()[2])
    ok(False, f"{variant}: no 'Finished match' line in {run.stdout}")
    return 0


def check_pgn(path, variant, expected):
    if not ok(os.path.exists(path), f"{variant}: no record {path}"):
        return
    with open(path, encoding="utf-8") as f:
        text = f.read()
    stream = io.StringIO(text)
    count = 0
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        count += 1
        what = f"{variant} game {count}"
        ok(not game.errors, f"{what}: python-chess read errors {game.errors}")
        board = game.board()
        if variant == "chess960":
            ok(board.chess960, f"{what}: not read as Chess960 (Variant tag)")
        legal = True
        for move in game.mainline_moves():
            if move not in board.legal_moves:
                legal = ok(False, f"{what}: illegal {move.uci()} in {board.fen()}")
                break
            board.push(move)
        if not legal:
            continue
        ok(True, f"{what}: moves")
        result = game.headers.get("Result", "?")
        ok(result in ("1-0", "0-1", "1/2-1/2"), f"{what}: result '{result}'")
        if board.is_checkmate():
            winner = "0-1" if board.turn == chess.WHITE else "1-0"
            ok(result == winner, f"{what}: checkmate but result {result}")
        elif board.is_stalemate() or board.is_insufficient_material():
            ok(result == "1/2-1/2", f"{what}: dead position but result {result}")
        plies = game.headers.get("PlyCount")
        if plies is not None:
            ok(int(plies) == board.ply() - game.board().ply(),
               f"{what}: PlyCount {plies} for {board.ply() - game.board().ply()} plies")
    ok(count == expected, f"{variant}: {count} games read, the runner played {expected}")


def check_pdn(path, variant, board_variant, expected):
    if not ok(os.path.exists(path), f"{variant}: no record {path}"):
        return
    reader = PDNReader(filename=path)
    games = [g for g in reader.games if g.moves or g.tags]
    ok(len(games) == expected, f"{variant}: {len(games)} games read, the runner played {expected}")
    for n, game in enumerate(games, 1):
        what = f"{variant} game {n}"
        fen = game.tags.get("FEN", "startpos")
        board = draughts.Board(variant=board_variant, fen=fen)
        legal = True
        for text in game.moves:
            moves = {m.pdn_move: m for m in board.legal_moves()}
            # A king capture with two routes over the same pieces is one
            # move: pydraughts spells it with a landing square,
            # `25x34x48`; the short form `25x48` names it too.
            ends = text.split("x")
            if text not in moves and len(ends) == 2 and all(e.isdigit() for e in ends):
                same = [m for m in moves.values()
                        if m.steps_move[0] == int(ends[0]) and m.steps_move[-1] == int(ends[1])]
                if same and len({tuple(sorted(m.captures)) for m in same}) == 1:
                    moves[text] = same[0]
            if text not in moves:
                legal = ok(False, f"{what}: {text} not among {sorted(moves)} in {board.fen}")
                break
            board.push(moves[text])
        if not legal:
            continue
        ok(True, f"{what}: moves")
        result = game.tags.get("Result", "?")
        ok(result in ("2-0", "0-2", "1-1"), f"{what}: result '{result}'")
        ok(game.game_ending == result, f"{what}: ends {game.game_ending}, tag {result}")
        if board.is_over():
            winner = board.winner()
            want = {draughts.WHITE: "2-0", draughts.BLACK: "0-2"}.get(winner, "1-1")
            ok(result == want, f"{what}: pydraughts sees {want}, the record says {result}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--crown", default=os.path.join(ROOT, "target", "ci", "crown"))
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--keep", help="write the records into this folder")
    args = parser.parse_args()
    folder = args.keep or tempfile.mkdtemp(prefix="crown-records-")
    os.makedirs(folder, exist_ok=True)
    # Adjudication and a move cap give the records every kind of ending.
    extra = ["--maxmoves", "120", "--resign", "movecount=3", "score=900",
             "--draw", "movenumber=40", "movecount=8", "score=5"]
    for variant in ("chess", "chess960"):
        path = os.path.join(folder, f"{variant}.pgn")
        played = run_match(args.crown, variant, "uci", path, args.games, extra)
        check_pgn(path, variant, played)
    for variant, board_variant in (("international", "standard"), ("italian", "italian"),
                                   ("antidraughts", "antidraughts")):
        path = os.path.join(folder, f"{variant}.pdn")
        played = run_match(args.crown, variant, "hub", path, args.games, ["--maxmoves", "80"])
        check_pdn(path, variant, board_variant, played)
    print(f"{passed} passed, {failed} failed (records in {folder})")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
