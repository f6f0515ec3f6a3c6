"""Feature pools: dlplan generates Boolean and numerical features from a grammar over states.

Pools are cached on disk by a hash of everything that determines them (grammar, vocabulary,
states), so an interrupted or repeated run does not generate the same pool twice.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dlplan.generator import generate_features

from stratpol.atomic import write_text_atomically
from stratpol.features.grammar import Grammar
from stratpol.features.vocabulary import InstanceBridge, Vocabulary
from stratpol.planning import State
from stratpol.planning.quiet import silenced_stdout
from stratpol.policy import Kind

# elements without sub-expressions: their depth is 0
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


@dataclass
class FeaturePool:
    """Features ordered by (complexity, generation order): "earlier" breaks pruning ties."""

    features: list[PoolFeature]

    def __len__(self) -> int:
        return len(self.features)

    def __iter__(self):
        return iter(self.features)

    def __getitem__(self, index: int) -> PoolFeature:
        return self.features[index]


def _pool_key(vocabulary: Vocabulary, grammar: Grammar, bridges_and_states: Sequence[tuple[InstanceBridge, State]]) -> str:
    digest = hashlib.sha256()
    payload = {
        "grammar": [grammar.complexity_limit, grammar.max_depth, grammar.feature_limit, grammar.time_limit,
                    sorted(grammar.constructors.items())],
        "domain": vocabulary.domain.text,
        "goal_predicates": list(vocabulary.goal_predicates),
        "depth": 2,  # version of expression_depth: cached pools of an older count are stale
    }
    digest.update(json.dumps(payload, sort_keys=True).encode())
    seen_instances = set()
    for bridge, state in bridges_and_states:
        if bridge.index not in seen_instances:
            seen_instances.add(bridge.index)
            digest.update(bridge.instance.text.encode())
        digest.update(repr(sorted(state.atoms)).encode())
    return digest.hexdigest()[:32]


def generate_pool(vocabulary: Vocabulary, states: Sequence[tuple[InstanceBridge, State]], grammar: Grammar,
                  cache_dir: Path | None = None) -> FeaturePool:
    """The features of `grammar` that dlplan distinguishes on `states`, deeper ones dropped."""
    path = None
    if cache_dir is not None:
        path = Path(cache_dir) / f"pool-{_pool_key(vocabulary, grammar, states)}.json"
        if path.is_file():
            return _load(vocabulary, json.loads(path.read_text()))
    dlplan_states = [bridge.state(state) for bridge, state in states]
    with silenced_stdout():
        booleans, numericals, _, _ = generate_features(vocabulary.factory, dlplan_states,
                                                       **grammar.generator_arguments())
    generated = [(Kind.BOOLEAN, b) for b in booleans] + [(Kind.NUMERICAL, n) for n in numericals]
    features = [PoolFeature(kind, str(element), element.compute_complexity(), element) for kind, element in generated]
    if grammar.max_depth is not None:
        features = [f for f in features if f.depth <= grammar.max_depth]
    order = sorted(range(len(features)), key=lambda i: (features[i].complexity, i))
    pool = FeaturePool([features[i] for i in order])
    if path is not None:
        record = [{"kind": f.kind.value, "description": f.description} for f in pool]
        write_text_atomically(path, json.dumps(record))
    return pool


def parse_feature(vocabulary: Vocabulary, kind: Kind, description: str) -> PoolFeature:
    """A feature from its dlplan expression (ValueError if dlplan cannot parse it)."""
    parse = vocabulary.factory.parse_boolean if kind is Kind.BOOLEAN else vocabulary.factory.parse_numerical
    try:
        element = parse(description)
    except RuntimeError as error:
        raise ValueError(f"cannot parse {kind.value} feature {description!r}: {error}") from None
    return PoolFeature(kind, str(element), element.compute_complexity(), element)


def _load(vocabulary: Vocabulary, record: list[dict]) -> FeaturePool:
    return FeaturePool([parse_feature(vocabulary, Kind(r["kind"]), r["description"]) for r in record])
