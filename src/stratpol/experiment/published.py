"""The seeds' published Scale / SCov scores of R-GNN policies, which the grid tables print beside ours.

Both papers judge with the scaling protocol on generated instances (tau 0.3, zeta 2, step bound
L + n): the Q-value paper (seeds/002, Table 3, R-GNN: V, vanilla Q, Q with Omega_exp and with
Omega_heu; epsilon 0.1, L = 100, sizes up to 100, visitall 1000) and the scaling paper (seeds/000,
Table 1: one V training per domain, the checkpoints that fixed-set loss, fixed-set coverage and
dynamic validation select; epsilon 0.05, L per domain, no largest size). Our method names: gnn-v, gnn-q, gnn-q-exp, gnn-q-heu, gnn-v@fixed-loss,
gnn-v@fixed-coverage (gnn-v is the dynamic-validation checkpoint in both).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Published:
    source: str  # the paper, short: "Q-value paper" or "scaling paper"
    scale: float
    sum_coverage: float

    def describe(self) -> str:
        return f"{self.source} {self.scale:g} / {self.sum_coverage:g}"


_Q_METHODS = ("gnn-v", "gnn-q", "gnn-q-exp", "gnn-q-heu")
_Q_TABLE3 = {  # domain: (Scale, SCov) of V, Q, Omega_exp, Omega_heu
    "blocksworld": ((52, 44.5), (5, 1.6), (54, 47.8), (55, 48.2)),
    "childsnack": ((71, 43.4), (16, 4.2), (100, 93.0), (100, 93.0)),
    "ferry": ((100, 84.5), (30, 12.9), (100, 85.2), (100, 84.5)),
    "floortile": ((8, 0.0), (8, 0.0), (60, 44.5), (62, 45.6)),
    "rovers": ((53, 29.8), (36, 17.1), (100, 66.5), (100, 64.4)),
    "satellite": ((50, 28.2), (37, 21.5), (100, 69.4), (100, 69.1)),
    "transport": ((72, 46.6), (46, 24.7), (100, 90.4), (100, 92.7)),
    "gripper": ((100, 77.5), (36, 15.2), (100, 88.8), (100, 88.9)),
    "logistics": ((47, 24.9), (50, 25.9), (100, 82.4), (100, 84.3)),
    "visitall": ((256, 11.4), (256, 11.4), (961, 25.1), (961, 22.8)),
}

_SCALING_METHODS = ("gnn-v@fixed-loss", "gnn-v@fixed-coverage", "gnn-v")
_SCALING_TABLE1 = {  # domain: (Scale, SumCov) selected by loss, coverage, dynamic coverage
    "blocksworld": ((56, 45.42), (24, 17.97), (59, 52.25)),
    "ferry": ((107, 72.24), (57, 37.74), (148, 99.34)),
    "satellite": ((25, 15.03), (27, 17.03), (32, 19.33)),
    "transport": ((23, 11.46), (37, 24.0), (67, 41.25)),
    "childsnack": ((67, 37.06), (54, 26.45), (95, 51.59)),
    "rovers": ((15, 3.41), (27, 12.57), (32, 16.32)),
    "gripper": ((40, 29.84), (27, 24.39), (74, 53.98)),
    "visitall": ((64, 4.81), (196, 9.88), (484, 17.13)),
    "logistics": ((13, 6.13), (15, 7.44), (29, 15.33)),
}


def published(domain: str, method: str) -> list[Published]:
    """What the seeds report for `method` on `domain` (empty where they report nothing)."""
    found = []
    for source, methods, table in (("Q-value paper", _Q_METHODS, _Q_TABLE3),
                                   ("scaling paper", _SCALING_METHODS, _SCALING_TABLE1)):
        if domain in table and method in methods:
            scale, sum_coverage = table[domain][methods.index(method)]
            found.append(Published(source, scale, sum_coverage))
    return found
