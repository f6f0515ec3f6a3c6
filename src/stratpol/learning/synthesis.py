"""Requirement-directed feature synthesis: where GENEX finds no eligible feature for a requirement,
search refinements of the pool's concepts and roles for features that meet it.

The requirements name a few states and transitions, so a candidate costs one batched dlplan
evaluation on the states of Q'. The search is a beam over concepts: it starts from the concepts and
roles inside the pool's features and the vocabulary's primitives, and refines them with dlplan's
constructors (not, and, some and all over roles, their inverses and transitive closures; equal over
two roles among the starting concepts). Each concept C gives the candidate features n_count(C) and
b_empty(C), and where those are too few, the distances along a role from the best concepts to the
cheapest ones are candidates too. A candidate is kept where it hits the first unmet requirement and
GENEX could choose it (monotone over the good transitions, or given a pool feature that a chain of
monotone features reaches). Those monotone over the teacher's plans of every training file, not
only those of Q', rank first (a feature fitted to Q' rarely is), then by the pending requirements
they hit, complexity breaking ties. Nothing here names a domain's predicates.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
from dlplan.core import DenotationsCaches

from stratpol.features.expression import OWN_CONSTRUCTORS, parse_expression, unparse_expression
from stratpol.features.pool import PoolFeature, parse_any_feature
from stratpol.features.table import FeatureTable
from stratpol.features.vocabulary import InstanceBridge, Vocabulary
from stratpol.learning.chains import INFINITE, cheapest_chains, monotone, monotone_given
from stratpol.learning.genex import GenexFailure
from stratpol.learning.hitting_set import LearningExamples, Requirement, requirement_hits
from stratpol.planning import State

BASE_COMPLEXITY = 6  # the pool's concepts and roles up to this complexity are where the search starts
BEAM = 40  # concepts refined at each level
FIRST_BEAM = 200  # starting concepts refined at the first level
DEPTH = 3  # refinements of a starting concept
CANDIDATES = 20_000  # candidates (concepts and distances) evaluated in one synthesis at most
KEPT = 5  # features handed to GENEX, best first
DISTANCE_ENDS = 10  # concepts at either end of the distances tried (and 3 x as many first refinements)
DISTANCES = 5_000  # of the candidates, kept for the distances
SYNTHESIS_ROUNDS = 10  # syntheses for one Q' (each adds features new on its states)


@dataclass(frozen=True)
class Candidate:
    """A synthesised feature and what it does for the requirements GENEX left unmet."""

    expression: str
    complexity: int
    hits: int  # pending requirements it hits
    hits_first: bool  # whether it hits the first of them
    eligible: bool  # monotone over the good transitions of Q', or given a pool feature a chain reaches
    general: bool = False  # eligible, and monotone over the teacher's plans of every training file

    def describe(self) -> str:
        why = "" if self.hits_first and self.eligible else " (does not hit it)" if not self.hits_first else \
            " (hits it; not monotone over the good transitions, nor given a feature a chain reaches)"
        return f"{self.expression}{why}"


@dataclass(frozen=True)
class Synthesis:
    """The features found for one GENEX failure (best first), the best candidates looked at
    where none was found, and the search's size."""

    features: tuple[PoolFeature, ...]
    best: tuple[Candidate, ...]
    evaluated: int
    seconds: float

    def describe(self) -> str:
        if self.features:
            return (f"synthesis: {len(self.features)} features from {self.evaluated:,} candidates in "
                    f"{self.seconds:.1f} s, first {self.features[0].description}")
        best = "; ".join(c.describe() for c in self.best[:3]) or "none"
        return f"synthesis: none of {self.evaluated:,} candidates meets it; the closest: {best}"


