"""The LSTM transition model: a two-layer LSTM over whole teacher trajectories (teacher forcing).

Input at step t is [phi(s_t), phi(g)] (the goal repeated along time); the head predicts
phi(s_{t+1}) (state mode: Linear-LayerNorm-ReLU-Linear, cosine loss) or its delta (delta mode:
one Linear, no activation, MSE), as in the paper's public code. Table 7: hidden 256, Adam with
learning rate 1e-2, batch 32, 250 epochs, the epoch with the best validation loss is kept.
At decoding time the hidden state is carried per beam entry and fed the true embedding of the
successor it chose.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn

from neural.wl.models import EmbeddedTrajectory, FitReport, targets

WEIGHTS_FILE = "lstm.pt"


class _Network(nn.Module):
    def __init__(self, dimension: int, hidden: int, mode: str) -> None:
        super().__init__()
        self.lstm = nn.LSTM(2 * dimension, hidden, num_layers=2, batch_first=True)
        self.head = nn.Linear(hidden, dimension) if mode == "delta" else nn.Sequential(
            nn.Linear(hidden, hidden), nn.LayerNorm(hidden), nn.ReLU(), nn.Linear(hidden, dimension))

    def forward(self, inputs: torch.Tensor, memory=None):
        outputs, memory = self.lstm(inputs, memory)
        return self.head(outputs), memory


def _loss(predicted: torch.Tensor, wanted: torch.Tensor, mask: torch.Tensor, mode: str) -> torch.Tensor:
    if mode == "delta":
        return ((predicted - wanted) ** 2).mean(dim=-1)[mask].mean()
    return (1.0 - nn.functional.cosine_similarity(predicted, wanted, dim=-1, eps=1e-8))[mask].mean()


def _batch(trajectories: Sequence[EmbeddedTrajectory], mode: str) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Padded inputs [B, T, 2D], targets [B, T, D] and the mask of real steps [B, T]."""
    longest = max(len(t.states) - 1 for t in trajectories)
    dimension = trajectories[0].goal.shape[0]
    inputs = np.zeros((len(trajectories), longest, 2 * dimension), dtype=np.float32)
    wanted = np.zeros((len(trajectories), longest, dimension), dtype=np.float32)
    mask = np.zeros((len(trajectories), longest), dtype=bool)
    for row, trajectory in enumerate(trajectories):
        steps = len(trajectory.states) - 1
        inputs[row, :steps, :dimension] = trajectory.states[:-1]
        inputs[row, :steps, dimension:] = trajectory.goal
        wanted[row, :steps] = targets(trajectory, mode)
        mask[row, :steps] = True
    return torch.from_numpy(inputs), torch.from_numpy(wanted), torch.from_numpy(mask)


class LSTMTransition:
    kind = "lstm"

    def __init__(self, mode: str, dimension: int, seed: int = 0, epochs: int = 250, threads: int = 1,
                 hidden: int = 256, learning_rate: float = 1e-2, batch_size: int = 32) -> None:
        self.mode = mode
        self.dimension = dimension
        self.seed = seed
        self.epochs = epochs
        self.threads = threads
        self.hidden = hidden
        self.learning_rate = learning_rate
        self.batch_size = batch_size
        torch.manual_seed(seed)
        self.network = _Network(dimension, hidden, mode)

    def fit(self, train: Sequence[EmbeddedTrajectory], validation: Sequence[EmbeddedTrajectory]) -> FitReport:
        started = time.perf_counter()
        torch.set_num_threads(self.threads)
        torch.manual_seed(self.seed)
        rng = np.random.default_rng(self.seed)
        train = [t for t in train if len(t.states) > 1]
        validation = [t for t in validation if len(t.states) > 1]
        optimiser = torch.optim.Adam(self.network.parameters(), lr=self.learning_rate)
        held_out = _batch(validation, self.mode) if validation else None
        best = (float("inf"), 0, float("inf"), copy.deepcopy(self.network.state_dict()))
        for epoch in range(self.epochs):
            self.network.train()
            order = rng.permutation(len(train))
            losses = []
            for start in range(0, len(order), self.batch_size):
                inputs, wanted, mask = _batch([train[i] for i in order[start:start + self.batch_size]], self.mode)
                optimiser.zero_grad()
                loss = _loss(self.network(inputs)[0], wanted, mask, self.mode)
                loss.backward()
                optimiser.step()
                losses.append(loss.item())
            train_loss = float(np.mean(losses))
            score = train_loss
            if held_out is not None:
                self.network.eval()
                with torch.no_grad():
                    score = _loss(self.network(held_out[0])[0], held_out[1], held_out[2], self.mode).item()
            if score < best[0]:
                best = (score, epoch, train_loss, copy.deepcopy(self.network.state_dict()))
        self.network.load_state_dict(best[3])
        self.network.eval()
        return FitReport(self.epochs, best[1] + 1, best[2], best[0] if held_out is not None else None,
                         time.perf_counter() - started)

    def predict(self, states: np.ndarray, goal: np.ndarray, memories: Sequence[object]) -> tuple[np.ndarray, list]:
        layers = self.network.lstm.num_layers
        zeros = torch.zeros(layers, 1, self.hidden)
        hidden = torch.cat([zeros if m is None else m[0] for m in memories], dim=1)
        cell = torch.cat([zeros if m is None else m[1] for m in memories], dim=1)
        inputs = torch.from_numpy(np.hstack([states, np.tile(goal, (len(states), 1))]).astype(np.float32))
        with torch.no_grad():
            outputs, (hidden, cell) = self.network(inputs.unsqueeze(1), (hidden, cell))
        after = [(hidden[:, i:i + 1].clone(), cell[:, i:i + 1].clone()) for i in range(len(states))]
        return outputs[:, 0].numpy().astype(np.float64), after

    def save(self, folder: Path) -> None:
        torch.save({"state_dict": self.network.state_dict(), "hidden": self.hidden}, Path(folder) / WEIGHTS_FILE)

    @classmethod
    def load(cls, folder: Path, mode: str, dimension: int, threads: int = 1) -> LSTMTransition:
        torch.set_num_threads(threads)
        saved = torch.load(Path(folder) / WEIGHTS_FILE, weights_only=True)
        model = cls(mode, dimension, hidden=saved["hidden"], threads=threads)
        model.network.load_state_dict(saved["state_dict"])
        model.network.eval()
        return model
