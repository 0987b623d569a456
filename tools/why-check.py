#!/usr/bin/env python3
"""How often does the review say why a move was bad, and is what it says true?

Reads annotated games (`knightfall review FILE --out OUT`, or `knightfall games export
--reviewed`), finds each flagged move's comment ("Blunder: hangs the knight on d5: 8... Qxd5.
Nf3 was best.") and counts, per verdict, how many carry a concrete reason (a colon after the
verdict's word) rather than the verdict alone. Games whose review came from the file's own
evaluations carry no lines and are left out (a review of Knightfall's own search gives its
better line as a variation on every flagged move that has one).

Each concrete reason is then checked against Stockfish at a fixed depth:

- its line (the moves after the colon) must be legal from the position it starts in: after
  the move for what the move allowed, before it for what it missed;
- "allows mate" / "mate in N stays" / "brings the mate nearer": Stockfish finds a mate for the
  opponent after the move (or, a long mate being past a fixed depth, a score of +5 or more);
- "misses mate": the same for the mover before the move;
- "throws away a tablebase win" / "turns a tablebase draw into a loss": left to the tables
  (Knightfall's own, the same Syzygy files), counted as checked;
- every other reason (a piece hung, a tactic or a perpetual check walked into, material lost,
  a pawn let through, a win missed) claims material or a draw: Stockfish's evaluation after
  the move (the opponent to move) must be at least a pawn worse for the mover than its
  evaluation before the move, or a mate against the mover;
- a positional reason ("lets the king on g1 be attacked", "doubles the pawns on the f-file":
  what Knightfall's evaluation sees when nothing concrete applies) is counted apart, not as a
  concrete reason; its line must be legal and Stockfish must see the move cost half a pawn.

    python3 tools/why-check.py --pgn reviewed.pgn [--engine /usr/games/stockfish] [--depth 16]

Prints the rates, the share borne out both over every verdict and over mistakes and blunders
alone (an inaccuracy costs less than the pawn the check asks Stockfish to see, so its reasons
fail the check more often), and every reason Stockfish does not bear out.
"""

import argparse
import re
import sys

import chess
import chess.engine
import chess.pgn

VERDICT = re.compile(r"^\s*(Inaccuracy|Mistake|Blunder)(:|\.)\s*(.*)$", re.S)
# What the evaluation sees when nothing concrete applies (src/review/positional.rs): counted
# apart from the concrete reasons, and checked only for a legal line and a real loss.
POSITIONAL = re.compile(
    r"^(lets the king( on [a-h][1-8])? be attacked|lets (White|Black)'s king off the hook"
    r"|leaves the pieces hemmed in|lets (White|Black)'s pieces (into play|find better squares)"
    r"|lets (White|Black)'s passed (.-pawn|pawns) grow strong|lets the passed (.-pawn|pawns) be stopped"
    r"|doubles the pawns|leaves an isolated pawn|weakens the pawns|spares (White|Black)'s pawns"
    r"|gives up the bishop pair|leaves the pieces on poorer squares|lets a rook onto the seventh rank)"
)
MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")


def line_moves(board, text):
    """The SAN moves of `text` (`8... Qxd5 9. Nf3`) played from `board`; None if one is not legal."""
    b = board.copy()
    moves = []
    for token in text.replace("…", " ").split():
        if MOVE_NUMBER.match(token):
            continue
        # The words after the line ("forks the king and the rook", "and it queens").
        if not any(c.isdigit() for c in token) and not token.startswith("O-O"):
            break
        m = re.match(r"^(\d+)\.(\.\.)?(\S+)$", token)
        if m:
            token = m.group(3)
        try:
            move = b.parse_san(token)
        except ValueError:
            return None
        moves.append(move)
        b.push(move)
    return moves


def score_for(info, side):
    """Stockfish's score for `side`: ('mate', n) with n > 0 when `side` mates, or ('cp', cp)."""
    s = info["score"].pov(side)
    if s.is_mate():
        return ("mate", s.mate())
    return ("cp", s.score())


def fresh(engine, board, limit):
    """Stockfish's analysis of `board` with an empty hash table (a new game for each), so a
    position's score does not hang on what was searched before it and a run repeats."""
    return engine.analyse(board, limit, game=object())


