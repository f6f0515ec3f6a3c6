"""Blocksworld states drawn exactly uniformly (Slaney and Thiebaux's bwstates), for the generators.

A state with k towers is a permutation of the blocks cut into k consecutive non-empty pieces,
read up to the order of the pieces, so there are L(n, k) = C(n-1, k-1) * n! / k! states with k
towers (the Lah numbers). Draw k with probability proportional to L(n, k), then a uniform
permutation and a uniform cut into k pieces.
"""

from __future__ import annotations

import math
import random


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


def state_facts(towers: list[list[str]], arm: bool = True) -> list[str]:
    """Every fact of the state: arm-empty (where the domain has an arm), on-table, on and clear."""
    facts = ["(arm-empty)"] if arm else []
    facts += sorted(f"(on-table {tower[0]})" for tower in towers)
    facts += sorted(f"(on {upper} {lower})" for upper, lower in on_facts(towers))
    facts += sorted(f"(clear {tower[-1]})" for tower in towers)
    return facts


def block_names(blocks: int) -> list[str]:
    return [f"b{i}" for i in range(1, blocks + 1)]


def problem_text(header: str, problem: str, names: list[str], init: list[str], goal: list[str]) -> str:
    """A problem of the untyped `blocksworld` domains: its `;;` header line, objects, facts and goal."""
    nl = "\n    "
    return f""";; {header}
(define (problem {problem})
  (:domain blocksworld)
  (:objects {" ".join(names)} - object)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""
