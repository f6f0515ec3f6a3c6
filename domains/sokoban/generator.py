"""Sokoban instances in the IPC 2023 learning-track encoding, solvable by construction.

The board is grid_size x grid_size cells loc_<row>_<col> (1-based), all of them objects, the
border always walls, as in the IPC 2023 `sokoban.py -g G -b B`; boxes box1..boxB; directions are
the domain constants down (row + 1), up (row - 1), right (col + 1), left (col - 1). `adjacent`
links every pair of neighbouring non-wall cells, `clear` holds for every non-wall cell without a
box (the robot's cell included).

Construction, backwards from the goal: the goal cells of the boxes and a final robot cell are drawn
at random among the inner cells. Then, box by box in random order, up to 4 straight segments of
reverse pushes (pulls) are made: the robot walks (shortest path) to the cell next to the box in a
random feasible direction, and pulls the box a random number of cells that way (never straight back
along its previous segment). Finally the robot walks to a random cell it can reach: its start.
Every cell the robot or a box passes is kept free; afterwards 30% to 80% of the other inner cells
(a uniform share) become walls. Replaying the walks and pulls backwards is a plan, so every
instance is solvable; plays whose boxes all end where they started are redrawn, so no instance is
trivial.
"""

from __future__ import annotations

import random
from collections import deque

from stratpol.generation.size_model import Argument, SizeModel

grid_size = Argument("grid_size", low=5)
boxes = Argument("boxes", low=1)
SIZE_MODEL = SizeModel(
    [grid_size, boxes],
    objects=grid_size * grid_size + boxes,  # every cell, walls included, and the boxes
    constraints=[4 * boxes <= (grid_size - 2) * (grid_size - 2)],  # boxes fill a quarter of the inside at most
)

Cell = tuple[int, int]
STEPS = {"down": (1, 0), "up": (-1, 0), "right": (0, 1), "left": (0, -1)}
ATTEMPTS = 1000


def _inside(cell: Cell, size: int) -> bool:
    return 0 < cell[0] < size - 1 and 0 < cell[1] < size - 1


