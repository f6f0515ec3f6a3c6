"""The evaluation protocol: policies that pick successors, runs, validation and scaling."""

from stratpol.evaluation.policies import Controller, GeneralPolicy, PlannerPolicy, RulePolicy
from stratpol.evaluation.runner import RunFailure, RunOutcome, run

__all__ = ["Controller", "GeneralPolicy", "PlannerPolicy", "RulePolicy", "RunFailure", "RunOutcome", "run"]
