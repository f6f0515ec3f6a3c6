"""Size models: the number of objects of a generated instance as a function of its arguments.

A domain's generator.py declares one `SizeModel`: its sized arguments (integers), the object
count as a polynomial in them (linear terms, a constant, products such as rows * columns where a
domain needs them), the generator's implicit constraints, and the free arguments that do not
change the size. Expressions are written with ordinary operators:

    rows, columns, packages = Argument("rows", 1), Argument("columns", 1), Argument("packages", 1)
    SIZE = SizeModel([rows, columns, packages], objects=rows * columns + packages + 1,
                     constraints=[packages + 2 <= rows * columns])
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

Monomial = tuple[str, ...]  # sorted argument names; () is the constant term


class Expr:
    """A polynomial with integer coefficients over argument names."""

    __slots__ = ("terms",)

    def __init__(self, terms: Mapping[Monomial, int]) -> None:
        self.terms = {m: c for m, c in terms.items() if c != 0}

    @staticmethod
    def of(value: Expr | int) -> Expr:
        if isinstance(value, Expr):
            return value
        if isinstance(value, int):
            return Expr({(): value})
        raise TypeError(f"size expressions take integers, not {value!r}")

    def __add__(self, other: Expr | int) -> Expr:
        terms = dict(self.terms)
        for monomial, coefficient in Expr.of(other).terms.items():
            terms[monomial] = terms.get(monomial, 0) + coefficient
        return Expr(terms)

    __radd__ = __add__

    def __neg__(self) -> Expr:
        return Expr({m: -c for m, c in self.terms.items()})

    def __sub__(self, other: Expr | int) -> Expr:
        return self + -Expr.of(other)

    def __rsub__(self, other: Expr | int) -> Expr:
        return Expr.of(other) - self

    def __mul__(self, other: Expr | int) -> Expr:
        terms: dict[Monomial, int] = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in Expr.of(other).terms.items():
                monomial = tuple(sorted(m1 + m2))
                terms[monomial] = terms.get(monomial, 0) + c1 * c2
        return Expr(terms)

    __rmul__ = __mul__

    def __le__(self, other: Expr | int) -> Constraint:
        return Constraint(self - other, "<=", f"{self} <= {Expr.of(other)}")

    def __ge__(self, other: Expr | int) -> Constraint:
        return Constraint(Expr.of(other) - self, "<=", f"{self} >= {Expr.of(other)}")

    def __lt__(self, other: Expr | int) -> Constraint:
        return Constraint(self - other + 1, "<=", f"{self} < {Expr.of(other)}")

    def __gt__(self, other: Expr | int) -> Constraint:
        return Constraint(Expr.of(other) - self + 1, "<=", f"{self} > {Expr.of(other)}")

    def equals(self, other: Expr | int) -> Constraint:
        """The constraint self == other (== itself keeps its usual meaning)."""
        return Constraint(self - other, "==", f"{self} = {Expr.of(other)}")

    def evaluate(self, values: Mapping[str, int]) -> int:
        total = 0
        for monomial, coefficient in self.terms.items():
            product = coefficient
            for name in monomial:
                product *= values[name]
            total += product
        return total

    def names(self) -> set[str]:
        return {name for monomial in self.terms for name in monomial}

    def __str__(self) -> str:
        parts = []
        for monomial, coefficient in sorted(self.terms.items(), key=lambda t: (len(t[0]) == 0, t[0])):
            factor = " * ".join(monomial)
            if not monomial:
                text = str(abs(coefficient))
            elif abs(coefficient) == 1:
                text = factor
            else:
                text = f"{abs(coefficient)} * {factor}"
            parts.append(("- " if coefficient < 0 else "+ ") + text)
        text = " ".join(parts) or "+ 0"
        return text[2:] if text.startswith("+ ") else "-" + text[2:]

    __hash__ = object.__hash__


class Argument(Expr):
    """A sized generator argument: an integer in [low, high].

    high None means "at most the size n", right for every argument that counts objects; an
    argument that counts no objects (a capacity, say) needs an explicit high.
    """

    __slots__ = ("name", "low", "high")

    def __init__(self, name: str, low: int = 0, high: int | None = None) -> None:
        super().__init__({(name,): 1})
        self.name, self.low, self.high = name, low, high

    def __repr__(self) -> str:
        return f"Argument({self.name!r}, {self.low}, {self.high})"


@dataclass(frozen=True, eq=False)
class Constraint:
    """expr <= 0 or expr == 0, shown as the user wrote it."""

    expr: Expr
    relation: str
    text: str

    def holds(self, values: Mapping[str, int]) -> bool:
        value = self.expr.evaluate(values)
        return value <= 0 if self.relation == "<=" else value == 0

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Free:
    """An argument that does not change the size, drawn uniformly after the sized ones.

    Either integers in [low, high] (bounds may be expressions over sized arguments, e.g. the
    allergic children 0..children of Childsnack), floats in [low, high] with `real=True`, or one
    of `choices`.
    """

    name: str
    low: Expr | int | float = 0
    high: Expr | int | float = 0
    real: bool = False
    choices: tuple = ()

    def draw(self, sized: Mapping[str, int], rng: random.Random) -> object:
        if self.choices:
            return rng.choice(self.choices)
        if self.real:
            return rng.uniform(float(self.low), float(self.high))
        low, high = (v.evaluate(sized) if isinstance(v, Expr) else int(v) for v in (self.low, self.high))
        if low > high:
            raise ValueError(f"free argument {self.name} has the empty range [{low}, {high}] for {dict(sized)}")
        return rng.randint(low, high)


@dataclass(eq=False)
class SizeModel:
    """Objects as a function of the sized arguments, the generator's constraints, free arguments."""

    arguments: Sequence[Argument]
    objects: Expr
    constraints: Sequence[Constraint] = ()
    free: Sequence[Free] = ()
    _solutions: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        known = {a.name for a in self.arguments}
        used = self.objects.names().union(*(c.expr.names() for c in self.constraints))
        if used - known:
            raise ValueError(f"size model uses undeclared arguments {sorted(used - known)}")

    def size(self, values: Mapping[str, int]) -> int:
        return self.objects.evaluate(values)

    def admits(self, values: Mapping[str, int]) -> bool:
        """Whether sized argument values lie in their ranges and satisfy the constraints."""
        in_range = all(a.low <= values[a.name] and (a.high is None or values[a.name] <= a.high) for a in self.arguments)
        return in_range and all(c.holds(values) for c in self.constraints)

    def formula(self) -> str:
        text = f"n = {self.objects}"
        if self.constraints:
            text += "; " + ", ".join(str(c) for c in self.constraints)
        return text
