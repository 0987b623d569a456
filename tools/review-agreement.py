#!/usr/bin/env python3
"""How well does `knightfall review` agree with Stockfish about which moves were bad?

The review judges every move by lichess's rules: an evaluation becomes winning chances,
2 / (1 + exp(-0.00368208 * cp)) - 1 with cp held to +-1000, and a move that costs its player
0.1, 0.2 or 0.3 of them is an inaccuracy, mistake or blunder; allowing or losing a forced mate
is judged by the evaluation on the other side of it. Its verdicts are only as good as its short
search per position, so this measures them against Stockfish 15.1 at a fixed depth, scored
by the same rules (a port of src/review/judge.rs, including the review's own special cases:
a win that stays a win is never a mistake, a tablebase win counts as a mate, the engine's
own best move is never flagged, the opening's book moves are not judged, and Knightfall's own
centipawns are put on Stockfish's scale first).

For each game it runs `knightfall review FILE --game N --out OUT` (with KNIGHTFALL_HOME set to
a temporary folder, so the user's games and review cache are never touched), reads the
verdict of each move from the NAGs of the annotated game ($6 / $2 / $4, or ?! / ? / ??), and
has Stockfish score every position of the game (Threads 1, a fresh hash table per position,
the moves since the last capture or pawn move given so that repetitions count as Knightfall's
search sees them). Printed, with the command line at the top, per game and in total:

- how many moves each flagged (inaccuracies / mistakes / blunders) and how long the review
  took;
- precision, recall and F1 of the review against Stockfish for "flagged at all" and for
  "mistake or blunder";
- the loss error: the root mean square difference between the winning chances each judged
  move cost by the review's evaluations and by Stockfish's, a finer and steadier yardstick
  than the counts;
- a 4x4 confusion matrix of the verdicts (rows Stockfish, columns the review);
- a check of this port of the rules: the review's verdicts recomputed from its own cached
  evaluations and best moves should match its NAGs;
- a scale check: Knightfall's `[%eval]` against Stockfish's centipawns for the same positions
  (White's view, both held to +-1000, mates, tablebase results and finished games left out),
  fitted as stockfish = k * knightfall through the origin. k < 1 means Knightfall's pawns are
  bigger than Stockfish's, so the same mistake costs more winning chances in the review.

The review searches each position for a fixed time (`--movetime`, 1000 ms unless
`--review-args` says otherwise), so its verdicts depend on the machine's load: run it with
nothing else busy. `--threads 1` is added to the review's arguments unless they name a thread
count, so that `--jobs` games at once use `--jobs` cores.

    python3 tools/review-agreement.py --pgn GAMES.pgn [--pgn MORE.pgn] [--engine BIN] \\
        [--sf-depth 16] [--review-args "--movetime 1000"] [--jobs 1] \\
        [--levels 4-7] [--per-level 3] [--details MOVES.tsv] [--annotated-out REVIEWED.pgn] \\
        [--sf-cache SCORES.jsonl]

`--levels` keeps the games whose White and Black headers name those levels ("... level N", as
tools/level-mistakes.py writes them), and `--per-level` the first N of each. `--details`
writes one line per move with both sides' evaluations and verdicts, for looking at the
disagreements; `--annotated-out` keeps the review's annotated games.

Needs python-chess and Debian's stockfish (/usr/games/stockfish); `--engine` defaults to
$KNIGHTFALL_BIN or target/release/knightfall.
"""

import argparse
import glob
import json
import math
import multiprocessing
import multiprocessing.util
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

import chess
import chess.engine
import chess.pgn
import chess.polyglot

import knightfall_tools

# The rules, as src/review/judge.rs has them.

SLOPE = 0.00368208
CEILING = 1000
# A search score this high (and not a mate) is a tablebase win (src/engine/score.rs).
TB_WIN_BOUND = 31000 - 1000 - 1 - 1000

NONE, INACCURACY, MISTAKE, BLUNDER = 0, 1, 2, 3
VERDICTS = ["none", "inaccuracy", "mistake", "blunder"]
NAG_VERDICT = {
    chess.pgn.NAG_DUBIOUS_MOVE: INACCURACY,
    chess.pgn.NAG_MISTAKE: MISTAKE,
    chess.pgn.NAG_BLUNDER: BLUNDER,
}

