"""Shared fixtures: the bundled domains and small instances built from their generators."""

from __future__ import annotations

import os

# One thread for torch (and BLAS, xgboost) in each test process, before any imports it: the suite
# runs on two workers on two cores, and where other jobs share them, a tiny model's threads wait on
# each other (a gripper Q evaluation, hidden 8: 23.0 s on two threads against 1.0 s on one, beside
# two other jobs; tests/neural beside one job: 60 s either way)
os.environ.setdefault("OMP_NUM_THREADS", "1")

import pytest  # noqa: E402
from helpers import DATA

from stratpol.generation import domain_folder
from stratpol.planning import Domain


@pytest.fixture(scope="session")
def gripper() -> Domain:
    return domain_folder("gripper").domain


@pytest.fixture(scope="session")
def blocksworld() -> Domain:
    return domain_folder("blocksworld").domain


@pytest.fixture(scope="session")
def oneway() -> Domain:
    return Domain(DATA / "gripper-oneway.pddl")


# Small WL models trained once per test run on a handful of Gripper trajectories (2, 4 and 6 balls).
WL_TRAIN_SIZES = (6, 8, 10)  # gripper size = balls + 4


@pytest.fixture(scope="session")
def wl_teacher_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("teacher")


@pytest.fixture(scope="session")
def wl_train(wl_teacher_cache):
    """A function: train a gripper model of the given kind and mode into a folder, as the suite's are."""
    from stratpol.method_settings import WLTraining
    from neural.wl import train_wl
    from neural.wl.splits import Split

    def train(model: str, mode: str, out):
        settings = WLTraining(model, mode, per_size=1, epochs=None if model == "xgb" else 40)
        return train_wl("gripper", settings, out, sizes=WL_TRAIN_SIZES, validation=Split((11,), 1),
                        cache_dir=wl_teacher_cache)

    return train


@pytest.fixture(scope="session")
def wl_trained(tmp_path_factory, wl_train):
    """A function: the folder of a gripper model of the given kind and mode, trained on first use."""
    folders = {}

    def folder(model: str, mode: str):
        if (model, mode) not in folders:
            out = tmp_path_factory.mktemp(f"wl-{model}-{mode}")
            wl_train(model, mode, out)
            folders[model, mode] = out
        return folders[model, mode]

    return folder
