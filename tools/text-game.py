#!/usr/bin/env python3
"""Plays Knightfall's plain-text mode in a pseudo-terminal as a blind player would, reading only
the lines Knightfall says: a whole game against the engine (the board kept from "Knightfall
plays knight from g8 to f6." lines, "Your move" answered with a capture when there is one,
else a random legal move, the same each run with the same seed, questions asked now and then),
then the review of that game (found from the "Game saved to" line) stepped through its
flagged moves, a puzzle (the board read from the pieces lines; a mate, a check or a capture
tried, the hint asked for when none), and a KQvK drill played to mate from the hints. It
prints the transcript and checks every line: no escape sequence, box-drawing character or
figurine, and no line said twice in a row.

    python3 tools/text-game.py --bin target/release/knightfall --level 3 --tc 5+3 \\
        --out transcript.txt
"""

import argparse
import os
import pty
import random
import re
import select
import subprocess
import sys
import tempfile
import termios
import time

import chess

MOVE = re.compile(
    r"^(You play|.+ plays) (?:"
    r"(?P<castle>castles (?:kingside|queenside))"
    r"|\w+ from (?P<from>[a-h][1-8]) (?:to|takes \w+ on) (?P<to>[a-h][1-8])"
    r"(?:, promoting to (?P<promo>\w+))?)"
)
PIECES = re.compile(r"^(White|Black): (king .*)\.$")
SAID_MOVE = re.compile(r"plays? (?P<role>\w+)(?: from (?P<from>[a-h1-8]{1,2}))? (?:to|takes) (?P<to>[a-h][1-8])")
PROMO = {"queen": "q", "rook": "r", "bishop": "b", "knight": "n"}
ROLE = {"king": chess.KING, "queen": chess.QUEEN, "rook": chess.ROOK, "bishop": chess.BISHOP,
        "knight": chess.KNIGHT, "pawn": chess.PAWN}
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


def board_from(pieces, turn):
    """The board the two pieces lines ("White: king e1, queen d1, pawns a2 b2.") describe."""
    board = chess.Board(None)
    for colour, text in pieces.items():
        for group in text.split(", "):
            name, *squares = group.split(" ")
            role = ROLE[name.rstrip("s")]
            for sq in squares:
                board.set_piece_at(chess.parse_square(sq), chess.Piece(role, colour))
    board.turn = turn
    return board


class Conversation:
    """Knightfall in plain text in a pseudo-terminal (echo off: a typed line is not said)."""

    def __init__(self, argv, home, lines):
        self.lines = lines
        master, slave = pty.openpty()
        attrs = termios.tcgetattr(slave)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave,
                                     env={**os.environ, "KNIGHTFALL_HOME": home},
                                     close_fds=True)
        os.close(slave)
        self.master, self.pending, self.fresh = master, b"", []

    def send(self, text):
        self.lines.append(f"> {text}")
        os.write(self.master, (text + "\n").encode())

    def read(self, timeout=1.0):
        """The lines said within `timeout` seconds (none when it has ended)."""
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            try:
                chunk = os.read(self.master, 4096)
            except OSError:
                chunk = b""
            self.pending += chunk.replace(b"\r", b"")
        new = []
        while b"\n" in self.pending:
            raw, self.pending = self.pending.split(b"\n", 1)
            line = raw.decode("utf-8", "replace")
            self.lines.append(line)
            new.append(line)
        return new

    def until(self, pred, limit=120):
        """Reads until a line satisfies `pred`; returns it."""
        end = time.time() + limit
        while time.time() < end:
            for line in self.read():
                if pred(line):
                    return line
            if self.proc.poll() is not None and not self.pending:
                break
        raise RuntimeError(f"waited in vain; last lines: {self.lines[-8:]}")

    def close(self):
        try:
            self.proc.wait(timeout=30)
        finally:
            while self.read(0.2):
                pass
            os.close(self.master)
        return self.proc.returncode


def game(args, home, lines, rng):
    """The game against the engine; returns the file it was saved to and the plies played."""
    talk = Conversation([args.bin, "--text", "play", "--white", "human", "--level",
                         str(args.level), "--tc", args.tc], home, lines)
    board, asked, saved = chess.Board(), 0, None
    end = time.time() + 900
    while time.time() < end and talk.proc.poll() is None:
        for line in talk.read():
            m = MOVE.match(line)
            if m:
                board.push(played(board, m))
            if line.startswith("Your move"):
                if board.fullmove_number % 5 == 0 and asked < len(QUESTIONS):
                    talk.send(QUESTIONS[asked])
                    asked += 1
                moves = list(board.legal_moves)
                captures = [mv for mv in moves if board.is_capture(mv)]
                talk.send(board.san(rng.choice(captures or moves)))
            if "Play again" in line:
                talk.send("n")
                talk.send("quit")
            if line.startswith("Game saved to "):
                saved = line[len("Game saved to "):].strip()
    talk.close()
    return saved, board


