#!/usr/bin/env bash
# Re-tunes the tapered evaluation: self-play data at a fixed node count, then the Texel fit,
# which rewrites src/engine/tuned.rs. On two cores each round of data takes about 30 minutes
# and each fit 3. Data goes to $OUT (default /tmp/tune).
#
#   tools/tune.sh ROUND [GAMES]
#
# The games are played by the engine as built, so each round's data comes from the weights of
# the round before. The shipped weights were made in three rounds: round 1 from games of the
# start weights (`params::start()`: PeSTO and the notebooks' values), fitted from them; round 2
# from games of round 1's weights, fitted on both rounds' data from round 1's weights; round 3
# (`tools/tune.sh 3 4000`) from games of round 2's weights, after the pawn shield, the kings'
# distance to passed pawns and supported and side-by-side pawns joined the terms (at zero),
# fitted on all three rounds' data from round 2's weights; round 4 (`tools/tune.sh 4 4000`) the
# same way, after safe checks, outposts, backward pawns, rooks on the seventh, minor pieces behind
# pawns, open files and pawn storms at the king and pawn-push threats joined the terms (at zero),
# fitted on all four rounds' data from round 3's weights; round 5 (`tools/tune.sh 5 4000`) the
# same way, after bishops' own pawns, rooks behind passed pawns, blocked passed pawns and storms,
# weak king-zone squares, pins, space and rooks attacking queens joined the terms (at zero),
# fitted on all five rounds' data from round 4's weights. Games that the random opening plies
# leave lopsided are dropped, so a round keeps about three in four of the games asked for. The
# piece-square tables stay PeSTO's (`--freeze-tables`): fitting them too overfitted this much
# data (see CHANGELOG.md).
#
# `tools/sf-selfplay.py` makes data from Stockfish's games instead (with its scores, which
# `knightfall-tune fit --score-weight` can fit to); weights fitted that way did not play better
# (CHANGELOG.md, "Tried and not kept").
#
# The shipped weights go one step further (session 23): a sixth round's data (`gen --seed 6`
# and `--seed 7`, 10,000 games each, from the round-5 weights), every tenth position scored by
# Stockfish (`tools/sf-label.py --every 10 --nodes 10000`), fitted from the round-5 weights to
# half the result and half Stockfish's score (`fit --score-weight 0.5 --freeze-tables
# --epochs 1500`); see CHANGELOG.md, "Evaluation: weights fitted half to Stockfish's scores".
# Session 25 fitted the piece-square tables too, on three tenths of those positions scored
# (`sf-label.py --every 10 --offsets 5`, and `--offsets 2,8` for seed 6; 371,932 in all) with
# `fit --score-weight 0.5 --min-count 300 --epochs 1500` from session 23's weights; see
# CHANGELOG.md, "Evaluation: the piece-square tables fitted too".
set -euo pipefail
cd "$(dirname "$0")/.."
ROUND=${1:?round number (1, 2, ...)}
GAMES=${2:-5000}
OUT=${OUT:-/tmp/tune}
mkdir -p "$OUT"
cargo build --release --bin knightfall-tune
target/release/knightfall-tune gen --games "$GAMES" --nodes 6000 --threads 2 --seed "$ROUND" \
    --out "$OUT/selfplay-$ROUND.txt"
DATA=()
for r in $(seq 1 "$ROUND"); do DATA+=(--data "$OUT/selfplay-$r.txt"); done
FROM=()
if [ "$ROUND" = 1 ]; then FROM=(--from-start); fi
target/release/knightfall-tune fit "${DATA[@]}" "${FROM[@]}" --freeze-tables --epochs 1500
