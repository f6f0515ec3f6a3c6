#!/usr/bin/env bash
# Issue 7 acceptance: train V, vanilla Q, Q+Omega_exp and Q+Omega_heu R-GNNs per domain, then run
# the scaling evaluation on each. Resumable: a trained model is kept, an evaluation resumes from
# its runs.jsonl. Usage: experiments/train_gnns.sh [DOMAIN...]   (default: gripper ferry blocksworld)
# Budget knobs (CPU, 2 cores): EPOCHS, LAYERS, MAX_SIZE, SECONDS_PER_SIZE.
set -euo pipefail
cd "$(dirname "$0")/.."
STRATPOL=${STRATPOL:-.venv/bin/stratpol}
OUT=${OUT:-experiments/results/gnn}
EPOCHS=${EPOCHS:-40}
LAYERS=${LAYERS:-16}
MAX_SIZE=${MAX_SIZE:-30}
SECONDS_PER_SIZE=${SECONDS_PER_SIZE:-10}
declare -A SIZES=([gripper]=5:20 [blocksworld]=2:8 [ferry]=3:10 [logistics]=6:14)
declare -A PER_SIZE=([gripper]=1 [blocksworld]=4 [ferry]=4 [logistics]=5)
for domain in ${@:-gripper ferry blocksworld}; do
  for value in q-heu q-exp v q; do
    model=$OUT/models/$domain-$value
    if [ ! -f "$model/training.json" ]; then
      "$STRATPOL" train-gnn "$domain" --value "$value" --sizes "${SIZES[$domain]}" --per-size "${PER_SIZE[$domain]}" \
        --planner astar-lmcut --time-limit 30 --epochs "$EPOCHS" --layers "$LAYERS" --batch-size 32 \
        --validate-every 10 --patience 2 --validation-instances 5 --validation-sizes 3 --out "$model"
    fi
    "$STRATPOL" evaluate "$model" --domain "$domain" --max-size "$MAX_SIZE" \
      --seconds-per-size "$SECONDS_PER_SIZE" --out "$OUT/$domain-$value" | tail -1
  done
done
