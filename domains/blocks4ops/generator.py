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

import math
import random

from stratpol.generation.size_model import Argument, SizeModel

blocks = Argument("blocks", low=2)
SIZE_MODEL = SizeModel([blocks], objects=blocks)


def _lah(n: int, k: int) -> int:
    """The number of blocksworld states of n blocks with exactly k towers."""
    return math.comb(n - 1, k - 1) * math.factorial(n) // math.factorial(k)


def uniform_state(names: list[str], rng: random.Random) -> list[list[str]]:
    """A blocksworld state drawn uniformly: a list of towers, each listed bottom block first."""
    n = len(names)
    weights = [_lah(n, k) for k in range(1, n + 1)]
    draw = rng.randrange(sum(weights))
    k = 1
    while draw >= weights[k - 1]:
        draw -= weights[k - 1]
        k += 1
    order = names[:]
    rng.shuffle(order)
    cuts = [0, *sorted(rng.sample(range(1, n), k - 1)), n]
    return [order[a:b] for a, b in zip(cuts, cuts[1:])]


def on_facts(towers: list[list[str]]) -> set[tuple[str, str]]:
    return {(upper, lower) for tower in towers for lower, upper in zip(tower, tower[1:])}


def state_facts(towers: list[list[str]]) -> list[str]:
    """Every fact of the state: arm-empty, on-table, on and clear."""
    facts = ["(arm-empty)"]
    facts += sorted(f"(on-table {tower[0]})" for tower in towers)
    facts += sorted(f"(on {upper} {lower})" for upper, lower in on_facts(towers))
    facts += sorted(f"(clear {tower[-1]})" for tower in towers)
    return facts


def block_names(blocks: int) -> list[str]:
    return [f"b{i}" for i in range(1, blocks + 1)]


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
