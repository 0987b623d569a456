#!/usr/bin/env python3
"""Checks puzzles against Stockfish: for a random sample of a puzzle file (lichess's CSV), is
the first solution move Stockfish's best at the given depth, or a mate as short as the best?

    python3 tools/puzzle-check.py [--file assets/puzzles.csv] [--sample 100] [--depth 18]
        [--every-move]

With --every-move, every solver move of the solution is checked, not only the first, and a
puzzle agrees when all of them do. A sample at least as large as the file checks all of it.
Prints how many agree, with the counts per rating band and per theme, and every disagreement.
"""
import argparse
import collections
import random

import chess
import chess.engine

from knightfall_tools import stockfish


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", default="assets/puzzles.csv")
    ap.add_argument("--sample", type=int, default=100)
    ap.add_argument("--depth", type=int, default=18)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--every-move", action="store_true")
    args = ap.parse_args()
    rows = [line.strip().split(",") for line in open(args.file) if not line.startswith("PuzzleId")]
    rows = [r for r in rows if len(r) >= 5]
    random.Random(args.seed).shuffle(rows)
    sample = rows[: args.sample]
    engine = chess.engine.SimpleEngine.popen_uci(stockfish())
    agree = 0
    bands = collections.Counter()
    bands_ok = collections.Counter()
    themes = collections.Counter()
    themes_ok = collections.Counter()
    wrong = []

    def agrees(board, expected):
        """Whether `expected` is Stockfish's best in `board`, or a mate as short; and its best."""
        info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
        best = info["pv"][0]
        if best == expected:
            return True, best, info
        # An equally short mate counts.
        mate = info["score"].pov(board.turn).mate()
        if mate is not None and mate > 0:
            board.push(expected)
            if board.is_checkmate():
                board.pop()
                return True, best, info
            after = engine.analyse(board, chess.engine.Limit(depth=args.depth))
            board.pop()
            theirs = after["score"].pov(not board.turn).mate()
            return theirs is not None and theirs <= mate, best, info
        return False, best, info

    for pid, fen, moves, rating, tags in (r[:5] for r in sample):
        board = chess.Board(fen)
        moves = moves.split()
        board.push_uci(moves[0])
        ok = True
        for i, uci in enumerate(moves[1:]):
            expected = chess.Move.from_uci(uci)
            if i % 2 == 0 and (i == 0 or args.every_move):
                good, best, info = agrees(board, expected)
                if not good:
                    ok = False
                    wrong.append(f"{pid} {fen} {' '.join(moves[:i + 1])}: puzzle {uci}, Stockfish {best.uci()} ({info['score'].pov(board.turn)})")
                    break
            board.push(expected)
        band = f"{int(rating) // 200 * 200}-{int(rating) // 200 * 200 + 199}"
        bands[band] += 1
        for t in tags.split():
            themes[t] += 1
        if ok:
            agree += 1
            bands_ok[band] += 1
            for t in tags.split():
                themes_ok[t] += 1
    engine.quit()
    which = "every solver move" if args.every_move else "the first move"
    print(f"{agree} of {len(sample)} puzzles: {which} is Stockfish's best at depth {args.depth} (or as short a mate)")
    print("\n| rating | puzzles | agree |\n|---|---|---|")
    for band in sorted(bands, key=lambda b: int(b.split("-")[0])):
        print(f"| {band} | {bands[band]} | {bands_ok[band]} |")
    print("\n| theme | puzzles | agree |\n|---|---|---|")
    for t, n in themes.most_common():
        print(f"| {t} | {n} | {themes_ok[t]} |")
    for w in wrong:
        print("disagrees:", w)


if __name__ == "__main__":
    main()
