"""Visitall: a robot on a grid with holes must visit a set of goal cells.

Semantics of pddl-generators' visitall `grid -x X -y Y -r RATIO -u HOLES -s SEED`: places
loc-x<i>-y<j> (i < x, j < y) of an x * y grid minus `holes` cells, `connected` facts in both
directions between 4-neighbours, the robot at a uniformly drawn place which is `visited`; the goal
lists `(visited p)` for the initial place and for every other place with probability `ratio`.

Deliberate differences:
* Holes never disconnect the grid (the public generator does not check, so its goals can be
  unreachable): they are removed one at a time, each uniformly among the places whose removal
  keeps the remaining places connected and leaves a place in every row and every column (so an
  x * y instance really is x by y wide). Such placements exist exactly when holes <= (x-1)*(y-1);
  every instance is solvable.
* At most half of the cells are holes (2 * holes <= x * y), so no argument exceeds the size.
* When the random draw puts no place but the initial one into the goal, one other place drawn
  uniformly is added, so the initial state is never a goal state (hence x * y - holes >= 2).
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, Free, SizeModel

x, y, holes = Argument("x", low=1), Argument("y", low=1), Argument("holes", low=0)
SIZE_MODEL = SizeModel(
    [x, y, holes],
    objects=x * y - holes,
    constraints=[
        x * y - holes >= 2,  # the initial place and one more goal place
        2 * holes <= x * y,  # at most half of the cells are holes
        holes <= (x - 1) * (y - 1),  # the rest can stay connected and meet every row and column
    ],
    free=[Free("ratio", 0.0, 1.0, real=True)],
)

RESTARTS = 20

Cell = tuple[int, int]


def _neighbours(cell: Cell, places: set[Cell]) -> list[Cell]:
    i, j = cell
    return [n for n in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)) if n in places]


def _cut_cells(places: set[Cell]) -> set[Cell]:
    """The articulation points of the grid graph on `places` (iterative Tarjan)."""
    start = min(places)
    depth, low, cut = {start: 0}, {start: 0}, set()
    stack = [(start, None, iter(_neighbours(start, places)))]
    root_children = 0
    while stack:
        node, parent, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            if parent is not None:
                low[parent] = min(low[parent], low[node])
                if parent != start and low[node] >= depth[parent]:
                    cut.add(parent)
        elif child not in depth:
            depth[child] = low[child] = depth[node] + 1
            if node == start:
                root_children += 1
            stack.append((child, node, iter(_neighbours(child, places))))
        elif child != parent:
            low[node] = min(low[node], depth[child])
    if root_children > 1:
        cut.add(start)
    return cut


def _remove_holes(x: int, y: int, holes: int, rng: random.Random) -> set[Cell] | None:
    places = {(i, j) for i in range(x) for j in range(y)}
    in_row, in_column = [y] * x, [x] * y
    for _ in range(holes):
        cut = _cut_cells(places)
        removable = [c for c in sorted(places) if c not in cut and in_row[c[0]] > 1 and in_column[c[1]] > 1]
        if not removable:
            return None
        i, j = rng.choice(removable)
        places.remove((i, j))
        in_row[i] -= 1
        in_column[j] -= 1
    return places


def _fallback(x: int, y: int, holes: int, rng: random.Random) -> set[Cell]:
    """A connected set meeting every row and column: a random cross grown at random."""
    r, c = rng.randrange(x), rng.randrange(y)
    places = {(i, c) for i in range(x)} | {(r, j) for j in range(y)}
    cells = [(i, j) for i in range(x) for j in range(y)]
    while len(places) < x * y - holes:
        frontier = [cell for cell in cells if cell not in places and _neighbours(cell, places)]
        places.add(rng.choice(frontier))
    return places


def generate(x: int, y: int, holes: int, ratio: float = 1.0, seed: int = 42) -> str:
    """PDDL text of a visitall instance on an x * y grid with `holes` holes."""
    if x < 1 or y < 1 or holes < 0 or x * y - holes < 2 or 2 * holes > x * y or holes > (x - 1) * (y - 1):
        raise ValueError(f"visitall needs x, y >= 1, 0 <= holes, x * y - holes >= 2, 2 * holes <= x * y and "
                         f"holes <= (x - 1) * (y - 1), not x={x}, y={y}, holes={holes}")
    if not 0.0 <= ratio <= 1.0:
        raise ValueError(f"visitall needs a ratio in [0, 1], not {ratio}")
    rng = random.Random(seed)
    for _ in range(RESTARTS):
        places = _remove_holes(x, y, holes, rng)
        if places is not None:
            break
    else:
        places = _fallback(x, y, holes, rng)
    ordered = sorted(places)
    start = rng.choice(ordered)
    goal = [p for p in ordered if p == start or rng.random() < ratio]
    if len(goal) == 1:
        goal = sorted([start, rng.choice([p for p in ordered if p != start])])
    name = "loc-x{}-y{}".format
    connected = [f"(connected {name(*p)} {name(*n)})" for p in ordered for n in _neighbours(p, places)]
    nl = "\n    "
    return f""";; x={x}, y={y}, holes={holes}, ratio={ratio}, seed={seed}
(define (problem grid-{x}x{y}-{holes}-{seed})
  (:domain grid-visit-all)
  (:objects
    {nl.join(name(*p) for p in ordered)} - place)
  (:init
    (at-robot {name(*start)})
    (visited {name(*start)})
    {nl.join(connected)})
  (:goal (and
    {nl.join(f"(visited {name(*p)})" for p in goal)})))
"""


BENCHMARKS = ("gp2024/visitall",)
