#!/usr/bin/env python3
"""Runs an EPD test suite with Knightfall at a fixed node count or a fixed time a position.

At a node count the number solved is the same on any machine however loaded.

    python3 tools/suite.py SUITE.epd [--nodes 400000 | --time 0.2 [--threads 2]] [--nice]

A position is solved when the move played is one of its `bm` moves and none of its `am`
moves. Prints the count solved and the ids of the rest. A node count keeps the search on one
thread (the engine's rule for node budgets); `--time` with `--threads 2` measures Lazy SMP.
`--nice` runs the engine at the lowest priority, for a fixed-node run beside a match.
"""
import argparse
import sys

import chess
import chess.engine

from knightfall_tools import knightfall_binary


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("suite")
    limit = ap.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int, help="nodes a position (default 400000)")
    limit.add_argument("--time", type=float, help="seconds a position")
    ap.add_argument("--threads", type=int, default=1, help="search threads (with --time)")
    ap.add_argument("--nice", action="store_true", help="run the engine at the lowest priority")
    ap.add_argument("--verbose", action="store_true", help="print every position's move")
    args = ap.parse_args()
    if args.threads != 1 and args.time is None:
        ap.error("--threads needs --time: a node count is searched on one thread")
    if args.time is not None:
        limit = chess.engine.Limit(time=args.time)
        what = f"{args.time:g} s"
    else:
        nodes = args.nodes or 400_000
        limit = chess.engine.Limit(nodes=nodes)
        what = f"{nodes} nodes"

    positions = []
    try:
        lines = open(args.suite).read().splitlines()
    except OSError as e:
        sys.exit(f"{args.suite}: {e.strerror}")
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        try:
            board, ops = chess.Board.from_epd(line)
        except ValueError as e:
            sys.exit(f"{args.suite}:{number}: {e}")
        if not board.is_valid():
            why = [f.name.lower() for f in chess.Status if f and f in board.status()]
            sys.exit(f"{args.suite}:{number}: not a legal position ({', '.join(why)})")
        if "bm" not in ops and "am" not in ops:
            sys.exit(f"{args.suite}:{number}: no bm or am")
        positions.append((board, ops, ops.get("id", f"line {number}")))

    command = [knightfall_binary(), "uci"]
    if args.nice:
        command = ["nice", "-n", "19"] + command
    try:
        engine = chess.engine.SimpleEngine.popen_uci(command)
    except OSError as e:
        sys.exit(f"{command[-2]}: {e.strerror} (build it with `cargo build --release`, or set KNIGHTFALL_BIN)")
    try:
        engine.configure({"OwnBook": False, "Threads": args.threads})
        failed = []
        for board, ops, name in positions:
            # A new game each time: nothing the last position left in the table helps.
            result = engine.play(board, limit, game=name)
            best, avoid = ops.get("bm", []), ops.get("am", [])
            ok = (not best or result.move in best) and result.move not in avoid
            if args.verbose:
                print(f"{name} {board.san(result.move)} {'ok' if ok else 'FAIL'}", flush=True)
            if not ok:
                failed.append(name)
    finally:
        engine.quit()
    solved = len(positions) - len(failed)
    print(f"{args.suite}: {solved} of {len(positions)} at {what}, {args.threads} thread(s)")
    if failed:
        print("failed:", " ".join(failed))


if __name__ == "__main__":
    main()
