"""The sequential Student-t interval (Chow and Robbins) that decides how many runs a size needs.

After each run: stop once t_{n-1, 1-kappa/2} * S_n / sqrt(n) <= epsilon. With 0/1 outcomes,
all-equal runs give S_n = 0 and would stop at once, so the variance estimate is S_n^2 + 1/n
(the Chow-Robbins modification) and at least `minimum_runs` runs are made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from scipy.stats import t as student_t


@dataclass
class SequentialInterval:
    epsilon: float = 0.05
    kappa: float = 0.1
    minimum_runs: int = 10
    maximum_runs: int | None = None
    outcomes: list[float] = field(default_factory=list)

    def add(self, outcome: float) -> None:
        self.outcomes.append(float(outcome))

    @property
    def runs(self) -> int:
        return len(self.outcomes)

    @property
    def mean(self) -> float:
        return sum(self.outcomes) / self.runs if self.outcomes else math.nan

    @property
    def half_width(self) -> float:
        n = self.runs
        if n < 2:
            return math.inf
        mean = self.mean
        variance = sum((x - mean) ** 2 for x in self.outcomes) / (n - 1) + 1 / n
        return student_t.ppf(1 - self.kappa / 2, n - 1) * math.sqrt(variance / n)

    def done(self) -> bool:
        if self.maximum_runs is not None and self.runs >= self.maximum_runs:
            return True
        return self.runs >= self.minimum_runs and self.half_width <= self.epsilon
