#!/usr/bin/env python3
"""Compare two match.py logs game slot by game slot.

Two runs of `../shared/tools/match.py` with the same `--seed`, `--openings` and `--b` play the
same opening with the same colours in game N, so the engine under test can be compared slot by
slot: how often the new build scored more, less or the same, and both scores on the slots both
runs played. That is a fairer look at a stopped run than its total against the other run's
total over different games.

    python3 tools/paired.py NEW.log BASE.log [--engine knightfall]
"""

import argparse
import math
import re
import sys

GAME = re.compile(r"^game (\d+): (\S+) vs (\S+) (1-0|0-1|1/2-1/2)")


def points(path, engine):
    """The engine's points in each game of a match.py log, by game number."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = GAME.match(line)
            if not m:
                continue
            number, white, black, result = m.groups()
            if engine not in (white, black):
                sys.exit(f"{path}: game {number} has no player named {engine!r}")
            white_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            out[int(number)] = white_points if white == engine else 1.0 - white_points
    return out


def elo(score):
    """Elo difference for a score fraction (clamped away from 0 and 1)."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400 * math.log10(1 / score - 1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new")
    parser.add_argument("base")
    parser.add_argument("--engine", default="knightfall", help="the player compared")
    args = parser.parse_args()
    new = points(args.new, args.engine)
    base = points(args.base, args.engine)
    common = sorted(set(new) & set(base))
    if not common:
        sys.exit("the logs have no game number in common")
    better = sum(new[n] > base[n] for n in common)
    worse = sum(new[n] < base[n] for n in common)
    same = len(common) - better - worse
    new_score = sum(new[n] for n in common) / len(common)
    base_score = sum(base[n] for n in common) / len(common)
    # Standard error of the mean per-slot difference, for a rough interval.
    diffs = [new[n] - base[n] for n in common]
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / max(len(diffs) - 1, 1)
    se = math.sqrt(var / len(diffs))
    print(f"{len(common)} common slots: new {100 * new_score:.1f}% ({elo(new_score):+.0f}), "
          f"base {100 * base_score:.1f}% ({elo(base_score):+.0f})")
    print(f"new better in {better}, worse in {worse}, same in {same}; "
          f"difference {100 * mean:+.1f} points per game, 95% [{100 * (mean - 1.96 * se):+.1f}, "
          f"{100 * (mean + 1.96 * se):+.1f}]")


if __name__ == "__main__":
    main()
