"""The IPC 2023 table of the policies learned end to end: per domain, whether `stratpol learn` made
a policy from the domain file and its whole training set, with what settings, on which files,
how large and how fast (the learning record `D.learned.json` beside `D.policy`), its coverage
easy / medium / hard, and beside it the hand-assisted policy's coverage and the best reported."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from stratpol.bench.ipc2023.anchors import BEST_REPORTED, LEVELS
from stratpol.bench.ipc2023.report import Coverage, coverage, level_cells
from stratpol.bench.ipc2023.runs import Problem, ProblemRecord
from stratpol.errors import InputError
from stratpol.learning.record import RECORD_SUFFIX, read_learning_record

PHASES = ("plans", "pool", "genex", "verification")


@dataclass(frozen=True)
class LearnedRow:
    """One domain: its learning record (None: not tried end to end yet; `"learned": false`: tried,
    and why it failed), the coverage of the learned policy and of the hand-assisted one, and the
    tests of each level."""

    domain: str
    record: dict | None
    learned: Coverage
    hand: Coverage
    tests: dict[str, int]


def learning_records(policies: Path) -> dict[str, dict]:
    """domain -> the learning record in `policies` (`D.learned.json`); an InputError naming a
    record that does not read."""
    records = {}
    for path in sorted(Path(policies).glob(f"*{RECORD_SUFFIX}")):
        try:
            records[path.name.removesuffix(RECORD_SUFFIX)] = read_learning_record(path)
        except (ValueError, OSError) as error:
            raise InputError(f"not a learning record: {error}", path) from None
    return records


def learned_rows(records: dict[str, dict], learned: Sequence[ProblemRecord], hand: Sequence[ProblemRecord],
                 problems: Sequence[Problem]) -> list[LearnedRow]:
    """A row per domain of `problems`: the learning record, and the rule policies' coverage in the
    runs `learned` (of the learned policies) and `hand` (of the hand-assisted ones)."""
    rows = []
    for domain in dict.fromkeys(p.domain for p in problems):
        tests = {level: sum(p.domain == domain and p.level == level for p in problems) for level in LEVELS}
        rows.append(LearnedRow(domain, records.get(domain), coverage(learned, "rules", domain),
                               coverage(hand, "rules", domain), tests))
    return rows


def render_learned(rows: Sequence[LearnedRow]) -> str:
    """The table in Markdown, one row per domain and a last row of totals."""
    lines = ["| domain | learned end to end | settings chosen | files verified / tested by runs / left out | "
             "features / rules | learning time, whole run (plans, pool, GENEX, verification) | coverage easy / medium / hard | "
             "hand-assisted | best reported |",
             "|---|---|---|---|---:|---|---|---|---:|"]
    for row in rows:
        record = row.record
        if record is None:
            learned = ["not yet", "", "", "", ""]
        elif not record["learned"]:
            left_out = len(record["files"]["left_out"])
            learned = [f"no: {_reasons(record)}", "", f"- / - / {left_out}", "", _phases(record)]
        else:
            files = record["files"]
            runs = "/".join(str(r) for r in sorted(set(files["tested_by_runs"].values())))
            learned = ["yes", record["settings"]["name"],
                       f"{len(files['verified'])} / {len(files['tested_by_runs'])}"
                       f"{f' ({runs} runs)' if runs else ''} / {len(files['left_out'])}",
                       f"{record['policy']['features']} / {record['policy']['rules']}", _phases(record)]
        lines.append(f"| {row.domain} | " + " | ".join(learned) + f" | {_levels(row.learned, row.tests)} | "
                     f"{_levels(row.hand, row.tests)} | {BEST_REPORTED.get(row.domain, '')} |")
    learned_total = sum(r.learned.total for r in rows)
    hand_total = sum(r.hand.total for r in rows)
    count = sum(r.record is not None and r.record["learned"] for r in rows)
    tests = sum(sum(r.tests.values()) for r in rows)
    best = sum(BEST_REPORTED.get(r.domain, 0) for r in rows)
    lines.append(f"| all | {count} of {len(rows)} | | | | | **{learned_total}** of {tests} | {hand_total} | {best} |")
    return "\n".join(lines + _failures(rows))


def _failures(rows: Sequence[LearnedRow]) -> list[str]:
    """Below the table, each domain tried and not learned: its command and every entry's reason in
    full (the evidence the table's cell cuts to a clause)."""
    failed = [r for r in rows if r.record is not None and not r.record["learned"]]
    if not failed:
        return []
    lines = ["", "Tried and not learned, with each portfolio entry's reason in full:", ""]
    for row in failed:
        record = row.record
        lines.append(f"- {row.domain}: `{record['command']}`, {record['total_seconds']:,.0f} s")
        attempts = record["attempts"] or [{"settings": "", "outcome": record["failure"]}]
        lines += [f"  - {a['settings'] + ': ' if a['settings'] else ''}{a['outcome']}" for a in attempts]
    return lines


def _reasons(record: dict) -> str:
    """Why no policy was learned: each portfolio entry's reason, cut to its first clause (a GENEX
    failure to the requirements it left, without the first one's rows)."""
    attempts = record["attempts"] or [{"settings": "", "outcome": record["failure"]}]
    return "; ".join(f"{a['settings']}: {a['outcome'].split(' (')[0].split('; first:')[0]}" if a["settings"]
                     else a["outcome"] for a in attempts)


def _phases(record: dict) -> str:
    """The whole run's seconds and its phases (every settings entry tried)."""
    seconds = record["seconds"]
    shown = ", ".join(f"{seconds.get(phase, 0):,.0f}" for phase in PHASES)
    return f"{record['total_seconds']:,.0f} s ({shown})"


def _levels(c: Coverage, tests: dict[str, int]) -> str:
    return "-" if not sum(c.run.values()) else " / ".join(level_cells(c, tests)) + f" = **{c.total}**"
