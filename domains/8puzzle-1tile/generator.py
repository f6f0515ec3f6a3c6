"""n-puzzle instances whose goal is one tile's position (the gp2024 8puzzle-1tile variant).

As pddl-generators' `n-puzzle-generator -n N`: positions p_i_j and tiles t_1..t_{N*N-1}; the
initial board is a uniform random arrangement with the same inversion parity as the goal board
(counted along the boustrophedon order, in which sliding moves keep the parity), so it is
reachable from the goal. The full goal board is row-major with the blank last (t_k on position
k); the goal keeps only the fact of one tile, the free argument `tile`.
"""

from __future__ import annotations

import random

from stratpol.generation.size_model import Argument, Free, SizeModel

side = Argument("side", low=2)
SIZE_MODEL = SizeModel([side], objects=2 * side * side - 1,
                       free=[Free("tile", 1, side * side - 1)])


def _snake(side: int) -> list[tuple[int, int]]:
    """Cells (row, column) in boustrophedon order, 0-based."""
    return [(r, c if r % 2 == 0 else side - 1 - c) for r in range(side) for c in range(side)]


def _parity(board: dict[tuple[int, int], int], side: int) -> int:
    """Parity of the inversions of the tiles read in boustrophedon order (blank = 0 ignored)."""
    values = [board[cell] for cell in _snake(side) if board[cell]]
    return sum(a > b for i, a in enumerate(values) for b in values[i + 1:]) % 2


def generate(side: int, tile: int, seed: int = 0) -> str:
    """PDDL text of a side x side puzzle whose goal is tile `tile` on its goal position."""
    if side < 2:
        raise ValueError(f"n-puzzle needs a board side of at least 2, not {side}")
    if not 1 <= tile <= side * side - 1:
        raise ValueError(f"tile must be in 1..{side * side - 1}, not {tile}")
    rng = random.Random(seed)
    cells = [(r, c) for r in range(side) for c in range(side)]
    goal = {cell: (k + 1) % (side * side) for k, cell in enumerate(cells)}  # blank last
    values = [goal[cell] for cell in cells]
    while True:
        rng.shuffle(values)
        board = dict(zip(cells, values))
        if _parity(board, side) == _parity(goal, side):
            break

    def p(cell: tuple[int, int]) -> str:
        return f"p_{cell[0] + 1}_{cell[1] + 1}"

    init = [f"(at t_{board[cell]} {p(cell)})" if board[cell] else f"(empty {p(cell)})" for cell in cells]
    for r, c in cells:
        for other in ((r, c + 1), (r + 1, c)):
            if other in goal:
                init += [f"(neighbor {p((r, c))} {p(other)})", f"(neighbor {p(other)} {p((r, c))})"]
    target = cells[tile - 1]
    positions = " ".join(p(cell) for cell in cells)
    tiles = " ".join(f"t_{k}" for k in range(1, side * side))
    nl = "\n    "
    return f""";; side={side}, tile={tile}, seed={seed}
(define (problem n-puzzle-{side}-{tile}-{seed})
  (:domain n-puzzle-typed)
  (:objects {positions} - position {tiles} - tile)
  (:init
    {nl.join(init)})
  (:goal (and
    (at t_{tile} {p(target)}))))
"""


BENCHMARKS = ("gp2024/8puzzle-1tile",)
