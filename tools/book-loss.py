#!/usr/bin/env python3
"""How good are the embedded book's moves after the shared openings, next to the search's?

Match games start from the shared 8-ply openings, and Knightfall then keeps playing from its
book (up to ply 20). For each opening position (White to move) that the book knows, this
scores with Stockfish at a fixed depth every book move and the move Knightfall's own search
plays in a fixed time with the book off, and prints how far each falls short of the best of
those candidates: the book's loss weighted as the book picks its moves, and the search's.

    python3 tools/book-loss.py [--depth 16] [--movetime 200] [--positions 150]

Needs python-chess and Debian's stockfish (/usr/games/stockfish); the binary is
$KNIGHTFALL_BIN or target/release/knightfall.
"""

import argparse
import subprocess

import chess
import chess.engine

import knightfall_tools

OPENINGS = knightfall_tools.shared("data/openings/openings-8ply.epd")


def book_moves(binary, board):
    """The book's moves for `board` with their weights (`knightfall book probe`)."""
    out = subprocess.run(
        [binary, "book", "probe", board.fen()], capture_output=True, text=True, check=True
    ).stdout.split()
    return [(chess.Move.from_uci(out[i]), int(out[i + 1])) for i in range(0, len(out), 2)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--depth", type=int, default=16, help="Stockfish's depth per move scored")
    ap.add_argument("--movetime", type=int, default=200, help="Knightfall's time per move, ms")
    ap.add_argument("--positions", type=int, default=150, help="how many openings, from the top")
    ap.add_argument("--openings", default=OPENINGS)
    args = ap.parse_args()
    binary = knightfall_tools.knightfall_binary()

    sf = chess.engine.SimpleEngine.popen_uci(knightfall_tools.stockfish())
    sf.configure({"Threads": 1, "Hash": 64})
    kf = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
    kf.configure({"OwnBook": False})

    book_loss = search_loss = 0.0
    scored = 0
    with open(args.openings) as f:
        lines = [line for line in f if line.strip()][: args.positions]
    for line in lines:
        board = chess.Board(" ".join(line.split()[:4]) + " 0 1")
        moves = book_moves(binary, board)
        if not moves:
            continue

        def score_after(move):
            board.push(move)
            info = sf.analyse(board, chess.engine.Limit(depth=args.depth))
            board.pop()
            # From the side that played `move`.
            return info["score"].pov(board.turn).score(mate_score=10000)

        scores = {m: score_after(m) for m, _ in moves}
        played = kf.play(board, chess.engine.Limit(time=args.movetime / 1000)).move
        if played not in scores:
            scores[played] = score_after(played)
        best = max(scores.values())
        total = sum(w for _, w in moves)
        book_loss += sum((best - scores[m]) * w / total for m, w in moves)
        search_loss += best - scores[played]
        scored += 1

    sf.quit()
    kf.quit()
    print(
        f"positions {scored} (of {len(lines)}), Stockfish depth {args.depth}: "
        f"book's moves lose {book_loss / max(1, scored):.1f} cp on average (weighted), "
        f"the search's move at {args.movetime} ms {search_loss / max(1, scored):.1f} cp"
    )


if __name__ == "__main__":
    main()
