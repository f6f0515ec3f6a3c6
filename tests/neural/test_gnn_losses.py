"""MAE and the Q regularisers, against hand computations and as properties."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given
from hypothesis import strategies as st

from neural.losses import q_loss, regulariser_bounds, value_loss


def test_value_loss_is_the_mean_absolute_error():
    assert value_loss(torch.tensor([1.0, 5.0]), torch.tensor([2.0, 2.0])).item() == pytest.approx(2.0)


def test_bounds_by_hand():
    # one state with h* = 3 and three actions of cost 1 whose successors have h^LMcut 2, 4, 1120
    assert regulariser_bounds("explicit", [3.0], [[1, 1, 1]], [[2, 4, 1120]]) == [4.0, 4.0, 4.0]
    assert regulariser_bounds("heuristic", [3.0], [[1, 1, 1]], [[2, 4, 1120]]) == [4.0, 5.0, 1121.0]
    with pytest.raises(ValueError):
        regulariser_bounds("softmax", [3.0], [[1]], [[2]])


def test_q_loss_by_hand():
    # two states: actions 0-2 belong to state 0 (teacher 1), actions 3-4 to state 1 (teacher 3)
    q = torch.tensor([3.0, 2.5, 6.0, 1.0, 0.5])
    graph = torch.tensor([0, 0, 0, 1, 1])
    teacher = torch.tensor([1, 3])
    h_star = torch.tensor([3.0, 1.0])
    bounds = torch.tensor([4.0, 4.0, 4.0, 2.0, 2.0])
    # MAE: |2.5 - 3| = 0.5 and |1 - 1| = 0; Omega: state 0 (4 - 3) = 1 (action 2 is above); state 1: 2 - 0.5
    assert q_loss(q, graph, teacher, h_star).item() == pytest.approx(0.25)
    assert q_loss(q, graph, teacher, h_star, bounds).item() == pytest.approx((0.5 + 1.0 + 0.0 + 1.5) / 2)
    assert q_loss(q, graph, teacher, h_star, bounds, weight=0.5).item() == pytest.approx((0.5 + 0.5 + 0.75) / 2)


@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(-50, 50)), min_size=2, max_size=12),
       st.integers(0, 11))
def test_regulariser_is_zero_exactly_when_every_other_q_reaches_its_bound(pairs, teacher):
    teacher = teacher % len(pairs)
    q = torch.tensor([p[0] for p in pairs], dtype=torch.float64)
    bounds = torch.tensor([p[1] for p in pairs], dtype=torch.float64)
    graph = torch.zeros(len(pairs), dtype=torch.long)
    index = torch.tensor([teacher])
    h_star = q[teacher:teacher + 1].clone()  # the MAE part is zero
    loss = q_loss(q, graph, index, h_star, bounds).item()
    others_reach = all(q[i] >= bounds[i] for i in range(len(pairs)) if i != teacher)
    assert (loss == 0.0) == others_reach
