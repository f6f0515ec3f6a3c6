"""The domain registry finds domain folders and their generators."""

from __future__ import annotations

import pytest

from stratpol.errors import InputError
from stratpol.generation import domain_folder, domain_names


def test_bundled_domains_are_found():
    assert {"gripper", "blocksworld"} <= set(domain_names())
    folder = domain_folder("gripper")
    assert folder.domain.name == "gripper"
    assert [p.name for p in folder.instance_files()][:2] == ["gripper-10.pddl", "gripper-2.pddl"]


def test_generators_are_deterministic_and_parse():
    blocks = domain_folder("blocksworld")
    assert blocks.generator(blocks=6, seed=3) == blocks.generator(blocks=6, seed=3)
    assert blocks.generator(blocks=6, seed=3) != blocks.generator(blocks=6, seed=4)
    instance = blocks.domain.instance_from_text(blocks.generator(blocks=6, seed=3))
    assert len(instance.objects) == 6


def test_a_folder_added_by_the_user_is_a_domain(tmp_path, monkeypatch):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "domain.pddl").write_text("(define (domain mine) (:predicates (p)))")
    monkeypatch.setenv("STRATPOL_DOMAINS", str(tmp_path))
    assert domain_names() == ["mine"]
    with pytest.raises(InputError, match="no generator.py"):
        domain_folder("mine").generator


def test_unknown_domain_names_the_known_ones():
    with pytest.raises(InputError, match="unknown domain 'nope' .*gripper"):
        domain_folder("nope")
