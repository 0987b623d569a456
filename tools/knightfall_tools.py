"""What the Python tools in tools/ share: where the Knightfall binary, Stockfish and the shared
test data are, and where a tool keeps its output by default.

The scripts are run from the repository root (`python3 tools/NAME.py`), which puts this folder
on the import path; `pip install -r tools/requirements.txt` installs what they import.
"""

import os
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def knightfall_binary():
    """`$KNIGHTFALL_BIN`, or the release build of this checkout."""
    return os.environ.get("KNIGHTFALL_BIN") or str(ROOT / "target" / "release" / "knightfall")


def stockfish():
    """Stockfish on the path, else Debian's (`apt-get install stockfish`)."""
    return shutil.which("stockfish") or "/usr/games/stockfish"


def shared(relative):
    """A file of the shared test data beside the checkout (`../shared`)."""
    return str(SHARED / relative)


def output(name):
    """Where a tool writes by default: `target/NAME` in the checkout (made if missing)."""
    path = ROOT / "target" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return str(path)


def parse_levels(text):
    """"1-10", "1,3,5-7" -> the set of levels named."""
    levels = set()
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            levels.update(range(int(lo), int(hi) + 1))
        elif part:
            levels.add(int(part))
    return levels


def header_levels(headers):
    """{"White": N, "Black": M}: the levels a game's player headers name ("... level N")."""
    found = {}
    for side in ("White", "Black"):
        match = re.search(r"level (\d+)", headers.get(side, ""))
        if match:
            found[side] = int(match.group(1))
    return found
