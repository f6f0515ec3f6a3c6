"""Blocksworld with three operators (blocks moved directly, no arm) and a full goal state.

As the gp2024 blocks3ops training files, the goal lists every fact of a state (on-table, on,
clear). The initial and the goal state are drawn exactly uniformly over all blocksworld states of
N blocks (stratpol.generation.blocks_states); the goal is redrawn while it equals the initial
state, so the pair is uniform over the non-trivial pairs.
"""

from __future__ import annotations

import random

from stratpol.generation.blocks_states import block_names, problem_text, state_facts, uniform_state
from stratpol.generation.size_model import Argument, SizeModel

blocks = Argument("blocks", low=2)
SIZE_MODEL = SizeModel([blocks], objects=blocks)
BENCHMARKS = ("gp2024/blocks3ops",)


def generate(blocks: int, seed: int = 42) -> str:
    """PDDL text of an instance with `blocks` blocks (at least 2): uniform initial and goal states."""
    if blocks < 2:
        raise ValueError(f"blocks3ops needs at least two blocks, not {blocks}")
    rng = random.Random(seed)
    names = block_names(blocks)
    init = state_facts(uniform_state(names, rng), arm=False)
    while True:
        goal = state_facts(uniform_state(names, rng), arm=False)
        if goal != init:
            break
    return problem_text(f"blocks={blocks}, seed={seed}", f"blocksworld-{blocks}-{seed}", names, init, goal)


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """The gp2024 files' `;; blocks=N, percentage_new_tower=P, ...` header."""
    return {"blocks": int(header["blocks"])} if "blocks" in header else None
