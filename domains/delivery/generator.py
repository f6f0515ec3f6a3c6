"""Delivery: one truck carries packages, one at a time, to a common goal cell of a grid.

Semantics of the D2L delivery generator (rleap-project/d2l, also the gp2024 delivery test set):
a rows x columns grid of cells c_<row>_<column> with 4-neighbour `adjacent` facts in both
directions, packages p1..pP, one truck t1 that starts empty. The truck, every package and the
target cell lie on pairwise distinct cells drawn uniformly; the goal puts every package on the
target. Deliberate differences: rectangular grids (as sketch-learner) instead of D2L's square
ones, and a seed (D2L never seeds `random`).
"""

from __future__ import annotations

import random

from stratpol.generation.grids import grid_facts
from stratpol.generation.size_model import Argument, SizeModel

rows, columns, packages = Argument("rows", low=1), Argument("columns", low=1), Argument("packages", low=1)
SIZE_MODEL = SizeModel(
    [rows, columns, packages],
    objects=rows * columns + packages + 1,  # cells, packages, the truck
    constraints=[packages + 2 <= rows * columns],  # truck, packages and target on distinct cells
)


def generate(rows: int, columns: int, packages: int, seed: int = 42) -> str:
    """PDDL text of a delivery instance; needs packages >= 1 and packages + 2 <= rows * columns."""
    if rows < 1 or columns < 1 or packages < 1 or packages + 2 > rows * columns:
        raise ValueError(f"delivery needs rows, columns, packages >= 1 and packages + 2 <= rows * columns, "
                         f"not rows={rows}, columns={columns}, packages={packages}")
    rng = random.Random(seed)
    cells, adjacent = grid_facts(rows, columns)
    names = [f"p{i}" for i in range(1, packages + 1)]
    truck_cell, *package_cells, target = rng.sample(cells, packages + 2)
    nl = "\n    "
    at = [f"(at t1 {truck_cell})"] + [f"(at {p} {cell})" for p, cell in zip(names, package_cells)]
    goal = [f"(at {p} {target})" for p in names]
    return f""";; rows={rows}, columns={columns}, packages={packages}, seed={seed}
(define (problem delivery-{rows}x{columns}-{packages}-{seed})
  (:domain delivery)
  (:objects
    {" ".join(cells)} - cell
    {" ".join(names)} - package
    t1 - truck)
  (:init
    {nl.join(adjacent)}
    {nl.join(at)}
    (empty t1))
  (:goal (and
    {nl.join(goal)})))
"""


# its test set is the D2L delivery set with 2-3 packages; the training files have one package
BENCHMARKS = ("gp2024/delivery-1pkg",)
