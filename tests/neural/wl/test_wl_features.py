"""WL features: invariant to object names, a frozen vocabulary whose misses are counted, saved and reloaded."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np

from stratpol.generation import domain_folder
from stratpol.generation.sampling import sample
from neural.wl.features import ColourCounts, WLFeatures


def _instance(domain_name: str, size: int, seed: int = 0, renaming: dict[str, str] | None = None):
    folder = domain_folder(domain_name)
    text = sample(folder, size, random.Random(seed)).text
    for old, new in (renaming or {}).items():
        text = text.replace(old, new)
    return folder.domain.instance_from_text(text)


def _reachable(instance, limit: int = 200):
    states, frontier = [instance.initial_state], [instance.initial_state]
    seen = set(states)
    while frontier and len(states) < limit:
        for successor in instance.successors(frontier.pop(0)):
            if successor.state not in seen:
                seen.add(successor.state)
                states.append(successor.state)
                frontier.append(successor.state)
    return states


def _rows_as_multiset(matrix: np.ndarray) -> list[tuple]:
    return sorted(map(tuple, matrix.tolist()))


def test_embedding_is_invariant_to_object_renaming():
    for domain_name, size, renaming in (
        ("gripper", 7, {"ball1": "zeta", "ball2": "alpha", "ball3": "qq-7", "rooma": "kitchen", "roomb": "attic",
                        "left": "port", "right": "starboard"}),
        ("visitall", 9, {"loc-x": "cell-q", "-y": "-w"}),
    ):
        original, renamed = _instance(domain_name, size), _instance(domain_name, size, renaming=renaming)
        assert set(original.objects) != set(renamed.objects)
        features = WLFeatures.collect(original.domain, _reachable(original)[:20])
        states_a, states_b = _reachable(original), _reachable(renamed)
        assert len(states_a) == len(states_b)
        a, b = features.embed(states_a), features.embed(states_b)
        assert _rows_as_multiset(a) == _rows_as_multiset(b)
        assert np.array_equal(features.embed_goal(original), features.embed_goal(renamed))
        # not invariant by being blind: the states of the instance get different embeddings
        assert len(set(map(tuple, a.tolist()))) > 1


def test_unseen_colours_are_counted_on_larger_instances_only():
    small = _instance("gripper", 6)
    training = _reachable(small)
    features = WLFeatures.collect(small.domain, training)
    on_training = ColourCounts()
    features.embed(training[:5], on_training)
    assert sum(on_training.seen) > 0 and on_training.total_unseen == 0
    on_goal = ColourCounts()  # the goal state is not a training state: as in the paper, some colours are missing
    features.embed_goal(small, on_goal)
    assert on_goal.total_unseen > 0
    with_goals = WLFeatures.collect(small.domain, training, goals=True)
    on_goal = ColourCounts()
    with_goals.embed_goal(small, on_goal)
    assert on_goal.total_unseen == 0 and with_goals.dimension > features.dimension
    large = _instance("gripper", 20)
    on_large = ColourCounts()
    features.embed([large.initial_state], on_large)
    assert on_large.total_unseen > 0
    assert 0 < on_large.unseen_share() <= 1


def test_features_reload_from_their_json(tmp_path):
    training = _reachable(_instance("logistics", 8))
    features = WLFeatures.collect(training[0].instance.domain, training)
    features.save(tmp_path)
    reloaded = WLFeatures.load(tmp_path, training[0].instance.domain)
    assert reloaded.dimension == features.dimension
    other = _reachable(_instance("logistics", 10, seed=3), limit=30)
    assert np.array_equal(features.embed(other), reloaded.embed(other))
    assert np.array_equal(features.embed_goal(other[0].instance), reloaded.embed_goal(other[0].instance))


COLLECT = """
import random, sys
from pathlib import Path
from stratpol.generation import domain_folder
from stratpol.generation.sampling import sample
from neural.wl.features import WLFeatures
folder = domain_folder("logistics")
instance = folder.domain.instance_from_text(sample(folder, 9, random.Random(0)).text)
states = [instance.initial_state] + [s.state for s in instance.successors(instance.initial_state)]
WLFeatures.collect(folder.domain, states).save(Path(sys.argv[1]))
"""


def test_the_vocabulary_does_not_depend_on_string_hashing(tmp_path):
    saved = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        subprocess.run([sys.executable, "-c", COLLECT, str(out)], check=True, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": hash_seed})
        saved.append((out / "wl-features.json").read_text())
    assert saved[0] == saved[1]
