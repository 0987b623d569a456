#!/usr/bin/env python3
"""Balances a rated puzzle file (`knightfall puzzles rate`'s output) into the built-in set: every
puzzle of more than one move stays, and one-move puzzles join them, the most instructive first,
while one-movers stay at most --one-move of the set and no 100-point rating band holds more than
--band of it.

    python3 tools/balance-puzzles.py --file RATED.csv [--out assets/puzzles.csv]
        [--one-move 0.4] [--band 0.2]

One-movers are taken in this order: a mate; another tactic (a fork, skewer, pin, discovered
attack, trapped piece, sacrifice, promotion or defensive move); a quiet winning move; a piece
left hanging. Within each, the one whose 100-point band holds fewest puzzles so far, then the
harder, then by id. The set is written easiest first (rating, then id), in the file's own layout.
"""
import argparse
import collections

HEADER = "PuzzleId,FEN,Moves,Rating,Themes"
MATES = {"mate", "mateIn1", "backRankMate"}
TACTICS = {
    "fork",
    "skewer",
    "pin",
    "discoveredAttack",
    "trappedPiece",
    "sacrifice",
    "promotion",
    "defensiveMove",
}


def rank(themes):
    """How instructive a one-mover is: 0 (a mate) first, 3 (a piece left hanging) last."""
    if themes & MATES:
        return 0
    if themes & TACTICS:
        return 1
    if "hangingPiece" not in themes:
        return 2
    return 3


def band(rating):
    return rating // 100 * 100


def choose(multi, ones, one_share, band_share):
    """The one-movers joining `multi`: as many as the shares allow, the most instructive first
    and, among those as instructive, the one in the emptiest band."""
    # The set's size decides the caps and the caps decide the size: start from the most the
    # one-move share allows and shrink until every chosen puzzle fits.
    size = int(len(multi) / (1 - one_share))
    while True:
        cap = int(band_share * size)
        bands = collections.Counter(band(r[3]) for r in multi)
        quota = size - len(multi)
        chosen = []
        for level in sorted({rank(set(r[4].split())) for r in ones}):
            left = [r for r in ones if rank(set(r[4].split())) == level]
            while left and len(chosen) < quota:
                fits = [r for r in left if bands[band(r[3])] < cap]
                if not fits:
                    break
                row = min(fits, key=lambda r: (bands[band(r[3])], -r[3], r[0]))
                left.remove(row)
                bands[band(row[3])] += 1
                chosen.append(row)
        total = len(multi) + len(chosen)
        if max(bands.values()) <= band_share * total and len(chosen) <= one_share * total:
            return chosen
        size -= 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", required=True)
    ap.add_argument("--out", default="assets/puzzles.csv")
    ap.add_argument("--one-move", type=float, default=0.4)
    ap.add_argument("--band", type=float, default=0.2)
    args = ap.parse_args()
    rows = []
    for line in open(args.file):
        if line.startswith("PuzzleId"):
            continue
        pid, fen, moves, rating, themes = line.rstrip("\n").split(",")[:5]
        rows.append((pid, fen, moves, int(rating), themes))
    multi = [r for r in rows if len(r[2].split()) > 2]
    ones = [r for r in rows if len(r[2].split()) == 2]
    chosen = choose(multi, ones, args.one_move, args.band)
    kept = sorted(multi + chosen, key=lambda r: (r[3], r[0]))
    with open(args.out, "w") as out:
        out.write(HEADER + "\n")
        for r in kept:
            out.write(f"{r[0]},{r[1]},{r[2]},{r[3]},{r[4]}\n")
    bands = collections.Counter(band(r[3]) for r in kept)
    print(f"{len(kept)} puzzles: {len(multi)} of more than one move, {len(chosen)} of one")
    print(f"one-move share {100 * len(chosen) / len(kept):.1f}%")
    print("| rating | puzzles | share |\n|---|---|---|")
    for b in sorted(bands):
        print(f"| {b}-{b + 99} | {bands[b]} | {100 * bands[b] / len(kept):.1f}% |")
    picked = collections.Counter(rank(set(r[4].split())) for r in chosen)
    offered = collections.Counter(rank(set(r[4].split())) for r in ones)
    for k, name in enumerate(["mate", "other tactic", "quiet", "hanging piece"]):
        print(f"one-movers, {name}: {picked[k]} of {offered[k]}")


if __name__ == "__main__":
    main()