# An evaluation from White's view is a pair:
#   ("cp", n)             centipawns;
#   ("mate", n)           mate in n moves, positive when White mates;
#   ("checkmate", colour) the side to move is mated, `colour` won;
#   ("tb", colour)        won for `colour` by the tablebases, no distance known.


def from_cp(cp):
    """A search score for White as an evaluation: a tablebase win's score is a result."""
    if cp >= TB_WIN_BOUND:
        return ("tb", chess.WHITE)
    if cp <= -TB_WIN_BOUND:
        return ("tb", chess.BLACK)
    return ("cp", cp)


def winner(ev):
    kind, value = ev
    if kind == "cp":
        return None
    if kind == "mate":
        return chess.WHITE if value > 0 else chess.BLACK
    return value


def ceiled_cp(ev):
    kind, value = ev
    if kind == "cp":
        return max(-CEILING, min(CEILING, value))
    return CEILING if winner(ev) == chess.WHITE else -CEILING


def winning_chances(ev):
    """White's winning chances in -1..1."""
    return max(-1.0, min(1.0, 2 / (1 + math.exp(-SLOPE * ceiled_cp(ev))) - 1))


def cp_for(ev, colour):
    kind, value = ev
    if kind != "cp":
        return None
    return value if colour == chess.WHITE else -value


def mate_for(ev, colour):
    """Moves to mate from `colour`'s view (0: `colour` has mated), for a mate."""
    kind, value = ev
    if kind == "mate":
        return value if colour == chess.WHITE else -value
    if kind == "checkmate":
        return 0 if value == colour else -1
    return None


def move_loss(before, after, mover):
    """The winning chances a move cost its player (0 for a move that gained)."""
    sign = 1 if mover == chess.WHITE else -1
    return max(0.0, sign * (winning_chances(before) - winning_chances(after)))


# Knightfall's centipawns against Stockfish's (src/review/judge.rs, KNIGHTFALL_TO_STOCKFISH):
# a review by Knightfall's own search is judged on Stockfish's scale.
KNIGHTFALL_TO_STOCKFISH = [(0, 0), (150, 150), (250, 300), (350, 430), (450, 495), (600, 550),
                           (800, 600), (1050, 645), (2000, 800)]


def from_knightfall(ev):
    """`ev`, of Knightfall's own search, on Stockfish's scale (mates and results as they are)."""
    kind, value = ev
    if kind != "cp":
        return ev
    x = min(abs(value), 1_000_000)
    points = KNIGHTFALL_TO_STOCKFISH
    k = next((i for i in range(len(points) - 1) if x <= points[i + 1][0]), len(points) - 2)
    (x0, y0), (x1, y1) = points[k], points[k + 1]
    y = y0 + (x - x0) * (y1 - y0) // (x1 - x0)
    return ("cp", -y if value < 0 else y)


def own_search(args):
    """Whether a review with the arguments `args` searches with Knightfall's own engine (no
    `--engine`)."""
    return not any(a == "--engine" or a.startswith("--engine=") for a in args)


def judge(before, after, mover):
    """The verdict (NONE..BLUNDER) on a move by `mover` from `before` to `after`."""
    # A win that stays a win (a mate or the tablebases) is no mistake.
    if winner(before) is not None and winner(before) == winner(after):
        return NONE
    # Otherwise a tablebase result weighs as the ceiling.
    before, after = [
        ("cp", ceiled_cp(e)) if e[0] == "tb" else e for e in (before, after)
    ]
    if cp_for(before, mover) is not None and cp_for(after, mover) is not None:
        lost = move_loss(before, after, mover)
        if lost >= 0.3:
            return BLUNDER
        if lost >= 0.2:
            return MISTAKE
        if lost >= 0.1:
            return INACCURACY
        return NONE
    was, now = mate_for(before, mover), mate_for(after, mover)

    def by(cp, soft):
        # `soft`: how far ahead (or behind) the player still is softens the verdict.
        cp = cp if soft else -cp
        return INACCURACY if cp > 999 else MISTAKE if cp > 700 else BLUNDER

    def cp_or_zero(ev):
        cp = cp_for(ev, mover)
        return 0 if cp is None else cp

    if was is None and now is not None and now < 0:
        return by(cp_or_zero(before), False)
    if was is not None and was > 0 and now is None:
        return by(cp_or_zero(after), True)
    if was is not None and now is not None and was > 0 and now < 0:
        return BLUNDER
    return NONE


