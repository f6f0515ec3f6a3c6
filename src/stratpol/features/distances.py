"""Concept distances generated from generated concepts and roles, under their own complexity bound.

dlplan's generator makes `n_concept_distance(C, R, D)` only where C holds exactly one object in
every state (a robot's cell), so the distances a policy reads between sets (the cells of the loaded
trucks to their packages' goals) are never generated. Here dlplan enumerates the concepts and
roles up to the bounds of the grammar's `[distances]` table; a distance from C to D along R is a
candidate where R chains (some pair of steps follows another in a state, so that distances above
1 occur) and C and D hold only objects R connects (and are not empty in every state). Candidates
are evaluated cheapest first, and one is kept where no pool feature and no earlier distance has
its values on the states: the pruning by valuation dlplan applies to its own features. dlplan
enumerates at most ENUMERATED concepts and roles for them.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from dlplan.generator import generate_features

from stratpol.atomic import write_text_atomically
from stratpol.features.grammar import DistanceBounds, Grammar
from stratpol.features.kind import Kind
from stratpol.features.table import FeatureTable
from stratpol.features.vocabulary import InstanceBridge, Vocabulary, digest_states
from stratpol.planning import State
from stratpol.planning.quiet import captured_stdout
from stratpol.processes.limits import ChildDied, call_in_child
from stratpol.processes.workers import can_fork_here
from stratpol.progress import finish_status, report_status


ENUMERATED = 20_000  # concepts and roles dlplan enumerates for the distances at most


@dataclass(frozen=True)
class _Part:
    """A generated concept or role: its expression and complexity."""

    expression: str
    complexity: int


def generated_distances(vocabulary: Vocabulary, states: Sequence[tuple[InstanceBridge, State]], grammar: Grammar,
                        known: FeatureTable, parse: Callable[[Vocabulary, Kind, str], object],
                        cache_dir: Path | None = None,
                        progress: Callable[[str], None] = lambda message: None) -> list:
    """The concept distances of `grammar.distances` that no feature of `known` (the pool, on
    `states`) and no cheaper distance equals on `states`, cheapest first, as `parse` (the pool's
    parse_feature) makes features (cached by the pool's content hash and the bounds)."""
    bounds = grammar.distances
    if bounds is None or not states:
        return []
    path = None if cache_dir is None else Path(cache_dir) / f"distances-{_key(vocabulary, grammar, known, states)}.json"
    if path is not None and path.is_file():
        return [parse(vocabulary, Kind.NUMERICAL, e) for e in json.loads(path.read_text())["features"]]
    started = time.perf_counter()
    ends, roles, concepts = _ends(vocabulary, states, grammar)
    candidates = _candidates(ends, roles, bounds)
    progress(f"distances: {len(candidates):,} candidates from {concepts:,} concepts and {len(roles):,} chaining roles")
    seen = {column.tobytes() for column in known.values.T}
    kept = []
    for start in range(0, len(candidates), 500):  # batches: a distance costs a search per state
        batch = [parse(vocabulary, Kind.NUMERICAL, e) for e in candidates[start:start + 500]]
        report_status(progress, "distances", start, len(candidates), f"{len(kept):,} kept")
        table = FeatureTable.evaluate(batch, states)
        for feature, column in zip(batch, table.values.T):
            if grammar.max_depth is not None and feature.depth > grammar.max_depth:
                continue  # as the pool drops deeper features
            if column.tobytes() not in seen:
                seen.add(column.tobytes())
                kept.append(feature)
    finish_status(progress, "distances")
    progress(f"distances: {len(kept):,} of {len(candidates):,} distinct on {len(states):,} states "
             f"({time.perf_counter() - started:.1f} s)")
    if path is not None:
        write_text_atomically(path, json.dumps({"features": [f.description for f in kept]}))
    return kept


def _candidates(ends: dict[int, list[_Part]], roles: Sequence[_Part], bounds: DistanceBounds) -> list[str]:
    """Distance expressions, at most `bounds.candidates`, by complexity and then by expression:
    along each chaining role, from one of its ends to another. Only the complexities that fit
    under the cap are spelt out (the pairs of ends can be millions)."""
    triples = []  # (complexity, role, source, target), numbered
    for number, role in enumerate(roles):
        parts = ends[number]
        for i, source in enumerate(parts):
            for j, target in enumerate(parts):
                complexity = 1 + source.complexity + role.complexity + target.complexity
                if i != j and complexity <= bounds.complexity:
                    triples.append((complexity, number, i, j))
    counts: dict[int, int] = {}
    for complexity, *_ in triples:
        counts[complexity] = counts.get(complexity, 0) + 1
    cutoff, total = bounds.complexity, 0
    for complexity in sorted(counts):
        total += counts[complexity]
        if total >= bounds.candidates:
            cutoff = complexity
            break
    found = sorted((complexity, f"n_concept_distance({ends[number][i].expression},{roles[number].expression},"
                                f"{ends[number][j].expression})")
                   for complexity, number, i, j in triples if complexity <= cutoff)
    return [expression for _, expression in found[:bounds.candidates]]


def _ends(vocabulary: Vocabulary, states: Sequence[tuple[InstanceBridge, State]],
          grammar: Grammar) -> tuple[dict[int, list[_Part]], list[_Part], int]:
    """dlplan's concepts and roles up to the bounds (distinct on the states, at most ENUMERATED):
    the roles that chain in some state, for each of them (by number) the concepts that hold only
    objects it connects and are not empty in every state, and how many concepts there were."""
    generating = vocabulary if grammar.projections else vocabulary.without_projections()
    bridges: dict[int, InstanceBridge] = {}
    for bridge, _ in states:
        bridges.setdefault(bridge.index, bridge if generating is vocabulary else generating.bridge(bridge.instance))
    dlplan_states = [bridges[bridge.index].state(state) for bridge, state in states]
    arguments = {**grammar.generator_arguments(), "concept_complexity_limit": grammar.distances.concept_complexity,
                 "role_complexity_limit": grammar.distances.role_complexity, "boolean_complexity_limit": 0,
                 "count_numerical_complexity_limit": 0, "distance_numerical_complexity_limit": 0,
                 "feature_limit": min(grammar.feature_limit, ENUMERATED)}
    if can_fork_here():  # a long C++ call holds off Ctrl-C; in a child it stops at once
        try:
            concepts, roles = call_in_child(_enumerate, generating.factory, dlplan_states, arguments)
        except ChildDied as died:
            raise ChildDied(died.exit_code, "dlplan's concept and role enumeration") from None
    else:
        concepts, roles = _enumerate(generating.factory, dlplan_states, arguments)
    chaining, fields = [], []
    for expression in roles:
        element = generating.factory.parse_role(expression)
        pairs = [{tuple(p) for p in element.evaluate(state).to_sorted_vector()} for state in dlplan_states]
        if _chains(pairs):
            chaining.append(_Part(str(element), element.compute_complexity()))
            fields.append([{x for pair in state_pairs for x in pair} for state_pairs in pairs])
    ends: dict[int, list[_Part]] = {number: [] for number in range(len(chaining))}
    for expression in concepts if chaining else ():
        element = generating.factory.parse_concept(expression)
        denotations = [set(element.evaluate(state).to_sorted_vector()) for state in dlplan_states]
        if not any(denotations):
            continue
        part = _Part(str(element), element.compute_complexity())
        for number, field in enumerate(fields):
            if all(d <= f for d, f in zip(denotations, field)):
                ends[number].append(part)
    return ends, chaining, len(concepts)


def _chains(pairs: Sequence[set]) -> bool:
    """Whether in some state a pair (x, y) of the role is followed by a pair (y, z)."""
    for state_pairs in pairs:
        firsts = {x for x, _ in state_pairs}
        if any(y in firsts and y != x for x, y in state_pairs):
            return True
    return False


def _enumerate(factory, dlplan_states: list, arguments: dict) -> tuple[list[str], list[str]]:
    with captured_stdout():
        _, _, concepts, roles = generate_features(factory, dlplan_states, **arguments)
    return [str(c) for c in concepts], [str(r) for r in roles]


def _key(vocabulary: Vocabulary, grammar: Grammar, known: FeatureTable,
         states: Sequence[tuple[InstanceBridge, State]]) -> str:
    digest = hashlib.sha256()
    bounds = grammar.distances
    digest.update(json.dumps({"bounds": [bounds.concept_complexity, bounds.role_complexity, bounds.complexity,
                                         bounds.candidates],
                              "constructors": sorted(grammar.constructors.items()), "projections": grammar.projections,
                              "domain": vocabulary.domain.text, "format": 1}).encode())
    digest.update(np.ascontiguousarray(known.values).tobytes())
    digest_states(digest, states)
    return digest.hexdigest()[:32]