def review(args, home, lines, saved):
    """The review of the game: its verdict, then every flagged move from the first."""
    talk = Conversation([args.bin, "--text", "review", saved, "--movetime",
                         str(args.movetime)], home, lines)
    talk.until(lambda l: l.startswith("Type forward for the first move"), limit=600)
    flagged = 0
    for _ in range(8):
        talk.send("next")
        line = talk.until(lambda l: l.startswith("Move ") or "no " in l.lower())
        if not line.startswith("Move "):
            break
        flagged += 1
    talk.send("summary")
    talk.until(lambda l: "accuracy" in l.lower())
    talk.send("q")
    talk.close()
    return flagged


def puzzle(args, home, lines):
    """A puzzle: the board read from the pieces lines and the move said, a move chosen."""
    talk = Conversation([args.bin, "--text", "train", "puzzles"], home, lines)
    pieces, board, solved = {}, None, None
    end = time.time() + 120
    while time.time() < end and solved is None:
        for line in talk.read():
            p = PIECES.match(line)
            if p:
                pieces[chess.WHITE if p.group(1) == "White" else chess.BLACK] = p.group(2)
            m = MOVE.match(line)
            if m and len(pieces) == 2 and board is None:
                # The pieces are said before the opponent's move.
                turn = chess.WHITE if line.startswith("White") else chess.BLACK
                board = board_from(pieces, turn)
                board.push(played(board, m))
            elif m and board is not None:
                board.push(played(board, m))
            if board is not None and ("find the best move" in line or ": right." in line):
                talk.send(choose(board))
            if "solved" in line or "The solution" in line or "Answered by" in line:
                solved = "solved" in line
    talk.send("quit")
    talk.close()
    return solved


def choose(board):
    """A mate, else a check that wins material, else the biggest capture, else a check."""
    moves = list(board.legal_moves)
    for mv in moves:
        board.push(mv)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return mv.uci()
    captures = sorted((mv for mv in moves if board.is_capture(mv)),
                      key=lambda mv: -(board.piece_type_at(mv.to_square) or 1))
    checks = [mv for mv in moves if board.gives_check(mv)]
    return (captures or checks or moves)[0].uci()


def drill(args, home, lines):
    """A KQvK drill played to the end from the hints; returns the verdict line."""
    talk = Conversation([args.bin, "--text", "train", "endgames", "KQvK", "--difficulty",
                         "easy"], home, lines)
    talk.until(lambda l: "to play and win" in l)
    for _ in range(40):
        talk.send("hint")
        talk.until(lambda l: l.startswith("Move the "))
        talk.send("hint")
        hint = talk.until(lambda l: l.startswith("The tables play "))
        m = SAID_MOVE.search(hint)
        letter = {"queen": "Q", "king": "K"}[m.group("role")]
        talk.send(letter + m.group("to"))
        line = talk.until(lambda l: l.startswith("You play "))
        if "checkmate" in line:
            break
    won = [l for l in lines if "Won in" in l]
    verdict = won[-1] if won else talk.until(lambda l: "Won in" in l)
    talk.send("quit")
    talk.close()
    return verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/release/knightfall")
    ap.add_argument("--level", type=int, default=3)
    ap.add_argument("--tc", default="5+3")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--movetime", type=int, default=300, help="the review's ms a position")
    ap.add_argument("--out", help="write the transcript here too")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    home = tempfile.mkdtemp(prefix="knightfall-text-")
    lines = []
    saved, board = game(args, home, lines, rng)
    game_lines = len(lines)
    flagged = review(args, home, lines, saved) if saved else 0
    solved = puzzle(args, home, lines)
    won = drill(args, home, lines)
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")
    said = [l for l in lines if not l.startswith("> ")]
    bad = [l for l in said if "\x1b" in l or re.search("[\u2500-\u259f\u2654-\u265f]", l)]
    twice = [a for a, b in zip(said, said[1:]) if a == b]
    game_said = [l for l in lines[:game_lines] if not l.startswith("> ")]
    print(f"\ngame: {len(game_said)} lines said, {sum(len(l.split()) for l in game_said)} words, "
          f"{board.ply()} plies, result {board.result(claim_draw=True)}, saved to {saved}; "
          f"review: {flagged} flagged moves stepped to; puzzle: "
          f"{'solved' if solved else 'not solved'}; drill: {won}\n"
          f"all: {len(said)} lines said; {len(bad)} with an escape, box or figurine; "
          f"{len(twice)} said twice in a row",
          file=sys.stderr)
    sys.exit(1 if bad or twice or not saved or not won else 0)


if __name__ == "__main__":
    main()
