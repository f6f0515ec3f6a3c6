"""Grid cells and their 4-neighbourhood, shared by the grid-based generators."""

from __future__ import annotations


def grid_facts(rows: int, columns: int, predicate: str = "adjacent") -> tuple[list[str], list[str]]:
    """The cell names `c_<row>_<column>` of a rows x columns grid and its adjacency facts."""
    cells = [f"c_{r}_{c}" for r in range(rows) for c in range(columns)]
    adjacent = []
    for r in range(rows):
        for c in range(columns):
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                if 0 <= r + dr < rows and 0 <= c + dc < columns:
                    adjacent.append(f"({predicate} c_{r}_{c} c_{r + dr}_{c + dc})")
    return cells, adjacent
