#!/usr/bin/env bash
# Re-tunes the tapered evaluation: self-play data at a fixed node count, then the Texel fit,
# which rewrites src/engine/tuned.rs. About 40 minutes for the data and 10 for the fit on two
# cores. The data is written to $OUT (default /tmp/tune).
#
#   tools/tune.sh [GAMES]
#
# The games are played by the engine as built, so the data depends on the weights it starts
# with: the shipped weights were fitted to games of the untuned start weights
# (`params::start()`, PeSTO and the notebook values), hence `--from-start` below.
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-5000}
OUT=${OUT:-/tmp/tune}
mkdir -p "$OUT"
cargo build --release --bin knightfall-tune
target/release/knightfall-tune gen --games "$GAMES" --nodes 6000 --threads 2 --seed 1 \
    --out "$OUT/selfplay-1.txt"
target/release/knightfall-tune fit --data "$OUT/selfplay-1.txt" --from-start --epochs 3000
