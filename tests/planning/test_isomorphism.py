"""Instances that are renamings of each other: found whatever the names, and only those."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.generation import domain_folder
from stratpol.planning.isomorphism import first_renamings
from stratpol.planning.task import Domain

BLOCKS = domain_folder("blocks3ops")
BARMAN = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "gp2024" / "barman-1cocktail"


def _renamed(text: str, names: dict[str, str]) -> str:
    """`text` with every object name of `names` replaced at once (a permutation stays one)."""
    return re.sub(r"\b(" + "|".join(map(re.escape, names)) + r")\b", lambda m: names[m.group(1)], text)


def test_a_renamed_gripper_task_is_found_and_a_different_goal_is_not():
    folder = domain_folder("gripper")
    text = folder.generator(balls=3)
    renamed = _renamed(text, {"ball1": "ball3", "ball3": "orb", "rooma": "kitchen", "left": "right", "right": "left"})
    other_goal = text.replace("(at ball1 roomb)", "(at ball1 rooma)")
    more_balls = folder.generator(balls=4)
    instances = [folder.domain.instance_from_text(t) for t in (text, more_balls, renamed, other_goal, renamed)]
    assert first_renamings(instances) == [0, 1, 0, 3, 0]


@pytest.mark.skipif(not BARMAN.is_dir(), reason="no ../shared/benchmarks")
def test_the_public_barman_files_with_two_ingredients_are_few_tasks():
    """gp2024's barman-1cocktail training set: 30 files of each size, drawn with few random choices."""
    folder = BARMAN
    domain = Domain(folder / "domain.pddl")
    files = sorted((folder / "training").rglob("p-1-2-*.pddl"))
    firsts = first_renamings([domain.load_instance(f) for f in files])
    # one task with one shot, one with two; with three shots the second goal is the cocktail, its
    # first part or its second part in a shot: three tasks
    assert len(files) == 90 and sorted(set(firsts)) == [0, 30, 60, 61, 62]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 1000), permutation=st.permutations(range(5)), goal=st.booleans())
def test_a_permutation_of_the_blocks_is_a_renaming_and_a_lost_goal_atom_is_not(seed, permutation, goal):
    text = BLOCKS.generator(blocks=5, seed=seed)
    names = {f"b{i + 1}": f"b{j + 1}" for i, j in enumerate(permutation)}
    body = text[text.index("(:init"):]
    renamed = text[:text.index("(:init")] + _renamed(body, names)
    changed = renamed
    if goal:  # one goal atom fewer: another task
        goals = re.findall(r"\((?:on|on-table|clear) [^()]*\)", renamed[renamed.index("(:goal"):])
        changed = renamed[:renamed.index("(:goal")] + renamed[renamed.index("(:goal"):].replace(goals[0], "", 1)
    instances = [BLOCKS.domain.instance_from_text(t) for t in (text, renamed, changed)]
    assert first_renamings(instances) == [0, 0, 2 if goal else 0]
