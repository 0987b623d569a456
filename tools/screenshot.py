#!/usr/bin/env python3
"""Makes docs/screenshot.png: the real game screen, played and captured in tmux, drawn to PNG.

Runs `target/release/knightfall` (build it first) in a detached tmux session at 120x36 with a
home of its own, plays a short opening against level 5, captures the screen with its colours
(`tmux capture-pane -e`) and renders the cells with a monospace font.

Needs tmux and the Python packages in tools/requirements.txt (pyte, Pillow).
Usage: python3 tools/screenshot.py [--out docs/screenshot.png]
"""

import argparse
import os
import pathlib
import subprocess
import tempfile
import time

import pyte
from PIL import Image, ImageDraw, ImageFont

ROOT = pathlib.Path(__file__).resolve().parent.parent
COLS, ROWS = 120, 36
CELL_W, CELL_H = 10, 20
FONTS = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
    "/usr/share/fonts/TTF/DejaVuSansMono.ttf",
    "/Library/Fonts/DejaVuSansMono.ttf",
]
# The 16 colours of the usual xterm palette.
BASE = [
    (0, 0, 0), (205, 49, 49), (13, 188, 121), (229, 229, 16), (36, 114, 200), (188, 63, 188),
    (17, 168, 205), (229, 229, 229), (102, 102, 102), (241, 76, 76), (35, 209, 139),
    (245, 245, 67), (59, 142, 234), (214, 112, 214), (41, 184, 219), (255, 255, 255),
]
NAMED = {
    "black": 0, "red": 1, "green": 2, "brown": 3, "yellow": 3, "blue": 4, "magenta": 5,
    "cyan": 6, "white": 7,
}


def colour(value, default):
    """A pyte colour (a name or six hex digits) as RGB."""
    if value in NAMED:
        return BASE[NAMED[value]]
    if isinstance(value, str) and len(value) == 6:
        try:
            return tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))
        except ValueError:
            pass
    return default


def tmux(*args):
    return subprocess.run(["tmux", *args], check=True, capture_output=True, text=True).stdout


def capture(binary, home):
    """Plays a few moves in tmux and returns the screen with its escape sequences."""
    session = f"knightfall-shot-{os.getpid()}"
    env = f"KNIGHTFALL_HOME={home} TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8"
    command = f"env {env} {binary} play --white human --black engine --level 5 --tc 5+3"
    # The picture shows the engine's evaluation, which a game hides until asked for.
    with open(os.path.join(home, "config.toml"), "w") as config:
        config.write("show_eval = true\n")
    tmux("new-session", "-d", "-s", session, "-x", str(COLS), "-y", str(ROWS), command)
    try:
        time.sleep(1.5)
        for move in ["e4", "Nf3", "Nc3", "d3"]:
            tmux("send-keys", "-t", session, move, "Enter")
            time.sleep(2.5)
        shot = tmux("capture-pane", "-t", session, "-e", "-p")
        # Leave as a player does, so the game is put away before the folder goes.
        tmux("send-keys", "-t", session, "C-q")
        time.sleep(1.0)
        return shot
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)


def render(text, out):
    screen = pyte.Screen(COLS, ROWS)
    pyte.ByteStream(screen).feed(text.rstrip("\n").replace("\n", "\r\n").encode())
    font_path = next(f for f in FONTS if os.path.exists(f))
    font = ImageFont.truetype(font_path, 16)
    bold = ImageFont.truetype(font_path.replace("Mono.ttf", "Mono-Bold.ttf"), 16)
    image = Image.new("RGB", (COLS * CELL_W, ROWS * CELL_H))
    draw = ImageDraw.Draw(image)
    for y in range(ROWS):
        for x in range(COLS):
            cell = screen.buffer[y][x]
            fg = colour(cell.fg, (229, 229, 229))
            bg = colour(cell.bg, (0, 0, 0))
            if cell.reverse:
                fg, bg = bg, fg
            box = [x * CELL_W, y * CELL_H, (x + 1) * CELL_W - 1, (y + 1) * CELL_H - 1]
            draw.rectangle(box, fill=bg)
            if cell.data.strip():
                draw.text((x * CELL_W, y * CELL_H), cell.data, font=bold if cell.bold else font,
                          fill=fg)
    image.save(out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "screenshot.png"))
    parser.add_argument("--bin", default=str(ROOT / "target" / "release" / "knightfall"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as home:
        text = capture(args.bin, home)
    render(text, args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
