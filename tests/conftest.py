"""Shared fixtures: the bundled domains and small instances built from their generators."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from stratpol.generation import domain_folder
from stratpol.planning import Domain, Instance, State

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def gripper() -> Domain:
    return domain_folder("gripper").domain


@pytest.fixture(scope="session")
def blocksworld() -> Domain:
    return domain_folder("blocksworld").domain


@pytest.fixture(scope="session")
def oneway() -> Domain:
    return Domain(DATA / "gripper-oneway.pddl")


def gripper_instance(domain: Domain, balls: int) -> Instance:
    return domain.instance_from_text(domain_folder("gripper").generator(balls=balls))


def blocks_instance(domain: Domain, blocks: int, seed: int) -> Instance:
    return domain.instance_from_text(domain_folder("blocksworld").generator(blocks=blocks, seed=seed))


def random_walk(instance: Instance, steps: int, seed: int) -> State:
    """The state after up to `steps` uniformly random transitions from the initial state."""
    rng = random.Random(seed)
    state = instance.initial_state
    for _ in range(steps):
        successors = instance.successors(state)
        if not successors:
            break
        state = rng.choice(successors).state
    return state


def oneway_instance(domain: Domain, balls: int) -> Instance:
    names = " ".join(f"ball{i}" for i in range(1, balls + 1))
    at = " ".join(f"(at ball{i} rooma)" for i in range(1, balls + 1))
    goal = " ".join(f"(at ball{i} roomb)" for i in range(1, balls + 1))
    return domain.instance_from_text(
        f"(define (problem oneway-{balls}) (:domain gripper-oneway)"
        f" (:objects left right - gripper {names} - ball)"
        f" (:init (at-robby rooma) (free left) (free right) {at})"
        f" (:goal (and {goal})))"
    )


def blocks_text(init: list[str], goal: list[str], blocks: list[str]) -> str:
    return (
        f"(define (problem hand) (:domain blocksworld) (:objects {' '.join(blocks)})"
        f" (:init (arm-empty) {' '.join(init)}) (:goal (and {' '.join(goal)})))"
    )


# Small WL models trained once per session on a handful of Gripper trajectories (2, 4 and 6 balls).
WL_TRAIN_SIZES = (6, 8, 10)  # gripper size = balls + 4


@pytest.fixture(scope="session")
def wl_teacher_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("teacher")


@pytest.fixture(scope="session")
def wl_trained(tmp_path_factory, wl_teacher_cache):
    """A function: the folder of a gripper model of the given kind and mode, trained on first use."""
    from stratpol.neural.wl import train_wl
    from stratpol.neural.wl.splits import Split

    folders = {}

    def folder(model: str, mode: str):
        if (model, mode) not in folders:
            out = tmp_path_factory.mktemp(f"wl-{model}-{mode}")
            train_wl("gripper", model, mode, out, seed=0, sizes=WL_TRAIN_SIZES, per_size=1,
                     validation=Split((11,), 1), epochs=None if model == "xgb" else 40, cache_dir=wl_teacher_cache)
            folders[model, mode] = out
        return folders[model, mode]

    return folder