class _Requirements:
    """The pending requirements of a failure over the rows of Q' (numbered as in the sub-table),
    and GENEX's eligibility over its good transitions, tested on one value vector at a time."""

    def __init__(self, failure: GenexFailure, table: FeatureTable, good: np.ndarray) -> None:
        by_kind: dict[Requirement, list[tuple[int, ...]]] = {kind: [] for kind in Requirement}
        for kind, sources in failure.pending:
            by_kind[kind].append(sources)
        self.pending = {kind: np.array(rows, dtype=np.int64).reshape(-1, 4 if kind is Requirement.DEADEND else 2)
                        for kind, rows in by_kind.items()}
        self.first = failure.pending[0]
        self.good = np.asarray(good, dtype=np.int64).reshape(-1, 2)
        # the contexts of the pool features g a chain reaches (g unchanged and 0, g unchanged and
        # positive), over which a candidate monotone given g moves one way only: g's chain, then it
        changes = table.changes(self.good)
        valuations = table.valuations[self.good[:, 0]]
        costs = np.array([f.complexity + 1 for f in table.features], dtype=np.int64)
        reached = cheapest_chains(costs, monotone(changes), monotone_given(changes, valuations)).cost < INFINITE
        steady = changes[:, reached] == 0
        sources = valuations[:, reached]
        self.contexts = [(steady & ~sources).astype(np.float32), (steady & sources).astype(np.float32)]

    def score(self, values: np.ndarray) -> tuple[int, bool, bool]:
        """Requirements `values` hits, whether it hits the first, whether it is eligible."""
        hits = sum(int(requirement_hits(values, kind, rows).sum()) for kind, rows in self.pending.items())
        kind, rows = self.first
        first = bool(requirement_hits(values, kind, np.array([rows]))[0])
        return hits, first, first and self.eligible(values)

    def tells_apart(self, denotations: Sequence[tuple[int, ...]]) -> bool:
        """Whether a concept of these denotations at the first requirement's states (in its order)
        separates them as sets, where its count may not yet: a step that changes the objects, or
        one step changing them and the other not. Refinements of such a concept can hit it."""
        kind, _ = self.first
        if kind is Requirement.DEADEND:
            return (denotations[0] != denotations[1]) != (denotations[2] != denotations[3]) or \
                denotations[0] != denotations[2]
        return denotations[0] != denotations[1]

    def eligible(self, values: np.ndarray) -> bool:
        """Monotone over the good transitions, or monotone given a pool feature a chain reaches."""
        changes = np.sign(values[self.good[:, 1]] - values[self.good[:, 0]])
        up, down = changes > 0, changes < 0
        if not (up.any() and down.any()):
            return True
        up, down = up.astype(np.float32), down.astype(np.float32)
        given = np.ones(self.contexts[0].shape[1], dtype=bool)
        for context in self.contexts:
            given &= ~(((up @ context) > 0) & ((down @ context) > 0))
        return bool(given.any())


@dataclass(frozen=True)
class TeacherPlans:
    """The plans of every training file as dlplan states and their steps (pairs of indices into
    `states`): a candidate monotone over all of them is general, not only fitted to Q'."""

    states: list
    steps: np.ndarray

    @staticmethod
    def of(plans: Sequence[Sequence[tuple[InstanceBridge, State]]]) -> TeacherPlans:
        """The plans given as their states, each with its instance's bridge."""
        states = [bridge.state(state) for plan in plans for bridge, state in plan]
        starts = np.cumsum([0, *(len(plan) for plan in plans)])
        steps = [(start + i, start + i + 1) for plan, start in zip(plans, starts) for i in range(len(plan) - 1)]
        return TeacherPlans(states, np.array(steps, dtype=np.int64).reshape(-1, 2))

    def monotone(self, element, caches: DenotationsCaches) -> bool:
        values = np.asarray(element.evaluate(self.states, caches), dtype=np.int64)
        changes = np.sign(values[self.steps[:, 1]] - values[self.steps[:, 0]])
        return not ((changes > 0).any() and (changes < 0).any())


