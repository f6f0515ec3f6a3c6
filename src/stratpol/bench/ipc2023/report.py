"""The coverage table of `stratpol bench ipc2023`, per domain and level, with what the field
reports beside ours; and its csv, json and figure."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from stratpol.atomic import atomic_path, write_csv_atomically, write_text_atomically
from stratpol.bench.ipc2023.anchors import (
    BEST_REPORTED,
    COMPETITION,
    LEVELS,
    Q_PAPER_LENGTH,
    Q_PAPER_METHODS,
    Q_PAPER_PERCENT,
    WL_GOOSE,
    best_competitor,
)
from stratpol.bench.ipc2023.runs import METHODS, Problem, ProblemRecord


@dataclass(frozen=True)
class Coverage:
    """One method on one domain: solved and run problems per level, mean plan length of the
    solved (over all levels and per level), the largest sketch width any run needed, and how many
    settings the runs had (more than one: the levels were run with different trained models)."""

    method: str
    domain: str
    solved: dict[str, int]
    run: dict[str, int]
    mean_plan_length: float | None
    max_width: int | None
    settings: int = 1
    level_plan_lengths: dict[str, float | None] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.solved.values())


def coverage(records: Sequence[ProblemRecord], method: str, domain: str) -> Coverage:
    mine = [r for r in records if r.method == method and r.domain == domain]
    solved = [r for r in mine if r.solved]
    widths = [r.max_width for r in mine if r.max_width is not None]
    return Coverage(method, domain, {level: sum(r.level == level for r in solved) for level in LEVELS},
                    {level: sum(r.level == level for r in mine) for level in LEVELS},
                    _mean_length(solved), max(widths) if widths else None, len({r.setting for r in mine}),
                    {level: _mean_length([r for r in solved if r.level == level]) for level in LEVELS})


def _mean_length(solved: Sequence[ProblemRecord]) -> float | None:
    return sum(r.plan_length for r in solved) / len(solved) if solved else None


def common_plan_lengths(records: Sequence[ProblemRecord], domain: str, ours: str,
                        theirs: str = "lama-first") -> tuple[float, float, int] | None:
    """Mean plan length of `ours` and of `theirs` over the problems both solve, and how many."""
    lengths = {}
    for r in records:
        if r.domain == domain and r.solved and r.method in (ours, theirs):
            lengths.setdefault((r.level, r.problem), {})[r.method] = r.plan_length
    both = [pair for pair in lengths.values() if len(pair) == 2]
    if not both:
        return None
    return sum(p[ours] for p in both) / len(both), sum(p[theirs] for p in both) / len(both), len(both)


def render_coverage(records: Sequence[ProblemRecord], problems: Sequence[Problem], methods: Sequence[str],
                    limits: str) -> str:
    """One row per domain: each method's solved problems easy/medium/hard and in all, the rule
    policy's mean plan length against LAMA-first's where both solve, and the field's numbers."""
    domains = list(dict.fromkeys(p.domain for p in problems))
    header = f"{'domain':<12}{'tests':>6}" + "".join(f"{m:>18}" for m in methods)
    header += f"{'plan length':>20}   {'best competitor':<22}{'WL-GOOSE':>9}{'R-GNN':>7}{'best':>6}"
    lines = [f"IPC 2023 learning track, test problems; limits per problem: {limits}", header]
    totals = dict.fromkeys(methods, 0)
    for domain in domains:
        tests = sum(p.domain == domain for p in problems)
        per_level = {level: sum(p.domain == domain and p.level == level for p in problems) for level in LEVELS}
        cells = []
        for method in methods:
            c = coverage(records, method, domain)
            totals[method] += c.total
            cells.append(_cell(c, per_level))
        lines.append(f"{domain:<12}{tests:>6}" + "".join(f" {cell:>17}" for cell in cells)
                     + f"{_lengths(records, domain, methods):>20}   {_anchors(domain)}")
    lines.append(f"{'all':<12}{len(problems):>6}" + "".join(f"{totals[m]:>18}" for m in methods))
    lines.append("cells: solved easy/medium/hard = all (-: not run; *: some of the level's problems not run; "
                 "n models: the levels ran different trainings of a neural method); "
                 "plan length: the rule policy's mean "
                 "against LAMA-first's on the problems both solve; R-GNN: the Q-value paper's Omega_heu, "
                 "percent; best: the best coverage anyone reports")
    return "\n".join(lines)


