"""The claims a grid tests, checked on its summaries: the rule policy at or above the best neural
method, regularised Q above V and above vanilla Q (the Q-value paper), dynamic validation above
fixed-set validation (the scaling paper).

Each claim compares two methods' SumCov on one domain. A difference counts only where it passes two
standard errors of the difference: the error of one cell's SumCov adds up the binomial variance of
each size's coverage (about 95% then), that of several seeds' mean is the spread of the seeds (a
rougher margin with as few seeds as the grids have). Where the margin covers the difference, the
two are level.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import stdev
from typing import TYPE_CHECKING, NamedTuple

from stratpol.evaluation.scaling import SizeResult, read_result
from stratpol.experiment.cells import CellRow
from stratpol.experiment.published import published
from stratpol.methods import MethodKind, method

if TYPE_CHECKING:
    from stratpol.experiment.tables import Summary

REGULARISED_Q = ("gnn-q-exp", "gnn-q-heu")


@dataclass(frozen=True)
class Claim:
    """`methods` above `against` on each domain (the best of `methods` where there are several)."""

    title: str
    methods: tuple[str, ...]  # the best of these
    against: Callable[[Sequence[Summary]], Summary | None]  # what they are held against, among a domain's rows
    paper: str | None = None  # the seed whose table makes the same comparison
    at_or_above: bool = False  # the claim asks no more than level


def _named(name: str) -> Callable[[Sequence[Summary]], Summary | None]:
    return lambda rows: next((s for s in rows if s.method == name), None)


def _best_neural(rows: Sequence[Summary]) -> Summary | None:
    neural = [s for s in rows if method(s.method).kind in (MethodKind.GNN, MethodKind.WL)]
    return max(neural, key=lambda s: s.sum_coverage, default=None)


CLAIMS = (
    Claim("The rule policy against the best neural method", ("rules",), _best_neural, at_or_above=True),
    Claim("Regularised Q against V", REGULARISED_Q, _named("gnn-v"), "Q-value paper"),
    Claim("Regularised Q against vanilla Q", REGULARISED_Q, _named("gnn-q"), "Q-value paper"),
    Claim("Dynamic validation against fixed-set loss", ("gnn-v",), _named("gnn-v@fixed-loss"), "scaling paper"),
    Claim("Dynamic validation against fixed-set coverage", ("gnn-v",), _named("gnn-v@fixed-coverage"),
          "scaling paper"),
)


class PaperScores(NamedTuple):
    """The paper's SumCov of the best of a claim's methods and of what it is held against."""

    method: str
    sum_coverage: float
    against: str
    against_sum_coverage: float

    def describe(self) -> str:
        return f"{self.method} {self.sum_coverage:g} against {self.against_sum_coverage:g}"


@dataclass
class Comparison:
    """One claim on one domain: ours, with the margin sampling allows, and the paper's where it has one."""

    claim: str
    domain: str
    method: str
    sum_coverage: float
    against: str
    against_sum_coverage: float
    margin: float | None  # two standard errors of the difference (None: a cell's runs are not here)
    verdict: str  # "above", "level" or "below"
    paper: PaperScores | None = None  # where the claim's paper reports both

    @property
    def difference(self) -> float:
        return self.sum_coverage - self.against_sum_coverage

    @property
    def paper_verdict(self) -> str | None:
        if self.paper is None:
            return None
        return _verdict(self.paper.sum_coverage - self.paper.against_sum_coverage, 0.0)


def _verdict(difference: float, margin: float) -> str:
    return "above" if difference > margin else "below" if difference < -margin else "level"


def sum_coverage_error(sizes: Sequence[SizeResult], scale: int) -> float:
    """The standard error of SumCov: each size's coverage up to `scale` is a binomial proportion over
    its runs, its variance taken at the Agresti-Coull estimate, so that a size all solved (or none)
    still counts its few runs' uncertainty."""
    variance = 0.0
    for measured in sizes:
        if measured.size > scale or measured.runs == 0:
            continue
        runs = measured.runs + 4
        p = (round(measured.coverage * measured.runs) + 2) / runs
        variance += p * (1 - p) / runs
    return math.sqrt(variance)


