"""Published numbers as data (the CSV files in `data/`), and the GENEX paper's tables (Bonet &
Geffner, KR 2025) read from them: Table 1 (the domains WRAPPER learns), Table 2 (those where it
found no policy, with the reason) and Table 3 (coverage on the test sets). `stratpol bench
learning` and `bench testing` print them under our rows."""

from __future__ import annotations

import csv
import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

DATA = Path(__file__).parent / "data"
R = TypeVar("R")


@dataclass(frozen=True)
class PaperRow:
    """One row of the paper's Table 1, or of its Table 2 with the `reason` WRAPPER found no general
    policy ("Edge": a good transition no pool feature changes across; "Timeout": killed after 12
    hours, no times recorded). Table 2 has no |G| and |r|, and its rendering garbles the strategy."""

    instances: int
    states: int
    pool: int
    strategy: str
    outer: int
    inner: int
    last_subset: int
    last_inner: int
    good: int
    bad: int
    requirements: int
    features: int | None
    rules: int | None
    preprocessing: float | None
    genex: float | None
    verification: float | None
    total: float | None
    reason: str | None = None


@dataclass(frozen=True)
class PaperCoverage:
    """One row of the paper's Table 3: test instances, coverage, and effective width (max, avg)."""

    instances: int
    coverage: float
    max_width: float
    mean_width: float


def csv_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a CSV file of published numbers, by column name; `#` lines are comments."""
    with open(path, newline="") as table:
        return list(csv.DictReader(line for line in table if not line.startswith("#")))


def read_table(path: Path, row_type: type[R]) -> dict[str, R]:
    """domain -> row of a published table: a CSV file with a `domain` column and one column per
    field of `row_type` (an empty cell is None where the field may be None); `#` lines are comments."""
    rows = {}
    for record in csv_rows(path):
        values = {}
        for field in dataclasses.fields(row_type):
            text = record[field.name]
            kind = str(field.type)
            if text == "" and "None" in kind:
                values[field.name] = None
            else:
                values[field.name] = int(text) if kind.startswith("int") else \
                    float(text) if kind.startswith("float") else text
        rows[record["domain"]] = row_type(**values)
    return rows


PAPER = read_table(DATA / "genex_table1.csv", PaperRow)
TABLE2 = read_table(DATA / "genex_table2.csv", PaperRow)
TABLE3 = read_table(DATA / "genex_table3.csv", PaperCoverage)