def check_positional(engine, limit, node, rest, checked, real, failures, game):
    """A positional reason's line must be legal after the move, and Stockfish must see the
    move cost at least half a pawn: the reason names what Knightfall's evaluation sees, which
    Stockfish cannot check term by term."""
    before, after = node.parent.board(), node.board()
    reason = re.sub(r"\.?\s*\S+ was best\.?\s*$", "", rest).strip().rstrip(".").strip()
    _, _, shown = reason.rpartition(": ")
    checked += 1
    if shown and line_moves(after, shown) is None:
        failures.append((game.headers.get("White"), node.san(), reason, "illegal line (positional)"))
        return checked, real
    b = score_for(fresh(engine, before, limit), before.turn)
    a = score_for(fresh(engine, after, limit), before.turn)
    if a[0] == "mate" or b[0] == "mate":
        ok = (a[0] == "mate" and a[1] < 0) or (b[0] == "mate" and b[1] > 0)
    else:
        ok = b[1] - a[1] >= 50
    if ok:
        real += 1
    else:
        failures.append((game.headers.get("White"), node.san(), reason, "Stockfish sees no loss (positional)"))
    return checked, real


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pgn", required=True, action="append")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=16)
    ap.add_argument("--max", type=int, default=0, help="check at most this many reasons (0: all)")
    args = ap.parse_args()
    print("why-check:", " ".join(sys.argv[1:]))

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    engine.configure({"Threads": 1, "Hash": 64})
    limit = chess.engine.Limit(depth=args.depth)

    counts = {}
    checked = bad = illegal = 0
    positional_checked = positional_real = 0
    failures = []
    # The concrete reasons of mistakes and blunders: (checked, not borne out or illegal).
    serious = [0, 0]
    for path in args.pgn:
        with open(path) as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                nodes = list(game.mainline())
                if not any(len(n.parent.variations) > 1 for n in nodes):
                    continue
                for node in nodes:
                    text = " ".join(re.sub(r"\[%[^\]]*\]", "", node.comment).split())
                    m = VERDICT.match(text)
                    if not m:
                        continue
                    verdict, mark, rest = m.groups()
                    concrete = mark == ":" and not POSITIONAL.match(rest)
                    if mark == ":" and not concrete:
                        key = (verdict, "positional")
                        counts[key] = counts.get(key, 0) + 1
                        if not (args.max and checked >= args.max):
                            positional_checked, positional_real = check_positional(
                                engine, limit, node, rest, positional_checked, positional_real, failures, game
                            )
                        continue
                    key = (verdict, concrete)
                    counts[key] = counts.get(key, 0) + 1
                    if not concrete or (args.max and checked >= args.max):
                        continue
                    before = node.parent.board()
                    after = node.board()
                    mover = before.turn
                    reason = re.sub(r"\.?\s*\S+ was best\.?\s*$", "", rest).strip().rstrip(".").strip()
                    # The line: after the reason's last colon.
                    what, _, shown = reason.rpartition(": ")
                    if not what:
                        what, shown = reason, ""
                    missed = what.startswith("misses")
                    if shown:
                        start = before if missed else after
                        if line_moves(start, shown) is None:
                            illegal += 1
                            if verdict != "Inaccuracy":
                                serious[0] += 1
                                serious[1] += 1
                            failures.append((game.headers.get("White"), node.san(), reason, f"illegal line ({verdict})"))
                            checked += 1
                            continue
                    checked += 1
                    if verdict != "Inaccuracy":
                        serious[0] += 1
                    if "tablebase" in what:
                        continue
                    # A long mate is past a fixed depth's horizon: a winning score stands for it.
                    def mates(s):
                        return (s[0] == "mate" and s[1] > 0) or (s[0] == "cp" and s[1] >= 500)

                    if "mate" in what and not missed:
                        ok = mates(score_for(fresh(engine, after, limit), not mover))
                    elif what.startswith("misses mate"):
                        ok = mates(score_for(fresh(engine, before, limit), mover))
                    else:
                        b = score_for(fresh(engine, before, limit), mover)
                        a = score_for(fresh(engine, after, limit), mover)
                        if a[0] == "mate":
                            ok = a[1] < 0
                        elif b[0] == "mate":
                            ok = b[1] > 0
                        else:
                            ok = b[1] - a[1] >= 100
                    if not ok:
                        bad += 1
                        if verdict != "Inaccuracy":
                            serious[1] += 1
                        failures.append((game.headers.get("White"), node.san(), reason, f"Stockfish disagrees ({verdict})"))
    engine.quit()

    def count(verdicts, kind):
        return sum(counts.get((v, kind), 0) for v in verdicts)

    for verdict in ("Inaccuracy", "Mistake", "Blunder"):
        yes, pos, no = (count([verdict], k) for k in (True, "positional", False))
        total = yes + pos + no
        print(
            f"{verdict}: {yes} of {total} with a concrete reason ({100 * yes / max(total, 1):.0f}%), "
            f"{pos} positional ({100 * pos / max(total, 1):.0f}%)"
        )
    both = ("Mistake", "Blunder")
    yes, pos, no = (count(both, k) for k in (True, "positional", False))
    total = yes + pos + no
    print(
        f"mistakes and blunders: {yes} of {total} with a concrete reason ({100 * yes / max(total, 1):.0f}%), "
        f"{pos} positional ({100 * pos / max(total, 1):.0f}%), {no} with none"
    )
    print(
        f"positional reasons checked: {positional_checked}; Stockfish sees a loss of half a pawn or more "
        f"in {positional_real} ({100 * positional_real / max(positional_checked, 1):.0f}%)"
    )
    right = checked - bad - illegal
    print(
        f"reasons checked: {checked}; borne out by Stockfish at depth {args.depth}: {right} "
        f"({100 * right / max(checked, 1):.0f}%); illegal lines: {illegal}; disagreements: {bad}"
    )
    print(
        f"of mistakes and blunders: {serious[0]}; borne out: {serious[0] - serious[1]} "
        f"({100 * (serious[0] - serious[1]) / max(serious[0], 1):.0f}%)"
    )
    for white, san, reason, why in failures:
        print(f"  {why}: {san} ({white}'s game): {reason}")


if __name__ == "__main__":
    main()