def terminal(board):
    """The evaluation of a position the rules decide, as the review has it."""
    if board.is_checkmate():
        return ("checkmate", not board.turn)
    if board.is_stalemate() or board.is_insufficient_material():
        return ("cp", 0)
    return None


# Reading the review.

EVAL_RE = re.compile(r"\[%eval\s+(#[+-]?\d+|[+-]?\d+(?:\.\d+)?)\]")
TABLEBASE_RE = re.compile(r"tablebase: (White|Black) wins")


def comment_eval(comment):
    """The evaluation a review comment gives for the position after the move, if any."""
    found = TABLEBASE_RE.search(comment)
    if found:
        return ("tb", chess.WHITE if found.group(1) == "White" else chess.BLACK)
    found = EVAL_RE.search(comment)
    if not found:
        return None
    text = found.group(1)
    if text.startswith("#"):
        # `#+0` / `#-0` is a mate on the board, which python-chess cannot tell apart.
        if text[1:] in ("+0", "-0", "0"):
            return ("checkmate", chess.BLACK if text[1] == "-" else chess.WHITE)
        return ("mate", int(text[1:]))
    return ("cp", round(float(text) * 100))


def cached_evals(home, plies):
    """Per position, (evaluation, depth, best move) from the review's cache file, or None.

    The annotated game leaves out the start position's evaluation and the best move of a
    move that was not flagged; the cache has both (one line a position:
    `PLY<TAB>KIND<TAB>VALUE<TAB>DEPTH<TAB>UCI MOVES`)."""
    files = glob.glob(os.path.join(home, "**", "reviews", "*.tsv"), recursive=True)
    rows = [None] * (plies + 1)
    if len(files) != 1:
        return rows
    with open(files[0]) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            try:
                ply, kind, value, depth = int(fields[0]), fields[1], fields[2], int(fields[3])
            except (IndexError, ValueError):
                continue
            if not 0 <= ply <= plies:
                continue
            colour = chess.WHITE if value == "white" else chess.BLACK
            if kind == "cp":
                ev = from_cp(int(value))
            elif kind == "mate":
                ev = ("mate", int(value))
            elif kind in ("tb", "checkmate"):
                ev = (kind, colour)
            else:
                continue
            moves = fields[4].split() if len(fields) > 4 else []
            rows[ply] = (ev, depth, moves[0] if moves else None)
    return rows