def synthesise(failure: GenexFailure, examples: LearningExamples, states: Sequence[object],
               pool: Sequence[PoolFeature], vocabulary: Vocabulary, plans: TeacherPlans | None = None,
               deadline: float | None = None) -> Synthesis:
    """Features for the requirements of `failure` (over GENEX's `examples` on Q', whose rows'
    dlplan states are `states`): refinements of the concepts and roles of `pool` and of the
    vocabulary's primitives that GENEX could tell from every feature of its table. With `plans`,
    candidates monotone over the teacher's plans of every training file rank first."""
    started = time.perf_counter()
    search = _Search(_Requirements(failure, examples.table, examples.good), examples, states, vocabulary, plans,
                     deadline)
    concepts, roles = _starting_elements(pool, vocabulary)
    level = search.level(concepts)
    cheapest = sorted(concepts, key=lambda c: c.compute_complexity())[:BEAM]
    levels, first_refinements = list(level), []
    search.budget = CANDIDATES - DISTANCES  # what the distances get is kept for them
    for depth in range(DEPTH):
        if len(search.found) >= KEPT or search.spent():
            break
        # the first refinements are of every starting concept (up to FIRST_BEAM): a concept with no
        # sign of the requirement, the trucks say, gives one that has it, the places of trucks
        beam = [concept for _, concept in sorted(level, key=lambda s: s[0])[:FIRST_BEAM if depth == 0 else BEAM]]
        level = search.level(_refinements(beam, cheapest, roles, vocabulary.factory))
        levels += level
        first_refinements = first_refinements or [concept for _, concept in level]
    search.budget = CANDIDATES
    if len(search.found) < KEPT:
        # distances along a role (its closure adds nothing to a distance) from the best concepts
        # of every level to the cheapest starting concepts and first refinements (the places of
        # the objects of one type, say)
        sources = [concept for _, concept in sorted(levels, key=lambda s: s[0])[:DISTANCE_ENDS]]
        steps = [role for role in roles if "r_transitive_closure" not in str(role)]
        near = sorted(first_refinements, key=lambda c: c.compute_complexity())[:3 * DISTANCE_ENDS]
        search.distances(sources, steps, cheapest[:DISTANCE_ENDS] + near)
    ranked = sorted(search.found.values(), key=lambda c: (not c.general, -c.hits, c.complexity, c.expression))
    features = tuple(parse_any_feature(vocabulary, c.expression) for c in ranked[:KEPT])
    best = tuple(sorted(search.closest, key=lambda c: (not c.hits_first, -c.hits, c.complexity))[:3])
    return Synthesis(features, best, search.evaluated, time.perf_counter() - started)


class _Search:
    """The candidates of one synthesis: each evaluated once on the states of Q' (and, where it
    could be kept, on every teacher plan), those found and the closest that were not."""

    def __init__(self, requirements: _Requirements, examples: LearningExamples, states: Sequence[object],
                 vocabulary: Vocabulary, plans: TeacherPlans | None, deadline: float | None) -> None:
        self.requirements, self.states, self.plans, self.deadline = requirements, states, plans, deadline
        self.factory = vocabulary.factory
        self.caches = DenotationsCaches()  # always the same states: dlplan's cache is keyed by element
        self.plan_caches = DenotationsCaches()  # and one for the plans' states
        # what GENEX reads of a feature (as pruning compares them): its valuation at the sources of
        # the transitions and at the goal pairs, its changes across the transitions
        self.transitions = np.concatenate([examples.good, examples.bad])
        self.sources = np.concatenate([self.transitions[:, 0], examples.goal_pairs.reshape(-1)])
        table = examples.table
        self.known = {self._reading(table.values[:, c].astype(np.int64)) for c in range(len(table))}
        self.seen: set[bytes] = set()  # the concepts' counts on Q' so far
        self.found: dict[bytes, Candidate] = {}  # by what GENEX reads of them
        self.closest: list[Candidate] = []
        self.evaluated = 0
        self.budget = CANDIDATES  # candidates to evaluate at most

    def spent(self) -> bool:
        return self.evaluated >= self.budget or (self.deadline is not None and time.perf_counter() > self.deadline)

    def level(self, concepts) -> list[tuple[tuple, object]]:
        """The concepts new on Q' among `concepts`, each with its rank for the beam (hits the first
        requirement, tells its states apart as sets, general, requirements hit, complexity),
        after judging its features."""
        ranked = []
        for concept in concepts:
            if self.spent():
                break
            count = self.factory.make_count_numerical(concept)
            counts = self._values(count)
            if counts.tobytes() in self.seen:
                continue
            self.seen.add(counts.tobytes())
            hits, first, _ = self.requirements.score(counts)
            apart = first or self.requirements.tells_apart(
                [tuple(concept.evaluate(self.states[row]).to_sorted_vector()) for row in self.requirements.first[1]])
            ranked.append(((not first, not apart, not (first and self._general(count)), -hits,
                            concept.compute_complexity()), concept))
            self._judge(count, counts)
            self._judge(self.factory.make_empty_boolean(concept), (counts == 0).astype(np.int64))
        return ranked

    def distances(self, sources: list, roles: list, targets: list) -> None:
        for source in sources:
            for role in roles:
                for target in targets:
                    if self.spent():
                        return
                    distance = self.factory.make_concept_distance_numerical(source, role, target)
                    self._judge(distance, self._values(distance))

    def _values(self, element) -> np.ndarray:
        self.evaluated += 1
        return np.asarray(element.evaluate(self.states, self.caches), dtype=np.int64)

    def _general(self, element) -> bool:
        return self.plans is None or self.plans.monotone(element, self.plan_caches)

    def _reading(self, values: np.ndarray) -> bytes:
        changes = np.sign(values[self.transitions[:, 1]] - values[self.transitions[:, 0]])
        return np.concatenate([values[self.sources] > 0, changes]).astype(np.int8).tobytes()

    def _judge(self, element, values: np.ndarray) -> None:
        """Keep the feature `element`, of `values` on Q', where GENEX could tell it from every
        feature of its table and choose it."""
        reading = self._reading(values)
        if reading in self.known:
            return
        hits, first, eligible = self.requirements.score(values)
        candidate = Candidate(str(element), element.compute_complexity(), hits, first, eligible,
                              eligible and self._general(element))
        if eligible:
            self.found.setdefault(reading, candidate)
        elif hits:
            self.closest.append(candidate)


