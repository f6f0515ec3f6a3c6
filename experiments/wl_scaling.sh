#!/usr/bin/env bash
# Scaling evaluation of WL transition models trained by experiments/wl_table1.py, bounded to fit
# in about 15 minutes on one core: sizes up to 40, epsilon 0.1 (as the rule policies in
# experiments/results/*-rules), 3 s per size (a size's runs stop at the budget, so large sizes
# get few runs). Arguments: model names under experiments/results/wl/models (default: all seed-0
# models). Then one plot per domain beside the rules and LAMA results where they exist, and the
# Scale / SumCov table (experiments/wl_scaling_table.py).
set -euo pipefail
cd "$(dirname "$0")/.."
results=experiments/results/wl
mkdir -p "$results/scaling"
if [[ $# -eq 0 ]]; then
  set -- $(cd "$results/models" && ls -d *-state *-delta)
fi
for name in "$@"; do
  domain=${name%%-*}
  .venv/bin/stratpol evaluate "$results/models/$name" --domain "$domain" --max-size 40 --epsilon 0.1 \
    --seconds-per-size 3 --out "$results/scaling/$name" > "$results/scaling/$name.txt" 2> /dev/null
done
for domain in blocksworld gripper logistics visitall; do
  mine=("$results"/scaling/"$domain"-*/)
  [[ -d ${mine[0]} ]] || continue
  others=()
  for other in experiments/results/"$domain"-rules experiments/results/"$domain"-lama-first; do
    [[ -f $other/scaling.json ]] && others+=("$other")
  done
  .venv/bin/stratpol plot "${mine[@]}" "${others[@]}" --out "$results/scaling-$domain.png" > /dev/null
done
.venv/bin/python experiments/wl_scaling_table.py
