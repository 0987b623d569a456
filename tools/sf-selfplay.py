#!/usr/bin/env python3
"""Tuning data from Stockfish's games instead of Knightfall's own.

Plays Stockfish against itself at a fixed node count from the shared 8-ply openings with a few
random plies on top, and writes the quiet positions (not in check, the move played neither a
capture nor a promotion, no mate score) with the game's result, in the format
`knightfall-tune fit --data` reads: `FEN;RESULT;GAME;SCORE` (RESULT for White: 1.0, 0.5 or 0.0;
SCORE Stockfish's search score in centipawns, White's view, for `fit --score-weight`).
Games end by the rules, by the 3-4-5 piece tablebases in ../shared/syzygy, or when the
score stays beyond 10 pawns for eight plies. Games the random plies leave lopsided (more
than 3 pawns at the first move) are dropped, as in `knightfall-tune gen`.

The results then say what a much stronger player made of each position, which is what the
Texel fit wants to learn (Zurichess's well-known `quiet-labeled` set was made the same way).

    tools/sf-selfplay.py --games 2000 --nodes 8000 --seed 1 --out DATA.txt [--jobs 2]

Needs python-chess and Debian's stockfish (see ../shared/tools/README.md).
"""

import argparse
import multiprocessing
import random
import sys

import chess
import chess.engine
import chess.syzygy

import knightfall_tools

STOCKFISH = knightfall_tools.stockfish()


def play(engine, tablebase, board, nodes, rng, game):
    for _ in range(2 + rng.randrange(5)):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(rng.choice(moves))
    positions = []
    decisive = 0
    for ply in range(400):
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            if outcome.winner is None:
                return positions, 0.5
            return positions, 1.0 if outcome.winner == chess.WHITE else 0.0
        if chess.popcount(board.occupied) <= 5:
            try:
                wdl = tablebase.probe_wdl(board)
            except (KeyError, chess.syzygy.MissingTableError):
                wdl = None
            if wdl is not None:
                mover = 0.5 if wdl == 0 else (1.0 if wdl > 0 else 0.0)
                return positions, mover if board.turn == chess.WHITE else 1.0 - mover
        # A new `game` makes python-chess send ucinewgame (a fresh hash table each game).
        result = engine.play(
            board, chess.engine.Limit(nodes=nodes), game=game, info=chess.engine.INFO_SCORE
        )
        move = result.move
        if move is None:
            return None
        score = result.info.get("score")
        pov = score.pov(board.turn) if score is not None else None
        cp = pov.score() if pov is not None else None
        if ply == 0 and cp is not None and abs(cp) > 300:
            return None
        if pov is not None and (pov.is_mate() or abs(cp) >= 1000):
            decisive += 1
            if decisive >= 8:
                winning = pov.is_mate() and pov.mate() > 0 or (cp is not None and cp > 0)
                mover = 1.0 if winning else 0.0
                return positions, mover if board.turn == chess.WHITE else 1.0 - mover
        else:
            decisive = 0
        if (
            not board.is_check()
            and not board.is_capture(move)
            and move.promotion is None
            and pov is not None
            and not pov.is_mate()
        ):
            positions.append((board.fen(), cp if board.turn == chess.WHITE else -cp))
        board.push(move)
    return positions, 0.5


def worker(args, job, openings, queue):
    rng = random.Random(args.seed * 1000 + job)
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    tablebase = chess.syzygy.open_tablebase(args.syzygy)
    for game in range(job, args.games, args.jobs):
        board = chess.Board(rng.choice(openings))
        played = play(engine, tablebase, board, args.nodes, rng, game)
        queue.put((game, played))
    engine.quit()
    queue.put(None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--nodes", type=int, default=8000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--openings", default=knightfall_tools.shared("data/openings/openings-8ply.epd"))
    parser.add_argument("--syzygy", default=knightfall_tools.shared("syzygy"))
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    with open(args.openings) as f:
        openings = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
    queue = multiprocessing.Queue()
    jobs = [
        multiprocessing.Process(target=worker, args=(args, j, openings, queue))
        for j in range(args.jobs)
    ]
    for j in jobs:
        j.start()
    running, games, positions = len(jobs), 0, 0
    results = {1.0: 0, 0.5: 0, 0.0: 0}
    with open(args.out, "w") as out:
        while running:
            item = queue.get()
            if item is None:
                running -= 1
                continue
            game, played = item
            if played is None:
                continue
            fens, result = played
            games += 1
            results[result] += 1
            positions += len(fens)
            for fen, score in fens:
                out.write(f"{fen};{result:.1f};{game};{score}\n")
            if games % 100 == 0:
                out.flush()
                print(
                    f"{games} games, {positions} positions (White wins {results[1.0]}, "
                    f"draws {results[0.5]}, Black wins {results[0.0]})",
                    file=sys.stderr,
                    flush=True,
                )
    for j in jobs:
        j.join()
    print(
        f"{games} games, {positions} positions (White wins {results[1.0]}, "
        f"draws {results[0.5]}, Black wins {results[0.0]}) in {args.out}",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
