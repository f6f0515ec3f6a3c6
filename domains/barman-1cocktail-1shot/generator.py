"""Barman instances with one cocktail and one shot (the gp2024 barman-1cocktail-1shot variant).

As pddl-generators' `barman-generator.py 1 I 1`: one shaker, two hands, one shot, I ingredients
each with its own dispenser, one cocktail made of two distinct random ingredients (part1, part2),
levels l0..l2; everything starts clean, empty and on the table; the goal is the cocktail in the
shot.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

ingredients = Argument("ingredients", low=2)
# shaker1, left, right, shot1, cocktail1, l0..l2, one dispenser per ingredient
SIZE_MODEL = SizeModel([ingredients], objects=2 * ingredients + 8)

LEVELS = 2


def generate(ingredients: int, seed: int = 0) -> str:
    """PDDL text of a one-cocktail, one-shot barman task with `ingredients` ingredients (>= 2)."""
    if ingredients < 2:
        raise ValueError(f"barman needs at least two ingredients, not {ingredients}")
    rng = random.Random(seed)
    part1, part2 = rng.sample(range(1, ingredients + 1), 2)
    names = " ".join(f"ingredient{i}" for i in range(1, ingredients + 1))
    dispensers = " ".join(f"dispenser{i}" for i in range(1, ingredients + 1))
    levels = " ".join(f"l{i}" for i in range(LEVELS + 1))
    init = ["(ontable shaker1)", "(ontable shot1)"]
    init += [f"(dispenses dispenser{i} ingredient{i})" for i in range(1, ingredients + 1)]
    init += ["(clean shaker1)", "(clean shot1)", "(empty shaker1)", "(empty shot1)",
             "(handempty left)", "(handempty right)",
             "(shaker-empty-level shaker1 l0)", "(shaker-level shaker1 l0)"]
    init += [f"(next l{i} l{i + 1})" for i in range(LEVELS)]
    init += [f"(cocktail-part1 cocktail1 ingredient{part1})", f"(cocktail-part2 cocktail1 ingredient{part2})",
             "(= (total-cost) 0)"]
    nl = "\n    "
    return f""";; ingredients={ingredients}, seed={seed}
(define (problem barman-1-{ingredients}-1-{seed})
  (:domain barman)
  (:objects
    shaker1 - shaker
    left right - hand
    shot1 - shot
    {names} - ingredient
    cocktail1 - cocktail
    {dispensers} - dispenser
    {levels} - level)
  (:init
    {nl.join(init)})
  (:goal (and
    (contains shot1 cocktail1)))
  (:metric minimize (total-cost)))
"""


BENCHMARKS = ("gp2024/barman-1cocktail-1shot",)
