"""Floortile instances as the IPC 2023 learning-track generator makes them.

`floortile.py -r R -c C -p P --seed S`: tiles tile_<r>_<c> for rows 0..R and columns 1..C (row 0
is never painted), robots robot1..robotP, colours white and black. Each robot stands in its own
column (a random permutation of the columns), in a random row 0..R, holding a random colour; every
other tile is clear. up/down/left/right link 4-neighbours. The goal is a checkerboard over rows
1..R: tile_<r>_<c> painted white if r + c is even, black otherwise.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, SizeModel

rows = Argument("rows", low=2)
columns = Argument("columns", low=2)
robots = Argument("robots", low=1)
SIZE_MODEL = SizeModel(
    [rows, columns, robots],
    objects=(rows + 1) * columns + robots + 2,  # tiles of rows 0..R, robots, white and black
    constraints=[robots <= columns],  # one robot per column at most
)


def _tile(r: int, c: int) -> str:
    return f"tile_{r}_{c}"


def generate(rows: int, columns: int, robots: int, seed: int = 42) -> str:
    """PDDL text of a random floortile instance (see the module docstring)."""
    if rows < 2 or columns < 2 or not 1 <= robots <= columns:
        raise ValueError(f"floortile needs rows >= 2, columns >= 2 and 1 <= robots <= columns, "
                         f"not {rows}, {columns}, {robots}")
    rng = random.Random(seed)
    robot_columns = list(range(1, columns + 1))
    rng.shuffle(robot_columns)
    init, occupied = [], set()
    for i in range(robots):
        row = rng.randint(0, rows)
        occupied.add((row, robot_columns[i]))
        init.append(f"(robot-at robot{i + 1} {_tile(row, robot_columns[i])})")
        init.append(f"(robot-has robot{i + 1} {rng.choice(['white', 'black'])})")
    init += ["(available-color white)", "(available-color black)"]
    init += [f"(clear {_tile(r, c)})" for r in range(rows + 1) for c in range(1, columns + 1) if (r, c) not in occupied]
    init += [f"(up {_tile(r + 1, c)} {_tile(r, c)})" for r in range(rows) for c in range(1, columns + 1)]
    init += [f"(down {_tile(r - 1, c)} {_tile(r, c)})" for r in range(1, rows + 1) for c in range(1, columns + 1)]
    init += [f"(left {_tile(r, c - 1)} {_tile(r, c)})" for r in range(rows + 1) for c in range(2, columns + 1)]
    init += [f"(right {_tile(r, c + 1)} {_tile(r, c)})" for r in range(rows + 1) for c in range(1, columns)]
    colours = ("white", "black")
    goal = [f"(painted {_tile(r, c)} {colours[(r + c) % 2]})" for r in range(1, rows + 1) for c in range(1, columns + 1)]
    tiles = " ".join(_tile(r, c) for r in range(rows + 1) for c in range(1, columns + 1))
    nl = "\n    "
    return f""";; rows={rows}, columns={columns}, robots={robots}, seed={seed}
(define (problem floortile-{rows}-{columns}-{robots}-{seed})
  (:domain floortile)
  (:objects
    {tiles} - tile
    {" ".join(f"robot{i}" for i in range(1, robots + 1))} - robot
    white black - color)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("ipc2023/floortile",)


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; rows=..., columns=..., robots=...` header."""
    names = ("rows", "columns", "robots")
    return {k: int(header[k]) for k in names} if all(k in header for k in names) else None
