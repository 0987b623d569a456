#!/usr/bin/env bash
# Re-tunes the tapered evaluation: self-play data at a fixed node count, then the Texel fit,
# which rewrites src/engine/tuned.rs. On two cores each round of data takes about 30 minutes
# and each fit 3. Data goes to $OUT (default target/tune).
#
#   tools/tune.sh ROUND [GAMES]
#
# The games are played by the engine as built, so each round's data comes from the weights of
# the round before: round 1 from the start weights (`params::start()`: PeSTO and the notebooks'
# values), each later round from the last round's weights, fitted on all rounds' data so far.
# New terms join at zero and are fitted in the next round. Games that the random opening plies
# leave lopsided are dropped (about one in four).
#
# The shipped weights (src/engine/tuned.rs says how they were made) add Stockfish's judgement:
# a share of the positions scored by `tools/sf-label.py`, then
# `knightfall-tune fit --score-weight 0.5`, which fits half to the game results and half to
# the scores. `tools/sf-selfplay.py` makes data from Stockfish's own games instead. CHANGELOG.md
# gives what each fit measured in games.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUND=${1:?round number (1, 2, ...)}
GAMES=${2:-5000}
OUT=${OUT:-target/tune}
mkdir -p "$OUT"
cargo build --release --bin knightfall-tune
target/release/knightfall-tune gen --games "$GAMES" --nodes 6000 --threads 2 --seed "$ROUND" \
    --out "$OUT/selfplay-$ROUND.txt"
DATA=()
for r in $(seq 1 "$ROUND"); do DATA+=(--data "$OUT/selfplay-$r.txt"); done
FROM=()
if [ "$ROUND" = 1 ]; then FROM=(--from-start); fi
target/release/knightfall-tune fit "${DATA[@]}" "${FROM[@]}" --freeze-tables --epochs 1500