def _starting_elements(pool: Sequence[PoolFeature], vocabulary: Vocabulary) -> tuple[list, list]:
    """The concepts and roles the search starts from: the vocabulary's primitives and nominals,
    and every concept and role inside the pool's features up to BASE_COMPLEXITY; roles also
    inverted and closed transitively."""
    factory = vocabulary.factory
    concept_texts: dict[str, None] = {}
    role_texts: dict[str, None] = {}
    for predicate in vocabulary.info.get_predicates():
        name, arity = predicate.get_name(), predicate.get_arity()
        if arity == 1:
            concept_texts[f"c_primitive({name},0)"] = None
        elif arity == 2:
            role_texts[f"r_primitive({name},0,1)"] = None
    for constant in vocabulary.info.get_constants():
        concept_texts[f"c_one_of({constant.get_name()})"] = None
    for feature in pool:
        if feature.complexity > BASE_COMPLEXITY + 1 or any(name in feature.description for name in OWN_CONSTRUCTORS):
            continue
        for name, text in _subexpressions(parse_expression(feature.description)):
            (concept_texts if name.startswith("c_") else role_texts if name.startswith("r_") else {})[text] = None
    roles = [factory.parse_role(text) for text in role_texts]
    primitive = [role for role in roles if str(role).startswith("r_primitive(")]
    concepts = [*(factory.parse_concept(text) for text in concept_texts),
                *(factory.make_equal_concept(r, s) for r in primitive for s in primitive if str(r) != str(s))]
    closed = [factory.make_transitive_closure(role) for role in roles]
    roles = [*roles, *(factory.make_inverse_role(role) for role in (*roles, *closed)), *closed]
    return _distinct(concepts), _distinct(roles)


def _subexpressions(expression) -> Iterator[tuple[str, str]]:
    name, arguments = expression
    if arguments:
        yield name, unparse_expression(expression)
        for argument in arguments:
            yield from _subexpressions(argument)


def _distinct(elements: list) -> list:
    """`elements` without repeats of one printed expression, each where it first comes."""
    unique: dict[str, object] = {}
    for element in elements:
        unique.setdefault(str(element), element)
    return list(unique.values())


def _refinements(beam: list, cheapest: list, roles: list, factory) -> Iterator[object]:
    """One refinement of each concept of `beam`: its negation, its conjunction with a cheap
    starting concept, and the objects some or all of whose successors along a role are in it."""
    for concept in beam:
        yield factory.make_not_concept(concept)
        for role in roles:
            yield factory.make_some_concept(role, concept)
            yield factory.make_all_concept(role, concept)
        for other in cheapest:
            if str(other) != str(concept):
                yield factory.make_and_concept(concept, other)
