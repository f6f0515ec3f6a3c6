"""Small WL models trained once per session on a handful of Gripper trajectories (2, 4 and 6 balls)."""

from __future__ import annotations

import pytest

from neural.wl import train_wl
from neural.wl.splits import Split

TRAIN_SIZES = (6, 8, 10)  # gripper size = balls + 4


@pytest.fixture(scope="session")
def teacher_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("teacher")


@pytest.fixture(scope="session")
def trained(tmp_path_factory, teacher_cache):
    """A function: the folder of a gripper model of the given kind and mode, trained on first use."""
    folders = {}

    def folder(model: str, mode: str):
        if (model, mode) not in folders:
            out = tmp_path_factory.mktemp(f"wl-{model}-{mode}")
            train_wl("gripper", model, mode, out, seed=0, sizes=TRAIN_SIZES, per_size=1,
                     validation=Split((11,), 1), epochs=None if model == "xgb" else 40, cache_dir=teacher_cache)
            folders[model, mode] = out
        return folders[model, mode]

    return folder
