"""The exact counterpart of GENEX: a minimum-cost hitting set under the same stratification
constraints, as a MILP solved by HiGHS (scipy). For small problems, and to measure how far the
greedy choice is from optimal.

Variables: x_f (feature chosen), y_gf (f is made monotone by chosen g, only for pairs where f is
monotone given g on X+), r_f (rank). A chosen feature that is not monotone needs some y_gf; a
link needs g chosen and r_f >= r_g + 1, so the links form no cycle.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import lil_matrix

from stratpol.learning.chains import monotone, monotone_given
from stratpol.learning.genex import GenexFailure, GenexResult
from stratpol.learning.hitting_set import HittingSetProblem, LearningExamples


def exact_hitting_set(examples: LearningExamples, problem: HittingSetProblem,
                      time_limit: float = 60.0) -> GenexResult | GenexFailure | None:
    """The optimum (a GenexResult), a GenexFailure when no solution exists, None on timeout."""
    changes = examples.table.changes(examples.good)
    valuations = examples.table.valuations[examples.good[:, 0]]
    is_monotone = monotone(changes)
    given = monotone_given(changes, valuations)
    hits = problem.dense()
    n = hits.shape[1]
    pairs = [tuple(p) for p in given.pairs().tolist()]  # (g, f)
    x, y, r = 0, n, n + len(pairs)
    size = n + len(pairs) + n
    big = n + 1
    lower, upper = [], []
    matrix = lil_matrix((problem.size + 2 * n + 2 * len(pairs), size))
    row = 0
    for requirement in range(problem.size):  # every requirement hit
        for f in np.flatnonzero(hits[requirement]):
            matrix[row, x + f] = 1
        lower.append(1), upper.append(np.inf)
        row += 1
    incoming: dict[int, list[int]] = {}
    for index, (g, f) in enumerate(pairs):
        incoming.setdefault(f, []).append(index)
        matrix[row, y + index], matrix[row, x + g] = 1, -1  # a link needs g chosen
        lower.append(-np.inf), upper.append(0)
        row += 1
        matrix[row, r + f], matrix[row, r + g], matrix[row, y + index] = 1, -1, -big  # r_f >= r_g + 1
        lower.append(1 - big), upper.append(np.inf)
        row += 1
    for f in range(n):
        if is_monotone[f]:
            continue
        matrix[row, x + f] = 1  # a chosen non-monotone feature needs a link
        for index in incoming.get(f, []):
            matrix[row, y + index] = -1
        lower.append(-np.inf), upper.append(0)
        row += 1
    matrix = matrix[:row].tocsr()
    costs = np.concatenate([problem.costs.astype(float), np.zeros(len(pairs)), np.zeros(n)])
    integrality = np.concatenate([np.ones(n + len(pairs)), np.zeros(n)])
    bounds = Bounds(np.zeros(size), np.concatenate([np.ones(n + len(pairs)), np.full(n, float(n))]))
    solution = milp(costs, constraints=LinearConstraint(matrix, lower, upper), integrality=integrality,
                    bounds=bounds, options={"time_limit": time_limit})
    if solution.status == 2:  # infeasible
        return GenexFailure(tuple((problem.kinds[q], problem.sources[q]) for q in problem.unhittable()) or
                            ((problem.kinds[0], problem.sources[0]),))
    if solution.x is None:
        return None
    chosen = np.flatnonzero(solution.x[x:x + n] > 0.5)
    links = [(int(g), int(f)) for (g, f), value in zip(pairs, solution.x[y:y + len(pairs)]) if value > 0.5
             and f in chosen and g in chosen]
    ranks = {int(f): 0 for f in chosen}
    for _ in range(len(chosen)):  # longest path over the acyclic links
        for g, f in links:
            ranks[f] = max(ranks[f], ranks[g] + 1)
    return GenexResult(tuple(int(f) for f in chosen), tuple(sorted(links)), ranks,
                       int(problem.costs[chosen].sum()))
