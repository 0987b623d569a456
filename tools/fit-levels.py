#!/usr/bin/env python3
"""Fits one Elo rating per player to the RESULT lines of ../shared/tools/match.py logs.

    python3 tools/fit-levels.py /tmp/levels/*.log

Players: `knightfall,Skill Level=N` is level N, plain `knightfall` (any options) is level 10,
`knightfall:--bot X` is bot X, `sf:ELO` is Stockfish with UCI_LimitStrength and is the anchor: its
rating is fixed at ELO. Draws count half. The fit is the maximum-likelihood Bradley-Terry rating
(Hunter's MM iteration, anchors held fixed); the 95% interval comes from 1000 parametric bootstrap
resamples of every match's wins, draws and losses. No dependencies beyond the standard library.
"""
import math
import random
import re
import sys

RESULT = re.compile(r"^RESULT (.+?) vs (.+?) tc=\S+: \+(\d+) =(\d+) -(\d+) ")


def player(spec):
    m = re.search(r"Skill Level=(\d+)", spec)
    if m:
        return f"L{m.group(1)}"
    m = re.match(r"knightfall:--bot (\w+)", spec)
    if m:
        return f"bot-{m.group(1)}"
    if spec.startswith("knightfall"):
        return "L10"
    m = re.match(r"sf:(\d+)", spec)
    if m:
        return f"sf{m.group(1)}"
    return spec


def anchor(name):
    m = re.fullmatch(r"sf(\d+)", name)
    return int(m.group(1)) if m else None


def read(paths):
    matches = []
    for path in paths:
        for line in open(path):
            m = RESULT.match(line)
            if m:
                a, b = player(m.group(1)), player(m.group(2))
                w, d, l = (int(m.group(i)) for i in (3, 4, 5))
                matches.append((a, b, w, d, l))
    return matches


def fit(matches, players, iterations=2000):
    """Ratings maximising the likelihood of the scores (draws as half points)."""
    gamma = {p: 10 ** ((anchor(p) or 1500) / 400) for p in players}
    score = {p: 0.0 for p in players}
    games = {p: [] for p in players}
    for a, b, w, d, l in matches:
        n = w + d + l
        score[a] += w + d / 2
        score[b] += l + d / 2
        games[a].append((b, n))
        games[b].append((a, n))
    free = [p for p in players if anchor(p) is None]
    for _ in range(iterations):
        change = 0.0
        for p in free:
            # A player with no points (or all of them) has no finite rating: keep it bounded.
            s = min(max(score[p], 0.25), sum(n for _, n in games[p]) - 0.25)
            new = s / sum(n / (gamma[p] + gamma[q]) for q, n in games[p])
            change = max(change, abs(math.log(new / gamma[p])))
            gamma[p] = new
        if not any(anchor(p) for p in players):
            # No anchor: centre the scale on the first player instead.
            g0 = gamma[players[0]] / 10 ** (1500 / 400)
            gamma = {p: g / g0 for p, g in gamma.items()}
        if change < 1e-9:
            break
    return {p: 400 * math.log10(g) for p, g in gamma.items()}


def resample(matches, rng):
    out = []
    for a, b, w, d, l in matches:
        n = w + d + l
        nw = nd = 0
        for _ in range(n):
            x = rng.random() * n
            if x < w:
                nw += 1
            elif x < w + d:
                nd += 1
        out.append((a, b, nw, nd, n - nw - nd))
    return out


def order(name):
    m = re.fullmatch(r"L(\d+)", name)
    return (0, int(m.group(1))) if m else (1, name)


def main():
    matches = read(sys.argv[1:])
    if not matches:
        sys.exit("no RESULT lines found")
    players = sorted({p for a, b, *_ in matches for p in (a, b)}, key=order)
    best = fit(matches, players)
    rng = random.Random(1)
    samples = {p: [] for p in players}
    for _ in range(1000):
        r = fit(resample(matches, rng), players, iterations=300)
        for p in players:
            samples[p].append(r[p])
    print("| match | games | score | result |")
    print("|---|---|---|---|")
    for a, b, w, d, l in matches:
        n = w + d + l
        print(f"| {a} vs {b} | {n} | {(w + d / 2) / n:.1%} | +{w} ={d} -{l} |")
    print()
    print("| player | Elo | 95% interval | games |")
    print("|---|---|---|---|")
    for p in players:
        n = sum(w + d + l for a, b, w, d, l in matches if p in (a, b))
        if anchor(p) is not None:
            print(f"| {p} | {anchor(p)} | anchor | {n} |")
            continue
        s = sorted(samples[p])
        lo, hi = s[int(0.025 * len(s))], s[int(0.975 * len(s)) - 1]
        print(f"| {p} | {best[p]:.0f} | {lo:.0f} to {hi:.0f} | {n} |")
    levels = [best.get(f"L{n}") for n in range(1, 11)]
    if all(x is not None for x in levels):
        print()
        print("LEVEL_ELO:", [round(x) for x in levels])
        print("monotonic:", all(a < b for a, b in zip(levels, levels[1:])))


if __name__ == "__main__":
    main()