def render_q_paper(records: Sequence[ProblemRecord], problems: Sequence[Problem], methods: Sequence[str]) -> str:
    """Ours beside the Q-value paper's Table 4 (R-GNN V, Omega_exp, Omega_heu and LAMA-first, coverage
    in percent of 90 and mean plan length), for its domains and the methods both ran; empty if none."""
    shared = [m for m in Q_PAPER_METHODS if m in methods]
    domains = [d for d in dict.fromkeys(p.domain for p in problems) if d in Q_PAPER_PERCENT]
    if not shared or not domains or not any(m.startswith("gnn-") for m in shared):
        return ""
    lines = [("Beside the Q-value paper's Table 4 (its R-GNNs: 30 layers, 3 seeds; ours as run here): "
              "ours solved/run (mean plan length) | paper percent (mean plan length)"),
             f"{'domain':<12}" + "".join(f"{m:>34}" for m in shared)]
    for domain in domains:
        cells = []
        for method in shared:
            c = coverage(records, method, domain)
            column = Q_PAPER_METHODS.index(method)
            length = Q_PAPER_LENGTH[domain][column]
            ours = "-" if not sum(c.run.values()) else \
                f"{c.total}/{sum(c.run.values())}{_models(c)} " \
                f"({'-' if c.mean_plan_length is None else f'{c.mean_plan_length:.0f}'})"
            cells.append(f"{ours} | {Q_PAPER_PERCENT[domain][column]:.1f}% ({'-' if length is None else f'{length:.0f}'})")
        lines.append(f"{domain:<12}" + "".join(f"{cell:>34}" for cell in cells))
    return "\n".join(lines)


@dataclass(frozen=True)
class Unsolved:
    """How one method's unsolved runs on a domain ended: per outcome, the runs, and of those with
    their progress recorded how many stalled (GoalProgress.stalled) and their mean steps."""

    method: str
    domain: str
    runs: dict[str, int]
    recorded: dict[str, int]
    stalled: dict[str, int]
    mean_steps: dict[str, float]


def unsolved(records: Sequence[ProblemRecord], method: str, domain: str) -> Unsolved:
    """The unsolved runs of `method` on `domain`, by outcome, the most frequent first."""
    mine = [r for r in records if r.method == method and r.domain == domain and not r.solved]
    outcomes = sorted({r.outcome for r in mine}, key=lambda o: (-sum(r.outcome == o for r in mine), o))
    runs, recorded, stalled, mean_steps = {}, {}, {}, {}
    for outcome in outcomes:
        ended = [r for r in mine if r.outcome == outcome]
        progress = [r.progress for r in ended if r.progress is not None]
        runs[outcome], recorded[outcome] = len(ended), len(progress)
        if progress:
            stalled[outcome] = sum(p.stalled for p in progress)
            mean_steps[outcome] = sum(p.steps for p in progress) / len(progress)
    return Unsolved(method, domain, runs, recorded, stalled, mean_steps)


def render_unsolved(records: Sequence[ProblemRecord], problems: Sequence[Problem], methods: Sequence[str]) -> str:
    """One line per domain and method with unsolved runs: how they ended, and where the runs
    recorded their progress, how many stalled (a limit stopped a policy that had stopped gaining
    goal literals, not a slow one); empty if every run was solved."""
    lines = []
    for domain in dict.fromkeys(p.domain for p in problems):
        for method in methods:
            u = unsolved(records, method, domain)
            if u.runs:
                lines.append(f"{domain:<12}{method:<14}{sum(u.runs.values()):>9}  "
                             + ", ".join(_ended(u, outcome) for outcome in u.runs))
    if not lines:
        return ""
    header = ("How the unsolved runs ended (stalled: the most goal literals a run met were first met in "
              "its first half; steps: the mean of the runs recorded)")
    return "\n".join([header, f"{'domain':<12}{'method':<14}{'unsolved':>9}  ended", *lines])


def _ended(u: Unsolved, outcome: str) -> str:
    if not u.recorded[outcome]:
        return f"{outcome} {u.runs[outcome]}"
    of = "" if u.recorded[outcome] == u.runs[outcome] else f" of {u.recorded[outcome]}"
    return (f"{outcome} {u.runs[outcome]} ({u.stalled[outcome]}{of} stalled, "
            f"{u.mean_steps[outcome]:,.0f} steps)")


def level_cells(c: Coverage, tests: dict[str, int]) -> list[str]:
    """Solved per level: `-` where the level was not run, `*` where some of its `tests` were not."""
    return [("-" if not c.run[level] else f"{c.solved[level]}" + ("*" if c.run[level] < tests[level] else ""))
            for level in LEVELS]


def _cell(c: Coverage, tests: dict[str, int]) -> str:
    if not sum(c.run.values()):
        return "-"
    width = f" w{c.max_width}" if c.max_width else ""
    return "/".join(level_cells(c, tests)) + f" = {c.total}{width}{_models(c)}"


