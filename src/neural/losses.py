"""Training losses of the Q-value paper: MAE to h*, and the regularisers that push non-teacher Q-values up.

Omega(s, a*) = sum over a_i != a* of max(0, B_i - Q(s, a_i)), with B_i = h*(s) + 1 (explicit) or
B_i = max(h*(s) + 1, cost(a_i) + h^LMcut(s'_i)) (heuristic). It is zero exactly when every
non-teacher Q-value is at or above its bound.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

REGULARISERS = ("none", "explicit", "heuristic")


def value_loss(values: torch.Tensor, cost_to_go: torch.Tensor) -> torch.Tensor:
    """Mean |V(s) - h*(s)|."""
    return (values - cost_to_go).abs().mean()


def regulariser_bounds(kind: str, cost_to_go: Sequence[float], action_costs: Sequence[Sequence[float]],
                       successor_heuristics: Sequence[Sequence[float]]) -> list[float]:
    """B_i of every action of every state, flat in state order (teacher actions included; they are masked)."""
    if kind not in REGULARISERS:
        raise ValueError(f"regulariser must be one of {REGULARISERS}, not {kind!r}")
    bounds = []
    for h_star, costs, heuristics in zip(cost_to_go, action_costs, successor_heuristics):
        for cost, heuristic in zip(costs, heuristics):
            bounds.append(h_star + 1 if kind != "heuristic" else max(h_star + 1, cost + heuristic))
    return bounds


def q_loss(q: torch.Tensor, action_graph: torch.Tensor, teacher: torch.Tensor, cost_to_go: torch.Tensor,
           bounds: torch.Tensor | None = None, weight: float = 1.0) -> torch.Tensor:
    """Mean over states of |Q(s, a*) - h*(s)| + weight * Omega(s, a*); no Omega when `bounds` is None.

    `q` and `bounds` are flat over the actions of the batch, `action_graph` maps each action to
    its state, `teacher` holds the flat index of each state's teacher action.
    """
    loss = (q.index_select(0, teacher) - cost_to_go).abs()
    if bounds is not None:
        penalties = torch.relu(bounds - q)
        penalties = penalties.index_fill(0, teacher, 0.0)
        omega = torch.zeros_like(cost_to_go).index_add_(0, action_graph, penalties)
        loss = loss + weight * omega
    return loss.mean()
