#!/usr/bin/env python3
"""How much do Knightfall's middlegame moves lose, by Stockfish's judgement, build against build?

A 200-game match against `sf:2400` takes two hours and its interval is about +-35 Elo, and
self-play screens have not predicted that opponent (CHANGELOG.md). `tools/drift.py` showed where
those games are lost: a few centipawns a move through the middlegame. This measures that
directly, on the same positions for every build: positions where Knightfall was to move in
match games (`match.py --pgn`), with `--min-pieces` to `--max-pieces` on the board, past the
book; each build picks its move at a fixed node count (so the result does not depend on the
machine's load, and two runs agree), and Stockfish at a fixed depth scores the position after
each build's move and after its own best move. A move's loss is Stockfish's move's score minus
its own (0 when it scores higher; at most `--clip`), so figures from runs with other builds
compare. Printed: each build's mean loss and its count of moves losing
more than a pawn, and for each build after the first the mean paired difference from the first
with its 95% interval (positive: the later build loses less).

    python3 tools/move-loss.py --pgn A.pgn [--pgn B.pgn] --engine BIN1 --engine BIN2 \\
        [--nodes 200000] [--depth 14] [--positions 600]

Needs python-chess and Debian's stockfish (/usr/games/stockfish).
"""

import argparse
import math
import random

import chess
import chess.engine
import chess.pgn

import knightfall_tools


def positions(paths, name, lo, hi, min_ply, count, seed):
    """FENs where the engine called `name` was to move: a sample drawn with `seed`."""
    found = []
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                ours = chess.WHITE if name in game.headers.get("White", "") else chess.BLACK
                board = game.board()
                for ply, move in enumerate(game.mainline_moves()):
                    pieces = chess.popcount(board.occupied)
                    if (
                        board.turn == ours
                        and ply >= min_ply
                        and lo <= pieces <= hi
                        and not board.is_check()
                    ):
                        found.append(board.fen())
                    board.push(move)
    random.Random(seed).shuffle(found)
    return found[:count]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pgn", action="append", required=True, help="match.py --pgn files")
    ap.add_argument("--engine", action="append", required=True, help="Knightfall binaries")
    ap.add_argument("--name", default="knightfall", help="the engine's name in the PGN headers")
    ap.add_argument("--nodes", type=int, default=200_000, help="each build's nodes a move")
    ap.add_argument("--depth", type=int, default=14, help="Stockfish's depth per position scored")
    ap.add_argument("--positions", type=int, default=600)
    ap.add_argument("--min-pieces", type=int, default=18)
    ap.add_argument("--max-pieces", type=int, default=29)
    ap.add_argument("--min-ply", type=int, default=20, help="skip the opening (book) plies")
    ap.add_argument("--clip", type=int, default=500, help="largest loss counted, centipawns")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    fens = positions(
        args.pgn, args.name, args.min_pieces, args.max_pieces, args.min_ply, args.positions,
        args.seed,
    )
    sf = chess.engine.SimpleEngine.popen_uci(knightfall_tools.stockfish())
    sf.configure({"Threads": 1, "Hash": 64})
    builds = []
    for binary in args.engine:
        kf = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
        kf.configure({"OwnBook": False, "Threads": 1, "Hash": 16})
        builds.append(kf)

    losses = [[] for _ in builds]
    moves = [[] for _ in builds]
    for n, fen in enumerate(fens, 1):
        board = chess.Board(fen)
        cache = {}

        def score_after(move):
            if move not in cache:
                board.push(move)
                info = sf.analyse(board, chess.engine.Limit(depth=args.depth), game=object())
                board.pop()
                # From the side that played `move`.
                cache[move] = info["score"].pov(board.turn).score(mate_score=10000)
            return cache[move]

        best = sf.analyse(board, chess.engine.Limit(depth=args.depth), game=object())["pv"][0]
        # A fresh game for every search, so no build keeps hash entries from the last position.
        played = [
            kf.play(board, chess.engine.Limit(nodes=args.nodes), game=object()).move
            for kf in builds
        ]
        # Measured from Stockfish's own move alone, so that a run's figures do not depend on
        # which other builds it compares; a move scored above it loses nothing.
        top = score_after(best)
        for i, move in enumerate(played):
            losses[i].append(max(0, min(args.clip, top - score_after(move))))
            moves[i].append(move)
        if n % 50 == 0 or n == len(fens):
            print(
                f"{n}/{len(fens)}: "
                + ", ".join(f"{sum(x) / len(x):.1f}" for x in losses),
                flush=True,
            )

    sf.quit()
    for kf in builds:
        kf.quit()
    print(
        f"{len(fens)} positions ({args.min_pieces} to {args.max_pieces} pieces, from ply "
        f"{args.min_ply}), {args.nodes} nodes a move, Stockfish depth {args.depth}"
    )
    for i, binary in enumerate(args.engine):
        x = losses[i]
        line = (
            f"{binary}: mean loss {sum(x) / len(x):.2f} cp, "
            f"over 100: {sum(v > 100 for v in x)}, same move as the first: "
            f"{sum(a == b for a, b in zip(moves[i], moves[0]))}"
        )
        if i > 0:
            d = [a - b for a, b in zip(losses[0], x)]
            mean = sum(d) / len(d)
            sd = math.sqrt(sum((v - mean) ** 2 for v in d) / max(1, len(d) - 1))
            half = 1.96 * sd / math.sqrt(len(d))
            line += f"; loses {mean:+.2f} cp less than the first [{mean - half:+.2f}, {mean + half:+.2f}]"
        print(line)


if __name__ == "__main__":
    main()
