"""What the field reports on the IPC 2023 learning track's test sets (../shared/reference/
ipc2023_anchors.md): the competitors' coverage, counted from the competition's run logs, and the
coverage of WL-GOOSE and of the Q-value paper's R-GNN policies, published after it; the numbers are
the CSV files in `bench/data/`."""

from __future__ import annotations

from dataclasses import dataclass

from stratpol.bench.published import DATA, csv_rows

DOMAINS = ("blocksworld", "childsnack", "ferry", "floortile", "miconic", "rovers", "satellite", "sokoban",
           "spanner", "transport")
LEVELS = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Anchor:
    """One method's coverage on one domain: solved of the domain's test problems, and per level
    where the source gives it."""

    method: str
    solved: int
    levels: tuple[int, int, int] | None = None  # easy, medium, hard


def _competition() -> dict[str, list[Anchor]]:
    anchors: dict[str, list[Anchor]] = {}
    for row in csv_rows(DATA / "ipc2023_competition.csv"):
        levels = tuple(int(row[level]) for level in LEVELS) if row["easy"] else None
        anchors.setdefault(row["domain"], []).append(Anchor(row["method"], int(row["solved"]), levels))
    return anchors


def _q_paper(column: str) -> dict[str, tuple[float | None, ...]]:
    values: dict[str, list[float | None]] = {}
    for row in csv_rows(DATA / "q_paper_table4.csv"):
        values.setdefault(row["domain"], []).append(float(row[column]) if row[column] else None)
    return {domain: tuple(numbers) for domain, numbers in values.items()}


# The competition, per domain; WL-GOOSE after it (WL features, rank-SVM heuristic, GBFS; 30 minutes,
# 8 GB); the best coverage anyone reports per domain (the goal)
COMPETITION = _competition()
_REPORTED = csv_rows(DATA / "ipc2023_reported.csv")
WL_GOOSE = {row["domain"]: int(row["wl_goose"]) for row in _REPORTED}
BEST_REPORTED = {row["domain"]: int(row["best_reported"]) for row in _REPORTED}

# The Q-value paper (seeds/002), Table 4: coverage in percent and average plan lengths (None where
# no plan was found) of R-GNN V / Omega_exp / Omega_heu and LAMA-first as that paper ran it.
Q_PAPER_METHODS = ("gnn-v", "gnn-q-exp", "gnn-q-heu", "lama-first")  # our names for that table's columns
Q_PAPER_PERCENT = _q_paper("coverage_percent")
Q_PAPER_LENGTH = _q_paper("plan_length")


def best_competitor(domain: str) -> Anchor:
    """The competitor of the competition with the highest coverage on `domain` (the first listed on a tie)."""
    return max(COMPETITION[domain], key=lambda anchor: anchor.solved)