def sum_coverage_errors(rows: Sequence[CellRow], out: Path) -> dict[tuple[str, str], float]:
    """The standard error of each (domain, method)'s SumCov in the tables: over several seeds their
    spread over the root of their number, for one seed its evaluation's (where scaling.json is here)."""
    groups: dict[tuple[str, str], list[CellRow]] = {}
    for row in rows:
        groups.setdefault((row.domain, row.method), []).append(row)
    errors = {}
    for key, group in groups.items():
        if len(group) > 1:
            errors[key] = stdev(r.sum_coverage for r in group) / math.sqrt(len(group))
        elif group[0].evaluation is not None and (out / group[0].evaluation / "scaling.json").is_file():
            result = read_result(out / group[0].evaluation)
            errors[key] = sum_coverage_error(result.sizes, result.scale)
        elif group[0].status != "ok":
            errors[key] = 0.0  # no policy: SumCov 0 for certain
    return errors


def compare(summaries: Sequence[Summary], errors: dict[tuple[str, str], float]) -> list[Comparison]:
    """Every claim on every domain of `summaries` that has the methods it compares, claim by claim."""
    domains = list(dict.fromkeys(s.domain for s in summaries))
    comparisons = []
    for claim in CLAIMS:
        for domain in domains:
            rows = [s for s in summaries if s.domain == domain]
            ours = max((s for s in rows if s.method in claim.methods), key=lambda s: s.sum_coverage, default=None)
            other = claim.against(rows)
            if ours is None or other is None or other.method == ours.method:
                continue
            error = [errors.get((domain, s.method)) for s in (ours, other)]
            margin = None if None in error else 2 * math.hypot(*error)
            comparisons.append(Comparison(
                claim.title, domain, ours.method, ours.sum_coverage, other.method, other.sum_coverage, margin,
                _verdict(ours.sum_coverage - other.sum_coverage, margin or 0.0),
                _published(claim, domain, other.method)))
    return comparisons


def _published(claim: Claim, domain: str, against: str) -> PaperScores | None:
    """The paper's best of the claim's methods and its `against`, where the paper reports both."""
    if claim.paper is None:
        return None
    scores = {name: p.sum_coverage for name in (*claim.methods, against)
              for p in published(domain, name) if p.source == claim.paper}
    best = max((name for name in claim.methods if name in scores), key=scores.get, default=None)
    if best is None or against not in scores:
        return None
    return PaperScores(best, scores[best], against, scores[against])


def markdown_claims(comparisons: Sequence[Comparison]) -> str:
    """A table per claim (SumCov against SumCov, the difference with its margin), and a tally."""
    parts = []
    for claim in CLAIMS:
        found = [c for c in comparisons if c.claim == claim.title]
        if not found:
            continue
        papers = claim.paper is not None and any(c.paper for c in found)
        lines = [f"### {claim.title}", "",
                 "| domain | ours | against | difference | verdict |" + (f" {claim.paper} |" if papers else ""),
                 "|---|---|---|---:|---|" + ("---|" if papers else "")]
        for c in found:
            margin = "" if c.margin is None else f" ± {c.margin:.2f}"
            line = (f"| {c.domain} | {c.method} {c.sum_coverage:.2f} | {c.against} {c.against_sum_coverage:.2f} | "
                    f"{c.difference:+.2f}{margin} | {c.verdict} |")
            if papers:
                line += " - |" if c.paper is None else f" {c.paper_verdict}: {c.paper.describe()} |"
            lines.append(line)
        held = sum(c.verdict == "above" or (claim.at_or_above and c.verdict == "level") for c in found)
        tally = f"{'At or above' if claim.at_or_above else 'Above'} on {held} of {len(found)} domains"
        if papers:
            reported = [c for c in found if c.paper]
            above = sum(c.paper_verdict == "above" for c in reported)
            tally += f" (the {claim.paper}: {above} above of the {len(reported)} it reports)"
        lines += ["", tally + "."]
        parts.append("\n".join(lines) + "\n")
    if not parts:
        return ""
    return ("## Claims\n\nSumCov against SumCov; a difference within ± two standard errors (the runs' "
            "binomial error per size, or the spread over seeds) is level.\n\n" + "\n".join(parts))
