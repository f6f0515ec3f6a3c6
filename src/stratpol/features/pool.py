"""Feature pools: dlplan generates Boolean and numerical features from a grammar over states.

Pools are cached on disk by a hash of everything that determines them (grammar, vocabulary,
states), so an interrupted or repeated run does not generate the same pool twice.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import random
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import psutil
from dlplan.generator import generate_features

from stratpol.atomic import write_text_atomically
from stratpol.processes.limits import ChildDied, call_in_child
from stratpol.processes.workers import can_fork_here
from stratpol.errors import InputError
from stratpol.features.distances import generated_distances
from stratpol.features.expression import canonical_expression, unparse_expression
from stratpol.features.grammar import Grammar
from stratpol.features.own_constructors import DlplanOwnFeature, OwnFeature, uses_own_constructors
from stratpol.features.table import FeatureTable, prune_equivalent
from stratpol.features.vocabulary import InstanceBridge, Vocabulary, digest_states
from stratpol.planning import State
from stratpol.planning.quiet import captured_stderr, captured_stdout
from stratpol.features.kind import Kind
from stratpol.progress import finish_status, report_status

# elements without sub-expressions: their depth is 0
_LEVEL = re.compile(r"\] Complexity (\d+):")  # dlplan's log line after it finished a complexity level
_PRIMITIVES = ("c_primitive", "r_primitive", "c_top", "c_bot", "r_top", "c_one_of", "b_nullary")


@dataclass(frozen=True)
class PoolFeature:
    """One feature of a pool: its kind, dlplan expression, complexity, and dlplan element."""

    kind: Kind
    description: str
    complexity: int
    element: object = field(compare=False, repr=False, hash=False)

    @property
    def depth(self) -> int:
        return expression_depth(self.description)


def expression_depth(expression: str) -> int:
    """Constructor nesting depth of a dlplan expression below its feature constructor (b_*, n_*).

    Primitives, nominals and the feature constructor itself count 0: with this count the max-depth
    bound 5 removes 13% of the numerical and 9% of the Boolean features of the published Gripper
    pool (60 states, complexity 15), as the published learner's does.
    """
    depth, stack = 0, []
    for match in re.finditer(r"[a-z_]+\(|\)", expression):
        token = match.group()
        if token == ")":
            stack.pop()
            continue
        name = token[:-1]
        primitive = name in _PRIMITIVES or name.startswith(("b_", "n_"))
        level = (stack[-1] if stack else 0) + (0 if primitive else 1)
        stack.append(level)
        depth = max(depth, level)
    return depth


@dataclass(frozen=True)
class PoolGeneration:
    """How a pool was generated: on how many states, in how long, and whether a limit cut it.

    `complexity_reached` is the last complexity level dlplan finished; `truncated` names the
    limit that stopped it ("time limit", "feature limit" or "memory limit"), None when the pool
    is complete; `element_limit` is the number of elements dlplan was allowed to keep on each of
    the `parts` of the states (more than one where the free memory asked for it).
    """

    states: int = 0
    seconds: float = 0.0
    complexity_reached: int = 0
    truncated: str | None = None
    element_limit: int = 0
    parts: int = 1

    def describe(self) -> str:
        cut = "complete" if self.truncated is None else \
            f"TRUNCATED by the {self.truncated} after complexity {self.complexity_reached}"
        parts = f" in {self.parts} parts" if self.parts > 1 else ""
        return f"{cut}, {self.states:,} states{parts}, {self.seconds:.1f} s"


@dataclass
class FeaturePool:
    """Features ordered by (complexity, generation order): "earlier" breaks pruning ties."""

    features: list[PoolFeature]
    generation: PoolGeneration = field(default_factory=PoolGeneration)

    def __len__(self) -> int:
        return len(self.features)

    def __iter__(self):
        return iter(self.features)

    def __getitem__(self, index: int) -> PoolFeature:
        return self.features[index]


def _pool_key(vocabulary: Vocabulary, grammar: Grammar, bridges_and_states: Sequence[tuple[InstanceBridge, State]]) -> str:
    digest = hashlib.sha256()
    payload = {  # the time limit is not part of the key: a complete pool serves any limit
        "grammar": [grammar.complexity_limit, grammar.max_depth, grammar.feature_limit,
                    sorted(grammar.constructors.items())],
        "domain": vocabulary.domain.text,
        "goal_predicates": list(vocabulary.goal_predicates),
        "format": 3,  # expression_depth version 2, generation record: older cached pools are stale
    }
    if grammar.projections:  # only then, so that the pools cached before projections existed stay valid
        payload["projections"] = True
    digest.update(json.dumps(payload, sort_keys=True).encode())
    digest_states(digest, bridges_and_states)
    return digest.hexdigest()[:32]



def generate_pool(vocabulary: Vocabulary, states: Sequence[tuple[InstanceBridge, State]], grammar: Grammar,
                  cache_dir: Path | None = None, progress: Callable[[str], None] = lambda message: None) -> FeaturePool:
    """The features of `grammar` that dlplan distinguishes on `states`, deeper ones dropped, the
    concept distances of its `[distances]` table (features/distances.py), and the features the
    grammar lists (see `_generated_pool`; only the generated parts are cached)."""
    pool = _generated_pool(vocabulary, states, grammar, cache_dir, progress)
    if grammar.distances is not None:
        known = FeatureTable.evaluate(pool, states)
        distances = generated_distances(vocabulary, states, grammar, known, parse_feature, cache_dir, progress)
        pool = FeaturePool(sorted([*pool, *distances], key=lambda f: f.complexity), pool.generation)
    return _with_listed_features(vocabulary, grammar, pool)


def _with_listed_features(vocabulary: Vocabulary, grammar: Grammar, pool: FeaturePool) -> FeaturePool:
    """`pool` with each feature `grammar.features` lists that it lacks, in complexity order.

    A listed feature is kept even where it equals a generated one on the pool's states: it was
    written to mean something on every instance, the generated twin only agrees on these."""
    if not grammar.features:
        return pool
    present = {f.description for f in pool}
    listed = []
    for expression in grammar.features:
        try:
            feature = parse_any_feature(vocabulary, expression)
        except ValueError as error:
            raise InputError(str(error), grammar.path) from None
        if feature.description not in present:
            present.add(feature.description)
            listed.append(feature)
    features = sorted([*pool.features, *listed], key=lambda f: f.complexity)  # stable: generated first on ties
    return FeaturePool(features, pool.generation)


def _generated_pool(vocabulary: Vocabulary, states: Sequence[tuple[InstanceBridge, State]], grammar: Grammar,
                    cache_dir: Path | None, progress: Callable[[str], None]) -> FeaturePool:
    """The features of `grammar` that dlplan distinguishes on `states`, deeper ones dropped.

    dlplan keeps a denotation per element and state. Where the free memory would not hold
    `grammar.feature_limit` elements on all the states, the pool is generated on parts of the
    states, each small enough, and merged: evaluated on every state, a feature equal to a simpler
    one of its kind is dropped, as dlplan drops it. A part distinguishes fewer concepts than the
    whole, so a few features can be lost (ferry in 4 parts: 8,549 of 8,550), and the parts with
    the merge take longer than one generation would (miconic in 5 parts: 1,233 s). Each finished
    part is cached until the pool is whole, so an interrupted generation resumes after its last
    finished part. A cached pool is reused unless a limit cut it that is now larger (a longer time
    limit, more memory).
    """
    path = None if cache_dir is None else Path(cache_dir) / f"pool-{_pool_key(vocabulary, grammar, states)}.json"
    parts = parts_within_memory(len(states), grammar.feature_limit)
    element_limit = min(grammar.feature_limit, memory_element_limit(-(-len(states) // parts)))
    if path is not None and path.is_file():
        cached = _load(vocabulary, json.loads(path.read_text()))
        if not _regenerate(cached.generation, grammar, element_limit):
            return cached
    if path is not None and _parts_begun(path) > parts:  # an interrupted run's smaller parts fit too
        parts = _parts_begun(path)
        element_limit = min(grammar.feature_limit, memory_element_limit(-(-len(states) // parts)))
    merged: dict[str, PoolFeature] = {}
    # the published grammars generate from the domain's own predicates; the features are parsed in
    # `vocabulary` again, so its projections do not change the pool
    generating = vocabulary if grammar.projections else vocabulary.without_projections()
    bridges = {}  # instance -> its bridge to `generating`
    if generating is not vocabulary:
        for bridge, _ in states:
            if bridge.index not in bridges:
                bridges[bridge.index] = generating.bridge(bridge.instance)
    reached, truncated, seconds = grammar.complexity_limit, None, 0.0
    split = _split(len(states), parts)
    for number, part in enumerate(split, start=1):
        part_path = None if path is None or parts == 1 else _part_path(path, number, parts)
        if part_path is not None and part_path.is_file():
            done = _load(vocabulary, json.loads(part_path.read_text()))
            features, part_generation = done.features, done.generation
        else:
            part_started = time.perf_counter()
            dlplan_states = [bridges.get(states[i][0].index, states[i][0]).state(states[i][1]) for i in part]
            features, part_reached, part_truncated = _generate_on(
                vocabulary, generating, dlplan_states, grammar, element_limit, max(1, int(grammar.time_limit - seconds)))
            part_generation = PoolGeneration(len(part), time.perf_counter() - part_started, part_reached,
                                             part_truncated, element_limit)
            if part_path is not None:  # an interrupt loses at most the part under way
                _write(part_path, FeaturePool(features, part_generation))
        for feature in features:
            merged.setdefault(feature.description, feature)
        seconds += part_generation.seconds
        reached = min(reached, part_generation.complexity_reached)
        truncated = truncated or part_generation.truncated
        if parts > 1:
            progress(f"feature pool: part {number}/{parts} ({len(part):,} states) done, "
                     f"{len(merged):,} features so far ({seconds:.0f} s)")
            report_status(progress, "feature pool parts", number, parts, f"{len(merged):,} features")
    finish_status(progress, "feature pool parts")
    features = list(merged.values())
    if grammar.max_depth is not None:
        features = [f for f in features if f.depth <= grammar.max_depth]
    features.sort(key=lambda f: f.complexity)  # stable: generation order breaks ties
    if parts > 1:
        progress(f"feature pool: merging {len(features):,} features of {parts} parts on all {len(states):,} states")
        merging = time.perf_counter()
        features = _distinct(features, states, split)
        seconds += time.perf_counter() - merging
    generation = PoolGeneration(len(states), seconds, reached, truncated, element_limit, parts)
    pool = FeaturePool(features, generation)
    if path is not None:
        _write(path, pool)
        for part_path in path.parent.glob(f"{path.stem}.part-*.json"):
            part_path.unlink()
    return pool


def _write(path: Path, pool: FeaturePool) -> None:
    record = {"generation": dataclasses.asdict(pool.generation),
              "features": [{"kind": f.kind.value, "description": f.description} for f in pool]}
    write_text_atomically(path, json.dumps(record))


def _part_path(path: Path, number: int, parts: int) -> Path:
    """Where part `number` of `parts` of the pool cached at `path` is kept until the pool is whole."""
    return path.with_name(f"{path.stem}.part-{number}-of-{parts}.json")


def _parts_begun(path: Path) -> int:
    """Into how many parts an interrupted generation of the pool at `path` split its states (0: none)."""
    counts = [int(match.group(1)) for part in path.parent.glob(f"{path.stem}.part-*-of-*.json")
              if (match := re.search(r"-of-(\d+)\.json$", part.name))]
    return max(counts, default=0)


def _generate_on(vocabulary: Vocabulary, generating: Vocabulary, dlplan_states: list, grammar: Grammar,
                 element_limit: int, time_limit: int) -> tuple[list[PoolFeature], int, str | None]:
    """One dlplan generation in `generating` (the states are its): its features parsed in
    `vocabulary`, the last complexity level it finished, the limit that cut it.

    Where it can (processes.workers.can_fork_here), dlplan runs in a child process: a long C++ call holds off
    Python's signal handlers until it returns, so only there does Ctrl-C (or `kill`) stop it at
    once, and the child's denotations go back to the system when it ends instead of staying in
    this process's heap. The child sends the features as expressions, parsed here again (about
    2.5 s for 100,000 features).
    """
    arguments = {**grammar.generator_arguments(), "feature_limit": element_limit, "time_limit": time_limit}
    if can_fork_here():
        try:
            generated, log, elements = call_in_child(_run_generator, generating.factory, dlplan_states, arguments)
        except ChildDied as died:
            raise ChildDied(died.exit_code, "dlplan's feature generation") from None
    else:
        generated, log, elements = _run_generator(generating.factory, dlplan_states, arguments)
    reached = max((int(level) for level in _LEVEL.findall(log)), default=0)
    if "Feature generation converged" in log:  # a level added nothing new: so would the next ones
        reached = grammar.complexity_limit
    truncated = None
    if elements >= element_limit:
        truncated = "feature limit" if element_limit == grammar.feature_limit else "memory limit"
    elif reached < grammar.complexity_limit:
        truncated = "time limit"
    return [_parsed(vocabulary, Kind(kind), description) for kind, description in generated], reached, truncated


def _run_generator(factory, dlplan_states: list, arguments: dict) -> tuple[list[tuple[str, str]], str, int]:
    """dlplan's generator: (kind, expression) of each feature in generation order, its log, and
    how many elements it kept (dlplan counts concepts and roles against the feature limit too)."""
    with captured_stdout() as log:
        booleans, numericals, concepts, roles = generate_features(factory, dlplan_states, **arguments)
    generated = [(Kind.BOOLEAN.value, str(b)) for b in booleans] + [(Kind.NUMERICAL.value, str(n)) for n in numericals]
    return generated, log[0], len(booleans) + len(numericals) + len(concepts) + len(roles)


def _split(count: int, parts: int) -> list[list[int]]:
    """`parts` parts of the state indices, drawn at random with a fixed seed: parts by position
    alias with periodic plans (every other gripper state has the robot in one room), and a
    feature is lost where one of its sub-concepts equals a simpler one on every part."""
    order = list(range(count))
    random.Random(count).shuffle(order)
    return [sorted(order[part::parts]) for part in range(parts)]


def _distinct(features: list[PoolFeature], states: Sequence[tuple[InstanceBridge, State]],
              split: list[list[int]]) -> list[PoolFeature]:
    """The first feature of each kind and valuation on all `states` (evaluated part by part, so
    that dlplan's denotations of one part at a time are in memory)."""
    values = np.empty((len(states), len(features)), dtype=np.int32)
    for part in split:
        values[part] = FeatureTable.evaluate(features, [states[i] for i in part]).values
    table = FeatureTable(features, values)
    kept = []
    for kind in Kind:  # dlplan keeps a Boolean and a numerical feature of equal values apart
        columns = [c for c, feature in enumerate(features) if feature.kind is kind]
        kept += [columns[i] for i in prune_equivalent(table.subset(columns))]
    return [features[c] for c in sorted(kept)]


# dlplan keeps a denotation per generated element and state: 1.63 GB for 105,067 elements on the
# 1,119 states of reward's plans (14 bytes an element and state, measured 2026-11-24), more per
# element at higher complexity. The published reward pool (1,000,000 elements) outgrew 20 GB here.
_BYTES_PER_ELEMENT_AND_STATE = 20
_MEMORY_SHARE = 0.6  # of the memory available when generation starts


def memory_element_limit(states: int) -> int:
    """How many elements dlplan can keep on `states` states within a share of the free memory."""
    available = psutil.virtual_memory().available
    return max(1, int(available * _MEMORY_SHARE / (max(states, 1) * _BYTES_PER_ELEMENT_AND_STATE)))


_MIN_PART_STATES = 100  # fewer states tell too few concepts apart: memory cuts the elements instead


def parts_within_memory(states: int, element_limit: int) -> int:
    """Into how many parts to split `states` so that dlplan can keep `element_limit` elements on each
    (parts of at least _MIN_PART_STATES states)."""
    per_part = max(_MIN_PART_STATES, memory_element_limit(1) // max(element_limit, 1))
    return max(1, -(-states // per_part))


def _regenerate(cached: PoolGeneration, grammar: Grammar, element_limit: int) -> bool:
    """Whether a cached pool was cut by a limit that is larger now (free memory by a quarter, so
    that its usual ups and downs do not regenerate a pool on every run)."""
    if cached.truncated == "time limit":
        return cached.seconds < grammar.time_limit
    if cached.truncated == "memory limit":
        return element_limit > 1.25 * cached.element_limit
    return False


def parse_feature(vocabulary: Vocabulary, kind: Kind, description: str) -> PoolFeature:
    """A feature from its dlplan expression (ValueError with dlplan's reason if it cannot parse
    it; dlplan's own multi-line report on stderr is kept out of the user's terminal)."""
    with captured_stderr() as report:
        try:
            return _parsed(vocabulary, kind, description)
        except RuntimeError as error:
            failure = error
    reason = _parse_reason(report[0]) or str(failure)
    raise ValueError(f"cannot parse {kind.value} feature {description!r}: {reason}")


def parse_any_feature(vocabulary: Vocabulary, expression: str) -> PoolFeature:
    """`parse_feature` with the kind its expression names: b_... Boolean, else numerical."""
    return parse_feature(vocabulary, Kind.BOOLEAN if expression.startswith("b_") else Kind.NUMERICAL, expression)


# dlplan prints a role distance as n_role_distance_numerical(...), a name its parser does not read
_MISPRINTED = {"n_role_distance_numerical(": "n_role_distance("}


def _readable(printed: str) -> str:
    """dlplan's printed expression in the form its parser reads back."""
    for misprinted, name in _MISPRINTED.items():
        printed = printed.replace(misprinted, name)
    return printed


def _parsed(vocabulary: Vocabulary, kind: Kind, description: str) -> PoolFeature:
    if uses_own_constructors(description):
        element = _own_feature(vocabulary, kind, description)
    else:
        parse = vocabulary.factory.parse_boolean if kind is Kind.BOOLEAN else vocabulary.factory.parse_numerical
        element = parse(_readable(description))
    return PoolFeature(kind, canonical_expression(_readable(str(element))), element.compute_complexity(), element)


def _own_feature(vocabulary: Vocabulary, kind: Kind, description: str) -> DlplanOwnFeature:
    """A feature with constructors of ours (features/own_constructors.py) around parts dlplan parses."""
    feature = OwnFeature(description)
    if feature.boolean != (kind is Kind.BOOLEAN):
        kinds = ("numerical", "Boolean") if kind is Kind.BOOLEAN else ("Boolean", "numerical")
        raise ValueError(f"{description!r} is a {kinds[0]} feature, not a {kinds[1]} one")
    names = [p.get_name() for p in vocabulary.info.get_predicates()]
    predicates = {}
    for predicate in feature.predicates:
        if vocabulary.domain.predicates.get(predicate) != 3:
            raise ValueError(f"{predicate} in {description!r} is not a predicate of arity 3 of {vocabulary.domain.name}")
        predicates[predicate] = (names.index(predicate), predicate in vocabulary.domain.static_predicates)
    factory = vocabulary.factory
    leaves = [(factory.parse_concept if leaf[0].startswith("c_") else factory.parse_role)(unparse_expression(leaf))
              for leaf in feature.leaves]
    return DlplanOwnFeature(feature, leaves, predicates)


def _parse_reason(report: str) -> str | None:
    """dlplan's reason in one line, from its report "In line 1:", reason, expression, ~~~ marks
    under the offending part: `undefined constant 'rooma'`."""
    lines = [line for line in report.splitlines() if line.strip()]
    if len(lines) < 2 or not lines[0].startswith("In line"):
        return None
    reason = lines[1].strip()
    if len(lines) >= 4 and "~" in lines[3]:
        start, end = lines[3].index("~"), lines[3].rindex("~") + 1
        reason += f" {lines[2][start:end]!r}"
    return reason


def _load(vocabulary: Vocabulary, record: dict) -> FeaturePool:
    # a cached pool parses (its features came from this vocabulary): no stderr capture per feature
    features = [_parsed(vocabulary, Kind(r["kind"]), r["description"]) for r in record["features"]]
    return FeaturePool(features, PoolGeneration(**record["generation"]))
