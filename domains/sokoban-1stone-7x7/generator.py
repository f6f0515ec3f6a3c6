"""Sokoban with one stone on a 7x7 board (border walls included), with real vertical adjacency.

Follows the KR 2025 learner-policies-from-examples generator (`sokoban-1stone-v3-7x7`): all 49
cells `pos-<col>-<row>` are locations, the 5x5 interior is free, and the stone, the player and the
single goal cell are three distinct random interior cells. Unlike the public data, vertical
adjacency is written as ADJ-DOWN (the public files write it as ADJ-RIGHT). Unlike the public
generator, draws whose stone cannot reach the goal (a stone in a corner, or on an edge the goal is
not on) are redrawn, so every instance is solvable.
"""

from __future__ import annotations

import random
from collections import deque

from stratpol.generation.size_model import Argument, SizeModel

# The variant fixes both: the 7x7 board's cells are all objects, and there is one stone.
side, stones = Argument("side", low=7, high=7), Argument("stones", low=1, high=1)
SIZE_MODEL = SizeModel([side, stones], objects=side * side + stones)

Cell = tuple[int, int]  # (column, row), 1-based
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _solvable(interior: set[Cell], stone: Cell, player: Cell, goal: Cell) -> bool:
    """Whether pushes can bring the stone to the goal (search over stone and player cells)."""
    start = (stone, player)
    seen, queue = {start}, deque([start])
    while queue:
        stone, player = queue.popleft()
        if stone == goal:
            return True
        for dc, dr in STEPS:
            target = (player[0] + dc, player[1] + dr)
            if target == stone:
                beyond = (stone[0] + dc, stone[1] + dr)
                state = (beyond, stone) if beyond in interior else None
            else:
                state = (stone, target) if target in interior else None
            if state is not None and state not in seen:
                seen.add(state)
                queue.append(state)
    return False


def generate(side: int = 7, stones: int = 1, seed: int = 0) -> str:
    """PDDL text of a solvable one-stone 7x7 Sokoban task (side and stones are fixed)."""
    if side != 7 or stones != 1:
        raise ValueError(f"sokoban-1stone-7x7 has side 7 and one stone, not side {side} and {stones} stones")
    rng = random.Random(seed)
    cells = [(c, r) for c in range(1, side + 1) for r in range(1, side + 1)]  # the public order
    interior = [(c, r) for c, r in cells if 1 < c < side and 1 < r < side]
    while True:
        stone, player, goal = rng.sample(interior, 3)
        if _solvable(set(interior), stone, player, goal):
            break

    def p(cell: Cell) -> str:
        return f"pos-{cell[0]}-{cell[1]}"

    def mark(cell: Cell) -> str:
        if cell not in interior:
            return "#"
        return {stone: "$", player: "@", goal: "."}.get(cell, " ")

    board = [";; " + "".join(mark((c, r)) for c in range(1, side + 1)) for r in range(1, side + 1)]
    init = [f"({'is-goal' if cell == goal else 'is-nongoal'} {p(cell)})" for cell in cells]
    for c, r in cells:
        if c < side:
            init.append(f"(adj-right {p((c, r))} {p((c + 1, r))})")
        if r < side:
            init.append(f"(adj-down {p((c, r))} {p((c, r + 1))})")
    init += [f"(player {p(player)})", f"(at stone-01 {p(stone)})"]
    init += [f"(clear {p(cell)})" for cell in interior if cell not in (stone, player)]
    nl = "\n    "
    return f""";; side={side}, stones={stones}, seed={seed}
{chr(10).join(board)}
(define (problem sokoban-1stone-{side}x{side}-{seed})
  (:domain sokoban-sequential)
  (:objects
    {" ".join(p(cell) for cell in cells)} - location
    stone-01 - stone)
  (:init
    {nl.join(init)})
  (:goal (at-goal stone-01)))
"""


BENCHMARKS = ("gp2024/sokoban-1stone-7x7",)
