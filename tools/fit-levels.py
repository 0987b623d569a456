#!/usr/bin/env python3
"""Fits one Elo rating per player to the RESULT lines of ../shared/tools/match.py logs.

    python3 tools/fit-levels.py target/levels/*.log

Players: `knightfall,Skill Level=N` is level N, plain `knightfall` (any options) is level 10,
`knightfall:--bot X` is bot X, `sf:ELO` is Stockfish with UCI_LimitStrength and is the anchor: its
rating is fixed at ELO. Draws count half. The fit is the maximum-likelihood Bradley-Terry rating
(Newton's method, anchors held fixed); the 95% interval comes from 300 parametric bootstrap
resamples of every match's wins, draws and losses.

Games among the levels and bots spread ratings further than games against Stockfish (an engine
meets its own kind of weakness every game): with two anchors the fit measures that stretch c and
counts a difference in those games c times, so the published ratings stay on Stockfish's scale. No dependencies beyond the standard library.
"""
import math
import random
import re
import sys

BOOTSTRAP = 300
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


def expected(ra, rb, scale):
    return 1 / (1 + 10 ** ((rb - ra) * scale / 400))


def stretch(a, b, c):
    """How much a rating difference counts in a game between a and b: matches with Stockfish
    count at face value, matches among our own levels and bots c times as much."""
    return 1.0 if anchor(a) is not None or anchor(b) is not None else c


def fit(matches, players, c=1.0, iterations=50):
    """Ratings maximising the likelihood of the scores (draws as half points), by Newton's method
    on the logistic model; anchors stay fixed (without any, the first player is held at 1500)."""
    fixed = {p: anchor(p) for p in players if anchor(p) is not None} or {players[0]: 1500}
    free = [p for p in players if p not in fixed]
    index = {p: i for i, p in enumerate(free)}
    r = {p: float(fixed.get(p, 1500)) for p in players}
    k = math.log(10) / 400
    for _ in range(iterations):
        n = len(free)
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for a, b, w, d, l in matches:
            games = w + d + l
            # A whitewash has no finite maximum: count it as a quarter point short of perfect.
            score = min(max(w + d / 2, 0.25), games - 0.25)
            sc = stretch(a, b, c)
            e = expected(r[a], r[b], sc)
            g = k * sc * (score - games * e)
            h = (k * sc) ** 2 * games * e * (1 - e)
            for p, sign in ((a, 1), (b, -1)):
                if p in index:
                    grad[index[p]] += sign * g
                    hess[index[p]][index[p]] += h
            if a in index and b in index:
                hess[index[a]][index[b]] -= h
                hess[index[b]][index[a]] -= h
        step = solve(hess, grad)
        for p in free:
            r[p] += max(-400.0, min(400.0, step[index[p]]))
        if max((abs(x) for x in step), default=0) < 1e-6:
            break
    return r


def likelihood(matches, r, c):
    total = 0.0
    for a, b, w, d, l in matches:
        e = min(max(expected(r[a], r[b], stretch(a, b, c)), 1e-12), 1 - 1e-12)
        total += (w + d / 2) * math.log(e) + (l + d / 2) * math.log(1 - e)
    return total


def fit_all(matches, players):
    """Ratings and the self-play stretch c, by golden-section search on c (1 to 4) when two
    anchors make c measurable, else c = 1."""
    if len({p for p in players if anchor(p) is not None}) < 2:
        return fit(matches, players), 1.0
    lo, hi = 1.0, 4.0
    phi = (math.sqrt(5) - 1) / 2
    x1, x2 = hi - phi * (hi - lo), lo + phi * (hi - lo)
    f = lambda c: likelihood(matches, fit(matches, players, c), c)
    f1, f2 = f(x1), f(x2)
    while hi - lo > 0.005:
        if f1 > f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - phi * (hi - lo)
            f1 = f(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + phi * (hi - lo)
            f2 = f(x2)
    c = (lo + hi) / 2
    return fit(matches, players, c), c


def solve(m, v):
    """Solves m x = v by Gaussian elimination with partial pivoting."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda i: abs(a[i][c]))
        a[c], a[pivot] = a[pivot], a[c]
        for i in range(c + 1, n):
            f = a[i][c] / a[c][c]
            for j in range(c, n + 1):
                a[i][j] -= f * a[c][j]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (a[i][n] - sum(a[i][j] * x[j] for j in range(i + 1, n))) / a[i][i]
    return x


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
    if not sys.argv[1:] or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if sys.argv[1:] else 2)
    matches = read(sys.argv[1:])
    if not matches:
        sys.exit("no RESULT lines found")
    players = sorted({p for a, b, *_ in matches for p in (a, b)}, key=order)
    best, c = fit_all(matches, players)
    rng = random.Random(1)
    samples = {p: [] for p in players}
    stretches = []
    for _ in range(BOOTSTRAP):
        r, cs = fit_all(resample(matches, rng), players)
        stretches.append(cs)
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
    stretches.sort()
    print()
    print(f"self-play stretch c = {c:.2f} (95%: {stretches[int(0.025 * BOOTSTRAP)]:.2f} to "
          f"{stretches[int(0.975 * BOOTSTRAP) - 1]:.2f})")
    levels = [best.get(f"L{n}") for n in range(1, 11)]
    if all(x is not None for x in levels):
        print()
        print("LEVEL_ELO:", [round(x) for x in levels])
        print("monotonic:", all(a < b for a, b in zip(levels, levels[1:])))


if __name__ == "__main__":
    main()
