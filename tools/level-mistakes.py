#!/usr/bin/env python3
"""How often does each playing level hang material, and how often does it blunder?

A weaker level should lose by the kind of mistakes a weaker person makes, not by leaving a
queen where a pawn takes it. This plays each level against itself and measures, over every
move the level made (both colours), two things side by side:

hangs material / hangs a piece: a static, material-only test (P=1, N=B=3, R=5, Q=9, counted
    from the pieces on the board, so promotions count). Q(position) is a quiescence search over
    captures and promotions in which both sides may stand pat, from the side to move's view.
    For the move played, its value is -Q(after the move): the mover's material once the
    opponent has made its best capture sequence. Three figures follow:
      taken     = material right after the move - that value (what the opponent's captures win);
      loss      = Q(before the move, mover to move) - that value;
      avoidable = best value over all legal moves (one ply, then Q) - that value.
    A move hangs material when loss, avoidable and taken are all at least 1 pawn, and hangs a
    piece when all are at least 3. `avoidable` keeps forced losses out (when every move drops a
    piece, none of them hangs one); `taken` keeps out moves that merely miss a capture or a
    recapture, since nothing of the mover's is then taken. (`loss` is never below
    `avoidable`, as a stand-pat search is never worse than the best move.) Checks are not
    followed: a side in check may stand pat too, so a check that only delays a loss by a move
    counts as saving the material.
SF blunders / mistakes: Stockfish at a fixed depth scores the position before the move (its
    best play) and after it, both from the mover's view, as lichess's winning chances
    2 / (1 + exp(-0.00368208 * cp)) - 1 with cp clamped to +-1000 and a mate as +-1. A drop of
    at least 0.3 is a blunder, of at least 0.2 a mistake (the blunders included). The mean
    centipawn loss uses the same two scores (a mate as +-1000), each move's loss clipped to
    0..1000. A position the game ended in by the rules (mate, stalemate, a draw that can be
    claimed, too little material) is scored by the rules instead of by Stockfish.

Games: for each level, `--games` self-play games from the shared 8-ply openings (the same
openings, picked with `--seed`, for every level), `go movetime 100` a move (levels 1-9 are
capped by depth and nodes, so the time hardly matters below level 10), a new game
(`ucinewgame`) each, stopped 150 plies after the opening or when the rules end it. The level
is the UCI option `Skill Level`, with `OwnBook` off so that every move is the level's own; a
move that the engine still reports as a book move (`info string book move ...`) is marked
"book" in the PGN and left out of the counts.

    python3 tools/level-mistakes.py [--engine BIN] [--levels 1-10] [--games 8] [--depth 12] \\
        [--jobs 1] [--seed 1] [--pgn-out FILE]
    python3 tools/level-mistakes.py --from-pgn FILE [--depth 12]   # games already played
    python3 tools/level-mistakes.py --self-test                    # checks the hang test

With `--from-pgn` the level of each side is read from the White and Black headers
("... level N"). Prints a Markdown table, the command line above it.

Needs python-chess and Debian's stockfish (/usr/games/stockfish); `--engine` defaults to
$KNIGHTFALL_BIN or target/release/knightfall.
"""

import argparse
import io
import math
import multiprocessing
import multiprocessing.util
import random
import shlex
import sys
import time

import chess
import chess.engine
import chess.pgn

import knightfall_tools

OPENINGS = knightfall_tools.shared("data/openings/openings-8ply.epd")
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
MAX_PLIES = 150
MOVETIME = 0.1
BLUNDER = 0.3
MISTAKE = 0.2
CP_CLIP = 1000


# The material-only capture search.


def material(board, colour):
    """`colour`'s material minus the other side's."""
    total = 0
    for piece, value in VALUES.items():
        total += value * (
            len(board.pieces(piece, colour)) - len(board.pieces(piece, not colour))
        )
    return total


def noisy_moves(board):
    """Legal captures and promotions, most valuable victim first, then least valuable attacker."""
    last_rank = chess.BB_RANK_8 if board.turn == chess.WHITE else chess.BB_RANK_1
    moves = list(board.generate_legal_captures())
    moves += list(board.generate_legal_moves(board.pawns & board.occupied_co[board.turn],
                                             last_rank & ~board.occupied))

    def order(move):
        victim = board.piece_type_at(move.to_square)
        if victim is None and board.is_en_passant(move):
            victim = chess.PAWN
        gain = VALUES.get(victim, 0) + (VALUES[move.promotion] - 1 if move.promotion else 0)
        return (-gain, VALUES.get(board.piece_type_at(move.from_square), 0))

    moves.sort(key=order)
    return moves


def quiescence(board, alpha=-1000, beta=1000):
    """Material for the side to move after the best capture sequences; either side may stand pat."""
    best = material(board, board.turn)
    if best >= beta:
        return best
    alpha = max(alpha, best)
    for move in noisy_moves(board):
        board.push(move)
        score = -quiescence(board, -beta, -alpha)
        board.pop()
        if score > best:
            best = score
            if score >= beta:
                break
            alpha = max(alpha, score)
    return best


