"""A rule policy put to work on instances: its features evaluated on states (by pymimir's C++
description-logic evaluator where it can, by dlplan otherwise).

Evaluation is lazy: a successor's feature is evaluated only while some rule that holds at the
source could still accept the transition, cheapest features first, so that most successors are
rejected after one or two evaluations and the successors after the first compatible one are
never looked at. A feature that reads no predicate the action changes keeps its value without
being evaluated, and a successor state is made only once such free values leave a rule that
could accept it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass

from dlplan.core import DenotationsCaches

from stratpol.features.expression import fluent_predicates_read
from stratpol.features.mimir_evaluation import MimirFeatures, StateEvaluation, Untranslatable
from stratpol.features.pool import parse_feature
from stratpol.features.vocabulary import InstanceBridge, Vocabulary
from stratpol.planning import GroundAction, Instance, State, Successor
from stratpol.features.kind import Kind
from stratpol.policy import Change, Policy

# A transition to look at: the predicates its action changes (None: unknown), and a function that
# makes what to yield for it and its target state (None: leave it out).
Candidate = tuple[frozenset[str] | None, Callable[[], tuple[object, State] | None]]

# What a rule asks of one feature across a transition (a feature the rule's effect does not
# mention must keep its value, or for a Boolean feature its valuation).
_SAME_VALUE, _SAME_VALUATION, _BECOMES_TRUE, _BECOMES_FALSE, _INCREASES, _DECREASES = range(6)


@dataclass(frozen=True)
class _CompiledRule:
    conditions: tuple[tuple[int, bool], ...]  # feature index -> required valuation at the source
    checks: dict[int, int]  # feature index -> what the transition must do to it (absent: anything)


def _compile(policy: Policy) -> list[_CompiledRule]:
    index = {f.name: i for i, f in enumerate(policy.features)}
    compiled = []
    for rule in policy.rules:
        effects = dict(rule.effects)
        checks = {}
        for feature in policy.features:
            change = effects.get(feature.name)
            boolean = feature.kind is Kind.BOOLEAN
            if change is None:
                checks[index[feature.name]] = _SAME_VALUATION if boolean else _SAME_VALUE
            elif change is not Change.ANY:
                up = change is Change.UP
                checks[index[feature.name]] = (_BECOMES_TRUE if up else _BECOMES_FALSE) if boolean \
                    else (_INCREASES if up else _DECREASES)
        compiled.append(_CompiledRule(tuple((index[n], v) for n, v in rule.conditions), checks))
    return compiled


def _allows(check: int, before: int, after: int) -> bool:
    if check == _SAME_VALUE:
        return after == before
    if check == _SAME_VALUATION:
        return (after > 0) == (before > 0)
    if check == _BECOMES_TRUE:
        return after > 0
    if check == _BECOMES_FALSE:
        return after == 0
    if check == _INCREASES:
        return after > before
    return after < before


BACKENDS = ("mimir", "dlplan")


class PolicyEvaluator:
    """Parses the policy's feature expressions once for a domain's vocabulary. With the "mimir"
    backend, features are evaluated by pymimir's C++ evaluator (features/mimir_evaluation.py)
    wherever it has their constructors, and by dlplan otherwise."""

    def __init__(self, policy: Policy, vocabulary: Vocabulary, backend: str = "mimir") -> None:
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, not {backend!r}")
        self.policy = policy
        self.vocabulary = vocabulary
        self._elements = []
        for feature in policy.features:
            if not feature.description:
                raise ValueError(f"feature {feature.name} has no description-logic expression")
            try:
                self._elements.append(parse_feature(vocabulary, feature.kind, feature.description).element)
            except ValueError as error:
                # a policy runs on any domain with its vocabulary (an IPC domain and a generator's
                # may differ in name only); where it does not fit, the names say why
                if policy.domain is not None and policy.domain != vocabulary.domain.name:
                    raise ValueError(f"the policy is for domain {policy.domain}, not {vocabulary.domain.name} "
                                     f"({vocabulary.domain.path}): {error}") from None
                raise
        self._rules = _compile(policy)
        self._reads = [fluent_predicates_read(f.description, vocabulary.domain) for f in policy.features]
        self._mimir = MimirFeatures(vocabulary.domain) if backend == "mimir" else None
        self._fast: list[Callable[[StateEvaluation], int] | None] = [None] * len(policy.features)
        if self._mimir is not None:
            for i, feature in enumerate(policy.features):
                try:
                    self._fast[i] = self._mimir.feature(feature.kind, feature.description)
                except Untranslatable:
                    pass  # dlplan evaluates it

    @property
    def dlplan_features(self) -> list[str]:
        """The features dlplan evaluates: all with the "dlplan" backend, else those pymimir cannot."""
        return [f.name for f, fast in zip(self.policy.features, self._fast) if fast is None]

    def on(self, instance: Instance) -> InstancePolicy:
        return InstancePolicy(self, self.vocabulary.bridge(instance))


class InstancePolicy:
    """The policy on one instance: feature values per state (memoised, evaluated on demand) and
    compatible successors."""

    def __init__(self, evaluator: PolicyEvaluator, bridge: InstanceBridge) -> None:
        self.policy = evaluator.policy
        self.instance = bridge.instance
        self._bridge = bridge
        self._elements = evaluator._elements
        self._fast = evaluator._fast
        self._rules = evaluator._rules
        self._reads = evaluator._reads
        self._names = [f.name for f in self.policy.features]
        self._rows: dict[int, list[int | None]] = {}  # state index -> feature values known so far
        # the last state given to dlplan, and its denotations: features share sub-expressions
        self._converted: tuple[int, object, DenotationsCaches] | None = None
        self._evaluation: StateEvaluation | None = None  # the last state given to pymimir
        self._source: StateEvaluation | None = None  # the source state of the last target given to pymimir
        # seconds and evaluations per feature, to try the cheapest first
        self._cost = [0.0] * len(self._elements)
        self._evaluations = [0] * len(self._elements)
        self.phase_seconds: dict[str, float] | None = None  # set by a profiled run: seconds per phase

    def values(self, state: State) -> dict[str, int]:
        """Every feature's value in `state`."""
        row = self._row(state)
        return {name: self._value(state, row, i) for i, name in enumerate(self._names)}

    def compatible_successors(self, state: State) -> list[Successor]:
        """The successors whose transition some rule accepts."""
        return list(self._accepted(state, self._by_action(state, self.instance.applicable_actions(state), ())))

    def first_compatible(self, state: State, actions: Iterable[GroundAction],
                         exclude: Container[State] = ()) -> Successor | None:
        """The successor by the first of `actions` (applicable in `state`) that some rule accepts
        and that leads to no state in `exclude`. Successors after it are never made, which is what
        makes a run cheap where a state has thousands of them (spanner's gate: one tighten action
        per nut and spanner)."""
        return next(self._accepted(state, self._by_action(state, actions, exclude)), None)

    def first_by_rule_order(self, state: State, actions: Iterable[GroundAction],
                            exclude: Container[State] = ()) -> Successor | None:
        """The successor by the first of `actions` that the earliest rule (in the policy's order)
        accepting any of them accepts: the policy read as a decision list. A successor is looked at
        only for the rules before the best found so far, and none after one the first rule that
        holds accepts."""
        chosen = None
        for chosen in self._accepted(state, self._by_action(state, actions, exclude), ranked=True):
            pass
        return chosen

    def accepts(self, state: State, target: State) -> bool:
        """Whether some rule accepts the pair (state, target), any two states: the test of a
        policy used as a sketch, whose subgoal may lie several actions away."""
        return next(self._accepted(state, [(None, lambda: (True, target))]), None) is not None

    def _by_action(self, state: State, actions: Iterable[GroundAction],
                   exclude: Container[State]) -> Iterator[Candidate]:
        """A candidate per action: the predicates it changes, and its successor made on demand."""
        instance, changes, phase_seconds = self.instance, self.instance.domain.effect_predicates, self.phase_seconds
        for action in actions:
            def make(action: GroundAction = action) -> tuple[Successor, State] | None:
                started = time.perf_counter() if phase_seconds is not None else 0.0
                target, cost = instance.apply(state, action)
                if phase_seconds is not None:
                    phase_seconds["successors"] += time.perf_counter() - started
                return None if target in exclude else (Successor(action, target, cost), target)
            yield changes.get(action.name), make

    def _accepted(self, state: State, candidates: Iterable[Candidate], ranked: bool = False) -> Iterator:
        """What each candidate yields whose target some rule accepts from `state`. A candidate is
        the predicates its transition changes (None: unknown) and a function that makes its
        (yield, target) pair, or None to skip it; it is called only when the features the change
        leaves alone do not already reject the transition. `ranked`: only what a rule earlier in
        the policy than every rule that accepted a candidate before accepts, so the last yield is
        the first candidate of the earliest rule that accepts one."""
        row = self._row(state)
        source = [self._value(state, row, i) for i in range(len(self._elements))]
        rules = [r for r in self._rules if all((source[i] > 0) == v for i, v in r.conditions)]
        if not rules:
            return
        rank = {id(r): position for position, r in enumerate(rules)} if ranked else {}
        best = len(rules)  # ranked: the rank of the rule that accepted the last yield
        checked = {i for r in rules for i in r.checks}
        order = sorted(checked, key=lambda i: self._cost[i] / max(1, self._evaluations[i]))
        # per set of changed predicates: the features it leaves alone, the rules that accept
        # their unchanged values, and the features left to evaluate
        splits: dict[frozenset[str] | None, tuple[list[int], list[_CompiledRule], list[int]]] = {}
        for changed, make in candidates:
            split = splits.get(changed)
            if split is None:
                unchanged, evaluated = self._split(order, changed)
                alive = rules
                for i in unchanged:
                    alive = [r for r in alive if i not in r.checks or _allows(r.checks[i], source[i], source[i])]
                    if not alive:
                        break
                split = splits[changed] = (unchanged, alive, evaluated)
            unchanged, alive, evaluated = split
            if ranked:
                alive = [r for r in alive if rank[id(r)] < best]
            if not alive:
                continue
            made = make()
            if made is None:
                continue
            item, target = made
            target_row = self._row(target)
            for i in unchanged:
                target_row[i] = source[i]
            for i in evaluated:
                after = self._value(target, target_row, i, state)
                alive = [r for r in alive if i not in r.checks or _allows(r.checks[i], source[i], after)]
                if not alive:
                    break
            else:
                yield item
                if ranked:
                    best = rank[id(alive[0])]
                    if best == 0:
                        return

    def _split(self, order: list[int], changed: frozenset[str] | None) -> tuple[list[int], list[int]]:
        """`order` split into the features a transition changing the predicates `changed` leaves
        as they were, and the others."""
        unchanged, evaluated = [], []
        for i in order:
            reads = self._reads[i]
            free = changed is not None and reads is not None and not reads & changed
            (unchanged if free else evaluated).append(i)
        return unchanged, evaluated

    def _row(self, state: State) -> list[int | None]:
        row = self._rows.get(state.index)
        if row is None:
            row = self._rows[state.index] = [None] * len(self._elements)
        return row

    def _value(self, state: State, row: list[int | None], i: int, source: State | None = None) -> int:
        """Feature i's value in `state`, the target of a transition from `source` where given
        (pymimir's side makes a target's projections from the source's)."""
        value = row[i]
        if value is None:
            started = time.perf_counter()
            fast = self._fast[i]
            if fast is not None:
                if self._evaluation is None or self._evaluation.index != state.index:
                    if source is not None and (self._source is None or self._source.index != source.index):
                        self._source = StateEvaluation(source)
                    self._evaluation = StateEvaluation(state, None if source is None else self._source)
                converted = time.perf_counter()
                value = row[i] = fast(self._evaluation)
            else:
                if self._converted is None or self._converted[0] != state.index:
                    self._converted = (state.index, self._bridge.convert(state), DenotationsCaches())
                converted = time.perf_counter()
                value = row[i] = int(self._elements[i].evaluate(*self._converted[1:]))
            evaluated = time.perf_counter()
            self._cost[i] += evaluated - converted
            self._evaluations[i] += 1
            if self.phase_seconds is not None:
                self.phase_seconds["features"] += evaluated - started
        return value