def _models(c: Coverage) -> str:
    """" (n models)" for a trained method whose levels ran different models; else nothing."""
    return f" ({c.settings} models)" if c.settings > 1 and c.method not in METHODS else ""


def _lengths(records: Sequence[ProblemRecord], domain: str, methods: Sequence[str]) -> str:
    ours = next((m for m in ("rules", "sketch") if m in methods), None)
    pair = None if ours is None or "lama-first" not in methods else common_plan_lengths(records, domain, ours)
    return "-" if pair is None else f"{pair[0]:.0f} / {pair[1]:.0f} ({pair[2]})"


def _anchors(domain: str) -> str:
    if domain not in COMPETITION:
        return ""
    best = best_competitor(domain)
    levels = "" if best.levels is None else " (" + "/".join(map(str, best.levels)) + ")"
    rgnn = Q_PAPER_PERCENT.get(domain)
    return (f"{best.method + ' ' + str(best.solved) + levels:<22}{WL_GOOSE[domain]:>9}"
            f"{'-' if rgnn is None else f'{rgnn[2]:.0f}%':>7}{BEST_REPORTED[domain]:>6}")


def write_coverage(records: Sequence[ProblemRecord], problems: Sequence[Problem], methods: Sequence[str],
                   limits: str, out: Path, stem: str = "coverage") -> None:
    """out/coverage.csv (one line per domain, method and level, with the level's mean plan
    length), out/coverage.json (the same, how the unsolved runs ended, and the field's numbers) and
    out/coverage.png (ours against the best competitor, per domain); another `stem` names the files
    of another table of the same folder."""
    domains = list(dict.fromkeys(p.domain for p in problems))
    table = [coverage(records, method, domain) for domain in domains for method in methods]
    tests = {(p.domain, p.level): 0 for p in problems}
    for p in problems:
        tests[p.domain, p.level] += 1
    rows = [["domain", "method", "level", "solved", "run", "tests", "mean_plan_length"]]
    for c in table:
        for level in LEVELS:
            if (c.domain, level) in tests:
                length = c.level_plan_lengths.get(level)
                rows.append([c.domain, c.method, level, c.solved[level], c.run[level], tests[c.domain, level],
                             "" if length is None else f"{length:.1f}"])
    write_csv_atomically(Path(out) / f"{stem}.csv", rows)
    document = {
        "limits": limits,
        "coverage": [{"domain": c.domain, "method": c.method, "solved": c.solved, "run": c.run,
                      "mean_plan_length": c.mean_plan_length, "level_plan_lengths": c.level_plan_lengths,
                      "max_width": c.max_width, "settings": c.settings}
                     for c in table],
        "unsolved": [{"domain": u.domain, "method": u.method, "runs": u.runs, "recorded": u.recorded,
                      "stalled": u.stalled, "mean_steps": u.mean_steps}
                     for u in (unsolved(records, m, d) for d in domains for m in methods) if u.runs],
        "anchors": {d: {"competition": {a.method: a.solved for a in COMPETITION[d]}, "wl_goose": WL_GOOSE[d],
                        "best_reported": BEST_REPORTED[d], "q_paper_percent": Q_PAPER_PERCENT.get(d)}
                    for d in domains if d in COMPETITION},
    }
    write_text_atomically(Path(out) / f"{stem}.json", json.dumps(document, indent=1) + "\n")
    _figure(table, domains, methods, limits, Path(out) / f"{stem}.png")


def _figure(table: Sequence[Coverage], domains: Sequence[str], methods: Sequence[str], limits: str,
            path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    known = [d for d in domains if d in COMPETITION]
    series = [(m, [next(c.total for c in table if c.domain == d and c.method == m) for d in known]) for m in methods]
    series.append(("best competitor (IPC 2023)", [best_competitor(d).solved for d in known]))
    series.append(("best reported", [BEST_REPORTED[d] for d in known]))
    figure, axes = plt.subplots(figsize=(max(6.0, 1.1 * len(known) + 2), 4.0))
    bar = 0.8 / len(series)
    for number, (name, values) in enumerate(series):
        axes.bar([i + number * bar for i in range(len(known))], values, bar, label=name)
    axes.set_xticks([i + 0.4 - bar / 2 for i in range(len(known))], known, rotation=30, ha="right")
    axes.set_ylabel("problems solved (of 90)")
    axes.set_title(f"IPC 2023 learning track ({limits} per problem)", fontsize=10)
    axes.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=3)
    figure.tight_layout()
    with atomic_path(path) as temporary:
        figure.savefig(temporary, format="png", dpi=120)
    plt.close(figure)
