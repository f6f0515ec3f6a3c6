"""Why a rule policy has no successor in a state: its feature values there, and what each
applicable action would change, so that one sees which rule a successor misses and which feature
a policy lacks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stratpol.evaluation.policies import RulePolicy
from stratpol.features.mimir_evaluation import DLPLAN_INFINITY
from stratpol.planning import GroundAction, Instance, State


@dataclass(frozen=True)
class SuccessorChange:
    """One applicable action: the features it changes (name -> (before, after)) and whether a
    rule accepts the transition."""

    action: GroundAction
    changes: dict[str, tuple[int, int]]
    accepted: bool


@dataclass(frozen=True)
class StateExplanation:
    values: dict[str, int]
    successors: tuple[SuccessorChange, ...]
    booleans: frozenset[str]  # the names of the Boolean features, shown as true / false


def replay(instance: Instance, plan: Sequence[GroundAction]) -> State:
    """The state reached by applying `plan` from the initial state."""
    state = instance.initial_state
    for action in plan:
        state, _ = instance.apply(state, action)
    return state


def explain_state(policy: RulePolicy, instance: Instance, state: State) -> StateExplanation:
    """The policy's feature values in `state` and, per applicable action in name order, the
    features it changes and whether some rule accepts it."""
    on_instance = policy.evaluator.on(instance)
    values = on_instance.values(state)
    successors = []
    for action in sorted(instance.applicable_actions(state), key=str):
        target, _ = instance.apply(state, action)
        after = on_instance.values(target)
        changes = {name: (values[name], after[name]) for name in values if after[name] != values[name]}
        successors.append(SuccessorChange(action, changes, on_instance.accepts(state, target)))
    booleans = frozenset(feature.name for feature in policy.evaluator.policy.features if feature.is_boolean)
    return StateExplanation(values, tuple(successors), booleans)


def format_explanation(explanation: StateExplanation) -> str:
    """The explanation as comment lines (a plan reader skips them)."""
    def shown(name: str, value: int) -> str:
        if name in explanation.booleans:
            return "true" if value else "false"
        return "inf" if value == DLPLAN_INFINITY else str(value)

    values = " ".join(f"{name}={shown(name, value)}" for name, value in explanation.values.items())
    lines = [f"; features: {values}"]
    for successor in explanation.successors:
        changes = ", ".join(f"{name} {shown(name, before)}->{shown(name, after)}"
                            for name, (before, after) in successor.changes.items()) or "no feature changes"
        verdict = "accepted" if successor.accepted else "no rule"
        lines.append(f"; {successor.action}: {changes} ({verdict})")
    return "".join(line + "\n" for line in lines)
