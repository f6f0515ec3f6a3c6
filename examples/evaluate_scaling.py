"""Evaluate a rule policy with the scaling protocol: instances of growing size from the domain's
generator, coverage per size within a confidence bound, until it stays below tau.

    python examples/evaluate_scaling.py                                  # Gripper's policy up to 20 objects
    python examples/evaluate_scaling.py POLICY DOMAIN MAX_SIZE OUT_DIR
"""

import sys

import stratpol

policy_file, domain, max_size, out = sys.argv[1:5] if len(sys.argv) == 5 else (
    "tests/data/golden/gripper.policy", "gripper", "20", "out/gripper-scaling")

policy = stratpol.read_policy(policy_file, stratpol.domain(domain))
settings = stratpol.ScalingSettings(max_size=int(max_size), epsilon=0.1, kappa=0.1)
result = stratpol.evaluate(policy, domain, settings, out)
print(result.describe())
print(f"runs, tables and provenance in {out}")
