"""Reward: a robot on a grid with blocked cells must pick up every reward.

Semantics of the D2L / sketch-learner reward generators (the gp2024 reward training and test
sets): a rows x columns grid of cells c_<row>_<column> with 4-neighbour `adjacent` facts in both
directions; the robot starts at c_0_0, which is unblocked and holds no reward; `rewards` reward
cells and `blocked` blocked cells are drawn among the other cells, disjoint (rewards + blocked <=
cells - 1), every other cell is `unblocked`; the goal is `(picked c)` for every reward cell.

The public generators do not check that the rewards can be reached. Here they always can: the
placement is drawn as theirs (uniform reward cells, uniform blocked cells among the rest) and
redrawn while some reward lies outside c_0_0's unblocked component; after 100 failed draws a
fallback places the rewards on a random connected region grown from c_0_0 and the blocked cells
uniformly outside it. Every instance is therefore solvable.

Free arguments: `rewards` uniform in 1..cells-1, then `blocked_fraction` uniform in [0, 1], which
sets blocked = min(floor(blocked_fraction * (m + 1)), m) for m = cells - 1 - rewards, so blocked is
uniform in 0..m given rewards. generate() also takes `blocked` directly.
"""

from __future__ import annotations

import math
import random
from collections import deque

from stratpol.generation.size_model import Argument, Free, SizeModel

rows, columns = Argument("rows", low=1), Argument("columns", low=1)
SIZE_MODEL = SizeModel(
    [rows, columns],
    objects=rows * columns,
    constraints=[rows * columns >= 2],  # the robot's cell and at least one reward cell
    free=[Free("rewards", 1, rows * columns - 1), Free("blocked_fraction", 0.0, 1.0, real=True)],
)

ATTEMPTS = 100

Cell = tuple[int, int]


def _neighbours(cell: Cell, rows: int, columns: int) -> list[Cell]:
    r, c = cell
    return [(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < rows and 0 <= c + dc < columns]


def _reachable(rows: int, columns: int, blocked: set[Cell]) -> set[Cell]:
    seen, queue = {(0, 0)}, deque([(0, 0)])
    while queue:
        for nxt in _neighbours(queue.popleft(), rows, columns):
            if nxt not in seen and nxt not in blocked:
                seen.add(nxt)
                queue.append(nxt)
    return seen


def _placement(rows: int, columns: int, rewards: int, blocked: int,
               rng: random.Random) -> tuple[list[Cell], list[Cell]]:
    """Reward cells and blocked cells, every reward reachable from (0, 0)."""
    others = [(r, c) for r in range(rows) for c in range(columns) if (r, c) != (0, 0)]
    for _ in range(ATTEMPTS):
        chosen = rng.sample(others, rewards + blocked)
        reward_cells, blocked_cells = chosen[:rewards], chosen[rewards:]
        if not blocked_cells or set(reward_cells) <= _reachable(rows, columns, set(blocked_cells)):
            return reward_cells, blocked_cells
    region, frontier = [(0, 0)], set(_neighbours((0, 0), rows, columns))
    while len(region) < rewards + 1:
        cell = rng.choice(sorted(frontier))
        region.append(cell)
        frontier.discard(cell)
        frontier.update(n for n in _neighbours(cell, rows, columns) if n not in region)
    outside = [cell for cell in others if cell not in set(region)]
    return region[1:], rng.sample(outside, blocked)


def generate(rows: int, columns: int, rewards: int, blocked_fraction: float = 0.0, seed: int = 42,
             blocked: int | None = None) -> str:
    """PDDL text of a reward instance; `blocked` (if given) overrides `blocked_fraction`."""
    cells = rows * columns
    if rows < 1 or columns < 1 or cells < 2:
        raise ValueError(f"reward needs a grid of at least two cells, not {rows} x {columns}")
    if not 1 <= rewards <= cells - 1:
        raise ValueError(f"reward needs 1 <= rewards <= cells - 1 = {cells - 1}, not {rewards}")
    spare = cells - 1 - rewards
    if blocked is None:
        if not 0.0 <= blocked_fraction <= 1.0:
            raise ValueError(f"blocked_fraction must lie in [0, 1], not {blocked_fraction}")
        blocked = min(math.floor(blocked_fraction * (spare + 1)), spare)
    if not 0 <= blocked <= spare:
        raise ValueError(f"reward needs 0 <= blocked <= cells - 1 - rewards = {spare}, not {blocked}")
    rng = random.Random(seed)
    reward_cells, blocked_cells = _placement(rows, columns, rewards, blocked, rng)
    name = "c_{}_{}".format
    all_cells = [(r, c) for r in range(rows) for c in range(columns)]
    adjacent = [f"(adjacent {name(*a)} {name(*b)})" for a in all_cells for b in _neighbours(a, rows, columns)]
    unblocked = [f"(unblocked {name(*cell)})" for cell in all_cells if cell not in set(blocked_cells)]
    nl = "\n    "
    return f""";; rows={rows}, columns={columns}, rewards={rewards}, blocked={blocked}, seed={seed}
(define (problem reward-{rows}x{columns}-{seed})
  (:domain reward-strips)
  (:objects {" ".join(name(*cell) for cell in all_cells)} - cell)
  (:init
    {nl.join(adjacent)}
    (at c_0_0)
    {nl.join(unblocked)}
    {nl.join(f"(reward {name(*cell)})" for cell in sorted(reward_cells))})
  (:goal (and
    {nl.join(f"(picked {name(*cell)})" for cell in sorted(reward_cells))})))
"""


BENCHMARKS = ("gp2024/reward",)