def review(engine, pgn_text, review_args, workdir):
    """Runs `knightfall review` on one game: (annotated game, seconds, cache rows)."""
    home = os.path.join(workdir, "home")
    os.makedirs(home)
    source = os.path.join(workdir, "game.pgn")
    out = os.path.join(workdir, "reviewed.pgn")
    with open(source, "w") as f:
        f.write(pgn_text + "\n")
    command = [engine, "review", source, "--game", "1", "--out", out] + review_args
    started = time.monotonic()
    done = subprocess.run(command, env=dict(os.environ, KNIGHTFALL_HOME=home),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise RuntimeError(f"{shlex.join(command)} failed: {done.stderr.strip()[-500:]}")
    with open(out) as f:
        annotated = chess.pgn.read_game(f)
    plies = sum(1 for _ in annotated.mainline_moves())
    return annotated, seconds, cached_evals(home, plies)


# Stockfish's side.


class Stockfish:
    """Stockfish at a fixed depth; each position searched once, keyed by its FEN and the
    moves since the last capture or pawn move (which is what repetitions depend on)."""

    def __init__(self, binary, depth, cache_file=None, syzygy=None):
        self.binary = binary
        self.depth = depth
        self.syzygy = syzygy
        self.engine = None
        self.cache = {}
        # Scores kept from earlier runs (one JSON object a line), so that measuring another
        # build of the review against the same games costs no Stockfish time.
        self.cache_file = cache_file
        if cache_file and os.path.exists(cache_file):
            with open(cache_file) as f:
                for line in f:
                    entry = json.loads(line)
                    if entry["depth"] == depth:
                        ev = tuple(entry["eval"])
                        self.cache[(entry["fen"], tuple(entry["moves"]))] = (ev, entry["best"])

    def evaluate(self, board):
        """(evaluation from White's view, best move in UCI or None) of `board`."""
        decided = terminal(board)
        if decided is not None:
            return decided, None
        # The game from its last irreversible move, so the search knows the repetitions.
        reversible = []
        root = board.copy()
        while root.move_stack and root.halfmove_clock > 0:
            reversible.append(root.pop())
        root = chess.Board(root.fen())
        for move in reversed(reversible):
            root.push(move)
        key = (root.root().fen(), tuple(m.uci() for m in root.move_stack))
        if key not in self.cache:
            if self.engine is None:
                self.engine = chess.engine.SimpleEngine.popen_uci(self.binary)
                options = {"Threads": 1, "Hash": 128}
                if self.syzygy:
                    # Settled endings are judged by the tables, as the review judges them.
                    options["SyzygyPath"] = self.syzygy
                self.engine.configure(options)
            # A new game (ucinewgame, an empty hash table) for every position, so a score does
            # not depend on what was searched before it and runs with any --jobs agree.
            info = self.engine.analyse(root, chess.engine.Limit(depth=self.depth),
                                       game=object())
            score = info["score"].white()
            if score.is_mate():
                ev = ("mate", score.mate())
            else:
                ev = ("cp", score.score())
            pv = info.get("pv") or []
            self.cache[key] = (ev, pv[0].uci() if pv else None)
            if self.cache_file:
                with open(self.cache_file, "a") as f:
                    f.write(json.dumps({"fen": key[0], "moves": list(key[1]), "depth": self.depth,
                                        "eval": list(ev), "best": self.cache[key][1]}) + "\n")
        return self.cache[key]

    def name(self):
        if self.engine is None:
            return None
        return self.engine.id.get("name")

    def quit(self):
        if self.engine is not None:
            self.engine.quit()
            self.engine = None


# One game.


# The review's opening theory (src/review/theory.rs): the moves from the start that the
# embedded book plays with a weight above zero, up to its 20th ply.
BOOK = knightfall_tools.ROOT / "assets" / "book.bin"
BOOK_MAX_PLY = 20


def book_plies(game):
    """How many of `game`'s first moves are book moves, which the review does not judge."""
    board = game.board()
    count = 0
    with chess.polyglot.open_reader(BOOK) as book:
        for move in game.mainline_moves():
            if board.ply() >= BOOK_MAX_PLY or not any(
                    e.move == move and e.weight > 0 for e in book.find_all(board)):
                break
            board.push(move)
            count += 1
    return count


def measure(task):
    """Reviews one game and scores it with Stockfish: a dict of what the report needs."""
    number, pgn_text, settings = task
    own = own_search(settings["review_args"])
    with tempfile.TemporaryDirectory(prefix="review-agreement-") as workdir:
        annotated, seconds, cached = review(settings["engine"], pgn_text,
                                            settings["review_args"], workdir)
    board = annotated.board()
    evals = [_stockfish.evaluate(board)]
    moves = []
    for node in annotated.mainline():
        moves.append((board.copy(stack=False), node))
        board.push(node.move)
        evals.append(_stockfish.evaluate(board))

    theory = book_plies(annotated)
    rows = []
    for i, (before, node) in enumerate(moves):
        mover = before.turn
        played = node.move.uci()
        kf = max((NAG_VERDICT.get(n, NONE) for n in node.nags), default=NONE)
        kf_after = comment_eval(node.comment)
        sf_before, sf_best = evals[i]
        sf_after = evals[i + 1][0]
        # The review never flags its own best move nor a book move, and Stockfish is held to
        # the same rules.
        book = i < theory
        sf = NONE if book or sf_best == played else judge(sf_before, sf_after, mover)
        # The review's verdict recomputed from its cache: checks this port of the rules.
        port = None
        if cached[i] is not None and cached[i + 1] is not None:
            scale = from_knightfall if own else (lambda e: e)
            port = NONE if book or cached[i][2] == played else judge(
                scale(cached[i][0]), scale(cached[i + 1][0]), mover)
        rows.append({
            "ply": i + 1,
            "move": f"{before.fullmove_number}{'.' if mover == chess.WHITE else '...'} "
                    f"{before.san(node.move)}",
            "fen": before.fen(),
            "kf": kf,
            "sf": sf,
            "port": port,
            "kf_before": cached[i][0] if cached[i] else None,
            "kf_after": kf_after,
            "kf_depth": cached[i][1] if cached[i] else None,
            "kf_best": cached[i][2] if cached[i] else None,
            "sf_before": sf_before,
            "sf_after": sf_after,
            "sf_best": sf_best,
            "played": played,
            "book": book,
            "own": own,
            "decided": terminal(board_after(before, node.move)) is not None,
        })
    headers = annotated.headers
    return {
        "number": number,
        "title": f"{headers.get('White', '?')} - {headers.get('Black', '?')} "
                 f"{headers.get('Result', '*')}",
        "annotator": headers.get("Annotator", ""),
        "seconds": seconds,
        "rows": rows,
        "annotated": str(annotated),
        "stockfish": _stockfish.name(),
    }


def board_after(board, move):
    after = board.copy(stack=False)
    after.push(move)
    return after


_stockfish = None


def start_worker(binary, depth, cache_file=None, syzygy=None):
    global _stockfish
    _stockfish = Stockfish(binary, depth, cache_file, syzygy)
    # Stockfish is closed when the worker ends (the pool is closed and joined, not terminated).
    multiprocessing.util.Finalize(None, _stockfish.quit, exitpriority=10)


# Choosing the games.


def pick_games(paths, levels, per_level):
    """PGN texts of the games to review, in file order."""
    picked = []
    taken = {}
    for path in paths:
        with open(path) as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if game.errors:
                    print(f"skipped a game of {path} that does not read: {game.errors[0]}",
                          file=sys.stderr)
                    continue
                named = tuple(knightfall_tools.header_levels(game.headers).values())
                if levels is not None and (len(named) != 2 or not set(named) <= levels):
                    continue
                if per_level is not None:
                    if taken.get(named, 0) >= per_level:
                        continue
                    taken[named] = taken.get(named, 0) + 1
                picked.append(str(game))
    return picked


# The report.


def scores(rows, threshold):
    """(both, review only, Stockfish only, precision, recall, F1) for verdicts >= threshold."""
    both = sum(1 for r in rows if r["kf"] >= threshold and r["sf"] >= threshold)
    kf_only = sum(1 for r in rows if r["kf"] >= threshold and r["sf"] < threshold)
    sf_only = sum(1 for r in rows if r["kf"] < threshold and r["sf"] >= threshold)
    precision = both / (both + kf_only) if both + kf_only else float("nan")
    recall = both / (both + sf_only) if both + sf_only else float("nan")
    f1 = (2 * precision * recall / (precision + recall)
          if both else (0.0 if kf_only or sf_only else float("nan")))
    return both, kf_only, sf_only, precision, recall, f1


def counts(rows, key):
    """"inaccuracies/mistakes/blunders" by `key`."""
    return "/".join(str(sum(1 for r in rows if r[key] == v))
                    for v in (INACCURACY, MISTAKE, BLUNDER))


def fmt(x):
    return "-" if isinstance(x, float) and math.isnan(x) else f"{x:.2f}"


def scale_pairs(rows):
    """(Knightfall cp, Stockfish cp), White's view, held to +-1000, for the positions after
    each move that both scored in centipawns and the rules did not decide."""
    pairs = []
    for r in rows:
        kf, sf = r["kf_after"], r["sf_after"]
        if r["decided"] or kf is None or kf[0] != "cp" or sf[0] != "cp":
            continue
        pairs.append((ceiled_cp(kf), ceiled_cp(sf)))
    return pairs


def loss_error(rows):
    """(root mean square of the review's loss less Stockfish's, in winning chances, moves) over
    the judged moves both scored: a finer yardstick than the verdicts, which a move near a
    threshold tips either way from one run to the next."""
    squares = []
    for r in rows:
        if r["book"] or r["kf_before"] is None or r["kf_after"] is None:
            continue
        mover = chess.WHITE if " w " in r["fen"] else chess.BLACK
        scale = from_knightfall if r["own"] else (lambda e: e)
        kf = move_loss(scale(r["kf_before"]), scale(r["kf_after"]), mover)
        sf = move_loss(r["sf_before"], r["sf_after"], mover)
        squares.append((kf - sf) ** 2)
    if not squares:
        return float("nan"), 0
    return math.sqrt(sum(squares) / len(squares)), len(squares)


def show_eval(ev):
    if ev is None:
        return ""
    kind, value = ev
    if kind == "cp":
        return str(value)
    if kind == "mate":
        return f"#{value}"
    side = "white" if value == chess.WHITE else "black"
    return f"{kind}:{side}"


def write_details(path, results):
    columns = ["game", "ply", "move", "review", "stockfish", "review before", "review after",
               "review depth", "review best", "stockfish before", "stockfish after",
               "stockfish best", "fen"]
    with open(path, "w") as f:
        f.write("\t".join(columns) + "\n")
        for result in results:
            for r in result["rows"]:
                f.write("\t".join(str(x) for x in [
                    result["number"], r["ply"], r["move"], VERDICTS[r["kf"]],
                    VERDICTS[r["sf"]], show_eval(r["kf_before"]), show_eval(r["kf_after"]),
                    "" if r["kf_depth"] is None else r["kf_depth"], r["kf_best"] or "",
                    show_eval(r["sf_before"]), show_eval(r["sf_after"]), r["sf_best"] or "",
                    r["fen"]]) + "\n")


def report(args, results, seconds):
    print("    " + shlex.join(["python3"] + sys.argv))
    print()
    stockfish = next((r["stockfish"] for r in results if r["stockfish"]), "Stockfish")
    annotators = sorted({r["annotator"] for r in results})
    print(f"{len(results)} games; review: {args.engine} review "
          f"{shlex.join(review_args(args))} ({'; '.join(annotators)}); "
          f"{stockfish} depth {args.sf_depth}, Threads 1, Hash 128; {seconds:.0f} s")
    print()
    print("Verdicts: inaccuracies/mistakes/blunders. Precision and recall are the review's "
          "against Stockfish.")
    print()
    print("| game | players | moves | review s | review | Stockfish "
          "| flagged P | R | F1 | mistake+ P | R | F1 |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    everything = []
    for result in results:
        rows = result["rows"]
        everything += rows
        flagged = scores(rows, INACCURACY)
        serious = scores(rows, MISTAKE)
        print(f"| {result['number']} | {result['title']} | {len(rows)} "
              f"| {result['seconds']:.0f} | {counts(rows, 'kf')} | {counts(rows, 'sf')} "
              f"| {fmt(flagged[3])} | {fmt(flagged[4])} | {fmt(flagged[5])} "
              f"| {fmt(serious[3])} | {fmt(serious[4])} | {fmt(serious[5])} |")
    total_review = sum(r["seconds"] for r in results)
    print(f"| all | | {len(everything)} | {total_review:.0f} | {counts(everything, 'kf')} "
          f"| {counts(everything, 'sf')} | | | | | | |")
    print()
    depths = sorted(r["kf_depth"] for r in everything if r["kf_depth"])
    reached = (f"; its search reached depth {depths[len(depths) // 2]} in the median position "
               f"(from {depths[0]} to {depths[-1]})" if depths else "")
    print(f"Review time: {total_review / max(1, len(results)):.0f} s a game, "
          f"{1000 * total_review / max(1, len(everything) + len(results)):.0f} ms a position"
          f"{reached}.")
    print()
    print("| in total | both | review only | Stockfish only | precision | recall | F1 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, threshold in (("flagged at all", INACCURACY), ("mistake or blunder", MISTAKE)):
        both, kf_only, sf_only, p, r, f1 = scores(everything, threshold)
        print(f"| {name} | {both} | {kf_only} | {sf_only} | {fmt(p)} | {fmt(r)} | {fmt(f1)} |")
    print()
    error, judged = loss_error(everything)
    print(f"Loss error: the review's loss against Stockfish's for each judged move, in winning "
          f"chances, as a root mean square over {judged} moves: {error:.3f} (0 is perfect "
          f"agreement; it varies less from run to run than the counts above).")
    print()
    print("Confusion matrix (rows: Stockfish's verdict; columns: the review's):")
    print()
    print("| Stockfish \\ review | " + " | ".join(VERDICTS) + " | total |")
    print("| --- |" + " ---: |" * (len(VERDICTS) + 1))
    for s in range(4):
        cells = [sum(1 for r in everything if r["sf"] == s and r["kf"] == k) for k in range(4)]
        print(f"| {VERDICTS[s]} | " + " | ".join(map(str, cells)) + f" | {sum(cells)} |")
    cells = [sum(1 for r in everything if r["kf"] == k) for k in range(4)]
    print("| total | " + " | ".join(map(str, cells)) + f" | {len(everything)} |")
    print()
    checked = [r for r in everything if r["port"] is not None]
    agree = sum(1 for r in checked if r["port"] == r["kf"])
    print(f"Rules check: the review's NAGs against its cached evaluations judged by this "
          f"port of judge.rs: {agree} of {len(checked)} moves agree.")
    pairs = [p for result in results for p in scale_pairs(result["rows"])]
    if pairs:
        kk = sum(k * k for k, _ in pairs)
        ks = sum(k * s for k, s in pairs)
        ss = sum(s * s for _, s in pairs)
        k = ks / kk if kk else float("nan")
        # The fit the other way round: noise in the review's scores pulls k towards 0, noise
        # in Stockfish's pulls this one up, so the true ratio lies between the two.
        inverse = ss / ks if ks else float("nan")
        mean_k = sum(k for k, _ in pairs) / len(pairs)
        mean_s = sum(s for _, s in pairs) / len(pairs)
        cov = sum((a - mean_k) * (b - mean_s) for a, b in pairs)
        var_k = sum((a - mean_k) ** 2 for a, _ in pairs)
        var_s = sum((b - mean_s) ** 2 for _, b in pairs)
        r = cov / math.sqrt(var_k * var_s) if var_k and var_s else float("nan")
        print()
        print(f"Scale: Stockfish cp = k * Knightfall cp, least squares through the origin over "
              f"{len(pairs)} positions (White's view, +-1000, no mates or tablebase results): "
              f"k = {k:.3f} (fitted the other way round, 1/k' = {inverse:.3f}; "
              f"correlation {r:.3f}).")


def review_args(args):
    extra = shlex.split(args.review_args)
    # One search thread unless asked: --jobs reviews at once then use --jobs cores.
    if not any(a == "--threads" or a.startswith("--threads=") for a in extra):
        extra += ["--threads", "1"]
    return extra


def stockfish_against_itself(args, games):
    """Stockfish at `--self-reference` depth judged against Stockfish at `--sf-depth`, by the
    same rules on the same moves: how far any search's verdicts move with depth alone."""
    import io
    reference = Stockfish(args.stockfish, args.sf_depth, args.sf_cache, args.syzygy)
    judge_sf = Stockfish(args.stockfish, args.self_reference, syzygy=args.syzygy)
    results = []
    for number, text in enumerate(games, 1):
        game = chess.pgn.read_game(io.StringIO(text))
        board = game.board()
        result = {"number": number, "rows": []}
        for ply, move in enumerate(game.mainline_moves(), 1):
            mover = board.turn
            before = board.copy()
            (r_before, r_best), (j_before, j_best) = (reference.evaluate(board),
                                                      judge_sf.evaluate(board))
            board.push(move)
            r_after, j_after = reference.evaluate(board)[0], judge_sf.evaluate(board)[0]
            sf = NONE if r_best == move.uci() else judge(r_before, r_after, mover)
            kf = NONE if j_best == move.uci() else judge(j_before, j_after, mover)
            # The same columns as a review's, the judging Stockfish in the review's place.
            result["rows"].append({
                "ply": ply,
                "move": f"{before.fullmove_number}{'.' if mover == chess.WHITE else '...'} "
                        f"{before.san(move)}",
                "fen": before.fen(), "kf": kf, "sf": sf,
                "kf_before": j_before, "kf_after": j_after, "kf_depth": args.self_reference,
                "kf_best": j_best, "sf_before": r_before, "sf_after": r_after, "sf_best": r_best,
            })
        results.append(result)
    if args.details:
        write_details(args.details, results)
    rows = [row for result in results for row in result["rows"]]
    reference.quit()
    judge_sf.quit()
    print("    " + shlex.join(["python3"] + sys.argv))
    print()
    print(f"Stockfish depth {args.self_reference} against Stockfish depth {args.sf_depth}, "
          f"{len(games)} games, {len(rows)} moves:")
    print()
    print("| in total | both | judge only | reference only | precision | recall | F1 |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, threshold in (("flagged at all", INACCURACY), ("mistake or blunder", MISTAKE)):
        both, only_j, only_r, p, r, f1 = scores(rows, threshold)
        print(f"| {name} | {both} | {only_j} | {only_r} | {fmt(p)} | {fmt(r)} | {fmt(f1)} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pgn", action="append", required=True, help="games to review (repeatable)")
    ap.add_argument("--engine", default=knightfall_tools.knightfall_binary())
    ap.add_argument("--stockfish", default=knightfall_tools.stockfish())
    ap.add_argument("--sf-depth", type=int, default=16, help="Stockfish's depth per position")
    ap.add_argument("--review-args", default="",
                    help='more arguments for `knightfall review`, e.g. "--movetime 500"')
    ap.add_argument("--jobs", type=int, default=1, help="games reviewed and scored at once")
    ap.add_argument("--levels", help='keep games between these levels: "4-7", "1,3,5-7"')
    ap.add_argument("--per-level", type=int, help="keep the first N games of each pairing")
    ap.add_argument("--details", help="write one line per move here (TSV)")
    ap.add_argument("--annotated-out", help="keep the review's annotated games in this file")
    ap.add_argument("--sf-cache", help="Stockfish's scores kept here (JSON lines) and reused "
                    "by the next run at the same depth: another build of the review measured "
                    "on the same games costs no Stockfish time (use with --jobs 1)")
    ap.add_argument("--syzygy", metavar="DIR",
                    help="Syzygy tables for Stockfish (e.g. ../shared/syzygy); keep a separate "
                    "--sf-cache for runs with and without them")
    ap.add_argument("--self-reference", type=int, metavar="DEPTH",
                    help="instead of the review, judge by Stockfish at DEPTH against Stockfish "
                    "at --sf-depth (the method's own ceiling)")
    args = ap.parse_args()

    levels = knightfall_tools.parse_levels(args.levels) if args.levels else None
    games = pick_games(args.pgn, levels, args.per_level)
    if not games:
        sys.exit("no games to review")
    if args.self_reference:
        stockfish_against_itself(args, games)
        return
    settings = {"engine": args.engine, "review_args": review_args(args)}
    tasks = [(i + 1, text, settings) for i, text in enumerate(games)]

    started = time.time()
    results = []
    pool = multiprocessing.Pool(max(1, args.jobs), initializer=start_worker,
                                initargs=(args.stockfish, args.sf_depth, args.sf_cache,
                                          args.syzygy))
    for result in pool.imap(measure, tasks):
        results.append(result)
        print(f"{len(results)}/{len(tasks)} games, {time.time() - started:.0f} s",
              file=sys.stderr, flush=True)
    pool.close()
    pool.join()

    if args.details:
        write_details(args.details, results)
    if args.annotated_out:
        with open(args.annotated_out, "w") as f:
            f.write("\n\n".join(r["annotated"] for r in results) + "\n")
    report(args, results, time.time() - started)


if __name__ == "__main__":
    main()
