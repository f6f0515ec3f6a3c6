"""stratpol: general policies for classical planning, learned and certified.

    import stratpol
    learned = stratpol.learn("gripper")              # policy, certificate, statistics, verifications
    stratpol.check(learned.policy).stratified         # the termination certificate holds
    outcome = stratpol.run(learned.policy, stratpol.domain("gripper").load_instance("p.pddl"))

The names load on first use, so that `import stratpol` stays light (the command line reads the
version without loading the planning engine).
"""

from __future__ import annotations

import importlib

__version__ = "0.1.0"

_HOMES = {
    "domain": "stratpol.api", "read_policy": "stratpol.api", "check": "stratpol.api", "verify": "stratpol.api",
    "run": "stratpol.api", "evaluate": "stratpol.api",
    "learn": "stratpol.learner", "learning_task": "stratpol.learner", "LearningTask": "stratpol.learner",
    "LearningSettings": "stratpol.learning.settings", "NamedSettings": "stratpol.learning.settings",
    "learning_configuration": "stratpol.learning.settings", "LearningFailure": "stratpol.learning.result",
    "ScalingSettings": "stratpol.evaluation.protocol",
    "Domain": "stratpol.planning", "Instance": "stratpol.planning",
    "Policy": "stratpol.policy", "format_policy": "stratpol.policy.text", "write_policy": "stratpol.policy.text",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> object:
    if name not in _HOMES:
        raise AttributeError(f"module 'stratpol' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOMES[name]), name)


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
