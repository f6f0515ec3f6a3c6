"""The relational GNN of Ståhlberg, Bonet and Geffner with a state-value or a Q-value head.

Object embeddings start at zero; each of L layers (shared weights) sends, for every atom
p(o_1..o_k), the k chunks of x + MLP_p(x) with x = [h_o1..h_ok] to its arguments, aggregates
them per node with a smooth maximum, and updates h <- h + LayerNorm(MLP_U([agg, h])).
V(s) = MLP(MLP(sum of object embeddings)); Q(s, a) = MLP([h_a, MLP(sum of object embeddings)]).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

import torch
import torch.nn.functional as F
from torch import nn

from neural.encoding import RelationalBatch

HEADS = ("value", "q")
ONE_EXP_MISH_FROM = 4096  # values


@dataclass(frozen=True)
class RGNNConfig:
    """Architecture of one model; saved beside its weights."""

    relations: dict[str, int] = field(default_factory=dict)  # relation -> arity
    head: str = "value"
    hidden: int = 32
    layers: int = 30
    beta: float = 12.0  # sharpness of the smooth maximum

    def __post_init__(self) -> None:
        if self.head not in HEADS:
            raise ValueError(f"head must be one of {HEADS}, not {self.head!r}")
        if self.hidden < 1 or self.layers < 1:
            raise ValueError("hidden size and layers must be positive")

    def to_json(self) -> dict:
        return asdict(self)


class Mish(nn.Module):
    """x tanh(softplus(x)). Without autograd, on CPU tensors of 4,096 values or more, it is computed as
    x n / (n + 2), n = e^x (e^x + 2), with one exp and in-place steps: torch's CPU mish kernel takes
    2.5x as long there (65,536 values: 203 against 79 us, measured idle) and was a quarter of a V
    decision's forward pass; on smaller tensors its single kernel is faster. They agree to 5e-7."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mish(x)


def mish(x: torch.Tensor) -> torch.Tensor:
    """Mish's function (the module's forward): one exp where it is faster, else torch's kernel."""
    if torch.is_grad_enabled() or x.numel() < ONE_EXP_MISH_FROM or x.device.type != "cpu":
        return F.mish(x)
    return _one_exp_mish(x)


def _one_exp_mish(x: torch.Tensor) -> torch.Tensor:
    e = x.clamp(max=20.0).exp_()  # above 20, n / (n + 2) is 1 in float32
    n = (e + 2.0).mul_(e)
    denominator = torch.add(n, 2.0, out=e)  # e is spent: two new tensors instead of four
    return n.div_(denominator).mul_(x)


def _mlp(inputs: int, outputs: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(inputs, inputs), Mish(), nn.Linear(inputs, outputs))


def _apply_mlp(mlp: nn.Sequential, x: torch.Tensor) -> torch.Tensor:
    """mlp(x) with the same kernels, to the bit, without nn.Module's call machinery: a forward pass
    calls an MLP per relation and layer (transport's Q, 16 layers: about 200 a decision) on a few
    dozen rows, where a module call's overhead (12 us a Linear against 5 us for F.linear) is most of
    the cost. A transport Q decision's forward pass: 1.1x-1.2x faster (sizes 30 and 80)."""
    first, _, second = mlp
    return F.linear(mish(F.linear(x, first.weight, first.bias)), second.weight, second.bias)


def _apply_norm(norm: nn.LayerNorm, x: torch.Tensor) -> torch.Tensor:
    """norm(x), as _apply_mlp, without the module call."""
    return F.layer_norm(x, norm.normalized_shape, norm.weight, norm.bias, norm.eps)


class RelationalGNN(nn.Module):
    """R-GNN over RelationalBatches; forward gives V per state, or Q per action node."""

    def __init__(self, config: RGNNConfig) -> None:
        super().__init__()
        self.config = config
        d = config.hidden
        self._relation_keys = {name: f"r{number}" for number, name in enumerate(config.relations)}
        self.messages = nn.ModuleDict({
            self._relation_keys[name]: _mlp(arity * d, arity * d) for name, arity in config.relations.items()
        })
        self.update = _mlp(2 * d, d)
        self.norm = nn.LayerNorm(d)
        self.readout = _mlp(d, d)
        self.head = _mlp(d, 1) if config.head == "value" else _mlp(2 * d, 1)

    def object_embeddings(self, batch: RelationalBatch) -> torch.Tensor:
        """Node embeddings after L layers, shape (nodes, hidden)."""
        d = self.config.hidden
        h = torch.zeros(batch.node_count, d, device=self.norm.weight.device)
        relations = [(name, ids) for name, ids in batch.relations.items() if ids.numel()]
        if relations:
            targets = torch.cat([ids for _, ids in relations])
            received = torch.zeros(batch.node_count, device=h.device).index_add_(
                0, targets, torch.ones_like(targets, dtype=h.dtype)) > 0
        for _ in range(self.config.layers):
            if not relations:
                aggregated = torch.zeros_like(h)
            else:
                messages = []
                for name, ids in relations:
                    arity = self.config.relations[name]
                    x = h.index_select(0, ids).view(-1, arity * d)
                    messages.append((x + _apply_mlp(self.messages[self._relation_keys[name]], x)).view(-1, d))
                aggregated = _smooth_maximum(torch.cat(messages), targets, batch.node_count, self.config.beta)
                aggregated = torch.where(received.unsqueeze(1), aggregated, torch.zeros_like(aggregated))
            h = h + _apply_norm(self.norm, _apply_mlp(self.update, torch.cat([aggregated, h], dim=1)))
        return h

    def state_embeddings(self, batch: RelationalBatch, h: torch.Tensor) -> torch.Tensor:
        summed = torch.zeros(batch.graphs, self.config.hidden, device=h.device)
        summed.index_add_(0, batch.object_graph, h.index_select(0, batch.object_nodes))
        return _apply_mlp(self.readout, summed)

    def forward(self, batch: RelationalBatch) -> torch.Tensor:
        """V(s) per state (shape (graphs,)), or Q(s, a) per action node (shape (actions,))."""
        h = self.object_embeddings(batch)
        states = self.state_embeddings(batch, h)
        if self.config.head == "value":
            return _apply_mlp(self.head, states).squeeze(1)
        actions = h.index_select(0, batch.action_nodes)
        pairs = torch.cat([actions, states.index_select(0, batch.action_graph)], dim=1)
        return _apply_mlp(self.head, pairs).squeeze(1)


def _smooth_maximum(messages: torch.Tensor, targets: torch.Tensor, nodes: int, beta: float) -> torch.Tensor:
    """Per node and channel: m + log(sum exp(beta (x - m))) / beta, m the (detached) hard maximum.
    Without autograd `messages` is overwritten."""
    index = targets.unsqueeze(1).expand_as(messages)
    maximum = torch.zeros(nodes, messages.shape[1], device=messages.device, dtype=messages.dtype)
    maximum = maximum.scatter_reduce(0, index, messages.detach(), reduce="amax", include_self=False)
    if torch.is_grad_enabled():
        exponentials = torch.exp(beta * (messages - maximum.index_select(0, targets)))
    else:  # the same in the messages' own memory (a fresh tensor the caller no longer reads): they
        # are the largest tensors of a forward pass, and a new one costs more than the arithmetic
        exponentials = messages.sub_(maximum.index_select(0, targets)).mul_(beta).exp_()
    sums = torch.zeros_like(maximum).index_add_(0, targets, exponentials)
    return maximum + torch.log(sums + 1e-16) / beta
