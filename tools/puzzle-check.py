#!/usr/bin/env python3
"""Checks puzzles against Stockfish: for a random sample of a puzzle file (lichess's CSV), is
the first solution move Stockfish's best at the given depth, or a mate as short as the best?

    python3 tools/puzzle-check.py [--file assets/puzzles.csv] [--sample 100] [--depth 18]

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
    for pid, fen, moves, rating, tags in (r[:5] for r in sample):
        board = chess.Board(fen)
        moves = moves.split()
        board.push_uci(moves[0])
        first = chess.Move.from_uci(moves[1])
        info = engine.analyse(board, chess.engine.Limit(depth=args.depth))
        best = info["pv"][0]
        ok = best == first
        if not ok:
            # An equally short mate counts.
            mate = info["score"].pov(board.turn).mate()
            if mate is not None and mate > 0:
                board.push(first)
                after = engine.analyse(board, chess.engine.Limit(depth=args.depth))
                board.pop()
                theirs = after["score"].pov(not board.turn).mate()
                ok = theirs is not None and theirs <= mate
        band = f"{int(rating) // 200 * 200}-{int(rating) // 200 * 200 + 199}"
        bands[band] += 1
        for t in tags.split():
            themes[t] += 1
        if ok:
            agree += 1
            bands_ok[band] += 1
            for t in tags.split():
                themes_ok[t] += 1
        else:
            wrong.append(f"{pid} {fen} {moves[0]}: puzzle {moves[1]}, Stockfish {best.uci()} ({info['score'].pov(board.turn)})")
    engine.quit()
    print(f"{agree} of {len(sample)} puzzles: the first move is Stockfish's best at depth {args.depth} (or as short a mate)")
    print("\n| rating | puzzles | agree |\n|---|---|---|")
    for band in sorted(bands):
        print(f"| {band} | {bands[band]} | {bands_ok[band]} |")
    print("\n| theme | puzzles | agree |\n|---|---|---|")
    for t, n in themes.most_common():
        print(f"| {t} | {n} | {themes_ok[t]} |")
    for w in wrong:
        print("disagrees:", w)


if __name__ == "__main__":
    main()
