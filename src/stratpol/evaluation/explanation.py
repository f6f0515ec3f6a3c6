"""Why a rule policy takes or refuses a transition: the features it changes. Two uses: a state
where the policy has no successor (what each applicable action would change), and a planner's
plan (which of its steps no rule accepts), so that one sees which rule or feature a policy lacks."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stratpol.evaluation.policies import RulePolicy
from stratpol.features.mimir_evaluation import DLPLAN_INFINITY
from stratpol.features.policy_evaluator import InstancePolicy
from stratpol.planning import GroundAction, Instance, State


@dataclass(frozen=True)
class SuccessorChange:
    """One transition by `action`: the features it changes (name -> (before, after)) and whether a
    rule accepts it."""

    action: GroundAction
    changes: dict[str, tuple[int, int]]
    accepted: bool


@dataclass(frozen=True)
class StateExplanation:
    values: dict[str, int]
    successors: tuple[SuccessorChange, ...]
    booleans: frozenset[str]  # the names of the Boolean features, shown as true / false


@dataclass(frozen=True)
class PlanAcceptance:
    """A plan's steps as the policy judges them, in order."""

    steps: tuple[SuccessorChange, ...]
    booleans: frozenset[str]

    @property
    def rejected(self) -> list[tuple[int, SuccessorChange]]:
        """The steps no rule accepts, numbered from 1."""
        return [(number, step) for number, step in enumerate(self.steps, 1) if not step.accepted]


def explain_state(policy: RulePolicy, instance: Instance, state: State) -> StateExplanation:
    """The policy's feature values in `state` and, per applicable action in name order, the
    features it changes and whether some rule accepts it."""
    on_instance = policy.evaluator.on(instance)
    successors = tuple(_judged(on_instance, state, action, instance.apply(state, action)[0])
                       for action in sorted(instance.applicable_actions(state), key=str))
    return StateExplanation(on_instance.values(state), successors, _booleans(policy))


def plan_acceptance(policy: RulePolicy, instance: Instance, states: Sequence[State],
                    actions: Sequence[GroundAction]) -> PlanAcceptance:
    """Each step of a plan (its states, and the actions between them) as the policy judges it."""
    on_instance = policy.evaluator.on(instance)
    steps = tuple(_judged(on_instance, source, action, target)
                  for source, action, target in zip(states, actions, states[1:]))
    return PlanAcceptance(steps, _booleans(policy))


def _judged(on_instance: InstancePolicy, source: State, action: GroundAction, target: State) -> SuccessorChange:
    before, after = on_instance.values(source), on_instance.values(target)
    changes = {name: (before[name], after[name]) for name in before if after[name] != before[name]}
    return SuccessorChange(action, changes, on_instance.accepts(source, target))


def _booleans(policy: RulePolicy) -> frozenset[str]:
    return frozenset(feature.name for feature in policy.evaluator.policy.features if feature.is_boolean)


def _shown(booleans: frozenset[str], name: str, value: int) -> str:
    if name in booleans:
        return "true" if value else "false"
    return "inf" if value == DLPLAN_INFINITY else str(value)


def format_changes(change: SuccessorChange, booleans: frozenset[str]) -> str:
    """'n3 1->2, n5 inf->9', or 'no feature changes'."""
    return ", ".join(f"{name} {_shown(booleans, name, before)}->{_shown(booleans, name, after)}"
                     for name, (before, after) in change.changes.items()) or "no feature changes"


def format_explanation(explanation: StateExplanation) -> str:
    """The explanation as comment lines (a plan reader skips them)."""
    booleans = explanation.booleans
    values = " ".join(f"{name}={_shown(booleans, name, value)}" for name, value in explanation.values.items())
    lines = [f"; features: {values}"]
    for successor in explanation.successors:
        verdict = "accepted" if successor.accepted else "no rule"
        lines.append(f"; {successor.action}: {format_changes(successor, booleans)} ({verdict})")
    return "".join(line + "\n" for line in lines)
