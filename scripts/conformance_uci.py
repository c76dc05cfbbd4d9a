#!/usr/bin/env python3
"""UCI conformance of crown through python-chess, a third-party client.

Usage: conformance_uci.py PATH_TO_CROWN

Drives crown with python-chess's engine module: the handshake and options,
engine.play and engine.analyse in standard and Chess960 positions, MultiPV,
pondering (go ponder / ponderhit / stop as python-chess sends them), mate
scores, a root without legal moves, and short complete games crown vs crown
in which every move must be legal. python-chess must accept every line crown
prints: any WARNING or ERROR that python-chess logs (unexpected output,
unparsable info, invalid ponder move, ...) fails the check it happened in.

Prints one line per check and a closing "N passed, N failed"; exits non-zero
when a check failed.
"""

import logging
import sys
import time
import traceback

import chess
import chess.engine

LIMIT_TIMEOUT = 60.0  # seconds; only turns a hang into a failure


class LogCapture(logging.Handler):
    """Collects python-chess's log records at WARNING and above."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(self.format(record))


CAPTURE = LogCapture()
logging.getLogger("chess").addHandler(CAPTURE)
logging.getLogger("chess").setLevel(logging.WARNING)
logging.getLogger("asyncio").addHandler(CAPTURE)

BINARY = None


def open_engine(**options):
    engine = chess.engine.SimpleEngine.popen_uci([BINARY], timeout=LIMIT_TIMEOUT)
    try:
        if options:
            engine.configure(options)
    except BaseException:
        # An engine left open keeps python-chess's thread (and us) alive.
        engine.quit()
        raise
    return engine


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def legal_in(board, move):
    check(move is not None, f"no move in {board.fen()}")
    check(move in board.legal_moves, f"illegal move {move} in {board.fen()}")


# --- the checks -------------------------------------------------------------


def test_handshake():
    with open_engine() as engine:
        check(engine.id.get("name", "").startswith("Crown"), f"id {engine.id}")
        for name in ["Hash", "Threads", "MultiPV", "Ponder", "UCI_Chess960",
                     "UCI_ShowWDL", "Move Overhead", "Clear Hash"]:
            check(name in engine.options, f"option {name} missing: {list(engine.options)}")
        check(engine.options["Hash"].max >= 65536, "Hash max")
        check(engine.options["Threads"].max >= 256, "Threads max")
        engine.configure({"Hash": 32, "Threads": 2, "Move Overhead": 20})
        engine.ping()


def test_play_standard():
    with open_engine() as engine:
        board = chess.Board()
        for limit in [chess.engine.Limit(depth=5), chess.engine.Limit(nodes=5000),
                      chess.engine.Limit(time=0.1),
                      chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05,
                                         black_inc=0.05),
                      chess.engine.Limit(white_clock=3, black_clock=3, remaining_moves=10)]:
            result = engine.play(board, limit)
            legal_in(board, result.move)
            if result.ponder is not None:
                after = board.copy()
                after.push(result.move)
                legal_in(after, result.ponder)


def test_analyse_standard():
    with open_engine() as engine:
        board = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
        info = engine.analyse(board, chess.engine.Limit(depth=6))
        check(info.get("depth") == 6, f"depth {info}")
        check("score" in info and "pv" in info, f"info {info}")
        check(isinstance(info.get("nodes"), int) and isinstance(info.get("time"), float), f"{info}")
        legal_in(board, info["pv"][0])
        check(chess.Board(board.fen()).is_valid(), "board")
        # The whole PV must be playable.
        b = board.copy()
        for move in info["pv"]:
            legal_in(b, move)
            b.push(move)
        # Analysis that is stopped by the client.
        with engine.analysis(board) as analysis:
            seen = 0
            for info in analysis:
                if "pv" in info:
                    seen += 1
                if seen >= 3:
                    break
        check(seen >= 3, "infinite analysis gave too few lines")
        # WDL
        engine.configure({"UCI_ShowWDL": True})
        info = engine.analyse(board, chess.engine.Limit(depth=4))
        check("wdl" in info, f"no wdl in {info}")


def test_multipv():
    with open_engine() as engine:
        board = chess.Board()
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        check(len(infos) == 3, f"{len(infos)} lines")
        firsts = [info["pv"][0] for info in infos]
        check(len(set(firsts)) == 3, f"not distinct: {firsts}")
        for info in infos:
            legal_in(board, info["pv"][0])
        check([info.get("multipv") for info in infos] == [1, 2, 3], "multipv numbers")


def test_mate_and_no_move():
    with open_engine() as engine:
        board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        info = engine.analyse(board, chess.engine.Limit(depth=5))
        check(info["score"].relative == chess.engine.Mate(1), f"score {info['score']}")
        result = engine.play(board, chess.engine.Limit(mate=1))
        check(result.move == chess.Move.from_uci("d1d8"), f"mate move {result.move}")
        board.push(result.move)
        check(board.is_checkmate(), "not mate")
        result = engine.play(board, chess.engine.Limit(depth=3))
        check(result.move is None, f"move {result.move} in a mated position")
        stalemate = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
        result = engine.play(stalemate, chess.engine.Limit(time=0.1))
        check(result.move is None, f"move {result.move} in stalemate")


def test_chess960():
    with open_engine() as engine:
        for index in [0, 518, 959, 123]:
            board = chess.Board.from_chess960_pos(index)
            for _ in range(6):
                result = engine.play(board, chess.engine.Limit(depth=4))
                legal_in(board, result.move)
                board.push(result.move)
            info = engine.analyse(board, chess.engine.Limit(depth=4))
            legal_in(board, info["pv"][0])
        # Castling out: only the castling moves are allowed at the root.
        board = chess.Board("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                            chess960=True)
        castles = [m for m in board.legal_moves if board.is_castling(m)]
        check(len(castles) == 2, f"castling moves {castles}")
        for move in castles:
            result = engine.play(board, chess.engine.Limit(depth=3), root_moves=[move])
            check(result.move == move, f"root_moves {move}: got {result.move}")
        # Castling in: a game history with castling is sent and accepted.
        board.push(castles[0])
        black = [m for m in board.legal_moves if board.is_castling(m)]
        board.push(black[0])
        result = engine.play(board, chess.engine.Limit(depth=4))
        legal_in(board, result.move)
        info = engine.analyse(board, chess.engine.Limit(depth=4), multipv=2)
        check(len(info) == 2, "960 multipv")


def test_ponder():
    with open_engine() as engine:
        board = chess.Board()
        game = object()
        for _ in range(10):
            result = engine.play(board, chess.engine.Limit(time=0.1), ponder=True, game=game)
            legal_in(board, result.move)
            board.push(result.move)
            if board.is_game_over():
                break
            # Play the predicted reply when there is one, so python-chess
            # sends ponderhit; otherwise any legal move (it sends stop).
            reply = result.ponder if result.ponder in board.legal_moves else None
            if reply is None:
                reply = next(iter(board.legal_moves))
            board.push(reply)
            if board.is_game_over():
                break
        engine.play(board, chess.engine.Limit(time=0.1), game=game)


def play_game(white, black, board, limit, max_plies=120):
    """Plays until the game ends or max_plies; returns the number of plies."""
    engines = {chess.WHITE: white, chess.BLACK: black}
    plies = 0
    while not board.is_game_over(claim_draw=True) and plies < max_plies:
        result = engines[board.turn].play(board, limit)
        legal_in(board, result.move)
        board.push(result.move)
        plies += 1
    return plies


def test_games():
    with open_engine() as a, open_engine(Threads=2) as b:
        limits = [chess.engine.Limit(time=0.03), chess.engine.Limit(nodes=2000)]
        for i, limit in enumerate(limits):
            board = chess.Board()
            play_game(a if i % 2 == 0 else b, b if i % 2 == 0 else a, board, limit)
        board = chess.Board.from_chess960_pos(42)
        play_game(a, b, board, chess.engine.Limit(time=0.03))
        # A game with clocks, as a match runner plays it.
        board = chess.Board()
        clock = {chess.WHITE: 2.0, chess.BLACK: 2.0}
        while not board.is_game_over(claim_draw=True) and board.ply() < 80:
            limit = chess.engine.Limit(white_clock=clock[chess.WHITE],
                                       black_clock=clock[chess.BLACK],
                                       white_inc=0.02, black_inc=0.02)
            engine = a if board.turn == chess.WHITE else b
            started = time.monotonic()
            result = engine.play(board, limit)
            clock[board.turn] -= time.monotonic() - started
            check(clock[board.turn] > 0, f"time loss at ply {board.ply()}")
            clock[board.turn] += 0.02
            legal_in(board, result.move)
            board.push(result.move)


CHECKS = [
    test_handshake,
    test_play_standard,
    test_analyse_standard,
    test_multipv,
    test_mate_and_no_move,
    test_chess960,
    test_ponder,
    test_games,
]


def main():
    global BINARY
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    BINARY = sys.argv[1]
    passed = failed = 0
    for test in CHECKS:
        CAPTURE.records.clear()
        error = None
        try:
            test()
        except Exception:  # noqa: BLE001 - every failure is reported
            error = traceback.format_exc(limit=3)
        if error is None and CAPTURE.records:
            error = "python-chess logged:\n  " + "\n  ".join(CAPTURE.records[:10])
        if error is None:
            passed += 1
            print(f"ok     {test.__name__}", flush=True)
        else:
            failed += 1
            print(f"FAILED {test.__name__}\n{error}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
