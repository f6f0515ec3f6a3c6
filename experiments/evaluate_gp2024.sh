#!/usr/bin/env bash
# Scaling evaluation, to size 200 (the protocol's default), of the policies learned on the GENEX
# paper's training sets (experiments/results/policies/gp2024/), on our generators' instances.
# epsilon 0.1 and at most 20 s per size keep a domain under an hour on one core; runs.jsonl makes
# an interrupted evaluation resume. Arguments: policy names to evaluate (default: all that have a
# generator). Results in experiments/results/gp2024/NAME-rules/.
set -euo pipefail
cd "$(dirname "$0")/.."
generators=$(.venv/bin/stratpol domains | awk 'NR > 1 {print $1}')
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for policy in experiments/results/policies/gp2024/*.policy; do names+=("$(basename "$policy" .policy)"); done
fi
for name in "${names[@]}"; do
  domain=${name%-gluten-free}  # childsnack-gluten-free.policy: a childsnack policy
  if ! grep -qx -- "$domain" <<< "$generators"; then
    echo "$name: no generator for $domain, skipped" >&2
    continue
  fi
  echo "$name on $domain" >&2
  .venv/bin/stratpol evaluate "experiments/results/policies/gp2024/$name.policy" --domain "$domain" \
    --max-size 200 --epsilon 0.1 --seconds-per-size 20 --out "experiments/results/gp2024/$name-rules" > /dev/null \
    || echo "$name: not evaluated (its error is above)" >&2
done
