#!/usr/bin/env python3
"""Stockfish's scores for positions Knightfall's own games reached.

Reads tuning data in `knightfall-tune`'s format (`FEN;RESULT;GAME`, as `knightfall-tune gen`
writes it), keeps every `--every`-th position, asks Stockfish 15.1 at full strength for a
fixed-node search of each, and writes `FEN;RESULT;GAME;SCORE` (SCORE in centipawns, White's
view), the format `knightfall-tune fit --score-weight` reads. Positions Stockfish sees a mate
in are dropped (the fit wants evaluations, not mates).

Why: game results are a weak label for a single position (a 6,000-node self-play game says
little about its 40th move), and Stockfish's own games (`tools/sf-selfplay.py`) reach
positions unlike the ones this engine steers into. These are this engine's positions with a
far better judge's score. See CHANGELOG.md for what the fits made of it.

    tools/sf-label.py --data SELFPLAY.txt --every 5 --nodes 20000 --jobs 2 --out LABELED.txt
    tools/sf-label.py --data SELFPLAY.txt --every 10 --offsets 2,8 ... (other positions)

Needs python-chess and Debian's stockfish (see ../shared/tools/README.md).
"""

import argparse
import multiprocessing
import sys

import chess
import chess.engine

import knightfall_tools

STOCKFISH = knightfall_tools.stockfish()


def label(job):
    lines, nodes = job
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    out = []
    try:
        for line in lines:
            fields = line.strip().split(";")
            if len(fields) < 3:
                continue
            board = chess.Board(fields[0])
            info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
            score = info["score"].white()
            if score.is_mate():
                continue
            out.append(f"{fields[0]};{fields[1]};{fields[2]};{score.score()}")
    finally:
        engine.quit()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", required=True, help="FEN;RESULT;GAME lines")
    ap.add_argument("--out", required=True)
    ap.add_argument("--every", type=int, default=1, help="keep every N-th position")
    ap.add_argument(
        "--offsets",
        default="0",
        help="which positions of each --every to keep, comma-separated (0 is the first), so "
        "that later runs label positions earlier ones did not",
    )
    ap.add_argument("--nodes", type=int, default=20000)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()

    with open(args.data) as f:
        every = max(1, args.every)
        offsets = {int(o) % every for o in args.offsets.split(",")}
        lines = [line for i, line in enumerate(f) if i % every in offsets]
    chunk = 2000
    jobs = [(lines[i : i + chunk], args.nodes) for i in range(0, len(lines), chunk)]
    written = 0
    with open(args.out, "w") as out, multiprocessing.Pool(max(1, args.jobs)) as pool:
        for done, result in enumerate(pool.imap(label, jobs), 1):
            for row in result:
                out.write(row + "\n")
            written += len(result)
            out.flush()
            print(f"{done}/{len(jobs)} chunks, {written} positions", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
