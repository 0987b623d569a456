#!/usr/bin/env python3
"""Where Knightfall's games go wrong: Stockfish's judgement along a match's games.

    python3 tools/drift.py MATCH.pgn [--nodes 100000] [--cache target/drift.jsonl]

For every game of a `../shared/tools/match.py --pgn` file, Stockfish (full strength, one thread,
`--nodes` a position) scores the position after each of Knightfall's moves, from Knightfall's
side. The report gives

- the mean and median of that score by ply (how far behind the games drift, and when),
- the mean change from one of Knightfall's moves to its next and the count of drops of more than
  a pawn, by the number of pieces on the board (which phase loses the points), and
- on the quiet positions among them (no capture just made, not in check, nothing hanging), the
  correlation of Knightfall's static evaluation (`knightfall eval`) with Stockfish's score, by
  the number of pieces (how much the evaluation knows about the positions the engine chooses).

The Stockfish scores are cached in `--cache` (one JSON line a game), so a second run only does
the cheap part. Needs python-chess, Debian's `stockfish` and a built `knightfall`
(`$KNIGHTFALL_BIN`, default `target/release/knightfall`). A measurement, not a tuning source:
the labels the weights are fitted to come from `tools/sf-label.py`, on self-play positions,
never from the games of a match against Stockfish.
"""
import argparse
import json
import os
import statistics
import subprocess

import chess
import chess.engine
import chess.pgn

import knightfall_tools

VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9,
         chess.KING: 100}


def games(path):
    with open(path) as f:
        while (game := chess.pgn.read_game(f)) is not None:
            yield game


def trajectories(args):
    """One record a game: Knightfall's colour, and (ply, score, pieces, fen, quiet) after each
    of its moves, Stockfish's score in centipawns from Knightfall's side."""
    done = []
    if os.path.exists(args.cache):
        with open(args.cache) as f:
            done = [json.loads(line) for line in f]
    all_games = list(games(args.pgn))
    if len(done) >= len(all_games):
        return done[: len(all_games)]
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(nodes=args.nodes)
    with open(args.cache, "a") as out:
        for game in all_games[len(done):]:
            ours = chess.WHITE if game.headers.get("White") == "knightfall" else chess.BLACK
            board = game.board()
            points = []
            for ply, move in enumerate(game.mainline_moves(), 1):
                mover = board.turn
                capture = board.is_capture(move)
                board.push(move)
                if mover != ours:
                    continue
                score = engine.analyse(board, limit)["score"].pov(ours).score(mate_score=10000)
                quiet = not capture and not board.is_check() and not can_win_material(board)
                points.append((ply, score, len(board.piece_map()), board.fen(), quiet))
            record = {"white": ours == chess.WHITE, "points": points}
            out.write(json.dumps(record) + "\n")
            out.flush()
            done.append(record)
    engine.quit()
    return done


def can_win_material(board):
    """The side to move can take something undefended or worth more than the taker."""
    for move in board.legal_moves:
        victim = board.piece_at(move.to_square)
        if victim is None:
            continue
        taker = board.piece_at(move.from_square)
        if VALUE[victim.piece_type] > VALUE[taker.piece_type] or not board.is_attacked_by(
                not board.turn, move.to_square):
            return True
    return False


def clip(cp):
    return max(-600, min(600, cp))


def static_eval(binary, fen):
    out = subprocess.run([binary, "eval", fen], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1])


def bucket(pieces):
    return f"{pieces // 6 * 6:2d}-{pieces // 6 * 6 + 5:2d}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pgn")
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--cache", default=knightfall_tools.output("drift.jsonl"))
    parser.add_argument("--stockfish", default=knightfall_tools.stockfish())
    args = parser.parse_args()
    binary = knightfall_tools.knightfall_binary()
    records = trajectories(args)
    print(f"{len(records)} games; Stockfish at {args.nodes} nodes, Knightfall's side")

    print("\nscore after Knightfall's move, by ply (clipped to +-600)")
    for ply in (9, 15, 21, 31, 41, 61, 81):
        at = [clip(next(p[1] for p in r["points"] if p[0] >= ply))
              for r in records if any(p[0] >= ply for p in r["points"])]
        if len(at) > 1:
            print(f"  ply {ply:3d}: {len(at):4d} games, mean {statistics.mean(at):5.0f}, "
                  f"median {statistics.median(at):5.0f}")

    print("\nchange from one of Knightfall's moves to its next, by pieces on the board")
    changes = {}
    for r in records:
        for a, b in zip(r["points"], r["points"][1:]):
            changes.setdefault(bucket(b[2]), []).append(clip(b[1]) - clip(a[1]))
    for key in sorted(changes):
        c = changes[key]
        print(f"  {key} pieces: {len(c):5d} moves, mean {statistics.mean(c):6.1f}, "
              f"drops over 100: {sum(d < -100 for d in c)}")

    print("\nKnightfall's static evaluation against Stockfish's score, quiet positions")
    pairs = {}
    for r in records:
        sign = 1 if r["white"] else -1
        for ply, score, pieces, fen, quiet in r["points"]:
            if quiet and abs(score) < 400:
                pairs.setdefault(bucket(pieces), []).append(
                    (sign * static_eval(binary, fen), score))
    for key in sorted(pairs):
        xs, ys = zip(*pairs[key])
        if len(xs) > 2:
            print(f"  {key} pieces: {len(xs):5d} positions, correlation "
                  f"{statistics.correlation(xs, ys):6.3f}, mean |difference| "
                  f"{statistics.mean(abs(x - y) for x, y in pairs[key]):5.0f}")


if __name__ == "__main__":
    main()
