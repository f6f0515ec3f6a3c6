"""Blocksworld (4 operators) with uniform random states, as pddl-generators' `blocksworld 4 N SEED`.

The bwstates generator (Slaney & Thiebaux) draws the initial state and the goal state uniformly
over all blocksworld states of N blocks (all sets of towers); the goal lists only the `on` facts
of its state. The uniform draw is exact: a state with k towers is a permutation of the blocks cut
into k consecutive non-empty pieces, read up to the order of the pieces, so there are
L(n, k) = C(n-1, k-1) * n! / k! states with k towers (the Lah numbers). We draw k with probability
proportional to L(n, k), then a uniform permutation and a uniform cut into k pieces.

Deliberate difference: the goal state is redrawn while the initial state already satisfies its
`on` facts (including the empty goal of the all-on-table state), which is what the sampler's
redraw of trivial instances would do anyway; the pair (init, goal) is then uniform over the
non-trivial pairs.
"""

from __future__ import annotations

import random

from stratpol.generation.blocks_states import block_names, on_facts, state_facts, uniform_state
from stratpol.generation.size_model import Argument, SizeModel

blocks = Argument("blocks", low=2)
SIZE_MODEL = SizeModel([blocks], objects=blocks)


def generate(blocks: int, seed: int = 42) -> str:
    """PDDL text of an instance with `blocks` blocks (at least 2): uniform initial and goal states."""
    if blocks < 2:
        raise ValueError(f"blocks4ops needs at least two blocks, not {blocks}")
    rng = random.Random(seed)
    names = block_names(blocks)
    init = uniform_state(names, rng)
    while True:
        goal = on_facts(uniform_state(names, rng))
        if not goal <= on_facts(init):  # also excludes the empty goal
            break
    nl = "\n    "
    goal_text = nl.join(f"(on {upper} {lower})" for upper, lower in sorted(goal))
    return f""";; blocks={blocks}, seed={seed}
(define (problem BW-rand-{blocks}-{seed})
  (:domain blocksworld)
  (:objects {" ".join(names)} - object)
  (:init
    {nl.join(state_facts(init))})
  (:goal (and
    {goal_text})))
"""
