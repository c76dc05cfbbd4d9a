#!/usr/bin/env python3
"""Start positions for the Syzygy matches (docs/endgame.md, "Syzygy tablebases (chess)").

  endings TABLE_DIR SEED > won-and-drawn.epd
      70 positions for `crown match` with Crown as the first engine and
      `--openings order=sequential`: 10 each of KQvK, KRvK, KBNvK, KPvK (pawn
      on its 6th or 7th rank) and KQvKR won for the side Crown plays, then 10
      KRvKR draws and 10 KPvK draws with the defending king in front of the
      pawn, Crown defending. The runner gives Crown white in even-numbered
      games (0-based) and black in odd ones, so line i is colour-flipped to
      put Crown's side on the right colour. Values from python-chess's prober.
  middle SEED COUNT STOCKFISH > five-six.epd
      COUNT random legal positions with 5 or 6 pieces (kings included, no
      castling), kept when a 0.1 s Stockfish search scores them within
      +-150 cp, so that the games are open and reach the tables.
"""
import random
import sys

import chess
import chess.engine
import chess.syzygy

PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP,
          "N": chess.KNIGHT, "P": chess.PAWN}


def place(rng, board, color, letter, ranks=range(8)):
    kind = PIECES[letter]
    while True:
        sq = chess.square(rng.randrange(8), rng.choice(list(ranks)))
        if board.piece_at(sq) is not None:
            continue
        if kind == chess.PAWN and chess.square_rank(sq) in (0, 7):
            continue
        board.set_piece_at(sq, chess.Piece(kind, color))
        return sq


def flip(board):
    """The same position with colours swapped (mirrored vertically)."""
    return board.mirror()


def won(rng, tb, strong, weak, pawn_ranks=None):
    """A position won for white (white = strong side), either side to move."""
    while True:
        board = chess.Board(None)
        for letter in strong:
            if letter == "P" and pawn_ranks:
                place(rng, board, chess.WHITE, letter, pawn_ranks)
            else:
                place(rng, board, chess.WHITE, letter)
        for letter in weak:
            place(rng, board, chess.BLACK, letter)
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        if not board.is_valid() or board.is_game_over():
            continue
        wdl = tb.probe_wdl(board)
        white_wdl = wdl if board.turn == chess.WHITE else -wdl
        if white_wdl == 2:
            return board


def drawn_krkr(rng, tb):
    while True:
        board = chess.Board(None)
        for color in (chess.WHITE, chess.BLACK):
            place(rng, board, color, "K")
            place(rng, board, color, "R")
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        if board.is_valid() and not board.is_game_over() and tb.probe_wdl(board) == 0:
            return board


def drawn_kpk(rng, tb):
    """White pawn, black king on the pawn's file in front of it; a draw."""
    while True:
        board = chess.Board(None)
        file = rng.randrange(8)
        rank = rng.randrange(1, 5)
        board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, chess.WHITE))
        front = rng.randrange(rank + 2, 8)
        board.set_piece_at(chess.square(file, front), chess.Piece(chess.KING, chess.BLACK))
        place(rng, board, chess.WHITE, "K")
        board.turn = rng.choice((chess.WHITE, chess.BLACK))
        if board.is_valid() and not board.is_game_over() and tb.probe_wdl(board) == 0:
            return board


def endings(directory, seed):
    rng = random.Random(seed)
    lines = []
    with chess.syzygy.open_tablebase(directory) as tb:
        # Crown's side is white in these boards; flipped for odd lines.
        boards = []
        for strong, weak, ranks in (("KQ", "K", None), ("KR", "K", None), ("KBN", "K", None),
                                    ("KP", "K", (5, 6)), ("KQ", "KR", None)):
            boards += [won(rng, tb, strong, weak, ranks) for _ in range(10)]
        boards += [drawn_krkr(rng, tb) for _ in range(10)]
        # KPvK: Crown defends, so Crown is black here.
        boards += [drawn_kpk(rng, tb).mirror() for _ in range(10)]
        for i, board in enumerate(boards):
            if i % 2 == 1:
                board = flip(board)
            lines.append(board.epd())
    print("\n".join(lines))


def middle(seed, count, stockfish):
    rng = random.Random(seed)
    out = []
    with chess.engine.SimpleEngine.popen_uci(stockfish) as engine:
        while len(out) < count:
            board = chess.Board(None)
            place(rng, board, chess.WHITE, "K")
            place(rng, board, chess.BLACK, "K")
            extra = rng.choice((3, 4))
            for _ in range(extra):
                place(rng, board, rng.choice((chess.WHITE, chess.BLACK)), rng.choice("QRRBBNNPPPP"))
            board.turn = rng.choice((chess.WHITE, chess.BLACK))
            if not board.is_valid() or board.is_game_over():
                continue
            info = engine.analyse(board, chess.engine.Limit(time=0.1))
            score = info["score"].white()
            if score.is_mate() or abs(score.score()) > 150:
                continue
            out.append(board.epd())
    print("\n".join(out))


def main():
    if sys.argv[1] == "endings":
        endings(sys.argv[2], int(sys.argv[3]))
    elif sys.argv[1] == "middle":
        middle(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
