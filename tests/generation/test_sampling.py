"""Uniform sampling of generator inputs and the redraw rules."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from stratpol.errors import InputError
from stratpol.generation import domain_folder
from stratpol.generation.sampling import draw_input, sample, sample_instances


def test_batches_are_distinct_and_reproducible():
    batch = sample_instances("blocksworld", 6, count=5, seed=11)
    assert len({g.text for g in batch}) == 5
    assert [g.text for g in batch] == [g.text for g in sample_instances("blocksworld", 6, count=5, seed=11)]
    assert [g.text for g in batch] != [g.text for g in sample_instances("blocksworld", 6, count=5, seed=12)]


def test_sized_inputs_are_drawn_uniformly(monkeypatch):
    from stratpol.generation import sampling
    from stratpol.generation.size_model import Argument, SizeModel

    class Folder:  # a domain folder reduced to its size model
        name = "toy"
        size_model = SizeModel([Argument("a", 1), Argument("b", 1)], Argument("a", 1) + Argument("b", 1))

    monkeypatch.setattr(sampling, "_folder", lambda domain: domain)
    rng = random.Random(5)
    counts = Counter(draw_input(Folder, 6, rng)["a"] for _ in range(5000))
    assert sorted(counts) == [1, 2, 3, 4, 5]  # the five solutions of a + b = 6
    assert all(abs(c / 5000 - 0.2) < 0.03 for c in counts.values())


def test_trivial_instances_are_redrawn_and_exhaustion_is_reported():
    # blocksworld with 2 blocks has few distinct instances; asking for many must stop clearly
    rng, seen = random.Random(1), set()
    folder = domain_folder("blocksworld")
    drawn = []
    with pytest.raises(InputError, match="no new non-trivial instance with 2 objects"):
        for _ in range(50):
            drawn.append(sample(folder, 2, rng, seen))
    for generated in drawn:
        instance = folder.domain.instance_from_text(generated.text)
        assert not instance.is_goal(instance.initial_state)


def test_impossible_size_is_a_user_error():
    with pytest.raises(InputError, match="no instance with 3 objects"):
        sample_instances("gripper", 3, count=1, seed=0)
