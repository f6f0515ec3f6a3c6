"""The one protocol every policy implements for evaluation, and its symbolic implementations.

A policy hands out a controller per instance; the controller, given a state, returns the
chosen successor or None. Evaluation never asks how the policy was made.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Container, Sequence
from typing import Protocol

from stratpol.evaluation.protocol import TIE_BREAKS
from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.planning import Instance, State, Successor
from stratpol.planning.planners import planner
from stratpol.planning.search import SearchStatus
from stratpol.policy import Policy


class Controller(Protocol):
    def choose(self, state: State, exclude: Container[State] = ()) -> Successor | None:
        """The successor to go to from `state`, never one in `exclude`; None when there is none."""


class SketchController(Controller, Protocol):
    """A controller that also judges pairs of states any distance apart (rule policies do), so
    that its policy can be followed as a sketch."""

    def accepts(self, state: State, target: State) -> bool:
        """Whether the policy accepts going from `state` to `target`."""


class GeneralPolicy(Protocol):
    name: str

    def controller(self, instance: Instance) -> Controller:
        """A controller for one run on `instance`."""


class BatchPolicy(GeneralPolicy, Protocol):
    """A policy that decides for several runs at once, as a network does in one forward pass
    (evaluation.runner.run_together)."""

    def choose_together(self, decisions: Sequence[tuple[Controller, State, Container[State]]]
                        ) -> list[Successor | None]:
        """What each (controller, state, exclude) would choose, decided together."""


class RulePolicy:
    """A rule policy: any compatible successor; ties broken by action name ("first"), at random, or
    by the policy's order of rules ("rule-order": a successor of the earliest rule that accepts one,
    at random among its successors). Any choice keeps the policy's termination certificate."""

    def __init__(self, policy: Policy, vocabulary: Vocabulary, tie_break: str = "random", seed: int = 0,
                 name: str = "rules") -> None:
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie break must be one of {TIE_BREAKS}, not {tie_break!r}")
        self.name = name
        self.evaluator = PolicyEvaluator(policy, vocabulary)
        self.tie_break = tie_break
        self.seed = seed

    def source(self, content_hash: str) -> str:
        """What names this policy's runs in an evaluation's provenance: its file's content hash, and
        the tie-break where it is not the default random one (the runs differ)."""
        return content_hash if self.tie_break == "random" else f"{content_hash}, {self.tie_break} tie-break"

    def __reduce__(self):
        # dlplan objects do not pickle: a worker process parses the features again
        return (RulePolicy, (self.evaluator.policy, self.evaluator.vocabulary, self.tie_break, self.seed, self.name))

    def controller(self, instance: Instance, phase_seconds: dict[str, float] | None = None) -> Controller:
        """A controller for one run; `phase_seconds`, when given, accumulates the seconds spent
        generating successors and evaluating features (evaluation.profile)."""
        # the tie-break stream depends on the instance's content: generated instances often share a
        # problem name, and runs of one size must not all make the same choices
        stream = hashlib.sha256(f"{self.seed}\0{instance.text}".encode()).hexdigest()
        on_instance = self.evaluator.on(instance)
        on_instance.phase_seconds = phase_seconds
        return _RuleController(on_instance, self.tie_break, random.Random(stream))


class _RuleController:
    def __init__(self, on_instance, tie_break: str, rng: random.Random) -> None:
        self.on_instance, self.tie_break, self.rng = on_instance, tie_break, rng

    def choose(self, state: State, exclude: Container[State] = ()) -> Successor | None:
        # The first compatible successor in action-name order, or in a random order: the first
        # compatible one of a uniformly shuffled list is a uniform choice among the compatible
        # ones. Successor states are made one at a time, so those after it are never made.
        instance = self.on_instance.instance
        phase_seconds = self.on_instance.phase_seconds
        started = time.perf_counter() if phase_seconds is not None else 0.0
        actions = instance.applicable_actions(state)
        if self.tie_break == "first":
            actions.sort(key=str)
        else:
            self.rng.shuffle(actions)
        if phase_seconds is not None:
            phase_seconds["successors"] += time.perf_counter() - started
        if self.tie_break == "rule-order":
            return self.on_instance.first_by_rule_order(state, actions, exclude)
        return self.on_instance.first_compatible(state, actions, exclude)

    def accepts(self, state: State, target: State) -> bool:
        """Whether some rule accepts the pair (state, target): a subgoal when the policy is used as
        a sketch."""
        return self.on_instance.accepts(state, target)


class PlannerPolicy:
    """A planner used as a policy (the baseline): plan once, follow the plan, replan on a detour."""

    def __init__(self, planner_name: str = "lama-first", time_limit: float = 300.0) -> None:
        self.name = planner_name
        self._solve = planner(planner_name)
        self.time_limit = time_limit

    def controller(self, instance: Instance) -> Controller:
        return _PlanFollower(instance, self._solve, self.time_limit)


class _PlanFollower:
    def __init__(self, instance: Instance, solve, time_limit: float) -> None:
        self.instance, self.solve, self.time_limit = instance, solve, time_limit
        self.next: dict[State, Successor] = {}
        self.planner_status: SearchStatus | None = None  # how the last planner call that found no plan ended

    def choose(self, state: State, exclude: Container[State] = ()) -> Successor | None:
        if state not in self.next:
            self._plan_from(state)
        step = self.next.get(state)
        return None if step is None or step.state in exclude else step

    def _plan_from(self, state: State) -> None:
        result = self.solve(self.instance, start=state, time_limit=self.time_limit)
        if result.status is not SearchStatus.SOLVED:
            self.planner_status = result.status
            return
        for action in result.plan:
            target, cost = self.instance.apply(state, self.instance.action(action.name, action.args))
            self.next[state] = Successor(action, target, cost)
            state = target
