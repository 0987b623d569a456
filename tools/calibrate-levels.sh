#!/usr/bin/env bash
# Plays the level-calibration matches of docs/LEVELS.md with ../shared/tools/match.py, one game
# at a time, 10+0.1, the shared 8-ply openings. Results go to $OUT (default target/levels); fit
# them with `python3 tools/fit-levels.py $OUT/*.log`.
#
#   tools/calibrate-levels.sh [GAMES] [STAGE...]      stages: bots ladder stockfish top
#
# JOBS=2 plays two games at a time. Without pondering only one engine of a game thinks at any
# moment, so two games keep two cores busy with one search each, the same as one game on an
# idle machine.
#
# Needs tools/requirements.txt, Debian's stockfish (see ../shared/tools/README.md) and a release
# build.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-100}
shift || true
STAGES=${*:-bots ladder stockfish top}
OUT=${OUT:-target/levels}
JOBS=${JOBS:-1}
MATCH=../shared/tools/match.py
OPENINGS=../shared/data/openings/openings-8ply.epd
export KNIGHTFALL_BIN=${KNIGHTFALL_BIN:-$PWD/target/release/knightfall}
mkdir -p "$OUT"

level() { echo "knightfall,Skill Level=$1"; }

play() { # play TAG A B
    local tag=$1 a=$2 b=$3
    if grep -q '^RESULT' "$OUT/$tag.log" 2>/dev/null; then
        echo "$tag: done already"; return
    fi
    python3 "$MATCH" --a "$a" --b "$b" --games "$GAMES" --tc 10+0.1 --openings "$OPENINGS" \
        --concurrency "$JOBS" --pgn "$OUT/$tag.pgn" > "$OUT/$tag.log" 2>&1
    grep '^RESULT' "$OUT/$tag.log"
}

for stage in $STAGES; do
    case $stage in
        bots)
            play greedy-vs-random "knightfall:--bot greedy" "knightfall:--bot random"
            for n in 1 2; do
                play "l$n-vs-random" "$(level $n)" "knightfall:--bot random"
                play "l$n-vs-greedy" "$(level $n)" "knightfall:--bot greedy"
            done ;;
        ladder)
            for n in 1 2 3 4 5 6 7 8; do
                play "l$((n + 1))-vs-l$n" "$(level $((n + 1)))" "$(level $n)"
            done ;;
        stockfish)
            # Stockfish's lowest setting against the levels nearest to it.
            for n in 5 6; do
                play "l$n-vs-sf1350" "$(level $n)" sf:1350
            done ;;
        top)
            play l10-vs-sf2200 "knightfall,Hash=64" sf:2200
            play l10-vs-l9 "knightfall,Hash=64" "$(level 9)" ;;
        *) echo "unknown stage $stage" >&2; exit 2 ;;
    esac
done
