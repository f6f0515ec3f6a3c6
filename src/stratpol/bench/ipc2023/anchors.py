"""What the field reports on the IPC 2023 learning track's test sets (../shared/reference/
ipc2023_anchors.md): the competitors' coverage, counted from the competition's run logs, and the
coverage of WL-GOOSE and of the Q-value paper's R-GNN policies, published after it."""

from __future__ import annotations

from dataclasses import dataclass

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


# The competition (30 minutes, 8 GiB, one core per problem). Vanir ran a learned sketch policy in
# ferry and miconic and fell back to LAMA in rovers, satellite and sokoban.
COMPETITION: dict[str, list[Anchor]] = {
    "blocksworld": [Anchor("GOFAI", 61, (30, 30, 1)), Anchor("HUZAR", 61, (30, 27, 4)),
                    Anchor("FD-SMAC", 61, (30, 29, 2)), Anchor("Muninn", 39), Anchor("ASNets", 5)],
    "childsnack": [Anchor("GOFAI", 35, (29, 5, 1)), Anchor("HUZAR", 35, (29, 5, 1)), Anchor("FD-SMAC", 32, (30, 2, 0)),
                   Anchor("Muninn", 11), Anchor("ASNets", 0)],
    "ferry": [Anchor("GOFAI", 64, (30, 30, 4)), Anchor("HUZAR", 70, (30, 30, 10)), Anchor("FD-SMAC", 66, (30, 30, 6)),
              Anchor("Muninn", 42), Anchor("Vanir", 77, (30, 30, 17))],
    "floortile": [Anchor("GOFAI", 35, (30, 5, 0)), Anchor("HUZAR", 26, (26, 0, 0)), Anchor("FD-SMAC", 26, (26, 0, 0)),
                  Anchor("Muninn", 0)],
    "miconic": [Anchor("GOFAI", 90, (30, 30, 30)), Anchor("HUZAR", 90, (30, 30, 30)),
                Anchor("FD-SMAC", 74, (30, 30, 14)), Anchor("Muninn", 30), Anchor("Vanir", 90, (30, 30, 30)),
                Anchor("ASNets", 16)],
    "rovers": [Anchor("GOFAI", 56, (30, 25, 1)), Anchor("HUZAR", 66, (30, 28, 8)), Anchor("FD-SMAC", 67, (30, 28, 9)),
               Anchor("Muninn", 15), Anchor("Vanir", 68), Anchor("ASNets", 8)],
    "satellite": [Anchor("GOFAI", 76, (30, 30, 16)), Anchor("HUZAR", 88, (30, 30, 28)),
                  Anchor("FD-SMAC", 90, (30, 30, 30)), Anchor("Muninn", 16), Anchor("Vanir", 89)],
    "sokoban": [Anchor("GOFAI", 42, (30, 12, 0)), Anchor("HUZAR", 40, (30, 10, 0)), Anchor("FD-SMAC", 36, (30, 6, 0)),
                Anchor("Muninn", 26), Anchor("Vanir", 40), Anchor("ASNets", 0)],
    "spanner": [Anchor("GOFAI", 30, (30, 0, 0)), Anchor("HUZAR", 30), Anchor("FD-SMAC", 30), Anchor("Muninn", 32),
                Anchor("ASNets", 9)],
    "transport": [Anchor("GOFAI", 71, (30, 30, 11)), Anchor("HUZAR", 66, (30, 30, 6)),
                  Anchor("FD-SMAC", 66, (30, 30, 6)), Anchor("Muninn", 17), Anchor("ASNets", 2)],
}

# WL-GOOSE (WL features, rank-SVM heuristic, GBFS; 30 minutes, 8 GB), after the competition.
WL_GOOSE = {"blocksworld": 85, "childsnack": 24, "ferry": 77, "floortile": 3, "miconic": 90, "rovers": 56,
            "satellite": 57, "sokoban": 37, "spanner": 72, "transport": 56}

# The best coverage anyone reports per domain (the goal; spanner's 73 and sokoban's 43
# come from papers after the competition).
BEST_REPORTED = {"blocksworld": 85, "childsnack": 35, "ferry": 77, "floortile": 35, "miconic": 90, "rovers": 68,
                 "satellite": 90, "sokoban": 43, "spanner": 73, "transport": 71}

# The Q-value paper (seeds/002), Table 4: coverage in percent, R-GNN V / Omega_exp / Omega_heu and
# LAMA-first as that paper ran it.
Q_PAPER_PERCENT = {
    "blocksworld": (47.8, 78.9, 78.9, 56.7), "childsnack": (5.6, 51.1, 54.4, 35.2), "ferry": (54.4, 67.8, 67.8, 67.8),
    "floortile": (0.0, 36.7, 37.8, 16.9), "rovers": (24.4, 36.7, 37.8, 57.8), "satellite": (32.2, 64.4, 66.7, 85.6),
    "transport": (24.4, 70.0, 74.4, 64.4),
}


# The same table's average plan lengths (None where no plan was found).
Q_PAPER_LENGTH = {
    "blocksworld": (90.0, 233.1, 232.1, 288.7), "childsnack": (41.2, 41.4, 41.5, 41.8),
    "ferry": (73.7, 119.6, 119.6, 150.3), "floortile": (None, 93.5, 109.3, 51.0), "rovers": (49.0, 66.2, 80.3, 171.0),
    "satellite": (36.9, 71.2, 68.2, 104.4), "transport": (69.6, 91.3, 96.8, 70.7),
}
Q_PAPER_METHODS = ("gnn-v", "gnn-q-exp", "gnn-q-heu", "lama-first")  # our names for that table's columns


def best_competitor(domain: str) -> Anchor:
    """The competitor of the competition with the highest coverage on `domain` (the first listed on a tie)."""
    return max(COMPETITION[domain], key=lambda anchor: anchor.solved)
