"""Blocksworld (4 operators) instances as the IPC 2023 learning-track generator makes them.

Initial state and goal are random towers: the blocks are shuffled and each consecutive pair is
split into separate towers with probability 0.1 (not uniform over states). The goal lists every
on, on-table and clear fact of the goal towers.
"""

from __future__ import annotations

import random

from stratpol.generation.blocks_states import problem_text
from stratpol.generation.size_model import Argument, SizeModel

blocks = Argument("blocks", low=2)
SIZE_MODEL = SizeModel([blocks], objects=blocks)


def _towers(blocks: list[str], rng: random.Random) -> list[list[str]]:
    order = blocks[:]
    rng.shuffle(order)
    towers = [[order[0]]]
    for block in order[1:]:
        if rng.random() < 0.1:
            towers.append([block])
        else:
            towers[-1].append(block)
    return towers


def _facts(towers: list[list[str]]) -> list[str]:
    facts = []
    for tower in towers:  # tower[0] is on the table, tower[-1] is clear
        facts.append(f"(on-table {tower[0]})")
        facts += [f"(on {upper} {lower})" for lower, upper in zip(tower, tower[1:])]
        facts.append(f"(clear {tower[-1]})")
    return facts


def generate(blocks: int, seed: int = 42) -> str:
    """PDDL text of a random instance with `blocks` blocks (at least 2)."""
    if blocks < 2:
        raise ValueError(f"blocksworld needs at least two blocks, not {blocks}")
    rng = random.Random(seed)
    names = [f"b{i}" for i in range(1, blocks + 1)]
    init = _facts(_towers(names, rng))
    goal = _facts(_towers(names, rng))
    return problem_text(f"blocks={blocks}, seed={seed}", f"blocksworld-{blocks}-{seed}", names,
                        ["(arm-empty)", *init], goal)


BENCHMARKS = ("ipc2023/blocksworld",)


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; blocks=..., seed=...` header."""
    return {"blocks": int(header["blocks"])} if "blocks" in header else None
