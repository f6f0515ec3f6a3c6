"""Blocksworld (4 operators) with a uniform random initial state and a single `(clear bX)` goal.

The KR 2025 learner-policies-from-examples set blocks4ops-clear (gp2024) takes bwstates problems
(`BW-rand-N`, pddl-generators' `blocksworld 4 N SEED`) and replaces the goal by one `(clear bX)`
atom. Here the initial state is drawn exactly uniformly over all blocksworld states of N blocks
(all sets of towers; see domains/blocks4ops) and X uniformly over the blocks; the pair is redrawn
while bX is already clear, so (state, X) is uniform over the non-trivial pairs. (The gp2024 files
contain trivial instances whose goal block is already clear; this generator makes none.)
"""

from __future__ import annotations

import random

from stratpol.generation.blocks_states import block_names, state_facts, uniform_state
from stratpol.generation.size_model import Argument, SizeModel

blocks = Argument("blocks", low=2)
SIZE_MODEL = SizeModel([blocks], objects=blocks)


def generate(blocks: int, seed: int = 42) -> str:
    """PDDL text of an instance with `blocks` blocks (at least 2) and goal `(clear bX)`."""
    if blocks < 2:
        raise ValueError(f"blocks4ops-clear needs at least two blocks, not {blocks}")
    rng = random.Random(seed)
    names = block_names(blocks)
    while True:
        init = uniform_state(names, rng)
        target = rng.choice(names)
        if target not in {tower[-1] for tower in init}:
            break
    nl = "\n    "
    return f""";; blocks={blocks}, seed={seed}
(define (problem BW-rand-{blocks}-{seed})
  (:domain blocksworld)
  (:objects {" ".join(names)} - object)
  (:init
    {nl.join(state_facts(init))})
  (:goal (and
    (clear {target}))))
"""


BENCHMARKS = ("gp2024/blocks4ops-clear",)