def hang(board, move):
    """(loss, avoidable, taken) of `move` in `board`, in pawns, as the module docstring defines."""
    mover = board.turn
    before = quiescence(board)
    board.push(move)
    right_after = material(board, mover)
    value = -quiescence(board)
    board.pop()
    # The best alternative only matters when it beats the move played, so search with that as
    # the lower bound: any result at or below it means "no better move".
    best = value
    for other in board.legal_moves:
        if other == move:
            continue
        board.push(other)
        score = -quiescence(board, -1000, -best)
        board.pop()
        best = max(best, score)
    return before - value, best - value, right_after - value


def hangs(board, move, pawns):
    return min(hang(board, move)) >= pawns


def self_test():
    """The hang test on positions whose answer is known; raises AssertionError when one is wrong."""
    cases = [
        # The queen steps to d5, where the e6 pawn takes it.
        ("6k1/8/4p3/8/8/8/8/3Q2K1 w - - 0 1", "d1d5", 3),
        # An equal trade of knights: nothing hangs.
        ("6k1/8/4p3/3n4/8/4N3/8/6K1 w - - 0 1", "e3d5", 0),
        # The knight on d4 is attacked by a pawn and could step away; the king moves instead.
        ("6k1/8/8/4p3/3N4/8/8/6K1 w - - 0 1", "g1h1", 3),
        # The d4 pawn (guarded by c5) forks knight and rook, and no rook move gives check:
        # every move loses a piece, and saving the rook gives up the least.
        ("7k/6pp/8/2p5/3pP3/2NPR3/8/6K1 w - - 0 1", "e3e2", 0),
        # Same fork, but saving the knight leaves the rook: 2 pawns more than needed.
        ("7k/6pp/8/2p5/3pP3/2NPR3/8/6K1 w - - 0 1", "c3e2", 1),
        # Missing a free queen is not hanging anything.
        ("6k1/8/8/3q4/8/2N5/8/6K1 w - - 0 1", "g1f1", 0),
        # Not recapturing a piece is not hanging one either.
        ("6k1/8/8/8/8/2n5/1P6/6K1 w - - 0 1", "g1h1", 0),
    ]
    for fen, uci, expected in cases:
        board = chess.Board(fen)
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, (fen, uci)
        got = 3 if hangs(board, move, 3) else 1 if hangs(board, move, 1) else 0
        assert got == expected, f"{fen} {uci}: {hang(board, move)} -> {got}, expected {expected}"
    print(f"self-test: {len(cases)} positions pass")


# Stockfish's judgement.


def winning_chances(score):
    """Lichess's winning chances in [-1, 1] from a python-chess score's point of view."""
    if score.is_mate():
        return 1.0 if score.mate() > 0 or score == chess.engine.MateGiven else -1.0
    cp = max(-CP_CLIP, min(CP_CLIP, score.score()))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def centipawns(score):
    return max(-CP_CLIP, min(CP_CLIP, score.score(mate_score=CP_CLIP)))


class Judge:
    """Stockfish at a fixed depth, with its scores kept by FEN (each position is scored twice:
    after one move and before the next)."""

    def __init__(self, depth):
        self.depth = depth
        self.engine = None
        self.cache = {}

    def score(self, board):
        """The side to move's score, a python-chess Score."""
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            if outcome.winner is None:
                return chess.engine.Cp(0)
            return chess.engine.Mate(0) if outcome.winner != board.turn else chess.engine.MateGiven
        key = board.fen()
        if key not in self.cache:
            if self.engine is None:
                self.engine = chess.engine.SimpleEngine.popen_uci(knightfall_tools.stockfish())
                self.engine.configure({"Threads": 1, "Hash": 64})
            # The position alone, without the game's moves, so that the cached score is the
            # same whichever game reached it (draws by the rules are handled above); and a
            # fresh hash table (a new `game`), so that the score does not depend on what was
            # analysed before it and runs with any --jobs agree.
            info = self.engine.analyse(chess.Board(key), chess.engine.Limit(depth=self.depth),
                                       game=object())
            self.cache[key] = info["score"].relative
        return self.cache[key]

    def quit(self):
        if self.engine is not None:
            self.engine.quit()
            self.engine = None


# Playing and scoring games.


def play(binary, level, fen, number):
    """One self-play game of `level` from `fen` as a PGN game, book moves commented "book"."""
    engine = chess.engine.SimpleEngine.popen_uci([binary, "uci"])
    options = {"Skill Level": level, "Threads": 1}
    if "OwnBook" in engine.options:
        options["OwnBook"] = False
    engine.configure(options)
    board = chess.Board(fen)
    game = chess.pgn.Game()
    game.setup(board)
    node = game
    while board.ply() < MAX_PLIES and board.outcome(claim_draw=True) is None:
        # The same `game` object for the whole game: python-chess sends ucinewgame once.
        result = engine.play(board, chess.engine.Limit(time=MOVETIME), game=game,
                             info=chess.engine.INFO_ALL)
        node = node.add_variation(result.move)
        if str(result.info.get("string", "")).startswith("book move"):
            node.comment = "book"
        board.push(result.move)
    engine.quit()
    name = f"Knightfall level {level}"
    game.headers.update(Event="level-mistakes", Site="", Date="????.??.??", Round=str(number),
                        White=name, Black=name)
    outcome = board.outcome(claim_draw=True)
    game.headers["Result"] = outcome.result() if outcome else "*"
    game.headers["Termination"] = outcome.termination.name.lower() if outcome else "ply limit"
    return game