def _path(start: Cell, goal: Cell, blocked: set[Cell], size: int) -> list[Cell] | None:
    """Cells of a shortest robot walk from start to goal (goal included, start not), or None."""
    previous = {start: start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            path = []
            while cell != start:
                path.append(cell)
                cell = previous[cell]
            return path[::-1]
        for dr, dc in STEPS.values():
            nxt = (cell[0] + dr, cell[1] + dc)
            if nxt not in previous and _inside(nxt, size) and nxt not in blocked:
                previous[nxt] = cell
                queue.append(nxt)
    return None


def _reverse_play(size: int, count: int, rng: random.Random) -> tuple[list[Cell], list[Cell], Cell, set[Cell]] | None:
    """(goal cells, start cells, robot start, cells used) of one backward play, or None if no box moved."""
    inner = [(r, c) for r in range(1, size - 1) for c in range(1, size - 1)]
    chosen = rng.sample(inner, count + 1)
    goals, robot = chosen[:count], chosen[count]
    where = list(goals)
    used = set(chosen)
    order = list(range(count))
    rng.shuffle(order)
    for b in order:
        last = None
        for _ in range(4):
            occupied = set(where)
            options = []
            for name, (dr, dc) in STEPS.items():
                if last is not None and STEPS[last] == (-dr, -dc):
                    continue
                stand = (where[b][0] + dr, where[b][1] + dc)
                if not _inside(stand, size) or stand in occupied:
                    continue
                walk = [] if stand == robot else _path(robot, stand, occupied, size)
                if walk is None:
                    continue
                free = 0  # free cells beyond `stand`: each allows one more pull
                cell = (stand[0] + dr, stand[1] + dc)
                while _inside(cell, size) and cell not in occupied:
                    free += 1
                    cell = (cell[0] + dr, cell[1] + dc)
                if free:
                    options.append((name, walk, free))
            if not options:
                break
            name, walk, free = rng.choice(options)
            dr, dc = STEPS[name]
            pulls = rng.randint(1, free)
            used.update(walk)
            box = where[b]
            used.update((box[0] + k * dr, box[1] + k * dc) for k in range(1, pulls + 2))
            where[b] = (box[0] + pulls * dr, box[1] + pulls * dc)
            robot = (box[0] + (pulls + 1) * dr, box[1] + (pulls + 1) * dc)
            last = name
    if where == goals:
        return None
    occupied = set(where)
    reachable = [cell for cell in inner if cell not in occupied and _path(robot, cell, occupied, size) is not None]
    target = rng.choice(reachable)  # the robot's start: a random cell it can reach (its own cell included)
    if target != robot:
        used.update(_path(robot, target, occupied, size))
    return goals, where, target, used


def _loc(cell: Cell) -> str:
    return f"loc_{cell[0] + 1}_{cell[1] + 1}"


def generate(grid_size: int, boxes: int, seed: int = 42) -> str:
    """PDDL text of a random solvable Sokoban instance (see the module docstring)."""
    if grid_size < 5 or boxes < 1 or 4 * boxes > (grid_size - 2) ** 2:
        raise ValueError(f"sokoban needs grid_size >= 5 and 1 <= boxes <= (grid_size - 2)^2 / 4, "
                         f"not {grid_size}, {boxes}")
    rng = random.Random(seed)
    for _ in range(ATTEMPTS):
        play = _reverse_play(grid_size, boxes, rng)
        if play is not None:
            break
    else:
        raise RuntimeError(f"sokoban: no box could be moved in {ATTEMPTS} attempts for {grid_size}, {boxes}")
    goals, starts, robot, used = play
    spare = [(r, c) for r in range(1, grid_size - 1) for c in range(1, grid_size - 1) if (r, c) not in used]
    rng.shuffle(spare)
    walls = set(spare[:rng.randint(int(0.3 * len(spare)), int(0.8 * len(spare)))])
    walls.update((r, c) for r in range(grid_size) for c in range(grid_size) if not _inside((r, c), grid_size))
    cells = [(r, c) for r in range(grid_size) for c in range(grid_size)]
    floor = [cell for cell in cells if cell not in walls]
    init = [f"(at-robot {_loc(robot)})"]
    init += [f"(at box{i} {_loc(cell)})" for i, cell in enumerate(starts, start=1)]
    init += [f"(clear {_loc(cell)})" for cell in floor if cell not in starts]
    for cell in floor:
        for name, (dr, dc) in STEPS.items():
            nxt = (cell[0] + dr, cell[1] + dc)
            if nxt not in walls:
                init.append(f"(adjacent {_loc(cell)} {_loc(nxt)} {name})")
    goal = [f"(at box{i} {_loc(cell)})" for i, cell in enumerate(goals, start=1)]
    drawing = []
    for r in range(grid_size):
        row = ""
        for c in range(grid_size):
            cell = (r, c)
            mark = "#" if cell in walls else "*" if cell in starts and cell in goals else \
                "$" if cell in starts else "." if cell in goals else " "
            row += "@" if cell == robot and mark == " " else "+" if cell == robot else mark
        drawing.append(";;   " + row)
    nl = "\n    "
    objects = nl.join(" ".join(_loc((r, c)) for c in range(grid_size)) for r in range(grid_size))
    return f""";; grid_size={grid_size}, boxes={boxes}, seed={seed}
;; # wall, $ box, . goal cell, * box on a goal cell, @ robot, + robot on a goal cell
{chr(10).join(drawing)}
(define (problem sokoban-{grid_size}-{boxes}-{seed})
  (:domain sokoban)
  (:objects
    {objects} - location
    {" ".join(f"box{i}" for i in range(1, boxes + 1))} - box)
  (:init
    {nl.join(init)})
  (:goal (and
    {nl.join(goal)})))
"""


BENCHMARKS = ("ipc2023/sokoban",)


def header_arguments(header: dict[str, str]) -> dict[str, int] | None:
    """Sized arguments of an IPC 2023 file from its `;; grid_size=..., boxes=...` header."""
    return {"grid_size": int(header["grid_size"]), "boxes": int(header["boxes"])} \
        if "grid_size" in header and "boxes" in header else None
