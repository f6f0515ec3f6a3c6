"""Blocksworld (4 operators) with a uniform random initial state and a single `(on bX bY)` goal.

The KR 2025 learner-policies-from-examples set blocks4ops-on (gp2024) takes bwstates problems
(`BW-rand-N`, pddl-generators' `blocksworld 4 N SEED`) and replaces the goal by one `(on bX bY)`
atom. Here the initial state is drawn exactly uniformly over all blocksworld states of N blocks
(all sets of towers; see domains/blocks4ops) and (X, Y) uniformly over the ordered pairs of
distinct blocks; the triple is redrawn while bX is already on bY, so it is uniform over the
non-trivial ones.
"""

from __future__ import annotations

import random

from stratpol.generation.blocks_states import block_names, on_facts, state_facts, uniform_state
from stratpol.generation.size_model import Argument, SizeModel

blocks = Argument("blocks", low=2)
SIZE_MODEL = SizeModel([blocks], objects=blocks)


def generate(blocks: int, seed: int = 42) -> str:
    """PDDL text of an instance with `blocks` blocks (at least 2) and goal `(on bX bY)`."""
    if blocks < 2:
        raise ValueError(f"blocks4ops-on needs at least two blocks, not {blocks}")
    rng = random.Random(seed)
    names = block_names(blocks)
    while True:
        init = uniform_state(names, rng)
        upper, lower = rng.sample(names, 2)
        if (upper, lower) not in on_facts(init):
            break
    nl = "\n    "
    return f""";; blocks={blocks}, seed={seed}
(define (problem BW-rand-{blocks}-{seed})
  (:domain blocksworld)
  (:objects {" ".join(names)} - object)
  (:init
    {nl.join(state_facts(init))})
  (:goal (and
    (on {upper} {lower}))))
"""


BENCHMARKS = ("gp2024/blocks4ops-on",)
