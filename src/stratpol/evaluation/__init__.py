"""The evaluation protocol: policies that pick successors, runs, validation and scaling.

The names below load on first use, so that the command line can read the protocol's settings
(`stratpol.evaluation.protocol`) without loading the planning engine.
"""

from __future__ import annotations

import importlib

_HOMES = {"BatchPolicy": "policies", "Controller": "policies", "GeneralPolicy": "policies", "PlannerPolicy": "policies",
          "RulePolicy": "policies", "RunFailure": "runner", "RunOutcome": "runner", "run": "runner",
          "run_together": "runner"}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
