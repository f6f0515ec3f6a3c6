"""Delivery with exactly one package: one truck carries the package to a goal cell of a grid.

Semantics of the D2L delivery generator (see domains/delivery) with one package: a rows x columns
grid of cells c_<row>_<column> with 4-neighbour `adjacent` facts in both directions, package p1,
truck t1 (empty). Truck, package and target lie on three distinct cells drawn uniformly; the goal
is `(at p1 target)`. Deliberate difference to the gp2024 training set (sketch-learner's
generator, h, w in 1..3): there the three cells may coincide, so some of its files are solved in
the initial state; here they are distinct, which needs rows * columns >= 3.
"""

from __future__ import annotations

import random

from stratpol.generation.grids import grid_facts
from stratpol.generation.size_model import Argument, SizeModel

rows, columns = Argument("rows", low=1), Argument("columns", low=1)
SIZE_MODEL = SizeModel(
    [rows, columns],
    objects=rows * columns + 2,  # cells, the package, the truck
    constraints=[rows * columns >= 3],  # truck, package and target on distinct cells
)


def generate(rows: int, columns: int, seed: int = 42) -> str:
    """PDDL text of a one-package delivery instance; needs rows * columns >= 3."""
    if rows < 1 or columns < 1 or rows * columns < 3:
        raise ValueError(f"delivery-1pkg needs rows, columns >= 1 and rows * columns >= 3, "
                         f"not rows={rows}, columns={columns}")
    rng = random.Random(seed)
    cells, adjacent = grid_facts(rows, columns)
    truck_cell, package_cell, target = rng.sample(cells, 3)
    nl = "\n    "
    return f""";; rows={rows}, columns={columns}, seed={seed}
(define (problem delivery-{rows}x{columns}-1-{seed})
  (:domain delivery)
  (:objects
    {" ".join(cells)} - cell
    p1 - package
    t1 - truck)
  (:init
    {nl.join(adjacent)}
    (at t1 {truck_cell})
    (at p1 {package_cell})
    (empty t1))
  (:goal (and
    (at p1 {target}))))
"""


BENCHMARKS = ("gp2024/delivery-1pkg",)
