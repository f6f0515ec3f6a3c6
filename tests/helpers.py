"""Helpers the tests import: small instances built from the bundled generators, random walks."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

from stratpol.generation import domain_folder
from stratpol.planning import Domain, Instance, State

DATA = Path(__file__).parent / "data"


def stratpol(*args: object, cache: Path | None = None, timeout: float = 600) -> subprocess.CompletedProcess:
    """The `stratpol` command in a child process, as a user runs it; with its own plan and pool
    cache where `cache` is given."""
    env = {**os.environ, "STRATPOL_CACHE": str(cache)} if cache is not None else None
    return subprocess.run([sys.executable, "-m", "stratpol.cli", *map(str, args)],
                          check=False, capture_output=True, text=True, timeout=timeout, env=env)


def gripper_instance(domain: Domain, balls: int) -> Instance:
    return domain.instance_from_text(domain_folder("gripper").generator(balls=balls))


def gripper_instances(*balls: int) -> list[Instance]:
    """Instances of the bundled gripper domain with these numbers of balls, in that order."""
    domain = domain_folder("gripper").domain
    return [gripper_instance(domain, n) for n in balls]


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