def side_levels(game):
    """{colour: level} from the White and Black headers."""
    named = knightfall_tools.header_levels(game.headers)
    return {colour: named[side] for colour, side in ((chess.WHITE, "White"),
                                                     (chess.BLACK, "Black")) if side in named}


def score_game(game, judge):
    """For each counted move: (level, hangs material, hangs a piece, blunder, mistake, cp loss)."""
    levels = side_levels(game)
    board = game.board()
    rows = []
    for node in game.mainline():
        move = node.move
        mover = board.turn
        if mover in levels and node.comment.strip() != "book":
            loss, avoidable, taken = hang(board, move)
            lost = min(loss, avoidable, taken)
            before = judge.score(board)
            board.push(move)
            after = -judge.score(board)
            board.pop()
            drop = winning_chances(before) - winning_chances(after)
            cp = max(0, min(CP_CLIP, centipawns(before) - centipawns(after)))
            rows.append((levels[mover], lost >= 1, lost >= 3, drop >= BLUNDER, drop >= MISTAKE, cp))
        board.push(move)
    return rows


_judge = None


def start_worker(depth):
    global _judge
    _judge = Judge(depth)
    # Stockfish is closed when the worker ends (the pool is closed and joined, not terminated).
    multiprocessing.util.Finalize(None, _judge.quit, exitpriority=10)


def run_task(task):
    """Plays one game (unless given as PGN text) and scores it: (PGN text, rows)."""
    kind, payload = task
    if kind == "play":
        game = play(*payload)
    else:
        game = chess.pgn.read_game(io.StringIO(payload))
    return str(game), score_game(game, _judge)


def table(rows):
    lines = [
        "| level | moves | hangs material % | hangs a piece % | SF blunders % | SF mistakes % "
        "| mean cp loss |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for level in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == level]
        n = len(mine)

        def share(i):
            return f"{100 * sum(r[i] for r in mine) / n:.1f}"

        mean = sum(r[5] for r in mine) / n
        lines.append(
            f"| {level} | {n} | {share(1)} | {share(2)} | {share(3)} | {share(4)} | {mean:.0f} |"
        )
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default=knightfall_tools.knightfall_binary())
    ap.add_argument("--levels", default="1-10", help="ranges and lists: 1-10, 1,3,8-10")
    ap.add_argument("--games", type=int, default=8, help="self-play games a level")
    ap.add_argument("--depth", type=int, default=12, help="Stockfish's depth per position")
    ap.add_argument("--jobs", type=int, default=1, help="games played and scored at once")
    ap.add_argument("--seed", type=int, default=1, help="picks the openings")
    ap.add_argument("--openings", default=OPENINGS)
    ap.add_argument("--pgn-out", help="keep the games played in this PGN file")
    ap.add_argument("--from-pgn", help="score the games in this PGN file instead of playing")
    ap.add_argument("--self-test", action="store_true", help="check the hang test and stop")
    args = ap.parse_args()

    if args.self_test:
        self_test()
        return

    if args.from_pgn:
        tasks = []
        with open(args.from_pgn) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                tasks.append(("pgn", str(game)))
    else:
        with open(args.openings) as f:
            openings = [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]
        # One draw of openings for all levels, so the levels are compared on the same games.
        picked = random.Random(args.seed).sample(openings, args.games)
        tasks = [
            ("play", (args.engine, level, fen, i + 1))
            for level in sorted(knightfall_tools.parse_levels(args.levels))
            for i, fen in enumerate(picked)
        ]

    started = time.time()
    rows = []
    games = []
    pool = multiprocessing.Pool(args.jobs, initializer=start_worker, initargs=(args.depth,))
    for n, (pgn, game_rows) in enumerate(pool.imap(run_task, tasks), 1):
        games.append(pgn)
        rows += game_rows
        print(f"{n}/{len(tasks)} games, {time.time() - started:.0f} s", file=sys.stderr,
              flush=True)
    pool.close()
    pool.join()
    if args.pgn_out:
        with open(args.pgn_out, "w") as f:
            f.write("\n\n".join(games) + "\n")

    print("    " + shlex.join(["python3"] + sys.argv))
    print()
    source = (f"games in {args.from_pgn}" if args.from_pgn else
              f"{args.games} self-play games a level, go movetime {int(MOVETIME * 1000)}, "
              f"seed {args.seed}, {args.engine}")
    print(f"{source}; Stockfish depth {args.depth}; {time.time() - started:.0f} s")
    print()
    print(table(rows))


if __name__ == "__main__":
    main()
