#!/usr/bin/env python3
"""How a build spends its clock: games against an opponent with both clocks recorded.

`../shared/tools/match.py` keeps the clocks but does not report them. This plays Knightfall
(`--kf`, a binary run as `BIN uci`) against Stockfish at a `UCI_Elo` (`--opp sf:2400`) or any
UCI command, from the shared openings, colours alternating, and prints each game's clocks at
moves 10, 20, ..., 80 and at its end, then the averages. Clocks are kept as match.py keeps
them: each move's wall time is charged to the mover, then the increment is added.

    python3 tools/clocks.py --kf target/release/knightfall --opp sf:2400 --games 6
"""

import argparse
import random
import statistics
import time

import chess
import chess.engine

import knightfall_tools

MARKS = [10, 20, 30, 40, 50, 60, 70, 80]


def open_opponent(spec):
    if spec.startswith("sf:"):
        engine = chess.engine.SimpleEngine.popen_uci(knightfall_tools.stockfish())
        engine.configure({"UCI_LimitStrength": True, "UCI_Elo": int(spec[3:])})
        return engine
    return chess.engine.SimpleEngine.popen_uci(spec.split())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kf", default=knightfall_tools.knightfall_binary())
    ap.add_argument("--opp", default="sf:2400")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--base", type=float, default=10.0, help="seconds")
    ap.add_argument("--inc", type=float, default=0.1, help="seconds")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--openings", default=knightfall_tools.shared("data/openings/openings-8ply.epd"))
    args = ap.parse_args()

    fens = [chess.Board.from_epd(l.strip())[0].fen() for l in open(args.openings) if l.strip()]
    rng = random.Random(args.seed)
    kf = chess.engine.SimpleEngine.popen_uci([args.kf, "uci"])
    opp = open_opponent(args.opp)
    games = []
    fen = fens[0]
    for g in range(args.games):
        if g % 2 == 0:
            fen = fens[rng.randrange(len(fens))]
        kf_white = g % 2 == 0
        board = chess.Board(fen)
        clocks = {chess.WHITE: args.base, chess.BLACK: args.base}
        at = {}
        for engine in (kf, opp):
            engine.protocol.send_line("ucinewgame")
        while not board.is_game_over(claim_draw=True) and board.ply() < 400:
            ours = board.turn == (chess.WHITE if kf_white else chess.BLACK)
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=args.inc,
                black_inc=args.inc,
            )
            start = time.monotonic()
            move = (kf if ours else opp).play(board, limit, game=g).move
            clocks[board.turn] += args.inc - (time.monotonic() - start)
            board.push(move)
            done = board.fullmove_number - 1
            if board.turn == chess.WHITE and done in MARKS:
                at[done] = (clocks[kf_white], clocks[not kf_white])
        end = (clocks[kf_white], clocks[not kf_white])
        marks = " ".join(f"m{m} {at[m][0]:.2f}/{at[m][1]:.2f}" for m in MARKS if m in at)
        print(
            f"game {g + 1}: knightfall {'white' if kf_white else 'black'} "
            f"{board.result(claim_draw=True)} in {board.fullmove_number} moves, clocks at the "
            f"end {end[0]:.2f}/{end[1]:.2f} | {marks}",
            flush=True,
        )
        games.append((at, end, board.fullmove_number))
    for m in MARKS:
        seen = [g[0][m] for g in games if m in g[0]]
        if seen:
            print(
                f"move {m}: knightfall {statistics.mean(s[0] for s in seen):.2f} s, "
                f"opponent {statistics.mean(s[1] for s in seen):.2f} s ({len(seen)} games)"
            )
    print(
        f"end: knightfall {statistics.mean(g[1][0] for g in games):.2f} s, opponent "
        f"{statistics.mean(g[1][1] for g in games):.2f} s, "
        f"{statistics.mean(g[2] for g in games):.1f} moves a game"
    )
    kf.quit()
    opp.quit()


if __name__ == "__main__":
    main()
