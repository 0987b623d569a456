#!/usr/bin/env python3
"""Where does a review's judge agree with the reference, by the kind of position?

Reads the `--details` file of `tools/review-agreement.py` (a review's run, or Stockfish
against itself with `--self-reference`) and prints, for a flag of any kind, how many moves
both flagged, the judge alone, the reference alone, and precision, recall and F1, for each
kind of position. Each move counts in the first kind that fits:

- the reference sees a mate (or the game is over) before or after the move;
- decided: the reference has both sides of the move three pawns or more from level;
- the first ten moves of the game;
- an ending: 12 men or fewer;
- the middlegame: the rest.

    python3 tools/agreement-by-kind.py moves.tsv [more.tsv ...]
"""

import csv
import sys

import chess

KINDS = ["mate", "decided", "first ten moves", "ending", "middlegame"]


def number(text):
    """A centipawn score, or None for a mate, a tablebase result or nothing."""
    try:
        return int(text)
    except ValueError:
        return None


def kind(row):
    before, after = number(row["stockfish before"]), number(row["stockfish after"])
    if before is None or after is None:
        return "mate"
    if min(abs(before), abs(after)) >= 300:
        return "decided"
    if int(row["ply"]) <= 20:
        return "first ten moves"
    if len(chess.Board(row["fen"]).piece_map()) <= 12:
        return "ending"
    return "middlegame"


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        counts = {k: [0, 0, 0, 0] for k in KINDS + ["all"]}
        with open(path) as f:
            for row in csv.DictReader(f, delimiter="\t"):
                judge, reference = row["review"] != "none", row["stockfish"] != "none"
                for k in (kind(row), "all"):
                    c = counts[k]
                    c[0] += judge and reference
                    c[1] += judge and not reference
                    c[2] += reference and not judge
                    c[3] += 1
        print(path)
        print("| moves | count | both | judge only | reference only | precision | recall | F1 |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        for k in KINDS + ["all"]:
            both, judge_only, reference_only, moves = counts[k]
            p = both / max(both + judge_only, 1)
            r = both / max(both + reference_only, 1)
            f1 = 2 * p * r / max(p + r, 1e-9)
            print(f"| {k} | {moves} | {both} | {judge_only} | {reference_only} "
                  f"| {p:.2f} | {r:.2f} | {f1:.2f} |")
        print()


if __name__ == "__main__":
    main()
