"""Blocksworld (4 operators) with a uniform random initial state and a single `(on bX bY)` goal.

The KR 2025 learner-policies-from-examples set blocks4ops-on (gp2024) takes bwstates problems
(`BW-rand-N`, pddl-generators' `blocksworld 4 N SEED`) and replaces the goal by one `(on bX bY)`
atom. Here the initial state is drawn exactly uniformly over all blocksworld states of N blocks
(all sets of towers; see domains/blocks4ops) and (X, Y) uniformly over the ordered pairs of
distinct blocks; the triple is redrawn while bX is already on bY, so it is uniform over the
non-trivial ones.
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


def generate(blocks: int, seed: int = 42) -> str:
    """PDDL text of an instance with `blocks` blocks (at least 2) and goal `(on bX bY)`."""
    if blocks < 2:
        raise ValueError(f"blocks4ops-on needs at least two blocks, not {blocks}")
    rng = random.Random(seed)
    names = [f"b{i}" for i in range(1, blocks + 1)]
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
