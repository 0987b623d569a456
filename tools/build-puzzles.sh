#!/usr/bin/env bash
# Adds to the built-in puzzle set, assets/puzzles.csv, from games the project makes itself:
# games between neighbouring levels (1 against 2 up to 8 against 9, each side with White), whose
# mistakes are the kind people make, then `knightfall puzzles build` on them, two processes at
# a time. The levels search to fixed node counts, so the games take seconds; checking the
# puzzles takes about three seconds a game on one core.
#
#   tools/build-puzzles.sh [GAMES_PER_PAIRING]       (default 40; OUT=DIR, default target/puzzles)
#
# LOWS="1 2 3 4" plays only the pairings whose weaker level is one of those (the weaker levels'
# games give the most puzzles).
#
# Needs a release build. The games start from the embedded book with random extra plies, so
# every run plays new games; the puzzles found join those already in the set (each id once), and
# tools/balance-puzzles.py keeps the one-movers and the rating bands in proportion.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-40}
OUT=${OUT:-target/puzzles}
BIN=${KNIGHTFALL_BIN:-$PWD/target/release/knightfall}
mkdir -p "$OUT"
export KNIGHTFALL_HOME="$OUT/home"
for low in ${LOWS:-1 2 3 4 5 6 7 8}; do
    high=$((low + 1))
    for pair in "$low $high" "$high $low"; do
        set -- $pair
        file="$OUT/games-l$1-l$2.pgn"
        [ -s "$file" ] || "$BIN" watch --headless --games "$GAMES" --white-level "$1" \
            --black-level "$2" --think-ms 100 --delay-ms 0 --random-plies 4 --pgn "$file" \
            > /dev/null
    done
done
files=("$OUT"/games-*.pgn)
half=$(( (${#files[@]} + 1) / 2 ))
rm -f "$OUT/a.csv" "$OUT/b.csv"
"$BIN" puzzles build --out "$OUT/a.csv" "${files[@]:0:$half}" &
"$BIN" puzzles build --out "$OUT/b.csv" "${files[@]:$half}" &
wait
# The new puzzles join the set (one header, each puzzle once), which is balanced again: at most
# 40% one-movers, no 100-point rating band over 20%, easiest first.
{
    echo "PuzzleId,FEN,Moves,Rating,Themes"
    tail -q -n +2 assets/puzzles.csv "$OUT/a.csv" "$OUT/b.csv" | sort -t, -k1,1 -u
} > "$OUT/set.csv"
python3 tools/balance-puzzles.py --file "$OUT/set.csv" --out assets/puzzles.csv
echo "$(($(wc -l < assets/puzzles.csv) - 1)) puzzles in assets/puzzles.csv"
