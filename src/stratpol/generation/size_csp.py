"""All generator inputs of an exact size, enumerated with ortools CP-SAT."""

from __future__ import annotations

from ortools.sat.python import cp_model

from stratpol.generation.size_model import Expr, SizeModel

Inputs = dict[str, int]


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, variables: dict[str, cp_model.IntVar], limit: int | None) -> None:
        super().__init__()
        self.variables, self.limit, self.solutions = variables, limit, []

    def on_solution_callback(self) -> None:
        self.solutions.append({name: self.value(var) for name, var in self.variables.items()})
        if self.limit is not None and len(self.solutions) >= self.limit:
            self.stop_search()


class _Encoder:
    """Turns size expressions into CP-SAT linear expressions; a product of arguments becomes a
    new variable tied by a multiplication constraint, shared by every expression using it."""

    def __init__(self, model: cp_model.CpModel, bounds: dict[str, tuple[int, int]]) -> None:
        self.model = model
        self.variables = {name: model.new_int_var(low, high, name) for name, (low, high) in bounds.items()}
        self._bounds = dict(bounds)
        self._products: dict[tuple[str, ...], cp_model.IntVar] = {}

    def linear(self, expr: Expr) -> cp_model.LinearExprT:
        total = 0
        for monomial, coefficient in expr.terms.items():
            total += coefficient * (self._term(monomial) if monomial else 1)
        return total

    def _term(self, monomial: tuple[str, ...]) -> cp_model.IntVar:
        if len(monomial) == 1:
            return self.variables[monomial[0]]
        if monomial not in self._products:
            left, right = self._term(monomial[:-1]), self.variables[monomial[-1]]
            (l1, h1), (l2, h2) = self._bound(monomial[:-1]), self._bounds[monomial[-1]]
            corners = [l1 * l2, l1 * h2, h1 * l2, h1 * h2]
            product = self.model.new_int_var(min(corners), max(corners), "*".join(monomial))
            self.model.add_multiplication_equality(product, [left, right])
            self._products[monomial] = product
            self._bounds["*".join(monomial)] = (min(corners), max(corners))
        return self._products[monomial]

    def _bound(self, monomial: tuple[str, ...]) -> tuple[int, int]:
        return self._bounds[monomial[0] if len(monomial) == 1 else "*".join(monomial)]


def inputs_of_size(size_model: SizeModel, n: int, limit: int | None = None) -> list[Inputs]:
    """The sized generator arguments that give exactly n objects, sorted; the first `limit` if set.

    Every sized argument counts objects, so none exceeds n; that bounds arguments declared
    without an upper bound. Results are cached on the size model.
    """
    key = (n, limit)
    if key in size_model._solutions:
        return size_model._solutions[key]
    if (n, None) in size_model._solutions:
        return size_model._solutions[(n, None)][:limit]
    model = cp_model.CpModel()
    encoder = _Encoder(model, {
        a.name: (a.low, n if a.high is None else min(a.high, max(n, a.low))) for a in size_model.arguments
    })
    model.add(encoder.linear(size_model.objects) == n)
    for constraint in size_model.constraints:
        expression = encoder.linear(constraint.expr)
        model.add(expression <= 0 if constraint.relation == "<=" else expression == 0)
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    # CP-SAT's own Ctrl-C handler, once installed, ends the whole process on a later Ctrl-C (exit code
    # 130, no KeyboardInterrupt): an evaluation could not stop its workers nor say it was interrupted
    solver.parameters.catch_sigint_signal = False
    collector = _Collector(encoder.variables, limit)
    solver.solve(model, collector)
    order = [a.name for a in size_model.arguments]
    solutions = sorted(collector.solutions, key=lambda s: [s[name] for name in order])
    size_model._solutions[key] = solutions
    return solutions


def size_exists(size_model: SizeModel, n: int) -> bool:
    """Whether some generator input gives exactly n objects."""
    return bool(inputs_of_size(size_model, n, limit=1))


def smallest_size(size_model: SizeModel, up_to: int = 1000) -> int | None:
    """The smallest n with an instance, searching n = 0..up_to."""
    return next((n for n in range(up_to + 1) if size_exists(size_model, n)), None)
