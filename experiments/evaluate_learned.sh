#!/usr/bin/env bash
# Scaling evaluation of the policies learned by `stratpol learn DOMAIN` (default training sets),
# bounded so that it fits in an hour on two cores: sizes up to 60, epsilon 0.1, 60 s per size.
set -euo pipefail
cd "$(dirname "$0")/.."
for policy in experiments/results/policies/*.policy; do
  domain=$(basename "$policy" .policy)
  .venv/bin/stratpol evaluate "$policy" --domain "$domain" --max-size 60 --epsilon 0.1 \
    --seconds-per-size 60 --out "experiments/results/$domain-rules" > /dev/null
done
.venv/bin/stratpol plot experiments/results/*-rules --out experiments/results/scaling-rules.png
