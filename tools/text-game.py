#!/usr/bin/env python3
"""Plays a whole game through Knightfall's plain-text mode as a blind player would: it reads
only the lines Knightfall says, keeps the board from them ("Knightfall plays knight from g8 to
f6."), asks a question now and then, and answers "Your move" with a move of its own (a capture
when there is one, else a random legal move, the same each run with the same seed). It prints
the transcript and checks every line: no escape sequence, box-drawing character or figurine,
and no line said twice in a row.

    python3 tools/text-game.py --bin target/release/knightfall --level 3 --tc 5+3 \\
        --out transcript.txt
"""

import argparse
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time

import chess

MOVE = re.compile(
    r"^(You play|.+ plays) (?:"
    r"(?P<castle>castles (?:kingside|queenside))"
    r"|\w+ from (?P<from>[a-h][1-8]) (?:to|takes \w+ on) (?P<to>[a-h][1-8])"
    r"(?:, promoting to (?P<promo>\w+))?)"
)
PROMO = {"queen": "q", "rook": "r", "bishop": "b", "knight": "n"}
QUESTIONS = ["rank 4", "where queen", "square e4", "pieces black", "clock", "material"]


def played(board, m):
    """The move a said line describes, on `board`."""
    if m.group("castle"):
        side = "K" if "kingside" in m.group("castle") else "Q"
        for move in board.legal_moves:
            if board.is_castling(move) and (
                board.is_kingside_castling(move) == (side == "K")
            ):
                return move
        raise ValueError(m.group(0))
    uci = m.group("from") + m.group("to") + PROMO.get(m.group("promo") or "", "")
    return chess.Move.from_uci(uci)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/knightfall")
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--tc", default="5+3")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="write the transcript here too")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    home = tempfile.mkdtemp(prefix="knightfall-text-")
    proc = subprocess.Popen(
        [args.bin, "--text", "play", "--white", "human", "--level", str(args.level),
         "--tc", args.tc],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env={**os.environ, "KNIGHTFALL_HOME": home},
    )
    board = chess.Board()
    lines, pending = [], b""
    asked = 0
    started = time.time()

    def send(text):
        lines.append(f"> {text}")
        proc.stdin.write((text + "\n").encode())
        proc.stdin.flush()

    while time.time() - started < 900:
        ready, _, _ = select.select([proc.stdout], [], [], 1.0)
        if not ready:
            if proc.poll() is not None:
                break
            continue
        chunk = os.read(proc.stdout.fileno(), 4096)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            raw, pending = pending.split(b"\n", 1)
            line = raw.decode("utf-8", "replace")
            lines.append(line)
            m = MOVE.match(line)
            if m:
                board.push(played(board, m))
            if line.startswith("Your move"):
                if board.fullmove_number % 5 == 0 and asked < len(QUESTIONS):
                    send(QUESTIONS[asked])
                    asked += 1
                moves = list(board.legal_moves)
                captures = [mv for mv in moves if board.is_capture(mv)]
                move = rng.choice(captures or moves)
                send(board.san(move))
            if "Play again" in line:
                send("n")
                send("quit")
    proc.stdin.close()
    proc.wait(timeout=30)
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    said = [l for l in lines if not l.startswith("> ")]
    bad = [l for l in said if "\x1b" in l or re.search("[\u2500-\u259f\u2654-\u265f]", l)]
    twice = [a for a, b in zip(said, said[1:]) if a == b]
    print(f"\n{len(said)} lines said, {sum(len(l.split()) for l in said)} words, "
          f"{board.ply()} plies, result {board.result(claim_draw=True)}; "
          f"{len(bad)} with an escape, box or figurine; {len(twice)} said twice in a row",
          file=sys.stderr)
    sys.exit(1 if bad or twice or proc.returncode != 0 else 0)


if __name__ == "__main__":
    main()
